"""Find clock times in one sentence: "9:30 p.m. EDT", "9.23pm", "0130 GMT", "at 21:45 local
time", "shortly after midnight".

Pure functions over a sentence's text; offsets are relative to the sentence. A time with a
known UTC offset has value = minutes after midnight UTC (0-1439) and unit "UTC", so gold
compares "9:30 p.m. EDT" with "0130 GMT". Without one (no zone, "local time", or "ET" in an
article with no publication date to tell daylight time from standard) the value stays null:
the claim is kept but gold does not reconcile it, like an unresolved relative date. value_text
is the local time as stated, ISO 8601, with its offset when known: "21:30-04:00", "21:30".
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

from lake.silver import lexicon as lx
from lake.silver.cues import first_digit, led, may_hold
from lake.silver.quantities import Quantity, keep_longest, qualifier_before

_ZONE_NAMES = "|".join(sorted(lx.TIME_ZONES, key=len, reverse=True))
_ZONE_WORDS = "|".join(w.capitalize() for w in lx.TIME_ZONE_WORDS)
_ZONE = (
    # Zones in capitals only, even where the clock is matched ignoring case: "9 p.m. west of"
    rf"(?:\s*(?-i:(?P<zone>{_ZONE_NAMES}))\b"
    rf"|\s+(?P<zone_word>{_ZONE_WORDS})(?:\s+(?:daylight|standard))?\s+time\b"
    r"|\s+(?P<local>local\s+time)\b)"
)
# "9:30 p.m.", "9.23pm", "9 a.m."; the meridiem's final dot is part of the time.
_TWELVE = led(
    re.compile(
        r"(?<![\w.,:$£€])(?P<h>1[0-2]|0?[1-9])(?:[:.](?P<m>[0-5]\d))?\s?(?P<ap>[ap])\.?\s?m\b\.?"
        rf"(?:{_ZONE})?",
        re.IGNORECASE,
    ),
    r"\d",
)
# "21:45" and "0130": a 24-hour clock only with a zone, "local time" or "hours" after it, or
# "at / by / until..." right before a colon form; a bare "3:15" may be a ratio or a score.
_TWENTY_FOUR = led(
    re.compile(
        r"(?<![\w.,:$£€])(?P<h>[01]\d|2[0-3]|\d)(?P<colon>:)?(?P<m>[0-5]\d)(?![\d:])"
        rf"(?:{_ZONE}|(?P<hours>\s+(?:hours|hrs)\b))?"
    ),
    r"\d",
)
_CLOCK_CUE = re.compile(
    r"\b(?:at|by|until|till|from|before|after|around|about|since|to)\s+$", re.IGNORECASE
)
_NOON_WORDS = ("noon", "midday", "midnight")
_NOON = re.compile(rf"\b(?P<word>{'|'.join(_NOON_WORDS)})\b(?:{_ZONE})?", re.IGNORECASE)
# Qualifiers a time takes that a number does not: "shortly after midnight", "before 10 a.m.".
_TIME_QUALIFIER = re.compile(
    r"\b(?P<q>(?:shortly|just|soon|right)\s+(?:after|before)|after|before|by|until|till)\s+$",
    re.IGNORECASE,
)
# Minutes either side of an approximate time ("about 9:30 p.m.").
APPROXIMATE_MINUTES = 15
_DAY = 24 * 60


def find_times(sentence: str, reference: datetime | None = None) -> list[Quantity]:
    """Every clock time stated in the sentence; of overlapping ones, the longest. reference:
    the article's publication time, which tells an "ET" time's daylight offset."""
    digit = first_digit(sentence)  # both clock patterns start with a digit
    figures = digit >= 0
    # Most sentences name neither noon nor midnight: a substring test is cheaper than the scan.
    noon = may_hold(sentence, sentence.lower(), _NOON_WORDS)
    if not (figures or noon):
        return []
    found: list[Quantity] = []
    day = reference.date() if reference is not None else None
    for m in _TWELVE.finditer(sentence, max(0, digit)) if figures else ():
        hour = int(m.group("h")) % 12 + (12 if m.group("ap").lower() == "p" else 0)
        found.append(_time(sentence, m, hour, int(m.group("m") or 0), day))
    for m in _TWENTY_FOUR.finditer(sentence, max(0, digit)) if figures else ():
        zoned = m.group("zone") or m.group("zone_word") or m.group("local") or m.group("hours")
        cue = m.group("colon") and _CLOCK_CUE.search(sentence[max(0, m.start() - 12) : m.start()])
        if len(m.group("h")) == 1 and not m.group("colon"):
            continue  # "930 GMT" is not a clock this reader trusts
        if not zoned and not cue:
            continue
        if not m.group("colon") and not zoned:
            continue
        found.append(_time(sentence, m, int(m.group("h")), int(m.group("m")), day))
    for m in _NOON.finditer(sentence) if noon else ():
        before = sentence[max(0, m.start() - 20) : m.start()]
        if not (_CLOCK_CUE.search(before) or _TIME_QUALIFIER.search(before) or m.group("zone")):
            continue  # "a midnight deadline" names no time of its own
        hour = 0 if m.group("word").lower() == "midnight" else 12
        found.append(_time(sentence, m, hour, 0, day))
    return keep_longest(found)


def utc_offset(zone: str, day: date | None) -> int | None:
    """Minutes east of UTC of a zone as written ("EDT", "ET", "Eastern"), on `day` for zones
    with daylight saving; None when that cannot be known."""
    name = lx.TIME_ZONE_WORDS.get(zone.lower(), zone.upper())
    if name in lx.TIME_ZONE_OFFSETS:
        return lx.TIME_ZONE_OFFSETS[name]
    if name in lx.DST_TIME_ZONES and day is not None:
        zone_info = ZoneInfo(lx.DST_TIME_ZONES[name])
        noon = datetime(day.year, day.month, day.day, 12, tzinfo=zone_info)
        offset = noon.utcoffset() or timedelta(0)
        return int(offset.total_seconds() // 60)
    return None


def iso_time(hour: int, minute: int, offset: int | None) -> str:
    """21, 30, -240 -> '21:30-04:00'; without an offset '21:30'."""
    text = f"{hour:02d}:{minute:02d}"
    if offset is None:
        return text
    sign = "-" if offset < 0 else "+"
    return f"{text}{sign}{abs(offset) // 60:02d}:{abs(offset) % 60:02d}"


def _time(sentence: str, m: re.Match, hour: int, minute: int, day: date | None) -> Quantity:
    zone = m.group("zone") or m.group("zone_word")
    offset = utc_offset(zone, day) if zone else None
    start = m.start()
    qualifier, span_start = qualifier_before(sentence, start)
    q = _TIME_QUALIFIER.search(sentence[max(0, start - 20) : start])
    if qualifier == "exact" and q is not None:
        words = q.group("q").lower().split()
        just_before = words[0] == "just" and words[-1] == "before"
        qualifier = "almost" if just_before else lx.TIME_QUALIFIERS[words[-1]]
        span_start = max(0, start - 20) + q.start("q")
    local = hour * 60 + minute
    value = None if offset is None else float((local - offset) % _DAY)
    lower, upper = _bounds(qualifier, value)
    return Quantity(
        span_start,
        m.end(),
        start,
        m.end(),
        "time",
        value,
        iso_time(hour, minute, offset),
        qualifier,
        lower,
        upper,
        unit=None if offset is None else "UTC",
    )


def _bounds(qualifier: str, value: float | None) -> tuple[float | None, float | None]:
    if value is None:
        return None, None
    return {
        "exact": (value, value),
        "approximate": (value - APPROXIMATE_MINUTES, value + APPROXIMATE_MINUTES),
        "almost": (value - APPROXIMATE_MINUTES, value),
        "up_to": (None, value),
        "at_least": (value, None),
        "more_than": (value, None),
    }[qualifier]


# What may stand between a day and the clock time on it: "Tuesday at 9:30 p.m. EDT", "late
# Tuesday night, at about 9:30", "0130 GMT on Wednesday", "(0130 GMT Wednesday)".
_DAY_BESIDE = re.compile(
    r"\s*(?:night|evening|morning|afternoon)?\s*,?\s*(?:on|at)?\s*\(?\s*", re.IGNORECASE
)


def beside(sentence: str, day_span: tuple[int, int], time: Quantity) -> bool:
    """Is the day (its span in the sentence) written right beside the time?"""
    if day_span[0] < time.start:
        return _DAY_BESIDE.fullmatch(sentence[day_span[1] : time.start]) is not None
    return _DAY_BESIDE.fullmatch(sentence[time.number_end : day_span[0]]) is not None


def utc_span(day: str, local_time: str) -> tuple[str, str]:
    """The days, first and last, that a local day covers in UTC at a clock time in a known
    zone: on "2019-05-14" at "21:30-04:00" it is 01:30 UTC on the 15th, so ("2019-05-14",
    "2019-05-15"); at "01:30+00:00" just the day."""
    local = datetime.fromisoformat(f"{day}T{local_time}")
    other = local.astimezone(UTC).date().isoformat()
    first, last = sorted((day, other))
    return first, last
