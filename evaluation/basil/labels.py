"""Hand labels of BASIL articles: load them, locate each fact in its article, check them.

    python -m evaluation.basil.labels --repo /path/to/BASIL      # or --texts /tmp/basil
    python -m evaluation.basil.labels --texts /tmp/basil labels/<event>.yaml

A label file (``labels/<event_id>.yaml``) lists, per article of one event, every numeric and
date fact in it (see LABELLING.md). A fact is placed by two exact substrings of the rebuilt
text: ``context`` occurs exactly once in the article and ``text`` exactly once in ``context``,
so the labels hold a few words per fact and never the article itself.
"""

from __future__ import annotations

import argparse
import datetime as dt
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from lake.schemas import QUALIFIERS

LABELS_DIR = Path(__file__).resolve().parent / "labels"

FACT_KINDS = (
    "count",
    "money",
    "percent",
    "rate",
    "measure",
    "date",
    "time",
    "duration",
    "age",
    "ratio",
)
# The labels' qualifiers are silver's (one vocabulary, lake.schemas).
FACT_QUALIFIERS = QUALIFIERS
GRANULARITIES = ("day", "week", "month", "season", "year", "decade")
RESOLUTIONS = ("stated", "relative")
OUTLET_KEYS = ("hpo", "fox", "nyt")
_ISO_DATE = re.compile(r"^\d{4}(?:-\d{2}(?:-\d{2})?)?$")


class LabelError(ValueError):
    """A label that does not fit the format or does not locate one place in its article."""


@dataclass
class Fact:
    text: str
    context: str
    kind: str
    value: float | str | None = None
    lower: float | str | None = None
    upper: float | str | None = None
    qualifier: str = "exact"
    unit: str | None = None
    counted: str | None = None
    attribution: str | None = None
    granularity: str | None = None
    resolution: str | None = None
    fact: str | None = None  # the quantity it states: shared by the claims of one fact
    # Filled by locate(): character offsets of ``text`` in the article body.
    start: int | None = None
    end: int | None = None

    @property
    def is_range(self) -> bool:
        """A stated range ("between five and 12", "from 2000 to 2006"); a vague amount's or a
        week's bounds are not one."""
        return self.qualifier == "range"

    @property
    def has_word_number(self) -> bool:
        """The figure is written (at least partly) in words: "two years", "a dozen"."""
        return self.kind not in ("date", "time") and not re.search(r"\d", self.text)

    def date_range(self) -> tuple[str, str] | None:
        """First and last ISO day of a date fact's value (or of its lower/upper bounds)."""
        if self.kind != "date":
            return None
        lo = self.lower if self.lower is not None else self.value
        hi = self.upper if self.upper is not None else self.value
        if lo is None or hi is None:
            return None
        return _first_day(str(lo)), _last_day(str(hi))


def _first_day(iso: str) -> str:
    parts = iso.split("-")
    return "-".join([parts[0], *(parts[1:] + ["01", "01"])[:2]])


def _last_day(iso: str) -> str:
    parts = iso.split("-")
    if len(parts) == 3:
        return iso
    year = int(parts[0])
    month = int(parts[1]) if len(parts) == 2 else 12
    nxt = dt.date(year + (month == 12), month % 12 + 1, 1)
    return (nxt - dt.timedelta(days=1)).isoformat()


@dataclass
class ArticleLabels:
    outlet: str
    file: str
    published_at: str
    facts: list[Fact] = field(default_factory=list)

    @property
    def stem(self) -> str:
        return self.file.removesuffix(".txt")


@dataclass
class EventLabels:
    event: str
    articles: list[ArticleLabels]
    conflicts: list[dict] = field(default_factory=list)
    path: Path | None = None
    # fact id -> its words (property, subject, event, scope); empty while unlabelled
    facts: dict[str, str] = field(default_factory=dict)

    def fact_ids(self) -> set[str]:
        return {f.fact for a in self.articles for f in a.facts if f.fact}


def _scalar(value):
    """YAML turns 2014-05-02 into a date and 2014 into an int: dates are kept as ISO text."""
    if isinstance(value, dt.datetime):
        return value.date().isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    return value


def _fact(raw: dict, where: str) -> Fact:
    unknown = set(raw) - (set(Fact.__dataclass_fields__) - {"start", "end"})
    if unknown:
        raise LabelError(f"{where}: unknown keys {sorted(unknown)}")
    for key in ("text", "context", "kind"):
        if not raw.get(key):
            raise LabelError(f"{where}: {key} is missing")
    fact = Fact(**{k: _scalar(v) for k, v in raw.items()})
    fact.text, fact.context = str(fact.text), str(fact.context)
    if fact.kind not in FACT_KINDS:
        raise LabelError(f"{where}: kind {fact.kind!r} not in {FACT_KINDS}")
    if fact.qualifier not in FACT_QUALIFIERS:
        raise LabelError(f"{where}: qualifier {fact.qualifier!r} not in {FACT_QUALIFIERS}")
    if fact.kind == "date":
        for key in ("value", "lower", "upper"):
            v = getattr(fact, key)
            if v is not None:
                v = str(v)
                if not _ISO_DATE.match(v):
                    raise LabelError(f"{where}: date {key} {v!r} is not ISO (YYYY[-MM[-DD]])")
                setattr(fact, key, v)
        if fact.value is None and (fact.lower is None or fact.upper is None):
            raise LabelError(f"{where}: a date needs a value or both lower and upper")
        if fact.granularity not in GRANULARITIES:
            raise LabelError(f"{where}: granularity {fact.granularity!r} not in {GRANULARITIES}")
        if fact.resolution not in RESOLUTIONS:
            raise LabelError(f"{where}: resolution {fact.resolution!r} not in {RESOLUTIONS}")
    else:
        for key in ("value", "lower", "upper"):
            v = getattr(fact, key)
            if v is not None and not isinstance(v, int | float):
                raise LabelError(f"{where}: {key} {v!r} is not a number")
        if fact.value is None and fact.qualifier != "vague" and not fact.is_range:
            raise LabelError(f"{where}: a non-vague {fact.kind} needs a value")
        if fact.is_range and (fact.lower is None or fact.upper is None):
            raise LabelError(f"{where}: a range needs lower and upper")
    return fact


def load_event(path: str | Path) -> EventLabels:
    path = Path(path)
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict) or "event" not in data or "articles" not in data:
        raise LabelError(f"{path.name}: needs 'event' and 'articles'")
    articles = []
    for i, raw in enumerate(data["articles"] or []):
        outlet = str(raw.get("outlet", "")).lower()
        if outlet not in OUTLET_KEYS:
            raise LabelError(f"{path.name}: article {i}: outlet {outlet!r} not in {OUTLET_KEYS}")
        file = raw.get("file") or f"{data['event']}_{outlet}.txt"
        facts = [
            _fact(f, f"{path.name}: {outlet} fact {j} ({f.get('text')!r})")
            for j, f in enumerate(raw.get("facts") or [])
        ]
        articles.append(ArticleLabels(outlet, file, str(_scalar(raw.get("published_at"))), facts))
    facts = {str(k): str(v) for k, v in (data.get("facts") or {}).items()}
    return EventLabels(str(data["event"]), articles, list(data.get("conflicts") or []), path, facts)


def load_all(folder: str | Path = LABELS_DIR) -> list[EventLabels]:
    from evaluation.basil.rebuild import is_held_out

    events = []
    for path in sorted(Path(folder).glob("*.yaml")):
        if is_held_out(path.stem):
            continue
        labels = load_event(path)
        if is_held_out(labels.event):
            continue
        events.append(labels)
    return events


def locate(fact: Fact, body: str) -> tuple[int, int]:
    """Offsets of fact.text in body: context must occur once in body, text once in context."""
    hits = [m.start() for m in re.finditer(re.escape(fact.context), body)]
    if len(hits) != 1:
        raise LabelError(f"context {fact.context!r} occurs {len(hits)} times (needs exactly 1)")
    inner = [m.start() for m in re.finditer(re.escape(fact.text), fact.context)]
    if len(inner) != 1:
        raise LabelError(
            f"text {fact.text!r} occurs {len(inner)} times in context {fact.context!r} (needs 1)"
        )
    start = hits[0] + inner[0]
    return start, start + len(fact.text)


def locate_all(article: ArticleLabels, body: str) -> list[str]:
    """Sets start/end on every fact; returns the problems (empty when all are placed)."""
    problems = []
    spans: dict[tuple[int, int], str] = {}
    for fact in article.facts:
        try:
            fact.start, fact.end = locate(fact, body)
        except LabelError as err:
            problems.append(f"{article.file}: {err}")
            continue
        if (fact.start, fact.end) in spans:
            problems.append(f"{article.file}: {fact.text!r} labelled twice at {fact.start}")
        spans[(fact.start, fact.end)] = fact.text
        if fact.attribution and fact.attribution not in body:
            problems.append(f"{article.file}: attribution {fact.attribution!r} not in the text")
    return problems


def check_event(labels: EventLabels, bodies: dict[str, str]) -> list[str]:
    problems = []
    if labels.path is not None and labels.path.stem != labels.event:
        problems.append(f"{labels.path.name}: file name differs from event {labels.event}")
    seen = set()
    for article in labels.articles:
        if article.outlet in seen:
            problems.append(f"{labels.event}: outlet {article.outlet} labelled twice")
        seen.add(article.outlet)
        body = bodies.get(article.stem)
        if body is None:
            problems.append(f"{labels.event}: no rebuilt text for {article.file}")
            continue
        problems += locate_all(article, body)
    problems += check_fact_ids(labels)
    for conflict in labels.conflicts:
        values = conflict.get("values") or {}
        if not conflict.get("counted") or len(values) < 2:
            problems.append(f"{labels.event}: a conflict needs 'counted' and two values or more")
        for outlet, text in values.items():
            body = bodies.get(f"{labels.event}_{outlet}")
            if body is not None and str(text) not in body:
                problems.append(f"{labels.event}: conflict value {text!r} not in {outlet}'s text")
    return problems


_FACT_ID = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")


def check_fact_ids(labels: EventLabels) -> list[str]:
    """Fact ids, once an event has any: on every claim, well formed, described in `facts`,
    and named by each conflict."""
    used = labels.fact_ids()
    if not used and not labels.facts:
        return []  # not labelled for fact identity yet
    problems = []
    for article in labels.articles:
        for f in article.facts:
            if not f.fact:
                problems.append(f"{article.file}: {f.text!r} in {f.context!r} has no fact id")
            elif not _FACT_ID.match(f.fact):
                problems.append(f"{article.file}: fact id {f.fact!r} is not lower-case-words")
    for fid in sorted(used - set(labels.facts)):
        problems.append(f"{labels.event}: fact {fid!r} is not described under 'facts'")
    for fid in sorted(set(labels.facts) - used):
        problems.append(f"{labels.event}: 'facts' describes {fid!r}, which no claim carries")
    for conflict in labels.conflicts:
        if conflict.get("fact") not in used:
            problems.append(
                f"{labels.event}: conflict {conflict.get('counted')!r} names fact "
                f"{conflict.get('fact')!r}, which no claim carries"
            )
    return problems


def read_bodies(texts: str | Path, stems: list[str]) -> dict[str, str]:
    from evaluation.basil.rebuild import normalize_body

    out = {}
    for stem in stems:
        path = Path(texts) / f"{stem}.txt"
        if path.exists():
            out[stem] = normalize_body(path.read_text(encoding="utf-8"))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Check BASIL label files against rebuilt texts.")
    src = ap.add_mutually_exclusive_group(required=True)
    src.add_argument("--repo", help="fetched launchnlp/BASIL (texts are rebuilt in memory)")
    src.add_argument("--texts", help="folder written by evaluation.basil.rebuild")
    ap.add_argument("files", nargs="*", help="label files (default: all under labels/)")
    args = ap.parse_args(argv)
    events = [load_event(p) for p in args.files] if args.files else load_all()
    stems = [a.stem for e in events for a in e.articles]
    if args.repo:
        from evaluation.basil.rebuild import load_articles

        wanted = sorted({e.event for e in events})
        bodies = {a.stem: a.text for a in load_articles(args.repo, wanted)}
    else:
        bodies = read_bodies(args.texts, stems)
    problems = [p for e in events for p in check_event(e, bodies)]
    facts = sum(len(a.facts) for e in events for a in e.articles)
    articles = sum(len(e.articles) for e in events)
    for p in problems:
        print(p)
    print(f"{len(events)} events, {articles} articles, {facts} facts: {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
