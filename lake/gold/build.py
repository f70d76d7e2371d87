"""Gold: build the dbt project (dbt_project/) in this process's Spark session.

The SQL lives in dbt; this module only invokes it the way a dbt user would (`dbt build`),
through dbtRunner so that dbt-spark's session method reuses the pipeline's SparkSession
instead of starting a second JVM.
"""

from __future__ import annotations

import hashlib
import json
import os
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from pyspark.sql import SparkSession

from lake.config import REPO_ROOT, Settings
from lake.schemas import SILVER_ARTICLE_STORIES
from lake.spark import JARS_DIR, LOG4J_CONF
from lake.storage import Lake, LakeError

DBT_PROJECT_DIR = Path(os.environ.get("CLAIMHOUSE_DBT_PROJECT", REPO_ROOT / "dbt_project"))
GOLD_TABLES = ("gold.facts", "gold.fact_evidence", "gold.fact_conflicts")
# The tables dbt_project/ reads (its sources); gold is a function of these and the project.
DBT_SOURCES = ("bronze.articles", "silver.claims", "silver.article_stories")
# dbt tests the pipeline leaves out: the intermediate models' invariants (dbt_project.yml).
INTERNAL = "tag:internal"
_NOT_PROJECT_FILES = {"target", "logs", "dbt_packages"}

# Session settings dbt-spark changes on the shared session (it forces ANSI off, and applies the
# profile's server_side_parameters); restored after the build so later pipeline steps and
# tests see the session as claimhouse configured it.
_TOUCHED_CONF = ("spark.sql.ansi.enabled", "spark.sql.shuffle.partitions")


@dataclass
class GoldSummary:
    models: int = 0
    tests_passed: int = 0
    tests_warned: int = 0
    failures: list[str] = field(default_factory=list)
    seconds: float = 0.0


class GoldBuildError(LakeError):
    """dbt build failed: a model did not build or a test with severity error failed."""


@contextmanager
def _dbt_environment(settings: Settings):
    """The variables profiles.yml and dbt_project.yml read, pointing at this run's warehouse."""
    values = {
        "CLAIMHOUSE_WAREHOUSE": str(settings.warehouse),
        "CLAIMHOUSE_JARS_DIR": str(JARS_DIR),
        "CLAIMHOUSE_LOG4J": str(LOG4J_CONF),
        "CLAIMHOUSE_SPARK_MASTER": settings.spark_master,
        "CLAIMHOUSE_DBT_TARGET": "local",
    }
    saved = {key: os.environ.get(key) for key in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for key, old in saved.items():
            if old is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = old


def dbt_args(command: str, settings: Settings, run_id: str, *extra: str) -> list[str]:
    """Arguments for `dbt <command>` on claimhouse's project, with artifacts in the warehouse."""
    work = settings.warehouse / "_dbt"
    return [
        command,
        "--project-dir",
        str(DBT_PROJECT_DIR),
        "--profiles-dir",
        str(DBT_PROJECT_DIR),
        "--target-path",
        str(work / "target"),
        "--log-path",
        str(work / "logs"),
        "--vars",
        json.dumps({"run_id": run_id}),
        "--quiet",
        # No network here or on most workers: do not try to send dbt's usage events.
        "--no-send-anonymous-usage-stats",
        *extra,
    ]


def build_gold(spark: SparkSession, settings: Settings, run_id: str) -> GoldSummary:
    """`dbt build` against the current silver tables: the models and the data tests on sources
    and marts. dbt's unit tests check the SQL on fixed inputs, not the data, so (as dbt advises
    for production runs) they are left to development and CI (`dbt build` in dbt_project/, or
    run_unit_tests), as are the intermediate models' invariant tests (tag `internal`)."""
    lake = Lake(spark, settings.warehouse)
    lake.forget_other_warehouses()
    # A dbt source must exist: before any grouping, every article is a story of its own.
    lake.ensure(SILVER_ARTICLE_STORIES)
    _stamp_path(lake).unlink(missing_ok=True)
    # The sources' versions before dbt reads them: a commit to silver during the build makes
    # the stamp stale, so the next run builds again instead of calling gold current.
    sources = _versions(lake, DBT_SOURCES)
    args = dbt_args(
        "build", settings, run_id, "--exclude-resource-type", "unit_test", "--exclude", INTERNAL
    )
    summary = _invoke(spark, settings, args, "build")
    stamp = _inputs_stamp(lake)
    stamp["versions"].update(sources)
    _stamp_path(lake).write_text(json.dumps(stamp, indent=1))
    return summary


def gold_is_current(lake: Lake) -> bool:
    """True when the last successful build_gold read the sources at their current Delta
    versions with the same dbt project, and no one has written gold since: a rebuild would
    only add identical versions."""
    stamp = _stamp_path(lake)
    if not stamp.exists():
        return False
    try:
        return json.loads(stamp.read_text()) == _inputs_stamp(lake)
    except (ValueError, LakeError):
        return False


def _stamp_path(lake: Lake) -> Path:
    return lake.root / "_dbt" / "built_from.json"


def _versions(lake: Lake, tables) -> dict[str, int]:
    return {t: lake.version(t) for t in tables if lake.exists(t)}


def _inputs_stamp(lake: Lake) -> dict:
    versions = _versions(lake, (*DBT_SOURCES, *GOLD_TABLES))
    if len(versions) < len(DBT_SOURCES) + len(GOLD_TABLES):
        raise LakeError("gold or one of its sources is missing")
    return {"versions": versions, "project": _project_digest()}


def dbt_project_files() -> list[Path]:
    """The dbt project's own files, sorted: not dbt's outputs (target/, logs/) nor hidden ones."""
    found = []
    for folder, dirs, names in os.walk(DBT_PROJECT_DIR):
        dirs[:] = [d for d in dirs if d not in _NOT_PROJECT_FILES and not d.startswith(".")]
        found += [Path(folder) / name for name in names if not name.startswith(".")]
    return sorted(found)


def _project_digest() -> str:
    digest = hashlib.sha256()
    for path in dbt_project_files():
        digest.update(str(path.relative_to(DBT_PROJECT_DIR)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def run_unit_tests(spark: SparkSession, settings: Settings) -> GoldSummary:
    """dbt's unit tests (`dbt test --select test_type:unit`) in this session: every model's SQL
    on the fixtures in the project's YAML. Needs a warehouse gold was built in once."""
    args = dbt_args("test", settings, "", "--select", "test_type:unit")
    return _invoke(spark, settings, args, "test")


def _invoke(spark: SparkSession, settings: Settings, args: list[str], command: str) -> GoldSummary:
    from dbt.cli.main import dbtRunner

    if not (DBT_PROJECT_DIR / "dbt_project.yml").exists():
        raise GoldBuildError(
            f"dbt project not found at {DBT_PROJECT_DIR}: set CLAIMHOUSE_DBT_PROJECT to the "
            "folder holding dbt_project.yml"
        )
    saved_conf = {key: spark.conf.get(key, None) for key in _TOUCHED_CONF}
    try:
        with _dbt_environment(settings):
            result = dbtRunner().invoke(args)
    finally:
        for key, value in saved_conf.items():
            if value is None:
                spark.conf.unset(key)
            else:
                spark.conf.set(key, value)
    if result.exception is not None:
        raise GoldBuildError(f"dbt {command} could not run: {result.exception}")
    summary = GoldSummary()
    for node in result.result or []:
        kind = node.node.resource_type
        status = str(node.status)
        summary.seconds += node.execution_time or 0.0
        if status in ("error", "fail"):
            where = getattr(node.node, "original_file_path", "")
            summary.failures.append(f"{kind} {node.node.name} ({where}): {node.message}")
        elif kind == "model":
            summary.models += 1
        elif status == "warn":
            summary.tests_warned += 1
        elif status == "pass":
            summary.tests_passed += 1
    if summary.failures or not result.success:
        details = "\n  ".join(summary.failures) or "see <warehouse>/_dbt/logs/dbt.log"
        raise GoldBuildError(
            f"gold: dbt {command} failed in {DBT_PROJECT_DIR}:\n  {details}\n"
            f"Fix the model or data, then rerun; logs in {settings.warehouse / '_dbt' / 'logs'}"
        )
    return summary
