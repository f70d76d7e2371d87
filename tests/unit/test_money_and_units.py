"""Amounts with their subunits, scaled currency codes, South Asian scales, units glued to
their number, metres written "m", one-character fractions, "one" before a unit, negative
temperatures and percents, thousands split by a space and earthquake magnitudes, on sentences
written for these tests (not from any labelled set, not from the generator's word lists)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lake.silver.extract import extract_claims
from lake.silver.quantities import bounds, find_quantities


def claims_of(text: str) -> list[tuple]:
    return [(c.claim_text, c.kind, c.value, c.unit) for c in extract_claims("a1", text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # An amount and its hundredths: one amount.
        (
            "The ferry ticket cost 4 dollars 75 cents last summer.",
            [("4 dollars 75 cents", "money", 4.75, "USD"), ("last summer", "date", None, None)],
        ),
        (
            "A coffee there now costs six euros and twenty cents.",
            [("six euros and twenty cents", "money", 6.2, "EUR")],
        ),
        (
            "Members of the club will pay 12 USD 40.",
            [("12 USD 40", "money", 12.4, "USD")],
        ),
        # Not hundredths: a count of its own after "and", a scaled amount, a second amount.
        (
            "He paid $15 and 20 volunteers paid nothing.",
            [("$15", "money", 15.0, "USD"), ("20 volunteers", "count", 20.0, "volunteers")],
        ),
        (
            "The fund lost $3 million and 40 jobs.",
            [("$3 million", "money", 3_000_000.0, "USD"), ("40 jobs", "count", 40.0, "jobs")],
        ),
        # Scale letters on currency codes, and scale words after them.
        (
            "Operating profit reached MSEK 310 in the quarter.",
            [("MSEK 310", "money", 310_000_000.0, "SEK")],
        ),
        (
            "The insurer set aside 75 EUR million for storm damage.",
            [("75 EUR million", "money", 75_000_000.0, "EUR")],
        ),
        (
            "The port paid 40 million USD for the cranes.",
            [("40 million USD", "money", 40_000_000.0, "USD")],
        ),
        # South Asian scales and digit grouping.
        (
            "The farmers' union sought 25 lakh rupees in relief.",
            [("25 lakh rupees", "money", 2_500_000.0, "INR")],
        ),
        (
            "The municipality spent 3 crore rupees on drains.",
            [("3 crore rupees", "money", 30_000_000.0, "INR")],
        ),
        (
            "The contractor billed 45,60,000 rupees for the bridge.",
            [("45,60,000 rupees", "money", 4_560_000.0, "INR")],
        ),
        # Units glued to their number.
        (
            "Trucks are limited to 30kph on the bridge.",
            [("30kph", "count", 30.0, "kilometers per hour")],
        ),
        (
            "The new warehouse covers 8500m2 near the port.",
            [("8500m2", "count", 8500.0, "square meters")],
        ),
        # "m" after a number: metres before a dimension word, else millions.
        (
            "The sea wall is 4.5m high and cost £12m.",
            [("4.5m high", "length", 4.5, "meters"), ("£12m", "money", 12_000_000.0, "GBP")],
        ),
        # One-character fractions.
        (
            "Rain left 2½ inches of water in the square.",
            [("2½ inches", "length", 2.5, "inches")],
        ),
        # "one" before a unit is a count; elsewhere a pronoun.
        (
            "The crowd stretched for one mile along the river.",
            [("one mile", "length", 1.0, "miles")],
        ),
        ("One of the organisers said no one was hurt.", []),
        # A minus sign where negative values are usual; elsewhere a dash.
        (
            "Overnight lows fell to -12 degrees in the valley.",
            [("-12 degrees", "count", -12.0, "degrees")],
        ),
        (
            "It was minus 7°C at the summit and growth was -0.4% in the quarter.",
            [
                ("minus 7°C", "count", -7.0, "degrees"),
                ("-0.4%", "percent", -0.4, "percent"),
            ],
        ),
        ("Chapters 3 -9 were rewritten.", [("3", "count", 3.0, None)]),
        # An earthquake's magnitude, however it is written, is one measure: "magnitude".
        (
            "A magnitude 6.1 earthquake hit the valley; a 5.4-magnitude aftershock followed.",
            [
                ("magnitude 6.1", "count", 6.1, "magnitude"),
                ("5.4-magnitude aftershock", "count", 5.4, "magnitude"),
            ],
        ),
        (
            "Seismologists put it at 6.3 on the Richter scale, not a magnitude of 6.0.",
            [
                ("6.3 on the Richter scale", "count", 6.3, "magnitude"),
                ("magnitude of 6.0", "count", 6.0, "magnitude"),
            ],
        ),
        # "000" alone is never a figure: "12, 000" is twelve thousand.
        (
            "Police said 12, 000 marchers filled the square.",
            [("12, 000 marchers", "count", 12_000.0, "marchers")],
        ),
        (
            "On March 5, 200 people marched.",
            [("March 5", "date", None, None), ("200 people", "count", 200.0, "people")],
        ),
    ],
)
def test_amounts_and_units(text, expected):
    assert claims_of(text) == expected


@given(
    whole=st.integers(min_value=1, max_value=999_999),
    cents=st.integers(min_value=1, max_value=99),
    form=st.sampled_from(
        ["{w} dollars {c} cents", "{w} dollars and {c} cents", "${w} and {c} cents", "{w} USD {c}"]
    ),
)
def test_an_amount_and_its_cents_are_one_amount(whole, cents, form):
    written = form.format(w=f"{whole:,}", c=cents)
    found = find_quantities(f"The bill came to {written}.")
    assert [(q.kind, q.value, q.currency) for q in found] == [("money", whole + cents / 100, "USD")]


def _grouped_in_lakhs(n: int) -> str:
    """12,34,567: the last three digits, then groups of two."""
    digits = str(n)
    head, tail = digits[:-3], digits[-3:]
    pairs = []
    while len(head) > 2:
        head, pair = head[:-2], head[-2:]
        pairs.insert(0, pair)
    return ",".join([head, *pairs, tail])


@given(st.integers(min_value=100_000, max_value=99_99_99_999))
def test_numbers_grouped_in_lakhs_read_whole(n):
    found = find_quantities(f"The scheme cost {_grouped_in_lakhs(n)} rupees.")
    assert [(q.kind, q.value, q.currency) for q in found] == [("money", float(n), "INR")]


@given(
    value=st.integers(min_value=1, max_value=9_999),
    code=st.sampled_from(["USD", "EUR", "GBP", "SEK", "NOK"]),
    letter=st.sampled_from(["M", "K"]),
    before=st.booleans(),
)
def test_a_scale_letter_on_a_currency_code_scales_the_amount(value, code, letter, before):
    written = f"{letter}{code} {value}" if before else f"{value} {letter}{code}"
    found = find_quantities(f"Sales reached {written} last year.")
    scale = 1_000_000 if letter == "M" else 1_000
    assert [(q.kind, q.value, q.currency) for q in found] == [("money", value * scale, code)]


@given(
    value=st.floats(min_value=-1e6, max_value=1e6, allow_nan=False, allow_infinity=False),
    qualifier=st.sampled_from(["exact", "approximate", "almost"]),
)
def test_bounds_run_low_to_high_and_hold_the_value(value, qualifier):
    low, high = bounds(qualifier, value)
    assert low <= value <= high


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # An adverb after a count is not the counted noun ("respectivelies").
        (
            "The twins, 16 and 13 respectively, were at the ceremony.",
            [("16", "count", 16.0, None), ("13", "count", 13.0, None)],
        ),
        (
            "Of the 33 seats, 23 currently held by Democrats are at stake.",
            [("33 seats", "count", 33.0, "seats"), ("23", "count", 23.0, "seats")],
        ),
        # Before a noun, an "-ly" word is an adjective of it.
        (
            "Pollsters reached 400 likely voters.",
            [("400 likely voters", "count", 400.0, "voters")],
        ),
        (
            "The home has 40 elderly residents.",
            [("40 elderly residents", "count", 40.0, "residents")],
        ),
    ],
)
def test_an_adverb_after_a_count_ends_its_noun_phrase(text, expected):
    assert claims_of(text) == expected


@given(
    st.integers(2, 900),
    st.sampled_from(["currently", "reportedly", "respectively", "apparently", "initially"]),
    st.sampled_from([",", " held", " remained", " are", "."]),
)
def test_no_count_is_of_an_adverb(n, adverb, after):
    for claim in extract_claims("a1", f"Officials said {n} {adverb}{after} in the city."):
        assert claim.unit is None or not claim.unit.endswith("lies"), claim


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # An initialism with its periods is a word of the noun phrase, like "ICE" or "GOP".
        (
            "He visited the two U.S. Capitol Police officers who were hurt.",
            [("two U.S. Capitol Police officers", "count", 2.0, "officers")],
        ),
        (
            "About 2,000 U.N. peacekeepers left.",
            [("About 2,000 U.N. peacekeepers", "count", 2000.0, "peacekeepers")],
        ),
        # At the end of the sentence it ends the phrase as any word does.
        ("The plant employs 500 workers in the U.S.", [("500 workers", "count", 500.0, "workers")]),
    ],
)
def test_an_initialism_with_periods_belongs_to_the_noun_phrase(text, expected):
    assert claims_of(text) == expected


@given(
    st.integers(2, 900),
    st.sampled_from(["U.S.", "U.N.", "E.U.", "D.C."]),
    st.sampled_from(["officers", "troops", "diplomats", "firms"]),
)
def test_a_count_before_an_initialism_counts_the_noun_after_it(n, initials, noun):
    (claim,) = extract_claims("a1", f"Officials said {n} {initials} {noun} were there.")
    assert (claim.value, claim.unit) == (n, noun)
