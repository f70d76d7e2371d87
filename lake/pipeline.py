"""One claimhouse run: every layer in order, each tagged with the same run id."""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime

from pyspark.sql import SparkSession
from pyspark.sql import functions as F

from lake.bronze.ingest import IngestSummary, ingest
from lake.config import Settings
from lake.contracts.enforce import enforce_tables
from lake.gold.build import GOLD_TABLES, GoldSummary, build_gold, gold_is_current
from lake.schemas import TABLES
from lake.silver.publish import SilverSummary, extract_new
from lake.silver.publish_stories import StoriesSummary, publish_stories
from lake.storage import Lake

Progress = Callable[[str], None]


def new_run_id() -> str:
    return datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ-") + secrets.token_hex(3)


@dataclass
class RunSummary:
    run_id: str
    bronze: IngestSummary | None = None
    silver: SilverSummary | None = None
    stories: StoriesSummary | None = None
    gold: GoldSummary | None = None
    # True when gold was already built from silver as it stands, so dbt did not run again.
    gold_current: bool = False
    table_rows: dict[str, int] = field(default_factory=dict)
    table_versions: dict[str, int] = field(default_factory=dict)
    stage_seconds: dict[str, float] = field(default_factory=dict)
    # Parts of a stage, for profiling: silver's claims (extraction, contracts, MERGE) and stories;
    # gold's dbt build and its contracts.
    step_seconds: dict[str, float] = field(default_factory=dict)


def ingest_and_check(
    spark: SparkSession, lake: Lake, settings: Settings, run_id: str
) -> IngestSummary:
    """Bronze: ingest the input folder, then its contracts. bronze.articles' rules run over the
    whole table (duplicate or missing keys); bronze.ingest_log's over this run's files (nothing
    lost: every file seen is an article or a reject)."""
    summary = ingest(
        spark, lake, settings.input_dir, run_id, settings.max_file_bytes, settings.settle_s
    )
    this_run = lake.read("bronze.ingest_log").where(F.col("run_id") == run_id)
    enforce_tables(
        spark,
        lake,
        [("bronze.articles", lake.read("bronze.articles")), ("bronze.ingest_log", this_run)],
        run_id,
    )
    return summary


def check_gold(spark: SparkSession, lake: Lake, run_id: str) -> None:
    """Gold's contracts over the tables dbt just built. Gold is the last layer: a broken `fail`
    rule raises after the build (the Delta version is in the history for time travel)."""
    enforce_tables(spark, lake, [(table, lake.read(table)) for table in GOLD_TABLES], run_id)


def run_pipeline(
    spark: SparkSession,
    settings: Settings,
    run_id: str | None = None,
    progress: Progress = lambda message: None,
) -> RunSummary:
    """Run bronze, silver, then gold (dbt, in this session) end to end. dbt does not run when
    gold was built from the silver and bronze versions there are now; gold's contracts do."""
    run_id = run_id or new_run_id()
    lake = Lake(spark, settings.warehouse)
    summary = RunSummary(run_id=run_id)
    # Every Delta commit of this run names it in DESCRIBE HISTORY's userMetadata.
    spark.conf.set("spark.databricks.delta.commitInfo.userMetadata", f"claimhouse run {run_id}")
    try:
        started = time.perf_counter()
        progress(f"bronze: ingesting {settings.input_dir}")
        summary.bronze = ingest_and_check(spark, lake, settings, run_id)
        summary.stage_seconds["bronze"] = time.perf_counter() - started
        started = time.perf_counter()
        progress("silver: extracting claims from new articles")
        summary.silver = extract_new(
            spark, lake, run_id, budget_s_per_100kb=settings.extract_budget_s
        )
        summary.step_seconds["silver.claims"] = time.perf_counter() - started
        summary.step_seconds["silver.extraction"] = summary.silver.extraction_s
        progress("silver: grouping articles into stories")
        summary.stories = publish_stories(spark, lake, run_id)
        summary.stage_seconds["silver"] = time.perf_counter() - started
        summary.step_seconds["silver.stories"] = (
            summary.stage_seconds["silver"] - summary.step_seconds["silver.claims"]
        )
        started = time.perf_counter()
        if gold_is_current(lake):
            summary.gold_current = True
        else:
            progress("gold: dbt build (reconcile claims into facts)")
            summary.gold = build_gold(spark, settings, run_id)
        summary.step_seconds["gold.dbt_build"] = time.perf_counter() - started
        check_gold(spark, lake, run_id)
        summary.stage_seconds["gold"] = time.perf_counter() - started
        summary.step_seconds["gold.contracts"] = (
            summary.stage_seconds["gold"] - summary.step_seconds["gold.dbt_build"]
        )
    finally:
        spark.conf.unset("spark.databricks.delta.commitInfo.userMetadata")
    for name in [*TABLES, *GOLD_TABLES, "audit.dq_results"]:
        if lake.exists(name):
            summary.table_rows[name] = lake.count(name)
            summary.table_versions[name] = lake.version(name)
    return summary
