"""`run_pipeline` end to end under a stricter contract: quarantined claims stay out of gold,
the good ones reach it; a rerun with nothing new leaves gold alone."""

from __future__ import annotations

import pytest
from pyspark.sql import functions as F

from lake.config import load_settings
from lake.gold.build import GOLD_TABLES, gold_is_current
from lake.pipeline import run_pipeline
from lake.storage import Lake

from ..conftest import SEEDS, contracts_with_strict_attribution

SEED_CLAIMS = 43  # tests/fixtures/seed_claims.yaml


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
    assert evidence == {r[0] for r in claims.select("claim_id").collect()}
    assert evidence.isdisjoint(r["claim_id"] for r in quarantined)

    # Rerun: no new file, so silver and bronze keep their versions and dbt does not run.
    versions = {table: lake.version(table) for table in GOLD_TABLES}
    again = run_pipeline(spark, settings, "strict2")
    assert (again.gold_current, again.gold) == (True, None)
    assert {table: lake.version(table) for table in GOLD_TABLES} == versions
    assert again.silver.articles_processed == 0
    # Any new silver version (here: one claim rewritten) makes gold stale again.
    clean = lake.version("silver.claims")
    claims.limit(1).write.format("delta").mode("append").save(str(lake.path("silver.claims")))
    assert not gold_is_current(lake)
    spark.sql(f"RESTORE TABLE delta.`{lake.path('silver.claims')}` TO VERSION AS OF {clean}")

    # A writer commits to silver while dbt builds: the stamp keeps the versions dbt started
    # from, so the next run rebuilds instead of calling gold current.
    import lake.gold.build as gold_build

    real_invoke = gold_build._invoke

    def invoke_while_silver_changes(*args, **kwargs):
        summary = real_invoke(*args, **kwargs)
        spark.sql(
            f"ALTER TABLE delta.`{lake.path('silver.claims')}` "
            "SET TBLPROPERTIES ('claimhouse.test.touched' = 'true')"
        )
        return summary

    monkeypatch.setattr(gold_build, "_invoke", invoke_while_silver_changes)
    silver_before = lake.version("silver.claims")
    gold_build.build_gold(spark, settings, "strict3")
    assert lake.version("silver.claims") == silver_before + 1
    assert not gold_is_current(lake)
