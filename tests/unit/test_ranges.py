"""Stated ranges: one claim with lower and upper ends and qualifier "range", on sentences
written for these tests (not from any labelled set, not from the generator's word lists)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lake.silver.extract import extract_claims


def claims_of(text: str) -> list:
    return extract_claims("a1", text)


@pytest.mark.parametrize(
    ("text", "span", "kind", "lower", "upper", "unit", "value_text", "key"),
    [
        (
            "Between 40 and 45 volunteers cleared the beach.",
            "Between 40 and 45 volunteers",
            "count",
            40,
            45,
            "volunteers",
            "40-45",
            "volunteers",
        ),
        (
            "The levee held back 8-10 feet of water.",
            "8-10 feet",
            "length",
            8,
            10,
            "feet",
            "8-10",
            "length:water",
        ),
        (
            "Repairs will cost $3-4 million, the county said.",
            "$3-4 million",
            "money",
            3e6,
            4e6,
            "USD",
            "3000000-4000000",
            "costs",
        ),
        (
            "Turnout fell 6 to 9 percent this spring.",
            "6 to 9 percent",
            "percent",
            6,
            9,
            "percent",
            "6-9",
            "percent:turnouts",
        ),
        (
            "Forecasters expect from 20 to 30 centimetres of snow.",
            "from 20 to 30 centimetres",
            "length",
            20,
            30,
            "centimeters",
            "20-30",
            "length:snow",
        ),
        (
            "The plant will hire between two and three thousand workers.",
            "between two and three thousand workers",
            "count",
            2000,
            3000,
            "workers",
            "2000-3000",
            "workers",
        ),
        (
            "The repairs could take between six and eight weeks.",
            "between six and eight weeks",
            "duration",
            6,
            8,
            "weeks",
            "P6W-P8W",
            "duration:repairs",
        ),
        (
            "Crews worked 10-14 hours a shift.",
            "10-14 hours",
            "duration",
            10,
            14,
            "hours",
            "PT10H-PT14H",
            None,
        ),
    ],
)
def test_a_stated_range_is_one_claim_with_both_ends(
    text, span, kind, lower, upper, unit, value_text, key
):
    (claim,) = [c for c in claims_of(text) if c.kind != "date"]  # "this spring" is a date
    assert (claim.claim_text, claim.kind, claim.qualifier) == (span, kind, "range")
    assert (claim.value, claim.lower, claim.upper) == (None, lower, upper)
    assert (claim.unit, claim.value_text) == (unit, value_text)
    if key is not None:
        assert claim.measure_key == key
    assert text[claim.char_start : claim.char_end] == claim.claim_text


@pytest.mark.parametrize(
    ("text", "values"),
    [
        # a change states two values at two times
        ("Membership rose from 40 to 45 families last year.", [40, 45]),
        ("The fee went up from 12 to 15 dollars.", [12, 15]),
        # a tally is two counts, not a range
        ("The council voted 5-4 to approve the plan.", [5, 4]),
        ("The visitors won 3-7 in overtime.", [3, 7]),
        ("The court's 4-5 ruling stood.", [4, 5]),
        ("They hold a 242-190 majority.", [242, 190]),
        # a phone number, a year span
        ("Call 555-0199 for details.", []),
        ("The 2019-20 budget passed.", []),
        # the lower end must be lower
        ("Forecasts gave the party 12 to 10 seats.", [12, 10]),
        # "and" without "between" joins two figures
        ("Police arrested 40 and released 12 people.", [40, 12]),
    ],
)
def test_no_range_where_two_numbers_do_not_state_one(text, values):
    claims = [c for c in claims_of(text) if c.kind != "date"]
    assert all(c.qualifier != "range" for c in claims), [(c.claim_text) for c in claims]
    assert [c.value for c in claims] == values


LONG_OPENING = (
    "After a long morning of searching the river banks, the flooded fields and the woods "
    "behind the old mill, and after talking with every farmer they could find, "
)


@given(
    low=st.integers(min_value=1, max_value=9_999),
    gap=st.integers(min_value=1, max_value=9_999),
    form=st.sampled_from(["{a} to {b}", "between {a} and {b}", "{a}-{b}", "from {a} to {b}"]),
    noun=st.sampled_from(["households", "trucks", "acres", "patients"]),
    # Far into a long sentence too: past the 120 characters the extractor looks back.
    opening=st.sampled_from(["", LONG_OPENING]),
)
def test_any_range_reads_back_its_ends_and_span(low, gap, form, noun, opening):
    high = low + gap
    phrase = form.format(a=f"{low:,}", b=f"{high:,}") + f" {noun}"
    text = f"{opening}Officials counted {phrase} on the site."
    ranges = [c for c in claims_of(text) if c.qualifier == "range"]
    assert [(c.lower, c.upper, c.claim_text) for c in ranges] == [(low, high, phrase)]
