"""Extractor accuracy on the hand-labelled seed corpus (tests/fixtures/seed_claims.yaml)."""

from __future__ import annotations

from pathlib import Path

from evaluation.claims import score, score_folder

from ..conftest import SEEDS

LABELS = Path(__file__).resolve().parent.parent / "fixtures" / "seed_claims.yaml"


def test_seed_precision_recall_and_attribution():
    result = score_folder(LABELS, SEEDS)
    assert result["labels"] == 48
    assert result["precision"] >= 0.9, result["extras"]
    assert result["recall"] >= 0.9, result["misses"]
    assert result["attribution_accuracy"] >= 0.9, result["misses"]


def test_scorer_counts_misses_and_extras():
    label = {
        "text": "about 5 troops",
        "start": 10,
        "kind": "count",
        "value": 5.0,
        "attribution_kind": "unattributed",
    }
    hit = {
        "char_start": 16,
        "char_end": 17,
        "claim_text": "5",
        "kind": "count",
        "value": 5.0,
        "attribution_kind": "named_person",
    }
    wrong_value = {**hit, "value": 6.0}
    result = score({"a": [hit, wrong_value]}, {"a": [label, {**label, "start": 40}]})
    assert (result["matched"], result["precision"], result["recall"]) == (1, 0.5, 0.5)
    assert result["attribution_accuracy"] == 0.0
    assert len(result["extras"]) == 1
