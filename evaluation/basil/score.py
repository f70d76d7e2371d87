"""Score the claim extractor against the hand-labelled BASIL articles.

    python -m evaluation.basil.score --repo /path/to/BASIL [--json] [--events ID ...]
    python -m evaluation.basil.score --texts /tmp/basil [--json]

Texts are rebuilt from the fetched BASIL copy into a temporary folder (or read from a folder
written by ``evaluation.basil.rebuild``); every labelled article is run through
``lake.silver.extract.extract_claims`` with its publication date and outlet, the way the silver
layer runs it, and claims are matched to labelled facts by span overlap:

* recall: labelled facts overlapped by at least one claim;
* precision: claims overlapping at least one labelled fact, over all claims (the others are
  listed as possible false claims);
* value accuracy: matched facts whose best claim carries the labelled value (dates: the same
  first and last day; numbers: the same value, or the same bounds for a range);
* dates to the right day: matched date facts of day granularity resolved to that day;
* date granularity and stated/relative: matched dates whose claim has the labelled
  granularity and resolution (the labels' "relative" is our resolved or unresolved).

Held-out events are never read: the rebuild refuses them and their label files are ignored.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import sys
import tempfile
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from evaluation.basil.labels import (
    LABELS_DIR,
    ArticleLabels,
    EventLabels,
    Fact,
    load_all,
    load_event,
    locate_all,
    read_bodies,
)
from evaluation.basil.rebuild import OUTLETS, is_held_out, load_articles, write_articles

TARGETS = {"recall": 0.92, "precision": 0.92, "dates_right_day": 0.90}

# Which extractor kinds express a labelled kind (the labels' "measure" is a physical measure:
# a length, a mass, or a count with its unit).
COMPATIBLE_KINDS = {
    "count": {"count"},
    "money": {"money"},
    "percent": {"percent"},
    "rate": {"rate", "ratio", "percent"},
    "ratio": {"ratio", "percent", "rate"},
    "measure": {"count", "rate", "length", "mass"},
    "duration": {"duration"},
    "age": {"age"},
    "time": {"date"},
    "date": {"date"},
}


@dataclass
class FactResult:
    event: str
    outlet: str
    fact: Fact
    claims: list = field(default_factory=list)  # overlapping claims, best first

    @property
    def found(self) -> bool:
        return bool(self.claims)

    @property
    def best(self):
        return self.claims[0] if self.claims else None

    @property
    def kind_ok(self) -> bool | None:
        if not self.found:
            return None
        return self.best.kind in COMPATIBLE_KINDS[self.fact.kind]

    @property
    def provenance_ok(self) -> tuple[bool, bool] | None:
        """(granularity agrees, resolution agrees) for a date found as a date; the labels'
        "relative" is our resolved or unresolved."""
        if not self.found or self.fact.kind != "date" or self.best.kind != "date":
            return None
        stated = getattr(self.best, "date_resolution", None)
        resolution = {"resolved": "relative", "unresolved": "relative"}.get(stated, stated)
        return (
            getattr(self.best, "date_granularity", None) == self.fact.granularity,
            resolution == self.fact.resolution,
        )

    @property
    def value_ok(self) -> bool | None:
        """None when the fact was not found or has no value to compare (clock times)."""
        if not self.found or self.fact.kind == "time":
            return None
        return value_matches(self.fact, self.best)

    @property
    def right_day(self) -> bool | None:
        f = self.fact
        if not self.found or f.kind != "date" or f.granularity != "day" or f.is_range:
            return None
        c = self.best
        return c.kind == "date" and c.date_start == str(f.value) and c.date_end == str(f.value)

    def classes(self) -> list[str]:
        f = self.fact
        out = [f"kind={f.kind}"]
        if f.kind == "date":
            out += [f"date:{f.resolution}", f"date:{f.granularity}"]
        if f.has_word_number:
            out.append("word number")
        if f.is_range:
            out.append("range")
        if f.qualifier not in ("exact", "range"):
            out.append(f"qualifier={f.qualifier}")
        return out


def _close(a: float | None, b, rel: float = 1e-3) -> bool:
    if a is None or b is None:
        return False
    try:
        a, b = float(a), float(b)
    except (TypeError, ValueError):
        return False
    return math.isclose(a, b, rel_tol=rel, abs_tol=1e-9)


def value_matches(fact: Fact, claim) -> bool:
    """Does the claim carry the labelled value? Dates by their first and last day."""
    if fact.kind == "date":
        want = fact.date_range()
        return claim.kind == "date" and want == (claim.date_start, claim.date_end)
    rel = 0.01 if fact.kind in ("ratio", "rate") else 1e-3
    if fact.is_range:
        return _close(claim.lower, fact.lower, rel) and _close(claim.upper, fact.upper, rel)
    if fact.value is None:  # a vague amount: the claim must be vague too (bounds if labelled)
        if fact.lower is not None and claim.lower is not None:
            return _close(claim.lower, fact.lower, rel)
        return claim.qualifier == "vague" or claim.value is None
    if _close(claim.value, fact.value, rel):
        return True
    # "1-in-3" labelled as the ratio 0.333 may come out as a percent (33.3)
    return fact.kind in ("ratio", "percent") and _close(claim.value, float(fact.value) * 100, rel)


def _overlaps(a0: int, a1: int, b0: int, b1: int) -> bool:
    return a0 < b1 and b0 < a1


def match_article(
    event: str, article: ArticleLabels, body: str, claims: list
) -> tuple[list[FactResult], list]:
    """(one result per labelled fact, the claims overlapping no labelled fact)."""
    results = []
    for fact in article.facts:
        if fact.start is None:
            continue
        hits = [c for c in claims if _overlaps(c.char_start, c.char_end, fact.start, fact.end)]

        def rank(c, fact=fact):
            overlap = min(c.char_end, fact.end) - max(c.char_start, fact.start)
            compatible = c.kind in COMPATIBLE_KINDS[fact.kind]
            return (not compatible, -overlap, abs(c.char_start - fact.start))

        results.append(FactResult(event, article.outlet, fact, sorted(hits, key=rank)))
    placed = [f for f in article.facts if f.start is not None]
    unmatched = [
        c
        for c in claims
        if not any(_overlaps(c.char_start, c.char_end, f.start, f.end) for f in placed)
    ]
    return results, unmatched


def run_extractor(body: str, published_at: str, outlet_key: str) -> list:
    from lake.silver.extract import extract_claims

    article_id = hashlib.sha256(body.encode("utf-8")).hexdigest()
    published = datetime.fromisoformat(published_at[:10]).replace(tzinfo=UTC)
    return extract_claims(article_id, body, published, OUTLETS[outlet_key])


@dataclass
class Report:
    facts: list[FactResult] = field(default_factory=list)
    claims: int = 0
    false_claims: list[dict] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    per_event_claims: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    per_event_false: dict[str, int] = field(default_factory=lambda: defaultdict(int))


def score(events: list[EventLabels], bodies: dict[str, str]) -> Report:
    report = Report()
    for labels in events:
        for article in labels.articles:
            body = bodies.get(article.stem)
            if body is None:
                report.problems.append(f"no rebuilt text for {article.file}")
                continue
            report.problems += locate_all(article, body)
            claims = run_extractor(body, article.published_at, article.outlet)
            results, unmatched = match_article(labels.event, article, body, claims)
            report.facts += results
            report.claims += len(claims)
            report.per_event_claims[labels.event] += len(claims)
            report.per_event_false[labels.event] += len(unmatched)
            for c in unmatched:
                report.false_claims.append(
                    {
                        "event": labels.event,
                        "outlet": article.outlet,
                        "claim_text": c.claim_text,
                        "kind": c.kind,
                        "value": c.value,
                        "date_start": c.date_start,
                        "at": c.char_start,
                        "sentence": c.sentence,
                    }
                )
    return report


def _ratio(num: int, den: int) -> float | None:
    return None if den == 0 else num / den


def summarize(results: list[FactResult], claims: int, false_claims: int) -> dict:
    found = [r for r in results if r.found]
    valued = [r for r in found if r.value_ok is not None]
    days = [r for r in found if r.right_day is not None]
    all_days = [
        r
        for r in results
        if r.fact.kind == "date" and r.fact.granularity == "day" and not r.fact.is_range
    ]
    kinds = [r for r in found if r.kind_ok is not None]
    dated = [r.provenance_ok for r in found if r.provenance_ok is not None]
    return {
        "facts": len(results),
        "found": len(found),
        "recall": _ratio(len(found), len(results)),
        "claims": claims,
        "claims_on_facts": claims - false_claims,
        "precision": _ratio(claims - false_claims, claims),
        "value_accuracy": _ratio(sum(r.value_ok for r in valued), len(valued)),
        "kind_agreement": _ratio(sum(r.kind_ok for r in kinds), len(kinds)),
        "date_granularity_agreement": _ratio(sum(g for g, _ in dated), len(dated)),
        "date_resolution_agreement": _ratio(sum(r for _, r in dated), len(dated)),
        "day_facts": len(all_days),
        "day_facts_found": len(days),
        "dates_right_day": _ratio(sum(r.right_day for r in days), len(days)),
        "dates_right_day_of_all": _ratio(sum(r.right_day for r in days), len(all_days)),
    }


def by_class(results: list[FactResult]) -> dict[str, dict]:
    groups: dict[str, list[FactResult]] = defaultdict(list)
    for r in results:
        for cls in r.classes():
            groups[cls].append(r)
    out = {}
    for cls in sorted(groups):
        rs = groups[cls]
        found = [r for r in rs if r.found]
        valued = [r for r in found if r.value_ok is not None]
        out[cls] = {
            "facts": len(rs),
            "found": len(found),
            "recall": _ratio(len(found), len(rs)),
            "value_accuracy": _ratio(sum(r.value_ok for r in valued), len(valued)),
        }
    return out


def _fact_row(r: FactResult) -> dict:
    f = r.fact
    row = {
        "event": r.event,
        "outlet": r.outlet,
        "text": f.text,
        "context": f.context,
        "kind": f.kind,
        "value": f.value,
        "lower": f.lower,
        "upper": f.upper,
        "granularity": f.granularity,
        "resolution": f.resolution,
        "classes": r.classes(),
    }
    if r.found:
        c = r.best
        row["claim"] = {
            "claim_text": c.claim_text,
            "kind": c.kind,
            "value": c.value,
            "lower": c.lower,
            "upper": c.upper,
            "date_start": c.date_start,
            "date_end": c.date_end,
        }
    return row


def build(report: Report) -> dict:
    per_event = {}
    for event in sorted({r.event for r in report.facts}):
        rs = [r for r in report.facts if r.event == event]
        per_event[event] = summarize(
            rs, report.per_event_claims[event], report.per_event_false[event]
        )
    overall = summarize(report.facts, report.claims, len(report.false_claims))
    return {
        "overall": overall,
        "targets": TARGETS,
        "per_event": per_event,
        "per_class": by_class(report.facts),
        "missed": [_fact_row(r) for r in report.facts if not r.found],
        "wrong_value": [_fact_row(r) for r in report.facts if r.value_ok is False],
        "possible_false_claims": report.false_claims,
        "label_problems": report.problems,
    }


def _pct(x: float | None) -> str:
    return "  n/a" if x is None else f"{x:5.3f}"


def render(data: dict, examples: int = 3) -> str:
    o = data["overall"]
    lines = [
        f"BASIL development set: {len(data['per_event'])} events, {o['facts']} labelled facts, "
        f"{o['claims']} claims",
        "",
        f"{'event':38} {'facts':>5} {'found':>5} {'recall':>6} {'claims':>6} {'prec':>6} "
        f"{'value':>6} {'day':>6}",
    ]
    for event, s in data["per_event"].items():
        lines.append(
            f"{event:38} {s['facts']:5d} {s['found']:5d} {_pct(s['recall']):>6} "
            f"{s['claims']:6d} {_pct(s['precision']):>6} {_pct(s['value_accuracy']):>6} "
            f"{_pct(s['dates_right_day']):>6}"
        )
    t = data["targets"]

    def verdict(x, target):
        return "" if x is None else ("  ok" if x >= target else "  BELOW TARGET")

    lines += [
        "",
        "overall",
        f"  recall                 {_pct(o['recall'])}  ({o['found']}/{o['facts']})   target "
        f">= {t['recall']}{verdict(o['recall'], t['recall'])}",
        f"  precision              {_pct(o['precision'])}  ({o['claims_on_facts']}/{o['claims']})"
        f"   target >= {t['precision']}{verdict(o['precision'], t['precision'])}",
        f"  dates to the right day {_pct(o['dates_right_day'])}  (of {o['day_facts_found']} "
        f"day-granularity date facts found; {_pct(o['dates_right_day_of_all'])} of all "
        f"{o['day_facts']})   target >= {t['dates_right_day']}"
        f"{verdict(o['dates_right_day'], t['dates_right_day'])}",
        f"  value accuracy         {_pct(o['value_accuracy'])}  (matched facts)",
        f"  kind agreement         {_pct(o['kind_agreement'])}  (matched facts)",
        f"  date granularity       {_pct(o['date_granularity_agreement'])}  (dates found as dates)",
        f"  date stated/relative   {_pct(o['date_resolution_agreement'])}  (dates found as dates)",
        "",
        f"recall by class {'':22} {'facts':>5} {'found':>5} {'recall':>6} {'value':>6}",
    ]
    for cls, s in data["per_class"].items():
        lines.append(
            f"  {cls:36} {s['facts']:5d} {s['found']:5d} {_pct(s['recall']):>6} "
            f"{_pct(s['value_accuracy']):>6}"
        )

    def show(title, rows, fmt):
        lines.extend(["", f"{title}: {len(rows)}"])
        groups: dict[str, list] = defaultdict(list)
        for row in rows:
            groups[row.get("kind", "?")].append(row)
        for kind, rs in sorted(groups.items(), key=lambda kv: -len(kv[1])):
            lines.append(f"  {kind} ({len(rs)})")
            for row in rs[:examples]:
                lines.append("    " + fmt(row))

    show(
        "missed facts",
        data["missed"],
        lambda r: f"{r['outlet']} {r['text']!r} in {r['context']!r}",
    )
    show(
        "found with a wrong value",
        data["wrong_value"],
        lambda r: (
            f"{r['outlet']} {r['text']!r}: labelled {r['value'] or (r['lower'], r['upper'])}, "
            f"claim {r['claim']['kind']} "
            + (
                f"{r['claim']['date_start']}..{r['claim']['date_end']}"
                if r["claim"]["kind"] == "date"
                else f"{r['claim']['value']} [{r['claim']['lower']}, {r['claim']['upper']}]"
            )
        ),
    )
    show(
        "possible false claims (overlap no labelled fact)",
        data["possible_false_claims"],
        lambda r: f"{r['outlet']} {r['claim_text']!r} ({r['value'] or r['date_start']})",
    )
    if data["label_problems"]:
        lines += ["", "label problems:"] + [f"  {p}" for p in data["label_problems"]]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Score extract_claims against the BASIL labels.")
    src = ap.add_mutually_exclusive_group(required=True)
    src.add_argument("--repo", help="fetched launchnlp/BASIL (bare git dir or checkout)")
    src.add_argument("--texts", help="folder written by evaluation.basil.rebuild")
    ap.add_argument("--labels", default=str(LABELS_DIR), help="folder of <event>.yaml labels")
    ap.add_argument("--events", nargs="*", help="only these event ids")
    ap.add_argument("--json", action="store_true", help="print the full report as JSON")
    ap.add_argument("--examples", type=int, default=3, help="examples per class in the text")
    args = ap.parse_args(argv)

    if args.events and any(is_held_out(e) for e in args.events):
        print("held-out events are never scored", file=sys.stderr)
        return 2
    folder = Path(args.labels)
    events = load_all(folder) if folder.is_dir() else [load_event(folder)]
    if args.events:
        events = [e for e in events if e.event in set(args.events)]
    stems = [a.stem for e in events for a in e.articles]
    if args.repo:
        with tempfile.TemporaryDirectory(prefix="basil-") as tmp:
            write_articles(load_articles(args.repo, sorted({e.event for e in events})), tmp)
            bodies = read_bodies(tmp, stems)
    else:
        bodies = read_bodies(args.texts, stems)
    data = build(score(events, bodies))
    if args.json:
        print(json.dumps(data, indent=2, ensure_ascii=False, default=str))
    else:
        print(render(data, args.examples))
    return 1 if data["label_problems"] else 0


if __name__ == "__main__":
    sys.exit(main())
