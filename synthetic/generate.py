"""Deterministic synthetic news corpus with ground truth for the claim extractor and reconciler.

``generate(articles, events, seed, out)`` writes wire-style articles with sidecars under
``out/articles/<event-id>/`` and the truth under ``out/truth/`` (claims, facts, non-claims).
Same arguments, same bytes: one ``random.Random(seed)`` drives everything and nothing reads the
clock into the output. See docs/synthetic_corpus.md for the format and the conventions.

CLI: ``python -m synthetic.generate --articles N --events M --seed S --out DIR``
"""

from __future__ import annotations

import argparse
import calendar
import json
import math
import os
import random
import re
import sys
import time
from collections import defaultdict
from dataclasses import asdict, dataclass, field
from datetime import date, datetime, timedelta
from datetime import time as dtime
from pathlib import Path
from typing import Any

from lake.schemas import FACT_STATUSES as STATUSES
from synthetic import vocabulary as V

GENERATOR_VERSION = "synthetic-2"


# How often each qualifier is chosen when the value allows it.
_NUMERIC_WEIGHTS = {
    "exact": 38,
    "approximate": 17,
    "more_than": 10,
    "at_least": 8,
    "almost": 8,
    "up_to": 6,
    "vague": 13,
    "range": 6,
}
_DATE_WEIGHTS = {"exact": 85, "vague": 15}
_TIME_WEIGHTS = {"exact": 80, "approximate": 20}
# "about 9:30 p.m." is 15 minutes either side, as the extractor reads it.
_ABOUT_MINUTES = 15
_RATIO_WEIGHTS = {"exact": 60, "approximate": 10, "almost": 10, "more_than": 12, "at_least": 8}
# Attribution of an article's own reporting, and of a re-report of another outlet's figure.
_ORIGINAL_ATTRIBUTION = {
    "named_person": 25,
    "anonymous_sources": 15,
    "document": 12,
    "organization": 18,
    "unattributed": 30,
}
_REREPORT_ATTRIBUTION = {
    "media_outlet": 55,
    "named_person": 15,
    "anonymous_sources": 15,
    "document": 8,
    "organization": 7,
}
_WIRES = ("Continental Press", "Atlas Newswire", "Granite Wire", "Summit News Network")
_MIN_WORDS, _MAX_WORDS = 150, 600
_INF = math.inf
_SLUG = re.compile(r"[^a-z]+")
_JSON = json.JSONEncoder(ensure_ascii=False).encode


class _Rng(random.Random):
    """random.Random with cheaper choice/randint (one ``random()`` draw each); deterministic."""

    def choice(self, seq):  # type: ignore[override]
        return seq[int(self.random() * len(seq))]

    def randint(self, a: int, b: int) -> int:
        return a + int(self.random() * (b - a + 1))


@dataclass(frozen=True)
class GenerationSummary:
    """What one run wrote; ``seconds`` and ``articles_per_second`` are not in any file."""

    out: str
    seed: int
    articles: int
    events: int
    facts: int
    claims: int
    nonclaims: int
    statuses: dict[str, int]
    seconds: float
    articles_per_second: float


# --- values and their wording -----------------------------------------------------------------


@dataclass(slots=True)
class Quantity:
    """One way to state a value: qualifier, JSON fields, wording, consistency interval."""

    qualifier: str
    value: float | None
    lower: float | str | None
    upper: float | str | None
    words: tuple[str, ...]  # qualifier words ("" for none)
    forms: tuple[str, ...]  # number forms ("4,900", "a dozen", "May 20")
    lo: float  # interval of values this statement is consistent with
    hi: float
    strict: bool = False  # lo is exclusive (more_than)
    value_text: str | None = None
    of: bool = False  # vague counts: "thousands of residents"
    prep: str = ""  # dates: "on " or "in "

    def contains(self, x: float) -> bool:
        return (self.lo < x if self.strict else self.lo <= x) and x <= self.hi


def _value_text(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else f"{v:g}"


def _digits_step(v: float, digits: int) -> float:
    """Step that keeps ``digits`` significant digits of v (v >= 1), at least 1."""
    return max(10.0 ** (len(str(int(v))) - digits), 1.0)


def _round_near(v: float, step: float) -> float:
    return math.floor(v / step + 0.5) * step


def _ceil_strict(v: float, step: float) -> float:
    return (math.floor(v / step + 1e-9) + 1) * step


def _floor_strict(v: float, step: float) -> float:
    return (math.ceil(v / step - 1e-9) - 1) * step


def _floor(v: float, step: float) -> float:
    return math.floor(v / step + 1e-9) * step


def _ceil(v: float, step: float) -> float:
    return math.ceil(v / step - 1e-9) * step


def _count_forms(v: float) -> tuple[str, ...]:
    n = int(v)
    if n <= 12:
        forms = [V.SMALL_WORDS[n], V.SMALL_WORDS[n], str(n)] if n <= 9 else [str(n)]
        if n == 12:
            forms.append("a dozen")
        return tuple(forms)
    if n >= 1_000_000_000 and n % 10_000_000 == 0:
        return (f"{n:,}", f"{n / 1e9:g} billion", f"{n / 1e9:g} billion")
    if n >= 1_000_000 and n % 10_000 == 0:
        return (f"{n:,}", f"{n / 1e6:g} million", f"{n / 1e6:g} million")
    return (f"{n:,}",)


def _money_forms(v: float) -> tuple[str, ...]:
    n = int(round(v))
    if n >= 1_000_000_000 and n % 10_000_000 == 0:
        return (f"${n / 1e9:g} billion",)
    if n >= 1_000_000 and n % 10_000 == 0:
        return (f"${n / 1e6:g} million",)
    return (f"${n:,}",)


def _percent_forms(v: float) -> tuple[str, ...]:
    return (f"{v:g} percent", f"{v:g} percent", f"{v:g}%")


def _forms(kind: str, v: float) -> tuple[str, ...]:
    if kind == "money":
        return _money_forms(v)
    if kind == "percent":
        return _percent_forms(v)
    return _count_forms(v)


def _numeric_quantities(kind: str, v: float) -> list[Quantity]:
    """Every statement of v this generator can make for counts, rates, money and percents."""
    terse = kind in ("money", "percent")
    qw = V.QUALIFIER_WORDS_TERSE if terse else V.QUALIFIER_WORDS
    out = [Quantity("exact", v, None, None, ("",), _forms(kind, v), v, v)]
    seen = {("exact", v)}

    def add(qual: str, x: float, lower, upper, lo, hi, strict=False, words=None, forms=None):
        if x <= 0 or (qual, x) in seen:
            return
        seen.add((qual, x))
        out.append(
            Quantity(
                qual, x, lower, upper, words or qw[qual], forms or _forms(kind, x), lo, hi, strict
            )
        )

    if kind != "age":
        out += _ranges(kind, v)
    small = kind in ("count", "rate") and v < 13
    if kind in ("count", "rate") and 11 <= v <= 13:
        add(
            "approximate",
            12.0,
            None,
            None,
            10.8,
            13.2,
            words=("about", "roughly"),
            forms=("a dozen",),
        )
    if kind in ("count", "rate") and 10.8 <= v < 12:
        add("almost", 12.0, 10.8, 12.0, 10.8, 12.0, words=("nearly", "almost"), forms=("a dozen",))
    if kind in ("count", "rate") and 13 <= v <= 23:
        add(
            "more_than",
            12.0,
            12.0,
            None,
            12.0,
            _INF,
            True,
            words=("more than",),
            forms=("a dozen",),
        )
    if small:
        add("at_least", v, v, None, v, _INF, words=("at least",))
        if v >= 4:
            add("up_to", v, None, v, 0.0, v, words=("up to", "as many as"))
        return out
    steps = (_digits_step(v, 2), _digits_step(v, 1))
    for step in steps:
        r = _round_near(v, step)
        if r > 0 and abs(r - v) <= 0.05 * v:
            add("approximate", r, None, None, 0.9 * r, 1.1 * r)
    # "nearly 4,900" and "more than 4,800" for 4,870; nothing of the kind for a round 300 million.
    for step in steps:
        if v % step:
            r = _ceil_strict(v, step)
            if v >= 0.9 * r:
                add("almost", r, 0.9 * r, r, 0.9 * r, r)
            f = _floor_strict(v, step)
            if f >= 0.6 * v:
                add("more_than", f, f, None, f, _INF, True)
    for f in (_floor(v, steps[0]), v):
        add("at_least", f, f, None, f, _INF)
    for r in (_ceil(v, steps[0]), v):
        add("up_to", r, None, r, 0.0, r)
    if kind in ("count", "rate"):
        for phrase, lo, hi, of in V.VAGUE_COUNTS:
            if lo <= v <= hi:
                out.append(
                    Quantity(
                        "vague",
                        None,
                        float(lo),
                        float(hi),
                        ("",),
                        (phrase,),
                        lo,
                        hi,
                        value_text=phrase,
                        of=of,
                    )
                )
    elif kind == "money":
        for phrase, lo, hi in V.VAGUE_MONEY:
            if lo <= v <= hi:
                vt = phrase.removesuffix(" of dollars")
                out.append(
                    Quantity(
                        "vague", None, float(lo), float(hi), ("",), (phrase,), lo, hi, value_text=vt
                    )
                )
    return out


def _ranges(kind: str, v: float) -> list[Quantity]:
    """A stated range around v: "4,800 to 4,900", "between five and seven", "10-12%"."""
    if v < 3 or v != int(v):
        return []
    if v < 13:
        a, b = v - 1, v + 1
    else:
        step = _digits_step(v, 2)
        a = _floor(v, step)
        a, b = (a - step, a + step) if a == v else (a, a + step)
    fa, fb = _forms(kind, a)[-1], _forms(kind, b)[-1]
    if kind == "percent":
        fa, fb = f"{a:g}", f"{b:g}"
        joined, between, tight = f"{fa} to {fb} percent", f"{fa} and {fb} percent", f"{fa}-{fb}%"
    else:
        joined, between, tight = f"{fa} to {fb}", f"{fa} and {fb}", f"{fa}-{fb}"
    forms = (joined, tight) if " " not in fa + fb and not fa.isalpha() else (joined,)
    text = f"{_value_text(a)}-{_value_text(b)}"
    return [
        Quantity("range", None, a, b, ("",), forms, a, b, value_text=text),
        Quantity("range", None, a, b, ("between",), (between,), a, b, value_text=text),
    ]


def _ratio_quantities(v: float) -> list[Quantity]:
    forms = V.RATIO_FORMS[v]
    rq = V.RATIO_QUALIFIED
    out = [
        Quantity("exact", v, None, None, ("",), forms, v, v),
        Quantity("approximate", v, None, None, rq["approximate"], forms, 0.9 * v, 1.1 * v),
        Quantity("almost", v, 0.9 * v, v, rq["almost"], forms, 0.9 * v, v),
        Quantity("at_least", v, v, None, rq["at_least"], forms, v, _INF),
    ]
    below = [r for r in V.RATIO_FORMS if 2 <= r < v]  # "more than double" for a tripling
    if below:
        r = max(below)
        out.append(
            Quantity("more_than", r, r, None, rq["more_than"], V.RATIO_FORMS[r], r, _INF, True)
        )
    return out


def _date_quantities(d: date, published: date) -> list[Quantity]:
    month, ap = V.MONTHS[d.month - 1], V.MONTHS_AP[d.month - 1]
    weekday = V.WEEKDAYS[d.weekday()]
    md, mda = f"{month} {d.day}", f"{ap} {d.day}"
    forms = [
        md,
        md,
        mda,
        f"{weekday}, {md}",
        f"{weekday}, {mda}",
        f"{md}, {d.year}",
        f"{mda}, {d.year}",
    ]
    if 1 <= (published - d).days <= 6:
        forms += [weekday, weekday]
    day = d.toordinal()
    out = [
        Quantity(
            "exact",
            None,
            None,
            None,
            ("",),
            tuple(forms),
            day,
            day,
            value_text=d.isoformat(),
            prep="on ",
        )
    ]
    last = calendar.monthrange(d.year, d.month)[1]
    for prefix, first, end in V.MONTH_PARTS:
        end = end or last
        if first <= d.day <= end:
            lo, hi = date(d.year, d.month, first), date(d.year, d.month, end)
            out.append(
                Quantity(
                    "vague",
                    None,
                    lo.isoformat(),
                    hi.isoformat(),
                    ("",),
                    (f"{prefix}{month}",),
                    lo.toordinal(),
                    hi.toordinal(),
                    value_text=f"{d.year}-{d.month:02d}",
                    prep="in ",
                )
            )
    return out


def _time_quantities(v: float) -> list[Quantity]:
    """A time of day (minutes after midnight UTC) as written in each zone: "9:30 p.m. EST",
    "0230 GMT", "02:30 GMT"; value_text is the local time with its offset."""
    out = []
    minutes = int(v)
    for zone, offset in V.CLOCK_ZONES:
        hour, minute = divmod((minutes + offset) % 1440, 60)
        half = "a.m." if hour < 12 else "p.m."
        twelve = hour % 12 or 12
        forms = [f"{twelve}:{minute:02d} {half} {zone}", f"{hour:02d}{minute:02d} {zone}"]
        forms.append(
            f"{twelve} {half} {zone}" if minute == 0 else f"{hour:02d}:{minute:02d} {zone}"
        )
        sign = "-" if offset < 0 else "+"
        text = f"{hour:02d}:{minute:02d}{sign}{abs(offset) // 60:02d}:{abs(offset) % 60:02d}"
        about = (v - _ABOUT_MINUTES, v + _ABOUT_MINUTES)
        out.append(
            Quantity("exact", v, None, None, ("",), tuple(forms), v, v, value_text=text, prep="at ")
        )
        out.append(
            Quantity(
                "approximate",
                v,
                *about,
                V.CLOCK_ABOUT_WORDS,
                tuple(forms),
                *about,
                value_text=text,
                prep="at ",
            )
        )
    return out


def _weighted(rng: random.Random, weights: dict[str, int]) -> str:
    total = sum(weights.values())
    pick = rng.random() * total
    for key, weight in weights.items():
        pick -= weight
        if pick < 0:
            return key
    return key


# --- events and plans -------------------------------------------------------------------------


@dataclass(slots=True)
class Person:
    title: str
    first: str
    last: str
    role: str


@dataclass(slots=True)
class Measure:
    spec: V.MeasureSpec
    mid: str
    true_value: Any  # float, or date for dates
    conflict_value: Any = None
    clauses: list[tuple[str, str, bool]] = field(default_factory=list)  # before, after, on-slot
    # (conflict?, publication date for dates) -> statements allowed, and qualifier weights
    cache: dict[tuple[bool, date | None], tuple[list[Quantity], dict[str, int]]] = field(
        default_factory=dict
    )
    support_keys: list[str] = field(default_factory=list)
    conflict_keys: list[str] = field(default_factory=list)
    support_articles: list[str] = field(default_factory=list)
    conflict_articles: list[str] = field(default_factory=list)


@dataclass(slots=True)
class Event:
    eid: str
    domain: V.Domain
    fields: dict[str, str]
    people: list[Person]
    agencies: list[str]
    measures: list[Measure]
    anchor: date
    background: tuple[str, ...]  # domain and generic background sentences, formatted


@dataclass(slots=True)
class Mention:
    measure: int
    cited: V.Outlet | None  # re-report of this outlet's figure
    conflict: bool = False
    second: bool = False


@dataclass(slots=True)
class ArticlePlan:
    key: str
    outlet: V.Outlet
    published: datetime
    mentions: list[Mention]


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _round_sig(v: float, digits: int) -> float:
    """v to `digits` significant digits, never below the units: counts and dollar amounts are
    written whole, so the truth must be whole too (14.6 would be written "14")."""
    return float(round(v, min(0, digits - len(str(int(v))))))


def _true_value(spec: V.MeasureSpec, rng: random.Random, anchor: date) -> Any:
    kind = spec.kind
    if kind == "date":
        if spec.when == "future":
            return anchor + timedelta(days=rng.randint(18, 40))
        return anchor - timedelta(days=rng.randint(0, 3))
    if kind == "ratio":
        return rng.choice((2.0, 2.0, 3.0, 3.0, 0.5, 4.0))
    if kind == "time":  # minutes after midnight UTC, on the five minutes, clear of midnight
        return float(rng.randint(12, 276) * 5)
    if kind == "percent":
        v = rng.uniform(spec.lo, spec.hi)
        return round(v, 1) if spec.decimals and rng.random() < 0.4 else float(round(v))
    v = math.exp(rng.uniform(math.log(spec.lo), math.log(spec.hi)))
    if v < 13:
        return float(max(2, round(v)))
    r = rng.random()
    if kind == "money":
        return _round_sig(v, 2 if r < 0.6 else 3)
    return _round_sig(v, 2) if r < 0.4 else _round_sig(v, 3) if r < 0.7 else float(round(v))


def _conflict_value(spec: V.MeasureSpec, v: Any, rng: random.Random) -> Any:
    kind = spec.kind
    if kind == "date":
        if spec.when == "past":
            return v - timedelta(days=rng.randint(1, 3))
        return v + timedelta(days=rng.choice((-3, -2, -1, 1, 2, 3)))
    if kind == "ratio":
        return rng.choice([r for r in V.RATIO_FORMS if r != v])
    if kind == "time":  # two to four hours apart, still clear of midnight
        shift = rng.randint(2, 4) * 60
        return v + shift if v + shift <= 1380 else v - shift
    if kind == "percent":
        delta = max(4.0, 0.4 * v)
        up = v + delta <= 99 and (v - delta < 1 or rng.random() < 0.5)
        c = v + delta * rng.uniform(1.0, 1.4) if up else v - delta * rng.uniform(1.0, 1.2)
        c = min(99.0, max(1.0, c))
        return round(c, 1) if not float(v).is_integer() else float(round(c))
    if v < 13:
        return float(v + rng.randint(max(2, math.ceil(0.4 * v)), max(3, int(v))))
    for _ in range(20):
        factor = rng.uniform(1.4, 1.9) if rng.random() < 0.5 else rng.uniform(0.5, 0.68)
        c = _round_sig(v * factor, 2)
        if c >= 13 and (c >= 1.35 * v or c <= 0.7 * v):
            return c
    return _round_sig(v * 1.6, 2)


def _split_clause(template: str, fields: dict[str, str]) -> tuple[str, str, bool]:
    on = "{on_q}" in template
    before, after = template.split("{on_q}" if on else "{q}")
    return before.format_map(fields), after.format_map(fields), on


# Events start on one of 250 days (February to October) of a year. A corpus spans at least two
# years and one more per EVENTS_PER_YEAR events: news keeps a steady pace, so a 100k-article
# corpus covers twenty years rather than packing ten times the stories into the same weeks.
EVENTS_PER_YEAR = 500
# Events of the same name ("the Red Mesa Fire") or company are at least this many days apart.
NAME_GAP_DAYS = 60


def event_years(events: int) -> tuple[int, ...]:
    """The years events are drawn from: 2024-2025 up to 1,000 events, then earlier years."""
    span = max(2, math.ceil(events / EVENTS_PER_YEAR))
    return tuple(range(2026 - span, 2026))


def _identity(ev: Event) -> list[str]:
    """What names an event to a reader: its name, and the company it is about."""
    return [ev.fields["event"]] + ([ev.fields["company"]] if "company" in ev.fields else [])


def _name_taken(ev: Event, named: dict[str, list[date]]) -> bool:
    return any(
        abs((ev.anchor - other).days) <= NAME_GAP_DAYS
        for name in _identity(ev)
        for other in named[name]
    )


def _make_event(eid: str, domain: V.Domain, rng: random.Random, years: tuple[int, ...]) -> Event:
    fields = {
        "region": rng.choice(V.REGIONS),
        "place": rng.choice(V.TOWNS),
        "name": rng.choice(domain.names),
    }
    for key, values in domain.extras.items():
        fields[key] = rng.choice(values)
    fields["event"] = rng.choice(domain.event_forms).format_map(fields)
    for key in list(fields):
        fields[_cap(key)] = _cap(fields[key])
    anchor = date(rng.choice(years), 2, 1) + timedelta(days=rng.randrange(250))
    roles = rng.sample(domain.roles, min(3, len(domain.roles)))
    lasts = rng.sample(V.LAST_NAMES, len(roles))
    people = [
        Person(title, rng.choice(V.FIRST_NAMES), last, role.format_map(fields))
        for (title, role), last in zip(roles, lasts, strict=True)
    ]
    agencies = [a.format_map(fields) for a in domain.agencies]
    count = rng.randint(3, min(8, len(domain.measures)))
    leads = [s for s in domain.measures if s.kind in ("count", "rate", "money")]
    lead = rng.choice(leads)
    specs = [lead, *rng.sample([s for s in domain.measures if s is not lead], count - 1)]
    chosen = {s.key for s in specs}
    for a, b in domain.traps:  # a trap's two quantities come together
        for key in (a, b):
            if ({a, b} & chosen) and key not in chosen:
                specs.append(next(s for s in domain.measures if s.key == key))
                chosen.add(key)
    measures = []
    for spec in specs:
        m = Measure(spec, f"{eid}:{spec.key}", _true_value(spec, rng, anchor))
        m.clauses = [_split_clause(c, fields) for c in spec.clauses]
        measures.append(m)
    background = tuple(b.format_map(fields) for b in (*domain.background, *V.BACKGROUND))
    return Event(eid, domain, fields, people, agencies, measures, anchor, background)


def _plan_event(ev: Event, n: int, first: int, width: int, rng: random.Random) -> list[ArticlePlan]:
    pool = list(V.OUTLETS)
    rng.shuffle(pool)
    outlets = [pool[i] if i < len(pool) else rng.choice(V.OUTLETS) for i in range(n)]
    stamps = []
    for _ in range(n):
        day = ev.anchor + timedelta(days=rng.randint(0, 10))
        stamps.append(datetime.combine(day, dtime(rng.randint(5, 22), rng.choice((0, 15, 30, 45)))))
    stamps.sort()
    m = len(ev.measures)
    prob = [0.85] + [rng.uniform(0.25, 0.7) for _ in range(m - 1)]
    exclusive = [False] + [rng.random() < 0.15 for _ in range(m - 1)]
    sets: list[list[int]] = [
        [k for k in range(m) if not exclusive[k] and rng.random() < prob[k]] for _ in range(n)
    ]
    for k in range(m):
        if exclusive[k]:
            sets[rng.randrange(n)].append(k)
    for chosen in sets:
        spare = [k for k in range(m) if not exclusive[k] and k not in chosen]
        while len(chosen) < 2 and spare:
            chosen.append(spare.pop(rng.randrange(len(spare))))
        while len(chosen) > 6:
            droppable = [k for k in chosen if not exclusive[k]]
            if not droppable:
                break
            chosen.remove(rng.choice(droppable))
    for k in range(m):
        if not any(k in chosen for chosen in sets):
            sets[rng.randrange(n)].append(k)

    plans = []
    originals: list[list[str]] = [[] for _ in range(m)]  # outlets reporting on their own
    keys: list[list[str]] = [[] for _ in range(m)]
    for i, (outlet, stamp, chosen) in enumerate(zip(outlets, stamps, sets, strict=True)):
        chosen.sort(key=lambda k: (k != 0, rng.random()))
        mentions = []
        for k in chosen:
            others = [o for o in originals[k] if o != outlet.name]
            r = rng.random()
            cited = None
            if others and r < 0.25:
                name = rng.choice(others)
                cited = next(o for o in V.OUTLETS if o.name == name)
            elif r > 0.965:
                cited = rng.choice(V.OFF_CORPUS_OUTLETS)
            elif outlet.name not in originals[k]:
                originals[k].append(outlet.name)
            key = cited.name if cited else outlet.name
            if key not in keys[k]:
                keys[k].append(key)
            mentions.append(Mention(k, cited))
        for mention in list(mentions):
            if mention.cited is None and rng.random() < 0.1:
                mentions.append(Mention(mention.measure, None, second=True))
        plans.append(ArticlePlan(f"a{first + i:0{width}d}", outlet, stamp, mentions))

    conflict_keys: list[list[str]] = [[] for _ in range(m)]
    for k, measure in enumerate(ev.measures):
        ks = keys[k]
        if len(ks) >= 3 and rng.random() < 0.3:
            size = max(1, int(len(ks) * rng.uniform(0.15, 0.4)))
            while size * 2 >= len(ks):
                size -= 1
            conflict_keys[k] = rng.sample(ks[1:], size)
            measure.conflict_value = _conflict_value(measure.spec, measure.true_value, rng)
    for plan in plans:
        for mention in plan.mentions:
            key = mention.cited.name if mention.cited else plan.outlet.name
            mention.conflict = key in conflict_keys[mention.measure]
    return plans


# --- sentences --------------------------------------------------------------------------------


@dataclass(slots=True)
class Seg:
    text: str
    claim: dict[str, Any] | None = None
    nonclaim: str | None = None  # non-claim type
    attr: bool = False  # part of the claim's attribution as written


def _cap_segs(segs: list[Seg]) -> list[Seg]:
    for seg in segs:
        if seg.text:
            seg.text = _cap(seg.text)
            break
    return segs


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]


@dataclass(slots=True)
class ArticleContext:
    ev: Event
    plan: ArticlePlan
    rng: random.Random
    introduced: set[str] = field(default_factory=set)  # last names already introduced
    pools: dict[str, list[Any]] = field(default_factory=dict)

    def draw(self, name: str, *sources: tuple[Any, ...]) -> Any:
        """An item from the sources not yet used in this article (refilled when exhausted)."""
        pool = self.pools.get(name)
        if not pool:
            pool = [item for source in sources for item in source]
            self.pools[name] = pool
        i = int(self.rng.random() * len(pool))
        pool[i], pool[-1] = pool[-1], pool[i]
        return pool.pop()

    @property
    def own(self) -> V.Outlet:
        return self.plan.outlet


def _person_segs(ctx: ArticleContext, person: Person) -> tuple[list[Seg], list[Seg]]:
    """(subject form before 'said', trailing form after 'said'), with attribution flagged."""
    if person.last in ctx.introduced:
        return [Seg(person.last, attr=True)], [Seg(person.last, attr=True)]
    ctx.introduced.add(person.last)
    full = f"{person.first} {person.last}"
    if ctx.rng.random() < 0.6:
        titled = f"{person.title} {full}"
        return [Seg(titled, attr=True)], [Seg(titled, attr=True)]
    return (
        [Seg(full, attr=True), Seg(f", {person.role},")],
        [Seg(full, attr=True), Seg(f", {person.role}")],
    )


def _anonymous_segs(ctx: ArticleContext) -> list[Seg]:
    rng = ctx.rng
    phrase = rng.choice(V.ANONYMOUS).replace("{thing}", rng.choice(V.ANONYMOUS_THINGS))
    if "{n}" not in phrase:
        return [Seg(phrase, attr=True)]
    rest = phrase.replace("{n}", "")
    return [
        Seg(rng.choice(V.SOURCE_COUNTS), nonclaim="source_count", attr=True),
        Seg(rest, attr=True),
    ]


def _t(text: str) -> Seg:
    return Seg(text)


def _attributed(
    ctx: ArticleContext, kind: str, cited: V.Outlet | None, c: list[Seg], ctx_kind: str
) -> list[Seg]:
    """Wrap clause segments ``c`` in one of the sentence patterns for an attribution kind."""
    rng = ctx.rng
    own = ctx.own.ref
    x = cited.ref if cited else ""
    pick = rng.random()
    if kind == "unattributed":
        opener = rng.choice(V.UNATTRIBUTED_OPENERS)
        if ctx_kind in ("date", "ratio") or " will " in "".join(seg.text for seg in c):
            opener = ""  # "So far, ..." reads wrong before a date, a ratio or a future tense
        return [_t(opener), *c, _t(".")] if opener else [*_cap_segs(c), _t(".")]
    if kind == "media_outlet":
        xs = [Seg(x, attr=True)]
        patterns = (
            lambda: [*c, _t(", "), *xs, _t(" reported.")],
            lambda: [_t("As first reported by "), *xs, _t(", "), *c, _t(".")],
            lambda: [_t("According to "), *xs, _t(", "), *c, _t(".")],
            lambda: [*xs, _t(" reported that "), *c, _t(".")],
            lambda: [*c, _t(", according to a report by "), *xs, _t(".")],
            lambda: [*xs, _t(" reported earlier this week that "), *c, _t(".")],
        )
        return patterns[int(pick * len(patterns))]()
    if kind == "named_person":
        person = rng.choice(ctx.ev.people)
        s, tr = _person_segs(ctx, person)
        if cited:
            patterns = (
                lambda: [*s, _t(f" told {x} that "), *c, _t(".")],
                lambda: [*c, _t(", "), *s, _t(f" told {x}.")],
                lambda: [_t(f"In an interview with {x}, "), *s, _t(" said "), *c, _t(".")],
                lambda: [_t("“"), *_cap_segs(c), _t(",” "), *s, _t(f" told {x}.")],
            )
        else:
            patterns = (
                lambda: [*s, _t(" said "), *c, _t(".")],
                lambda: [*s, _t(" said that "), *c, _t(".")],
                lambda: [*c, _t(", "), *s, _t(" said.")],
                lambda: [*c, _t(", said "), *tr, _t(".")],
                lambda: [_t("“"), *_cap_segs(c), _t(",” "), *s, _t(" said.")],
                lambda: [_t("“"), *_cap_segs(c), _t(",” said "), *tr, _t(".")],
                lambda: [_t("According to "), *tr, _t(", "), *c, _t(".")],
                lambda: [*s, _t(f" told {own} that "), *c, _t(".")],
            )
        return patterns[int(pick * len(patterns))]()
    if kind == "anonymous_sources":
        a = _anonymous_segs(ctx)
        if cited:
            patterns = (
                lambda: [*c, _t(", "), *a, _t(f" told {x}.")],
                lambda: [*c, _t(f", {x} reported, citing "), *a, _t(".")],
                lambda: [*a, _t(f" told {x} that "), *c, _t(".")],
            )
        else:
            patterns = (
                lambda: [*c, _t(", according to "), *a, _t(".")],
                lambda: [_t("According to "), *a, _t(", "), *c, _t(".")],
                lambda: [*a, _t(" said "), *c, _t(".")],
                lambda: [*c, _t(", "), *a, _t(" said.")],
                lambda: [*c, _t(", "), *a, _t(f" told {own}.")],
            )
        return patterns[int(pick * len(patterns))]()
    if kind == "document":
        phrase, verb = rng.choice(V.DOCUMENTS)
        d = [Seg(phrase, attr=True)]
        if cited:
            patterns = (
                lambda: [*c, _t(", according to "), *d, _t(f" obtained by {x}.")],
                lambda: [*d, _t(f" obtained by {x} {verb} that "), *c, _t(".")],
            )
        else:
            patterns = (
                lambda: [*c, _t(", according to "), *d, _t(".")],
                lambda: [_t("According to "), *d, _t(", "), *c, _t(".")],
                lambda: [*d, _t(f" {verb} that "), *c, _t(".")],
                lambda: [*d, _t(f" {verb} "), *c, _t(".")],
                lambda: [*c, _t(", according to "), *d, _t(f" reviewed by {own}.")],
            )
        return patterns[int(pick * len(patterns))]()
    # organization
    clause_text = "".join(seg.text for seg in c)
    choices = [a for a in ctx.ev.agencies if a not in clause_text] or ctx.ev.agencies
    o = [Seg(rng.choice(choices), attr=True)]
    if cited:
        patterns = (
            lambda: [*o, _t(f" confirmed to {x} that "), *c, _t(".")],
            lambda: [*c, _t(", "), *o, _t(f" told {x}.")],
        )
    else:
        patterns = (
            lambda: [*c, _t(", "), *o, _t(" said.")],
            lambda: [*o, _t(" said "), *c, _t(".")],
            lambda: [_t("According to "), *o, _t(", "), *c, _t(".")],
            lambda: [*c, _t(", "), *o, _t(" said in a statement.")],
            lambda: [_t("In a statement, "), *o, _t(" said "), *c, _t(".")],
        )
    return patterns[int(pick * len(patterns))]()


def _statements(
    measure: Measure, conflict: bool, published: date | None
) -> tuple[list[Quantity], dict[str, int]]:
    """The statements a mention may make, and the weights of the qualifiers among them."""
    spec = measure.spec
    kind = spec.kind
    value = measure.conflict_value if conflict else measure.true_value
    other = None
    if measure.conflict_value is not None:
        other = measure.true_value if conflict else measure.conflict_value
    if kind == "date":
        quantities = _date_quantities(value, published)
        weights = _DATE_WEIGHTS
        if other is not None:
            other = other.toordinal()
    elif kind == "ratio":
        quantities, weights = _ratio_quantities(value), _RATIO_WEIGHTS
    elif kind == "time":
        quantities, weights = _time_quantities(value), _TIME_WEIGHTS
    else:
        quantities, weights = _numeric_quantities(kind, value), _NUMERIC_WEIGHTS
    if spec.quals is not None:
        quantities = [q for q in quantities if q.qualifier in spec.quals]
    if other is not None:
        quantities = [q for q in quantities if not q.contains(other)]
    available = {q.qualifier for q in quantities}
    return quantities, {k: w for k, w in weights.items() if k in available}


def _claim_sentence(ctx: ArticleContext, mention: Mention) -> list[Seg]:
    rng = ctx.rng
    measure = ctx.ev.measures[mention.measure]
    spec = measure.spec
    kind = spec.kind
    published = ctx.plan.published.date() if kind == "date" else None
    cached = measure.cache.get((mention.conflict, published))
    if cached is None:
        cached = measure.cache[(mention.conflict, published)] = _statements(
            measure, mention.conflict, published
        )
    quantities, weights = cached
    qualifier = _weighted(rng, weights)
    q = rng.choice([q for q in quantities if q.qualifier == qualifier])
    word = rng.choice(q.words)
    form = rng.choice(q.forms)
    if word and form.startswith("a ") and word in ("some", "an estimated", "a minimum of"):
        word = "about" if qualifier == "approximate" else "at least"
    number = f"{word} {form}" if word else form

    before, after, on_slot = rng.choice(measure.clauses)
    noun = rng.choice(spec.nouns) if spec.nouns else None
    per = rng.choice(V.PER_PHRASES[spec.per]) if spec.per else None
    tail = ""
    if kind in ("count", "rate"):
        text = f"{number}{' of ' if q.of else ' '}{noun.head}"
        if kind == "rate":
            text = f"{text}{noun.tail} {per}"
        else:
            tail = noun.tail
    elif kind == "money" and per:
        text = f"{number} {per}"
    elif kind in ("duration", "length", "mass"):
        text = f"{number} {spec.unit}"
    elif kind == "age":
        text = f"{number} years old"
    else:
        text = number
    unit = noun.unit if noun else spec.unit
    record = {
        "kind": kind,
        "value": q.value,
        "value_text": q.value_text if q.value_text is not None else _value_text(q.value),
        "lower": q.lower,
        "upper": q.upper,
        "qualifier": qualifier,
        "unit": unit,
        "per": spec.per,
        "subject": f"{noun.head}{noun.tail}" if noun else None,
        "measure": measure.mid,
    }
    prep = q.prep if on_slot else ""
    clause = [_t(before + prep), Seg(text, claim=record), _t(tail + after)]
    clause = [seg for seg in clause if seg.text or seg.claim]

    if mention.cited is not None:
        attribution = _weighted(rng, _REREPORT_ATTRIBUTION)
    else:
        attribution = _weighted(rng, _ORIGINAL_ATTRIBUTION)
    record["attribution_kind"] = attribution
    record["cited_outlet"] = mention.cited.name if mention.cited else None
    record["stance"] = "contradicting" if mention.conflict else "supporting"
    return _cap_segs(_attributed(ctx, attribution, mention.cited, clause, kind))


# --- noise ------------------------------------------------------------------------------------


def _fmt(ctx: ArticleContext, template: str) -> str:
    return template.format_map(ctx.ev.fields)


def _background_sentence(ctx: ArticleContext) -> str:
    rng = ctx.rng
    text = ctx.draw("background", ctx.ev.background)
    if rng.random() < 0.25 and text.startswith(V.LOWERABLE_STARTS):
        text = rng.choice(V.NOISE_OPENERS) + _lower_first(text)
    return text


def _nonclaim_fill(ctx: ArticleContext, kind: str) -> str:
    rng = ctx.rng
    if kind == "address":
        return f"{rng.randint(100, 9899)} {rng.choice(V.STREETS)}"
    if kind == "phone":
        if rng.random() < 0.5:
            return f"555-{rng.randint(100, 9999):04d}"
        return f"({rng.randint(200, 989)}) 555-{rng.randint(100, 9999):04d}"
    return rng.choice(V.NONCLAIM_FILLS[kind])


def _nonclaim_sentence(ctx: ArticleContext) -> list[Seg]:
    kind, template = ctx.draw("nonclaim", V.NONCLAIM_TEMPLATES)
    before, after = template.split("{nc}")
    fill = _nonclaim_fill(ctx, kind)
    return [_t(_fmt(ctx, before)), Seg(fill, nonclaim=kind), _t(_fmt(ctx, after))]


def _quote_sentence(ctx: ArticleContext) -> list[Seg]:
    rng = ctx.rng
    quote = ctx.draw("quote", ctx.ev.domain.quotes, ctx.ev.domain.quotes, V.QUOTES)
    if rng.random() < 0.6:
        s, tr = _person_segs(ctx, rng.choice(ctx.ev.people))
        for seg in (*s, *tr):
            seg.attr = False
        if rng.random() < 0.5:
            return [_t(f"“{quote},” "), *s, _t(" said.")]
        return [_t(f"“{quote},” said "), *tr, _t(".")]
    cast = [p.last for p in ctx.ev.people]
    last = rng.choice(V.LAST_NAMES)
    while last in cast:
        last = rng.choice(V.LAST_NAMES)
    name = f"{rng.choice(V.FIRST_NAMES)} {last}"
    role = _fmt(ctx, rng.choice(V.RESIDENT_ROLES))
    # A resident's age would be a claim of no planted fact: residents are named without one.
    if rng.random() < 0.5:
        return [_t(f"“{quote},” said {name}, {role}.")]
    return [_t(f"“{quote},” said {name}, a longtime resident.")]


# --- articles ---------------------------------------------------------------------------------


class _Body:
    """Concatenates paragraphs of segments and records claim and non-claim spans."""

    __slots__ = ("parts", "pos", "claims", "nonclaims", "words")

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.pos = 0
        self.claims: list[dict[str, Any]] = []
        self.nonclaims: list[dict[str, Any]] = []
        self.words = 0

    def paragraph(self, sentences: list[list[Seg] | str]) -> None:
        """Append a paragraph; a sentence is plain text or segments that may carry spans."""
        parts = self.parts
        pos = self.pos
        if parts:
            parts.append("\n\n")
            pos += 2
        for i, sentence in enumerate(sentences):
            if i:
                parts.append(" ")
                pos += 1
            if isinstance(sentence, str):
                parts.append(sentence)
                pos += len(sentence)
                self.words += sentence.count(" ") + 1
                continue
            claim = None
            attribution = []
            spaces = 0
            for seg in sentence:
                text = seg.text
                end = pos + len(text)
                if seg.claim is not None:
                    claim = seg.claim
                    claim["char_start"], claim["char_end"], claim["claim_text"] = pos, end, text
                if seg.nonclaim is not None:
                    self.nonclaims.append(
                        {"char_start": pos, "char_end": end, "text": text, "type": seg.nonclaim}
                    )
                if seg.attr:
                    attribution.append(text)
                parts.append(text)
                spaces += text.count(" ")
                pos = end
            if claim is not None:
                claim["attribution"] = "".join(attribution) or None
                self.claims.append(claim)
            self.words += spaces + 1
        self.pos = pos

    def text(self) -> str:
        return "".join(self.parts)


def _render_article(ev: Event, plan: ArticlePlan, rng: random.Random) -> tuple[str, _Body]:
    ctx = ArticleContext(ev, plan, rng)
    body = _Body()
    mentions = plan.mentions
    many = len(mentions) > 5
    noise_kinds = ["background", "background", "quote", "background+nonclaim", "quote"]
    rng.shuffle(noise_kinds)
    noise = noise_kinds[: rng.randint(1, 3) if many else rng.randint(2, 5)]
    if rng.random() < 0.5:
        noise.append("nonclaim")
    if rng.random() < 0.12:
        noise.append("furniture")
    rng.shuffle(noise)
    # Interleave the claim paragraphs (in order) with the noise paragraphs.
    slots: list[tuple[str, Mention | None]] = []
    rest = list(mentions[1:])
    while rest or noise:
        if rest and (not noise or rng.random() < len(rest) / (len(rest) + len(noise))):
            slots.append(("claim", rest.pop(0)))
        else:
            slots.append((noise.pop(), None))

    lead = _claim_sentence(ctx, mentions[0])
    if rng.random() < 0.8:
        outlet = plan.outlet.name
        wire = f" ({outlet})" if outlet in _WIRES else ""
        dateline = f"{ev.fields['place'].upper()}, {ev.fields['region']}{wire} — "
        lead.insert(0, _t(dateline))
    body.paragraph([lead])
    for slot, mention in slots:
        if slot == "claim":
            sentences = [_claim_sentence(ctx, mention)]
            if rng.random() < 0.2 and body.words < 450:
                sentences.append(ctx.draw("context", V.CONTEXT))
            body.paragraph(sentences)
        elif body.words > 470:
            continue
        elif slot == "background":
            body.paragraph([_background_sentence(ctx) for _ in range(rng.randint(1, 3))])
        elif slot == "background+nonclaim":
            sentences = [_background_sentence(ctx) for _ in range(rng.randint(1, 2))]
            sentences.insert(rng.randint(0, len(sentences)), _nonclaim_sentence(ctx))
            body.paragraph(sentences)
        elif slot == "nonclaim":
            body.paragraph([_nonclaim_sentence(ctx)])
        elif slot == "quote":
            sentences = [_quote_sentence(ctx)]
            if rng.random() < 0.4:
                sentences.append(_background_sentence(ctx))
            body.paragraph(sentences)
        else:
            body.paragraph([rng.choice(V.FURNITURE)])
    target = rng.randint(_MIN_WORDS + 30, 420)
    while body.words < target:
        if rng.random() < 0.3:
            body.paragraph([_quote_sentence(ctx), _background_sentence(ctx)])
        else:
            body.paragraph([_background_sentence(ctx) for _ in range(rng.randint(1, 3))])
    if rng.random() < 0.5:
        own = plan.outlet.ref
        fields = {**ev.fields, "own": own, "Own": _cap(own)}
        body.paragraph([rng.choice(V.CLOSINGS).format_map(fields)])
    if rng.random() < 0.12:
        year = str(plan.published.year)
        body.paragraph(
            [
                [
                    _t("© "),
                    Seg(year, nonclaim="year"),
                    _t(f" {plan.outlet.name}. All rights reserved."),
                ]
            ]
        )
    return body.text(), body


def _title(ev: Event, rng: random.Random) -> str:
    return rng.choice(ev.domain.titles).format_map(ev.fields)


def _url(outlet: V.Outlet, title: str, key: str, published: datetime) -> str:
    slug = _SLUG.sub("-", title.lower()).strip("-")
    return f"https://www.{outlet.domain}/{published:%Y/%m/%d}/{slug}-{key}"


def _split_counts(articles: int, events: int, rng: random.Random) -> list[int]:
    """Articles per event: at least one each, the rest spread with uneven weights."""
    weights = [rng.paretovariate(1.6) for _ in range(events)]
    total = sum(weights)
    spare = articles - events
    shares = [spare * w / total for w in weights]
    counts = [1 + int(s) for s in shares]
    order = sorted(range(events), key=lambda i: (-(shares[i] - int(shares[i])), i))
    for i in order[: articles - sum(counts)]:
        counts[i] += 1
    return counts


def _status(support: int, conflict: int) -> str:
    if support and conflict:
        return "conflicting"
    return "corroborated" if support >= 2 else "single_source"


def _write(path: str, data: bytes) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        os.write(fd, data)
    finally:
        os.close(fd)


def _json_value(v: Any) -> Any:
    return v.isoformat() if isinstance(v, date) else v


def generate(articles: int, events: int, seed: int, out: Path) -> GenerationSummary:
    """Write ``articles`` articles about ``events`` events under ``out``; same seed, same bytes."""
    if articles < 1 or events < 1:
        raise ValueError("articles and events must be at least 1")
    started = time.perf_counter()
    rng = _Rng(seed)
    out = Path(out)
    events = min(events, articles)
    counts = _split_counts(articles, events, rng)
    ewidth = max(3, len(str(events - 1)))
    awidth = max(6, len(str(articles - 1)))
    order = list(V.DOMAINS)
    rng.shuffle(order)
    years = event_years(events)
    (out / "articles").mkdir(parents=True, exist_ok=True)
    (out / "truth").mkdir(parents=True, exist_ok=True)
    statuses = dict.fromkeys(STATUSES, 0)
    named: dict[str, list[date]] = defaultdict(list)  # event name -> anchors drawn so far
    n_claims = n_nonclaims = n_facts = 0
    first = 0
    with (
        open(out / "truth" / "claims.jsonl", "w", encoding="utf-8", newline="\n") as claims_f,
        open(out / "truth" / "facts.jsonl", "w", encoding="utf-8", newline="\n") as facts_f,
        open(out / "truth" / "nonclaims.jsonl", "w", encoding="utf-8", newline="\n") as nc_f,
        open(out / "truth" / "events.jsonl", "w", encoding="utf-8", newline="\n") as events_f,
    ):
        for e in range(events):
            eid = f"e{e:0{ewidth}d}"
            ev = _make_event(eid, order[e % len(order)], rng, years)
            redraw = 0
            while redraw < 20 and _name_taken(ev, named):
                # Two different events called the same (or about the same company) within
                # weeks cannot be told apart by any reader; draw this one again from its own
                # stream, so the other events stay as they were.
                redraw += 1
                ev = _make_event(eid, order[e % len(order)], _Rng(f"{seed}:{eid}:{redraw}"), years)
            for name in _identity(ev):
                named[name].append(ev.anchor)
            plans = _plan_event(ev, counts[e], first, awidth, rng)
            first += counts[e]
            folder = out / "articles" / eid
            folder.mkdir(exist_ok=True)
            folder_s = str(folder)
            for plan in plans:
                text, body = _render_article(ev, plan, rng)
                title = _title(ev, rng)
                published = plan.published
                sidecar = {
                    "outlet": plan.outlet.name,
                    "title": title,
                    "published_at": f"{published:%Y-%m-%dT%H:%M:%S}Z",
                    "url": _url(plan.outlet, title, plan.key, published),
                }
                rel = f"{eid}/{plan.key}.txt"
                _write(f"{folder_s}/{plan.key}.txt", text.encode("utf-8"))
                _write(f"{folder_s}/{plan.key}.json", _JSON(sidecar).encode("utf-8"))
                lines = []
                for claim in body.claims:
                    measure = next(m for m in ev.measures if m.mid == claim["measure"])
                    key = claim["cited_outlet"] or plan.outlet.name
                    if claim["stance"] == "contradicting":
                        keys, arts = measure.conflict_keys, measure.conflict_articles
                    else:
                        keys, arts = measure.support_keys, measure.support_articles
                    if key not in keys:
                        keys.append(key)
                    if plan.key not in arts:
                        arts.append(plan.key)
                    record = {
                        "article_file": rel,
                        "article_key": plan.key,
                        "char_start": claim["char_start"],
                        "char_end": claim["char_end"],
                        "claim_text": claim["claim_text"],
                        **{
                            k: claim[k]
                            for k in (
                                "kind",
                                "value",
                                "value_text",
                                "lower",
                                "upper",
                                "qualifier",
                                "unit",
                                "per",
                                "subject",
                                "measure",
                                "attribution_kind",
                                "attribution",
                                "cited_outlet",
                            )
                        },
                        "reporting_outlet": plan.outlet.name,
                        "stance": claim["stance"],
                    }
                    lines.append(_JSON(record))
                if lines:
                    claims_f.write("\n".join(lines) + "\n")
                n_claims += len(lines)
                for nc in body.nonclaims:
                    nc_f.write(_JSON({"article_file": rel, "article_key": plan.key, **nc}) + "\n")
                n_nonclaims += len(body.nonclaims)
            for measure in ev.measures:
                spec = measure.spec
                status = _status(len(measure.support_keys), len(measure.conflict_keys))
                statuses[status] += 1
                n_facts += 1
                fact = {
                    "measure": measure.mid,
                    "event": eid,
                    "description": spec.label,
                    "kind": spec.kind,
                    "unit": spec.unit,
                    "per": spec.per,
                    "true_value": _json_value(measure.true_value),
                    "supporting_articles": measure.support_articles,
                    "contradicting_articles": measure.conflict_articles,
                    "conflict_value": _json_value(measure.conflict_value)
                    if measure.conflict_articles
                    else None,
                    "expected_status": status,
                    "independent_sources": len(measure.support_keys) + len(measure.conflict_keys),
                    "supporting_sources": measure.support_keys,
                    "contradicting_sources": measure.conflict_keys,
                }
                facts_f.write(_JSON(fact) + "\n")
            events_f.write(
                json.dumps(
                    {
                        "event": eid,
                        "domain": ev.domain.key,
                        "name": ev.fields["event"],
                        "place": ev.fields["place"],
                        "region": ev.fields["region"],
                        "anchor_date": ev.anchor.isoformat(),
                        "articles": len(plans),
                        "measures": [m.mid for m in ev.measures],
                    },
                    ensure_ascii=False,
                )
                + "\n"
            )
    manifest = {
        "generator_version": GENERATOR_VERSION,
        "seed": seed,
        "articles": articles,
        "events": events,
        "facts": n_facts,
        "claims": n_claims,
        "nonclaims": n_nonclaims,
        "statuses": statuses,
    }
    (out / "truth" / "manifest.json").write_text(
        json.dumps(manifest, indent=2) + "\n", encoding="utf-8"
    )
    seconds = time.perf_counter() - started
    return GenerationSummary(
        out=str(out),
        seed=seed,
        articles=articles,
        events=events,
        facts=n_facts,
        claims=n_claims,
        nonclaims=n_nonclaims,
        statuses=statuses,
        seconds=round(seconds, 3),
        articles_per_second=round(articles / seconds, 1) if seconds > 0 else 0.0,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m synthetic.generate",
        description="Write a deterministic synthetic news corpus with ground truth.",
    )
    parser.add_argument("--articles", type=int, required=True, help="number of articles")
    parser.add_argument("--events", type=int, required=True, help="number of events")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    parser.add_argument("--out", type=Path, required=True, help="output folder")
    args = parser.parse_args(argv)
    if args.articles < 1 or args.events < 1:
        parser.error("--articles and --events must be at least 1")
    summary = generate(args.articles, args.events, args.seed, args.out)
    print(json.dumps(asdict(summary)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
