"""The one sequencer: `claimhouse run` runs the registry's units (lake.units) in order.

Dagster runs the same units, as assets (orchestration.defs.layers); lake.layer.execute pins,
skips, builds, validates, publishes and records each of them.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime

from pyspark.sql import SparkSession

from lake import maintenance
from lake.bronze import ingest as bronze
from lake.bronze.ingest import IngestSummary
from lake.config import Settings
from lake.gold.build import GoldSummary
from lake.layer import Interrupted, RunContext, Unit, UnitResult, execute, open_run, stopping
from lake.schemas import AUDIT_LAYER_RUNS, BRONZE_ARTICLES, GOLD_TABLES, TABLES
from lake.silver.publish import SilverSummary
from lake.silver.publish_stories import StoriesSummary
from lake.stop import StopRequest
from lake.units import UNITS

Progress = Callable[[str], None]


def new_run_id(now: datetime | None = None, token: str | None = None) -> str:
    """`<UTC time>_<6 hex digits>`: sortable by time, unique per run. The underscore keeps the
    whole id one token for dateutil, which Great Expectations' Data Docs run on every run name:
    after a hyphen, a token such as `8025ad` read as a time zone offset of -80:25 and the run's
    validation pages failed to render."""
    stamp = (now or datetime.now(UTC)).strftime("%Y%m%dT%H%M%SZ")
    return f"{stamp}_{token or secrets.token_hex(3)}"


@dataclass
class RunSummary:
    run_id: str
    results: dict[str, UnitResult] = field(default_factory=dict)
    table_rows: dict[str, int] = field(default_factory=dict)
    table_versions: dict[str, int] = field(default_factory=dict)
    # The input folder gave no readable article this run; `stopped_empty`: nor does the lake
    # hold any, so the units after bronze did not run (they would build empty tables).
    no_articles: bool = False
    stopped_empty: bool = False

    def _summary(self, unit: str):
        result = self.results.get(unit)
        return None if result is None else result.summary

    @property
    def bronze(self) -> IngestSummary | None:
        return self._summary("bronze")

    @property
    def silver(self) -> SilverSummary | None:
        return self._summary("silver.claims")

    @property
    def stories(self) -> StoriesSummary | None:
        return self._summary("silver.stories")

    @property
    def gold(self) -> GoldSummary | None:
        return self._summary("gold")

    @property
    def stage_seconds(self) -> dict[str, float]:
        stages: dict[str, float] = {}  # `claimhouse run`'s last line: one time per layer
        for name, result in self.results.items():
            layer = name.split(".")[0]
            stages[layer] = stages.get(layer, 0.0) + result.seconds
        return stages

    @property
    def step_seconds(self) -> dict[str, float]:
        """Parts of a stage, for profiling."""
        steps = {name: result.seconds for name, result in self.results.items()}
        if self.silver is not None:
            steps["silver.extraction"] = self.silver.extraction_s
        if self.gold is not None and not self.gold.unchanged:
            steps["gold.contracts"] = self.gold.contracts_s
            steps["gold.dbt_build"] = self.results["gold"].seconds - self.gold.contracts_s
        return steps


def run_units(ctx: RunContext, units: tuple[Unit, ...] = UNITS) -> RunSummary:
    """Run the units in order; the first that fails stops the run (its error propagates)."""
    summary = RunSummary(run_id=ctx.run_id)
    for unit in units:
        stop = stopping(ctx)
        if stop is not None:
            raise Interrupted(unit.name, stop, started=False)
        summary.results[unit.name] = execute(unit, ctx)
        if unit is bronze.UNIT and summary.bronze and summary.bronze.articles_seen == 0:
            summary.no_articles = True
            if ctx.lake.count(BRONZE_ARTICLES.name) == 0:
                summary.stopped_empty = True
                break
    if not summary.stopped_empty:
        last = ctx.last_published(maintenance.NAME)
        tables = maintenance.due(ctx.lake, ctx.settings, (last or {}).get("outputs"))
        if tables:
            stop = stopping(ctx)
            if stop is not None:
                raise Interrupted(maintenance.NAME, stop, started=False)
            summary.results[maintenance.NAME] = execute(maintenance.unit_for(tables), ctx)
    for name in [*TABLES, *GOLD_TABLES, "audit.dq_results", AUDIT_LAYER_RUNS.name]:
        if ctx.lake.exists(name):
            summary.table_rows[name] = ctx.lake.count(name)
            summary.table_versions[name] = ctx.lake.version(name)
    return summary


def run_pipeline(
    spark: SparkSession,
    settings: Settings,
    run_id: str | None = None,
    progress: Progress = lambda message: None,
    report: Progress = lambda line: None,
    full_refresh: bool = False,
    stop: StopRequest | None = None,
) -> RunSummary:
    """Every unit end to end, with one run id on every Delta commit. `full_refresh` rebuilds
    gold whole, not only the stories changed since its last build; `stop` ends the run early
    (lake.stop), the unit under way recorded as interrupted."""
    run_id = run_id or new_run_id()
    with open_run(spark, settings, run_id, progress, report, full_refresh, stop) as ctx:
        return run_units(ctx)
