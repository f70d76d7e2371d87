"""Gold: the dbt project built in the test session's Spark, checked on the seed articles."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading

import pytest
import yaml
from pyspark.sql import functions as F

from evaluation.facts import score_lake
from lake.gold import build as gold_unit
from lake.layer import execute, is_current, open_run
from lake.schemas import GOLD_BUILD_TABLES, GOLD_RELEASE
from lake.storage import Lake

from ..conftest import REPO, UNRECONCILED_MEASURES

DBT_PROJECT = REPO / "dbt_project"


def _fact(lake: Lake, measure_key: str):
    rows = lake.read("gold.facts").where(F.col("measure_key") == measure_key).collect()
    assert len(rows) == 1, f"{len(rows)} facts for {measure_key}"
    return rows[0]


def test_dbt_models_and_data_tests_pass(gold):
    _, _, output, _ = gold
    # The marts' 4 key tests (three unique, one relationship); the pipeline's build leaves out
    # the unit tests (the shell build below runs them) and the 17 tests tagged internal (the
    # intermediate models' invariants). Row rules are the marts' Delta constraints (below), the
    # rules across gold's tables are gold's contracts (expectations/contracts/gold.*.yml), and
    # gold's inputs are held by silver's and bronze's, so dbt does not test its sources again.
    assert (
        "gold: 8 dbt models built (every story), 4 tests passed, contracts passed; published"
        in " ".join(output.split())
    )


def test_each_mart_holds_its_row_rules_as_delta_constraints(gold, spark):
    lake, settings, _, _ = gold
    declared = yaml.safe_load((DBT_PROJECT / "models/marts/_marts.yml").read_text())["models"]
    for model in declared:
        path = settings.warehouse / "gold_build" / model["name"]
        properties = spark.sql(f"SHOW TBLPROPERTIES delta.`{path}`").collect()
        held = {
            r["key"].removeprefix("delta.constraints.")
            for r in properties
            if r["key"].startswith("delta.constraints.")
        }
        assert held == {c["name"] for c in model["constraints"]}, model["name"]
        # Held from the write that created the table: no version without them, no ALTER each.
        operations = [
            r["operation"]
            for r in spark.sql(f"DESCRIBE HISTORY delta.`{path}`").select("operation").collect()
        ]
        assert operations[-1] == "CREATE OR REPLACE TABLE AS SELECT", model["name"]
        assert "ADD CONSTRAINT" not in operations, model["name"]

    # A write that breaks one is refused whole, naming the rule and the row; nothing changes.
    facts = str(settings.warehouse / "gold_build" / "facts")
    version = spark.sql(f"DESCRIBE HISTORY delta.`{facts}` LIMIT 1").first()["version"]
    rows = spark.read.format("delta").load(facts)
    good = rows.limit(2).collect()
    second = F.col("fact_id") == good[1]["fact_id"]
    bad = spark.createDataFrame(good, rows.schema).withColumn(
        "status", F.when(second, "disputed").otherwise(F.col("status"))
    )
    with pytest.raises(Exception, match="CHECK constraint facts_status_known .* violated") as err:
        bad.write.format("delta").mode("append").save(facts)
    assert "status : disputed" in str(err.value)
    assert spark.sql(f"DESCRIBE HISTORY delta.`{facts}` LIMIT 1").first()["version"] == version
    assert spark.read.format("delta").load(facts).count() == rows.count()


def test_the_daily_arrest_target_is_corroborated_by_all_five_articles(gold):
    lake, _, _, names = gold
    fact = _fact(lake, "arrests/per_day")
    assert (fact["kind"], fact["per"], fact["consensus_value"], fact["status"]) == (
        "rate",
        "day",
        3000.0,
        "corroborated",
    )
    assert sorted(names[a] for a in fact["articles"]) == ["000", "001", "002", "003", "004"]
    assert fact["article_count"] == 5
    assert fact["label"] == "arrests per day"
    # Built by a run that published gold (the CLI's, or the rebuild test's g2).
    published = lake.read("audit.layer_runs").where("unit = 'gold' AND status = 'published'")
    assert fact["run_id"] in {r["run_id"] for r in published.collect()}


def test_the_meeting_date_conflicts_may_20_against_may_21(gold):
    lake, _, _, names = gold
    fact = _fact(lake, "date:meeting")
    assert (fact["status"], fact["consensus_text"], fact["value_group_count"]) == (
        "conflicting",
        "--05-20",
        2,
    )
    (conflict,) = (
        lake.read("gold.fact_conflicts").where(F.col("fact_id") == fact["fact_id"]).collect()
    )
    assert (conflict["value_a"], conflict["value_b"]) == ("--05-20", "--05-21")
    assert sorted(names[a] for a in conflict["articles_a"]) == ["002", "003"]
    assert [names[a] for a in conflict["articles_b"]] == ["004"]
    assert conflict["attributions_a"] == ["The agency", "the Washington Examiner"]
    assert conflict["attributions_b"] == ["four people familiar with the meeting"]
    # "a mid-May meeting" agrees with both sides, so it takes neither and agrees with the
    # consensus. The other "mid-May" dates what Miller did ("In mid-May, ... Miller ...
    # berated"), another event: a fact of its own, never a side of this conflict.
    mid_may = (
        lake.read("gold.fact_evidence")
        .where(F.col("claim_text") == "mid-May")
        .select((F.col("fact_id") == fact["fact_id"]).alias("meeting"), "agrees")
        .collect()
    )
    assert sorted((r["meeting"], r["agrees"]) for r in mid_may) == [(False, True), (True, True)]


def test_every_table_s_count_from_the_log_is_spark_s_count(gold):
    """Released tables count their partition of the release, at its current and first
    version; the report view is counted by Spark."""
    lake, _, _, _ = gold
    tables = lake.tables()
    assert {"gold.facts", "gold.conflicts_report", "silver.claims"} <= set(tables)
    assert {t: lake.count(t) for t in tables} == {t: lake.read(t).count() for t in tables}
    first = {t: lake.count(t, 0) for t in map(GOLD_RELEASE.published, GOLD_RELEASE.tables)}
    assert first == {t: lake.read(t, 0).count() for t in first}


def test_the_conflicts_report_lets_a_person_judge_may_20_against_may_21(gold):
    """One row per claim on a side, with outlet, title, file, quote and attribution: no join
    needed. A date without a year reads as such; the ISO form stays in gold.fact_conflicts."""
    lake, _, _, _ = gold
    fact = _fact(lake, "date:meeting")
    assert fact["consensus_readable"] == "May 20 (year not stated)"
    rows = (
        lake.read("gold.conflicts_report")
        .where(F.col("fact_id") == fact["fact_id"])
        .orderBy("side", "source_file")
        .collect()
    )
    seen = [
        (r["side"], r["side_value"], r["other_value"], r["source_file"][:3], r["outlet"])
        + (r["attribution"], r["claim_text"])
        for r in rows
    ]
    may_20, may_21 = "May 20 (year not stated)", "May 21 (year not stated)"
    assert seen == [
        ("a", may_20, may_21, "002", "Latin Times", "the Washington Examiner", "May 20"),
        ("a", may_20, may_21, "003", None, "The agency", "Tuesday, May 20"),
        ("b", may_21, may_20, "004", None, "four people familiar with the meeting", "May 21"),
    ]
    assert rows[0]["quote"] == (
        "The episode took place during a tense meeting on May 20, according to the Washington "
        "Examiner."
    )
    for r in rows:
        assert r["claim_text"] in r["quote"] and r["label"] == "date of the meeting"
    # The ISO form stays where it was.
    (conflict,) = (
        lake.read("gold.fact_conflicts").where(F.col("fact_id") == fact["fact_id"]).collect()
    )
    assert (conflict["value_a"], conflict["value_a_readable"]) == ("--05-20", may_20)
    assert len(conflict["claims_a"]) == 2 and len(conflict["claims_b"]) == 1


def test_describe_shows_dbt_s_column_docs_on_every_gold_view(gold, spark):
    lake, _, _, _ = gold
    lake.register_all()
    for view in ("gold.facts", "gold.fact_evidence", "gold.fact_conflicts"):
        comments = {r["col_name"]: r["comment"] for r in spark.sql(f"DESCRIBE {view}").collect()}
        assert all(comments.values()), (view, [c for c, doc in comments.items() if not doc])
    assert comments["claims_a"].startswith("Claims that fit value_a and not value_b")


def test_3000_ice_agents_are_another_fact_than_3000_arrests_a_day(gold):
    lake, _, _, _ = gold
    agents = _fact(lake, "ice agents")
    arrests = _fact(lake, "arrests/per_day")
    assert agents["fact_id"] != arrests["fact_id"]
    assert (agents["kind"], agents["consensus_value"], agents["status"]) == (
        "count",
        3000.0,
        "single_source",
    )
    evidence = (
        lake.read("gold.fact_evidence")
        .where(F.col("fact_id") == agents["fact_id"])
        .select("claim_text", "attribution_kind", "agrees")
        .collect()
    )
    assert [tuple(r) for r in evidence] == [("3,000 ICE agents", "document", True)]


def test_every_silver_claim_is_evidence_of_exactly_one_fact_but_when_a_source_spoke(gold):
    lake, _, _, names = gold
    claims = lake.read("silver.claims")
    evidence = lake.read("gold.fact_evidence").select("claim_id")
    # "for four years" names nothing it measures (dbt var unreconciled_measures). When a
    # source spoke ("told the outlet on Thursday") is a fact of its own (var
    # named_only_measures), not left out.
    unreconciled = F.col("measure_key").isin(UNRECONCILED_MEASURES)
    left_out = claims.where(unreconciled).collect()
    assert sorted((names[r["article_id"]], r["claim_text"]) for r in left_out) == [
        ("002", "four years"),
        ("003", "four years"),
    ]
    reconciled = claims.where(~unreconciled).select("claim_id")
    assert evidence.count() == reconciled.count() == claims.count() - 2
    assert reconciled.exceptAll(evidence).count() == 0


def test_fact_scores_on_the_labelled_seed_facts(gold):
    lake, settings, _, _ = gold
    score = score_lake(lake.spark, settings.warehouse, REPO / "tests/fixtures/seed_facts.yaml")
    assert score["conflict_recall"] == 1.0
    assert score["recall"] >= 0.85, score
    assert score["precision"] >= 0.75, score


def test_a_rebuild_keeps_fact_ids_and_adds_delta_versions(gold, spark, monkeypatch):
    lake, settings, _, _ = gold
    before_ids = {r[0] for r in lake.read("gold.facts").select("fact_id").collect()}
    before_version = lake.version("gold.facts")
    (first_run,) = {r[0] for r in lake.read("gold.facts").select("run_id").distinct().collect()}

    # A writer commits to silver while dbt builds: the unit records the versions it pinned
    # before dbt read them, so the next run rebuilds instead of calling gold current.
    real_invoke = gold_unit._invoke

    def invoke_while_silver_changes(*args, **kwargs):
        summary = real_invoke(*args, **kwargs)
        spark.sql(
            f"ALTER TABLE delta.`{lake.path('silver.claims')}` "
            "SET TBLPROPERTIES ('claimhouse.test.touched' = 'true')"
        )
        return summary

    monkeypatch.setattr(gold_unit, "_invoke", invoke_while_silver_changes)
    silver_before = lake.version("silver.claims")
    # A table an older project built under another name, still in the warehouse and catalog.
    intermediate = settings.warehouse / "gold_intermediate"
    shutil.copytree(intermediate / "claims_reconciled", intermediate / "int_claims_reconciled")
    lake.register_all()
    assert spark.catalog.tableExists("gold_intermediate.int_claims_reconciled")
    with open_run(spark, settings, "g2") as ctx:
        assert execute(gold_unit.UNIT, ctx).status == "unchanged"
        rebuilt = execute(gold_unit.UNIT, ctx, force=True)
    assert rebuilt.status == "published"
    assert rebuilt.inputs["silver.claims"] == silver_before
    assert lake.version("silver.claims") == silver_before + 1
    assert not is_current(lake, gold_unit.UNIT, settings)
    # The build keeps exactly its models' tables in the intermediate schema.
    assert sorted(p.name for p in intermediate.iterdir()) == [
        "claim_intervals",
        "claims_reconciled",
        "measure_merges",
        "precise_merges",
        "touched_stories",
    ]
    assert not spark.catalog.tableExists("gold_intermediate.int_claims_reconciled")

    after = lake.read("gold.facts")
    assert {r[0] for r in after.select("fact_id").collect()} == before_ids
    assert {r[0] for r in after.select("run_id").distinct().collect()} == {"g2"}
    assert lake.version("gold.facts") > before_version
    # Time travel still reads the first build.
    old = lake.read("gold.facts", version=before_version).select("run_id").distinct().collect()
    assert [r[0] for r in old] == [first_run]
    # dbt-spark's settings on the shared session are put back after the build.
    assert spark.conf.get("spark.sql.ansi.enabled") == "true"


# `dbt build` then `dbt docs generate`, as dbt's command line runs each (dbtRunner is its entry
# point), one after the other in one process: a shell user pays a JVM start per command, the
# test pays one for both.
DBT_SHELL = """
import sys
from dbt.cli.main import dbtRunner

runner, work = dbtRunner(), sys.argv[1]
commands = [("build --select int_claims_bounded+", "build"), ("docs generate", "docs")]
for command, target in commands:
    args = [*command.split(), "--target-path", f"{work}/{target}", "--log-path", work]
    print(f"=== dbt {command}", flush=True)
    if not runner.invoke(args).success:
        sys.exit(f"dbt {command} failed")
"""


@pytest.mark.slow
def test_dbt_build_and_docs_from_a_shell(spark, gold, tmp_path):
    """What a dbt user types in dbt_project/, in a fresh process with its own JVM and catalog,
    started as a tool starts it (subprocess cwd=, $PWD left at somewhere else): the jars, the
    log settings and the metastore are found from the project, not from $PWD."""
    _, settings, _, _ = gold
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("CLAIMHOUSE_")},
        "CLAIMHOUSE_WAREHOUSE": str(settings.warehouse),
        "PYSPARK_PYTHON": sys.executable,
        "PWD": str(tmp_path),
    }
    shell = subprocess.run(
        [sys.executable, "-c", DBT_SHELL, str(tmp_path)],
        cwd=DBT_PROJECT,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert shell.returncode == 0, shell.stdout[-3000:] + shell.stderr[-2000:]
    # build = run + test: the selected models, their data tests and their unit tests (every
    # model with unit tests is downstream of int_claims_bounded).
    built, docs = shell.stdout.split("=== dbt docs generate")
    # Gold as readers see it: the release's views, beside the tables dbt builds.
    assert "lake tables and 3 gold views registered" in built
    results = json.loads((tmp_path / "build" / "run_results.json").read_text())
    unit_tests = {
        r["unique_id"].split(".", 2)[2]: r["status"]
        for r in results["results"]
        if r["unique_id"].startswith("unit_test.")
    }
    assert unit_tests == {
        "int_claims_bounded.magnitude_bands_split_quantities_an_order_of_magnitude_apart": "pass",
        "int_claims_bounded.money_in_two_currencies_is_two_measures": "pass",
        "int_claims_bounded.frames_tell_one_measure_key_apart": "pass",
        "int_claims_reconciled.reconcile_agreement_disjoint_vague_dates_and_measures": "pass",
        "int_measures_merged_precisely.merge_measures_that_name_one_quantity": "pass",
        "int_measures_merged.learned_synonyms_take_in_a_disagreeing_minority": "pass",
        "int_measures_merged.a_vague_measure_joins_the_one_fact_it_fits": "pass",
        "int_measures_merged.rebuilds_the_stories_whose_synonyms_changed": "pass",
        "facts.fact_status_follows_groups_and_independent_sources": "pass",
    }
    # The intermediate models' invariants (tag internal), which the pipeline leaves out.
    assert "PASS unique_int_claims_reconciled_claim_id" in built
    # The build's Delta commits and gold's run_id name this dbt invocation.
    invocation = results["metadata"]["invocation_id"]
    lake = Lake(spark, settings.warehouse)
    last = lake.history("gold_build.facts").orderBy(F.desc("version")).first()
    assert last["userMetadata"] == f"dbt build {invocation}"
    assert [r[0] for r in lake.read("gold_build.facts").select("run_id").distinct().collect()] == [
        invocation
    ]
    assert "Catalog written" in docs
    catalog = (tmp_path / "docs" / "catalog.json").read_text()
    assert "model.claimhouse.facts" in catalog and "consensus_text" in catalog
    # The shell's Derby metastore stayed inside the warehouse.
    assert (settings.warehouse / "_spark" / "metastore_db").is_dir()
    assert not (DBT_PROJECT / "metastore_db").exists()
    shutil.rmtree(tmp_path / "build", ignore_errors=True)
    shutil.rmtree(tmp_path / "docs", ignore_errors=True)


@pytest.mark.slow
def test_readers_never_see_two_releases_at_once(spark, gold, tmp_path):
    """Six releases back to back, alternating between two candidates whose facts have
    different ids; a reader polling gold.fact_evidence joined to gold.facts through the views
    (another session, as a SQL endpoint's clients are) never finds evidence whose fact is
    missing, nor facts of one release beside conflicts of the other."""
    shutil.copytree(gold[1].warehouse, tmp_path / "wh")
    lake = Lake(spark, tmp_path / "wh")
    lake.register_all()
    first = {t: lake.version(t) for t in GOLD_BUILD_TABLES}
    # A second candidate: the same rows under other fact ids.
    for table in GOLD_BUILD_TABLES:
        renamed = lake.read(table).withColumn("fact_id", F.concat("fact_id", F.lit("-b")))
        renamed.write.format("delta").mode("overwrite").save(str(lake.path(table)))
    second = {t: lake.version(t) for t in GOLD_BUILD_TABLES}

    reader = spark.newSession()
    query = """
        SELECT
          (SELECT count(*) FROM gold.fact_evidence e LEFT ANTI JOIN gold.facts f
             ON f.fact_id = e.fact_id) AS dangling_evidence,
          (SELECT count(*) FROM gold.fact_conflicts c LEFT ANTI JOIN gold.facts f
             ON f.fact_id = c.fact_id) AS dangling_conflicts,
          (SELECT count(*) FROM gold.facts) AS facts
    """
    seen, stop = [], threading.Event()

    def poll():
        while not stop.is_set():
            seen.append(reader.sql(query).first().asDict())

    polling = threading.Thread(target=poll)
    polling.start()
    try:
        for i in range(6):
            lake.publish(GOLD_RELEASE, second if i % 2 == 0 else first, f"r{i}")
    finally:
        stop.set()
        polling.join()
    assert len(seen) >= 5
    assert [r for r in seen if r["dangling_evidence"] or r["dangling_conflicts"]] == []
    assert {r["facts"] for r in seen} == {lake.count("gold.facts")}
    assert lake.version(GOLD_RELEASE.store) >= 6


def test_staging_columns_are_what_the_staging_models_compile_to(spark, gold):
    """var staging_columns (the types dbt's unit tests give an ephemeral staging input) is
    each staging model's output, names and types in order."""
    _, settings, _, _ = gold
    declared = yaml.safe_load((DBT_PROJECT / "dbt_project.yml").read_text())["vars"][
        "staging_columns"
    ]
    compiled = settings.warehouse / "_dbt/target/compiled/claimhouse/models/staging"
    assert sorted(declared) == sorted(p.stem for p in compiled.glob("*.sql"))
    for model, columns in declared.items():
        schema = spark.sql((compiled / f"{model}.sql").read_text()).schema
        assert [(f.name, f.dataType.simpleString()) for f in schema] == list(columns.items())
