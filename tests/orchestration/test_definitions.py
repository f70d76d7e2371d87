"""The Dagster code location: asset keys, one materialization of the whole graph, the sensor.

Runs in the test session's SparkSession (tests/conftest.py): LakeResource reaches it through
lake.spark.get_spark, which returns the active session, so no second JVM starts.
"""

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import dagster as dg
import pytest
from pyspark.sql import functions as F

from evaluation.compare import table_differences
from lake import maintenance
from lake.storage import Lake
from orchestration.definitions import defs
from orchestration.defs.automation import FULL_JOB
from orchestration.defs.maintenance import MAINTENANCE_JOB, forget_old_runs
from orchestration.defs.validation import VALIDATE_JOB
from orchestration.resources import LakeResource

from ..conftest import REPO, SEEDS, contracts_with_strict_attribution

SILVER_CONTRACT_CHECKS = {
    "article_exists",
    "attribution_in_body",
    "attribution_kind_allowed_values",
    "attribution_kind_not_null",
    "attribution_present",
    "bounds_contain_value",
    "claim_id_not_null",
    "claim_id_type",
    "claim_id_unique",
    "date_granularity_allowed_values",
    "date_resolution_allowed_values",
    "dates_have_provenance",
    "frame_parts_in_sentence",
    "kind_allowed_values",
    "kind_not_null",
    "qualifier_allowed_values",
    "qualifier_not_null",
    "range_has_both_ends",
    "span_matches_body",
    "times_in_utc_minutes",
    "value_finite",
    "value_present",
}

# A rename shows up here in review.
EXPECTED_ASSET_KEYS = [
    "bronze/articles",
    "bronze/rejects",
    "gold/fact_conflicts",
    "gold/fact_evidence",
    "gold/facts",
    "gold_intermediate/claim_intervals",
    "gold_intermediate/claims_reconciled",
    "gold_intermediate/measure_merges",
    "gold_intermediate/precise_merges",
    "gold_intermediate/touched_stories",
    "silver/article_stories",
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
    assert parents["silver/claims"] == {"bronze/articles"}
    assert parents["silver/article_stories"] == {"bronze/articles"}
    # Staging models are ephemeral (no asset): the first intermediate model reads silver.
    assert parents["gold_intermediate/claim_intervals"] == {
        "silver/claims",
        "silver/article_stories",
        "gold_intermediate/touched_stories",
    }
    assert parents["gold/facts"] == {
        "bronze/articles",
        "gold_intermediate/claims_reconciled",
        "gold_intermediate/measure_merges",
        "gold_intermediate/touched_stories",
    }
    # facts reconcile after measures merge: intervals -> per measure and precise merges ->
    # synonyms and vague measures -> per fact; each rebuilds the stories silver changed
    touched = "gold_intermediate/touched_stories"
    assert parents[touched] == {"silver/claims", "silver/article_stories"}
    assert parents["gold_intermediate/precise_merges"] == {
        "gold_intermediate/claim_intervals",
        touched,
    }
    assert parents["gold_intermediate/measure_merges"] == {
        "gold_intermediate/precise_merges",
        "gold_intermediate/claim_intervals",
        touched,
    }
    assert parents["gold_intermediate/claims_reconciled"] == {
        "gold_intermediate/claim_intervals",
        "gold_intermediate/measure_merges",
        touched,
    }
    # dbt tests on models are asset checks; the whole dbt project is one step, after silver.
    checks = {(c.asset_key.to_user_string(), c.name) for c in graph.asset_check_keys}
    assert ("gold/facts", "unique_facts_fact_id") in checks
    # dbt data tests on the marts (4 key tests; not the intermediate models' `internal` ones,
    # which the pipeline's build leaves out) plus one check per contract rule (47,
    # expectations/contracts/). The marts' row rules are Delta constraints, not checks.
    assert len(checks) == 51
    assert not any(name.startswith("unique_int_") for _, name in checks)
    by_asset = {}
    for key, name in checks:
        by_asset.setdefault(key, set()).add(name)
    assert by_asset["silver/claims"] >= SILVER_CONTRACT_CHECKS
    assert {"file_accounted_for", "article_id_unique"} <= by_asset["bronze/articles"]
    assert {"fact_has_evidence", "corroborated_evidence_agrees"} <= by_asset["gold/facts"]
    assert "evidence_matches_silver" in by_asset["gold/fact_evidence"]
    assert "story_size_is_its_articles" in by_asset["silver/article_stories"]
    # `fail` rules block what is downstream; quarantine and warn rules only report.
    specs = {
        spec.name: spec
        for assets_def in definitions.assets
        for spec in assets_def.check_specs
        if spec.asset_key == dg.AssetKey(["silver", "claims"])
    }
    assert specs["claim_id_unique"].blocking
    assert not specs["attribution_present"].blocking
    assert not specs["attribution_in_body"].blocking
    job = definitions.resolve_job_def(FULL_JOB)
    assert sorted(job.graph.node_dict) == [
        "bronze",
        "gold_contracts",
        "gold_dbt_build",
        "silver_claims",
        "silver_stories",
    ]
    assert job.executor_def is dg.in_process_executor
    # The Launchpad can ask the gold step to rebuild every story.
    gold_step = job.graph.node_dict["gold_dbt_build"].definition
    assert "full_refresh" in gold_step.config_schema.config_type.fields
    assert definitions.resolve_schedule_def("claimhouse_daily").job_name == VALIDATE_JOB


def _everything(definitions: dg.Definitions) -> list:
    return [*definitions.assets, *definitions.asset_checks]


@pytest.fixture(scope="module")
def full_run(spark, definitions, tmp_path_factory):
    """One materialization of every asset and check on a copy of the seeds:
    (warehouse, input folder, resources, result, seconds)."""
    work = tmp_path_factory.mktemp("dagster")
    warehouse, input_dir = work / "warehouse", work / "input"
    shutil.copytree(SEEDS, input_dir)
    resources = {"lake": LakeResource(warehouse=str(warehouse), input_dir=str(input_dir))}
    started = time.perf_counter()
    result = dg.materialize(_everything(definitions), resources=resources)
    seconds = time.perf_counter() - started
    print(f"full materialization: {seconds:.1f} s")
    return warehouse, input_dir, resources, result, seconds


@pytest.mark.slow
def test_materializing_every_asset_builds_gold_facts_from_the_seeds(spark, full_run):
    warehouse, _, _, result, _ = full_run
    assert result.success

    materialized = {
        event.asset_key.to_user_string(): event.materialization.metadata
        for event in result.get_asset_materialization_events()
    }
    assert sorted(materialized) == EXPECTED_ASSET_KEYS
    for key, metadata in materialized.items():
        assert {"dagster/row_count", "delta_version", "path", "preview"} <= set(metadata), key
        layer, table = key.split("/")
        # dbt builds gold's tables in gold_build (the candidate, published once it passed)
        layer = "gold_build" if layer == "gold" else layer
        assert metadata["path"].value == str(warehouse / layer / table)
    assert materialized["bronze/articles"]["dagster/row_count"].value == 5
    assert materialized["gold/facts"]["dagster/row_count"].value > 0
    assert "rows_quarantined" in materialized["silver/claims"]
    assert "| measure_key |" in materialized["gold/facts"]["preview"].value

    checks = result.get_asset_check_evaluations()
    assert len(checks) == 51
    assert [c.check_name for c in checks if not c.passed] == []
    silver = {c.check_name: c.metadata for c in checks if c.asset_key.path == ["silver", "claims"]}
    assert set(silver) == SILVER_CONTRACT_CHECKS
    assert silver["span_matches_body"]["rows_checked"].value == 48
    assert silver["span_matches_body"]["rows_broken"].value == 0

    lake = Lake(spark, warehouse)
    assert lake.count("gold.facts") > 0
    (fact,) = lake.read("gold.facts").where(F.col("measure_key") == "arrests/per_day").collect()
    assert (fact["status"], fact["article_count"]) == ("corroborated", 5)
    assert fact["run_id"] == result.run_id  # one run id from Dagster to the gold rows


@pytest.mark.slow
def test_dagster_and_the_cli_build_identical_tables_from_the_same_input(spark, full_run, cli_run):
    """The CLI (`claimhouse run`, its own process) and a Dagster materialization of every
    asset run the same units: every table they publish holds the same rows, but for the run
    ids and the times rows were written."""
    dagster_warehouse, _, _, result, _ = full_run
    cli_warehouse, done = cli_run
    assert result.success and done.returncode == 0, done.stderr[-2000:]
    differences = table_differences(spark, cli_warehouse, dagster_warehouse)
    assert {t: d for t, d in differences.items() if d["only_in_a"] or d["only_in_b"]} == {}
    assert differences["silver.claims"]["rows_a"] == 48
    assert differences["gold.facts"]["rows_a"] == 30
    # Both record the same four units, each with the input versions it read.
    runs = [
        {
            r["unit"]: (r["status"], dict(r["inputs"]))
            for r in Lake(spark, wh).read("audit.layer_runs").orderBy("finished_at").collect()
        }
        for wh in (cli_warehouse, dagster_warehouse)
    ]
    assert runs[0] == runs[1]
    assert sorted(runs[0]) == ["bronze", "gold", "silver.claims", "silver.stories"]


@pytest.mark.slow
def test_the_daily_validation_job_checks_every_contracted_table(spark, definitions, full_run):
    warehouse, _, resources, first, _ = full_run
    assert first.success
    job = definitions.resolve_job_def(VALIDATE_JOB)
    result = job.execute_in_process(resources=resources)
    assert result.success
    summary = result.output_for_node("validate_contracts")
    assert sorted(summary) == [
        "bronze.articles",
        "bronze.ingest_log",
        "gold.fact_conflicts",
        "gold.fact_evidence",
        "gold.facts",
        "silver.article_stories",
        "silver.claims",
    ]
    assert all(t["broken"] == 0 for t in summary.values())
    recorded = (
        Lake(spark, warehouse).read("audit.dq_results").where(F.col("run_id") == result.run_id)
    )
    assert recorded.count() == sum(t["rules"] for t in summary.values()) == 47


@pytest.mark.slow
def test_the_maintenance_job_compacts_the_tables_and_changes_no_row(spark, definitions, full_run):
    """Scheduled daily; on the materialized seeds it compacts what has small files, records
    itself in audit.layer_runs, and every table reads the same rows (the sensor's run below
    then finds every unit current but for the new article)."""
    warehouse, _, resources, first, _ = full_run
    assert first.success
    schedule = definitions.resolve_schedule_def("claimhouse_maintenance_daily")
    assert (schedule.job_name, schedule.cron_schedule) == (MAINTENANCE_JOB, "0 4 * * *")
    lake = Lake(spark, warehouse)
    tables = maintenance.physical_tables(lake)
    before = {
        t: sorted(map(tuple, lake.read(t).collect()))
        for t in tables
        if t.startswith(("silver", "gold"))
    }
    result = definitions.resolve_job_def(MAINTENANCE_JOB).execute_in_process(resources=resources)
    assert result.success
    done = result.output_for_node("maintain_tables")
    assert sorted(done["tables"]) == tables
    assert done["tables"]["silver.claims"]["compacted_from"] > 1
    assert {t: sorted(map(tuple, lake.read(t).collect())) for t in before} == before
    recorded = lake.read("audit.layer_runs").where("unit = 'maintenance'").collect()
    assert [(r.run_id, r.status) for r in recorded] == [(result.run_id, "published")]


def test_runs_past_the_retention_are_deleted_from_the_instance_but_the_running_one():
    @dg.op
    def nothing() -> None:
        return None

    @dg.job
    def tiny():
        nothing()

    with dg.DagsterInstance.ephemeral() as instance:
        old = tiny.execute_in_process(instance=instance).run_id
        running = tiny.execute_in_process(instance=instance).run_id
        assert forget_old_runs(instance, 30, keep=running) == 0  # none is 30 days old
        assert forget_old_runs(instance, 0, keep=running) == 1
        assert [r.run_id for r in instance.get_runs()] == [running]
        assert instance.all_logs(old) == []


NEW_ARTICLE = (
    "Storm closes port\n\n"
    "The harbor authority said 14 cargo ships were held outside the port on Tuesday. "
    "About 300 dock workers were sent home, according to a union spokeswoman.\n"
)


@pytest.mark.slow
def test_a_sensor_run_after_one_new_article_processes_only_that_article(
    spark, definitions, full_run
):
    warehouse, input_dir, resources, first, full_seconds = full_run
    assert first.success
    sensor = definitions.resolve_sensor_def("input_folder_sensor")

    def tick(cursor):
        context = dg.build_sensor_context(cursor=cursor, resources=resources)
        return sensor.evaluate_tick(context)

    settled = tick(None).cursor
    (input_dir / "005_port.txt").write_text(NEW_ARTICLE)
    (request,) = tick(settled).run_requests

    started = time.perf_counter()
    result = dg.materialize(_everything(definitions), resources=resources, tags=request.tags)
    seconds = time.perf_counter() - started
    print(f"incremental run: {seconds:.1f} s ({seconds / full_seconds:.0%} of the full run)")
    assert result.success
    lake = Lake(spark, warehouse)
    run = F.col("run_id") == result.run_id
    outcomes = {
        r["outcome"]: r["n"]
        for r in lake.read("bronze.ingest_log")
        .where(run)
        .groupBy("outcome")
        .count()
        .withColumnRenamed("count", "n")
        .collect()
    }
    # The five seeds are left unread: counted in the run's summary, not logged again.
    assert outcomes == {"new": 1}
    (bronze,) = lake.read("audit.layer_runs").where(run & (F.col("unit") == "bronze")).collect()
    assert json.loads(bronze["summary"])["unchanged"] == 5
    (extracted,) = lake.read("silver.extractions").where(run).collect()
    assert extracted["claims"] == lake.read("silver.claims").where(run).count() == 3
    assert lake.count("bronze.articles") == 6
    ships = lake.read("gold.facts").where(F.col("unit") == "ships").collect()
    assert [(f["consensus_value"], f["status"]) for f in ships] == [(14.0, "single_source")]
    # Gold rebuilt only the stories the article touched: the one it was in before it was grouped
    # (its own id) and the one it is in now.
    (article,) = lake.read("bronze.articles").where(run).select("article_id").collect()
    (story,) = (
        lake.read("silver.article_stories")
        .where(F.col("article_id") == article["article_id"])
        .select("story_id")
        .collect()
    )
    (gold_run,) = lake.read("audit.layer_runs").where(run & (F.col("unit") == "gold")).collect()
    summary = json.loads(gold_run["summary"])
    assert summary["incremental"] is True
    assert summary["stories_touched"] == len({article["article_id"], story["story_id"]})


@pytest.mark.slow
def test_stories_alone_then_a_broken_fail_rule_is_a_failed_blocking_check_and_gold_is_not_built(
    spark, tmp_path, monkeypatch
):
    # A stricter team contract: every claim must name a source, severity fail.
    contracts = contracts_with_strict_attribution(tmp_path, "fail")
    monkeypatch.setenv("CLAIMHOUSE_CONTRACTS", str(contracts))
    strict = defs()
    warehouse = tmp_path / "warehouse"
    resources = {"lake": LakeResource(warehouse=str(warehouse), input_dir=str(SEEDS))}
    everything = _everything(strict)

    # Stories are an asset of their own: after bronze, a run of that one asset groups the
    # articles without extracting a claim.
    bronze = dg.materialize(
        everything, resources=resources, selection=["bronze/articles", "bronze/rejects"]
    )
    assert bronze.success
    stories = dg.materialize(everything, resources=resources, selection=["silver/article_stories"])
    assert stories.success
    (event,) = stories.get_asset_materialization_events()
    assert event.asset_key.to_user_string() == "silver/article_stories"
    metadata = event.materialization.metadata
    assert (metadata["unit_status"].value, metadata["placement"].value) == ("published", "whole")
    assert Lake(spark, warehouse).count("silver.article_stories") == 5
    assert not Lake(spark, warehouse).exists("silver.claims")

    # Then every asset, under the stricter contract: silver's check fails and blocks gold.
    result = dg.materialize(everything, resources=resources, raise_on_error=False)

    assert not result.success
    failed = [
        (c.asset_key.to_user_string(), c.check_name, c.metadata["rows_broken"].value)
        for c in result.get_asset_check_evaluations()
        if not c.passed
    ]
    unattributed = (
        Lake(spark, warehouse)
        .read("audit.dq_results")
        .where("rule = 'attribution_present'")
        .first()["unexpected_count"]
    )
    assert unattributed > 0
    assert failed == [("silver/claims", "attribution_present", unattributed)]
    spec = next(s for a in strict.assets for s in a.check_specs if s.name == "attribution_present")
    assert spec.blocking
    materialized = {e.asset_key.to_user_string() for e in result.get_asset_materialization_events()}
    # Stories need only bronze; nothing after silver.claims was built.
    assert materialized == {"bronze/articles", "bronze/rejects", "silver/article_stories"}
    assert not (warehouse / "gold_build").exists() and not (warehouse / "gold_release").exists()
    assert Lake(spark, warehouse).count("silver.claims") == 0


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


def test_sensor_waits_while_a_file_is_still_being_written(definitions, tmp_path, monkeypatch):
    """A file modified within the settle time may be half copied: the sensor skips, keeps its
    cursor, and requests the run once the file has been left alone long enough."""
    input_dir = tmp_path / "input"
    shutil.copytree(SEEDS, input_dir)
    sensor = definitions.resolve_sensor_def("input_folder_sensor")
    resources = {"lake": LakeResource(input_dir=str(input_dir))}

    def tick(cursor):
        return sensor.evaluate_tick(dg.build_sensor_context(cursor=cursor, resources=resources))

    monkeypatch.setenv("CLAIMHOUSE_SETTLE_S", "0")
    first = tick(None).cursor
    monkeypatch.setenv("CLAIMHOUSE_SETTLE_S", "2")
    time.sleep(2.2)  # the copied seeds settle
    (input_dir / "005_copying.txt").write_text("Officials said 12 people were")
    waiting = tick(first)
    assert waiting.run_requests == []
    assert waiting.skip_message == (
        f"1 file in {input_dir} is still being written; waiting for it to be unchanged for 2 s"
    )
    time.sleep(2.2)
    settled = tick(first)
    assert len(settled.run_requests) == 1


def test_sensor_survives_a_file_name_that_is_not_utf8(definitions, tmp_path):
    input_dir = tmp_path / "input"
    input_dir.mkdir()
    (input_dir / os.fsdecode(b"caf\xe9.txt")).write_text("Officials said 12 people came.")
    sensor = definitions.resolve_sensor_def("input_folder_sensor")
    resources = {"lake": LakeResource(input_dir=str(input_dir))}
    result = sensor.evaluate_tick(dg.build_sensor_context(cursor=None, resources=resources))
    assert len(result.run_requests) == 1


def test_dagster_finds_the_code_location_from_the_repository_root_without_m():
    """pyproject.toml's [tool.dagster] block, as Dagster projects carry it."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CLAIMHOUSE_", "DAGSTER_"))}
    done = subprocess.run(
        [str(Path(sys.executable).parent / "dagster"), "definitions", "validate"],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Validation successful for code location orchestration.definitions" in done.stdout
