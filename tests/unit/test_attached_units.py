"""Units written onto their number ("a 3-inch pipe", "75ml"), currency codes ("USD 200") and
fractions ("10 1/2 miles"), on sentences written for these tests (not from any labelled set, not
from the generator's word lists)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lake.silver import lexicon as lx
from lake.silver.extract import extract_claims
from lake.silver.kinds.length import UNIT_SPELLINGS
from lake.silver.kinds.mass import UNIT_SPELLINGS as MASS_SPELLINGS


def claims_of(text: str) -> list:
    return [c for c in extract_claims("a1", text) if c.kind != "date"]


@pytest.mark.parametrize(
    ("text", "span", "value", "unit", "key"),
    [
        # a length written onto its number names the noun it measures, outside its span
        ("Crews laid a 3-inch slab over the drain.", "3-inch", 3, "inches", "length:slab"),
        # so does a mass
        (
            "A 2,000-pound bomb was found near the pier.",
            "2,000-pound",
            2000,
            "pounds",
            "mass:bomb",
        ),
        (
            "The family bought a 1,500-square-foot house.",
            "1,500-square-foot house",
            1500,
            "square feet",
            "square feet:house",
        ),
        (
            "Inspectors seized a 7.62mm rifle.",
            "7.62mm",
            7.62,
            "millimeters",
            "length:rifle",
        ),
        ("The package held 200lbs. of flour.", "200lbs", 200, "pounds", "mass:flour"),
        (
            "The truck hit 90mph on the ramp.",
            "90mph",
            90,
            "miles per hour",
            "miles per hour:truck",
        ),
        (
            "Flooding closed a 10-mile stretch of Route 9.",
            "10-mile",
            10,
            "miles",
            "length:stretch",
        ),
    ],
)
def test_a_unit_attached_to_its_number_is_the_claims_unit(text, span, value, unit, key):
    (claim,) = claims_of(text)
    assert (claim.claim_text, claim.value, claim.unit, claim.measure_key) == (
        span,
        value,
        unit,
        key,
    )
    assert claim.kind == (key.split(":")[0] if key.startswith(("length:", "mass:")) else "count")
    assert text[claim.char_start : claim.char_end] == claim.claim_text


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("The F-16 and the 747s were grounded.", []),  # names and models, not units
        ("Cases of COVID-19 rose.", []),
        ("The 5G network went live.", []),  # "g" is not an attached unit
        ("The 9/11 attacks are remembered.", []),  # not a fraction
        ("The store is open 24/7.", []),
    ],
)
def test_no_attached_unit_or_fraction_where_none_is_stated(text, values):
    assert [c.value for c in claims_of(text)] == values


@pytest.mark.parametrize(
    ("text", "span", "kind", "value", "unit"),
    [
        ("The cable ran 10 1/2 miles under the bay.", "10 1/2 miles", "length", 10.5, "miles"),
        ("The track is 1/4 mile long.", "1/4 mile long", "length", 0.25, "miles"),
        ("About 3/4 of the voters backed it.", "About 3/4", "ratio", 0.75, None),
    ],
)
def test_a_fraction_is_one_value(text, span, kind, value, unit):
    (claim,) = claims_of(text)
    assert (claim.claim_text, claim.kind, claim.value, claim.unit) == (span, kind, value, unit)


def test_a_dimension_word_after_the_unit_keeps_the_unit():
    (claim,) = claims_of("The wall is eight feet tall.")
    assert (claim.value, claim.unit, claim.measure_key) == (8, "feet", "length:wall height")


@given(
    number=st.integers(min_value=1, max_value=999_999),
    spelling=st.sampled_from(sorted(lx.ATTACHED_UNITS)),
    joiner=st.sampled_from(["-", ""]),
    noun=st.sampled_from(["pipe", "barge", "field", "tank"]),
)
def test_any_attached_unit_reads_back_its_number_and_unit(number, spelling, joiner, noun):
    attached = f"{number:,}{joiner}{spelling}"
    text = f"Workers moved a {attached} {noun} on Monday."
    (claim,) = claims_of(text)
    assert claim.value == number
    length = UNIT_SPELLINGS.get(lx.ATTACHED_UNITS[spelling])
    mass = MASS_SPELLINGS.get(lx.ATTACHED_UNITS[spelling])
    assert claim.unit == (length or mass or lx.ATTACHED_UNITS[spelling])
    # a length's or a mass's span is its figure; the noun it measures is its subject
    assert claim.claim_text == (attached if length or mass else f"{attached} {noun}")
    assert claim.kind == ("length" if length else "mass" if mass else "count")
    assert text[claim.char_start : claim.char_end] == claim.claim_text


@pytest.mark.parametrize(
    ("text", "span", "value"),
    [
        ("The fund paid USD 200 to each family.", "USD 200", 200),
        ("Shares closed at USD115.5 on Friday.", "USD115.5", 115.5),
        ("Sales reached EUR 1.2 billion last year.", "EUR 1.2 billion", 1.2e9),
        ("Each ticket cost 40GBP at the door.", "40GBP", 40),
    ],
)
def test_a_currency_code_makes_money(text, span, value):
    (claim,) = claims_of(text)
    assert (claim.kind, claim.value, claim.claim_text) == ("money", value, span)
    assert text[claim.char_start : claim.char_end] == claim.claim_text


def test_a_currency_code_is_upper_case():
    assert [(c.kind, c.value) for c in claims_of("The usd 40 note.")] == [("count", 40)]


@pytest.mark.parametrize(
    ("text", "span", "kind", "value", "key"),
    [
        ("Half a million people fled the coast.", "Half a million people", "count", 5e5, None),
        (
            "A quarter of a million homes lost power.",
            "A quarter of a million homes",
            "count",
            2.5e5,
            None,
        ),
        (
            "One and a half million people voted early.",
            "One and a half million people",
            "count",
            1.5e6,
            None,
        ),
        ("They raised a half-million dollars.", "a half-million dollars", "money", 5e5, None),
        ("Two-thirds of voters backed the plan.", "Two-thirds", "ratio", 0.6667, "ratio:voters"),
        ("Nearly half of the workers left.", "Nearly half", "ratio", 0.5, "ratio:workers"),
        (
            "Roughly a third of homes were damaged.",
            "Roughly a third",
            "ratio",
            0.3333,
            "ratio:homes",
        ),
    ],
)
def test_a_fraction_in_words_is_its_value(text, span, kind, value, key):
    (claim,) = claims_of(text)
    assert (claim.claim_text, claim.kind, claim.value) == (span, kind, value)
    assert key is None or claim.measure_key == key
    assert text[claim.char_start : claim.char_end] == claim.claim_text


@pytest.mark.parametrize(
    "text",
    [
        "In the second half of the year sales fell.",
        "He won a third term.",
        "Sales rose in the third quarter.",
        "A half-hour show followed.",
    ],
)
def test_no_share_where_a_fraction_word_ranks_or_names_a_period(text):
    assert [c.claim_text for c in claims_of(text) if c.kind == "ratio"] == []
