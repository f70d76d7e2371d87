"""Gold builds facts about one quantity, not one noun, end to end (bronze, silver's frames,
dbt's gold): three articles written for this test about one bridge crash plant each class of
false merge beside two real disagreements, and one length two of them give in two units. Every
claim of the story lands in the fact a reader would put it in, and only the real disagreements
are conflicts, each saying which frame parts matched."""

from __future__ import annotations

import json

import pytest
from pyspark.sql import functions as F

from lake.config import load_settings
from lake.pipeline import run_pipeline
from lake.storage import Lake

pytestmark = pytest.mark.slow

ARTICLES = {
    "courier": (
        "Truck plunges off the Harlow River bridge in Brenton\n\n"
        "BRENTON — A truck crashed through the railing of the Harlow River bridge in Brenton "
        "on Tuesday, killing its driver. The posted limit on the bridge is 45 mph. Six bodies "
        "were found in the wreckage. Forty people were injured, 12 of them critically. The "
        "Brenton city council met on March 4 to discuss repairs. The state paid $2.1 million "
        "in federal funds for the bridge last year. Police said on Thursday that the driver "
        "had been drinking. Police closed 12 miles of the highway after the crash."
    ),
    "times": (
        "Harlow River bridge crash: the truck was speeding, Brenton police say\n\n"
        "The truck was doing 80 mph when it hit the railing of the Harlow River bridge in "
        "Brenton, police said. Six bodies were found in the wreckage, and two more were found "
        "on the embankment. Forty people were injured. The Brenton city council met on March "
        "4. The county will add $700,000 in state and local funds for the Harlow River bridge. "
        "The driver had no license, a witness said earlier this week. Police closed 19.3 "
        "kilometers of the highway after the crash."
    ),
    "ledger": (
        "Brenton mourns after the Harlow River bridge crash\n\n"
        "Seven bodies were found in the wreckage of the truck that went off the Harlow River "
        "bridge in Brenton. The Brenton city council met on March 5 to discuss repairs to the "
        "bridge, officials said."
    ),
}


# What each feed says of its publisher: an outlet, only a URL, nothing (the title then names it).
SIDECARS = {
    "courier": {"outlet": "The Brenton Courier"},
    "times": {"url": "https://www.brentontimes.com/2026/03/05/harlow-bridge-crash"},
    "ledger": {},
}


@pytest.fixture(scope="module")
def crash(spark, tmp_path_factory):
    root = tmp_path_factory.mktemp("crash")
    inputs = root / "input"
    inputs.mkdir()
    for name, body in ARTICLES.items():
        (inputs / f"{name}.txt").write_text(body + "\n")
        sidecar = {"published_at": "2026-03-06", **SIDECARS[name]}
        (inputs / f"{name}.json").write_text(json.dumps(sidecar))
    settings = load_settings(warehouse=root / "warehouse", input_dir=inputs)
    run_pipeline(spark, settings, "crash1")
    lake = Lake(spark, settings.warehouse)
    claims = {r["claim_id"]: r["claim_text"] for r in lake.read("silver.claims").collect()}
    facts = {}
    for row in lake.read("gold.fact_evidence").select("fact_id", "claim_id").collect():
        facts.setdefault(row["fact_id"], []).append(claims[row["claim_id"]])
    by_id = {r["fact_id"]: r.asDict() for r in lake.read("gold.facts").collect()}
    conflicts = [r.asDict() for r in lake.read("gold.fact_conflicts").collect()]
    return lake, {fid: sorted(texts) for fid, texts in facts.items()}, by_id, conflicts


def test_each_quantity_is_one_fact(crash):
    _, facts, _, _ = crash
    assert sorted(facts.values()) == sorted(
        [
            ["Seven bodies", "Six bodies", "Six bodies"],  # in the wreckage: a conflict
            ["two"],  # found on the embankment: another place, another count
            ["Forty people", "Forty people"],
            ["12"],  # a part of the 40
            ["45 mph"],  # the bridge's limit
            ["80 mph"],  # the truck's speed
            ["Tuesday"],
            ["March 4", "March 4", "March 5"],  # the council's meeting: a conflict
            ["last year"],
            ["$2.1 million"],  # federal funds
            ["$700,000"],  # state and local funds
            ["Thursday"],  # when police spoke
            # a week is no day of it, and an unnamed witness no police: a fact of its own
            ["earlier this week"],
            ["12 miles", "19.3 kilometers"],  # one length, in two units
        ]
    )


def test_a_length_in_two_units_is_one_corroborated_fact(crash):
    _, facts, by_id, _ = crash
    (fact_id,) = [f for f, texts in facts.items() if texts == ["12 miles", "19.3 kilometers"]]
    fact = by_id[fact_id]
    # compared in meters, each figure holding its rounding: 12 miles is 19,312 m
    assert (fact["kind"], fact["measure_key"], fact["unit"], fact["status"]) == (
        "length",
        "length:highway",
        "meters",
        "corroborated",
    )
    assert fact["consensus_value"] == pytest.approx(19_300)  # the more precise figure
    assert (fact["value_min"], fact["value_max"]) == pytest.approx((19_300, 19_312.128))


def test_only_the_real_disagreements_are_conflicts_and_say_why(crash):
    _, facts, by_id, conflicts = crash
    conflicting = {fid for fid, f in by_id.items() if f["status"] == "conflicting"}
    assert {tuple(facts[fid]) for fid in conflicting} == {
        ("Seven bodies", "Six bodies", "Six bodies"),
        ("March 4", "March 4", "March 5"),
    }
    why = {
        (c["value_a"], c["value_b"]): (c["matched_parts"], c["match_confidence"]) for c in conflicts
    }
    assert why == {
        ("6", "7"): (["property", "event", "scope"], 1.0),
        ("2026-03-04", "2026-03-05"): (["subject", "event"], 1.0),
    }
    assert by_id[next(iter(f for f in conflicting if "March 4" in facts[f]))]["label"] == (
        "date Brenton city council met"
    )


def test_the_conflicts_report_shows_each_sides_frame(crash):
    lake, _, _, _ = crash
    rows = (
        lake.read("gold.conflicts_report")
        .where(F.col("claim_text").isin("Seven bodies", "Six bodies"))
        .select("side", "outlet", "reported_by", "reported_by_source", "property", "scope")
        .collect()
    )
    ledger = "Brenton mourns after the Harlow River bridge crash"
    assert {
        (r["outlet"], r["reported_by"], r["reported_by_source"], r["property"], r["scope"])
        for r in rows
    } == {
        ("The Brenton Courier", "The Brenton Courier", "outlet", "bodies", "in the wreckage"),
        (None, "brentontimes.com", "site", "bodies", "in the wreckage"),
        (None, ledger, "title", "bodies", "in the wreckage"),
    }
    assert {r["side"] for r in rows if r["reported_by"] == ledger} == {"b"}
