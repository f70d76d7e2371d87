"""time: a clock time ("9:30 p.m. EDT", "0424 GMT"), in minutes after midnight UTC.

Found by the time finder (lake.silver.times), which needs a time zone to convert; a day claim
beside it moves to its UTC day (lake.silver.extract).
"""

from __future__ import annotations

from lake.silver.kinds.base import Kind

# Time zone abbreviations as news writes them after a clock time ("9 a.m. EST Tuesday",
# "0424 GMT Wednesday"), with their fixed offsets in minutes east of UTC. A capitalised word
# before a weekday that is one of them names no programme or event (dates.py); times.py turns
# a clock time in one into UTC.
TIME_ZONE_OFFSETS = {
    "GMT": 0,
    "UTC": 0,
    "WET": 0,
    "WEST": 60,
    "BST": 60,
    "CET": 60,
    "CEST": 120,
    "EET": 120,
    "EEST": 180,
    "MSK": 180,
    "HKT": 480,
    "SGT": 480,
    "JST": 540,
    "KST": 540,
    "AEST": 600,
    "AEDT": 660,
    "EST": -300,
    "EDT": -240,
    "CST": -360,
    "CDT": -300,
    "MST": -420,
    "MDT": -360,
    "PST": -480,
    "PDT": -420,
    "AKST": -540,
    "AKDT": -480,
    "HST": -600,
}
# Zones whose offset follows daylight saving: known only on a given day.
DST_TIME_ZONES = {
    "ET": "America/New_York",
    "CT": "America/Chicago",
    "MT": "America/Denver",
    "PT": "America/Los_Angeles",
}
# "7 p.m. Eastern time": the zone as a word.
TIME_ZONE_WORDS = {"eastern": "ET", "central": "CT", "mountain": "MT", "pacific": "PT"}
# Words before a clock time that bound it ("before 10 a.m.", "shortly after midnight"; "just
# before" is `almost`).
TIME_QUALIFIERS = {
    "after": "more_than",
    "before": "up_to",
    "by": "up_to",
    "until": "up_to",
    "till": "up_to",
}
# IST is India's, Ireland's or Israel's: a zone, but of no known offset.
TIME_ZONES = frozenset([*TIME_ZONE_OFFSETS, *DST_TIME_ZONES, "IST"])

KIND = Kind(
    name="time",
    summary="a clock time in minutes after midnight UTC (unit UTC)",
    finder="lake.silver.times:find_times",
    measure_key="lake.silver.measure:time_key",
    words={
        "TIME_ZONE_OFFSETS": TIME_ZONE_OFFSETS,
        "DST_TIME_ZONES": DST_TIME_ZONES,
        "TIME_ZONE_WORDS": TIME_ZONE_WORDS,
        "TIME_QUALIFIERS": TIME_QUALIFIERS,
        "TIME_ZONES": TIME_ZONES,
    },
    solitary_keys=("time:unnamed",),
    named_only_keys=("time:statement",),
    examples=(("The polls closed at 8 p.m. EST on Tuesday.", "8 p.m. EST"),),
)
