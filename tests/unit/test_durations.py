"""Durations and ages: value, unit, ISO 8601 text, qualifier, span and measure key, on sentences
written for these tests (not from any labelled set, not from the generator's word lists)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lake.silver.durations import find_durations, iso_duration
from lake.silver.extract import extract_claims


def claims_of(text: str) -> list:
    return extract_claims("a1", text)


def only(claims, kind: str):
    hits = [c for c in claims if c.kind == kind]
    assert len(hits) == 1, [(c.kind, c.claim_text) for c in claims]
    return hits[0]


@pytest.mark.parametrize(
    ("text", "span", "value", "unit", "iso", "qualifier", "key"),
    [
        (
            "The 35-day shutdown ended on a Friday.",
            "35-day",
            35,
            "days",
            "P35D",
            "exact",
            "duration:shutdown",
        ),
        (
            "Negotiators met for nearly six weeks before the strike ended.",
            "nearly six weeks",
            6,
            "weeks",
            "P6W",
            "almost",
            "duration:strike/before",
        ),
        (
            "The ceasefire held for more than 72 hours.",
            "more than 72 hours",
            72,
            "hours",
            "PT72H",
            "more_than",
            "duration:ceasefire",
        ),
        (
            "She served a two-year term on the council.",
            "two-year",
            2,
            "years",
            "P2Y",
            "exact",
            "duration:term",
        ),
        (
            "The mill had been closed for a decade when the fire broke out.",
            "a decade",
            10,
            "years",
            "P10Y",
            "exact",
            "duration:mill",
        ),
        (
            "The mayor resigned a day earlier than planned.",
            "a day",
            1,
            "days",
            "P1D",
            "exact",
            "duration:unnamed",
        ),
        (
            "It lasted for three hours.",
            "three hours",
            3,
            "hours",
            "PT3H",
            "exact",
            "duration:unnamed",
        ),
    ],
)
def test_a_duration_keeps_its_stated_unit_and_iso_text(
    text, span, value, unit, iso, qualifier, key
):
    c = only(claims_of(text), "duration")
    assert (c.claim_text, c.value, c.unit, c.value_text, c.qualifier, c.measure_key) == (
        span,
        value,
        unit,
        iso,
        qualifier,
        key,
    )
    assert text[c.char_start : c.char_end] == span


@pytest.mark.parametrize(
    ("text", "span", "value", "unit", "key"),
    [
        ("Maria Lopez, 54, a nurse, was among the injured.", "54", 54, "years", "age:lopez"),
        (
            "A 19-year-old driver was arrested at the scene.",
            "19-year-old",
            19,
            "years",
            "age:driver",
        ),
        (
            "An 18-month-old girl was rescued from the flat.",
            "18-month-old",
            18,
            "months",
            "age:girl",
        ),
        ("Rescuers found Tom Reyes (71) in the cellar.", "71", 71, "years", "age:reyes"),
        ("The oldest resident, aged 103, was evacuated first.", "103", 103, "years", "age:unnamed"),
        ("The suspect is 24 years old, police said.", "24 years old", 24, "years", "age:unnamed"),
    ],
)
def test_an_age_is_a_claim_of_its_own_kind(text, span, value, unit, key):
    c = only(claims_of(text), "age")
    assert (c.claim_text, c.value, c.unit, c.measure_key) == (span, value, unit, key)
    assert not [x for x in claims_of(text) if x.kind == "count" and x.value == value]


@pytest.mark.parametrize(
    ("text", "ages"),
    [
        (
            "Campers Ann Lee and Bo Cruz, aged 31 and 45 respectively, were found safe.",
            [("31", "age:lee"), ("45", "age:cruz")],
        ),
        (
            "The twins' cousins Rosa and Elena Ortiz, aged 9 and 11, stayed home.",
            [("9", "age:rosa"), ("11", "age:elena")],
        ),
        (
            "Witnesses Kim Park, Leo Marsh and Ida Stone, aged 60, 58 and 71, testified.",
            [("60", "age:park"), ("58", "age:marsh"), ("71", "age:stone")],
        ),
        ("Nurse Priya Shah, aged 38, was hailed.", [("38", "age:shah")]),
        # Two ages and one name: none is tied to it.
        (
            "Officers led Omar Haddad, aged 20 and 25, away.",
            [("20", "age:unnamed"), ("25", "age:unnamed")],
        ),
        ("Pupils aged 5 and 6 get free meals.", [("5", "age:unnamed"), ("6", "age:unnamed")]),
    ],
)
def test_listed_ages_are_ages_tied_to_their_names_in_order(text, ages):
    claims = claims_of(text)
    assert [(c.claim_text, c.measure_key) for c in claims if c.kind == "age"] == ages
    assert not [c for c in claims if c.kind == "count"]


_GIVEN = st.sampled_from(["Ann", "Bo", "Cy", "Dee", "Eli", "Fay"])
_FAMILY = st.sampled_from(["Lee", "Cruz", "Diaz", "Park", "Stone", "Moss"])


@given(
    st.lists(st.tuples(_GIVEN, _FAMILY), min_size=2, max_size=4, unique_by=lambda n: n[1]),
    st.lists(st.integers(1, 120), min_size=4, max_size=4),
    st.booleans(),
)
def test_each_listed_age_goes_to_the_name_at_its_place(names, ages, respectively):
    listed = [f"{given} {family}" for given, family in names]
    numbers = [str(a) for a in ages[: len(names)]]
    text = (
        f"Reporters met {', '.join(listed[:-1])} and {listed[-1]}, aged "
        f"{', '.join(numbers[:-1])} and {numbers[-1]}{' respectively' if respectively else ''}, "
        "in the square."
    )
    found = [(c.claim_text, c.measure_key) for c in claims_of(text) if c.kind == "age"]
    assert found == [
        (n, f"age:{family.lower()}") for n, (_, family) in zip(numbers, names, strict=True)
    ]


@pytest.mark.parametrize(
    "text",
    [
        "Crews cleared 400 homes a day and were paid $30 an hour.",  # a rate's period
        "The board meets once a year, in the spring.",
        "One day, she said, the station would reopen.",  # an indefinite day
        "The Four Seasons hotel was sold.",
        "Across the region, 9,900 service members were deployed.",  # "region, 9," is no age
        "On May 20, 2025, the vote was held.",  # a date, not "Name, N,"
        "He is struggling to find support for a second term.",  # an ordinal
        "It is a steep climb in a year when neither party is popular.",  # a time, not a span
    ],
)
def test_periods_that_are_not_durations(text):
    assert [c for c in claims_of(text) if c.kind in ("duration", "age")] == []


def test_the_time_between_two_events_is_keyed_by_its_side_of_the_event():
    after = only(claims_of("Two aides quit a week after the summit."), "duration")
    before = only(claims_of("Staff learned of the summit a week in advance."), "duration")
    length = only(claims_of("The summit lasted a week."), "duration")
    assert (after.measure_key, before.measure_key, length.measure_key) == (
        "duration:meeting/after",
        "duration:meeting/before",
        "duration:meeting",
    )


@pytest.mark.parametrize(
    ("text", "span", "key"),
    [
        ("Three weeks of talks ended without a deal.", "Three weeks", "duration:talk"),
        ("The union called off a three-week talk.", "three-week", "duration:talk"),
        ("After 11 days of County Board hearings, the plan passed.", "11 days", "duration:hearing"),
        ("It ends a two-year SEC inquiry into the fund.", "two-year", "duration:inquiry"),
        ("It took six months of the negotiations to agree.", "six months", "duration:negotiation"),
        # Not an event: the span names none.
        ("In the first four months of the year, sales fell.", "four months", "duration:unnamed"),
        ("They spent two years of their savings on it.", "two years", "duration:unnamed"),
    ],
)
def test_a_period_of_an_event_is_keyed_by_the_event(text, span, key):
    c = only(claims_of(text), "duration")
    assert (c.claim_text, c.measure_key) == (span, key)


def test_years_of_age_are_an_age():
    c = only(claims_of("The pilot was 61 years of age, the airline said."), "age")
    assert (c.claim_text, c.value, c.unit) == ("61 years of age", 61, "years")
    assert not [x for x in claims_of("The pilot was 61 years of age.") if x.kind == "duration"]


@given(
    st.integers(2, 99),
    st.sampled_from(["day", "week", "month", "year"]),
    st.sampled_from(["hearing", "strike", "protest", "negotiation", "trial"]),
)
def test_a_period_of_events_and_an_events_period_share_a_key(n, unit, event):
    of = only(claims_of(f"Officials said {n} {unit}s of {event}s had ended."), "duration")
    hyphen = only(claims_of(f"Officials said a {n}-{unit} {event} had ended."), "duration")
    assert of.measure_key == hyphen.measure_key == f"duration:{event}"


def test_a_period_counted_back_from_publication_is_a_date_not_a_duration():
    claims = claims_of("The plant closed four years ago.")
    assert [c.kind for c in claims] == ["date"]


def test_a_hyphenated_period_is_not_also_a_count():
    claims = claims_of("Officials approved a five-year plan for 300 buses.")
    assert [(c.kind, c.claim_text) for c in claims] == [
        ("duration", "five-year"),
        ("count", "300 buses"),
    ]


@pytest.mark.parametrize(
    ("value", "unit", "iso"),
    [
        (14, "months", "P14M"),
        (2, "hours", "PT2H"),
        (30, "minutes", "PT30M"),
        (20, "years", "P20Y"),
    ],
)
def test_iso_8601_text_of_a_duration(value, unit, iso):
    assert iso_duration(value, unit) == iso


@given(st.text(max_size=300))
def test_durations_never_raise_and_spans_lie_inside(text):
    for q in find_durations(text):
        assert 0 <= q.start <= q.number_start < q.number_end <= q.end <= len(text)
        assert q.kind in ("duration", "age")
        assert q.value is not None and q.value > 0
