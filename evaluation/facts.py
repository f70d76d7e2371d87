"""Score gold facts and conflicts against hand-labelled facts: precision, recall, status, conflicts.

    python -m evaluation.facts tests/fixtures/seed_facts.yaml [--warehouse DIR]

Articles are named in the labels by the first three characters of their file name ("002"). A
gold fact matches a labelled fact when kind (and per, when labelled) and consensus value are
equal and their article sets overlap by at least half (Jaccard >= 0.5); each label matches at
most one fact. Facts without any value (consensus null) are counted apart, not scored.
"""

from __future__ import annotations

import json
import re
import sys
from datetime import time
from pathlib import Path

import yaml

from lake.silver import kinds as KINDS
from synthetic import vocabulary as V


def _jaccard(a: set[str], b: set[str]) -> float:
    return len(a & b) / len(a | b) if a | b else 0.0


def score_facts(
    facts: list[dict], conflicts: list[dict], labels: dict, article_names: dict[str, str]
) -> dict:
    """facts / conflicts: rows of gold.facts / gold.fact_conflicts as dicts;
    article_names: article_id -> the label's article name ("002")."""

    def names(ids) -> set[str]:
        return {article_names.get(i, i) for i in ids or []}

    scored = [f for f in facts if f.get("consensus_text") is not None]
    matched: dict[str, dict] = {}  # label name -> fact
    used: set[str] = set()
    for label in labels["facts"]:
        best, best_j = None, 0.0
        for fact in scored:
            if fact["fact_id"] in used or fact["kind"] != label["kind"]:
                continue
            if label.get("per") and fact.get("per") != label["per"]:
                continue
            if fact["consensus_text"] != label["consensus"]:
                continue
            j = _jaccard(names(fact["articles"]), set(label["articles"]))
            if j >= 0.5 and j > best_j:
                best, best_j = fact, j
        if best is not None:
            matched[label["name"]] = best
            used.add(best["fact_id"])

    status_misses = [
        f"{name}: status {fact['status']} != {label['status']}"
        for label in labels["facts"]
        if (name := label["name"]) in matched
        and (fact := matched[name])["status"] != label["status"]
    ]
    conflict_results = []
    for label in labels["facts"]:
        for want in label.get("conflicts", []):
            fact = matched.get(label["name"])
            found = fact is not None and any(
                c["fact_id"] == fact["fact_id"]
                and {c["value_a"], c["value_b"]} == {want["value_a"], want["value_b"]}
                and (names(c["articles_a"]), names(c["articles_b"]))
                in (
                    (set(want["articles_a"]), set(want["articles_b"])),
                    (set(want["articles_b"]), set(want["articles_a"])),
                )
                for c in conflicts
            )
            values = [want["value_a"], want["value_b"]]
            conflict_results.append({"fact": label["name"], "values": values, "found": found})
    precision = len(matched) / len(scored) if scored else 0.0
    recall = len(matched) / len(labels["facts"]) if labels["facts"] else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {
        "labelled_facts": len(labels["facts"]),
        "gold_facts": len(scored),
        "gold_facts_without_value": len(facts) - len(scored),
        "matched": len(matched),
        "precision": round(precision, 3),
        "recall": round(recall, 3),
        "f1": round(f1, 3),
        "status_accuracy": round(1 - len(status_misses) / len(matched), 3) if matched else 0.0,
        "conflicts": conflict_results,
        "conflict_recall": round(
            sum(c["found"] for c in conflict_results) / len(conflict_results), 3
        )
        if conflict_results
        else None,
        "missed_facts": [lab["name"] for lab in labels["facts"] if lab["name"] not in matched],
        "extra_facts": sorted(
            f"{f['measure_key']} = {f['consensus_text']} ({','.join(sorted(names(f['articles'])))})"
            for f in scored
            if f["fact_id"] not in used
        ),
        "status_misses": status_misses,
    }


def score_lake(spark, warehouse: Path, labels_path: Path) -> dict:
    """Score the gold tables of a warehouse (small: the labelled corpus) against a label file."""
    from lake.storage import Lake

    lake = Lake(spark, warehouse)
    articles = lake.read("bronze.articles").select("article_id", "source_uri").collect()
    article_names = {r["article_id"]: Path(r["source_uri"]).name[:3] for r in articles}
    facts = [r.asDict() for r in lake.read("gold.facts").collect()]
    conflicts = [r.asDict() for r in lake.read("gold.fact_conflicts").collect()]
    labels = yaml.safe_load(labels_path.read_text())
    return score_facts(facts, conflicts, labels, article_names)


def main(argv: list[str]) -> int:
    from lake.config import load_settings
    from lake.spark import get_spark

    labels = Path(argv[0]) if argv else Path("tests/fixtures/seed_facts.yaml")
    warehouse = argv[argv.index("--warehouse") + 1] if "--warehouse" in argv else None
    settings = load_settings(warehouse=warehouse)
    print(json.dumps(score_lake(get_spark(settings), settings.warehouse, labels), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))


def _same_value(kind: str, gold_value: float | None, gold_text: str | None, true) -> bool:
    """A gold value equals a true one: numbers to 1e-6 relative, dates as ISO text; a date
    stated without its year ("--05-20") equals a true date on the same month and day."""
    if true is None:
        return False
    if kind == "date":
        text = gold_text or ""
        return text == true or (text.startswith("--") and text == f"--{str(true)[5:]}")
    if gold_value is None:
        try:
            gold_value = float((gold_text or "").replace(",", ""))
        except ValueError:
            return False
    return abs(gold_value - float(true)) <= 1e-6 * max(1.0, abs(float(true)))


def _in_gold_unit(kind: str, value, unit: str | None):
    """A true value in the unit gold compares its kind in (its kind's gold_unit: a length in
    meters, a duration in days), as gold.facts' consensus values are; as it is otherwise."""
    spec = KINDS.BY_NAME.get(kind)
    if value is None or spec is None or spec.gold_unit is None or unit not in spec.units:
        return value
    return float(value) * spec.units[unit] / spec.units[spec.gold_unit]


# A fact's bounds pin a value when they hold it and span at most this share of the upper bound:
# "about 180,000" with "at least 178,000" is [178,000, 198,000] and pins a true 178,000.
PINNED_SHARE = 0.2


def _fact_has_value(fact: dict, kind: str, true) -> bool:
    """The fact states the true value: its consensus equals it, or its consensus bounds
    (consensus_lower / consensus_upper, numbers only) hold it and are narrow (PINNED_SHARE)."""
    if _same_value(kind, fact.get("consensus_value"), fact.get("consensus_text"), true):
        return True
    lower, upper = fact.get("consensus_lower"), fact.get("consensus_upper")
    if kind == "date" or true is None or lower is None or upper is None:
        return False
    value = float(true)
    return lower <= value <= upper and upper - lower <= PINNED_SHARE * abs(upper)


# A conflict side's value is the value its anchor claim states: "about 23%" stands for a true
# 22.9%. Planted conflicts differ by 30% or more, so 10% cannot confuse the two sides.
CONFLICT_SIDE_TOLERANCE = 0.1


# The corpus's vague amounts, by the words gold keeps as their value_text ("thousands",
# "tens of millions"): a side stated vaguely holds the values of its range.
_VAGUE_RANGES = {phrase: (low, high) for phrase, low, high, _ in V.VAGUE_COUNTS} | {
    phrase.removesuffix(" of dollars"): (low, high) for phrase, low, high in V.VAGUE_MONEY
}


# A conflict side stating a clock time ("21:30-05:00") names the true one within this many
# minutes ("about 9:30 p.m."); planted times differ by two hours or more.
CONFLICT_SIDE_MINUTES = 15


def _utc_minutes(text: str | None) -> float | None:
    """'21:30-05:00' -> 150.0 (minutes after midnight UTC); None without an offset."""
    try:
        local = time.fromisoformat(text or "")
    except ValueError:
        return None
    offset = local.utcoffset()
    if offset is None:
        return None
    return (local.hour * 60 + local.minute - offset.total_seconds() // 60) % 1440


def _near(kind: str, side_text: str | None, true) -> bool:
    """A conflict side states a value: the same one, for numbers one within 10%, or a vague
    amount or stated range holding it ("thousands" or "9000-10000" for a planted 9,800); for a
    clock time, one within 15 minutes in UTC."""
    if kind == "time":
        side = _utc_minutes(side_text)
        return (
            side is not None
            and true is not None
            and (abs(side - float(true)) <= CONFLICT_SIDE_MINUTES)
        )
    if _same_value(kind, None, side_text, true):
        return True
    if kind == "date" or true is None:
        return False
    stated = re.fullmatch(r"(\d+(?:\.\d+)?)-(\d+(?:\.\d+)?)", side_text or "")
    if stated:
        return float(stated.group(1)) <= float(true) <= float(stated.group(2))
    try:
        side = float((side_text or "").replace(",", ""))
    except ValueError:
        if kind not in ("count", "rate", "money"):
            return False  # "dozens" says nothing about a percent
        low, high = _VAGUE_RANGES.get((side_text or "").lower(), (None, None))
        return low is not None and low <= float(true) <= high
    return abs(side - float(true)) <= CONFLICT_SIDE_TOLERANCE * abs(float(true))


def _is_minority(
    kind: str, side_text: str | None, side_articles: list[str] | None, true: dict, keys: dict
) -> bool:
    """A conflict side is the planted minority: it states the planted value, or it holds an
    article the truth lists as contradicting."""
    articles = {keys.get(a, a) for a in side_articles or []}
    return _near(kind, side_text, true["conflict_value"]) or bool(
        articles & set(true["contradicting_articles"])
    )


def score_synthetic(
    facts: list[dict],
    conflicts: list[dict],
    truth_facts: list[dict],
    article_keys: dict,
    labelled: set[str] | None = None,
) -> dict:
    """Fact precision / recall / F1 and conflict recall against a synthetic corpus's
    truth/facts.jsonl. article_keys: article_id -> the truth's article key (file stem).

    A gold fact matches a true fact when kinds agree, the fact states the true value (its
    consensus equals it, or its consensus bounds pin it: `_fact_has_value`) and
    the article sets (gold's `articles`; the truth's supporting and contradicting articles)
    overlap by Jaccard >= 0.5; each true fact matches at most one gold fact, the best one. A
    planted conflict is found when its matched fact has a conflict row with the true value on
    one side (within 10% for numbers: `_near`) and, on the other, the planted value or an
    article the truth lists as contradicting: a minority that writes "more than 3,000,000" for
    a planted 3.8 million is flagged though no side can state 3.8 million.

    `labelled`: the gold facts holding a planted claim (_planted_members). Given, the
    precision is also reported over those only: the truth does not label every figure an
    article states ("said Tuesday"), and a fact of such figures can be judged neither way."""
    scored = [f for f in facts if f.get("consensus_text") is not None]
    # Only a fact sharing an article can overlap: index facts by (kind, article) so scoring
    # stays linear at 100k articles; candidates keep the facts' order (ties go to the first).
    by_article: dict[tuple[str, str], list[int]] = {}
    for i, fact in enumerate(scored):
        for a in {article_keys.get(a, a) for a in fact["articles"] or []}:
            by_article.setdefault((fact["kind"], a), []).append(i)
    conflicts_by_fact: dict[str, list[dict]] = {}
    for row in conflicts:
        conflicts_by_fact.setdefault(row["fact_id"], []).append(row)
    used: set[str] = set()
    matched = status_right = planted = found = 0
    for true in truth_facts:
        want = set(true["supporting_articles"]) | set(true["contradicting_articles"])
        best, best_j = None, 0.0
        in_gold_unit = _in_gold_unit(true["kind"], true["true_value"], true.get("unit"))
        candidates = sorted({i for a in want for i in by_article.get((true["kind"], a), [])})
        for fact in (scored[i] for i in candidates):
            if fact["fact_id"] in used:
                continue
            if not _fact_has_value(fact, true["kind"], in_gold_unit):
                continue
            j = _jaccard({article_keys.get(a, a) for a in fact["articles"] or []}, want)
            if j >= 0.5 and j > best_j:
                best, best_j = fact, j
        if best is not None:
            matched += 1
            used.add(best["fact_id"])
            status_right += best["status"] == true["expected_status"]
        if true.get("conflict_value") is None:
            continue
        planted += 1
        kind, value = true["kind"], true["true_value"]
        if best is not None and any(
            _near(kind, row["value_a"], value)
            and _is_minority(kind, row["value_b"], row.get("articles_b"), true, article_keys)
            or _near(kind, row["value_b"], value)
            and _is_minority(kind, row["value_a"], row.get("articles_a"), true, article_keys)
            for row in conflicts_by_fact.get(best["fact_id"], [])
        ):
            found += 1
    precision = matched / len(scored) if scored else 0.0
    recall = matched / len(truth_facts) if truth_facts else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    judged = {}
    if labelled is not None:
        held = [f for f in scored if f["fact_id"] in labelled]
        held_matched = sum(f["fact_id"] in used for f in held)
        precision_held = held_matched / len(held) if held else 0.0
        total = precision_held + recall
        f1_held = 2 * precision_held * recall / total if total else 0.0
        judged = {
            "gold_facts_holding_truth": len(held),
            "fact_precision_holding_truth": round(precision_held, 3),
            "fact_f1_holding_truth": round(f1_held, 3),
        }
    return {
        **judged,
        "true_facts": len(truth_facts),
        "gold_facts": len(scored),
        "gold_facts_without_value": len(facts) - len(scored),
        "matched": matched,
        "fact_precision": round(precision, 3),
        "fact_recall": round(recall, 3),
        "fact_f1": round(f1, 3),
        "status_accuracy": round(status_right / matched, 3) if matched else 0.0,
        "planted_conflicts": planted,
        "conflicts_found": found,
        "conflict_recall": round(found / planted, 3) if planted else None,
    }


def score_identity(
    evidence: list[dict], claims: list[dict], truth_claims: list[dict], article_keys: dict
) -> dict:
    """Do gold's facts each hold one true quantity? Against a synthetic corpus's
    truth/claims.jsonl, whose claims name their measure: fact purity (gold facts holding a true
    claim whose true claims name one measure; also of facts with two or more) and
    corroboration recall (true measures stated in two or more articles whose claims all land in
    one gold fact). evidence: gold.fact_evidence rows; claims: silver.claims rows. A gold claim
    states the planted claim whose span its own overlaps (_planted_members)."""
    members = _planted_members(evidence, claims, truth_claims, article_keys)
    multi = [ms for ms in members.values() if len(ms) > 1]
    landed: dict[str, set] = {}
    articles: dict[str, set] = {}
    for fact_id, ms in members.items():
        for measure, article in ms:
            landed.setdefault(measure, set()).add(fact_id)
            articles.setdefault(measure, set()).add(article)
    stated_twice = [m for m, a in articles.items() if len(a) > 1]

    def share(num: int, den: int) -> float | None:
        return round(num / den, 3) if den else None

    return {
        "fact_purity": share(
            sum(len({m for m, _ in ms}) == 1 for ms in members.values()), len(members)
        ),
        "multi_claim_fact_purity": share(
            sum(len({m for m, _ in ms}) == 1 for ms in multi), len(multi)
        ),
        "corroboration_recall": share(
            sum(len(landed[m]) == 1 for m in stated_twice), len(stated_twice)
        ),
    }


def _planted_members(
    evidence: list[dict], claims: list[dict], truth_claims: list[dict], article_keys: dict
) -> dict[str, list[tuple[str, str]]]:
    """gold fact id -> (true measure, article id) of each of its claims that states a planted
    claim: the first planted claim of its article whose span overlaps the claim's (the
    extractor's span may take in a word more or less than the truth's, "about 9,900 troops"
    for "about 9,900")."""
    planted: dict[str, list[tuple[int, int, str]]] = {}
    for c in truth_claims:
        planted.setdefault(c["article_key"], []).append(
            (c["char_start"], c["char_end"], c["measure"])
        )
    for spans in planted.values():
        spans.sort()
    by_claim = {c["claim_id"]: c for c in claims}
    members: dict[str, list[tuple[str, str]]] = {}
    for e in evidence:
        c = by_claim.get(e["claim_id"])
        if c is None:
            continue
        spans = planted.get(article_keys.get(c["article_id"], c["article_id"]), [])
        measure = next(
            (m for start, end, m in spans if start < c["char_end"] and c["char_start"] < end),
            None,
        )
        if measure is not None:
            members.setdefault(e["fact_id"], []).append((measure, c["article_id"]))
    return members


def score_corpus(
    facts: list[dict],
    conflicts: list[dict],
    evidence: list[dict],
    claims: list[dict],
    corpus_dir: Path,
    article_keys: dict,
) -> dict:
    """Every fact score against a synthetic corpus's truth: score_synthetic (its precision also
    over the facts holding a planted claim) and score_identity."""
    truth_claims = load_truth_claims(corpus_dir)
    labelled = set(_planted_members(evidence, claims, truth_claims, article_keys))
    scores = score_synthetic(
        facts, conflicts, load_truth_facts(corpus_dir), article_keys, labelled=labelled
    )
    scores.update(score_identity(evidence, claims, truth_claims, article_keys))
    return scores


def load_truth_claims(corpus_dir: Path) -> list[dict]:
    """A synthetic corpus's claims (truth/claims.jsonl), each naming its measure."""
    text = (corpus_dir / "truth" / "claims.jsonl").read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line]


def load_truth_facts(corpus_dir: Path) -> list[dict]:
    """A synthetic corpus's facts (truth/facts.jsonl)."""
    text = (corpus_dir / "truth" / "facts.jsonl").read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line]
