"""benchmarks/spark_profile.py's arithmetic on a hand-written event log (Spark's own fields)."""

from __future__ import annotations

import importlib.util
import json
import os

import pytest

from ..conftest import REPO

_spec = importlib.util.spec_from_file_location(
    "spark_profile", REPO / "benchmarks" / "spark_profile.py"
)
spark_profile = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(spark_profile)

SQL = "org.apache.spark.sql.execution.ui.SparkListenerSQLExecution"
DBT_SITE = "collect at /v/lib/python3.11/site-packages/dbt/adapters/spark/session.py:142"
PLAN = "== Physical Plan ==\nAtomicReplaceTableAsSelect (1)\n+- gold.facts, [fact_id]"


def _log(tmp_path, events):
    path = tmp_path / "app-1"
    path.write_text("\n".join(json.dumps(e) for e in events) + "\n")
    return path


def _events():
    return [
        {"Event": "SparkListenerApplicationStart", "Timestamp": 1_000},
        # Two overlapping jobs: 3.0-6.0 s and 5.0-7.0 s after the epoch, busy 4 s in all.
        {"Event": "SparkListenerJobStart", "Job ID": 0, "Submission Time": 3_000},
        {"Event": "SparkListenerJobStart", "Job ID": 1, "Submission Time": 5_000},
        {"Event": "SparkListenerJobEnd", "Job ID": 0, "Completion Time": 6_000},
        {"Event": "SparkListenerJobEnd", "Job ID": 1, "Completion Time": 7_000},
        # A dbt statement (1.5-6.5 s) with a nested Delta execution that must not count twice.
        {
            "Event": SQL + "Start",
            "executionId": 0,
            "rootExecutionId": 0,
            "description": DBT_SITE,
            "physicalPlanDescription": PLAN,
            "time": 1_500,
        },
        {
            "Event": SQL + "Start",
            "executionId": 1,
            "rootExecutionId": 0,
            "description": "Delta: Filtering files for query",
            "time": 2_000,
        },
        {"Event": SQL + "End", "executionId": 1, "time": 2_500},
        {"Event": SQL + "End", "executionId": 0, "time": 6_500},
        # A claimhouse statement, 8.0-9.0 s.
        {
            "Event": SQL + "Start",
            "executionId": 2,
            "rootExecutionId": 2,
            "description": "count at /repo/lake/silver/extract.py:40",
            "time": 8_000,
        },
        {"Event": SQL + "End", "executionId": 2, "time": 9_000},
        {"Event": "SparkListenerApplicationEnd", "Timestamp": 10_000},
    ]


def test_busy_time_counts_overlaps_once_and_nested_statements_in_their_parent(tmp_path):
    report = spark_profile.profile(_log(tmp_path, _events()), top=1)
    assert report["app_seconds"] == 9.0
    assert report["first_job_seconds"] == 2.0
    assert report["spark_jobs"] == 2
    assert report["sql_statements"] == 2
    assert report["job_busy_seconds"] == 4.0
    assert report["sql_busy_seconds"] == 6.0
    assert report["driver_only_seconds"] == 3.0
    assert report["by_caller"] == [
        {"caller": "dbt", "statements": 1, "seconds": 5.0},
        {"caller": "lake/silver/extract.py", "statements": 1, "seconds": 1.0},
    ]
    assert report["slowest"] == [
        {
            "start_seconds": 0.5,
            "seconds": 5.0,
            "statement": DBT_SITE,
            "plan": "AtomicReplaceTableAsSelect gold.facts",
        }
    ]


def test_jvm_and_python_call_sites_name_the_operation():
    assert spark_profile.caller("toDataset$ at DeltaMergeBuilder.scala:153") == (
        "toDataset$ (DeltaMergeBuilder.scala)"
    )
    assert spark_profile.caller("sql at <unknown>:0") == "sql (python)"
    assert spark_profile.caller("Delta: Filtering files for query") == "Delta"


def test_a_folder_without_a_log_says_how_to_make_one(tmp_path):
    with pytest.raises(SystemExit, match="CLAIMHOUSE_SPARK_EVENT_LOG="):
        spark_profile.newest_log(tmp_path)


def test_a_rolled_log_is_read_part_after_part(tmp_path):
    # Spark 4 rolls a log every 128 MB into eventlog_v2_<app>/events_<n>_<app>; parts sort by
    # number (2 before 10), and the newest application wins over an older single-file log.
    older = _log(tmp_path, _events())
    folder = tmp_path / "eventlog_v2_app-2"
    folder.mkdir()
    events = _events()
    (folder / "appstatus_app-2").write_text("")
    (folder / "events_2_app-2").write_text("".join(json.dumps(e) + "\n" for e in events[:5]))
    (folder / "events_10_app-2").write_text("".join(json.dumps(e) + "\n" for e in events[5:]))
    os.utime(older, (0, 0))
    parts = spark_profile.newest_log(tmp_path)
    assert [p.name for p in parts] == ["events_2_app-2", "events_10_app-2"]
    assert spark_profile.newest_log(folder) == parts
    rolled = spark_profile.profile(parts, top=1)
    assert rolled["event_log"] == str(folder)
    whole = spark_profile.profile(older, top=1)
    assert {k: v for k, v in rolled.items() if k != "event_log"} == {
        k: v for k, v in whole.items() if k != "event_log"
    }
    assert rolled["spark_jobs"] == 2 and rolled["sql_busy_seconds"] == 6.0
