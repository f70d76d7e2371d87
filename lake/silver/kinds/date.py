"""date: a day or period named in the text ("Tuesday", "March 6, 2019", "last year").

Found by the date finder (lake.silver.dates), which resolves relative dates against the
article's publication day. The first finder of a sentence: a date's span is taken before
times, durations and quantities are read ("four years ago" is a date, not a duration).
"""

from __future__ import annotations

from lake.silver.kinds.base import Kind

MONTHS = {
    "january": 1,
    "jan": 1,
    "february": 2,
    "feb": 2,
    "march": 3,
    "mar": 3,
    "april": 4,
    "apr": 4,
    "may": 5,
    "june": 6,
    "jun": 6,
    "july": 7,
    "jul": 7,
    "august": 8,
    "aug": 8,
    "september": 9,
    "sept": 9,
    "sep": 9,
    "october": 10,
    "oct": 10,
    "november": 11,
    "nov": 11,
    "december": 12,
    "dec": 12,
}

WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")

# Words that may stand capitalised right before a weekday without making it part of a name.
BEFORE_A_DATE = {"on", "last", "this", "next", "early", "late", "by", "until", "since", "from"}

KIND = Kind(
    name="date",
    summary="a day or period, as date_start..date_end with its granularity",
    finder="lake.silver.dates:find_dates",
    measure_key="lake.silver.measure:date_key",
    words={"MONTHS": MONTHS, "WEEKDAYS": WEEKDAYS, "BEFORE_A_DATE": BEFORE_A_DATE},
    # "date:unnamed" dates no event: each is a fact of its own, which only a claim of a named
    # event on the same day may join; "date:statement" (the day a source spoke) reconciles only
    # when it names who spoke.
    solitary_keys=("date:unnamed",),
    named_only_keys=("date:statement",),
    examples=(("The bill passed on March 6, 2019.", "March 6, 2019"),),
)
