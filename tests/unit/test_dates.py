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


@pytest.mark.parametrize("zone", ["EST", "EDT", "GMT", "UTC", "PDT", "BST"])
@pytest.mark.parametrize(
    "frame, weekday, value",
    [
        ("The deadline is 9 a.m. {} Tuesday.", "Tuesday", "2024-05-14"),
        ("The polls closed at 8 p.m. {} Monday.", "Monday", "2024-05-13"),
        ("The shelling started at 0424 {} Thursday, officials said.", "Thursday", "2024-05-09"),
    ],
)
def test_a_weekday_after_a_clock_time_s_zone_is_a_date(frame, weekday, value, zone):
    # A zone is a capitalised word before the weekday, but names nothing ("Super Tuesday").
    sentence = frame.format(zone)
    dates = find_dates(sentence, datetime.fromisoformat(WED).replace(tzinfo=UTC))
    assert [(sentence[d.start : d.end], d.value_text) for d in dates] == [(weekday, value)]


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


# Years, spans of years and decades: stated dates of year granularity, whatever the article's
# publication date.
@pytest.mark.parametrize(
    "sentence, dates",
    [
        ("The law passed in 2019.", [("2019", "2019-01-01/2019-12-31")]),
        ("She ran in the 2016 presidential race.", [("2016", "2016-01-01/2016-12-31")]),
        ("A 1993 statute set the limit.", [("1993", "1993-01-01/1993-12-31")]),
        ("He lost the 2010 elections.", [("2010", "2010-01-01/2010-12-31")]),
        ("Most 2020 Democrats back the plan.", [("2020", "2020-01-01/2020-12-31")]),
        (
            "He led the agency from 2000 to 2006, aides said.",
            [("from 2000 to 2006", "2000-01-01/2006-12-31")],
        ),
        ("It grew between 1998 and 2003.", [("between 1998 and 2003", "1998-01-01/2003-12-31")]),
        ("Prices fell in the 1990s.", [("1990s", "1990-01-01/1999-12-31")]),
        ("Output peaked in the mid-1970s.", [("mid-1970s", "1973-01-01/1976-12-31")]),
        ("The vote on May 20, 2025 passed.", [("May 20, 2025", "2025-05-20")]),
        ("Sales slowed after January 1998.", [("January 1998", "1998-01-01/1998-01-31")]),
        # numbers that are counts, amounts or a copyright line
        ("About 2012 people came and 1900 troops left.", []),
        ("It cost $2019 and drew 2,016 votes.", []),
        ("© 2025 Example Times. All rights reserved.", []),
        ("A shelter opened at 1838 Main Street in 2019.", [("2019", "2019-01-01/2019-12-31")]),
        ("Turnout was 2019 percent of the target.", []),
    ],
)
def test_years_spans_and_decades(sentence, dates):
    found = find_dates(sentence, datetime(2024, 5, 15, tzinfo=UTC))
    assert [(sentence[d.start : d.end], d.value_text) for d in found] == dates


@given(year=st.integers(1800, 2099), lead=st.sampled_from(["in", "since", "by", "until"]))
def test_a_year_after_a_dating_word_is_that_whole_year(year, lead):
    sentence = f"The plant opened {lead} {year}, officials said."
    (mention,) = find_dates(sentence, None)
    assert sentence[mention.start : mention.end] == str(year)
    assert (mention.date_start, mention.date_end) == (f"{year}-01-01", f"{year}-12-31")


# Relative to the article's publication (Thursday 2016-02-25): periods counted back with "ago",
# "next" week, month or year, and parts of the day.
@pytest.mark.parametrize(
    "sentence, dates",
    [
        ("The rule was approved 15 years ago.", [("15 years ago", "2001-01-01/2001-12-31")]),
        ("She won four years ago.", [("four years ago", "2012-01-01/2012-12-31")]),
        ("He said so a week ago.", [("a week ago", "2016-02-18")]),
        ("They met a month ago.", [("a month ago", "2016-01-01/2016-01-31")]),
        ("A decade ago the plant closed.", [("A decade ago", "2006-01-01/2006-12-31")]),
        ("It ends next month.", [("next month", "2016-03-01/2016-03-31")]),
        ("She will run next year.", [("next year", "2017-01-01/2017-12-31")]),
        ("The vote is next week.", [("next week", "2016-02-29/2016-03-06")]),
        ("It could happen tonight.", [("tonight", "2016-02-25")]),
        ("The mayor spoke this morning.", [("this morning", "2016-02-25")]),
        ("Last night, the House voted.", [("Last night", "2016-02-24")]),
        # a comparison's baseline, and a show's name, are no dates
        ("Sales rose to 400, up from 300 a year ago.", []),
        ("He appeared on The Tonight Show.", []),
    ],
)
def test_periods_counted_from_publication(sentence, dates):
    found = find_dates(sentence, datetime(2016, 2, 25, 15, tzinfo=UTC))
    assert [(sentence[d.start : d.end], d.value_text) for d in found] == dates


def test_a_period_ago_without_a_publication_date_is_kept_unresolved():
    (mention,) = find_dates("The rule was approved 15 years ago.", None)
    assert (mention.value_text, mention.date_start) == (None, None)


# Weekends and months without a year, relative to Wednesday 2024-05-15 (and Saturday 2024-05-18).
@pytest.mark.parametrize(
    "sentence, published, dates",
    [
        ("Protesters gathered over the weekend.", WED, [("weekend", "2024-05-11/2024-05-12")]),
        ("He posted it in a weekend tweet.", WED, [("weekend", "2024-05-11/2024-05-12")]),
        ("Crowds are expected this weekend.", WED, [("this weekend", "2024-05-18/2024-05-19")]),
        ("The mayor spoke this weekend.", WED, [("this weekend", "2024-05-11/2024-05-12")]),
        ("The vote is next weekend.", WED, [("next weekend", "2024-05-25/2024-05-26")]),
        ("They met last weekend.", WED, [("last weekend", "2024-05-11/2024-05-12")]),
        ("Crowds gathered over the weekend.", "2024-05-18", [("weekend", "2024-05-18/2024-05-19")]),
        ("The market opens every weekend.", WED, []),
        # a month: after a preposition, capitalised or not, or as an attributive before a noun
        ("In March, the council voted.", WED, [("March", "2024-03-01/2024-03-31")]),
        ("The talks dragged into February.", WED, [("February", "2024-02-01/2024-02-29")]),
        ("He spoke at a January fundraiser.", WED, [("January", "2024-01-01/2024-01-31")]),
        (
            "Voters turn out for the November election.",
            WED,
            [("November", "2023-11-01/2023-11-30")],
        ),
        # "May" before a noun is a name or a verb as often as a month
        ("The May government fell.", WED, []),
    ],
)
def test_weekends_and_months_without_a_year(sentence, published, dates):
    found = find_dates(sentence, datetime.fromisoformat(published).replace(tzinfo=UTC))
    assert [(sentence[d.start : d.end], d.value_text) for d in found] == dates


def test_a_weekend_without_a_publication_date_is_kept_unresolved():
    (mention,) = find_dates("Protesters gathered over the weekend.", None)
    assert (mention.value_text, mention.qualifier) == (None, "vague")


@given(st.dates(min_value=date(1990, 1, 1), max_value=date(2030, 12, 31)))
def test_a_weekend_is_always_a_saturday_and_the_sunday_after(day):
    published = datetime(day.year, day.month, day.day, 12, tzinfo=UTC)
    for sentence in ("It happened over the weekend.", "It is due next weekend."):
        (mention,) = find_dates(sentence, published)
        saturday, sunday = (date.fromisoformat(x) for x in mention.value_text.split("/"))
        assert (saturday.weekday(), (sunday - saturday).days) == (5, 1)
        assert abs((saturday - day).days) <= 14


_PUBLISHED = datetime(2020, 5, 25, tzinfo=UTC)


@pytest.mark.parametrize(
    "sentence, published, span, value",
    [
        ("The festival ran May 20-23.", _PUBLISHED, "May 20-23", "2020-05-20/2020-05-23"),
        (
            "The poll was taken March 31-April 4.",
            _PUBLISHED,
            "March 31-April 4",
            "2020-03-31/2020-04-04",
        ),
        (
            "Talks ran from May 20 to May 23.",
            _PUBLISHED,
            "from May 20 to May 23",
            "2020-05-20/2020-05-23",
        ),
        (
            "Ballots arrive between June 1 and June 5.",
            _PUBLISHED,
            "between June 1 and June 5",
            "2020-06-01/2020-06-05",
        ),
        # across a new year: the start's year is inferred, the end is in the next one
        (
            "The show ran Dec. 30 to Jan. 2.",
            datetime(2020, 1, 10, tzinfo=UTC),
            "Dec. 30 to Jan. 2",
            "2019-12-30/2020-01-02",
        ),
        (
            "It ran Dec. 30, 2019 - Jan. 2, 2020.",
            None,
            "Dec. 30, 2019 - Jan. 2, 2020",
            "2019-12-30/2020-01-02",
        ),
        ("The festival ran May 20-23.", None, "May 20-23", "--05-20/--05-23"),
    ],
)
def test_a_span_of_days_is_one_range(sentence, published, span, value):
    (mention,) = find_dates(sentence, published)
    assert sentence[mention.start : mention.end] == span
    assert (mention.value_text, mention.qualifier) == (value, "range")
    assert (mention.date_start, mention.date_end) == tuple(value.split("/"))
    assert (mention.granularity, mention.resolution) == ("day", "stated")


@pytest.mark.parametrize(
    "sentence, published, texts",
    [
        # "and" joins two dates unless "between" opens a span
        ("They met May 20 and May 23.", _PUBLISHED, ["2020-05-20", "2020-05-23"]),
        # a span across a new year needs a year to read forwards
        ("The show ran Dec. 30 to Jan. 2.", None, ["--12-30", "--01-02"]),
        # "May 1 to 10 officers" counts officers
        ("From May 1 to 10 officers patrolled.", _PUBLISHED, ["2020-05-01"]),
    ],
)
def test_no_span_where_the_words_do_not_state_one(sentence, published, texts):
    assert [m.value_text for m in find_dates(sentence, published)] == texts


@pytest.mark.parametrize(
    "sentence, published, granularity, resolution, uses_reference",
    [
        ("The vote was on May 20, 2019.", _PUBLISHED, "day", "stated", False),
        ("The vote was on May 20.", _PUBLISHED, "day", "stated", True),
        ("The vote was on May 20.", None, "day", "stated", False),
        ("The vote was on Tuesday.", _PUBLISHED, "day", "resolved", True),
        ("The vote was on Tuesday.", None, "day", "unresolved", False),
        ("The vote was yesterday.", None, "day", "unresolved", False),
        ("The vote was last week.", _PUBLISHED, "week", "resolved", True),
        ("They met over the weekend.", _PUBLISHED, "week", "resolved", True),
        ("The vote was in early June.", _PUBLISHED, "month", "stated", True),
        ("He left 15 years ago.", _PUBLISHED, "year", "resolved", True),
        ("The law dates from 2019.", _PUBLISHED, "year", "stated", False),
        ("It began in the 1990s.", _PUBLISHED, "decade", "stated", False),
    ],
)
def test_each_date_says_how_fine_it_is_and_where_it_came_from(
    sentence, published, granularity, resolution, uses_reference
):
    (mention,) = find_dates(sentence, published)
    assert (mention.granularity, mention.resolution, mention.uses_reference) == (
        granularity,
        resolution,
        uses_reference,
    )
    assert (mention.date_start is None) == (resolution == "unresolved")


@given(
    first=st.dates(min_value=date(1990, 1, 1), max_value=date(2030, 12, 1)),
    days=st.integers(1, 27),
    form=st.sampled_from(["{a}-{b}", "from {a} to {b}", "between {a} and {b}", "{a} through {b}"]),
)
def test_any_span_of_days_reads_back_its_first_and_last_day(first, days, form):
    from datetime import timedelta

    last = first + timedelta(days=days)
    a = f"{first:%B} {first.day}, {first.year}"
    b = f"{last:%B} {last.day}, {last.year}"
    sentence = f"The inquiry sat {form.format(a=a, b=b)}, officials said."
    (mention,) = find_dates(sentence, None)
    assert (mention.date_start, mention.date_end) == (first.isoformat(), last.isoformat())
    assert mention.qualifier == "range"


@pytest.mark.parametrize(
    "sentence, published, dates",
    [
        # seasons: three months, winter from December; of the year stated, else counted from
        # publication
        ("Ridership fell last fall.", "2024-03-12", [("last fall", "2023-09-01/2023-11-30")]),
        (
            "The museum reopens next spring.",
            "2024-03-12",
            [("next spring", "2025-03-01/2025-05-31")],
        ),
        (
            "The ferry ran all through the summer of 2019.",
            "2024-03-12",
            [("summer of 2019", "2019-06-01/2019-08-31")],
        ),
        (
            "This winter will be the driest yet.",
            "2024-10-02",
            [("This winter", "2024-12-01/2025-02-28")],
        ),
        (
            "This winter was the driest yet.",
            "2024-01-20",
            [("This winter", "2023-12-01/2024-02-29")],
        ),
        (
            "Crews repaved the road in the spring.",
            "2024-10-02",
            [("spring", "2024-03-01/2024-05-31")],
        ),
        (
            "Crews will repave the road in the spring.",
            "2024-10-02",
            [("spring", "2025-03-01/2025-05-31")],
        ),
        (
            "By early summer the reservoir was full.",
            "2024-10-02",
            [("early summer", "2024-06-01/2024-07-01")],
        ),
        # not seasons
        ("Prices fall in winter and rise in summer.", "2024-10-02", []),
        ("The fall of the old regime surprised few.", "2024-10-02", []),
        ("Summer camp enrollment doubled.", "2024-10-02", []),
        # quarters: of the year stated; a numbered one without a year is the latest begun
        (
            "Sales rose in the fourth quarter of 2023 and third-quarter profit fell.",
            "2024-10-15",
            [
                ("fourth quarter of 2023", "2023-10-01/2023-12-31"),
                ("third-quarter", "2024-07-01/2024-09-30"),
            ],
        ),
        (
            "The bank lost money in the fourth quarter.",
            "2024-02-10",
            [("fourth quarter", "2023-10-01/2023-12-31")],
        ),
        ("Earnings for Q2 2022 were flat.", "2024-02-10", [("Q2 2022", "2022-04-01/2022-06-30")]),
        (
            "Last quarter the mill lost money; next quarter it expects a profit.",
            "2024-05-10",
            [("Last quarter", "2024-01-01/2024-03-31"), ("next quarter", "2024-07-01/2024-09-30")],
        ),
        ("A quarter of the staff left.", "2024-05-10", []),
    ],
)
def test_seasons_and_quarters(sentence, published, dates):
    when = datetime.fromisoformat(published).replace(tzinfo=UTC)
    found = find_dates(sentence, when)
    assert [(sentence[d.start : d.end], d.value_text) for d in found] == dates
    assert all(d.granularity in ("season", "quarter") for d in found)


def test_a_season_or_quarter_counted_from_publication_says_so():
    resolved = find_dates("Ridership fell last fall.", datetime(2024, 3, 12, tzinfo=UTC))
    assert [(d.granularity, d.resolution, d.uses_reference) for d in resolved] == [
        ("season", "resolved", True)
    ]
    (stated,) = find_dates("Earnings for Q2 2022 were flat.", None)
    assert (stated.granularity, stated.resolution, stated.uses_reference) == (
        "quarter",
        "stated",
        False,
    )
    (unknown,) = find_dates("Ridership fell last fall.", None)
    assert (unknown.value_text, unknown.resolution) == (None, "unresolved")


@given(
    day=st.dates(min_value=date(1990, 1, 1), max_value=date(2060, 12, 31)),
    season=st.sampled_from(["spring", "summer", "fall", "winter"]),
    rel=st.sampled_from(["last", "next"]),
)
def test_last_and_next_season_lie_before_and_after_publication(day, season, rel):
    published = datetime(day.year, day.month, day.day, tzinfo=UTC)
    (found,) = find_dates(f"It happened {rel} {season}.", published)
    start, end = date.fromisoformat(found.date_start), date.fromisoformat(found.date_end)
    assert (end - start).days in range(88, 93)
    if rel == "last":
        assert end < day and (day - end).days <= 366
    else:
        assert start > day and (start - day).days <= 366
