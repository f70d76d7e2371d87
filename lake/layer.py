"""Layer units: each layer builds a candidate, validates it, publishes it and records what it read.

claimhouse has four units, run in this order by `claimhouse run` (lake.pipeline) and wrapped one
asset each by Dagster (orchestration.defs.layers): bronze, silver.claims, silver.stories and gold.
`execute` is the one place that runs a unit:

1. pins the Delta versions of the unit's input tables, so the unit reads exactly those;
2. skips the unit when its last published run read the same input versions with the same code,
   and nothing has written its outputs since;
3. runs it (build -> validate -> publish, in the unit's own module);
4. records the run in audit.layer_runs: inputs, outputs, status, summary.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any, Protocol

from pyspark.sql import SparkSession, Window
from pyspark.sql import functions as F

from lake.config import Settings
from lake.schemas import AUDIT_LAYER_RUNS
from lake.stop import StopRequest
from lake.storage import Lake, LakeError

# Delta writes this into every commit's userMetadata (DESCRIBE HISTORY: "written_by").
COMMIT_METADATA = "spark.databricks.delta.commitInfo.userMetadata"


# The key that marks RunContext._published as read (no unit is named so).
_READ = ""


def _quiet(message: str) -> None:
    return None


@dataclass(frozen=True)
class RunContext:
    """What every unit of one run shares: the session, the lake, the settings and the run id.
    `progress` hears what a unit is starting ("silver.claims: extracting ..."), `report` the
    one-line result of each unit as it finishes."""

    spark: SparkSession
    lake: Lake
    settings: Settings
    run_id: str
    progress: Callable[[str], None] = _quiet
    report: Callable[[str], None] = _quiet
    # Rebuild derived tables whole, not only what changed (`claimhouse run --full-refresh`).
    full_refresh: bool = False
    # Set by Ctrl-C or SIGTERM (lake.stop): the unit under way ends as interrupted.
    stop: StopRequest | None = None
    # Each unit's latest published audit.layer_runs row, read in one query on first use
    # (last_published); shared by copies of this context. The writer lock keeps other runs
    # from recording meanwhile, and _record keeps it current.
    _published: dict[str, dict[str, Any] | None] = field(
        default_factory=dict, repr=False, compare=False
    )

    def last_published(self, unit: str) -> dict[str, Any] | None:
        """The unit's latest published row of audit.layer_runs, as a dict (None: never)."""
        if not self._published:
            self._published.update({_READ: None, **latest_published(self.lake)})
        return self._published.get(unit)


@contextmanager
def open_run(
    spark: SparkSession,
    settings: Settings,
    run_id: str,
    progress: Callable[[str], None] = _quiet,
    report: Callable[[str], None] = _quiet,
    full_refresh: bool = False,
    stop: StopRequest | None = None,
) -> Iterator[RunContext]:
    """A RunContext whose Delta commits name the run (`claimhouse run <id>` in DESCRIBE
    HISTORY's userMetadata); the SparkSession's previous value comes back afterwards. Table folders
    an interrupted run left half-made are removed first, and reported once."""
    previous = spark.conf.get(COMMIT_METADATA, None)
    spark.conf.set(COMMIT_METADATA, f"claimhouse run {run_id}")
    try:
        lake = Lake(spark, settings.warehouse, state=settings.local_dir)
        removed = lake.remove_half_made()
        if removed:
            report(
                f"repaired: removed {', '.join(removed)}: table folders with no Delta commit, "
                "left half-made by an interrupted run (no reader could see them)"
            )
        yield RunContext(spark, lake, settings, run_id, progress, report, full_refresh, stop)
    finally:
        if previous is None:
            spark.conf.unset(COMMIT_METADATA)
        else:
            spark.conf.set(COMMIT_METADATA, previous)


class Summary(Protocol):
    """What a unit reports: one line for people, numbers for Dagster's metadata."""

    def describe(self) -> str: ...

    def metadata(self) -> dict[str, Any]: ...


class Interrupted(LakeError):
    """A signal stopped the run in (or before) a unit; what earlier units published stays."""

    def __init__(self, unit: str, stop: StopRequest, started: bool = True):
        where = f"during {unit}" if started else f"before {unit}"
        super().__init__(
            f"interrupted by {stop.signal} {where}: what the steps before it published stays "
            "current and nothing half-made is read; run again to finish"
        )
        self.unit, self.exit_code = unit, stop.exit_code


def stopping(ctx: RunContext) -> StopRequest | None:
    """The run's stop request once a signal set it (cancelling then ends, so that the run
    can record how it ended); None while it runs on."""
    if ctx.stop is None or ctx.stop.signum is None:
        return None
    ctx.stop.settle()
    return ctx.stop


class CandidateRejected(LakeError):
    """A unit built a candidate and did not publish it (a `fail` rule broke). `outputs` are
    the candidate's versions, recorded so it stays inspectable."""

    def __init__(self, message: str, outputs: Mapping[str, int], cause: Exception | None = None):
        super().__init__(message)
        self.outputs = dict(outputs)
        self.cause = cause


@dataclass(frozen=True)
class Unit:
    name: str  # bronze | silver.claims | silver.stories | gold
    inputs: tuple[str, ...]  # Delta tables it reads, pinned at its start
    outputs: tuple[str, ...]  # Delta tables it publishes (for gold, the built tables)
    build: Callable[[RunContext, Mapping[str, int]], Summary]  # build, validate, publish
    doing: str  # what the progress line says while it runs
    code_version: Callable[[Settings], str] = lambda settings: ""
    unchanged: Callable[[], Summary] | None = None  # None: the unit never skips itself
    # What a reader is shown (orchestration makes each an asset, lake.schemas says what to
    # preview) and the contracts the unit validates its candidate against (each rule a check).
    shown: tuple[str, ...] = ()
    contracts: tuple[str, ...] = ()
    # Built by the dbt project: its assets are dbt's models, which dagster-dbt derives.
    builds_with_dbt: bool = False


@dataclass(frozen=True)
class UnitResult:
    unit: str
    status: str  # published | unchanged
    summary: Summary
    inputs: dict[str, int]
    outputs: dict[str, int]
    seconds: float
    steps: dict[str, float] = field(default_factory=dict)

    def describe(self) -> str:
        return self.summary.describe()


def pin(lake: Lake, tables: tuple[str, ...]) -> dict[str, int]:
    """The current Delta version of each input table that exists."""
    return {t: lake.version(t) for t in tables if lake.exists(t)}


def execute(unit: Unit, ctx: RunContext, force: bool = False) -> UnitResult:
    """Run one unit: pin, skip when unchanged (unless `force` or the run's full refresh; both
    rebuild it whole), build -> validate -> publish, record."""
    started_at = datetime.now(UTC)
    started = time.perf_counter()
    inputs = pin(ctx.lake, unit.inputs)
    code = unit.code_version(ctx.settings)
    force = force or ctx.full_refresh
    if (
        not force
        and unit.unchanged is not None
        and _is_current(ctx.lake, unit, inputs, code, ctx.last_published(unit.name))
    ):
        summary = unit.unchanged()
        result = UnitResult(unit.name, "unchanged", summary, inputs, {}, 0.0)
        ctx.report(_stamped(summary.describe()))
        return result
    ctx.progress(f"{unit.name}: {unit.doing}")
    ctx = replace(ctx, full_refresh=force)
    try:
        summary = unit.build(ctx, inputs)
    except Exception as failure:  # a stop shows as whatever the cancelled Spark job raised
        stop = stopping(ctx)
        if stop is not None:
            interrupted = Interrupted(unit.name, stop)
            _record(ctx, unit, "interrupted", code, inputs, {}, started_at, None, interrupted)
            raise interrupted from failure
        if isinstance(failure, CandidateRejected):
            outputs = failure.outputs
            _record(ctx, unit, "rejected", code, inputs, outputs, started_at, None, failure)
        elif isinstance(failure, LakeError):
            _record(ctx, unit, "failed", code, inputs, {}, started_at, None, failure)
        raise
    stopping(ctx)  # a stop once the unit published: record it, then stop before the next
    # A unit that validated particular versions names them; else what its outputs are now.
    outputs = getattr(summary, "outputs", None) or pin(ctx.lake, unit.outputs)
    _record(ctx, unit, "published", code, inputs, outputs, started_at, summary, None)
    seconds = time.perf_counter() - started
    ctx.report(_stamped(summary.describe()))
    return UnitResult(unit.name, "published", summary, inputs, outputs, seconds)


def _stamped(line: str) -> str:
    return f"{datetime.now().astimezone():%H:%M:%S} {line}"


def latest_published(lake: Lake) -> dict[str, dict[str, Any]]:
    """Each unit's latest published row of audit.layer_runs, as a dict, in one query."""
    if not lake.exists(AUDIT_LAYER_RUNS.name):
        return {}
    newest = Window.partitionBy("unit").orderBy(F.desc("finished_at"))
    rows = (
        lake.read(AUDIT_LAYER_RUNS.name)
        .where(F.col("status") == "published")
        .withColumn("_newest", F.row_number().over(newest))
        .where(F.col("_newest") == 1)
        .drop("_newest")
        .collect()
    )
    return {row["unit"]: row.asDict() for row in rows}


def last_published(lake: Lake, unit: str) -> dict[str, Any] | None:
    """The unit's latest published row of audit.layer_runs, as a dict (None: never)."""
    return latest_published(lake).get(unit)


def is_current(lake: Lake, unit: Unit, settings: Settings) -> bool:
    """Whether `execute` would skip the unit now."""
    inputs, code = pin(lake, unit.inputs), unit.code_version(settings)
    return _is_current(lake, unit, inputs, code, last_published(lake, unit.name))


def _is_current(
    lake: Lake, unit: Unit, inputs: dict[str, int], code: str, last: dict[str, Any] | None
) -> bool:
    """The last published run read these input versions with this code, and its outputs are
    still at the versions it wrote (nobody wrote them since). Versions that only maintenance
    made since (compaction, vacuum) change no row, and count as the same."""
    if last is None or last["code_version"] != code:
        return False
    read = dict(last["inputs"] or {})
    if set(read) != set(inputs) or not _same_rows(lake, read, inputs):
        return False
    # A unit may record more than its outputs (gold: every table dbt builds).
    outputs = dict(last["outputs"] or {})
    if not set(unit.outputs) <= set(outputs):
        return False
    return _same_rows(lake, {t: outputs[t] for t in unit.outputs}, pin(lake, unit.outputs))


def _same_rows(lake: Lake, then: Mapping[str, int], now: Mapping[str, int]) -> bool:
    """Each table of `then` ({table: version}) holds the same rows at its version in `now`."""
    return all(
        (n := now.get(t)) is not None and (n == v or (n > v and lake.rows_unchanged(t, v, n)))
        for t, v in then.items()
    )


def _record(
    ctx: RunContext,
    unit: Unit,
    status: str,
    code: str,
    inputs: Mapping[str, int],
    outputs: Mapping[str, int],
    started_at: datetime,
    summary: Summary | None,
    error: Exception | None,
) -> None:
    row = {
        "run_id": ctx.run_id,
        "unit": unit.name,
        "status": status,
        "code_version": code,
        "inputs": dict(inputs),
        "outputs": dict(outputs),
        "started_at": started_at,
        "finished_at": datetime.now(UTC),
        "summary": None if summary is None else json.dumps(summary.metadata(), default=str),
        "error": None if error is None else str(error)[:4000],
    }
    ctx.lake.append_rows(AUDIT_LAYER_RUNS, [row])
    if status == "published" and ctx._published:
        ctx._published[unit.name] = row
