"""Contracts on real Spark, Delta and Great Expectations: the seeds pass, bad rows are
quarantined by rule, a broken `fail` rule stops the run, results land in audit.dq_results."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from pyspark.sql import functions as F

from lake.bronze.ingest import ingest
from lake.contracts import (
    AUDIT_DQ_RESULTS,
    CONTRACTS_DIR,
    Contract,
    ContractError,
    ContractViolation,
    apply_severities,
    load_contracts,
    record_results,
    validate,
)
from lake.contracts.compile import build_suite
from lake.contracts.run import _saved_stamps
from lake.silver.publish import extract_new
from lake.storage import Lake

from ..conftest import SEEDS

LIMIT = 5 * 1024 * 1024


@pytest.fixture(scope="module")
def seeded(spark, tmp_path_factory):
    """The seeds through bronze and silver once for this module: (lake, contracts, claims)."""
    lake = Lake(spark, tmp_path_factory.mktemp("contracts") / "warehouse")
    ingest(spark, lake, SEEDS, "c1", LIMIT, validate=False)
    extract_new(spark, lake, "c1")
    claims = lake.read("silver.claims").persist()
    claims.count()
    yield lake, load_contracts(CONTRACTS_DIR), claims
    claims.unpersist()


@pytest.fixture(scope="module")
def seed_report(spark, seeded):
    lake, contracts, claims = seeded
    return validate(spark, lake, contracts["silver.claims"], claims, "c1")


@pytest.fixture(scope="module")
def bad_batch(spark, seeded):
    """Seed claims with four crafted faults, validated once: (ids, batch, report)."""
    lake, contracts, claims = seeded
    named = claims.where("attribution_kind = 'named_person'").first()["claim_id"]
    attributed = claims.where(f"attribution IS NOT NULL AND claim_id <> '{named}'").first()[
        "claim_id"
    ]
    span = claims.where(f"claim_id NOT IN ('{named}', '{attributed}')").first()["claim_id"]
    others = f"claim_id NOT IN ('{named}', '{attributed}', '{span}')"
    clock = claims.where(f"{others} AND qualifier = 'exact' AND kind = 'count'").first()["claim_id"]
    ids = {"named": named, "span": span, "attributed": attributed, "clock": clock}
    batch = (
        claims.withColumn(
            "attribution",
            F.when(F.col("claim_id") == named, F.lit(None))
            .when(F.col("claim_id") == attributed, F.lit("A Source Nowhere In The Text"))
            .otherwise(F.col("attribution")),
        )
        .withColumn(
            "char_end",
            F.when(F.col("claim_id") == span, F.col("char_end") + 1).otherwise(F.col("char_end")),
        )
        # A time of 25:00 UTC: minutes after midnight stop at 1,439.
        .withColumn("kind", F.when(F.col("claim_id") == clock, "time").otherwise(F.col("kind")))
        .withColumn("unit", F.when(F.col("claim_id") == clock, "UTC").otherwise(F.col("unit")))
        .withColumn("value", F.when(F.col("claim_id") == clock, 1500.0).otherwise(F.col("value")))
        .withColumn("lower", F.when(F.col("claim_id") == clock, 1500.0).otherwise(F.col("lower")))
        .withColumn("upper", F.when(F.col("claim_id") == clock, 1500.0).otherwise(F.col("upper")))
        .persist()
    )
    report = validate(spark, lake, contracts["silver.claims"], batch, "c2", data_docs=False)
    yield ids, batch, report
    batch.unpersist()


def test_every_rule_of_the_shipped_contract_passes_on_the_seeds(spark, seeded, seed_report):
    lake, contracts, claims = seeded
    report = seed_report
    assert [r.rule for r in report.failed()] == []
    assert len(report.results) == 22
    assert {r.element_count for r in report.results} == {claims.count()}
    assert report.contract == "expectations/contracts/silver.claims.yml"
    assert report.data_docs is not None and report.data_docs.is_file()
    assert lake.root in report.data_docs.parents
    assert not (Path.cwd() / "gx").exists()
    good, quarantined = apply_severities(spark, lake, contracts["silver.claims"], claims, report)
    assert good is claims and quarantined is None
    articles = validate(
        spark,
        lake,
        contracts["bronze.articles"],
        lake.read("bronze.articles"),
        "c1",
        data_docs=False,
    )
    assert articles.success, articles.summary()
    suite = build_suite(contracts["silver.claims"])
    assert {e.meta["rule"] for e in suite.expectations} == {r.rule for r in report.results}


def test_rows_breaking_quarantine_rules_are_split_off_by_rule(spark, seeded, bad_batch):
    lake, contracts, claims = seeded
    ids, batch, report = bad_batch
    assert report.result("attribution_present").unexpected_count == 1
    assert report.result("span_matches_body").unexpected_count == 1
    assert report.result("times_in_utc_minutes").unexpected_count == 1
    assert {r.rule for r in report.failed()} == {
        "attribution_present",
        "span_matches_body",
        "attribution_in_body",
        "times_in_utc_minutes",
    }
    sample = report.result("span_matches_body").unexpected_sample
    assert [row["claim_id"] for row in sample] == [ids["span"]]

    good, quarantined = apply_severities(spark, lake, contracts["silver.claims"], batch, report)
    broken = {r["claim_id"]: list(r["rules_broken"]) for r in quarantined.collect()}
    assert broken == {
        ids["named"]: ["attribution_present"],
        ids["span"]: ["span_matches_body"],
        ids["clock"]: ["times_in_utc_minutes"],
        ids["attributed"]: ["attribution_in_body"],
    }
    assert good.count() == claims.count() - 4
    assert good.columns == claims.columns
    stored = lake.read("silver.claims_quarantine").where(F.col("claim_id").isin(*ids.values()))
    assert {r["claim_id"]: list(r["rules_broken"]) for r in stored.collect()} == broken


def test_a_warn_rule_is_only_recorded(spark, seeded):
    lake, contracts, _ = seeded
    articles = lake.read("bronze.articles")
    miscounted = articles.first()["article_id"]
    batch = articles.withColumn(
        "char_count",
        F.when(F.col("article_id") == miscounted, F.col("char_count") + 1).otherwise(
            F.col("char_count")
        ),
    )
    contract = contracts["bronze.articles"]
    report = validate(spark, lake, contract, batch, "c5", data_docs=False)
    warned = report.result("char_count_matches_body")
    assert (warned.severity, warned.passed, warned.unexpected_count) == ("warn", False, 1)
    assert warned.unexpected_sample[0]["article_id"] == miscounted
    good, quarantined = apply_severities(spark, lake, contract, batch, report)
    assert good is batch and quarantined is None


# A bad row for each claim rule, as (rule, columns it gets as SQL over the claim and its
# article's `body`). The span rows look right to a bare substring, which clamps offsets.
CLAIM_FAULTS = [
    ("span_matches_body", {"char_start": "CAST(NULL AS INT)"}),
    ("span_matches_body", {"char_start": "-1", "claim_text": "substring(body, 1, char_end + 1)"}),
    (
        "span_matches_body",
        {"char_end": "length(body) + 5", "claim_text": "substring(body, char_start + 1)"},
    ),
    ("span_matches_body", {"char_end": "char_start", "claim_text": "''"}),
    ("span_matches_body", {"claim_text": "concat(claim_text, '!')"}),
    ("kind_allowed_values", {"kind": "'weight'"}),
    ("kind_not_null", {"kind": "CAST(NULL AS STRING)"}),
    ("qualifier_allowed_values", {"qualifier": "'roughly'"}),
    ("qualifier_not_null", {"qualifier": "CAST(NULL AS STRING)"}),
    ("value_finite", {"value": "double('NaN')", "lower": "NULL", "upper": "NULL"}),
    ("value_finite", {"value": "double('-Infinity')", "lower": "NULL", "upper": "NULL"}),
    (
        "value_finite",
        {"qualifier": "'range'", "value": "NULL", "lower": "1.0", "upper": "double('NaN')"},
    ),
    (
        "range_has_both_ends",
        {"qualifier": "'range'", "value": "NULL", "lower": "5.0", "upper": "3.0"},
    ),
    (
        "range_has_both_ends",
        {"qualifier": "'range'", "value": "NULL", "lower": "5.0", "upper": "NULL"},
    ),
    ("value_present", {"value": "NULL", "lower": "NULL", "upper": "NULL"}),
    ("bounds_contain_value", {"value": "10.0", "lower": "20.0", "upper": "30.0"}),
    ("attribution_in_body", {"attribution": "'A Source Nowhere In The Text'"}),
]


def test_each_claim_rule_quarantines_its_bad_row_under_its_name(spark, seeded):
    lake, contracts, claims = seeded
    plain = "kind NOT IN ('date', 'time') AND value IS NOT NULL"
    ids = [r[0] for r in claims.where(plain).orderBy("claim_id").select("claim_id").collect()]
    assert len(ids) >= len(CLAIM_FAULTS)
    batch = claims.join(lake.read("bronze.articles").select("article_id", "body"), "article_id")
    for claim_id, (_, columns) in zip(ids, CLAIM_FAULTS, strict=False):
        for column, sql in columns.items():
            faulty = F.col("claim_id") == claim_id
            batch = batch.withColumn(column, F.when(faulty, F.expr(sql)).otherwise(F.col(column)))
    batch = batch.select(*claims.columns).persist()
    contract = contracts["silver.claims"]
    report = validate(spark, lake, contract, batch, "c6", data_docs=False)
    good, quarantined = apply_severities(
        spark, lake, contract, batch, report, write_quarantine=False
    )
    broken = {r["claim_id"]: set(r["rules_broken"]) for r in quarantined.collect()}
    batch.unpersist()
    assert set(broken) == set(ids[: len(CLAIM_FAULTS)])
    for claim_id, (rule, columns) in zip(ids, CLAIM_FAULTS, strict=False):
        assert rule in broken[claim_id], (rule, columns, broken[claim_id])
    assert good.count() == claims.count() - len(CLAIM_FAULTS)


def test_a_clock_time_with_no_utc_value_is_a_claim_not_a_fault(spark, seeded):
    """ "at 10 p.m." with no zone the article gives: unresolved, as a date can be."""
    lake, contracts, claims = seeded
    (claim_id,) = [
        r[0] for r in claims.where("kind = 'count'").orderBy("claim_id").limit(1).collect()
    ]
    timeless = {"kind": "'time'", "unit": "NULL", "value": "NULL", "lower": "NULL", "upper": "NULL"}
    batch = claims.join(lake.read("bronze.articles").select("article_id", "body"), "article_id")
    for column, sql in timeless.items():
        faulty = F.col("claim_id") == claim_id
        batch = batch.withColumn(column, F.when(faulty, F.expr(sql)).otherwise(F.col(column)))
    batch = batch.select(*claims.columns)
    contract = contracts["silver.claims"]
    report = validate(spark, lake, contract, batch, "c7", data_docs=False)
    good, quarantined = apply_severities(
        spark, lake, contract, batch, report, write_quarantine=False
    )
    assert quarantined is None  # nothing to quarantine
    assert good.where(F.col("claim_id") == claim_id).count() == 1


def test_a_broken_fail_rule_raises_naming_table_rule_and_count(spark, seeded):
    lake, contracts, claims = seeded
    batch = claims.unionByName(claims.limit(1))
    report = validate(spark, lake, contracts["silver.claims"], batch, "c3", data_docs=False)
    with pytest.raises(ContractViolation) as caught:
        apply_severities(spark, lake, contracts["silver.claims"], batch, report)
    error = caught.value
    assert (error.table, error.rule, error.count) == ("silver.claims", "claim_id_unique", 2)
    assert len(error.sample) == 2 and error.sample[0]["claim_id"] == error.sample[1]["claim_id"]
    message = str(error)
    assert "silver.claims" in message and "claim_id_unique" in message
    assert "2 row(s)" in message and "nothing downstream of" in message


def test_sql_that_does_not_fit_the_data_is_a_contract_error(spark, seeded):
    lake, _, claims = seeded
    contract = Contract.model_validate(
        {
            "table": "silver.claims",
            "description": "d",
            "owner": "o",
            "row_rules": [
                {"name": "typo", "description": "d", "severity": "warn", "predicate": "vlaue > 0"}
            ],
        }
    )
    with pytest.raises(ContractError, match=r"rule typo: Spark cannot run its SQL.*vlaue"):
        validate(spark, lake, contract, claims, "c4", data_docs=False)


def test_results_of_every_rule_are_recorded(spark, seeded, seed_report, bad_batch):
    lake, _, _ = seeded
    record_results(spark, lake, seed_report, "c1")
    record_results(spark, lake, bad_batch[2], "c2")
    audit = lake.read(AUDIT_DQ_RESULTS.name)
    # extract_new in the fixture already recorded its batch's 22 results under c1 (and the
    # fixture's ingest bronze's 8).
    assert audit.where("run_id = 'c1' AND table_name = 'silver.claims'").count() == 44
    assert audit.where("run_id = 'c2'").count() == 22
    rows = audit.collect()
    assert {(r["run_id"], r["passed"]) for r in rows} == {("c1", True), ("c2", True), ("c2", False)}
    span = next(r for r in rows if r["run_id"] == "c2" and r["rule"] == "span_matches_body")
    assert (span["layer"], span["table_name"], span["severity"]) == (
        "silver",
        "silver.claims",
        "quarantine",
    )
    assert span["unexpected_count"] == 1 and span["element_count"] > 1
    assert json.loads(span["unexpected_sample"])[0]["claim_id"] == bad_batch[0]["span"]
    assert span["contract"] == "expectations/contracts/silver.claims.yml"


def test_a_contract_checkpoint_is_saved_once_per_process_until_it_changes(spark, seeded):
    """GE's suite, validation definition and checkpoint of a contract are saved once per
    process: validating again with the same contract writes none of them; a changed contract,
    or files another process rewrote, are saved again, and GE's store holds the new suite."""
    lake, contracts, _ = seeded
    contract = contracts["bronze.articles"]
    articles = lake.read("bronze.articles")
    root = lake.local_root / "_gx"
    validate(spark, lake, contract, articles, "c6", data_docs=False)
    saved = _saved_stamps(root, contract.table)
    assert all(saved)
    again = validate(spark, lake, contract, articles, "c7", data_docs=False)
    assert _saved_stamps(root, contract.table) == saved
    assert again.result("char_count_matches_body").passed

    rule = contract.row_rules[0]
    reworded = contract.model_copy(
        update={"row_rules": [rule.model_copy(update={"description": "Reworded."})]}
    )
    validate(spark, lake, reworded, articles, "c8", data_docs=False)
    assert _saved_stamps(root, contract.table) != saved
    stored = json.loads(root.joinpath("expectations", "bronze", "articles.json").read_text())
    assert [e["meta"]["description"] for e in stored["expectations"]].count("Reworded.") == 1

    # the files the reworded contract saved are not this contract's: saved again
    validate(spark, lake, contract, articles, "c9", data_docs=False)
    stored = json.loads(root.joinpath("expectations", "bronze", "articles.json").read_text())
    assert "Reworded." not in [e["meta"]["description"] for e in stored["expectations"]]
    checkpoint = root / "checkpoints" / "bronze.articles.json"
    os.utime(checkpoint, ns=(0, 0))  # as another process's save would leave it
    validate(spark, lake, contract, articles, "c10", data_docs=False)
    assert checkpoint.stat().st_mtime_ns != 0
