"""Find date mentions in a sentence and resolve them to ISO dates or ranges."""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from lake.silver import lexicon as lx
from lake.silver.cues import fewest, holds_any, holds_digit, initials, led, may_hold

_MONTH = (
    r"(?P<month>January|February|March|April|May|June|July|August|September|October|November|"
    r"December|Jan\.|Feb\.|Mar\.|Apr\.|Jun\.|Jul\.|Aug\.|Sept?\.|Oct\.|Nov\.|Dec\.)"
)
# A month as an attributive ("a January fundraiser", "the November midterms"): not May, a
# modal verb and a name as often as a month.
_MONTH_NOT_MAY = _MONTH.replace("May|", "")
_WEEKDAY = r"(?:(?P<weekday>Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday),?\s+)?"
_YEAR = r"(?:,?\s+(?P<year>(?:19|20)\d\d)\b)?"
_MONTH2 = _MONTH.replace("?P<month>", "?P<month2>")
_WEEKDAY_WORD = r"(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday),?\s+"
# Days named from publication: "yesterday", "this morning", "last night".
_RELDAYS = ("yesterday", "today", "tomorrow", "tonight")
_THIS_PARTS = ("morning", "afternoon", "evening")
_LAST_PARTS = ("night", "evening")
_PATTERNS = [
    # A span of days: "May 20-23", "March 31-April 4", "from May 20 to May 23", "between
    # June 1 and June 5", "Dec. 30, 2019 - Jan. 2, 2020".
    (
        "dayrange",
        re.compile(
            r"(?:\b(?P<lead>[Bb]etween|[Ff]rom)\s+)?"
            + _WEEKDAY
            + _MONTH
            + r"\s+(?P<day>\d{1,2})(?:st|nd|rd|th)?(?:,?\s+(?P<year0>(?:19|20)\d\d))?"
            + r"(?:\s*[-–]\s*|\s+(?P<join>to|through|until|and)\s+)"
            + rf"(?:{_WEEKDAY_WORD})?(?:{_MONTH2}\s+)?(?P<day2>\d{{1,2}})(?:st|nd|rd|th)?\b"
            + r"(?![,.]?\d|:)"
            + _YEAR
        ),
    ),
    ("day", re.compile(_WEEKDAY + _MONTH + r"\s+(?P<day>\d{1,2})(?:st|nd|rd|th)?\b" + _YEAR)),
    (
        "day",
        re.compile(
            _WEEKDAY + r"(?:the\s+)?(?P<day>\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?" + _MONTH + _YEAR
        ),
    ),
    ("iso", re.compile(r"\b(?P<year>(?:19|20)\d\d)-(?P<mon>\d\d)-(?P<day>\d\d)\b")),
    (
        "part",
        re.compile(
            r"\b(?P<part>[Ee]arly|[Mm]id|[Ll]ate|[Ee]nd of|[Bb]eginning of)[- ]"
            r"(?:last\s+|this\s+)?" + _MONTH + _YEAR
        ),
    ),
    (
        "month",
        re.compile(
            r"\b(?:[Ii]n|[Dd]uring|[Ss]ince|[Bb]y|[Uu]ntil|[Ff]rom|[Ii]nto|[Tt]hrough)\s+"
            + _MONTH
            + r"(?:\s+(?P<year>(?:19|20)\d\d))?\b(?!\s+\d)"
        ),
    ),
    (
        "month",
        re.compile(
            r"\b(?:[Aa]n?|[Tt]he|[Tt]his|[Ll]ast|[Nn]ext)\s+" + _MONTH_NOT_MAY + r"(?=\s+[a-z])"
        ),
    ),
    # A month with its year needs no preposition: "January 1998", "Oct. 2019".
    ("month", re.compile(r"\b" + _MONTH + r",?\s+(?P<year>1[89]\d\d|20\d\d)\b(?![,.]?\d)")),
    (
        "relative",
        re.compile(
            r"\b(?:(?P<part>[Ee]arly|[Mm]id|[Ll]ate)[- ])?(?P<rel>[Ll]ast|[Tt]his|[Nn]ext|"
            r"[Ee]arlier this|[Ll]ater this)\s+(?P<unit>week|month|year)\b"
        ),
    ),
    # "this weekend", "over the weekend", "a weekend tweet": a Saturday and Sunday.
    (
        "weekend",
        re.compile(
            r"\b(?:(?P<rel>[Ll]ast|[Tt]his|[Nn]ext)\s+|(?:[Tt]he|[Aa])\s+)(?P<wk>weekend)\b"
        ),
    ),
    (
        "weekday",
        re.compile(
            r"\b(?P<rel>[Oo]n|[Ll]ast|[Tt]his|[Nn]ext)\s+(?P<weekday>Monday|Tuesday|Wednesday|"
            r"Thursday|Friday|Saturday|Sunday)\b(?!,?\s+(?:the\s+)?\d)"
        ),
    ),
    # A weekday on its own ("said Thursday", "Tuesday night's vote", "late Friday"); not one
    # that is part of a name ("Super Tuesday", "Fox News Sunday", "the Sunday Times").
    (
        "weekday",
        re.compile(
            r"\b(?P<weekday>Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)\b"
            r"(?!,?\s+(?:the\s+)?\d)(?!\s+[A-Z])"
        ),
    ),
    (
        "relday",
        re.compile(
            rf"\b(?P<rel>{'|'.join(_RELDAYS)}|this\s+(?:{'|'.join(_THIS_PARTS)})|"
            rf"last\s+(?:{'|'.join(_LAST_PARTS)}))\b",
            re.IGNORECASE,
        ),
    ),
    # "15 years ago", "a week ago": counted back from publication.
    (
        "ago",
        re.compile(
            r"\b(?P<n>an?|\d{1,3}|"
            + "|".join(sorted([*lx.UNITS, *lx.TENS], key=len, reverse=True))
            + r")\s+(?P<unit>day|week|month|year|decade)s?\s+ago\b",
            re.IGNORECASE,
        ),
    ),
    # A season: "last fall", "this summer", "in the spring of 2019", "by early summer",
    # "winter 2020"; a bare season word is none ("prices fall", "the fall of", "in winter").
    (
        "season",
        re.compile(
            r"\b(?P<lead>(?:[Ii]n|[Dd]uring|[Bb]y|[Ss]ince|[Uu]ntil|[Oo]ver|[Tt]hrough)\s+"
            r"(?P<the>the\s+)?)?(?:(?P<part>[Ee]arly|[Ll]ate)[- ])?(?:(?P<rel>[Ll]ast|[Tt]his|"
            r"[Nn]ext|[Ee]arlier this|[Ll]ater this)\s+)?(?P<season>[Ss]pring|[Ss]ummer|[Ff]all|"
            r"[Aa]utumn|[Ww]inter)(?:\s+(?:of\s+)?(?P<year>(?:19|20)\d\d))?\b(?!\s+of\b|-)"
        ),
    ),
    # A calendar quarter: "the third quarter", "third-quarter profit", "the fourth quarter of
    # 2019", "Q3 2024", "last quarter".
    (
        "quarter",
        re.compile(
            r"\b(?:(?P<rel>[Ll]ast|[Tt]his|[Nn]ext)\s+quarter\b|(?P<ord>[Ff]irst|[Ss]econd|"
            r"[Tt]hird|[Ff]ourth|1st|2nd|3rd|4th)[- ]quarter\b(?:\s+of\s+(?P<year>(?:19|20)"
            r"\d\d)\b|,?\s+(?P<year0>(?:19|20)\d\d)\b)?|Q(?P<q>[1-4])\s+(?P<year2>(?:19|20)\d\d)\b)"
        ),
    ),
    # Years last: a year inside a fuller date above is part of that date.
    (
        "years",
        re.compile(
            r"\b(?:from|between)\s+(?P<year>1[89]\d\d|20\d\d)\s+(?:to|until|through|and|-|–)\s+"
            r"(?P<year2>1[89]\d\d|20\d\d)\b(?![,.]?\d)"
        ),
    ),
    (
        "decade",
        re.compile(r"\b(?:(?P<part>[Ee]arly|[Mm]id|[Ll]ate)[- ])?(?P<year>1[89]\d0|20\d0)['’]?s\b"),
    ),
    ("year", re.compile(r"(?<![\d$£€#.,/-])\b(?P<year>1[89]\d\d|20\d\d)\b(?![,.]?\d|-\d|%)")),
]

# The characters each pattern's matches can start with, in the order of _PATTERNS (None: too
# many to help). The test of the extraction shortcuts derives them from the patterns.
_FIRST = [
    "BbFfMTWSJAOND",
    "MTWFSJAOND",
    r"MTWFSt\d",
    "12",
    "EeMmLlBb",
    "IiDdSsBbUuFfTt",
    "AaTtLlNn",
    "JFMASOND",
    "EeMmLlTtNn",
    "LlTtNnAa",
    "OoLlTtNn",
    "MTWFS",
    "ytl",
    r"\d" + initials(("a",), lx.UNITS, lx.TENS),
    None,
    None,
    "fb",
    "EeMmLl12",
    "12",
]
_PATTERNS = [(kind, led(p, first)) for (kind, p), first in zip(_PATTERNS, _FIRST, strict=True)]

# Words before a number that make it a year ("in 2012", "since 1993"); a copyright line's year
# is not a date of the story.
_YEAR_BEFORE = re.compile(
    r"\b(?:in|since|until|by|from|during|before|after|through|" + "|".join(lx.MONTHS) + r")[\s,]*$",
    re.IGNORECASE,
)
_NOT_A_YEAR_BEFORE = re.compile(r"(?:©|\(c\)|\bcopyright)\s*$", re.IGNORECASE)
# After a house number: "1838 Main Street" locates, it neither dates nor counts.
STREET_AFTER = re.compile(
    r"\s+(?:[A-Z][\w'’-]*\s+){1,3}(?:Street|St\.|Avenue|Ave\.|Road|Rd\.|Boulevard|Blvd\.|"
    r"Lane|Ln\.|Drive|Dr\.|Way|Place|Court|Parkway|Pike|Square)(?!\w)"
)


def is_year(sentence: str, start: int, end: int) -> bool:
    """The number at [start, end) is a year: four digits from 1800 to 2099, after a word that
    dates ("in", "since") or not followed by a plural noun ("2,000 people" counts, "the
    2016 election" dates)."""
    if not re.fullmatch(r"1[89]\d\d|20\d\d", sentence[start:end]):
        return False
    before = sentence[max(0, start - 30) : start]
    return bool(_YEAR_BEFORE.search(before)) or not _plural_noun_follows(sentence, end)


def _plural_noun_follows(sentence: str, end: int) -> bool:
    nxt = re.match(r"\s+([A-Za-z][\w-]*)", sentence[end:])
    word = nxt.group(1) if nxt else ""
    if word.lower() in lx.EVENT_NOUNS or word.lower()[:-1] in lx.EVENT_NOUNS:
        return False  # "the 2016 elections", "the 2001 attacks" are events of that year
    return word[:1].islower() and (word.endswith("s") or word in lx.PLURAL_NOUNS)


@dataclass
class DateMention:
    start: int
    end: int
    value_text: str | None  # 2025-05-20, --05-20, or a range "--05-11/--05-20"
    qualifier: str  # exact | vague | range
    date_start: str | None
    date_end: str | None
    granularity: str | None = None  # day | week | month | quarter | season | year | decade
    # stated: the text names the calendar date, month or year ("May 20", "2019"); resolved: a
    # relative date counted from the publication date ("Tuesday", "last month"); unresolved: a
    # relative date in an article without a publication date (no value).
    resolution: str = "stated"
    # The publication date was used: to resolve a relative date or give a stated day its year.
    uses_reference: bool = False


def _iso(year: int | None, month: int, day: int) -> str:
    return f"{year:04d}-{month:02d}-{day:02d}" if year else f"--{month:02d}-{day:02d}"


def _month_number(name: str) -> int:
    return lx.MONTHS[name.lower().rstrip(".")]


def _infer_year(
    month: int, published: datetime | None, day: int | None = None, weekday: str | None = None
) -> int | None:
    """An article's undated 'May 20' is the latest May 20 not long after publication (in a
    month up to the one after publication's, so "Jan. 3" written in December is next year's);
    with a weekday ("Wednesday, Sept. 4"), the year nearest publication in which that day is
    that weekday."""
    if published is None:
        return None
    latest = published.year * 12 + published.month  # the month after publication's, 0-based
    guess = next(
        y
        for y in (published.year + 1, published.year, published.year - 1)
        if y * 12 + month - 1 <= latest
    )
    if day is None or weekday is None:
        return guess
    target = lx.WEEKDAYS.index(weekday.lower())
    fits = [
        y
        for y in (published.year, published.year - 1, published.year + 1)
        if day <= calendar.monthrange(y, month)[1] and date(y, month, day).weekday() == target
    ]
    if not fits:
        return guess
    return min(fits, key=lambda y: abs((date(y, month, day) - published.date()).days))


def _range(year: int | None, month: int, first: int, last: int) -> tuple[str, str, str]:
    start, end = _iso(year, month, first), _iso(year, month, last)
    return f"{start}/{end}", start, end


# A relative period after one of these, in the same clause, is what a figure is compared with.
_COMPARISON_BASE = re.compile(
    r"\b(?:than|compared\s+(?:with|to)|versus|vs\.|double|twice|triple|quadruple|half|times|"
    r"(?:up|down|rising|falling|rose|fell|increase|decrease|drop|jump)\s+from)\b",
    re.IGNORECASE,
)


def _clause_before(sentence: str, start: int) -> str:
    before = sentence[:start]
    cut = max(before.rfind(c) for c in ",;:(—")
    return before[cut + 1 :]


# "will", "must", "is scheduled to": the clause speaks of what is still to come.
_FUTURE = re.compile(
    r"\b(?:will|shall|must|(?:is|are)\s+(?:scheduled|set|due|expected|slated)\b(?:\s+to)?|"
    r"plan(?:s|ned|ning)?\s+to|as\s+soon\s+as)\b",
    re.IGNORECASE,
)


def _not_before(mention: DateMention, published: datetime | None) -> DateMention:
    """A date in a clause about the future is not months before publication: its year moves
    up one when it would fall more than a week before it ("will go out on April 1" written
    in late February is this April 1)."""
    if published is None or not mention.date_end or mention.date_end.startswith("--"):
        return mention
    if date.fromisoformat(mention.date_end) >= published.date() - timedelta(days=7):
        return mention

    def bump(text: str | None) -> str | None:
        return f"{int(text[:4]) + 1:04d}{text[4:]}" if text and not text.startswith("--") else text

    value = "/".join(bump(part) for part in mention.value_text.split("/"))
    return DateMention(
        mention.start,
        mention.end,
        value,
        mention.qualifier,
        bump(mention.date_start),
        bump(mention.date_end),
    )


_MONTHISH = re.compile(r"Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec")
# Looser than the year patterns (no \b): a leading digit lets the engine scan for "1" or "2".
_YEARISH = re.compile(r"(?:1[89]|20)\d\d")
_Q_NUMBER = re.compile(r"q[1-4]")
_WEEKDAY_NAMES = tuple(day.capitalize() for day in lx.WEEKDAYS)  # the patterns' case
_RELDAY_WORDS = fewest((*_RELDAYS, *_THIS_PARTS, *_LAST_PARTS))


# What a sentence must hold for a kind of pattern to be worth running; the kinds that share a
# cue share its one test per sentence (seven patterns need a month name). A sentence that
# holds none names no date.
def _cues(s: str, low: str) -> dict[str, bool]:
    month = _MONTHISH.search(s) is not None
    return {
        "month": month,
        "monthday": month and holds_digit(s),  # a day of the month is a number
        "year": _YEARISH.search(s) is not None,
        "period": "week" in low or "month" in low or "year" in low,
        "weekend": "weekend" in low,
        "weekday": holds_any(s, _WEEKDAY_NAMES),
        "relday": may_hold(s, low, _RELDAY_WORDS),
        "ago": "ago" in low,
        "season": holds_any(low, ("spring", "summer", "fall", "autumn", "winter")),
        "quarter": "quarter" in low or _Q_NUMBER.search(low) is not None,
    }


_CUE_OF = {
    "dayrange": "monthday",
    "day": "monthday",
    "part": "month",
    "month": "month",
    "iso": "year",
    "relative": "period",
    "weekend": "weekend",
    "weekday": "weekday",
    "relday": "relday",
    "ago": "ago",
    "season": "season",
    "quarter": "quarter",
    "years": "year",
    "decade": "year",
    "year": "year",
}


def find_dates(sentence: str, published: datetime | None = None) -> list[DateMention]:
    low = sentence.lower()
    cued = _cues(sentence, low)
    if not any(cued.values()):
        return []  # most sentences name no date
    found: list[DateMention] = []
    taken: list[tuple[int, int]] = []
    for kind, pattern in _PATTERNS:
        if not cued[_CUE_OF[kind]]:
            continue
        for m in pattern.finditer(sentence):
            if any(m.start() < e and s < m.end() for s, e in taken):
                continue
            if kind in ("relative", "ago") and re.search(r"['’]s\s+$", sentence[: m.start()]):
                continue  # "Biden's last year in office" is not a date of this story
            if kind in ("relative", "ago") and _COMPARISON_BASE.search(
                _clause_before(sentence, m.start())
            ):
                continue  # "twice the total for last year": the baseline, not when it happened
            if kind in ("weekday", "relday") and _not_a_date(kind, sentence, m):
                continue
            if kind == "year" and (
                not is_year(sentence, m.start(), m.end())
                or _NOT_A_YEAR_BEFORE.search(sentence[max(0, m.start() - 15) : m.start()])
                or STREET_AFTER.match(sentence, m.end())
            ):
                continue
            if kind == "weekend" and _RECURRING.search(
                sentence[max(0, m.start() - 12) : m.start()]
            ):
                continue  # "every weekend"
            weekish = kind in ("weekday", "weekend", "season", "quarter")
            tense = _tense(sentence, m.start(), m.end()) if weekish else "past"
            if kind == "dayrange" and _plural_noun_follows(sentence, m.end("day2")):
                continue  # "by May 20 to 25 percent"? no: "May 1 to 10 officers" counts
            mention = _resolve(kind, m, published, tense)
            if (
                mention is not None
                and kind in ("dayrange", "day", "part", "month")
                and not m.groupdict().get("year")
                and not m.groupdict().get("weekday")
                and _FUTURE.search(_clause_before(sentence, m.start()))
            ):
                mention = _not_before(mention, published)
            if mention is not None:
                _provenance(mention, kind, m)
                found.append(mention)
                taken.append((mention.start, mention.end))
    return sorted(found, key=lambda d: d.start)


# The granularity each kind of pattern states; "relative" and "ago" state their unit's.
_GRANULARITY = {
    "dayrange": "day",
    "day": "day",
    "iso": "day",
    "weekday": "day",
    "weekend": "week",
    "relday": "day",
    "part": "month",
    "month": "month",
    "years": "year",
    "year": "year",
    "decade": "decade",
    "season": "season",
    "quarter": "quarter",
}
# Kinds counted from the publication date.
_RELATIVE_KINDS = ("weekday", "weekend", "relday", "relative", "ago")


def _provenance(mention: DateMention, kind: str, m: re.Match[str]) -> None:
    """Set the mention's granularity, whether it was stated or resolved, and whether the
    publication date was used."""
    groups = m.groupdict()
    mention.granularity = _GRANULARITY.get(kind) or (groups.get("unit") or "").lower() or None
    if kind in ("season", "quarter") and groups.get("rel"):  # "last fall", "next quarter"
        mention.resolution = "resolved" if mention.date_start else "unresolved"
        mention.uses_reference = mention.date_start is not None
    elif kind in _RELATIVE_KINDS:
        known = mention.date_start is not None
        mention.resolution = "resolved" if known else "unresolved"
        mention.uses_reference = known
    else:
        mention.uses_reference = not (
            groups.get("year")
            or groups.get("year0")
            or groups.get("year2")
            or (mention.date_start or "--")[:2] == "--"
        )


# "every Sunday" recurs; "the Sunday shows", NBC's "Today" show name programmes.
_RECURRING = re.compile(r"\b(?:every|each)\s+$", re.IGNORECASE)
_PROGRAMME = re.compile(
    r"^[”\"’']?\s+(?:(?:morning|night|evening|afternoon|talk|news)\s+)*(?:shows?|programs?)\b"
)


def _not_a_date(kind: str, sentence: str, m: re.Match[str]) -> bool:
    """A weekday or "today" that names something rather than dates the story."""
    group = "weekday" if kind == "weekday" else "rel"
    start, end = m.start(group), m.end()
    if _PROGRAMME.match(sentence[end:]) or _RECURRING.search(sentence[max(0, start - 12) : start]):
        return True
    if kind == "weekday":
        return not m.groupdict().get("rel") and _in_a_name(sentence, start)
    if not m.group(group)[0].isupper():
        return False
    # "Today" capitalised inside a sentence, or quoted on its own, is a title.
    quoted = re.search(r"[“\"‘']$", sentence[:start]) and re.match(
        r"[.,!?]?[”\"’']", sentence[end:]
    )
    return bool(quoted) or not re.search(r"(?:^|[.!?“\"‘'(—–:])\s*$", sentence[:start])


def _in_a_name(sentence: str, start: int) -> bool:
    """A capitalised word right before, inside the sentence: "Super Tuesday", "Fox News
    Sunday". The sentence's first word, or one after a quote, dash or colon, names nothing."""
    before = re.search(r"([A-Z][\w.'’-]*)\s+$", sentence[max(0, start - 40) : start])
    if before is None or before.group(1).lower() in lx.BEFORE_A_DATE:
        return False
    if before.group(1) in lx.TIME_ZONES:  # "9 a.m. EST Tuesday": a clock time's zone
        return False
    word_start = max(0, start - 40) + before.start(1)
    return not re.search(r"(?:^|[“\"‘'(—–:])\s*$", sentence[:word_start])


def _future_clause(sentence: str, start: int, end: int) -> bool:
    """The clause around a date speaks of what is still to come ("will vote Tuesday", "On
    Tuesday, the board is scheduled to meet")."""
    if _FUTURE.search(_clause_before(sentence, start)):
        return True
    if _clause_before(sentence, start).strip(' “"').lower() in ("", "on", "next"):
        after = re.split(r"[;.:!?]|,\s(?!\w+\s+\w+,)", sentence[end:].lstrip(", "), maxsplit=1)[0]
        return bool(_FUTURE.search(after))
    return False


# A verb in the past tense shortly before: "said Thursday", "was killed late Friday".
_PAST_VERB = re.compile(rf"\b(?:[a-z]+ed|{'|'.join(lx.PAST_TENSE_VERBS)})\b(?:\s+\S+){{0,3}}\s*$")


def _tense(sentence: str, start: int, end: int) -> str:
    """future | past | present: what the clause around a weekday says of its time."""
    if _future_clause(sentence, start, end):
        return "future"
    if _PAST_VERB.search(sentence[max(0, start - 60) : start]):
        return "past"
    return "present"


# A weekday resolves to one day of a seven-day window around publication, starting this many
# days from it. "last" and "next" say the direction; "this" is the nearest; a clause about the
# future looks ahead, one in the past tense back; otherwise news speaks of the days just past,
# today or tomorrow. A weekday equal to the publication day's is that day, except after "last"
# or "next".
_WEEKDAY_WINDOW = {"last": -7, "next": 1, "this": -3, "future": 0, "past": -6, "present": -5}


def _resolve(
    kind: str, m: re.Match[str], published: datetime | None, tense: str = "past"
) -> DateMention | None:
    groups = m.groupdict()
    year = int(groups["year"]) if groups.get("year") else None
    if kind == "dayrange":
        return _day_range(m, published)
    if kind in ("day", "iso"):
        month = int(groups["mon"]) if kind == "iso" else _month_number(groups["month"])
        day = int(groups["day"])
        year = year or _infer_year(month, published, day, groups.get("weekday"))
        if day > calendar.monthrange(year or 2024, month)[1]:
            return None
        value = _iso(year, month, day)
        return DateMention(m.start(), m.end(), value, "exact", value, value)
    if kind in ("part", "month"):
        month = _month_number(groups["month"])
        year = year or _infer_year(month, published)
        last = calendar.monthrange(year or 2024, month)[1]
        part = (groups.get("part") or "").lower()
        first, final = {
            "early": (1, 10),
            "beginning of": (1, 10),
            "mid": (8, 23),
            "late": (21, last),
            "end of": (21, last),
        }.get(part, (1, last))
        value, start, end = _range(year, month, first, final)
        begin = m.start("part") if groups.get("part") else m.start("month")
        return DateMention(begin, m.end(), value, "vague", start, end)
    if kind == "relative":
        if published is None:
            return DateMention(m.start(), m.end(), None, "vague", None, None)
        first, last = _relative_range(groups["rel"].lower(), groups["unit"], published.date())
        part = (groups.get("part") or "").lower()
        if part and groups["unit"] == "month":
            days = (last - first).days
            first, last = {
                "early": (first, first + timedelta(days=9)),
                "mid": (first + timedelta(days=7), first + timedelta(days=22)),
                "late": (first + timedelta(days=20), last),
            }[part]
            del days
        start, end = first.isoformat(), last.isoformat()
        return DateMention(m.start(), m.end(), f"{start}/{end}", "vague", start, end)
    if kind == "weekday":
        begin = m.start("weekday")
        if published is None:
            return DateMention(begin, m.end(), None, "vague", None, None)
        rel = (groups.get("rel") or "").lower()
        window = _WEEKDAY_WINDOW[rel if rel in ("last", "next", "this") else tense]
        target = lx.WEEKDAYS.index(groups["weekday"].lower())
        offset = window + (target - published.weekday() - window) % 7
        day = (published.date() + timedelta(days=offset)).isoformat()
        return DateMention(begin, m.end(), day, "exact", day, day)
    if kind == "weekend":
        begin = m.start() if groups.get("rel") else m.start("wk")
        if published is None:
            return DateMention(begin, m.end(), None, "vague", None, None)
        today = published.date()
        saturday = today + timedelta(days=5 - today.weekday())  # this week's; Sunday: yesterday
        rel = (groups.get("rel") or "").lower()
        if rel in ("last", "next"):
            saturday += timedelta(days=-7 if rel == "last" else 7)
        elif today.weekday() < 5 and (tense == "past" or (not rel and tense != "future")):
            # "over the weekend" / "said this weekend", written on a weekday: the last one
            saturday -= timedelta(days=7)
        start, end = saturday.isoformat(), (saturday + timedelta(days=1)).isoformat()
        return DateMention(begin, m.end(), f"{start}/{end}", "vague", start, end)
    if kind in ("year", "years", "decade"):
        first = year
        last = int(groups["year2"]) if groups.get("year2") else first
        if kind == "decade":
            part = (groups.get("part") or "").lower()
            last = first + 9
            first, last = {"early": (first, first + 3), "mid": (first + 3, first + 6)}.get(
                part, (first + 6, last) if part == "late" else (first, last)
            )
        if last < first:
            return None
        start, end = f"{first:04d}-01-01", f"{last:04d}-12-31"
        qualifier = "range" if kind == "years" else "vague"  # "from 2000 to 2006" is stated
        return DateMention(m.start(), m.end(), f"{start}/{end}", qualifier, start, end)
    if kind == "season":
        return _season(m, published, tense)
    if kind == "quarter":
        return _quarter(m, published, tense)
    if kind == "relday":
        if published is None:
            return DateMention(m.start(), m.end(), None, "vague", None, None)
        rel = " ".join(groups["rel"].lower().split())
        shift = {"yesterday": -1, "tomorrow": 1, "last night": -1, "last evening": -1}.get(rel, 0)
        day = (published.date() + timedelta(days=shift)).isoformat()
        return DateMention(m.start(), m.end(), day, "exact", day, day)
    if kind == "ago":
        if published is None:
            return DateMention(m.start(), m.end(), None, "vague", None, None)
        word = groups["n"].lower()
        n = int(word) if word.isdigit() else 1 if word in ("a", "an") else lx.UNITS.get(word)
        n = lx.TENS.get(word, n)
        unit, today = groups["unit"].lower(), published.date()
        if unit in ("day", "week"):
            day = (today - timedelta(days=n * (7 if unit == "week" else 1))).isoformat()
            return DateMention(m.start(), m.end(), day, "vague", day, day)
        if unit == "month":
            months = today.year * 12 + today.month - 1 - n
            first = date(months // 12, months % 12 + 1, 1)
            value, start, end = _range(first.year, first.month, 1, _month_days(first))
            return DateMention(m.start(), m.end(), value, "vague", start, end)
        year = today.year - n * (10 if unit == "decade" else 1)
        if year < 1:
            return None
        start, end = f"{year:04d}-01-01", f"{year:04d}-12-31"
        return DateMention(m.start(), m.end(), f"{start}/{end}", "vague", start, end)
    return None


# Meteorological seasons of the northern hemisphere: the month each begins (three months);
# winter Y runs from December of Y through February of Y+1.
_SEASONS = {"spring": 3, "summer": 6, "fall": 9, "autumn": 9, "winter": 12}


def _season_span(season: str, year: int) -> tuple[date, date]:
    start = date(year, _SEASONS[season], 1)
    months = start.year * 12 + start.month - 1 + 2
    last = date(months // 12, months % 12 + 1, 1)
    return start, last.replace(day=_month_days(last))


def _season(m: re.Match[str], published: datetime | None, tense: str) -> DateMention | None:
    """A season's three months: of the year stated; else counted from publication: "last" is
    the latest one over, "next" the first to come, "this" the one of the publication's year;
    so is a bare one ("in the spring"), unless it is still to come in a past clause (then the
    last one) or over in a future clause (then the next)."""
    groups = m.groupdict()
    season = groups["season"].lower()
    rel = " ".join((groups.get("rel") or "").lower().split())
    begin = m.start("part") if groups.get("part") else m.start("rel") if rel else m.start("season")
    if not (rel or groups.get("the") or groups.get("part") or groups.get("year")):
        return None  # "summer camp", "in winter": no season of one year
    if groups.get("year"):
        start, end = _season_span(season, int(groups["year"]))
    elif published is None:
        if rel:
            return DateMention(begin, m.end(), None, "vague", None, None)
        return None  # "in the summer" with no publication date: no year to give it
    else:
        today = published.date()
        year = today.year - (1 if season == "winter" and today.month < 3 else 0)
        start, end = _season_span(season, year)  # the one of the publication's season-year
        if rel == "last" or (not rel and start > today and tense != "future"):
            while end >= today:  # the latest one over
                year -= 1
                start, end = _season_span(season, year)
        elif rel == "next" or (not rel and end < today and tense == "future"):
            while start <= today:  # the first one to come
                year += 1
                start, end = _season_span(season, year)
    part = (groups.get("part") or "").lower()
    if part == "early":
        end = start + timedelta(days=30)
    elif part == "late":
        start = end - timedelta(days=30)
    first, last = start.isoformat(), end.isoformat()
    return DateMention(begin, m.end(), f"{first}/{last}", "vague", first, last)


_ORDINALS = {
    "first": 1,
    "1st": 1,
    "second": 2,
    "2nd": 2,
    "third": 3,
    "3rd": 3,
    "fourth": 4,
    "4th": 4,
}


def _quarter(m: re.Match[str], published: datetime | None, tense: str) -> DateMention | None:
    """A calendar quarter: of the year stated; "last/this/next quarter" counted from
    publication; a numbered one without a year is the latest to have begun by publication
    (the next to come in a clause about the future)."""
    groups = m.groupdict()
    rel = (groups.get("rel") or "").lower()
    year_text = groups.get("year") or groups.get("year0") or groups.get("year2")
    today = published.date() if published else None
    if rel:
        if today is None:
            return DateMention(m.start(), m.end(), None, "vague", None, None)
        index = today.year * 4 + (today.month - 1) // 3 + {"last": -1, "next": 1}.get(rel, 0)
        year, number = index // 4, index % 4 + 1
    else:
        number = int(groups["q"]) if groups.get("q") else _ORDINALS[groups["ord"].lower()]
        if year_text:
            year = int(year_text)
        elif today is None:
            return None
        else:
            current = (today.month - 1) // 3 + 1
            year = today.year - (1 if number > current else 0)
            if tense == "future" and number < current:
                year = today.year + 1
    first = date(year, 3 * number - 2, 1)
    last = date(year, 3 * number, _month_days(date(year, 3 * number, 1)))
    start, end = first.isoformat(), last.isoformat()
    return DateMention(m.start(), m.end(), f"{start}/{end}", "vague", start, end)


def _day_range(m: re.Match[str], published: datetime | None) -> DateMention | None:
    """A stated span of days; None when it is not one ("May 20 and 23" are two dates, an end
    before its start or past its month's last day is no date)."""
    groups = m.groupdict()
    join = (groups.get("join") or "").lower()
    lead = (groups.get("lead") or "").lower()
    if (join == "and") != (lead == "between"):
        return None
    month = _month_number(groups["month"])
    month2 = _month_number(groups["month2"]) if groups.get("month2") else month
    day, day2 = int(groups["day"]), int(groups["day2"])
    end_year = int(groups["year"]) if groups.get("year") else None
    year = int(groups["year0"]) if groups.get("year0") else end_year
    year = year or _infer_year(month, published, day, groups.get("weekday"))
    if end_year is None and year is not None:
        end_year = year + 1 if month2 < month else year
    if day > calendar.monthrange(year or 2024, month)[1]:
        return None
    if day2 > calendar.monthrange(end_year or 2024, month2)[1]:
        return None
    start, end = _iso(year, month, day), _iso(end_year, month2, day2)
    if year is None:
        if (month2, day2) <= (month, day):
            return None  # "--12-30/--01-02" would read backwards: no span without a year
    elif date(end_year, month2, day2) <= date(year, month, day):
        return None
    return DateMention(m.start(), m.end(), f"{start}/{end}", "range", start, end)


def _month_days(first: date) -> int:
    return calendar.monthrange(first.year, first.month)[1]


def _relative_range(rel: str, unit: str, today: date) -> tuple[date, date]:
    step = {"last": -1, "next": 1}.get(rel, 0)
    if unit == "week":
        monday = today - timedelta(days=today.weekday()) + timedelta(days=7 * step)
        return monday, monday + timedelta(days=6)
    if unit == "month":
        months = today.year * 12 + today.month - 1 + step
        first = date(months // 12, months % 12 + 1, 1)
        return first, first.replace(day=_month_days(first))
    year = today.year + step
    return date(year, 1, 1), date(year, 12, 31)
