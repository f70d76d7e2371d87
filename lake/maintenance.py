"""Table maintenance, a unit of its own (`maintenance` in audit.layer_runs): each incremental
run leaves a small file and a Delta version in most tables, and every read lists and opens them.

For each table due, in one pass:
1. OPTIMIZE compacts its small files (a commit that changes no data: the change data feed,
   and so gold's incremental build, do not see it);
2. VACUUM removes the files no version current within `keep_hours` needs: time travel to any
   such version keeps working, and so does a reader of the current version, whose files are
   live. Delta refuses a retention under 168 hours unless its check is turned off; it is, for
   that one call, only when the setting asks for less. A release's plain tables are not
   compacted (step 1), so the versions gold_release.manifest names stay readable: the latest
   release's always, an earlier one's for `keep_hours` after the next release replaced it;
3. a log checkpoint at the new version, so a reader's snapshot starts from one file;

then rows of the audit tables older than `audit_keep_days` are deleted, except each unit's
latest published run, which the next run's skip test and gold's incremental build read.

`claimhouse run` runs it for the tables with `maintain_every` commits since they were last
maintained (a cheap test: versions come from the Delta log, no Spark job);
`claimhouse maintain` and Dagster's `claimhouse_maintenance` schedule run it for every table.
"""

from __future__ import annotations

import functools
import json
import operator
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from delta.tables import DeltaTable
from pyspark.sql import functions as F

from lake.config import Settings
from lake.contracts import AUDIT_DQ_RESULTS
from lake.layer import RunContext, Unit, latest_published
from lake.schemas import AUDIT_LAYER_RUNS, SANDBOX
from lake.spark import conf_restored
from lake.storage import RELEASES, Lake, expired_files, live_files

NAME = "maintenance"
DELTA_MIN_RETENTION_H = 168
_RETENTION_CHECK = "spark.databricks.delta.retentionDurationCheck.enabled"
# Tables readers pin by version (lake.schemas.ReleaseSpec.manifest): never compacted.
PINNED = frozenset(t for spec in RELEASES.values() for t in spec.plain_tables)
# Each audit table and the column that dates its rows.
AUDIT_DATED = {AUDIT_LAYER_RUNS.name: "finished_at", AUDIT_DQ_RESULTS.name: "evaluated_at"}


@dataclass(frozen=True)
class TableUpkeep:
    table: str
    compacted_from: int  # live files OPTIMIZE replaced
    compacted_to: int  # the files it wrote for them
    vacuumed: int  # files VACUUM removed from storage
    files: int  # data files in storage afterwards
    version: int  # the table's version afterwards
    seconds: float

    def metadata(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k != "table"}


@dataclass
class MaintenanceSummary:
    tables: list[TableUpkeep] = field(default_factory=list)
    audit_deleted: dict[str, int] = field(default_factory=dict)
    keep_hours: int = DELTA_MIN_RETENTION_H
    audit_keep_days: float = 0.0
    # The versions each maintained table is at now: the next run's `due` counts from them.
    outputs: dict[str, int] = field(default_factory=dict)

    def describe(self) -> str:
        if not self.tables:
            return "maintenance: no table due"
        before = sum(t.compacted_from for t in self.tables)
        after = sum(t.compacted_to for t in self.tables)
        vacuumed = sum(t.vacuumed for t in self.tables)
        deleted = sum(self.audit_deleted.values())
        return (
            f"maintenance: {len(self.tables)} tables; {before} small files compacted into "
            f"{after}, {vacuumed} old files vacuumed (time travel kept {self.keep_hours:g} h), "
            f"{deleted} audit rows older than {self.audit_keep_days:g} days deleted"
        )

    def metadata(self) -> dict[str, Any]:
        return {
            "tables": {t.table: t.metadata() for t in self.tables},
            "audit_deleted": self.audit_deleted,
            "keep_hours": self.keep_hours,
        }


def physical_tables(lake: Lake) -> list[str]:
    """The Delta tables of the warehouse the lake writes, a release's store included and the
    readers' sandbox left out (a reader's own tables are theirs to keep)."""
    return [
        t
        for t in lake.tables()
        if (layer := t.split(".", 1)[0]) not in RELEASES and layer != SANDBOX
    ]


def due(lake: Lake, settings: Settings, last: Mapping[str, int] | None) -> list[str]:
    """The tables with `maintain_every` commits or more since their last maintenance
    (`last`: {table: version} it left them at; a table never maintained counts from its
    first version). None when `maintain_every` is 0: only an explicit maintenance runs."""
    if settings.maintain_every == 0:
        return []
    last = last or {}
    return [
        t
        for t in physical_tables(lake)
        if lake.version(t) - last.get(t, -1) >= settings.maintain_every
    ]


def maintain(ctx: RunContext, tables: list[str] | None = None) -> MaintenanceSummary:
    """Compact, vacuum and checkpoint `tables` (None: every table of the warehouse), then
    apply the audit retention."""
    settings = ctx.settings
    summary = MaintenanceSummary(
        keep_hours=settings.keep_hours, audit_keep_days=settings.audit_keep_days
    )
    # Rows past their retention go first, so that their files are compacted away too.
    summary.audit_deleted = _audit_retention(ctx.lake, settings.audit_keep_days)
    for table in physical_tables(ctx.lake) if tables is None else tables:
        ctx.progress(f"maintenance: {table}")
        summary.tables.append(_upkeep(ctx, table))
    last = ctx.last_published(NAME)
    summary.outputs = dict((last or {}).get("outputs") or {})
    summary.outputs.update({t.table: t.version for t in summary.tables})
    return summary


def _upkeep(ctx: RunContext, table: str) -> TableUpkeep:
    """One table's pass; each step runs only when the log says it has work (a Spark job
    each, where reading the log with delta-rs takes milliseconds)."""
    started = time.perf_counter()
    spark, folder = ctx.spark, ctx.lake.path(table)
    delta = DeltaTable.forPath(spark, str(folder))
    live = live_files(folder)
    compacted_from = compacted_to = 0
    # A release's plain tables are read at the versions its manifest names: OPTIMIZE would
    # move the latest release's rows into new files and leave its version to VACUUM. Each
    # publish rewrites them whole, so they stay compact without it.
    if table not in PINNED and (live is None or any(n > 1 for n in live.values())):
        metrics = delta.optimize().executeCompaction().select("metrics.*").first()
        compacted_from = int(metrics["numFilesRemoved"] or 0)
        compacted_to = int(metrics["numFilesAdded"] or 0)
    before = _data_files(ctx.lake, folder)
    keep = ctx.settings.keep_hours
    if expired_files(folder, keep) != 0:
        check = {_RETENTION_CHECK: "false"} if keep < DELTA_MIN_RETENTION_H else {}
        with conf_restored(spark, check):
            for key, value in check.items():
                spark.conf.set(key, value)
            delta.vacuum(keep)
    version = ctx.lake.version(table)
    if _last_checkpoint(ctx.lake, folder) != version:
        _checkpoint(spark, folder)
    after = _data_files(ctx.lake, folder)
    return TableUpkeep(
        table=table,
        compacted_from=compacted_from,
        compacted_to=compacted_to,
        vacuumed=before - after,
        files=after,
        version=version,
        seconds=round(time.perf_counter() - started, 2),
    )


def _checkpoint(spark, folder: Path) -> None:
    """A checkpoint of the table's log at its current version (Delta writes one every ten
    commits by itself; this one makes the newest version start from one file)."""
    jvm = spark._jvm
    log = jvm.org.apache.spark.sql.delta.DeltaLog.forTable(spark._jsparkSession, str(folder))
    log.checkpoint()


def _last_checkpoint(lake: Lake, folder) -> int | None:
    try:
        text = lake.read_text(folder / "_delta_log" / "_last_checkpoint")
        return int(json.loads(text)["version"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _data_files(lake: Lake, folder) -> int:
    if not isinstance(folder, Path):  # on object storage
        return sum(
            1
            for f in lake.files(folder) or []
            if not f.startswith("_delta_log/") and not f.rsplit("/", 1)[-1].startswith((".", "_"))
        )
    return sum(
        1
        for p in folder.rglob("*")
        if p.is_file() and "_delta_log" not in p.parts and not p.name.startswith((".", "_"))
    )


def _audit_retention(lake: Lake, keep_days: float) -> dict[str, int]:
    """Delete audit rows older than `keep_days`; each unit's latest published run stays."""
    cutoff = datetime.now(UTC) - timedelta(days=keep_days)
    kept = latest_published(lake)
    deleted = {}
    for table, dated in AUDIT_DATED.items():
        if not lake.exists(table):
            continue
        old = F.col(dated) < F.lit(cutoff)
        if table == AUDIT_LAYER_RUNS.name and kept:
            latest = [
                (F.col("unit") == u) & (F.col("run_id") == r["run_id"]) for u, r in kept.items()
            ]
            old = old & ~functools.reduce(operator.or_, latest)
        count = lake.read(table).where(old).count()
        if count:  # a DELETE that matches nothing would still commit a version
            DeltaTable.forPath(lake.spark, str(lake.path(table))).delete(old)
        deleted[table] = count
    return deleted


def unit_for(tables: list[str] | None = None) -> Unit:
    """The maintenance unit for these tables (None: every table); `claimhouse run` passes
    the tables due."""
    which = "every table" if tables is None else f"{len(tables)} tables"
    return Unit(
        name=NAME,
        inputs=(),
        outputs=(),
        build=lambda ctx, inputs: maintain(ctx, tables),
        doing=f"compacting, vacuuming and checkpointing {which}",
    )


UNIT = unit_for()
