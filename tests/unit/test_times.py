"""Clock times: value in minutes after midnight UTC when the offset is known, else kept
without a value; never a count."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lake.silver.extract import extract_claims
from lake.silver.lexicon import TIME_ZONE_OFFSETS
from lake.silver.times import find_times, iso_time, utc_offset

SUMMER = datetime(2019, 5, 15, 14, 0, tzinfo=UTC)
WINTER = datetime(2019, 1, 15, 14, 0, tzinfo=UTC)


def _times(body: str, published_at: datetime | None = SUMMER) -> list[tuple]:
    return [
        (c.claim_text, c.value, c.value_text, c.qualifier, c.lower, c.upper, c.unit, c.measure_key)
        for c in extract_claims("a1", body, published_at=published_at)
        if c.kind == "time"
    ]


def test_a_zoned_time_is_in_utc_minutes_and_keyed_by_its_event():
    body = "The explosion happened at about 9:30 p.m. EDT on Tuesday, police said."
    assert _times(body) == [
        (
            "about 9:30 p.m. EDT",
            90.0,
            "21:30-04:00",
            "approximate",
            75.0,
            105.0,
            "UTC",
            "time:explosion",
        ),
    ]


def test_two_zones_for_one_instant_give_one_value():
    east = _times("The blast was reported at 9:30 p.m. EDT.")
    utc = _times("The blast was reported at 0130 GMT.")
    assert [t[1] for t in east] == [t[1] for t in utc] == [90.0]


def test_eastern_time_follows_daylight_saving_from_the_publication_date():
    body = "The vote is set for 10 a.m. ET on Friday."
    assert _times(body, SUMMER)[0][1:3] == (840.0, "10:00-04:00")
    assert _times(body, WINTER)[0][1:3] == (900.0, "10:00-05:00")
    # No publication date: the offset of "ET" is unknown, so the time has no value.
    assert _times(body, None)[0][1:3] == (None, "10:00")


def test_local_times_are_kept_without_a_value():
    assert _times("Officers arrived at 21:45 local time, according to the report.") == [
        ("21:45 local time", None, "21:45", "exact", None, None, None, "time:arriv"),
    ]
    assert _times("The train left at 9.23pm and derailed 20 minutes later.")[0][:3] == (
        "9.23pm",
        None,
        "21:23",
    )


def test_qualifiers_of_times():
    rows = _times("Polls close before 8 p.m. GMT and results come shortly after midnight GMT.")
    assert [(t[0], t[3], t[4], t[5]) for t in rows] == [
        ("before 8 p.m. GMT", "up_to", None, 1200.0),
        ("shortly after midnight GMT", "more_than", 0.0, None),
    ]
    assert _times("Talks ended just before noon BST.")[0][3:6] == ("almost", 645.0, 660.0)


def test_clock_times_are_not_counts_and_bare_numbers_are_not_times():
    claims = extract_claims("a1", "The quake struck at 0130 GMT, and polls close at 8 p.m.")
    assert [(c.claim_text, c.kind) for c in claims] == [("0130 GMT", "time"), ("8 p.m.", "time")]
    for body in (
        "The team won 3:15 in overtime.",
        "He left by 2019.",
        "They met a midnight deadline.",
        "About 1400 people came.",
    ):
        assert find_times(body, SUMMER) == [], body
    # A zone is written in capitals: "west" after a time is a direction, "Sgt." a rank.
    assert [
        (t.value_text, t.value)
        for body in ("They met at 9 p.m. west of the city.", "At 9 a.m. Sgt. Lee left.")
        for t in find_times(body, SUMMER)
    ] == [("21:00", None), ("09:00", None)]


@given(
    hour=st.integers(1, 12),
    minute=st.integers(0, 59),
    meridiem=st.sampled_from(["a.m.", "p.m.", "am", "PM"]),
    zone=st.sampled_from(sorted(TIME_ZONE_OFFSETS)),
)
def test_any_twelve_hour_time_with_a_fixed_zone_round_trips(hour, minute, meridiem, zone):
    stated = f"{hour}:{minute:02d} {meridiem} {zone}"
    body = f"The meeting began at {stated} on Monday."
    (claim,) = [c for c in extract_claims("a1", body, published_at=SUMMER) if c.kind == "time"]
    local = (hour % 12 + (12 if meridiem.lower().startswith("p") else 0)) * 60 + minute
    offset = utc_offset(zone, None)
    assert claim.claim_text == stated == body[claim.char_start : claim.char_end]
    assert claim.value == (local - offset) % 1440
    assert claim.value_text == iso_time(local // 60, minute, offset)
    assert claim.unit == "UTC" and claim.lower == claim.upper == claim.value


@pytest.mark.parametrize(
    "sentence, day",
    [
        # the day beside a time in a zone covers the UTC days of that local day's instant
        ("The ferry sank late Tuesday, at about 9:30 p.m. EDT.", ("2026-05-12", "2026-05-13")),
        ("The ferry sank on Tuesday at 8 p.m. EDT.", ("2026-05-12", "2026-05-13")),
        ("The ferry sank at 0730 JST on Wednesday.", ("2026-05-12", "2026-05-13")),
        # the same instant in UTC is one day, and agrees with both of the above
        ("The ferry sank at 0130 GMT on Wednesday.", ("2026-05-13", "2026-05-13")),
        ("The ferry sank (0130 GMT Wednesday).", ("2026-05-13", "2026-05-13")),
        # a time that does not cross midnight in UTC, no zone, or a time not beside the day
        ("The ferry sank on Tuesday at 2 p.m. EDT.", ("2026-05-12", "2026-05-12")),
        ("The ferry sank on Tuesday at 9 p.m. local time.", ("2026-05-12", "2026-05-12")),
        (
            "The ferry sank Tuesday and divers arrived at 9:30 p.m. EDT.",
            ("2026-05-12", "2026-05-12"),
        ),
    ],
)
def test_a_day_beside_a_zoned_time_spans_its_utc_days(sentence, day):
    published = datetime(2026, 5, 13, 12, tzinfo=UTC)  # a Wednesday
    (date_claim,) = [c for c in extract_claims("a1", sentence, published) if c.kind == "date"]
    assert (date_claim.date_start, date_claim.date_end) == day
    assert date_claim.value_text in day  # the day as written stays its value


@given(
    zone=st.sampled_from(sorted(TIME_ZONE_OFFSETS)),
    hour=st.integers(min_value=0, max_value=23),
    minute=st.integers(min_value=0, max_value=59),
    day=st.dates(min_value=date(2000, 1, 1), max_value=date(2040, 12, 31)),
)
def test_a_day_and_its_zoned_time_hold_the_utc_instant(zone, hour, minute, day):
    sentence = f"It happened on {day:%B} {day.day}, {day.year} at {hour:02d}:{minute:02d} {zone}."
    claims = extract_claims("a1", sentence, datetime(2041, 1, 1, tzinfo=UTC))
    (date_claim,) = [c for c in claims if c.kind == "date"]
    instant = datetime(day.year, day.month, day.day, hour, minute, tzinfo=UTC) - timedelta(
        minutes=TIME_ZONE_OFFSETS[zone]
    )
    covered = {date_claim.date_start, date_claim.date_end}
    assert day.isoformat() in covered and instant.date().isoformat() in covered
    assert len(covered) == (1 if instant.date() == day else 2)


def test_the_day_and_the_time_of_one_event_in_different_sentences_agree_in_utc():
    body = (
        "An explosion tore through a chemical plant near the river late Tuesday.\n\n"
        "The explosion happened at 10:15 p.m. EDT, the fire department said.\n\n"
        "Inspectors arrived on Wednesday."
    )
    claims = extract_claims("a1", body, datetime(2026, 5, 13, 12, tzinfo=UTC))
    days = {c.claim_text: (c.date_start, c.date_end) for c in claims if c.kind == "date"}
    # the explosion's day covers its UTC days; a day that names no event is left as it is
    assert days["Tuesday"] == ("2026-05-12", "2026-05-13")
    assert days["Wednesday"] == ("2026-05-13", "2026-05-13")
