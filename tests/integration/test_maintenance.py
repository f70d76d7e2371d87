"""Table maintenance (lake.maintenance) on a real Delta lake: small files compacted, old
files vacuumed while every version current within the kept hours still reads, a reader of the
version current before maintenance unharmed, audit rows past retention deleted but each
unit's latest published run kept, and the run's policy (every N versions) recorded."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from lake import maintenance
from lake.config import load_settings
from lake.layer import execute, open_run
from lake.maintenance import MaintenanceSummary
from lake.pipeline import run_units
from lake.schemas import AUDIT_LAYER_RUNS
from lake.storage import Lake

from ..conftest import claimhouse

pytestmark = pytest.mark.slow


def _write(spark, path, rows: list[str], mode: str) -> None:
    frame = spark.createDataFrame([(r,) for r in rows], "v string").repartition(1)
    frame.write.format("delta").mode(mode).save(str(path))


def _versions(spark, path) -> None:
    """Versions 0-4 of a table, a file each: two appends, an overwrite, two appends (live:
    c, d1, d2 in three files)."""
    for rows, mode in (("a", "append"), ("b", "append"), ("c", "overwrite")):
        _write(spark, path, [rows], mode)
    for rows in ("d1", "d2"):
        _write(spark, path, [rows], "append")


def _at(spark, path, version) -> list[str]:
    rows = spark.read.format("delta").option("versionAsOf", version).load(str(path))
    return sorted(r.v for r in rows.collect())


def _layer_run(run_id: str, unit: str, status: str, finished: datetime) -> dict:
    return {
        "run_id": run_id,
        "unit": unit,
        "status": status,
        "code_version": "",
        "inputs": {},
        "outputs": {},
        "started_at": finished,
        "finished_at": finished,
        "summary": None,
        "error": None,
    }


@dataclass
class Passes:
    """What the three passes of `passes` saw."""

    path: Path
    kept: MaintenanceSummary  # keeping an hour
    kept_reads: list[list[str]]  # every version after it
    reader_rows: list[str]  # a reader of version 4, opened before it
    layer_runs: list[tuple]  # audit.layer_runs after it
    due_before: list[str]  # with maintain_every=2, one version later
    run: MaintenanceSummary  # run_units after two more versions of silver.small
    due_off: list[str]  # with maintain_every=0
    nothing: MaintenanceSummary  # keeping no hours
    nothing_current: list[str]
    nothing_old: Exception | None  # reading version 4 then


@pytest.fixture(scope="module")
def passes(spark, tmp_path_factory) -> Passes:
    """On a table of five versions and an audit table with rows 40 days old: maintenance
    keeping an hour of time travel; then a run's policy (every 2 versions); then maintenance
    keeping none (CLAIMHOUSE_KEEP_HOURS=0, under Delta's floor). One lake: each pass costs
    several Spark jobs a table."""
    root = tmp_path_factory.mktemp("maintenance")
    lake = Lake(spark, root / "warehouse")
    settings = load_settings(warehouse=lake.root, input_dir=root, keep_hours=1, audit_keep_days=30)
    path = lake.root / "silver" / "small"
    _versions(spark, path)
    now, old = datetime.now(UTC), datetime.now(UTC) - timedelta(days=40)
    runs = [
        _layer_run("r-old", "bronze", "published", old - timedelta(days=1)),
        _layer_run("r-old", "gold", "failed", old),
        _layer_run("r-last", "bronze", "published", old),  # old, but bronze's latest
        _layer_run("r-new", "gold", "published", now),
    ]
    lake.append(AUDIT_LAYER_RUNS, spark.createDataFrame(runs, AUDIT_LAYER_RUNS.schema))
    reader = spark.read.format("delta").load(str(path))  # pinned to version 4 from here
    with open_run(spark, settings, "maintain-1") as ctx:
        kept = execute(maintenance.UNIT, ctx).summary
    kept_reads = [_at(spark, path, v) for v in range(lake.version("silver.small") + 1)]
    reader_rows = sorted(r.v for r in reader.collect())
    layer_runs = [
        (r.run_id, r.unit, r.status, dict(r.outputs))
        for r in lake.read(AUDIT_LAYER_RUNS.name).collect()
    ]

    every = replace(settings, maintain_every=2)
    with open_run(spark, every, "run-2") as ctx:
        due_before = maintenance.due(ctx.lake, every, ctx.last_published("maintenance")["outputs"])
        _write(spark, path, ["e"], "append")
        _write(spark, path, ["f"], "append")
        run = run_units(ctx, units=()).results["maintenance"].summary
    due_off = maintenance.due(lake, replace(settings, maintain_every=0), None)

    with open_run(spark, replace(settings, keep_hours=0), "maintain-0") as ctx:
        nothing = execute(maintenance.UNIT, ctx).summary
    current = lake.version("silver.small")
    try:
        _at(spark, path, 4)
        nothing_old = None
    except Exception as exc:  # noqa: BLE001 - Delta's or Spark's, whichever reads first
        nothing_old = exc
    return Passes(
        path,
        kept,
        kept_reads,
        reader_rows,
        layer_runs,
        due_before,
        run,
        due_off,
        nothing,
        _at(spark, path, current),
        nothing_old,
    )


def _small(summary: MaintenanceSummary):
    return {t.table: t for t in summary.tables}["silver.small"]


def test_small_files_compacted_and_every_version_of_the_kept_hour_still_reads(passes):
    small = _small(passes.kept)
    # Three live files into one. Every file is needed by a version of the hour: no VACUUM.
    assert (small.compacted_from, small.compacted_to, small.vacuumed, small.files) == (3, 1, 0, 6)
    assert small.version == 5  # OPTIMIZE's, which changes no row
    assert passes.kept_reads == [["a"], ["a", "b"], ["c"], ["c", "d1"], *[["c", "d1", "d2"]] * 2]
    assert passes.reader_rows == ["c", "d1", "d2"]
    assert (passes.path / "_delta_log" / "00000000000000000005.checkpoint.parquet").exists()


def test_audit_rows_past_retention_go_but_each_units_latest_published_run_stays(passes):
    assert passes.kept.audit_deleted[AUDIT_LAYER_RUNS.name] == 2
    assert sorted(r[:3] for r in passes.layer_runs) == [
        ("maintain-1", "maintenance", "published"),
        ("r-last", "bronze", "published"),
        ("r-new", "gold", "published"),
    ]
    recorded = next(r for r in passes.layer_runs if r[1] == "maintenance")
    assert recorded[3]["silver.small"] == 5


def test_a_run_maintains_only_the_tables_due_counting_from_their_last_maintenance(passes):
    # One version since: the maintenance's own record in audit.layer_runs.
    assert passes.due_before == []
    assert [t.table for t in passes.run.tables] == ["silver.small"]
    assert _small(passes.run).compacted_from == 3  # the compacted file, e and f
    assert passes.due_off == []


def test_with_no_hours_kept_only_the_current_version_reads(passes):
    small = _small(passes.nothing)
    assert (small.compacted_from, small.files) == (0, 1)
    assert small.vacuumed > 0
    assert passes.nothing_current == ["c", "d1", "d2", "e", "f"]
    assert passes.nothing_old is not None
    assert re.search("(?i)not exist|FileNotFound|FILE_NOT_EXIST", str(passes.nothing_old))


def test_claimhouse_maintain_runs_in_the_warm_engine_and_prints_every_table_whole(
    passes, hosted_engine
):
    """`claimhouse maintain` as a user types it, handed to the warm engine: one row per table,
    uncut when piped, and the pass's line."""
    warehouse = passes.path.parent.parent
    done = claimhouse(
        "maintain",
        "--warehouse",
        str(warehouse),
        env_extra={"CLAIMHOUSE_ENGINE_DIR": str(hosted_engine[0])},
    )
    assert done.returncode == 0, done.stderr
    rows = [line for line in done.stdout.splitlines() if line.startswith("│")]
    assert [row.split("│")[1].strip() for row in rows] == ["audit.layer_runs", "silver.small"]
    assert "files compacted" in done.stdout and "files vacuumed" in done.stdout
    assert done.stdout.rstrip().splitlines()[-1].startswith("maintenance: 2 tables; ")
