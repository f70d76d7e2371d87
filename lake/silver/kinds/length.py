"""length: a distance, height or depth ("12 miles inland", "a 3-mile stretch", "5 to 10 km",
"6-foot-4", "828 m tall").

Found by the quantity finder (lake.silver.quantities), whose figures read_lengths turns into
lengths: a figure followed by a length unit, or with one written onto it. A figure per period
or per anything ("60 miles per hour", "30 miles per gallon") stays what the finder made it: a
speed is a rate, not a length. A length keeps its stated value and unit (unit: the unit's name,
plural, US spelling: "kilometers"); gold compares lengths in meters (gold_unit, by `units`).
Its measure_key is "length:" + what its frame reads it measures ("the storm moved 12 miles",
"a 3-mile stretch", "12 miles of the highway"), with the dimension a word names ("the wall is
30 feet high": "length:wall height"), or the place it is measured from ("8 miles south of the
White House": "length:from white house"). An exact length's bounds hold its rounding
(stated_bounds), so one length given in two units agrees with itself.

The reading of a figure and its unit is the one every unit kind shares
(lake.silver.kinds.units); this module holds what only a length has: its units, the spaced "m"
that may be millions, feet and inches, and the dimension words.
"""

from __future__ import annotations

import re
from typing import Any

from lake.silver.kinds.base import Kind
from lake.silver.kinds.units import Refined, UnitReading, restates

# What one of each stored unit is in meters (international yard and foot, statute and nautical
# mile).
METERS_PER_UNIT = {
    "millimeters": 0.001,
    "centimeters": 0.01,
    "inches": 0.0254,
    "feet": 0.3048,
    "yards": 0.9144,
    "meters": 1,
    "kilometers": 1000,
    "miles": 1609.344,
    "nautical miles": 1852,
}
# Each spelling after a number -> the unit stored. "in" (a preposition), "m" glued to its
# number ("$5m" is millions) and "nm" (nanometers or nautical miles) are left out; a spaced "m"
# is read where a length is meant (_METERS_AFTER).
UNIT_SPELLINGS = {
    **{w: "millimeters" for w in ("millimeter", "millimeters", "millimetre", "millimetres", "mm")},
    **{w: "centimeters" for w in ("centimeter", "centimeters", "centimetre", "centimetres", "cm")},
    **{w: "inches" for w in ("inch", "inches")},
    **{w: "feet" for w in ("foot", "feet", "ft")},
    **{w: "yards" for w in ("yard", "yards", "yd", "yds")},
    **{w: "meters" for w in ("meter", "meters", "metre", "metres", "m")},
    **{w: "kilometers" for w in ("kilometer", "kilometers", "kilometre", "kilometres", "km")},
    "kms": "kilometers",
    **{w: "miles" for w in ("mile", "miles", "mi")},
    **{w: "nautical miles" for w in ("nautical mile", "nautical miles", "nmi")},
}
# A word right after a length that says which dimension it is ("30 feet high"); a length is
# the default and adds nothing to the key.
DIMENSIONS = {
    "long": None,
    "wide": "width",
    "across": "width",
    "tall": "height",
    "high": "height",
    "deep": "depth",
    "thick": "thickness",
}
_DIMENSION = "|".join(DIMENSIONS)
# A spaced "m" is meters before a dimension word, a preposition of place or the end of a clause
# ("828 m tall", "500 m from the shore", "a 100 m."); elsewhere it may be millions.
_METERS_AFTER = re.compile(
    rf"\s*(?:[.,;:!?)]|$)|\s+(?:{_DIMENSION}|from|away|above|below|beneath|under|of|by|x|×|"
    r"north|south|east|west)\b"
)
# Inches after feet: "6-foot-4", "6-foot-4-inch", "6 feet 4 inches", "6 foot 4."
_INCHES_ATTACHED = re.compile(r"-(?P<inches>\d{1,2})(?:-inch(?:es)?)?(?![\w-]|[.,]\d)")
_INCHES_AFTER = re.compile(
    r"\s+(?:and\s+)?(?P<inches>\d{1,2})(?:\s+inch(?:es)?\b|(?=\s*(?:[.,;:!?)]|$)))", re.IGNORECASE
)


def _meters_meant(sentence: str, m: re.Match[str]) -> bool:
    """A spelled unit is a length's, but for a spaced "m" where a length is not meant: "5 m
    people", "5 M" are millions."""
    spelled = re.sub(r"\s+", " ", m.group("unit")).lower()
    return spelled != "m" or (
        m.group("unit") == "m" and _METERS_AFTER.match(sentence, m.end()) is not None
    )


def _feet_and_inches(
    sentence: str, q: Any, unit: str, value: float | None, end: int, attached: bool
) -> Refined:
    """Inches after whole feet make one length in inches: "6-foot-4" is 76 inches."""
    if unit == "feet" and value is not None and value == int(value) and q.qualifier == "exact":
        inches = (_INCHES_ATTACHED if attached else _INCHES_AFTER).match(sentence, end)
        if inches and int(inches.group("inches")) < 12:
            return "inches", value * 12 + int(inches.group("inches")), inches.end(), True
    return unit, value, end, False


LENGTHS = UnitReading(
    "length",
    METERS_PER_UNIT,
    UNIT_SPELLINGS,
    DIMENSIONS,
    spelled_ok=_meters_meant,
    refine=_feet_and_inches,
    from_place=True,
)
read_lengths = LENGTHS.read
length_key = LENGTHS.key


KIND = Kind(
    name="length",
    summary="a distance, height or depth, in its stated unit (gold: meters)",
    finder="lake.silver.quantities:find_quantities",
    measure_key="lake.silver.kinds.length:length_key",
    words={
        "METERS_PER_UNIT": METERS_PER_UNIT,
        "UNIT_SPELLINGS": UNIT_SPELLINGS,
        "DIMENSIONS": DIMENSIONS,
    },
    gold_unit="meters",
    units=METERS_PER_UNIT,
    # A length that names nothing it measures is kept in silver but reconciled with nothing:
    # two unrelated distances of one story do not disagree (as unnamed durations).
    unreconciled_keys=("length:unnamed",),
    reads=read_lengths,
    # what a length measures is a unit's ("the storm moved 12 miles", "12 miles of the
    # highway"); "nautical miles" is a unit of miles
    frame_as=("count", "miles"),
    restates=restates,
    examples=(
        ("The storm moved 12 miles inland.", "12 miles"),
        ("Crews repaved a 3-mile stretch of the highway.", "3-mile"),
    ),
)
