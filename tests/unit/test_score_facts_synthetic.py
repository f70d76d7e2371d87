"""The fact scorer against a synthetic corpus's truth: crafted gold rows, counted by hand."""

from __future__ import annotations

import json
from pathlib import Path

from evaluation.facts import _near, score_corpus, score_identity, score_synthetic

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


def _claims(*rows: tuple[str, str, int, int]) -> list[dict]:
    """silver.claims rows: (claim_id, article_id, char_start, char_end)."""
    return [
        {"claim_id": c, "article_id": a, "char_start": start, "char_end": end}
        for c, a, start, end in rows
    ]


def _evidence(*pairs: tuple[str, str]) -> list[dict]:
    """gold.fact_evidence rows: (fact_id, claim_id)."""
    return [{"fact_id": f, "claim_id": c} for f, c in pairs]


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


def test_bounds_that_pin_the_true_value_match_and_wide_or_open_ones_do_not():
    truth = [
        {
            "kind": "count",
            "true_value": tv,
            "supporting_articles": [f"a{i}"],
            "contradicting_articles": [],
            "conflict_value": None,
            "expected_status": "single_source",
        }
        for i, tv in enumerate([178_000.0, 45_000.0, 500.0, 7.0], start=1)
    ]
    facts = [
        # "about 180,000" and "at least 178,000": 178,000 to 198,000 pins 178,000 (10% wide)
        {
            **_fact("f1", "count", 180_000.0, "180000", ["id1"], "single_source"),
            "consensus_lower": 178_000.0,
            "consensus_upper": 198_000.0,
        },
        # "more than 40,000": holds 45,000 but caps nothing
        {
            **_fact("f2", "count", 40_000.0, "40000", ["id2"], "single_source"),
            "consensus_lower": 40_000.0,
            "consensus_upper": None,
        },
        # "up to 600": 0 to 600 holds 500 but is too wide to pin it
        {
            **_fact("f3", "count", 600.0, "600", ["id3"], "single_source"),
            "consensus_lower": 0.0,
            "consensus_upper": 600.0,
        },
        # bounds that miss the value
        {
            **_fact("f4", "count", 9.0, "9", ["id4"], "single_source"),
            "consensus_lower": 8.1,
            "consensus_upper": 9.9,
        },
    ]
    keys = {f"id{i}": f"a{i}" for i in range(1, 5)}
    scores = score_synthetic(facts, [], truth, keys)
    assert (scores["matched"], scores["fact_precision"], scores["fact_recall"]) == (1, 0.25, 0.25)


def _found(
    kind: str,
    true_value: float,
    conflict_value: float,
    side_a: str,
    side_b: str,
    articles_b: list[str] | None = None,
) -> int:
    """Conflicts found for one planted conflict (articles a1, a2 against a3) when gold's fact
    states the true value and has one conflict row side_a / side_b (side b's articles:
    articles_b, gold article ids)."""
    truth = [
        {
            "kind": kind,
            "true_value": true_value,
            "supporting_articles": ["a1", "a2"],
            "contradicting_articles": ["a3"],
            "conflict_value": conflict_value,
            "expected_status": "conflicting",
        }
    ]
    facts = [_fact("f1", kind, true_value, str(true_value), ["id1", "id2", "id3"], "conflicting")]
    keys = {f"id{i}": f"a{i}" for i in range(1, 4)}
    rows = [{"fact_id": "f1", "value_a": side_a, "value_b": side_b, "articles_b": articles_b}]
    return score_synthetic(facts, rows, truth, keys)["conflicts_found"]


def test_a_conflict_side_within_ten_percent_states_the_planted_value():
    assert _found("percent", 22.9, 32.4, "23", "32") == 1  # "about 23%" / "about 32%"
    assert _found("percent", 22.9, 32.4, "22.9", "40") == 0
    assert _found("percent", 22.9, 32.4, "22.9", "dozens") == 0  # 24-99, but not a percent


def test_a_vague_conflict_side_holding_the_planted_value_states_it():
    assert _found("count", 17300.0, 9800.0, "17300", "thousands") == 1  # 2,000-9,999
    assert _found("count", 17300.0, 9800.0, "17300", "hundreds") == 0  # 200-999


def test_a_conflict_side_holding_a_contradicting_article_is_the_planted_minority():
    # "more than 3,000,000 votes" (a3) for a planted 3.8 million: the side cannot state 3.8
    # million, but it is the contradicting article's
    assert _found("count", 2.2e6, 3.8e6, "2200000", "3000000", ["id3"]) == 1
    assert _found("count", 2.2e6, 3.8e6, "2200000", "3000000", ["id1"]) == 0
    assert _found("count", 2.2e6, 3.8e6, "3000000", "4000000", ["id3"]) == 0  # no true side


def test_a_conflict_side_states_a_clock_time_in_utc():
    # 21:30 at UTC-5 is 02:30 UTC (150 minutes); "about" may be 15 minutes off.
    assert _near("time", "21:30-05:00", 150.0)
    assert _near("time", "02:40+00:00", 150.0)
    assert not _near("time", "23:30-05:00", 150.0)
    assert not _near("time", "21:30", 150.0)  # no offset: no instant to compare


def test_precision_is_also_reported_over_the_facts_holding_a_planted_claim(tmp_path: Path):
    """f1 states the true 571 (a planted claim of a1, spans overlapping: the extractor took in
    the noun); f2 holds only "Tuesday" of a statement the truth does not label; f3 holds a
    planted claim of a5 but matches no true fact (wrong value). Precision 1/3 over every fact,
    1/2 over the two holding a planted claim."""
    truth = tmp_path / "truth"
    truth.mkdir()
    planted = [
        {"article_key": "a1", "char_start": 10, "char_end": 13, "measure": "e0:troops"},
        {"article_key": "a2", "char_start": 4, "char_end": 7, "measure": "e0:troops"},
        {"article_key": "a5", "char_start": 0, "char_end": 3, "measure": "e0:homes"},
    ]
    (truth / "claims.jsonl").write_text("\n".join(json.dumps(c) for c in planted))
    true_facts = [{**TRUTH[0], "supporting_articles": ["a1", "a2"], "contradicting_articles": []}]
    (truth / "facts.jsonl").write_text(json.dumps(true_facts[0]))
    facts = [
        _fact("f1", "count", 571.0, "571", ["id1", "id2"], "corroborated"),
        _fact("f2", "date", None, "2025-05-20", ["id1"], "single_source"),
        _fact("f3", "count", 40.0, "40", ["id5"], "single_source"),
    ]
    claims = _claims(
        ("c1", "id1", 10, 20),
        ("c2", "id2", 4, 7),
        ("c3", "id1", 30, 37),
        ("c4", "id5", 0, 2),
    )
    evidence = _evidence(
        ("f1", "c1"),
        ("f1", "c2"),
        ("f2", "c3"),
        ("f3", "c4"),
    )
    keys = {"id1": "a1", "id2": "a2", "id5": "a5"}
    scores = score_corpus(facts, [], evidence, claims, tmp_path, keys)
    assert (scores["matched"], scores["gold_facts"], scores["fact_precision"]) == (1, 3, 0.333)
    assert (scores["gold_facts_holding_truth"], scores["fact_precision_holding_truth"]) == (2, 0.5)
    assert scores["fact_f1_holding_truth"] == 0.667
    assert "gold_facts_holding_truth" not in score_synthetic(facts, [], true_facts, keys)


def test_a_true_value_is_compared_in_the_unit_gold_compares_its_kind_in():
    """gold.facts states a length's consensus in meters (its kind's gold_unit) and a
    duration's in days; the truth states the planted unit."""
    truth = [
        {**TRUTH[0], "kind": "length", "true_value": 17.0, "unit": "miles", "conflict_value": None},
        {**TRUTH[1], "kind": "duration", "true_value": 2.0, "unit": "weeks"},
    ]
    facts = [
        _fact("f1", "length", 27358.848, "17", ["id1", "id2", "id3", "id4"], "conflicting"),
        _fact("f2", "duration", 14.0, "2", ["id1", "id2"], "corroborated"),
    ]
    keys = {f"id{i}": f"a{i}" for i in range(1, 5)}
    assert score_synthetic(facts, [], truth, keys)["matched"] == 2
    miles = [{**truth[0], "unit": None}]  # no unit to scale from: 17 is not 27,358.848
    assert score_synthetic(facts, [], miles, keys)["matched"] == 0


def test_identity_reads_a_claim_as_the_planted_claim_its_span_overlaps():
    """Planted: troops in a1, a2 and a3, homes in a1. Gold's spans take in the noun ("9,900
    troops" for "9,900"). f1 holds the troops of a1 and a2 and the homes of a1 (impure); f2
    holds the troops of a3 alone, so the troops (three articles) are split; the homes are in
    one article only. A claim overlapping no planted span (c5, "said Tuesday") is read as none."""
    planted = [
        {"article_key": "a1", "char_start": 10, "char_end": 15, "measure": "troops"},
        {"article_key": "a2", "char_start": 0, "char_end": 5, "measure": "troops"},
        {"article_key": "a3", "char_start": 20, "char_end": 25, "measure": "troops"},
        {"article_key": "a1", "char_start": 40, "char_end": 43, "measure": "homes"},
    ]
    claims = _claims(
        ("c1", "id1", 10, 22),
        ("c2", "id2", 0, 12),
        ("c3", "id3", 20, 32),
        ("c4", "id1", 40, 49),
        ("c5", "id2", 60, 67),
    )
    evidence = _evidence(
        ("f1", "c1"),
        ("f1", "c2"),
        ("f1", "c4"),
        ("f2", "c3"),
        ("f3", "c5"),
    )
    keys = {"id1": "a1", "id2": "a2", "id3": "a3"}
    assert score_identity(evidence, claims, planted, keys) == {
        "fact_purity": 0.5,  # f2 pure, f1 not; f3 holds no planted claim
        "multi_claim_fact_purity": 0.0,  # f1, the one fact of two or more
        "corroboration_recall": 0.0,  # troops, the one measure of two or more articles
    }
    f2_joins = [*evidence[:3], {"fact_id": "f1", "claim_id": "c3"}]
    assert score_identity(f2_joins, claims, planted, keys)["corroboration_recall"] == 1.0
