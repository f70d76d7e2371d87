"""Find quantity mentions in one sentence: numbers, number words, vague amounts, multipliers.

Pure functions over a sentence's text; offsets are relative to the sentence.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

from lake.silver import lexicon as lx
from lake.silver.cues import (
    fewest,
    first_digit,
    holds_any,
    initials,
    led,
    may_hold,
    search_end,
)
from lake.silver.dates import STREET_AFTER, is_year
from lake.silver.kinds import KINDS
from lake.silver.kinds.percent import PERCENT_SIGN

# The kinds that read this finder's mentions again (a count of miles is a length), in order.
_KINDS_READ_AGAIN = tuple(kind.reads for kind in KINDS if kind.reads is not None)
_UNIT_WORDS = "|".join(sorted(lx.UNITS, key=len, reverse=True))
_TEN_WORDS = "|".join(lx.TENS)
_SMALL = rf"(?:(?:{_TEN_WORDS})(?:[- ](?:{_UNIT_WORDS}))?|{_UNIT_WORDS})"
# A number written in words ("twenty-one thousand", "a dozen"), as a pattern other finders
# embed (durations).
WORD_NUMBER = (
    rf"(?:(?:a|one)\s+(?:hundred|thousand|million|billion)"
    rf"|{_SMALL}(?:\s+hundred(?:\s+(?:and\s+)?{_SMALL})?)?(?:\s+(?:thousand|million|billion))?"
    rf"|a\s+dozen|dozen)"
)
# What a number in words can start with.
NUMBER_INITIALS = initials(("a", "one", "dozen"), lx.UNITS, lx.TENS)
# Run on the lowercased sentence: a case-insensitive alternation is several times slower.
_WORD_NUMBER = led(re.compile(rf"\b{WORD_NUMBER}\b"), NUMBER_INITIALS)
_WORD_NUMBER_ANY_CASE = led(re.compile(rf"\b{WORD_NUMBER}\b", re.IGNORECASE), NUMBER_INITIALS)
_CODES = "|".join(lx.CURRENCY_CODES)
# A currency code, with the scale letter financial reports put before it ("MUSD").
_CODE = rf"(?-i:[{''.join(lx.CURRENCY_CODE_SCALES)}]?(?:{_CODES}))"
_CODE_PARTS = re.compile(rf"(?P<scale>[{''.join(lx.CURRENCY_CODE_SCALES)}])?(?P<code>{_CODES})")
_SCALE_WORDS = "|".join(sorted((w for w in lx.SCALES if w != "hundred"), key=len, reverse=True))
# At most 18 digits before the point: a longer run is an identifier or noise, not a figure
# (and would overflow a float). Digits group in threes, or in twos before the last three
# (South Asian: "12,34,567").
_DIGITS = re.compile(
    r"(?<![\w.,:/#-])(?:(?P<sign>[-−]|minus\s)\s?)?"
    rf"(?:(?P<cur>US\$|\$|€|£|¥|{_CODE})\s?)?"
    r"(?P<num>\d{1,3}(?:,\d{3}){1,5}(?:\.\d{1,9})?|\d{1,2}(?:,\d\d)+,\d{3}(?:\.\d{1,9})?"
    r"|\d{1,3}(?:,\s000){1,4}(?!\d)|\d{1,15}(?:\.\d{1,9})?)"
    rf"(?:\s?(?P<cur_after>{_CODE}\b|元))?"
    r"(?:(?P<scale_tight>k|bn|mn|m)\b)?(?![\w:/]|[.,]\d|-[A-Za-z\d])"
    rf"(?:\s(?P<scale>{_SCALE_WORDS})\b)?"
    rf"(?:\s(?P<cur_end>{_CODE})\b)?"
    rf"{PERCENT_SIGN}",
    re.IGNORECASE,
)
# The most a _DIGITS match holds before its first digit: "minus" and two spaces, then a
# currency ("US$", or a code with its scale letter: "MUSD") and a space; _DIGIT_RANGE's
# currency is a symbol.
_CURRENCY = len("US$") + 1
_SIGN_AND_CURRENCY = len("minus") + 2 + 1 + max(map(len, lx.CURRENCY_CODES)) + 1
# A minus sign is read only where a negative value is usual: temperatures and percents
# ("-5 degrees", "minus 20°C", "-0.4%"); elsewhere "-" is a dash.
_DEGREES_AFTER = re.compile(r"\s?(?:°|degrees?\b)", re.IGNORECASE)
_GLUED_DEGREES = re.compile(r"°[cf]?(?![\w°])", re.IGNORECASE)
# An earthquake's magnitude: "magnitude 6.8", "a magnitude of 6.4", "7.1-magnitude", "5.9
# magnitude", "6.2 on the Richter scale" (not a count of what follows).
_MAGNITUDE_BEFORE = re.compile(r"\bmagnitude(?:[- ]|\s+of\s+)$", re.IGNORECASE)
_MAGNITUDE_AFTER = re.compile(r"[- ]magnitude\b|\s+on\s+the\s+Richter\s+scale\b", re.IGNORECASE)
# "1.8m tall": metres, not millions.
_METRES_AFTER = re.compile(rf"\s+(?:{'|'.join(sorted(lx.DIMENSION_WORDS))})\b", re.IGNORECASE)
_VULGAR = re.compile(
    rf"(?<![\w.,:/#-])(?P<whole>\d{{1,3}})?(?P<frac>[{''.join(lx.VULGAR_FRACTIONS)}])"
)
_VULGAR_CHAR = re.compile(f"[{''.join(lx.VULGAR_FRACTIONS)}]")
# The hundredths after an amount in whole units: "3 dollars 50 cents", "$15 and 50 cents",
# "17 USD 25." (no subunit word: only at the end of the phrase).
_SUBUNIT_GAP = re.compile(r"^\s*(?:and\s+)?$", re.IGNORECASE)
_SUBUNIT_AFTER = re.compile(
    r"\s+(?P<sub>"
    + "|".join(sorted(lx.SUBUNIT_WORDS, key=len, reverse=True))
    + r")\b|(?=\s*(?:(?:more|less|extra)\b|[.,;:!?)]|$))",
    re.IGNORECASE,
)
# "one" is a count when a unit follows it ("one mile", "a one-yen bid", "one penny").
_ONE_UNITS = sorted(
    {
        *(w for w in lx.CURRENCY_WORDS if w.upper() not in lx.CURRENCY_CODES),
        *lx.SUBUNIT_WORDS - {"p"},
        *(w for w in lx.ATTACHED_UNITS if w.isalpha() and len(w) > 2),
    },
    key=len,
    reverse=True,
)
_ONE_UNIT_AFTER = re.compile(rf"[\s-](?:{'|'.join(_ONE_UNITS)})\b", re.IGNORECASE)
_ATTACHED_UNIT = led(
    re.compile(
        r"(?<![\w.,:/#-])(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d{1,9})?|\d{1,15}(?:\.\d{1,9})?)"
        r"(?:-|(?=[a-z°]))(?P<unit>"
        + "|".join(re.escape(u) for u in sorted(lx.ATTACHED_UNITS, key=len, reverse=True))
        + r")(?![\w°])",
        re.IGNORECASE,
    ),
    r"\d",
)
# "10 1/2 miles", "a 1/4 mile oval", "3/4 of voters": halves to eighths, a proper fraction with
# or without a whole number before it ("9/11" and "24/7" are not fractions).
_FRACTION = led(
    re.compile(r"(?<![\w.,:/#-])(?:(?P<whole>\d{1,3})\s)?(?P<n>[1-7])/(?P<d>[2-8])(?![\w/.-]|,\d)"),
    r"\d",
)
_FRACTION_WORD = "|".join(
    w.replace(" ", "[ -]") for w in sorted(lx.FRACTION_WORDS, key=len, reverse=True)
)
# "half a million", "a quarter of a billion", "two and a half million": a scale times a fraction.
_SCALED_FRACTION = re.compile(
    rf"\b(?:(?P<whole>{WORD_NUMBER}|\d{{1,3}})\s+and\s+)?(?P<frac>{_FRACTION_WORD}|quarter)"
    r"(?:\s+of)?[\s-]+(?:a\s+)?(?P<scale>thousand|million|billion|trillion)\b"
    r"|\b(?P<whole2>\w+|\d{1,3})\s+and\s+a\s+half\s+(?P<scale2>thousand|million|billion|trillion)\b",
    re.IGNORECASE,
)
# "two-thirds of voters", "nearly half of the workers": a share of what follows.
_SHARE = led(
    re.compile(rf"\b(?P<frac>{_FRACTION_WORD})\s+of\s+(?!a\s+(?:thousand|million|billion))", re.I),
    initials(lx.FRACTION_WORDS),
)
_WORD_BEFORE = re.compile(r"(\w+)\W*$")
_VAGUE = led(
    re.compile(
        r"\b(?P<phrase>" + "|".join(sorted(lx.VAGUE_AMOUNTS, key=len, reverse=True)) + r")\s+of\b",
        re.IGNORECASE,
    ),
    initials(lx.VAGUE_AMOUNTS),
)
_VAGUE_SCALED = led(
    re.compile(
        r"\b(?P<phrase>(?P<factor>"
        + "|".join(lx.VAGUE_FACTORS)
        + r")\s+(?P<scale>"
        + "|".join(lx.VAGUE_SCALES)
        + r"))\b(?!\s+of\b)",
        re.IGNORECASE,
    ),
    initials(lx.VAGUE_FACTORS),
)
_MULTIPLIER = re.compile(
    r"\b(?P<word>double|doubled|tripled?|quadrupled?|twice|half|\w+fold)\b(?=\s+(?:the|as|its|their|"
    r"that|what|from|to|in|since)\b)|\b(?P<verb>doubled|tripled|quadrupled)\b",
    re.IGNORECASE,
)
# A part of a whole: "one in three voters", "a 1-in-3 chance", "9 in 10". Found from its "in"
# (rare beside a number) rather than by trying every word as the part.
_IN = re.compile(r"[\s-][Ii][Nn][\s-]")

_VAGUE_WORDS = tuple(lx.VAGUE_AMOUNTS)
_VAGUE_CUES = fewest(_VAGUE_WORDS)
_VAGUE_FACTOR_WORDS = tuple(lx.VAGUE_FACTORS)
_SCALE_NAMES = ("thousand", "million", "billion", "trillion")
# Each number in words holds one of these ("a hundred" its scale word).
NUMBER_WORDS = (*lx.UNITS, *lx.TENS, "hundred", "thousand", "million", "billion", "dozen")
NUMBER_CUES = fewest(NUMBER_WORDS)
_SHARE_WORDS = tuple({w.split()[-1] for w in lx.FRACTION_WORDS})
_SHARE_CUES = fewest(sorted(_SHARE_WORDS))
_WORDED_CUES = fewest((*_VAGUE_CUES, *_VAGUE_FACTOR_WORDS, *_SCALE_NAMES, *_SHARE_CUES))
# What every _SCALED_FRACTION match holds: the last word of its fraction, then its scale.
_FRACTION_BEFORE_SCALE = re.compile(
    rf"(?:{'|'.join(sorted(_SHARE_WORDS, key=lambda w: (-len(w), w)))})(?:\s+of)?[\s-]+(?:a\s+)?"
    rf"(?:{'|'.join(_SCALE_NAMES)})\b",
    re.IGNORECASE,
)
_PART = re.compile(rf"(?<![\w$.,-])(?P<part>\d{{1,3}}|{WORD_NUMBER})$", re.IGNORECASE)
_WHOLE = re.compile(
    rf"(?P<whole>\d{{1,3}}(?:,\d{{3}})*|{WORD_NUMBER})\b(?![-.,]?\d)", re.IGNORECASE
)
_MULTIPLIER_CUES = ("doubl", "tripl", "quadrupl", "twice", "half", "fold")
_TIMES_AFTER = re.compile(
    r"\s+(?P<times>times)\s+(?:the|as|more|higher|larger|bigger|greater|that|what|its|their)\b",
    re.IGNORECASE,
)
_QUALIFIER = re.compile(
    r"(?:^|(?<=[\s(“\"]))(?P<q>"
    + "|".join(re.escape(q) for q in sorted(lx.QUALIFIERS, key=len, reverse=True))
    + r")\s*$",
    re.IGNORECASE,
)
_TOKEN = re.compile(
    r"\([^()]{1,40}\)|(?:[A-Z]\.){2,}|[A-Za-z][\w'’&.-]*[\w]|[A-Za-z]|\d[\d,.]*|[^\s\w]"
)
_RATE_AFTER = re.compile(
    r"^(?:[^,.;:]{0,30}?\s)?(?:a|an|per|each|every)\s+(?P<p>day|week|month|year|hour|quarter)\b"
    r"|^\s*(?:[^,.;:]{0,30}?\s)?(?P<adv>daily|weekly|monthly|annually|yearly|hourly)\b",
    re.IGNORECASE,
)
_RATE_BEFORE = re.compile(r"\b(?P<adv>daily|weekly|monthly|annual|yearly)\b[^,.;]{0,30}$", re.I)
# A stated range written tight: "10-12 people", "$5-7 million", "10–12%".
_NUM = r"\d{1,3}(?:,\d{3})+(?:\.\d{1,9})?|\d{1,15}(?:\.\d{1,9})?"
_DIGIT_RANGE = led(
    re.compile(
        rf"(?<![\w.,:/#-])(?:(?P<cur>US\$|\$|€|£|¥)\s?)?(?P<a>{_NUM})%?[-–](?:US\$|\$|€|£|¥)?"
        rf"(?P<b>{_NUM})(?:(?P<scale_tight>k|bn|mn|m)\b)?(?![\w:/]|[.,]\d|[-–/][A-Za-z\d])"
        r"(?:\s(?P<scale>thousand|million|billion|trillion)\b)?"
        rf"{PERCENT_SIGN}",
        re.IGNORECASE,
    ),
    r"\d$€£¥U",
)
# Two numbers joined by a dash are a tally, not a range, after or before these words ("voted
# 5-4", "a 3-2 win").
_TALLY_BEFORE = re.compile(
    r"\b(?:vote[sd]?|voting|won|win|wins|lost|lose|loses|beat|beats|defeated|tied|trail(?:s|ed|ing)?|"
    r"led|leads?|score[sd]?|record)\b[^.;:]{0,20}$",
    re.IGNORECASE,
)
_TALLY_AFTER = re.compile(
    r"^\s*(?:vote|votes|ruling|decision|win|loss|victory|defeat|majority|split|record|margin|"
    r"score|lead|edge|tally)\b",
    re.IGNORECASE,
)
# The words between the ends of a range written out: "10 to 12", "between 10 and 12".
_RANGE_JOIN = re.compile(r"^\s*(?:(?P<to>to|through)|(?P<and>and)|[-–—])\s*$", re.IGNORECASE)
_RANGE_LEAD = re.compile(r"\b(?P<lead>between|from)\s+$", re.IGNORECASE)
# "rose from 10 to 12" states two values at two times, not a range; "rose 10 to 12 percent"
# and "rose to between 10 and 12" state one.
_CHANGE_BEFORE = re.compile(
    r"\b(?:rose|rise[ns]?|rising|fell|fall(?:s|ing|en)?|climb\w*|jump\w*|drop\w*|increas\w*|"
    r"decreas\w*|grew|grow\w*|declin\w*|surg\w*|soar\w*|plung\w*|cut|cuts|cutting|rais\w*|"
    r"reduc\w*|lower\w*|revis\w*|went|goes|going|gone|mov\w*|shr[iau]nk\w*|expand\w*|slipp?\w*|"
    r"doubl\w*|tripl\w*|swell\w*|swollen|balloon\w*|dipp?\w*|tumbl\w*|slid\w*|spik\w*|hik\w*|"
    r"boost\w*|changed?|shift\w*|upgrad\w*|downgrad\w*)(?:\s+(?:up|down))?\s+$",
    re.IGNORECASE,
)
_SCALE_WORD = re.compile(r"\b(thousand|million|billion|trillion)\b|\d(k|bn|mn|m)\b", re.IGNORECASE)


@dataclass
class Quantity:
    start: int  # span start in the sentence, qualifier included
    end: int  # span end, unit noun phrase included
    number_start: int
    number_end: int
    kind: str  # count | rate | percent | money | ratio | duration | age | length
    value: float | None
    value_text: str
    qualifier: str
    lower: float | None
    upper: float | None
    unit: str | None = None
    subject: str | None = None
    per: str | None = None
    currency: str | None = None
    head_tokens: list[str] = field(default_factory=list)  # the noun phrase, as tokens


def words_to_number(text: str) -> float | None:
    """'twenty-one thousand' -> 21000; 'a dozen' -> 12; None if not a number phrase."""
    words = re.split(r"[\s-]+", text.lower().replace(" and ", " "))
    if words[:2] == ["a", "dozen"] or words == ["dozen"]:
        return 12.0
    total, current = 0, 0
    for word in words:
        if word in ("a", "one") and current == 0:
            current = 1
        elif word in lx.UNITS:
            current += lx.UNITS[word]
        elif word in lx.TENS:
            current += lx.TENS[word]
        elif word == "hundred":
            current = max(current, 1) * 100
        elif word in lx.SCALES:
            total += max(current, 1) * lx.SCALES[word]
            current = 0
        else:
            return None
    return float(total + current)


def _number_text(text: str) -> float | None:
    """'3' -> 3.0, '1,000' -> 1000.0, 'three' -> 3.0."""
    if text[0].isdigit():
        return float(text.replace(",", ""))
    return words_to_number(text)


def format_number(value: float) -> str:
    return str(int(value)) if math.isfinite(value) and value == int(value) else repr(value)


def bounds(qualifier: str, value: float) -> tuple[float | None, float | None]:
    """The interval a qualifier implies; "about -5" is -5.5 to -4.5, lower end first."""
    low, high = {
        "exact": (value, value),
        "approximate": (value * 0.9, value * 1.1),
        "almost": (value * 0.9, value),
        "up_to": (None, value),
        "at_least": (value, None),
        "more_than": (value, None),
    }[qualifier]
    if low is not None and high is not None and low > high:
        low, high = high, low
    return low, high


def qualifier_before(sentence: str, start: int) -> tuple[str, int]:
    """The qualifier right before a number and where it starts, or ('exact', start)."""
    window_start = max(0, start - 25)
    match = _QUALIFIER.search(sentence[window_start:start])
    if match is None:
        return "exact", start
    return lx.QUALIFIERS[match.group("q").lower()], window_start + match.start("q")


def _mention(start: int, end: int, kind: str, value: float, **extra) -> Quantity:
    """A mention stated exactly: its bounds are the value itself."""
    return Quantity(
        start, end, start, end, kind, value, format_number(value), "exact", value, value, **extra
    )


def _raw_mentions(sentence: str) -> list[Quantity]:
    found: list[Quantity] = []
    # Most sentences hold no digit: the figure patterns, which all need one, are not tried;
    # the others are scanned from the first digit, less what a match may hold before it.
    digit = first_digit(sentence)
    figures = digit >= 0
    for m in _DIGITS.finditer(sentence, max(0, digit - _SIGN_AND_CURRENCY)) if figures else ():
        # "10, 000": a thousands group split by a space ("000" alone is never a figure).
        number = float(re.sub(r"[,\s]", "", m.group("num")))
        signed = bool(m.group("sign"))
        if signed:
            glued = _GLUED_DEGREES.match(sentence, m.end("num"))  # "minus 5°C", "-5°F"
            if glued:
                unit = lx.ATTACHED_UNITS[glued.group(0).lower()]
                found.append(_mention(m.start(), glued.end(), "count", -number, unit=unit))
                continue
            if m.group("pct") or _DEGREES_AFTER.match(sentence, m.end()):
                number = -number
            elif m.end("sign") == m.start("num"):
                continue  # "10 -15": a dash
            else:
                signed = False  # "40 - 50": a dash, then the number
        scale = m.group("scale") or m.group("scale_tight")
        currency = m.group("cur") or m.group("cur_after") or m.group("cur_end")
        if currency and (code := _CODE_PARTS.fullmatch(currency)):
            currency = code.group("code")
            number *= lx.CURRENCY_CODE_SCALES.get(code.group("scale") or "", 1)
        if (
            scale
            and scale.lower() == "m"
            and not currency
            and _METRES_AFTER.match(sentence, m.end())
        ):
            found.append(_mention(m.start("num"), m.end(), "count", number, unit="meters"))
            continue
        if scale:
            number *= lx.SCALES.get(scale.lower()) or lx.SCALE_ABBREVIATIONS[scale.lower()]
        kind = "percent" if m.group("pct") else "money" if currency else "count"
        begin = m.start() if signed else m.start("cur") if m.group("cur") else m.start("num")
        found.append(
            _mention(
                begin,
                m.end(),
                kind,
                number,
                unit="percent" if kind == "percent" else None,
                currency=lx.CURRENCY_SYMBOLS.get(currency or ""),
            )
        )
    for m in _ATTACHED_UNIT.finditer(sentence, max(0, digit)) if figures else ():
        # "a 3-inch pipe", "75ml": the unit is stated, whatever noun follows.
        unit = lx.ATTACHED_UNITS[m.group("unit").lower()]
        found.append(
            _mention(m.start(), m.end(), "count", float(m.group("num").replace(",", "")), unit=unit)
        )
    for m in _FRACTION.finditer(sentence) if "/" in sentence else ():
        numerator, denominator = int(m.group("n")), int(m.group("d"))
        if numerator < denominator:
            value = int(m.group("whole") or 0) + numerator / denominator
            share = not m.group("whole") and re.match(r"\s+of\b", sentence[m.end() :])
            found.append(
                _mention(m.start(), m.end(), "ratio" if share else "count", round(value, 4))
            )
    for m in _VULGAR.finditer(sentence) if _VULGAR_CHAR.search(sentence) else ():
        value = int(m.group("whole") or 0) + lx.VULGAR_FRACTIONS[m.group("frac")]
        found.append(_mention(m.start(), m.end(), "count", round(value, 4)))
    lowered = sentence.lower()
    # Vague amounts, their multiples and fractions in words each need a word of _WORDED_CUES.
    worded = may_hold(sentence, lowered, _WORDED_CUES)
    if worded:
        found.extend(_fractions_in_words(sentence, lowered))
    if figures and ("-" in sentence or "–" in sentence):
        found.extend(_digit_ranges(sentence))
    # Lowercasing keeps offsets unless a character changes length ("İ"): then match any case.
    numbered = may_hold(sentence, lowered, NUMBER_CUES)
    words = (
        ()
        if not numbered
        else _WORD_NUMBER.finditer(lowered)
        if len(lowered) == len(sentence)
        else _WORD_NUMBER_ANY_CASE.finditer(sentence)
    )
    for m in words:
        if m.start() > 0 and sentence[m.start() - 1] in "-–":
            continue  # "7-Eleven"
        if is_name_word(sentence, m.start()):
            continue  # a capitalised number word mid-sentence is a name
        if m.group(0).lower() == "one" and not _ONE_UNIT_AFTER.match(sentence, m.end()):
            continue  # "one of them", "one official": a pronoun far more often than a count
        value = words_to_number(m.group(0))
        if value is None:
            continue
        found.append(_mention(m.start(), m.end(), "count", value))
    vague = worded and may_hold(sentence, lowered, _VAGUE_CUES)
    for m in _VAGUE.finditer(sentence) if vague else ():
        phrase = m.group("phrase").lower()
        low, high = lx.VAGUE_AMOUNTS[phrase]
        end = m.start() + len(m.group("phrase"))
        found.append(
            Quantity(
                m.start(),
                end,
                m.start(),
                end,
                "count",
                None,
                phrase,
                "vague",
                float(low),
                float(high),
            )
        )
    vague_scaled = worded and may_hold(sentence, lowered, _VAGUE_FACTOR_WORDS)
    for m in _VAGUE_SCALED.finditer(sentence) if vague_scaled else ():
        (low, high), scale = (
            lx.VAGUE_FACTORS[m.group("factor").lower()],
            lx.VAGUE_SCALES[m.group("scale").lower()],
        )
        found.append(
            Quantity(
                m.start(),
                m.end(),
                m.start(),
                m.end(),
                "count",
                None,
                m.group("phrase").lower(),
                "vague",
                float(low * scale),
                float((high + 1) * scale - 1),
            )
        )
    multiplied = holds_any(lowered, _MULTIPLIER_CUES)
    for m in _MULTIPLIER.finditer(sentence) if multiplied else ():
        word = (m.group("word") or m.group("verb")).lower()
        value = lx.MULTIPLIERS.get(word)
        if value is None and word.endswith("fold"):
            value = words_to_number(word[:-4])
        if value is None:
            continue
        found.append(_mention(m.start(), m.end(), "ratio", value, unit="times"))
    # The whole after "in" is a figure or a number in words.
    for m in _IN.finditer(sentence) if figures or numbered else ():
        # The whole, anchored after "in", is tried first: it is cheaper and most often absent.
        whole_m = _WHOLE.match(sentence, m.end())
        if whole_m is None:
            continue
        part_m = _PART.search(sentence, max(0, m.start() - 40), m.start())
        if part_m is None:
            continue
        part, whole = _number_text(part_m.group("part")), _number_text(whole_m.group("whole"))
        if part is None or not whole or part > whole:
            continue
        q = _mention(part_m.start(), whole_m.end(), "ratio", part / whole)
        q.value_text = format_number(round(part / whole, 4))
        found.append(q)
    return keep_longest(found)


def _fraction_value(words: str) -> float:
    words = re.sub(r"[\s-]+", " ", words.lower())
    return lx.FRACTION_WORDS["a quarter" if words == "quarter" else words]


def _fractions_in_words(sentence: str, lowered: str) -> list[Quantity]:
    """ "half a million" -> 500,000 (count); "two-thirds of voters" -> 0.667 (ratio)."""
    found: list[Quantity] = []
    # Both patterns try every word of the sentence; most sentences lack the words they need.
    # A scaled fraction holds a fraction word before its scale ("and a half" its "half").
    scaled = (
        may_hold(sentence, lowered, _SCALE_NAMES)
        and may_hold(sentence, lowered, _SHARE_CUES)
        and _FRACTION_BEFORE_SCALE.search(sentence)
    )
    for m in _SCALED_FRACTION.finditer(sentence) if scaled else ():
        if m.group("frac"):
            whole = _number_text(m.group("whole")) if m.group("whole") else 0.0
            fraction, scale = _fraction_value(m.group("frac")), m.group("scale")
        else:
            whole, fraction, scale = _number_text(m.group("whole2")), 0.5, m.group("scale2")
        if whole is None:
            continue
        value = (whole + fraction) * lx.SCALES[scale.lower()]
        found.append(_mention(m.start(), m.end(), "count", value))
    share = "of" in lowered and may_hold(sentence, lowered, _SHARE_CUES)
    for m in _SHARE.finditer(sentence) if share else ():
        before = _WORD_BEFORE.search(sentence, 0, m.start())
        if before and before.group(1).lower() in lx.NOT_A_SHARE_BEFORE:
            continue  # "the second half of the year"
        value = round(_fraction_value(m.group("frac")), 4)
        found.append(_mention(m.start(), m.start() + len(m.group("frac")), "ratio", value))
    return found


def _scale(text: str) -> float:
    """The factor a scale word or abbreviation in the text applies: "5 million" -> 1e6."""
    m = _SCALE_WORD.search(text)
    if m is None:
        return 1.0
    word = (m.group(1) or m.group(2)).lower()
    return float(lx.SCALES.get(word) or lx.SCALE_ABBREVIATIONS[word])


def range_mention(start: int, end: int, kind: str, low: float, high: float, **extra) -> Quantity:
    """A stated range: no single value; its bounds are its ends."""
    text = f"{format_number(low)}-{format_number(high)}"
    return Quantity(start, end, start, end, kind, None, text, "range", low, high, **extra)


# The lower end of a range, right before its upper end: "between 10 and", "two to", "10-".
_LOW_END = re.compile(
    rf"(?:\b(?P<lead>between|from)\s+)?(?<![\w$£€.,/-])(?P<low>{_NUM}|{WORD_NUMBER})"
    r"\s*(?:(?P<to>to|through)|(?P<and>and)|[-–])\s*$",
    re.IGNORECASE,
)


def _is_change(sentence: str, lead: str | None, start: int) -> bool:
    """Does a change verb right before "from" ("rose from 10 to 12") make the two numbers two
    values at two times?"""
    if lead is None or lead.lower() != "from":
        return False  # "fell 10 to 12 percent" is a range of the fall
    return _CHANGE_BEFORE.search(_before(sentence, start)) is not None


def range_low(sentence: str, start: int) -> tuple[float, int] | None:
    """The lower end of a range whose upper end starts at `start`, and where the range's span
    starts; None unless the text before states one ("and" only after "between"; "rose from 10
    to" is a change)."""
    m = _LOW_END.search(sentence, max(0, start - 60), start)
    if m is None or (m.group("and") and not m.group("lead")):
        return None
    if m.group("lead") and m.group("lead").lower() == "from" and m.group("and"):
        return None
    if _is_change(sentence, m.group("lead"), m.start()):
        return None
    low = _number_text(m.group("low"))
    return (low, m.start()) if low is not None else None


def _digit_ranges(sentence: str) -> list[Quantity]:
    """Ranges written tight ("10-12 people", "$5-7 million"); a tally ("voted 420-0", "a
    242-190 majority") is two counts; not year spans ("2019-20") or phone numbers."""
    found = []
    for m in _DIGIT_RANGE.finditer(sentence, max(0, first_digit(sentence) - _CURRENCY)):
        a_text, b_text = m.group("a"), m.group("b")
        if "," not in a_text + b_text and len(a_text) == 3 and len(b_text) == 4:
            continue  # a phone number
        if len(a_text) == 4 and 1800 <= int(a_text.split(".")[0]) <= 2100:
            continue  # years: "2019-20", "1990-1995"
        word = (m.group("scale") or m.group("scale_tight") or "").lower()
        scale = float(lx.SCALES.get(word) or lx.SCALE_ABBREVIATIONS.get(word) or 1)
        low, high = float(a_text.replace(",", "")), float(b_text.replace(",", ""))
        plain = not (word or m.group("pct") or m.group("cur"))
        tally = _TALLY_BEFORE.search(_before(sentence, m.start())) or _TALLY_AFTER.match(
            sentence[m.end() :]
        )
        if tally or not low < high:
            if plain:  # a range runs low to high: "242-190" is a tally
                found.append(_mention(m.start("a"), m.end("a"), "count", low))
                found.append(_mention(m.start("b"), m.end("b"), "count", high))
            continue
        kind = "percent" if m.group("pct") else "money" if m.group("cur") else "count"
        found.append(
            range_mention(
                m.start(),
                m.end(),
                kind,
                low * scale,
                high * scale,
                unit="percent" if kind == "percent" else None,
                currency=lx.CURRENCY_SYMBOLS.get(m.group("cur") or ""),
            )
        )
    return found


def _join_ranges(sentence: str, found: list[Quantity]) -> list[Quantity]:
    """Two numbers that state one range become one mention: "between 10 and 12 people",
    "from 252 to 287 miles", "10 to 12 percent", "$5 million to $7 million". Not "rose from 10
    to 12": that is a change."""
    out: list[Quantity] = []
    for q in found:
        a = out[-1] if out else None
        if a is None or a.value is None or q.value is None or q.qualifier != "exact":
            out.append(q)
            continue
        gap = sentence[a.end : q.start]
        join = _RANGE_JOIN.match(gap) if gap != "-" else None  # "5-4": a tally
        lead = _RANGE_LEAD.search(_before(sentence, a.start))
        # The window _before returns starts _WINDOW characters back: its offsets are not the
        # sentence's.
        lead_start = lead.start() + max(0, a.start - _WINDOW) if lead else a.start
        same_kind = a.kind == q.kind or (
            a.kind == "count" and q.kind in ("percent", "money", "rate")
        )
        if (
            join is None
            or a.qualifier not in ("exact", "approximate")
            or not same_kind
            or (a.end != a.number_end and a.unit != q.unit)
            or (join.group("and") and not (lead and lead.group("lead").lower() == "between"))
            or _is_change(sentence, lead.group("lead") if lead else None, lead_start)
        ):
            out.append(q)
            continue
        low, high = a.value, q.value
        a_text = sentence[a.number_start : a.number_end]
        if _scale(a_text) == 1.0:
            low *= _scale(sentence[q.number_start : q.number_end])  # "5 to 7 million"
        if not low < high:
            out.append(q)
            continue
        joined = range_mention(
            lead_start,
            q.end,
            q.kind,
            low,
            high,
            unit=q.unit,
            subject=q.subject,
            per=q.per,
            currency=q.currency or a.currency,
            head_tokens=q.head_tokens,
        )
        joined.number_start, joined.number_end = a.number_start, q.number_end
        out[-1] = joined
    return out


def keep_longest(found: list[Quantity]) -> list[Quantity]:
    """Of overlapping mentions, the one starting first, the longest of those ("two hundred"
    over "two"), in text order."""
    if len(found) < 2:
        return list(found)  # most sentences state none
    found.sort(key=lambda q: (q.start, -(q.end - q.start)))
    kept: list[Quantity] = []
    for q in found:
        if kept and q.start < kept[-1].end:
            continue
        kept.append(q)
    return kept


_LABELS = ("no.", "number", "#", "page", "p.", "figure", "table")
_NUMBER_LABEL = re.compile(
    "(?:" + "|".join(("" if w == "#" else r"\b") + re.escape(w) for w in _LABELS) + r")\s*$", re.I
)


# Numbers that name or locate something rather than count it.
_PHONE_REST = re.compile(r"\)?[\s.-]*\d{3}[\s.-]\d{4}(?!\d)")  # after "(312" or "312"
_NAME_BEFORE = re.compile(r"(?<=[^.!?“\"—–:(]\s)(?P<word>[A-Z][A-Za-z]*)\s$")
_AGE_BEFORE = re.compile(r"[A-Z][\w'’.-]+,\s$")


# How far before a mention the patterns that end at it look: far more than any of them spans,
# and bounded, so a sentence dense with numbers costs time linear in its length.
_WINDOW = 120


def _before(sentence: str, end: int) -> str:
    return sentence[max(0, end - _WINDOW) : end]


def _is_identifier(sentence: str, q: Quantity) -> bool:
    """A phone number, a street address, an age in apposition ("Jane Roe, 46, said") or a
    name with a number ("Route 9", "Motel 6", "Series 40"): none of them is a claim."""
    if q.kind != "count" or q.qualifier != "exact":
        return False
    text = sentence[q.number_start : q.number_end]
    if not text.isdigit():
        return False
    before, after = _before(sentence, q.number_start), sentence[q.number_end :]
    if _PHONE_REST.match(after) or STREET_AFTER.match(after):
        return True
    if int(text) < 120 and _AGE_BEFORE.search(before) and re.match(r"\s*,", after):
        return True
    name = _NAME_BEFORE.search(before)
    return bool(
        name
        and name.group("word").lower() not in lx.MONTHS
        and name.group("word").lower() not in lx.WEEKDAYS
        and name.group("word").lower() not in lx.QUALIFIERS  # "— Approximately 680 evacuees"
        and not _CODE_PARTS.fullmatch(name.group("word"))  # "17 USD 25": cents, not a name
    )


def _is_year(sentence: str, q: Quantity) -> bool:
    """A year stated as a bare number ("in 2012", "a 1993 law", "© 2025") counts nothing."""
    if q.kind != "count" or q.qualifier == "range":
        return False
    return is_year(sentence, q.number_start, q.number_end) or bool(
        re.search(r"(?:©|\(c\)|\bcopyright)\s*$", sentence[: q.number_start], re.I)
    )


def _noun_phrase(sentence: str, end: int) -> tuple[list[tuple[str, int, int]], int]:
    """Tokens of the noun phrase that follows a number, and where it ends."""
    tokens: list[tuple[str, int, int]] = []
    pos = end
    for m in _TOKEN.finditer(sentence, end):
        if sentence[pos : m.start()].strip():
            break
        word = m.group(0)
        lower = word.lower()
        if word.startswith("("):
            if not tokens:
                break
            tokens.append((word, m.start(), m.end()))
            pos = m.end()
            continue
        if not re.match(r"[A-Za-z]", word):
            break
        if lower == "and" and tokens:
            nxt = re.match(r"\s+(\w+)", sentence[m.end() :])
            if nxt and nxt.group(1).lower() in lx.SOFT_MODIFIERS:
                tokens.append((word, m.start(), m.end()))
                pos = m.end()
                continue
            break
        if lower in lx.NP_STOPWORDS or lower in lx.QUALIFIERS:
            break
        if tokens and _is_verb(lower):
            break  # "600 people spent the night": the verb ends the noun phrase
        if _adverb_ends_phrase(sentence, m):
            break  # "16 and 13 respectively,", "23 currently held": no noun counted
        tokens.append((word, m.start(), m.end()))
        pos = m.end()
        if len(tokens) >= 7:
            break
    while tokens and tokens[-1][0].startswith("("):
        tokens.pop()
    return tokens, (tokens[-1][2] if tokens else end)


def _adverb_ends_phrase(sentence: str, m: re.Match) -> bool:
    """A lowercase "-ly" word followed by punctuation, the end, or a verb is an adverb, not
    the counted noun ("13 respectively,", "10 currently held"); before a noun it may be an
    adjective ("12 likely voters", "two daily flights")."""
    word = m.group(0)
    if len(word) < 6 or not word.endswith("ly") or not word.islower():
        return False
    nxt = re.match(r"\s*(\w+)?", sentence[m.end() :])
    following = (nxt.group(1) or "").lower() if nxt else ""
    return not following or _is_verb(following) or following in lx.NP_STOPWORDS


def _is_verb(lower: str) -> bool:
    """A participle or finite verb, which ends a noun phrase ("people spent", "23 ... held")."""
    return bool(re.search(r"(?:ed|ing)$", lower) and lower not in lx.GENERIC_PEOPLE) or (
        lower in lx.FINITE_VERBS
    )


def _plural(word: str) -> str:
    lower = word.lower()
    if lower in lx.PLURAL_NOUNS:
        return lower
    if lower.endswith("s"):
        return lower
    if lower == "person":
        return "people"
    if re.search(r"[^aeiou]y$", lower):
        return lower[:-1] + "ies"
    return lower + "s"


def head_unit(tokens: list[str]) -> str | None:
    """The counted noun of a phrase: its last word, normalized to a plural."""
    words = [t for t in tokens if not t.startswith("(")]
    if not words:
        return None
    if all(w[0].isupper() for w in words):
        return None  # a name ("Homeland Security Investigations"), not a unit
    head = words[-1].lower()
    if (head in lx.PLACEHOLDER_HEADS or head in lx.DIMENSION_WORDS) and len(words) > 1:
        head = words[-2].lower()  # "arrest numbers", "ten miles long"
    head = _plural(head)
    if len(words) > 1 and (pair := f"{words[-2].lower()} {head}") in lx.HEAD_SYNONYMS:
        return lx.HEAD_SYNONYMS[pair]  # "service members" are troops
    return lx.HEAD_SYNONYMS.get(head, head)


def find_quantities(sentence: str) -> list[Quantity]:
    """Every quantity stated in the sentence, with qualifier, unit, subject and rate."""
    result: list[Quantity] = []
    for q in _raw_mentions(sentence):
        before = _before(sentence, q.number_start)
        labelled = search_end(_NUMBER_LABEL, before, max(map(len, _LABELS)))
        if labelled or _is_year(sentence, q) or _is_identifier(sentence, q):
            continue
        if q.qualifier == "exact":
            qualifier, q.start = qualifier_before(sentence, q.number_start)
            # "some" and "under" are too common as plain words to trust before a vague amount.
            q.qualifier = qualifier
            if qualifier != "exact" and q.value is not None:
                q.lower, q.upper = bounds(qualifier, q.value)
        if q.kind == "count" and q.unit in (None, "magnitude") and q.value is not None:
            after = _MAGNITUDE_AFTER.match(sentence, q.number_end)
            before = _MAGNITUDE_BEFORE.search(sentence, max(0, q.number_start - 20), q.number_start)
            if after or before or q.unit == "magnitude":  # "7.1-magnitude" is read attached
                q.unit = q.subject = "magnitude"
                q.head_tokens = ["magnitude"]
                q.start = min(q.start, before.start()) if before else q.start
                q.end = after.end() if after else q.end
                if not (after or before):  # "a 7.1-magnitude quake": the span takes its noun
                    q.end = _noun_phrase(sentence, q.number_end)[1]
                result.append(q)
                continue
        if q.kind == "count" and (times := _TIMES_AFTER.match(sentence[q.number_end :])):
            # "three times the area of last year's fire": a multiplier, not a count of "times".
            q.kind, q.unit = "ratio", "times"
            q.end = q.number_end + times.end("times")
        np_from = q.number_end
        if q.qualifier == "vague" and (of := re.match(r"\s+of\b", sentence[q.number_end :])):
            np_from = q.number_end + of.end()
        tokens, np_end = _noun_phrase(sentence, np_from)
        q.head_tokens = [t for t, _, _ in tokens]
        if q.kind == "count" and q.unit is not None:
            if tokens:  # "a 3-inch pipe": the unit is attached, the noun is what it measures
                q.subject = sentence[tokens[0][1] : np_end]
                q.end = np_end
        elif q.kind not in ("percent", "ratio"):
            unit = head_unit(q.head_tokens)
            if unit in lx.TIME_NOUNS:
                continue  # a duration or an age
            if tokens and unit is not None:
                q.unit = unit
                q.subject = sentence[tokens[0][1] : np_end]
                q.end = np_end
            if q.kind == "count" and (next_word := _next_word(sentence, q.number_end)):
                currency = lx.CURRENCY_WORDS.get(next_word.lower())
                if code := _CODE_PARTS.fullmatch(next_word):  # "twenty MUSD"
                    currency = code.group("code")
                    if code.group("scale") and q.value is not None:
                        q.value *= lx.CURRENCY_CODE_SCALES[code.group("scale")]
                        q.value_text = format_number(q.value)
                        q.lower, q.upper = bounds(q.qualifier, q.value)
                if q.qualifier == "vague" and unit:
                    currency = currency or lx.CURRENCY_WORDS.get(unit)  # "millions of dollars"
                if currency:
                    q.kind, q.currency, q.unit = "money", currency, None
                    # "twenty MUSD", "a one-yen bid": the currency is part of the amount
                    named = sentence.index(next_word, q.number_end) + len(next_word)
                    q.end = max(q.end, named)
            if q.kind == "money" and q.unit in lx.CURRENCY_WORDS:
                q.unit = None  # "$3 million dollars"
        elif q.kind == "percent":
            of = re.match(
                r"\s+(?:of|for|in)\s+(?:(?:the|its|their|his|her|our)\s+)?",
                sentence[q.number_end :],
            )
            if of:
                words, _ = _noun_phrase(sentence, q.number_end + of.end())
                if words:
                    q.subject = sentence[words[0][1] : words[-1][2]]
        if q.kind == "ratio" and q.unit is None:
            of = re.match(r"\s+of\s+(?:the\s+)?", sentence[q.number_end :])  # "3/4 of voters"
            # "one in three voters"
            words, _ = _noun_phrase(sentence, q.number_end + (of.end() if of else 0))
            if words:
                q.subject = sentence[words[0][1] : words[-1][2]]
        elif q.kind == "ratio":
            obj = re.match(
                r"\s+(?:the\s+)?(?:number|amount|level|total)\s+of\s+"
                r"((?:[\w’'-]+\s+){0,3}?[\w’'-]+s)\b",
                sentence[q.end :],
            )
            if obj:
                q.subject = obj.group(1)
        if q.unit is None and q.kind == "count":
            of = re.match(r"\s+of\s+(?:the|those|these|their)\s+", sentence[q.number_end :])
            if of:
                words, of_end = _noun_phrase(sentence, q.number_end + of.end())
                q.unit = head_unit([w for w, _, _ in words])
                if q.unit in lx.SOURCE_NOUNS and _SOURCE_AFTER.match(sentence[of_end:]):
                    continue  # "two of the sources said"
        if _counts_sources(sentence, q):
            continue
        q.per = _rate(sentence, q)
        if q.per and q.kind == "count":
            q.kind = "rate"
        result.append(q)
    result = _join_subunits(sentence, _join_ranges(sentence, result))
    _inherit_units(result)
    for read in _KINDS_READ_AGAIN:
        result = read(sentence, result)
    return result


def _join_subunits(sentence: str, found: list[Quantity]) -> list[Quantity]:
    """An amount in whole units and its hundredths are one amount: "3 dollars 50 cents",
    "thirteen dollars and forty-five cents", "17 USD 25."."""
    out: list[Quantity] = []
    for q in found:
        a = out[-1] if out else None
        after = _SUBUNIT_AFTER.match(sentence, q.number_end)
        if (
            a is None
            or a.kind != "money"
            or a.currency not in lx.CENT_CURRENCIES
            or a.qualifier not in ("exact", "approximate")
            or a.value is None
            or a.value != int(a.value)
            or _scale(sentence[a.number_start : a.end]) != 1.0
            or q.kind != "count"
            or q.qualifier != "exact"
            or q.value is None
            or not (1 <= q.value <= 99 and q.value == int(q.value))
            or _SUBUNIT_GAP.match(sentence[a.end : q.number_start]) is None
            or after is None
        ):
            out.append(q)
            continue
        a.value += q.value / 100
        a.value_text = format_number(round(a.value, 2))
        a.lower, a.upper = bounds(a.qualifier, a.value)
        a.end = a.number_end = q.number_end + (
            after.end() - after.start() if after.group("sub") else 0
        )
    return out


_SOURCE_AFTER = re.compile(
    r"^[\s,]*(?:" + "|".join(re.escape(w) for w in lx.SOURCE_COUNT_AFTER) + r"|who\s+(?:\w+\s+)"
    r"{0,3}?(?:spoke|said|told|requested|asked|described|know|knew|briefed|declined|"
    r"were\s+briefed|have\s+knowledge))\b",
    re.I,
)
_SOURCE_BEFORE = re.compile(
    r"\b(?:" + "|".join(re.escape(w) for w in lx.SOURCE_COUNT_BEFORE) + r")\s+(?:the\s+)?$", re.I
)


def _counts_sources(sentence: str, q: Quantity) -> bool:
    """'two sources familiar with...', 'according to four people': attribution, not a claim."""
    if q.unit not in lx.SOURCE_NOUNS or q.kind != "count":
        return False
    if _SOURCE_AFTER.match(sentence[q.end :]):
        return True
    before = _SOURCE_BEFORE.search(_before(sentence, q.start))
    if before and before.group(0).split()[0].lower() in ("said", "told"):
        # "..., said two people" names sources; "officials said 400 people were evacuated"
        # states a count: the people must end the clause.
        return bool(re.match(r"\s*(?:[.,;:!?”\"]|$)", sentence[q.end :]))
    return bool(before)


def _next_word(sentence: str, end: int) -> str | None:
    m = re.match(r"(?:\s+|-)([A-Za-z]+)", sentence[end:])
    return m.group(1) if m else None


def is_name_word(sentence: str, start: int) -> bool:
    """A capitalised word inside the sentence is part of a name ("the Daily Sentinel"); one
    opening the sentence, a quote, a parenthesis or the text after a dateline's dash is not."""
    return sentence[start].isupper() and not re.search(r"(?:^|[“\"‘'(—–:])\s*$", sentence[:start])


def _rate(sentence: str, q: Quantity) -> str | None:
    after = _RATE_AFTER.match(sentence[q.end :])
    if after and not (after.group("adv") and is_name_word(sentence, q.end + after.start("adv"))):
        return lx.RATE_PERIODS.get((after.group("p") or "").lower()) or lx.RATE_ADVERBS.get(
            (after.group("adv") or "").lower()
        )
    window = max(0, q.start - _WINDOW)
    before = _RATE_BEFORE.search(sentence, window, q.start)
    if q.kind in ("count",) and before and not is_name_word(sentence, before.start("adv")):
        adv = before.group("adv").lower()
        return {"annual": "year"}.get(adv) or lx.RATE_ADVERBS.get(adv)
    return None


def _inherit_units(found: list[Quantity]) -> None:
    """'3,000 ICE agents, including 1,800 from HSI': the 1,800 are agents too."""
    for i, q in enumerate(found):
        if q.kind in ("count", "rate") and q.unit is None:
            for prev in reversed(found[:i]):
                if prev.unit and prev.kind in ("count", "rate"):
                    q.unit, q.head_tokens = prev.unit, prev.head_tokens
                    break
