"""The Dagster code location: asset keys, one materialization of the whole graph, the sensor.

Runs in the test session's SparkSession (tests/conftest.py): LakeResource reaches it through
lake.spark.get_spark, which returns the active session, so no second JVM starts.
"""

import shutil
import time

import dagster as dg
import pytest
from pyspark.sql import functions as F

from lake.storage import Lake
from orchestration.definitions import defs
from orchestration.resources import LakeResource
from orchestration.sensors import FULL_JOB

from ..conftest import SEEDS

# A rename shows up here in review.
EXPECTED_ASSET_KEYS = [
    "bronze/articles",
    "bronze/rejects",
    "gold/fact_conflicts",
    "gold/fact_evidence",
    "gold/facts",
    "gold_intermediate/int_claims_intervals",
    "gold_intermediate/int_claims_reconciled",
    "gold_staging/stg_bronze__articles",
    "gold_staging/stg_silver__claims",
    "silver/claims",
    "silver/claims_quarantine",
]


@pytest.fixture(scope="module")
def definitions() -> dg.Definitions:
    return defs()


def test_definitions_load_with_the_expected_asset_keys(definitions):
    graph = definitions.resolve_asset_graph()
    keys = sorted(key.to_user_string() for key in graph.get_all_asset_keys())
    assert keys == EXPECTED_ASSET_KEYS
    # dbt sources land on the Python assets' keys: lineage from bronze to gold is unbroken.
    parents = {
        k.to_user_string(): {p.to_user_string() for p in graph.get(k).parent_keys}
        for k in graph.get_all_asset_keys()
    }
    assert parents["gold_staging/stg_bronze__articles"] == {"bronze/articles"}
    assert parents["gold_staging/stg_silver__claims"] == {"silver/claims"}
    assert parents["silver/claims"] == {"bronze/articles"}
    # dbt tests on models are asset checks; the whole dbt project is one step, after silver.
    checks = {(c.asset_key.to_user_string(), c.name) for c in graph.asset_check_keys}
    assert ("gold/facts", "unique_facts_fact_id") in checks
    assert len(checks) == 39
    job = definitions.resolve_job_def(FULL_JOB)
    assert sorted(job.graph.node_dict) == ["bronze_ingest", "gold_dbt_build", "silver_extract"]
    assert job.executor_def is dg.in_process_executor
    assert definitions.resolve_schedule_def("claimhouse_daily").job_name == FULL_JOB


@pytest.mark.slow
def test_materializing_every_asset_builds_gold_facts_from_the_seeds(spark, definitions, tmp_path):
    warehouse = tmp_path / "warehouse"
    lake_resource = LakeResource(warehouse=str(warehouse), input_dir=str(SEEDS))
    started = time.perf_counter()
    result = dg.materialize(definitions.assets, resources={"lake": lake_resource})
    print(f"full materialization: {time.perf_counter() - started:.1f} s")
    assert result.success

    materialized = {
        event.asset_key.to_user_string(): event.materialization.metadata
        for event in result.get_asset_materialization_events()
    }
    assert sorted(materialized) == EXPECTED_ASSET_KEYS
    for key, metadata in materialized.items():
        assert {"dagster/row_count", "delta_version", "path", "preview"} <= set(metadata), key
        layer, table = key.split("/")
        assert metadata["path"].value == str(warehouse / layer / table)
    assert materialized["bronze/articles"]["dagster/row_count"].value == 5
    assert materialized["gold/facts"]["dagster/row_count"].value > 0
    assert "rows_quarantined" in materialized["silver/claims"]
    assert "| measure_key |" in materialized["gold/facts"]["preview"].value

    checks = result.get_asset_check_evaluations()
    assert len(checks) == 39
    assert [c.check_name for c in checks if not c.passed] == []

    lake = Lake(spark, warehouse)
    assert lake.count("gold.facts") > 0
    (fact,) = lake.read("gold.facts").where(F.col("measure_key") == "arrests/per_day").collect()
    assert (fact["status"], fact["article_count"]) == ("corroborated", 5)
    assert fact["run_id"] == result.run_id  # one run id from Dagster to the gold rows


def test_sensor_requests_a_run_when_input_files_are_added_or_changed(definitions, tmp_path):
    input_dir = tmp_path / "input"
    shutil.copytree(SEEDS, input_dir)
    sensor = definitions.resolve_sensor_def("input_folder_sensor")
    resources = {"lake": LakeResource(input_dir=str(input_dir))}

    def tick(cursor):
        context = dg.build_sensor_context(cursor=cursor, resources=resources)
        return sensor.evaluate_tick(context)

    first = tick(None)
    assert len(first.run_requests) == 1
    assert first.cursor

    unchanged = tick(first.cursor)
    assert unchanged.run_requests == []
    assert unchanged.cursor == first.cursor

    (input_dir / "005_new.txt").write_text("Officials said 12 people were arrested.\n")
    added = tick(unchanged.cursor)
    assert len(added.run_requests) == 1
    assert added.cursor != first.cursor
    assert added.run_requests[0].run_key == added.cursor

    (input_dir / ".hidden.txt").write_text("ignored, as bronze ingest ignores it\n")
    assert tick(added.cursor).run_requests == []
