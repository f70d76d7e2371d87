"""The fact scorer against a synthetic corpus's truth: crafted gold rows, counted by hand."""

from __future__ import annotations

from lake.gold.score import score_synthetic

TRUTH = [
    {  # matched, status right, its planted conflict found
        "kind": "count",
        "true_value": 571.0,
        "supporting_articles": ["a1", "a2", "a3"],
        "contradicting_articles": ["a4"],
        "conflict_value": 860.0,
        "expected_status": "conflicting",
    },
    {  # matched by month and day (the article gave no year), status wrong
        "kind": "date",
        "true_value": "2025-05-20",
        "supporting_articles": ["a1", "a2"],
        "contradicting_articles": [],
        "conflict_value": None,
        "expected_status": "corroborated",
    },
    {  # gold has the value but on other articles (Jaccard 1/3): a miss, conflict not found
        "kind": "money",
        "true_value": 1.3e9,
        "supporting_articles": ["a5", "a6"],
        "contradicting_articles": [],
        "conflict_value": 1.9e9,
        "expected_status": "conflicting",
    },
]


def _fact(fact_id, kind, value, text, articles, status):
    return {
        "fact_id": fact_id,
        "kind": kind,
        "consensus_value": value,
        "consensus_text": text,
        "articles": articles,
        "status": status,
    }


def test_facts_and_conflicts_are_scored_against_the_truth():
    facts = [
        _fact("f1", "count", 571.0, "571", ["id1", "id2", "id3", "id4"], "conflicting"),
        _fact("f2", "date", None, "--05-20", ["id1", "id2", "id3"], "single_source"),
        _fact("f3", "money", 1.3e9, "1300000000", ["id5", "id7", "id8"], "conflicting"),
        _fact("f4", "count", 12.0, "12", ["id9"], "single_source"),  # nothing true: extra
        _fact("f5", "count", None, None, ["id9"], "single_source"),  # no value: not scored
    ]
    conflicts = [
        {"fact_id": "f1", "value_a": "860", "value_b": "571"},
        {"fact_id": "f3", "value_a": "1300000000", "value_b": "1900000000"},
    ]
    keys = {f"id{i}": f"a{i}" for i in range(1, 10)}
    assert score_synthetic(facts, conflicts, TRUTH, keys) == {
        "true_facts": 3,
        "gold_facts": 4,
        "gold_facts_without_value": 1,
        "matched": 2,
        "fact_precision": 0.5,
        "fact_recall": 0.667,
        "fact_f1": 0.571,
        "status_accuracy": 0.5,
        "planted_conflicts": 2,
        "conflicts_found": 1,
        "conflict_recall": 0.5,
    }
