"""Score gold's facts against the BASIL labels' fact ids: do gold's facts each hold one quantity?

    python -m evaluation.basil.facts --repo /path/to/BASIL [--json] [--events ID ...]
    python -m evaluation.basil.facts --repo /path/to/BASIL --pipeline   # claimhouse run, gold

The articles of every event labelled with fact ids are extracted, grouped into stories and
reconciled into facts. By default that runs in this process with silver's extractor and the
baseline's copy of gold's rules (``benchmarks/baseline.py``, held to gold by
``tests/integration/test_baseline_parity.py``); ``--pipeline`` runs ``claimhouse run`` on the
rebuilt texts into a scratch warehouse and reads its published gold instead.

Each labelled claim is matched to the claim that overlaps it best (``evaluation.basil.score``),
and so to the gold fact holding that claim. Then:

* fact purity: gold facts holding a labelled claim whose labelled claims all carry one fact
  id (also shown for facts holding two or more labelled claims, where a mix can occur);
* corroboration recall: labelled facts stated in two or more articles and found there whose
  found claims all land in one gold fact;
* conflict precision: gold facts flagged ``conflicting`` that are pure and hold a labelled
  conflict's fact;
* conflict recall: labelled conflicts whose claims from two or more of its outlets land in one
  gold fact flagged ``conflicting``;
* claim recall: labelled claims overlapped by an extracted claim (``evaluation.basil.score``).

Only events whose labels carry fact ids are scored. Held-out events are never read.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from evaluation.basil.labels import (
    LABELS_DIR,
    EventLabels,
    load_all,
    load_event,
    locate_all,
    read_bodies,
)
from evaluation.basil.rebuild import is_held_out, load_articles, write_articles
from evaluation.basil.score import match_article

REPO = Path(__file__).resolve().parents[2]
TARGETS = {
    "fact_purity": 0.95,
    "conflict_precision": 0.90,
    "claim_recall": 0.92,
    "corroboration_recall": 0.90,
    "conflict_recall": 0.95,
}


def _baseline():
    spec = importlib.util.spec_from_file_location("baseline", REPO / "benchmarks" / "baseline.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@dataclass
class Gold:
    """What gold built: facts (gold.facts rows), claim_id -> fact_id, claims per article."""

    facts: dict[str, dict]
    fact_of: dict[str, str]
    claims: dict[str, list]  # article stem -> claims (attribute access: char_start, kind...)
    conflicts: list[dict] = field(default_factory=list)


class _Row(dict):
    __getattr__ = dict.get


def build_in_process(texts: Path, stems: list[str]) -> Gold:
    """Bronze's parser, silver's extractor, the stories' linkage and gold's reconciliation,
    each as the baseline runs them. silver.claims' contract (Spark SQL) is not applied: its
    rules stop malformed rows, which the extractor does not write; `--pipeline` applies it."""
    from lake.bronze.parse import parse_file
    from lake.silver.extract import extract_claims

    base = _baseline()
    articles, stem_of = {}, {}
    for stem in stems:
        path = texts / f"{stem}.txt"
        sidecar = path.with_suffix(".json")
        parsed = parse_file(
            path.name,
            path.read_bytes(),
            sidecar.name if sidecar.exists() else None,
            sidecar.read_bytes() if sidecar.exists() else None,
        )
        articles[parsed.article_id] = {"source_uri": path.name, **vars(parsed)}
        stem_of[parsed.article_id] = stem
    rows = []
    by_stem: dict[str, list] = defaultdict(list)
    for a in articles.values():
        for claim in extract_claims(a["article_id"], a["body"], a["published_at"], a["outlet"]):
            row = claim.as_row()
            rows.append(row)
            by_stem[stem_of[a["article_id"]]].append(_Row(row))
    story = base.group_stories(articles)
    facts, evidence, conflicts = base.reconcile(rows, story)
    return Gold(
        {f["fact_id"]: f for f in facts},
        {e["claim_id"]: e["fact_id"] for e in evidence},
        dict(by_stem),
        conflicts,
    )


def build_with_pipeline(texts: Path, stems: list[str], warehouse: Path) -> Gold:
    """`claimhouse run` on the texts, then gold.facts, gold.fact_evidence and silver.claims."""
    inputs = warehouse.parent / "input"
    inputs.mkdir(parents=True, exist_ok=True)
    for stem in stems:
        for suffix in (".txt", ".json"):
            src = texts / f"{stem}{suffix}"
            if src.exists():
                (inputs / src.name).write_bytes(src.read_bytes())
    claimhouse = REPO / ".venv" / "bin" / "claimhouse"
    env = {**os.environ, "CLAIMHOUSE_SETTLE_S": "0"}
    run = [str(claimhouse), "run", "--input", str(inputs), "--warehouse", str(warehouse)]
    if subprocess.run(run, env=env, stdout=sys.stderr).returncode:
        raise SystemExit("claimhouse run failed (its error is above): no figures")

    def query(sql: str) -> list[dict]:
        cmd = [str(claimhouse), "sql", sql, "--warehouse", str(warehouse)]
        out = subprocess.run(
            [*cmd, "--format", "json", "--limit", "0", "--local"],
            check=True,
            env=env,
            capture_output=True,
            text=True,
        ).stdout
        return json.loads(out[out.index("[") :])

    facts = query("SELECT * FROM gold.facts")
    evidence = query("SELECT fact_id, claim_id FROM gold.fact_evidence")
    conflicts = query("SELECT * FROM gold.fact_conflicts")
    claims = query(
        "SELECT c.*, a.source_uri FROM silver.claims c JOIN bronze.articles a USING (article_id)"
    )
    by_stem: dict[str, list] = defaultdict(list)
    for c in claims:
        by_stem[Path(c["source_uri"]).stem].append(_Row(c))
    return Gold(
        {f["fact_id"]: f for f in facts},
        {e["claim_id"]: e["fact_id"] for e in evidence},
        dict(by_stem),
        conflicts,
    )


@dataclass
class EventScore:
    event: str
    labelled_claims: int = 0
    found_claims: int = 0
    facts_with_labels: int = 0
    pure_facts: int = 0
    multi_facts: int = 0
    pure_multi_facts: int = 0
    multi_article_facts: int = 0
    corroborated: int = 0
    flagged: int = 0
    real_flagged: int = 0
    conflicts: int = 0
    conflicts_found: int = 0
    impure: list[dict] = field(default_factory=list)
    split: list[dict] = field(default_factory=list)
    false_alarms: list[dict] = field(default_factory=list)
    missed_conflicts: list[str] = field(default_factory=list)


def score_event(labels: EventLabels, bodies: dict[str, str], gold: Gold) -> EventScore:
    s = EventScore(labels.event)
    # labelled claim -> (fact id, outlet, the gold fact its best claim landed in)
    placed: list[tuple[str, str, str | None, object]] = []
    for article in labels.articles:
        body = bodies[article.stem]
        locate_all(article, body)
        results, _ = match_article(labels.event, article, body, gold.claims.get(article.stem, []))
        for r in results:
            s.labelled_claims += 1
            s.found_claims += r.found
            fact_id = gold.fact_of.get(r.best.claim_id) if r.found else None
            placed.append((r.fact.fact, article.outlet, fact_id, r))
    ids_in: dict[str, list] = defaultdict(list)
    for label_id, outlet, fact_id, r in placed:
        if fact_id is not None:
            ids_in[fact_id].append((label_id, outlet, r))
    conflict_ids = {c.get("fact") for c in labels.conflicts}
    for fact_id, members in ids_in.items():
        fact = gold.facts[fact_id]
        ids = {m[0] for m in members}
        s.facts_with_labels += 1
        s.pure_facts += len(ids) == 1
        if len(members) >= 2:
            s.multi_facts += 1
            s.pure_multi_facts += len(ids) == 1
        if len(ids) > 1:
            s.impure.append(_describe(fact, members, labels))
        if fact["status"] == "conflicting":
            s.flagged += 1
            real = len(ids) == 1 and ids <= conflict_ids
            s.real_flagged += real
            if not real:
                s.false_alarms.append(_describe(fact, members, labels))
    by_label: dict[str, list] = defaultdict(list)
    for label_id, outlet, fact_id, r in placed:
        by_label[label_id].append((outlet, fact_id, r))
    for label_id, members in by_label.items():
        found = [m for m in members if m[2].found]
        if len({m[0] for m in members}) < 2 or len({m[0] for m in found}) < 2:
            continue
        s.multi_article_facts += 1
        landed = {m[1] for m in found}
        if len(landed) == 1 and None not in landed:
            s.corroborated += 1
        else:
            s.split.append(
                {
                    "fact": label_id,
                    "words": labels.facts.get(label_id),
                    "claims": [
                        f"{o} {r.fact.text!r} -> "
                        + (gold.facts[f]["measure_key"] if f else "no gold fact")
                        for o, f, r in found
                    ],
                }
            )
    for conflict in labels.conflicts:
        label_id = conflict.get("fact")
        s.conflicts += 1
        outlets = set(conflict.get("values") or {})
        hit = False
        for fact_id, members in ids_in.items():
            if gold.facts[fact_id]["status"] != "conflicting":
                continue
            if len({o for lid, o, _ in members if lid == label_id} & outlets) >= 2:
                hit = True
        s.conflicts_found += hit
        if not hit:
            s.missed_conflicts.append(label_id)
    return s


def _describe(fact: dict, members: list, labels: EventLabels) -> dict:
    return {
        "measure_key": fact["measure_key"],
        "status": fact["status"],
        "claims": [f"{o} {r.fact.text!r} [{lid}]" for lid, o, r in members],
    }


def _ratio(num: int, den: int) -> float | None:
    return None if den == 0 else round(num / den, 3)


def summary(scores: list[EventScore]) -> dict:
    def total(name: str) -> int:
        return sum(getattr(s, name) for s in scores)

    return {
        "events": len(scores),
        "claim_recall": _ratio(total("found_claims"), total("labelled_claims")),
        "fact_purity": _ratio(total("pure_facts"), total("facts_with_labels")),
        "multi_claim_fact_purity": _ratio(total("pure_multi_facts"), total("multi_facts")),
        "corroboration_recall": _ratio(total("corroborated"), total("multi_article_facts")),
        "conflict_precision": _ratio(total("real_flagged"), total("flagged")),
        "conflict_recall": _ratio(total("conflicts_found"), total("conflicts")),
        "counts": {
            name: total(name)
            for name in (
                "labelled_claims",
                "found_claims",
                "facts_with_labels",
                "pure_facts",
                "multi_facts",
                "pure_multi_facts",
                "multi_article_facts",
                "corroborated",
                "flagged",
                "real_flagged",
                "conflicts",
                "conflicts_found",
            )
        },
    }


def report(scores: list[EventScore]) -> dict:
    return {
        "overall": summary(scores),
        "targets": TARGETS,
        "per_event": {s.event: summary([s]) for s in scores},
        "impure_facts": {s.event: s.impure for s in scores if s.impure},
        "split_facts": {s.event: s.split for s in scores if s.split},
        "false_alarms": {s.event: s.false_alarms for s in scores if s.false_alarms},
        "missed_conflicts": {s.event: s.missed_conflicts for s in scores if s.missed_conflicts},
    }


def _fmt(x: float | None) -> str:
    return "  n/a" if x is None else f"{x:5.3f}"


def render(data: dict) -> str:
    cols = [
        ("claim_recall", "claims"),
        ("fact_purity", "purity"),
        ("multi_claim_fact_purity", "multi"),
        ("corroboration_recall", "corrob"),
        ("conflict_precision", "c.prec"),
        ("conflict_recall", "c.rec"),
    ]
    head = f"{'event':38} " + " ".join(f"{label:>6}" for _, label in cols)
    lines = [head]
    for event, s in data["per_event"].items():
        lines.append(f"{event:38} " + " ".join(f"{_fmt(s[k]):>6}" for k, _ in cols))
    o = data["overall"]
    lines.append(
        f"{'all ' + str(o['events']) + ' events':38} "
        + " ".join(f"{_fmt(o[k]):>6}" for k, _ in cols)
    )
    c = o["counts"]
    lines += [
        "",
        f"claim recall          {_fmt(o['claim_recall'])} ({c['found_claims']}/"
        f"{c['labelled_claims']})   target >= {TARGETS['claim_recall']}",
        f"fact purity           {_fmt(o['fact_purity'])} ({c['pure_facts']}/"
        f"{c['facts_with_labels']} gold facts holding a labelled claim)   target >= "
        f"{TARGETS['fact_purity']}",
        f"  of facts with 2+    {_fmt(o['multi_claim_fact_purity'])} ({c['pure_multi_facts']}/"
        f"{c['multi_facts']})",
        f"corroboration recall  {_fmt(o['corroboration_recall'])} ({c['corroborated']}/"
        f"{c['multi_article_facts']} labelled facts found in 2+ articles)   target >= "
        f"{TARGETS['corroboration_recall']}",
        f"conflict precision    {_fmt(o['conflict_precision'])} ({c['real_flagged']}/"
        f"{c['flagged']} flagged)   target >= {TARGETS['conflict_precision']}",
        f"conflict recall       {_fmt(o['conflict_recall'])} ({c['conflicts_found']}/"
        f"{c['conflicts']} labelled)   target >= {TARGETS['conflict_recall']}",
    ]
    for title, key in (
        ("facts mixing quantities", "impure_facts"),
        ("conflicts flagged that are not real", "false_alarms"),
        ("labelled facts split across gold facts", "split_facts"),
    ):
        rows = [(e, r) for e, rs in data[key].items() for r in rs]
        lines += ["", f"{title}: {len(rows)}"]
        for event, r in rows:
            what = r.get("measure_key") or f"{r['fact']} ({r.get('words')})"
            lines.append(f"  {event[:8]} {what} {r.get('status', '')}: " + "; ".join(r["claims"]))
    missed = [(e, f) for e, fs in data["missed_conflicts"].items() for f in fs]
    lines += ["", f"labelled conflicts not flagged: {len(missed)}"]
    lines += [f"  {e[:8]} {f}" for e, f in missed]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Score gold's facts against BASIL's fact ids.")
    ap.add_argument("--repo", required=True, help="fetched launchnlp/BASIL")
    ap.add_argument("--labels", default=str(LABELS_DIR), help="folder of <event>.yaml labels")
    ap.add_argument("--events", nargs="*", help="only these event ids")
    ap.add_argument("--pipeline", action="store_true", help="claimhouse run, then its gold")
    ap.add_argument("--json", action="store_true", help="the full report as JSON")
    args = ap.parse_args(argv)
    if args.events and any(is_held_out(e) for e in args.events):
        print("held-out events are never scored", file=sys.stderr)
        return 2
    folder = Path(args.labels)
    events = load_all(folder) if folder.is_dir() else [load_event(folder)]
    events = [e for e in events if e.fact_ids() and (not args.events or e.event in args.events)]
    if not events:
        print("no labelled events carry fact ids", file=sys.stderr)
        return 2
    stems = [a.stem for e in events for a in e.articles]
    with tempfile.TemporaryDirectory(prefix="basil-facts-") as tmp:
        texts = Path(tmp) / "texts"
        write_articles(load_articles(args.repo, sorted({e.event for e in events})), texts)
        bodies = read_bodies(texts, stems)
        if args.pipeline:
            gold = build_with_pipeline(texts, stems, Path(tmp) / "warehouse")
        else:
            gold = build_in_process(texts, stems)
        data = report([score_event(e, bodies, gold) for e in events])
    data["built_by"] = "claimhouse run" if args.pipeline else "in process (baseline)"
    data["date"] = datetime.now(UTC).strftime("%Y-%m-%d")
    print(json.dumps(data, indent=2, ensure_ascii=False) if args.json else render(data))
    return 0


if __name__ == "__main__":
    sys.exit(main())
