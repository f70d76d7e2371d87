"""The fact-identity scorers (evaluation.basil.facts, evaluation.basil.agreement) on labels and
articles invented for the test; none is BASIL text."""

from __future__ import annotations

from types import SimpleNamespace

import yaml

from evaluation.basil import agreement
from evaluation.basil import facts as fs
from evaluation.basil import labels as lb

EVENT = "00000000-0000-4000-8000-000000000002"
BODIES = {
    f"{EVENT}_fox": "Ferry deal\n\nThe city paid $2 million for the ferry on Tuesday.",
    f"{EVENT}_hpo": "Ferry bought\n\nThe city spent $2 million on Tuesday, and $3 million later.",
    f"{EVENT}_nyt": "Ferry\n\nThe ferry cost $2.5 million, the city said Wednesday.",
}
LABELS = {
    "event": EVENT,
    "articles": [
        {
            "outlet": "fox",
            "published_at": "2024-05-16",
            "facts": [
                {"text": "$2 million", "context": "paid $2 million for", "kind": "money",
                 "value": 2000000, "fact": "ferry-price"},
                {"text": "Tuesday", "context": "on Tuesday.", "kind": "date",
                 "value": "2024-05-14", "granularity": "day", "resolution": "relative",
                 "fact": "date-bought"},
            ],
        },
        {
            "outlet": "hpo",
            "published_at": "2024-05-16",
            "facts": [
                {"text": "$2 million", "context": "spent $2 million on", "kind": "money",
                 "value": 2000000, "fact": "ferry-price"},
                {"text": "Tuesday", "context": "on Tuesday,", "kind": "date",
                 "value": "2024-05-14", "granularity": "day", "resolution": "relative",
                 "fact": "date-bought"},
                {"text": "$3 million", "context": "and $3 million later", "kind": "money",
                 "value": 3000000, "fact": "later-spending"},
            ],
        },
        {
            "outlet": "nyt",
            "published_at": "2024-05-16",
            "facts": [
                {"text": "$2.5 million", "context": "cost $2.5 million,", "kind": "money",
                 "value": 2500000, "fact": "ferry-price"},
            ],
        },
    ],
    "facts": {
        "ferry-price": "price the city paid for the ferry",
        "date-bought": "date the city bought the ferry",
        "later-spending": "what the city spent later",
    },
    "conflicts": [
        {"fact": "ferry-price", "counted": "price of the ferry",
         "values": {"fox": "$2 million", "nyt": "$2.5 million"}},
    ],
}  # fmt: skip


def _claim(stem: str, text: str, claim_id: str):
    at = BODIES[stem].index(text)
    return SimpleNamespace(
        claim_id=claim_id, char_start=at, char_end=at + len(text), kind="money", claim_text=text
    )


def _event(tmp_path) -> lb.EventLabels:
    path = tmp_path / f"{EVENT}.yaml"
    path.write_text(yaml.safe_dump(LABELS, sort_keys=False))
    return lb.load_event(path)


def test_fact_ids_are_checked_described_and_named_by_conflicts(tmp_path):
    event = _event(tmp_path)
    assert event.fact_ids() == {"ferry-price", "date-bought", "later-spending"}
    assert lb.check_fact_ids(event) == []
    event.articles[2].facts[0].fact = "Ferry Price"
    event.conflicts[0]["fact"] = "gone"
    assert lb.check_fact_ids(event) == [
        f"{EVENT}_nyt.txt: fact id 'Ferry Price' is not lower-case-words",
        f"{EVENT}: fact 'Ferry Price' is not described under 'facts'",
        f"{EVENT}: conflict 'price of the ferry' names fact 'gone', which no claim carries",
    ]


def test_purity_corroboration_and_conflicts_are_scored_per_gold_fact(tmp_path):
    event = _event(tmp_path)
    claims = {
        f"{EVENT}_fox": [_claim(f"{EVENT}_fox", "$2 million", "f1")],
        f"{EVENT}_hpo": [
            _claim(f"{EVENT}_hpo", "$2 million", "h1"),
            _claim(f"{EVENT}_hpo", "$3 million", "h2"),
        ],
        f"{EVENT}_nyt": [_claim(f"{EVENT}_nyt", "$2.5 million", "n1")],
    }
    # Gold put the price of all three outlets and the later $3 million in one conflicting
    # fact: impure; the price's three claims landed in one fact (corroborated), and the
    # labelled conflict is flagged but not by a pure fact.
    gold = fs.Gold(
        facts={"F": {"measure_key": "ferry", "status": "conflicting"}},
        fact_of={"f1": "F", "h1": "F", "h2": "F", "n1": "F"},
        claims=claims,
    )
    score = fs.score_event(event, BODIES, gold)
    summary = fs.summary([score])
    assert summary["claim_recall"] == 0.667  # the dates were not extracted here
    assert (summary["fact_purity"], summary["multi_claim_fact_purity"]) == (0.0, 0.0)
    assert summary["corroboration_recall"] == 1.0  # ferry-price, in three articles
    assert (summary["conflict_precision"], summary["conflict_recall"]) == (0.0, 1.0)
    # Apart, the price conflicts alone and the later spending is its own fact.
    gold.facts["G"] = {"measure_key": "spending", "status": "single_source"}
    gold.fact_of["h2"] = "G"
    summary = fs.summary([fs.score_event(event, BODIES, gold)])
    assert (summary["fact_purity"], summary["conflict_precision"]) == (1.0, 1.0)


def test_agreement_compares_two_partitions_of_the_same_claims(tmp_path):
    first, second = tmp_path / "first.yaml", tmp_path / "second.yaml"
    first.write_text(yaml.safe_dump(LABELS, sort_keys=False))
    other = yaml.safe_load(yaml.safe_dump(LABELS))
    other["articles"][1]["facts"][2]["fact"] = "ferry-price"  # the second merges $3 million
    other["conflicts"] = []
    second.write_text(yaml.safe_dump(other, sort_keys=False))
    result = agreement.compare(first, second)
    assert (result["pairs_first"], result["pairs_second"], result["pairs_both"]) == (4, 7, 4)
    assert (result["pair_precision"], result["pair_recall"]) == (0.571, 1.0)
    assert (result["conflicts_first"], result["conflicts_second"]) == (1, 0)
