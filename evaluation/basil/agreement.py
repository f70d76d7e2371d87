"""Agreement of two labellers on fact identity, for the events both labelled.

    python -m evaluation.basil.agreement [--first labels/] [--second labels_second/] [--json]

Each label file lists the same claims in the same order (the second labeller's copy carries
the claims' places and values, not the first labeller's `counted` words, fact ids or
conflicts); each labeller gave every claim a fact id. Agreement is measured on the partition
of an event's claims into facts:

* pairwise: over pairs of claims, "same fact" as the first labeller says against the second
  (precision, recall and F1 of the second's pairs against the first's, and Cohen's kappa over
  all pairs);
* B-cubed F1 (each claim's share of its fact that both labellers put with it);
* conflicts: the facts each labeller flags, compared as sets of claims.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from pathlib import Path

import yaml

from evaluation.basil.labels import LABELS_DIR
from evaluation.basil.rebuild import is_held_out

SECOND_DIR = LABELS_DIR.parent / "labels_second"


def _claims(path: Path) -> tuple[list[tuple[str, int, str]], dict, list[dict]]:
    """[(outlet, index, fact id)], {fact id: words}, conflicts."""
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    rows = [
        (a["outlet"], i, str(f.get("fact")))
        for a in data["articles"]
        for i, f in enumerate(a.get("facts") or [])
    ]
    return rows, data.get("facts") or {}, data.get("conflicts") or []


def _pairs(rows: list[tuple[str, int, str]]) -> set[tuple]:
    by_fact: dict[str, list] = {}
    for outlet, i, fact in rows:
        by_fact.setdefault(fact, []).append((outlet, i))
    return {tuple(sorted(p)) for ms in by_fact.values() for p in itertools.combinations(ms, 2)}


def _bcubed(first: list[tuple], second: list[tuple]) -> tuple[float, float]:
    f1 = {(o, i): f for o, i, f in first}
    f2 = {(o, i): f for o, i, f in second}
    prec = rec = 0.0
    for c in f1:
        same1 = {d for d in f1 if f1[d] == f1[c]}
        same2 = {d for d in f2 if f2[d] == f2[c]}
        both = len(same1 & same2)
        prec += both / len(same2)
        rec += both / len(same1)
    return prec / len(f1), rec / len(f1)


def _conflict_claims(rows: list[tuple], conflicts: list[dict]) -> set[frozenset]:
    by_fact: dict[str, set] = {}
    for outlet, i, fact in rows:
        by_fact.setdefault(fact, set()).add((outlet, i))
    return {frozenset(by_fact.get(str(c.get("fact")), set())) for c in conflicts}


def compare(first: Path, second: Path) -> dict:
    r1, _, c1 = _claims(first)
    r2, _, c2 = _claims(second)
    if [(o, i) for o, i, _ in r1] != [(o, i) for o, i, _ in r2]:
        raise ValueError(f"{second.name}: its claims are not the first labeller's")
    p1, p2 = _pairs(r1), _pairs(r2)
    n = len(r1)
    total = n * (n - 1) // 2
    both, only1, only2 = len(p1 & p2), len(p1 - p2), len(p2 - p1)
    neither = total - both - only1 - only2
    observed = (both + neither) / total if total else 1.0
    yes1, yes2 = len(p1) / total if total else 0, len(p2) / total if total else 0
    expected = yes1 * yes2 + (1 - yes1) * (1 - yes2)
    kappa = (observed - expected) / (1 - expected) if expected < 1 else 1.0
    bp, br = _bcubed(r1, r2)
    k1, k2 = _conflict_claims(r1, c1), _conflict_claims(r2, c2)
    return {
        "claims": n,
        "facts_first": len({f for *_, f in r1}),
        "facts_second": len({f for *_, f in r2}),
        "pairs_first": len(p1),
        "pairs_second": len(p2),
        "pairs_both": both,
        "pair_precision": round(both / len(p2), 3) if p2 else None,
        "pair_recall": round(both / len(p1), 3) if p1 else None,
        "pair_f1": round(2 * both / (len(p1) + len(p2)), 3) if p1 or p2 else None,
        "pair_kappa": round(kappa, 3),
        "bcubed_f1": round(2 * bp * br / (bp + br), 3),
        "conflicts_first": len(k1),
        "conflicts_second": len(k2),
        "conflicts_both": len(k1 & k2),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Agreement of two labellers on fact identity.")
    ap.add_argument("--first", default=str(LABELS_DIR))
    ap.add_argument("--second", default=str(SECOND_DIR))
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    results = {}
    for second in sorted(Path(args.second).glob("*.yaml")):
        if is_held_out(second.stem):
            continue
        first = Path(args.first) / second.name
        if first.exists():
            results[second.stem] = compare(first, second)
    if not results:
        print("no event is labelled by both", file=sys.stderr)
        return 2
    keys = ("pairs_first", "pairs_second", "pairs_both")
    pooled = {k: sum(r[k] for r in results.values()) for k in keys}
    pooled["pair_precision"] = round(pooled["pairs_both"] / pooled["pairs_second"], 3)
    pooled["pair_recall"] = round(pooled["pairs_both"] / pooled["pairs_first"], 3)
    pooled["pair_f1"] = round(
        2 * pooled["pairs_both"] / (pooled["pairs_first"] + pooled["pairs_second"]), 3
    )
    for k in ("claims", "conflicts_first", "conflicts_second", "conflicts_both"):
        pooled[k] = sum(r[k] for r in results.values())
    pooled["mean_kappa"] = round(sum(r["pair_kappa"] for r in results.values()) / len(results), 3)
    pooled["mean_bcubed_f1"] = round(
        sum(r["bcubed_f1"] for r in results.values()) / len(results), 3
    )
    if args.json:
        print(json.dumps({"events": results, "pooled": pooled}, indent=2))
        return 0
    print(f"{'event':38} {'claims':>6} {'facts':>9} {'pairs':>11} {'pairF1':>6} {'kappa':>6} "
          f"{'B3 F1':>6} {'conflicts':>9}")  # fmt: skip
    for event, r in results.items():
        print(
            f"{event:38} {r['claims']:6d} {r['facts_first']:4d}/{r['facts_second']:<4d} "
            f"{r['pairs_first']:5d}/{r['pairs_second']:<5d} {r['pair_f1'] or 0:6.3f} "
            f"{r['pair_kappa']:6.3f} {r['bcubed_f1']:6.3f} "
            f"{r['conflicts_both']}/{r['conflicts_first']}/{r['conflicts_second']:<5d}"
        )
    p = pooled
    print(
        f"pooled: {p['claims']} claims; same-fact pairs first {p['pairs_first']}, second "
        f"{p['pairs_second']}, both {p['pairs_both']}: precision {p['pair_precision']}, recall "
        f"{p['pair_recall']}, F1 {p['pair_f1']}; mean kappa {p['mean_kappa']}, mean B-cubed F1 "
        f"{p['mean_bcubed_f1']}; conflicts both/first/second {p['conflicts_both']}/"
        f"{p['conflicts_first']}/{p['conflicts_second']}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
