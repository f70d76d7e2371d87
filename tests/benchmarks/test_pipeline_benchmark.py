"""benchmarks/pipeline.py as a user runs it, on 1,000 articles (conftest's benchmark_1k, whose
warehouse tests/integration/test_baseline_parity.py also reads)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from ..conftest import REPO


# heavy: a whole 1,000-article pipeline in its own process; with the synthetic parity test
# (which reads the same run) left out by default so CI stays under its time limit on a slow
# machine. ./scripts/test -m heavy runs them.
@pytest.mark.slow
@pytest.mark.heavy
def test_the_pipeline_benchmark_prints_every_figure_and_scores_claims(benchmark_1k):
    work, done = benchmark_1k
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["benchmark"] == "pipeline"
    (run,) = report["runs"]
    assert run["articles"] == 1000
    assert set(run["stage_s"]) == {"bronze", "silver", "gold"}
    for field in (
        "total_s",
        "articles_per_s",
        "mb_per_s",
        "driver_python_peak_rss_mb",
        "driver_jvm_peak_rss_mb",
        "with_scoring_python_peak_rss_mb",
    ):
        assert run[field] > 0, field
    assert run["rows"]["bronze.articles"] == 1000
    assert run["claim_precision"] >= 0.9
    assert run["claim_recall"] >= 0.9
    assert run["claim_f1"] >= 0.9
    assert run["story_pair_precision"] >= 0.9 and run["story_pair_recall"] >= 0.9
    for field in ("fact_precision", "fact_recall", "fact_f1", "conflict_recall"):
        assert field in run, field
    # Floors against regressions (docs/accuracy-history.md, "Fact identity"): since gold
    # reconciles by claim frames, facts hold one quantity (purity 0.994 in process) but one
    # quantity worded with two verbs splits (F1 0.861, 2026-12-02).
    assert run["fact_f1"] >= 0.84
    assert run["fact_purity"] >= 0.98
    assert run["true_facts"] > 0 and run["gold_facts"] > 0

    # The session's event log (CLAIMHOUSE_SPARK_EVENT_LOG) says where the run's time went.
    profiled = subprocess.run(
        [sys.executable, str(REPO / "benchmarks" / "spark_profile.py"), str(work / "ev")]
        + ["--top", "100000"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert profiled.returncode == 0, profiled.stderr[-3000:]
    where = json.loads(profiled.stdout)
    assert where["spark_jobs"] > 0 and where["sql_statements"] > 0
    assert 0 < where["job_busy_seconds"] <= where["sql_busy_seconds"] <= where["app_seconds"]
    callers = {row["caller"] for row in where["by_caller"]}
    assert {"dbt", "great_expectations"} <= callers
    plans = {row["plan"] for row in where["slowest"]}
    assert "AtomicReplaceTableAsSelect gold_build.facts" in plans
    assert "MergeIntoCommand" in plans  # bronze's and silver's Delta MERGEs
