"""Gold and bronze-accounting contracts on the seed run (conftest's `gold` fixture): every rule
passes on what the pipeline built, and crafted bad rows break exactly the rules they should."""

from __future__ import annotations

import pytest
from pyspark.sql import functions as F

from lake.contracts import (
    CONTRACTS_DIR,
    ContractViolation,
    apply_severities,
    load_contracts,
    validate,
)

# The rules across gold's tables and silver; keys and vocabularies are dbt's tests.
GOLD_RULES = {
    "gold.facts": {
        "consensus_within_bounds",
        "corroborated_has_two_independent_sources",
        "fact_has_evidence",
        "article_count_matches_evidence",
        "corroborated_evidence_agrees",
        "conflicting_has_conflict_row",
    },
    "gold.fact_evidence": {
        "evidence_fact_exists",
        "evidence_matches_silver",
    },
    "gold.fact_conflicts": {
        "both_sides_have_articles",
        "conflict_fact_is_conflicting",
    },
}


@pytest.fixture(scope="module")
def gold_lake(gold):
    lake = gold[0]
    # Other tests may have pointed the catalog's names at their own warehouses.
    lake.register_all()
    return lake, load_contracts(CONTRACTS_DIR)


def _fact_id(lake, measure_key: str) -> str:
    return lake.read("gold.facts").where(F.col("measure_key") == measure_key).first()["fact_id"]


@pytest.mark.parametrize("table", sorted(GOLD_RULES))
def test_every_gold_rule_passes_on_the_seed_run(spark, gold_lake, table):
    lake, contracts = gold_lake
    report = validate(spark, lake, contracts[table], lake.read(table), "gc1", data_docs=False)
    assert {r.rule for r in report.results} == GOLD_RULES[table]
    assert report.failed() == []


def test_crafted_facts_break_exactly_the_rules_they_should(spark, gold_lake):
    lake, contracts = gold_lake
    facts = lake.read("gold.facts")
    daily = _fact_id(lake, "arrests/per_day")  # corroborated by five articles
    people = _fact_id(lake, "people")  # single source, consensus 49,000
    personnel = _fact_id(lake, "personnel")  # single source, 5,000
    fid = F.col("fact_id")
    batch = (
        facts.withColumn(
            "consensus_source_count",
            F.when(fid == daily, F.lit(1)).otherwise(F.col("consensus_source_count")),
        )
        .withColumn(
            "status", F.when(fid == people, F.lit("conflicting")).otherwise(F.col("status"))
        )
        .withColumn(
            "article_count",
            F.when(fid == personnel, F.col("article_count") + 1).otherwise(F.col("article_count")),
        )
        .withColumn(
            "consensus_value",
            F.when(fid == personnel, F.col("value_max") + 1).otherwise(F.col("consensus_value")),
        )
    )
    report = validate(spark, lake, contracts["gold.facts"], batch, "gc2", data_docs=False)

    broken = {r.rule: [row["fact_id"] for row in r.unexpected_sample] for r in report.failed()}
    assert broken == {
        "corroborated_has_two_independent_sources": [daily],
        "conflicting_has_conflict_row": [people],
        "article_count_matches_evidence": [personnel],
        "consensus_within_bounds": [personnel],
    }
    with pytest.raises(ContractViolation) as caught:
        apply_severities(spark, lake, contracts["gold.facts"], batch, report)
    assert caught.value.table == "gold.facts" and caught.value.count == 1
    assert "nothing downstream of gold.facts" in str(caught.value)


def test_a_corroborated_fact_may_hold_a_sources_second_value_not_another_sources(spark, gold_lake):
    """An outlet that states the consensus and another value contradicts no other source: the
    fact stays corroborated. A disagreeing claim from a source that does not state the
    consensus breaks corroborated_evidence_agrees."""
    lake, contracts = gold_lake
    daily = _fact_id(lake, "arrests/per_day")
    evidence = lake.read("gold.fact_evidence")
    first = evidence.where(F.col("fact_id") == daily).orderBy("claim_id").first()
    second_value = first.asDict() | {"claim_id": "f" * 16, "agrees": False}
    for crafted, broken in (
        (evidence.unionByName(spark.createDataFrame([second_value], evidence.schema)), {}),
        (
            evidence.withColumn(
                "agrees", (F.col("claim_id") != first["claim_id"]) & F.col("agrees")
            ),
            {"corroborated_evidence_agrees": [daily]},
        ),
    ):
        crafted.createOrReplaceTempView("crafted_evidence")
        contract = contracts["gold.facts"].bound({"gold.fact_evidence": "crafted_evidence"})
        report = validate(spark, lake, contract, lake.read("gold.facts"), "gc5", data_docs=False)
        found = {r.rule: [row["fact_id"] for row in r.unexpected_sample] for r in report.failed()}
        assert {r: f for r, f in found.items() if r == "corroborated_evidence_agrees"} == broken


def test_evidence_whose_value_changed_is_caught(spark, gold_lake):
    lake, contracts = gold_lake
    evidence = lake.read("gold.fact_evidence")
    changed = evidence.where("value IS NOT NULL").orderBy("claim_id").first()["claim_id"]
    cid = F.col("claim_id")
    batch = evidence.withColumn(
        "value", F.when(cid == changed, F.col("value") + 1).otherwise(F.col("value"))
    )
    report = validate(spark, lake, contracts["gold.fact_evidence"], batch, "gc3", data_docs=False)
    broken = {r.rule: [row["claim_id"] for row in r.unexpected_sample] for r in report.failed()}
    assert broken == {"evidence_matches_silver": [changed]}


def test_a_file_seen_but_neither_article_nor_reject_breaks_the_accounting(spark, gold_lake):
    lake, contracts = gold_lake
    log = lake.read("bronze.ingest_log")
    template = log.first()
    lost = [
        template.asDict() | {"source_uri": "lost.txt", "outcome": "rejected", "article_id": None},
        template.asDict() | {"source_uri": "ghost.txt", "outcome": "new", "article_id": "0" * 64},
    ]
    batch = log.unionByName(spark.createDataFrame(lost, log.schema))
    report = validate(spark, lake, contracts["bronze.ingest_log"], batch, "gc4", data_docs=False)
    assert [r.rule for r in report.failed()] == ["file_accounted_for"]
    result = report.result("file_accounted_for")
    assert result.unexpected_count == 2
    assert sorted(row["source_uri"] for row in result.unexpected_sample) == [
        "ghost.txt",
        "lost.txt",
    ]
    assert report.result("file_accounted_for").element_count == log.count() + 2
