"""`run_pipeline` end to end under a stricter contract: quarantined claims stay out of gold,
the good ones reach it; with nothing new, silver and gold are current (a rerun skips them)."""

from __future__ import annotations

import shutil

import pytest
from pyspark.sql import functions as F
from typer.testing import CliRunner

from claimhouse.cli import app
from lake import maintenance
from lake.config import load_settings
from lake.gold import build as gold
from lake.layer import execute, is_current, latest_published, open_run
from lake.pipeline import run_pipeline
from lake.schemas import AUDIT_LAYER_RUNS, GOLD_RELEASE, GOLD_RELEASE_MANIFEST, GOLD_TABLES
from lake.silver import publish as silver_claims
from lake.storage import Lake
from lake.units import UNITS

from ..conftest import (
    SEEDS,
    UNRECONCILED_MEASURES,
    contracts_with_fail_rule,
    contracts_with_strict_attribution,
)

SEED_CLAIMS = 48  # tests/fixtures/seed_claims.yaml


@pytest.mark.slow
def test_claims_without_a_source_are_quarantined_and_the_rest_reach_gold(
    spark, tmp_path, monkeypatch
):
    monkeypatch.setenv(
        "CLAIMHOUSE_CONTRACTS", str(contracts_with_strict_attribution(tmp_path, "quarantine"))
    )
    settings = load_settings(warehouse=tmp_path / "warehouse", input_dir=SEEDS)
    summary = run_pipeline(spark, settings, "strict1")
    lake = Lake(spark, settings.warehouse)

    quarantined = lake.read("silver.claims_quarantine").collect()
    assert quarantined, "the seeds have claims without a named source"
    assert {tuple(r["rules_broken"]) for r in quarantined} == {("attribution_present",)}
    assert all(r["attribution"] is None for r in quarantined)
    assert summary.silver.quarantined == len(quarantined)

    claims = lake.read("silver.claims")
    assert claims.where(F.col("attribution").isNull()).count() == 0
    assert claims.count() + len(quarantined) == SEED_CLAIMS  # nothing dropped

    evidence = {r[0] for r in lake.read("gold.fact_evidence").select("claim_id").collect()}
    reconciled = claims.where(~F.col("measure_key").isin(UNRECONCILED_MEASURES))
    assert evidence == {r[0] for r in reconciled.select("claim_id").collect()}
    assert evidence.isdisjoint(r["claim_id"] for r in quarantined)

    # Each unit's latest published run, read in one query (a run reads it once).
    assert {unit: row["run_id"] for unit, row in latest_published(lake).items()} == dict.fromkeys(
        ("bronze", "silver.claims", "silver.stories", "gold"), "strict1"
    )
    # The contracts the run validated are those its units declare (lake.units), no more.
    validated = lake.read("audit.dq_results").where("run_id = 'strict1'")
    assert {r[0] for r in validated.select("table_name").distinct().collect()} == {
        table for unit in UNITS for table in unit.contracts
    }
    # With quarantined claims too, a rerun with no new file skips silver.claims and gold
    # (`execute` skips a current unit; test_cli's rerun shows that end to end).
    assert is_current(lake, silver_claims.UNIT, settings)
    assert is_current(lake, gold.UNIT, settings)
    # Maintenance compacts and checkpoints every table but changes no row: still current.
    claims_version = lake.version("silver.claims")
    with open_run(spark, settings, "maintain1") as ctx:
        maintained = execute(maintenance.UNIT, ctx).summary
    compacted = {t.table: t.compacted_from for t in maintained.tables if t.compacted_from}
    assert "silver.claims" in compacted, maintained.describe()
    assert lake.version("silver.claims") == claims_version + 1
    assert [u.name for u in UNITS[1:] if not is_current(lake, u, settings)] == []
    # Any new silver version (here: one claim rewritten) makes gold stale again.
    clean = lake.version("silver.claims")
    claims.limit(1).write.format("delta").mode("append").save(str(lake.path("silver.claims")))
    assert not is_current(lake, gold.UNIT, settings)
    spark.sql(f"RESTORE TABLE delta.`{lake.path('silver.claims')}` TO VERSION AS OF {clean}")


@pytest.mark.slow
def test_a_gold_candidate_that_breaks_a_fail_rule_is_not_published(
    spark, gold, tmp_path, monkeypatch
):
    """A broken `fail` rule in gold leaves gold.* exactly as it was (same release version, same
    rows); the run exits 1 naming the rule; the candidate stays readable where it was built."""
    shutil.copytree(gold[1].warehouse, tmp_path / "warehouse")  # the seeds, every layer built
    settings = load_settings(warehouse=tmp_path / "warehouse", input_dir=SEEDS)
    lake = Lake(spark, settings.warehouse)
    before = {t: sorted(map(tuple, lake.read(t).collect())) for t in GOLD_TABLES}
    release = lake.version(GOLD_RELEASE.store)
    # What readers without Spark read: the plain tables and the manifest naming their versions.
    outside = {t: lake.version(t) for t in (*GOLD_RELEASE.plain_tables, GOLD_RELEASE_MANIFEST.name)}

    # Gold becomes stale (a new silver version), and a stricter gold contract says no fact may
    # be single-sourced, which the seeds' gold breaks.
    silver = lake.version("silver.claims")
    spark.sql(
        f"ALTER TABLE delta.`{lake.path('silver.claims')}` SET TBLPROPERTIES ('test.touch' = '1')"
    )
    assert lake.version("silver.claims") == silver + 1
    # That change touches no story, so an incremental build would check no row: a commit to a
    # built table since the last publish (as a shell `dbt build` makes) rebuilds and checks
    # every story, whichever tests ran on the shared warehouse before.
    spark.sql(
        f"ALTER TABLE delta.`{lake.path('gold_build.facts')}` "
        "SET TBLPROPERTIES ('test.touch' = '1')"
    )
    contracts = contracts_with_fail_rule(
        tmp_path, "gold.facts", "no_single_source", "status <> 'single_source'"
    )
    monkeypatch.setenv("CLAIMHOUSE_CONTRACTS", str(contracts))
    done = CliRunner().invoke(
        app, ["run", "--input", str(SEEDS), "--warehouse", str(settings.warehouse)]
    )
    assert done.exit_code == 1, done.output
    message = " ".join(done.stderr.split())
    assert "gold.facts: rule no_single_source (severity fail) is broken by" in message
    assert "The candidate was not published: gold.* still shows the previous release" in message

    assert lake.version(GOLD_RELEASE.store) == release
    assert {t: sorted(map(tuple, lake.read(t).collect())) for t in GOLD_TABLES} == before
    assert {t: lake.version(t) for t in outside} == outside
    (rejected,) = (
        lake.read(AUDIT_LAYER_RUNS.name).where("unit = 'gold' AND status = 'rejected'").collect()
    )
    assert "no_single_source" in rejected["error"]
    candidate = lake.read("gold_build.facts", version=rejected["outputs"]["gold_build.facts"])
    assert candidate.where("status = 'single_source'").count() > 0
