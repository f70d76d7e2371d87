"""Resolving a date written without its year, on sentences written for these tests."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lake.silver.dates import find_dates


@pytest.mark.parametrize(
    "sentence, published, value",
    [
        # the weekday names the year: Sept. 3 is a Wednesday in 2025, a Tuesday in 2024
        ("Voting closes on Wednesday, Sept. 3.", "2025-07-28", "2025-09-03"),
        ("Voting closed on Tuesday, Sept. 3.", "2025-07-28", "2024-09-03"),
        # a clause about the future does not date months before publication
        ("The new rules will apply from April 1.", "2024-02-24", "2024-04-01"),
        ("The board is scheduled to vote on June 30.", "2024-03-02", "2024-06-30"),
        ("Crews must finish by early July.", "2024-04-10", "2024-07-01/2024-07-10"),
        # without one, the latest such day not long after publication
        ("The plant closed on April 1.", "2024-02-24", "2023-04-01"),
        ("The plant will close on Feb. 20.", "2024-02-24", "2024-02-20"),
    ],
)
def test_a_date_without_its_year(sentence, published, value):
    when = datetime.fromisoformat(published).replace(tzinfo=UTC)
    (mention,) = find_dates(sentence, when)
    assert mention.value_text == value


# Wednesday 2024-05-15. A weekday is resolved within a seven-day window that its words choose.
WED = "2024-05-15"


@pytest.mark.parametrize(
    "sentence, value",
    [
        # the past tense looks back; the publication's own weekday is that day
        ("Officials said Thursday that 40 people died.", "2024-05-09"),
        ("Mr. Lee said Wednesday he would run.", "2024-05-15"),
        ("The talks ended late Friday.", "2024-05-10"),
        ("Tuesday night's vote was close.", "2024-05-14"),
        ("On Monday, officials said 3 people died.", "2024-05-13"),
        # the future looks ahead, from today
        ("The Senate will vote Tuesday on the bill.", "2024-05-21"),
        ("On Tuesday, the board is scheduled to meet again.", "2024-05-21"),
        ("Crews plan to reopen the bridge on Friday.", "2024-05-17"),
        ("The council will meet Wednesday.", "2024-05-15"),
        # no tense: the days just past, today or tomorrow
        ("The deadline is Thursday.", "2024-05-16"),
        ("The deadline is Sunday.", "2024-05-12"),
        # last / next / this say the direction
        ("He spoke last Wednesday.", "2024-05-08"),
        ("They meet next Wednesday.", "2024-05-22"),
        ("The report is due this Saturday.", "2024-05-18"),
        ("The report came out this Monday.", "2024-05-13"),
    ],
)
def test_a_weekday_resolves_by_its_tense_and_its_words(sentence, value):
    (mention,) = find_dates(sentence, datetime.fromisoformat(WED).replace(tzinfo=UTC))
    assert (mention.value_text, mention.qualifier) == (value, "exact")
    assert sentence[mention.start : mention.end].endswith(
        ("day", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
    )


@pytest.mark.parametrize(
    "sentence",
    [
        "Voters went to the polls on Super Tuesday.",  # a name
        "He told Fox News Sunday that the plan was fine.",  # a programme
        "The Sunday Times reported the figure.",  # a newspaper
        "He said on the Sunday morning show that he disagreed.",
        "You need not be in church every Sunday to see it.",  # recurring, not a date
        'She told NBC\'s "Today" show that she was leaving.',
        'He repeated it when he told "Today."',
    ],
)
def test_a_weekday_or_today_that_names_something_is_no_date(sentence):
    assert find_dates(sentence, datetime.fromisoformat(WED).replace(tzinfo=UTC)) == []


@pytest.mark.parametrize(
    "sentence, published, value",
    [
        # a month or day early in the next year, written in December, is next year's
        ("The caucuses are on Jan. 3.", "2011-12-20", "2012-01-03"),
        ("Voting begins in January.", "2011-12-20", "2012-01-01/2012-01-31"),
        # further ahead, it is still the latest one before publication
        ("The caucuses were on Feb. 3.", "2011-12-20", "2011-02-03"),
    ],
)
def test_a_date_early_in_next_year_written_in_december(sentence, published, value):
    (mention,) = find_dates(sentence, datetime.fromisoformat(published).replace(tzinfo=UTC))
    assert mention.value_text == value


_WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
_FRAMES = {
    "Officials said {} that the bridge opened.": (-6, 0),
    "The bridge will open {}.": (0, 6),
    "The deadline is {}.": (-5, 1),
    "It happened last {}.": (-7, -1),
    "It happens next {}.": (1, 7),
}


@settings(max_examples=200, deadline=None)
@given(
    day=st.dates(min_value=date(1990, 1, 1), max_value=date(2035, 12, 31)),
    weekday=st.sampled_from(_WEEKDAYS),
    frame=st.sampled_from(sorted(_FRAMES)),
)
def test_a_weekday_is_always_that_weekday_within_its_window(day, weekday, frame):
    published = datetime(day.year, day.month, day.day, 14, tzinfo=UTC)
    (mention,) = find_dates(frame.format(weekday), published)
    resolved = date.fromisoformat(mention.value_text)
    low, high = _FRAMES[frame]
    assert resolved.strftime("%A") == weekday
    assert low <= (resolved - day).days <= high
