"""Gold per touched story: after batches of new, changed and duplicate articles, the incremental
builds equal a full refresh row for row, and a story no batch touched keeps its rows. The full
refresh builds a project with one constraint more, which the next incremental build breaks."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml
from pyspark.sql import functions as F

from lake.config import load_settings
from lake.gold.build import artifact_run_id, incremental_base
from lake.layer import last_published
from lake.pipeline import run_pipeline
from lake.schemas import GOLD_BUILD_TABLES, SILVER_CLAIMS
from lake.storage import Lake, LakeError
from synthetic.generate import generate

from ..conftest import REPO, SEEDS, claimhouse, copy_warehouse


def _copy_articles(paths: list[Path], corpus: Path, into: Path) -> None:
    for article in paths:
        for path in (article, article.with_suffix(".json")):
            target = into / "synthetic" / path.relative_to(corpus)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(path, target)


@pytest.mark.slow
def test_incremental_gold_equals_a_full_refresh_after_batches_of_changes(
    spark, cli_run, tmp_path, monkeypatch
):
    monkeypatch.setenv("CLAIMHOUSE_SETTLE_S", "0")  # the test copies files just before a run
    built, done = cli_run
    assert done.returncode == 0, done.stderr[-3000:]
    inputs = tmp_path / "input"
    shutil.copytree(SEEDS, inputs)
    settings = load_settings(warehouse=tmp_path / "warehouse", input_dir=inputs)
    copy_warehouse(built, settings.warehouse)  # the seeds, gold built in full
    lake = Lake(spark, settings.warehouse)
    lake.register_all()

    corpus = tmp_path / "corpus"
    generate(articles=16, events=4, seed=5, out=corpus)
    corpus = corpus / "articles"
    events = {e.name: sorted(e.glob("*.txt")) for e in sorted(corpus.iterdir())}
    e0, e1, e2, e3 = events.values()
    # Batch 1: two events but their last articles, and a third whole (no batch touches it later).
    # `claimhouse run` in its own process, as cron or the sensor runs it: its dbt knows the
    # warehouse's tables only from disk, and still builds per story.
    _copy_articles([*e0[:-1], *e1[:-1], *e3], corpus, inputs)
    first = claimhouse(
        "run",
        *("--input", str(inputs), "--warehouse", str(settings.warehouse)),
        "--log-format",
        "json",
        env_extra={"CLAIMHOUSE_SETTLE_S": "0"},
    )
    assert first.returncode == 0, first.stderr[-3000:]
    events = [json.loads(line) for line in first.stdout.splitlines()]
    b1 = events[0]["run_id"]
    (gold_line,) = [e["message"] for e in events if e.get("layer") == "gold"]
    assert "changed stories and those whose synonyms changed" in gold_line, gold_line
    built = spark.sql(f"DESCRIBE HISTORY delta.`{lake.path('gold_build.facts')}` LIMIT 1").first()
    assert built["operation"] != "CREATE OR REPLACE TABLE AS SELECT", built["operation"]
    lake.register_all()
    # Batch 2: the held-back articles of two stories, a new event, a seed article changed (new
    # figures: a new article whose story is the seeds'), and a duplicate of another seed.
    _copy_articles([e0[-1], e1[-1], *e2], corpus, inputs)
    seed = sorted(inputs.glob("00*.txt"))
    seed[1].write_text(seed[1].read_text().replace("21,000", "22,000").replace("May 20", "May 19"))
    shutil.copy(seed[2], inputs / "copy_of_002.txt")
    dbt_log = settings.warehouse / "_dbt" / "logs" / "dbt.log"
    logged = dbt_log.stat().st_size
    second = run_pipeline(spark, settings, "b2")
    assert second.bronze.duplicates == 1
    assert second.gold.incremental
    # The run's values reach dbt outside --vars: dbt did not parse the project again (about
    # 7 s), and its artifacts name the run.
    with dbt_log.open() as log:
        log.seek(logged)
        assert "Partial parsing enabled, no changes found, skipping parsing" in log.read()
    results = json.loads((settings.warehouse / "_dbt/target/run_results.json").read_text())
    assert artifact_run_id(results) == "b2"
    # The marts' key tests read the stories this build wrote, not all of gold.
    key_test = "_dbt/target/run/claimhouse/models/marts/_marts.yml/unique_facts_fact_id.sql"
    b2_facts = lake.read("gold.facts").where(F.col("run_id") == "b2")
    written = sorted(r[0] for r in b2_facts.select("story_id").distinct().collect())
    listed = ", ".join(f"'{s}'" for s in written)
    assert f"where story_id in ({listed})" in (settings.warehouse / key_test).read_text()

    # Stories none of whose articles arrived in batch 2 were not rebuilt: their facts are b1's.
    stories = (
        lake.read("silver.article_stories")
        .select("article_id", "story_id")
        .join(lake.read("bronze.articles").select("article_id", "run_id"), "article_id")
    )
    arrived = stories.where(F.col("run_id") == "b2").select("story_id").distinct()
    untouched = stories.join(arrived, "story_id", "left_anti").select("story_id").distinct()
    facts = lake.read("gold.facts")
    kept = facts.join(untouched, "story_id").select("run_id").distinct().collect()
    assert [r["run_id"] for r in kept] == [b1]
    rebuilt = facts.join(arrived, "story_id").select("run_id").distinct().collect()
    assert [r["run_id"] for r in rebuilt] == ["b2"]
    # Gold's contracts checked the rows of the stories batch 2 rebuilt, not all of gold.
    b2_stories = facts.where(F.col("run_id") == "b2").select("story_id").distinct()
    checked = {
        r["table_name"]: r["element_count"]
        for r in lake.read("audit.dq_results").where("run_id = 'b2' AND layer = 'gold'").collect()
    }
    in_b2 = {t: lake.read(t).join(b2_stories, "story_id", "left_semi").count() for t in checked}
    assert checked == in_b2
    assert sorted(checked) == ["gold.fact_conflicts", "gold.fact_evidence", "gold.facts"]
    assert 0 < checked["gold.facts"] < lake.count("gold.facts")

    # A VACUUM that removed the files of silver's changes since gold was built: the next
    # build rebuilds every story, where its read of the change data feed would fail.
    def now() -> dict[str, int]:
        return {t: lake.version(t) for t in ("silver.claims", "silver.article_stories")}

    assert incremental_base(lake, settings, now(), last_published(lake, "gold"))[0] is not None
    built_from = lake.version("silver.claims")
    lake.overwrite(SILVER_CLAIMS, lake.read("silver.claims").localCheckpoint())
    assert incremental_base(lake, settings, now(), last_published(lake, "gold"))[0] is not None
    spark.conf.set("spark.databricks.delta.retentionDurationCheck.enabled", "false")
    try:
        spark.sql(f"VACUUM delta.`{lake.path('silver.claims')}` RETAIN 0 HOURS")
    finally:
        spark.conf.unset("spark.databricks.delta.retentionDurationCheck.enabled")
    assert incremental_base(lake, settings, now(), last_published(lake, "gold")) == (
        None,
        f"silver.claims's changes after version {built_from} are not readable (vacuumed, or "
        "its change data feed was off then)",
    )

    # The full refresh builds the project with one constraint more on facts, which rows built
    # by a run named "bad" break (used below). It changes no row.
    project = tmp_path / "dbt_project"
    shutil.copytree(REPO / "dbt_project", project, ignore=shutil.ignore_patterns("target", "logs"))
    marts = project / "models/marts/_marts.yml"
    declared = yaml.safe_load(marts.read_text())
    rule = {"type": "check", "name": "no_bad_run", "expression": "run_id <> 'bad'"}
    declared["models"][0]["constraints"].append(rule)
    marts.write_text(yaml.safe_dump(declared, sort_keys=False))
    settings = load_settings(warehouse=settings.warehouse, input_dir=inputs, dbt_project=project)

    incremental = {t: lake.read(t).drop("run_id").localCheckpoint() for t in GOLD_BUILD_TABLES}
    full = run_pipeline(spark, settings, "full", full_refresh=True)
    assert not full.gold.incremental
    assert "where true" in (settings.warehouse / key_test).read_text()
    assert [r[0] for r in lake.read("gold.facts").select("run_id").distinct().collect()] == ["full"]
    for table, rows in incremental.items():
        again = lake.read(table).drop("run_id")
        assert again.count() == rows.count() > 0, table
        assert rows.exceptAll(again).count() == 0, table
        assert again.exceptAll(rows).count() == 0, table

    # A row breaking a Delta constraint fails the incremental build that writes it, naming the
    # rule and the row, and gold.* keeps its release. A changed seed's story is rebuilt by "bad".
    released = sorted(
        tuple(r) for r in lake.read("gold.facts").select("fact_id", "run_id").collect()
    )
    seed[0].write_text(seed[0].read_text().replace("21,000", "23,000"))
    with pytest.raises(LakeError) as caught:
        run_pipeline(spark, settings, "bad")
    message = str(caught.value)
    assert (
        "CHECK constraint no_bad_run (NOT (run_id = 'bad')) violated by row with values:" in message
    )
    assert "\n - run_id : bad\n" in message
    assert "breaks the Delta constraint no_bad_run" in message
    assert "\tat " not in message and "org.apache" not in message, message
    again = sorted(tuple(r) for r in lake.read("gold.facts").select("fact_id", "run_id").collect())
    assert again == released
