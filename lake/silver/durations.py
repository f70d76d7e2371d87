"""Find durations and ages in one sentence: "a 35-day shutdown", "for four years", "48 hours",
"Jane Roe, 46,", "the 42-year-old", "aged 42".

Pure functions over a sentence's text; offsets are relative to the sentence. A duration keeps
its stated unit (value 14, unit "months"; value_text "P14M", ISO 8601), but decades and
centuries are counted in years ("a decade": 10 years, P10Y); gold converts units to compare.
An age is in years, or in the unit stated ("an 18-month-old": 18 months).
"""

from __future__ import annotations

import re

from lake.silver import lexicon as lx
from lake.silver.cues import holds_any, holds_digit, initials, led, may_hold
from lake.silver.kinds.age import MAX_AGE as _MAX_AGE
from lake.silver.kinds.duration import ISO_UNITS
from lake.silver.quantities import (
    NUMBER_CUES,
    NUMBER_INITIALS,
    WORD_NUMBER,
    Quantity,
    bounds,
    format_number,
    is_name_word,
    keep_longest,
    qualifier_before,
    range_low,
    range_mention,
    words_to_number,
)

_UNIT = r"(?P<unit>second|minute|hour|day|week|month|year|decade|centur(?:y|ies))"
_NUMBER = rf"(?P<num>\d{{1,3}}(?:,\d{{3}})+|\d{{1,6}}(?:\.\d{{1,3}})?|{WORD_NUMBER})"
# "four years", "48 hours", "a 35-day shutdown", "two-year-old", "42 years old".
_STATED = led(
    re.compile(
        rf"(?<![\w$£€.,/])(?<!\D-){_NUMBER}(?P<sep>-|\s+){_UNIT}(?:s\b|\b)(?P<old>(?:-|\s+)old\b)?",
        re.IGNORECASE,
    ),
    r"\d" + NUMBER_INITIALS,
)
# "a week", "an hour", "one day": a period only where a span is meant ("for a week", "more
# than a year", "a day earlier"); elsewhere it is a rate's period ("3,000 a day") or a phrase.
# "a second" is an ordinal ("a second term").
_ONE = led(
    re.compile(rf"\b(?P<num>an?|one)\s+(?!second\b){_UNIT}\b(?![-’'])", re.IGNORECASE),
    initials(("a", "one")),
)
# "in a year when neither party...": a time, not a span ("for a decade when" is a span).
_A_TIME = re.compile(r"^\s+(?:when|where|that|in\s+which)\b", re.IGNORECASE)
_SPAN_BEFORE = re.compile(
    r"\b(?:for|than|over|within|after|past|last|spent|spend|spends|spending|about|nearly|almost|"
    r"in|lasted|lasts|lasting|took|takes|barely|just|only)\s+$",
    re.IGNORECASE,
)
_SPAN_AFTER = re.compile(
    r"^\s+(?:earlier|later|after|before|into|in\s+advance|long|of\s+(?:talks|negotiations|"
    r"deliberations?|fighting|protests?|testimony|hearings?))\b",
    re.IGNORECASE,
)
# Ages: "aged 42", "age 42", and "Jane Roe, 46," / "Jane Roe (46)" after a name.
_AGED = led(
    re.compile(
        r"\b(?:aged?|age\s+of)\s+(?P<num>\d{1,3})\b(?![\d,.]\d|\s*(?:-|to|and|,)\s*\d)",
        re.IGNORECASE,
    ),
    "a",
)
# "Malia and Sasha Obama, aged 16 and 13 respectively": one age per name, in order.
_AGED_LIST = led(
    re.compile(
        r"\b(?:aged?|ages)\s+(?P<nums>\d{1,3}(?:\s*,\s*\d{1,3})*,?\s+and\s+\d{1,3})\b"
        r"(?![\d,.]\d)",
        re.IGNORECASE,
    ),
    "a",
)
_LIST_NUMBER = re.compile(r"\d{1,3}")
# The names the ages follow: "Malia and Sasha Obama, ", "Ann Lee, Bo Cruz and Cy Diaz, ".
_NAME = r"[A-Z][\w'’.-]+(?:\s+[A-Z][\w'’.-]+){0,2}"
_NAMES_BEFORE = re.compile(rf"(?P<names>{_NAME}(?:,\s+{_NAME})*,?\s+and\s+{_NAME}),\s+$")
_NAME_BEFORE = re.compile(rf"(?P<name>{_NAME}),\s+$")
_NAME_AGE = led(
    re.compile(
        r"(?P<name>(?:[A-Z][\w'’.-]+\s+){0,3}[A-Z][\w'’.-]+)"
        r"(?:,\s+(?P<num>\d{1,3}),(?!\d)|\s+\((?P<num2>\d{1,3})\))"
    ),
    "A-Z",
)
# An acronym may modify the noun ("a two-year FBI investigation"); a name may not.
_HEAD_AFTER = re.compile(
    r"^\s+(?P<np>(?:(?:[a-z][\w’'-]*|[A-Z]{2,})\s+){0,2}?(?P<head>[a-z][\w’'-]*))\b"
)
# "four days of hearings", "two years of Senate hearings": the period is the event's length.
_OF_EVENT = re.compile(
    r"^\s+of\s+(?:the\s+)?(?P<np>(?:[A-Z][\w’'-]*\s+){0,4}(?:[a-z][\w’'-]*\s+){0,2}?"
    r"(?P<head>[a-z][\w’'-]*))\b"
)
# What a sentence must hold for each search to be worth running: most sentences state no
# period and no age.
_UNIT_STEMS = ("second", "minute", "hour", "day", "week", "month", "year", "decade", "centur")
# Nouns after "of" that are no event: "16 years of age", "four months of the year".
_NOT_AN_EVENT = {"age", "life", "time", "century", "centuries", *_UNIT_STEMS}
_NOT_AN_EVENT |= {f"{u}s" for u in _UNIT_STEMS}
_AGE_CUE = re.compile(r",\s+\d{1,3},(?!\d)|\(\d{1,3}\)")


def _unit(word: str) -> tuple[str, float]:
    """The stored unit and how many of it one stated unit is: a decade is 10 years."""
    word = word.lower()
    if word.startswith("centur"):
        return "years", 100.0
    if word.startswith("decade"):
        return "years", 10.0
    return word.rstrip("s") + "s", 1.0


def _number(text: str) -> float | None:
    if text[0].isdigit():
        return float(text.replace(",", ""))
    if text.lower() in ("a", "an", "one"):
        return 1.0
    return words_to_number(text)


def iso_duration(value: float, unit: str) -> str:
    """14 months -> 'P14M'; 2 hours -> 'PT2H'."""
    designator = ISO_UNITS[unit]
    amount = format_number(value)
    return f"PT{amount}{designator[1]}" if designator.startswith("T") else f"P{amount}{designator}"


def _mention(sentence: str, start: int, end: int, kind: str, value: float, unit: str) -> Quantity:
    qualifier, span_start = qualifier_before(sentence, start)
    lower, upper = bounds(qualifier, value)
    text = iso_duration(value, unit) if kind == "duration" else format_number(value)
    return Quantity(
        span_start, end, start, end, kind, value, text, qualifier, lower, upper, unit=unit
    )


def _noun_after(sentence: str, end: int) -> tuple[str, list[str], int] | None:
    """The noun right after a duration or age used as a modifier: "a 35-day shutdown" ->
    shutdown, "a 42-year-old man" -> man."""
    m = _HEAD_AFTER.match(sentence[end:])
    if m is None or m.group("head").lower() in lx.NP_STOPWORDS:
        return None
    words = m.group("np").split()
    while words and words[-1].lower() in lx.NP_STOPWORDS:
        words.pop()
    if not words:
        return None
    np_end = end + m.start("np") + len(" ".join(words))
    return " ".join(words), words, np_end


def find_durations(sentence: str) -> list[Quantity]:
    """Every duration and age stated in the sentence; of overlapping ones, the longest."""
    found: list[Quantity] = []
    low = sentence.lower()
    units = holds_any(low, _UNIT_STEMS)
    # A stated period's number is digits or words.
    stated = units and (holds_digit(sentence) or may_hold(sentence, low, NUMBER_CUES))
    for m in _STATED.finditer(sentence) if stated else ():
        span = range_low(sentence, m.start()) if not m.group("old") else None
        if span is None and m.start() > 0 and sentence[m.start() - 1] in "-–":
            continue
        if not m.group("num")[0].isdigit() and is_name_word(sentence, m.start()):
            continue  # "Four Seasons"
        if m.group("num").lower() == "one" and m.group("sep") != "-" and not m.group("old"):
            continue  # "one day" is a period only where a span is meant: _ONE
        value = _number(m.group("num"))
        if value is None or value <= 0:
            continue
        unit, factor = _unit(m.group("unit"))
        value *= factor
        if m.group("old"):
            q = _mention(sentence, m.start(), m.end(), "age", value, unit)
            _describe(sentence, q, m.end())
            found.append(q)
            continue
        if span is not None and 0 < span[0] * factor < value:
            q = range_mention(span[1], m.end(), "duration", span[0] * factor, value, unit=unit)
            q.value_text = "-".join(iso_duration(v, unit) for v in (q.lower, q.upper))
        else:
            q = _mention(sentence, m.start(), m.end(), "duration", value, unit)
        if m.group("sep") == "-":
            _describe(sentence, q, m.end())
        elif (of := _OF_EVENT.match(sentence[m.end() :])) and of.group("head") == "age":
            # "16 years of age"
            q = _mention(sentence, m.start(), m.end() + of.end(), "age", value, unit)
        elif of and of.group("head") not in _NOT_AN_EVENT | lx.NP_STOPWORDS:
            q.subject, q.head_tokens = of.group("np"), of.group("np").split()
        found.append(q)
    for m in _ONE.finditer(sentence) if units else ():
        before = sentence[max(0, m.start() - 40) : m.start()]
        lead = _SPAN_BEFORE.search(before)
        if not (lead or _SPAN_AFTER.match(sentence[m.end() :])):
            continue
        if _A_TIME.match(sentence[m.end() :]) and (lead is None or lead.group(0).strip() == "in"):
            continue
        if re.match(r"\s+ago\b", sentence[m.end() :]):
            continue
        unit, factor = _unit(m.group("unit"))
        found.append(_mention(sentence, m.start(), m.end(), "duration", factor, unit))
    for m in _AGED.finditer(sentence) if "age" in low else ():
        value = float(m.group("num"))
        if 0 < value <= _MAX_AGE:
            q = _mention(sentence, m.start("num"), m.end("num"), "age", value, "years")
            named = _NAME_BEFORE.search(sentence[: m.start()])
            q.subject = named.group("name").split()[-1] if named else None
            found.append(q)
    for m in _AGED_LIST.finditer(sentence) if "age" in low else ():
        found.extend(_listed_ages(sentence, m))
    for m in _NAME_AGE.finditer(sentence) if _AGE_CUE.search(sentence) else ():
        group = "num" if m.group("num") else "num2"
        value = float(m.group(group))
        name = m.group("name").split()
        if not 0 < value <= _MAX_AGE or name[-1].lower() in lx.MONTHS:
            continue  # "May 20, 2025"
        if all(w.lower() in lx.WEEKDAYS or w.lower() in lx.MONTHS for w in name):
            continue
        q = _mention(sentence, m.start(group), m.end(group), "age", value, "years")
        q.subject = name[-1]
        found.append(q)
    return keep_longest(found)


def _listed_ages(sentence: str, m: re.Match) -> list[Quantity]:
    """The ages of a list ("aged 16 and 13 respectively"), each tied to its name when as many
    names precede it."""
    numbers = list(_LIST_NUMBER.finditer(m.group("nums")))
    if not all(0 < float(n.group()) <= _MAX_AGE for n in numbers):
        return []
    named = _NAMES_BEFORE.search(sentence[: m.start()])
    names = _distinct_names(named.group("names"), len(numbers)) if named else []
    ages = []
    for i, n in enumerate(numbers):
        start, end = m.start("nums") + n.start(), m.start("nums") + n.end()
        q = _mention(sentence, start, end, "age", float(n.group()), "years")
        q.subject = names[i] if names else None
        ages.append(q)
    return ages


def _distinct_names(text: str, count: int) -> list[str]:
    """The word telling each of `count` listed names apart: its last ("Ann Lee" -> Lee), or,
    where later names carry a surname the first lacks ("Malia and Sasha Obama"), its first.
    Empty when the list holds another number of names."""
    names = [n.split() for n in re.split(r",\s+(?:and\s+)?|\s+and\s+", text) if n]
    if len(names) != count:
        return []
    shared = len(names) > 1 and len(names[0]) == 1 and len(names[-1]) > 1
    return [n[0] if shared else n[-1] for n in names]


def _describe(sentence: str, q: Quantity, end: int) -> None:
    """A duration or age used as a modifier names what it measures: "a 35-day shutdown",
    "a 42-year-old man"."""
    noun = _noun_after(sentence, end)
    if noun is not None:
        q.subject, q.head_tokens, _ = noun
