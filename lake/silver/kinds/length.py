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
"""

from __future__ import annotations

import math
import re
from typing import Any

from lake.silver.kinds.base import Kind

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
# How far an exact length's bounds reach from its value: a stated length is rounded to its last
# stated digit (a round figure to its last non-zero one), and articles give one length in two
# units each rounded ("12 miles (19 kilometers)"), so it holds within that rounding, at most
# this share of the place (less than half: "12 miles" and "13 miles" stay apart) ...
PLACE_SHARE = 0.4
# ... and at most this share of the value ("1,000 feet" is not 600 to 1,400 feet).
VALUE_SHARE = 0.05

_WORDS = "|".join(
    re.escape(w).replace(r"\ ", r"\s+") for w in sorted(UNIT_SPELLINGS, key=len, reverse=True)
)
_DIMENSION = "|".join(DIMENSIONS)
# The unit spelled after a figure ("12 miles", "about 40 km", "hundreds of miles"); a square or
# cubic unit is an area or a volume and does not match.
_UNIT_AFTER = re.compile(rf"(?P<of>\s+of)?\s+(?P<unit>{_WORDS})(?![\w-])", re.IGNORECASE)
# A spaced "m" is meters before a dimension word, a preposition of place or the end of a clause
# ("828 m tall", "500 m from the shore", "a 100 m."); elsewhere it may be millions.
_METERS_AFTER = re.compile(
    rf"\s*(?:[.,;:!?)]|$)|\s+(?:{_DIMENSION}|from|away|above|below|beneath|under|of|by|x|×|"
    r"north|south|east|west)\b"
)
# A length a speed or other rate divides: "60 miles per hour", "30 miles per gallon", "km/h".
_PER_AFTER = re.compile(r"\s*(?:/|per\b)", re.IGNORECASE)
_DIMENSION_AFTER = re.compile(rf"[\s-](?P<dim>{_DIMENSION})\b", re.IGNORECASE)
# Inches after feet: "6-foot-4", "6-foot-4-inch", "6 feet 4 inches", "6 foot 4."
_INCHES_ATTACHED = re.compile(r"-(?P<inches>\d{1,2})(?:-inch(?:es)?)?(?![\w-]|[.,]\d)")
_INCHES_AFTER = re.compile(
    r"\s+(?:and\s+)?(?P<inches>\d{1,2})(?:\s+inch(?:es)?\b|(?=\s*(?:[.,;:!?)]|$)))", re.IGNORECASE
)
# A length after a determiner modifies the noun after it ("a 3-mile stretch", "a 9 mm
# handgun"); where the quantity finder read none ("a 6-foot-4 forward", "a 12-mile-long
# bridge"), the noun is the next lowercase words up to a function word or a verb.
_DETERMINER_BEFORE = re.compile(
    r"\b(?:a|an|the|its|their|his|her|our|this|that|each|every)\s+$", re.IGNORECASE
)
_NOUN_AFTER = re.compile(r"\s+(?P<np>[a-z][a-z'’-]*(?:\s+[a-z][a-z'’-]*){0,2})")
_VERB_LIKE = re.compile(r"(?:ed|ing|ly)$")
_NOT_A_NOUN = frozenset((
    "a", "an", "and", "are", "as", "at", "by", "for", "from", "in", "into", "is", "of", "on",
    "or", "than", "that", "the", "to", "was", "were", "which", "who", "with",
))  # fmt: skip


def read_lengths(sentence: str, found: list[Any]) -> list[Any]:
    """The quantity finder's mentions of one sentence, those that state a length turned into
    lengths (in place; mentions a feet-and-inches length took are dropped)."""
    out: list[Any] = []
    for q in found:
        if out and out[-1].kind == "length" and q.number_start < out[-1].end:
            continue  # the inches of "6 feet 4 inches", read with the feet
        if q.kind == "count" and not q.per:
            _read_length(sentence, q)
        out.append(q)
    return out


def _read_length(sentence: str, q: Any) -> None:
    number = sentence[q.number_start : q.number_end]
    # "3-mile", "1.8m", "20ft": the finder read the unit written onto the figure
    attached = UNIT_SPELLINGS.get(q.unit or "") in METERS_PER_UNIT and bool(
        re.fullmatch(r".*\d.*[a-z]", number, re.IGNORECASE)
    )
    # "a 3-mile stretch", "the 7.62mm rifle", "a 9 mm handgun" measure the noun after; "waves
    # reached 20ft" and "5 km away" are plain lengths
    modifier = _DETERMINER_BEFORE.search(sentence, max(0, q.start - 8), q.start) is not None
    if attached:
        subject = q.subject if modifier else None
        unit, end = UNIT_SPELLINGS[q.unit], q.number_end
    else:
        m = _UNIT_AFTER.match(sentence, q.number_end)
        if m is None or (m.group("of") and q.qualifier != "vague"):
            return  # "hundreds of miles" is a length; "12 of miles" is not
        spelled = re.sub(r"\s+", " ", m.group("unit")).lower()
        if spelled == "m" and not (
            m.group("unit") == "m" and _METERS_AFTER.match(sentence, m.end())
        ):
            return  # "5 m people", "5 M": millions
        unit, end, subject = UNIT_SPELLINGS[spelled], m.end(), None
    if _PER_AFTER.match(sentence, end):
        return  # a speed or another rate
    value = q.value
    if unit == "feet" and value is not None and value == int(value) and q.qualifier == "exact":
        inches = (_INCHES_ATTACHED if attached else _INCHES_AFTER).match(sentence, end)
        if inches and int(inches.group("inches")) < 12:
            unit, end = "inches", inches.end()
            value = value * 12 + int(inches.group("inches"))
            subject = None
    dimension = _DIMENSION_AFTER.match(sentence, end)
    if dimension:
        end = dimension.end()
    if modifier and (subject is None or subject.lower() in DIMENSIONS):
        subject = _noun_after(sentence, end)
    q.kind, q.unit, q.subject, q.end, q.head_tokens = "length", unit, subject, end, [unit]
    if value is not None and value != q.value:
        q.value, q.value_text = value, _format(value)
    if q.qualifier == "exact" and q.value is not None:
        q.lower, q.upper = stated_bounds(q.value)


def _noun_after(sentence: str, end: int) -> str | None:
    """The noun phrase a length modifies: "a 6-foot-4 forward scored" -> forward, "an 80-foot-long
    living room" -> living room; None where a function word or a verb follows."""
    m = _NOUN_AFTER.match(sentence, end)
    words: list[str] = []
    for word in m.group("np").split() if m else ():
        if word in _NOT_A_NOUN or word in DIMENSIONS or (words and _VERB_LIKE.search(word)):
            break
        words.append(word)
    return " ".join(words) or None


def stated_bounds(value: float) -> tuple[float, float]:
    """The bounds an exact length states: its rounding (PLACE_SHARE, VALUE_SHARE)."""
    reach = min(PLACE_SHARE * _place(value), VALUE_SHARE * abs(value))
    return value - reach, value + reach


def _place(value: float) -> float:
    """The place of a value's last stated digit: 19.3 -> 0.1, 12 -> 1, 300 -> 100."""
    text = _format(abs(value))
    if "." in text:
        return 10.0 ** -len(text.split(".")[1])
    whole = int(text)
    return 10.0 ** (len(text) - len(text.rstrip("0"))) if whole else 1.0


def _format(value: float) -> str:
    return str(int(value)) if math.isfinite(value) and value == int(value) else repr(value)


def length_key(frame: Any, claim_text: str, after: str = "") -> tuple[str, list[str]]:
    """measure_key and its terms. after: the sentence's text after the claim. A distance from
    a place names the place ("8 miles south of the White House": "length:from white house");
    otherwise "length:" + what the claim's frame reads the length measures (its property), and
    the dimension its text names; "length:unnamed" when the frame reads none (gold leaves
    those unreconciled, as unnamed durations)."""
    if place := _FROM_PLACE.match(after):
        where = " ".join((place.group("name") or place.group("noun")).lower().split()).rstrip(".")
        return f"length:from {where}", [f"from:{where}"]
    prop = frame.property
    if prop is None or not prop.key:
        return "length:unnamed", ["nothing-named"]
    terms = [f"length-of:{prop.key}"]
    dimension = _DIMENSION_AFTER.search(claim_text)
    named = DIMENSIONS.get(dimension.group("dim").lower()) if dimension else None
    if named:
        terms.append(f"dimension:{named}")
    return f"length:{prop.key}" + (f" {named}" if named else ""), terms


# A distance from a place: "8 miles south of the White House", "12 km (7.5 miles) from
# Aventura", "5 miles away from the plant"; the place is a name, else a noun ("of the town").
# Plain "of" is what a length is of ("12 miles of the highway"), not where it is measured from.
_COMPASS = r"(?:north|south|east|west)(?:-?(?:east|west))?(?:ward)?"
_FROM_PLACE = re.compile(
    rf"(?:\s*\([^()]{{0,40}}\))?\s+(?:(?:due\s+)?{_COMPASS}\s+of|(?:{_COMPASS}\s+|away\s+)?from|"
    r"outside(?:\s+of)?)\s+(?:the\s+)?"
    r"(?:(?P<name>[A-Z][\w'’.-]*(?:\s+[A-Z][\w'’.-]*){0,3})|(?P<noun>[a-z][a-z-]*)\b)"
)


# A length given again in another unit, in parentheses right after it: "12 miles (19
# kilometers)", "12 km (about 7.5 miles)".
_RESTATED = re.compile(r"\s*[(\[]\s*")


def restates(between: str) -> bool:
    """Does a length restate the one before it, `between` being the text between the two?"""
    return _RESTATED.fullmatch(between) is not None


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
