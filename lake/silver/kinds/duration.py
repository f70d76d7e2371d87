"""duration: the length of a period ("a 35-day shutdown", "for four years", "48 hours").

Found by the duration finder (lake.silver.durations), which also finds ages. A duration keeps
its stated unit (value 14, unit "months"; value_text "P14M", ISO 8601); gold compares
durations in days (gold_unit), scaling each stated unit by DAYS_PER_UNIT (its `units`: dbt
var unit_scales, macros/time_units.sql).
"""

from __future__ import annotations

from lake.silver.kinds.base import Kind

# Nouns after a number that make it a duration or age, not a claim.
TIME_NOUNS = {
    "second",
    "seconds",
    "minute",
    "minutes",
    "hour",
    "hours",
    "day",
    "days",
    "week",
    "weeks",
    "month",
    "months",
    "year",
    "years",
    "decade",
    "decades",
    "century",
    "centuries",
    "year-old",
    "years-old",
    "term",
    "terms",
}
# The ISO 8601 designator of each stored unit: P2Y, P3M, P1W, P4D, PT2H, PT30M, PT10S.
ISO_UNITS = {
    "seconds": "TS",
    "minutes": "TM",
    "hours": "TH",
    "days": "D",
    "weeks": "W",
    "months": "M",
    "years": "Y",
}
# What each stored unit is in days: gold compares durations in days and ages in years, whatever
# unit an article stated; a month and a year are their Gregorian averages (dbt var
# unit_scales).
DAYS_PER_UNIT = {
    "seconds": 0.0000115740740740741,
    "minutes": 0.000694444444444444,
    "hours": 0.0416666666666667,
    "days": 1,
    "weeks": 7,
    "months": 30.436875,
    "years": 365.2425,
}

KIND = Kind(
    name="duration",
    summary="the length of a period, in its stated unit (gold: days)",
    finder="lake.silver.durations:find_durations",
    measure_key="lake.silver.measure:duration_key",
    words={"TIME_NOUNS": TIME_NOUNS, "ISO_UNITS": ISO_UNITS, "DAYS_PER_UNIT": DAYS_PER_UNIT},
    gold_unit="days",
    units=DAYS_PER_UNIT,
    # A duration that names nothing it measures is kept in silver but reconciled with nothing:
    # two unrelated periods of one story do not disagree (lake.silver.measure).
    unreconciled_keys=("duration:unnamed",),
    examples=(("The shutdown lasted 35 days.", "35 days"),),
)
