"""Gold: build the dbt project (dbt_project/) in this process's Spark session, validate, publish.

The SQL lives in dbt; this module invokes it the way a dbt user would (`dbt build`), through
dbtRunner so that dbt-spark's session method reuses the pipeline's SparkSession instead of
starting a second JVM. dbt builds the marts into gold_build (the candidate), its tests run on
them, then gold's contracts; only when no `fail` rule broke is the candidate copied into the
release table in one commit, so every gold.* view switches to it at once (lake.storage), and
into the plain tables and manifest readers without Spark pin a release by. A rejected candidate
stays readable as gold_build.* at the versions audit.layer_runs names, and reaches neither.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import time
from collections.abc import Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pyspark.sql import DataFrame, SparkSession
from pyspark.sql import functions as F

from lake.config import Settings
from lake.contracts.enforce import candidates, enforce_tables
from lake.contracts.run import ContractViolation
from lake.layer import COMMIT_METADATA, CandidateRejected, RunContext, Unit
from lake.schemas import (
    GOLD_BUILD_TABLES,
    GOLD_RELEASE,
    GOLD_RELEASE_MANIFEST,
    GOLD_TABLES,
    SILVER_ARTICLE_STORIES,
)
from lake.silver import kinds
from lake.spark import LOG4J_CONF, conf_restored
from lake.storage import Lake, LakeError

# The tables dbt_project/ reads (its sources); gold is a function of these and the project.
DBT_SOURCES = ("bronze.articles", "silver.claims", "silver.article_stories")
# The sources whose changes since the last build decide the stories gold rebuilds
# (int_stories_touched); bronze is insert-only, and its new articles reach gold as claims.
_INCREMENTAL_INPUTS = ("silver.claims", "silver.article_stories")
TOUCHED_STORIES = "gold_intermediate.touched_stories"
# dbt tests the pipeline leaves out: the intermediate models' invariants (dbt_project.yml).
INTERNAL = "tag:internal"
_NOT_PROJECT_FILES = {"target", "logs", "dbt_packages"}

# Session settings dbt-spark changes on the shared session (it forces ANSI off, and applies the
# profile's server_side_parameters); restored after the build so later pipeline steps and
# tests see the session as claimhouse configured it.
_TOUCHED_CONF = ("spark.sql.ansi.enabled", "spark.sql.shuffle.partitions", COMMIT_METADATA)


@dataclass
class GoldSummary:
    models: int = 0
    tests_passed: int = 0
    tests_warned: int = 0
    failures: list[str] = field(default_factory=list)
    seconds: float = 0.0
    unchanged: bool = False  # gold was built from these sources with this project already
    # gold_build.* versions this build published (the release), once it passed
    outputs: dict[str, int] = field(default_factory=dict)
    contracts_s: float = 0.0
    incremental: bool = False  # rebuilt only the stories changed since the last build
    stories_touched: int = 0  # stories changed in silver since (not counting synonym changes)

    def describe(self) -> str:
        """One line for the CLI and Dagster's run log."""
        if self.unchanged:
            return "gold: unchanged (built from these silver and bronze versions already)"
        scope = (
            f" ({self.stories_touched} changed stories and those whose synonyms changed)"
            if self.incremental
            else " (every story)"
        )
        return (
            f"gold: {self.models} dbt models built{scope}, {self.tests_passed} tests passed"
            + (f", {self.tests_warned} warned" if self.tests_warned else "")
            + (
                ", contracts passed on the rebuilt stories"
                if self.incremental
                else ", contracts passed"
            )
            + "; published"
        )

    def metadata(self) -> dict[str, object]:
        return {
            "models": self.models,
            "tests_passed": self.tests_passed,
            "tests_warned": self.tests_warned,
            "dbt_seconds": round(self.seconds, 3),
            "contracts_s": round(self.contracts_s, 3),
            "incremental": self.incremental,
            "stories_touched": self.stories_touched,
            "release": self.outputs,
        }


class GoldBuildError(LakeError):
    """dbt build failed: a model did not build or a test with severity error failed."""


# The build's values dbt reads (macros/stories.sql: build_var): a variable, not --vars, so
# dbt's partial parsing survives from run to run; dbt copies it into its artifacts' metadata.env.
BUILD_VARIABLE = "DBT_ENV_CUSTOM_ENV_CLAIMHOUSE_BUILD"


@contextmanager
def _dbt_environment(
    settings: Settings, writer: str | None = None, build: Mapping[str, Any] | None = None
):
    """The variables profiles.yml and the project read, pointing at this run's warehouse;
    `writer` (the run's commit label) names dbt's Delta commits as the run's, not dbt's;
    `build` is what the build's models read (build_values)."""
    from dbt_common.events.functions import reset_metadata_vars

    values = {
        "CLAIMHOUSE_WAREHOUSE": str(settings.warehouse),
        # Spark's scratch space and metastore: local, also for an s3a:// warehouse.
        "CLAIMHOUSE_LOCAL_DIR": str(settings.local_dir),
        "CLAIMHOUSE_S3_ENDPOINT": settings.s3_endpoint or "",
        "CLAIMHOUSE_S3_REGION": settings.s3_region,
        "CLAIMHOUSE_S3_PATH_STYLE": str(settings.s3_path_style).lower(),
        "CLAIMHOUSE_JARS_DIR": str(settings.jars_dir),
        "CLAIMHOUSE_LOG4J": str(LOG4J_CONF),
        "CLAIMHOUSE_SPARK_MASTER": settings.spark_master,
        "CLAIMHOUSE_DBT_TARGET": "local",
        **({"CLAIMHOUSE_COMMIT_METADATA": writer} if writer else {}),
        **({BUILD_VARIABLE: json.dumps(dict(build))} if build is not None else {}),
    }
    saved = {key: os.environ.get(key) for key in values}
    os.environ.update(values)
    # dbt reads its artifacts' metadata variables once per process.
    reset_metadata_vars()
    try:
        yield
    finally:
        for key, old in saved.items():
            if old is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = old
        # Later dbt calls in this process must not carry this build's metadata.
        reset_metadata_vars()


def build_values(
    run_id: str, since: Mapping[str, int] | None = None, upto: Mapping[str, int] | None = None
) -> dict[str, Any]:
    """What a build's models read: the run id stamped on gold's rows and, for an incremental
    build, `since` (silver table -> version gold was last built from) and `upto` (the versions
    this run pinned): the stories changed in between are rebuilt."""
    return {"run_id": run_id, **({"since": dict(since), "upto": dict(upto or {})} if since else {})}


def artifact_run_id(artifact: Mapping[str, Any]) -> str | None:
    """The claimhouse run whose build wrote this dbt artifact (run_results.json...), from its
    metadata.env; None for another dbt invocation's."""
    env = (artifact.get("metadata") or {}).get("env") or {}
    value = env.get(BUILD_VARIABLE.removeprefix("DBT_ENV_CUSTOM_ENV_"))
    return json.loads(value).get("run_id") if value else None


def kind_vars() -> list[str]:
    """`--vars` with what gold needs about the claim kinds, from their registry
    (lake.silver.kinds): the same on every run, so dbt's partial parsing survives; the dbt
    project's own defaults are the same values (tests/unit/test_kinds.py)."""
    return ["--vars", json.dumps(kinds.dbt_vars(), sort_keys=True)]


def dbt_args(command: str, settings: Settings, *extra: str) -> list[str]:
    """Arguments for `dbt <command>` on claimhouse's project, with artifacts in the warehouse."""
    work = settings.local_dir / "_dbt"
    return [
        command,
        "--project-dir",
        str(settings.dbt_project),
        "--profiles-dir",
        str(settings.dbt_project),
        "--target-path",
        str(work / "target"),
        "--log-path",
        str(work / "logs"),
        "--quiet",
        # No network here or on most workers: do not try to send dbt's usage events.
        "--no-send-anonymous-usage-stats",
        *kind_vars(),
        *extra,
    ]


def build_gold(
    spark: SparkSession,
    settings: Settings,
    run_id: str,
    since: Mapping[str, int] | None = None,
    upto: Mapping[str, int] | None = None,
) -> GoldSummary:
    """`dbt build` against the current silver tables: the models (the candidate, in
    gold_build) and the data tests on sources and marts. With `since` (the silver versions the
    gold tables were built from) only the stories changed since are rebuilt; without it, every
    table is rebuilt (`--full-refresh`). dbt's unit tests check the SQL on
    fixed inputs, not the data, so (as dbt advises for production runs) they are left to
    development and CI (`dbt build` in dbt_project/), as are the
    intermediate models' invariant tests (tag `internal`). Publishes nothing."""
    lake = Lake(spark, settings.warehouse, state=settings.local_dir)
    lake.forget_other_warehouses()
    # A dbt source must exist: before any grouping, every article is a story of its own.
    lake.ensure(SILVER_ARTICLE_STORIES)
    # Named here, where this process remembers what it named, dbt's on-run-start hook has
    # nothing left to do (macros/register_lake_tables.sql).
    lake.register_all()
    args = dbt_args(
        "build",
        settings,
        "--exclude-resource-type",
        "unit_test",
        "--exclude",
        INTERNAL,
        *([] if since else ["--full-refresh"]),
    )
    values = {**build_values(run_id, since, upto), "lake_registered": True}
    summary = _invoke(spark, settings, args, "build", values)
    summary.incremental = bool(since)
    if since:
        summary.stories_touched = lake.count(TOUCHED_STORIES)
    return summary


def validate_candidate(ctx: RunContext, versions: dict[str, int], incremental: bool) -> None:
    """Gold's contracts on the candidate at `versions` (gold_build.* -> Delta version); the
    rules that join gold tables read the candidate's, not the published ones. After an
    incremental build, only the rows of the stories it rebuilt are checked (every rule counts
    violating rows, and the other stories' rows passed when they were built); `claimhouse
    validate` and the daily schedule check every row."""
    will_be = {
        GOLD_RELEASE.published(t): ctx.lake.read(
            GOLD_RELEASE.built(t), version=versions[GOLD_RELEASE.built(t)]
        )
        for t in GOLD_RELEASE.tables
    }
    checked = dict(will_be)
    if incremental:
        stories = F.broadcast(rebuilt_stories(ctx.lake, will_be["gold.facts"], ctx.run_id))
        checked = {t: df.join(stories, "story_id", "left_semi") for t, df in will_be.items()}
    with candidates(ctx.spark, will_be) as bindings:
        enforce_tables(ctx.spark, ctx.lake, list(checked.items()), ctx.run_id, bindings=bindings)


def rebuilt_stories(lake: Lake, facts: DataFrame, run_id: str) -> DataFrame:
    """The stories an incremental build rebuilt: those silver changed (touched_stories), and
    those whose facts it wrote (facts.run_id), which takes in the stories whose synonyms
    changed."""
    written = facts.where(F.col("run_id") == run_id).select("story_id")
    return lake.read(TOUCHED_STORIES).select("story_id").union(written).distinct()


def _build(ctx: RunContext, inputs: Mapping[str, int]) -> GoldSummary:
    """Build the candidate, run its dbt tests and contracts; a candidate that passed is
    copied into the release table in one commit."""
    since, why = (
        (None, "a full refresh was asked for")
        if ctx.full_refresh
        else incremental_base(ctx.lake, ctx.settings, inputs, ctx.last_published(UNIT.name))
    )
    if since is None:
        ctx.progress(f"gold: rebuilding every story ({why})")
    try:
        upto = {t: inputs[t] for t in _INCREMENTAL_INPUTS}
        summary = build_gold(ctx.spark, ctx.settings, ctx.run_id, since, upto)
    except GoldBuildError as failure:
        raise CandidateRejected(str(failure), _built_versions(ctx.lake), failure) from failure
    for table in drop_unbuilt_models(ctx.lake, ctx.settings):
        ctx.progress(f"gold: dropped {table} (no model of the dbt project builds it)")
    versions = _built_versions(ctx.lake)
    started = time.perf_counter()
    try:
        validate_candidate(ctx, versions, summary.incremental)
    except ContractViolation as violation:
        where = ", ".join(f"{t} version {v}" for t, v in sorted(versions.items()))
        raise CandidateRejected(
            f"{violation} The candidate was not published: gold.* still shows the previous "
            f"release; the candidate is readable as {where}.",
            versions,
            violation,
        ) from violation
    summary.contracts_s = time.perf_counter() - started
    released = ctx.lake.publish(GOLD_RELEASE, versions, ctx.run_id, docs=column_docs(ctx.settings))
    summary.outputs = {**dbt_table_versions(ctx.lake, ctx.settings), **released}
    return summary


def incremental_base(
    lake: Lake, settings: Settings, upto: Mapping[str, int], last: Mapping[str, Any] | None
) -> tuple[dict[str, int] | None, str]:
    """The silver versions the last published gold was built from, when an incremental build
    may start from its tables: same dbt project, every table dbt builds still at the version
    that build left (no failed or rejected build wrote them since), and silver's changes from
    there to `upto` (this run's versions) still readable. Else None, and why every story is
    rebuilt. `last`: gold's latest published row of audit.layer_runs."""
    if last is None:
        return None, "no gold published yet"
    if last["code_version"] != project_digest(settings.dbt_project):
        return None, "the dbt project changed"
    recorded, inputs = dict(last["outputs"] or {}), dict(last["inputs"] or {})
    tables = dbt_table_versions(lake, settings)
    if not tables or any(recorded.get(t) != v for t, v in tables.items()):
        return None, "gold's tables were written since the last published build"
    since = {t: inputs[t] for t in _INCREMENTAL_INPUTS if t in inputs}
    if len(since) < len(_INCREMENTAL_INPUTS):
        return None, "the last published build did not record its silver versions"
    for table, version in since.items():
        if not lake.changes_readable(table, version, upto[table]):
            return None, (
                f"{table}'s changes after version {version} are not readable (vacuumed, or its "
                "change data feed was off then)"
            )
    return since, ""


def dbt_table_versions(lake: Lake, settings: Settings) -> dict[str, int]:
    """Every table the dbt project builds (staging, intermediate, marts) -> its Delta version."""
    names = (f"{n['schema']}.{n['alias']}" for n in _models(settings))
    return {t: lake.version(t) for t in sorted(names) if lake.exists(t)}


def _models(settings: Settings) -> list[dict]:
    """The project's models as the manifest the last build wrote describes them."""
    path = settings.local_dir / "_dbt" / "target" / "manifest.json"
    if not path.is_file():
        return []
    nodes = json.loads(path.read_text())["nodes"].values()
    return [node for node in nodes if node["resource_type"] == "model"]


def column_docs(settings: Settings) -> dict[str, dict[str, str]]:
    """dbt's column docs of the marts ({table: {column: description}}, from the manifest the
    build just wrote), for the published views' column comments: DESCRIBE gold.facts shows
    them without dbt's per-column ALTERs (persist_docs: one Delta commit per column)."""
    return {
        node["alias"]: {
            name: " ".join(column["description"].split())
            for name, column in node["columns"].items()
            if column.get("description")
        }
        for node in _models(settings)
        if node["schema"] == GOLD_RELEASE.build_layer
    }


def drop_unbuilt_models(lake: Lake, settings: Settings) -> list[str]:
    """Tables in the staging and intermediate schemas that no model of the project builds as a
    table any more (a model renamed, removed or made ephemeral): dropped, data and all, so the
    catalog and the SQL endpoint list only tables each build keeps current. They are derived;
    nothing is lost."""
    models = [n for n in _models(settings) if n["schema"] != GOLD_RELEASE.build_layer]
    built = {
        (n["schema"], n["alias"]) for n in models if n["config"]["materialized"] != "ephemeral"
    }
    dropped = []
    for schema in sorted({n["schema"] for n in models}):
        for log in lake.glob(f"{schema}/*/_delta_log"):
            table = log.parent
            if (schema, table.name) in built:
                continue
            lake.spark.sql(f"DROP TABLE IF EXISTS `{schema}`.`{table.name}`")
            if isinstance(table, Path):
                shutil.rmtree(table)
            else:
                lake.delete_folder(table)
            dropped.append(f"{schema}.{table.name}")
    return dropped


def _built_versions(lake: Lake) -> dict[str, int]:
    return {t: lake.version(t) for t in GOLD_BUILD_TABLES if lake.exists(t)}


UNIT = Unit(
    name="gold",
    inputs=DBT_SOURCES,
    # The release's plain tables and manifest too: a warehouse an older claimhouse published
    # gold into, without them, publishes once more, and gains them.
    outputs=(
        *GOLD_BUILD_TABLES,
        GOLD_RELEASE.store,
        *GOLD_RELEASE.plain_tables,
        GOLD_RELEASE_MANIFEST.name,
    ),
    build=_build,
    doing="dbt build (reconcile claims into facts), then gold's contracts",
    code_version=lambda settings: project_digest(settings.dbt_project),
    unchanged=lambda: GoldSummary(unchanged=True),
    # each published table has its contract
    shown=GOLD_TABLES,
    contracts=GOLD_TABLES,
    builds_with_dbt=True,
)


def dbt_project_files(project: Path) -> list[Path]:
    """The dbt project's own files, sorted: not dbt's outputs (target/, logs/) nor hidden ones."""
    found = []
    for folder, dirs, names in os.walk(project):
        dirs[:] = [d for d in dirs if d not in _NOT_PROJECT_FILES and not d.startswith(".")]
        found += [Path(folder) / name for name in names if not name.startswith(".")]
    return sorted(found)


def project_digest(project: Path) -> str:
    """sha256 over the dbt project's files: gold's code version."""
    digest = hashlib.sha256()
    for path in dbt_project_files(project):
        digest.update(str(path.relative_to(project)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def _invoke(
    spark: SparkSession,
    settings: Settings,
    args: list[str],
    command: str,
    build: Mapping[str, Any] | None = None,
) -> GoldSummary:
    from dbt.cli.main import dbtRunner

    if not (settings.dbt_project / "dbt_project.yml").exists():
        raise GoldBuildError(
            f"dbt project not found at {settings.dbt_project}: set CLAIMHOUSE_DBT_PROJECT to the "
            "folder holding dbt_project.yml"
        )
    with (
        conf_restored(spark, _TOUCHED_CONF),
        _dbt_environment(settings, spark.conf.get(COMMIT_METADATA, None), build),
    ):
        result = dbtRunner().invoke(args)
    if result.exception is not None:
        raise GoldBuildError(f"dbt {command} could not run: {result.exception}")
    summary = GoldSummary()
    for node in result.result or []:
        kind = node.node.resource_type
        status = str(node.status)
        summary.seconds += node.execution_time or 0.0
        if status in ("error", "fail"):
            where = getattr(node.node, "original_file_path", "")
            summary.failures.append(f"{kind} {node.node.name} ({where}): {dbt_error(node.message)}")
        elif kind == "model":
            summary.models += 1
        elif status == "warn":
            summary.tests_warned += 1
        elif status == "pass":
            summary.tests_passed += 1
    if summary.failures or not result.success:
        details = "\n  ".join(summary.failures) or "see <warehouse>/_dbt/logs/dbt.log"
        raise GoldBuildError(
            f"gold: dbt {command} failed in {settings.dbt_project}:\n  {details}\n"
            f"Fix the model or data, then rerun; logs in {settings.local_dir / '_dbt' / 'logs'}"
        )
    return summary


# A Delta constraint broken by a write: its name, expression and the row, as Delta words them.
_CONSTRAINT = re.compile(
    r"CHECK constraint (\S+) .*? violated by row with values:(?:\n\s*- [^\n]*)+"
)


def dbt_error(message: str | None) -> str:
    """A failed dbt node's message without what only a JVM developer reads: a broken mart
    constraint as its rule and row (with where the rule lives), anything else up to the first
    Java stack frame or query plan."""
    text = (message or "").strip()
    broken = _CONSTRAINT.search(text)
    if broken:
        rule, *values = broken.group(0).splitlines()
        row = "".join(f"\n - {v.strip().removeprefix('- ')}" for v in values)
        return (
            f"{rule}{row}\n  a row the model built breaks the Delta constraint "
            f"{broken.group(1)} (dbt_project/models/marts/_marts.yml): fix the model or its input"
        )
    kept: list[str] = []
    for line in text.splitlines():
        bare = line.strip()
        if bare.startswith(_NOT_FOR_USERS):
            if bare.startswith(("+- ", ":- ")) and kept and re.fullmatch(r"\w+", kept[-1].strip()):
                kept.pop()  # the plan's root, the line above its first branch
            break
        kept.append(line)
    return "\n".join(kept[:12])


# Where a Spark error's message ends and its Java stack, plan or SQL echo begins.
_NOT_FOR_USERS = ("at ", "+- ", ":- ", "JVM stacktrace", "== ", "Caused by:")
