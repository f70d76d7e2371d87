"""A user's hands on a real `claimhouse run`: Ctrl-C or SIGTERM during a step gives one line
naming the step, the shell's exit code, the unit recorded as interrupted, and a next run that
finishes cleanly; an input with more claims than the budget is quarantined whole while the
other articles reach gold. One warehouse for both: each run here costs a minute or more."""

from __future__ import annotations

import csv
import os
import shutil
import signal
import subprocess
import threading
import time

import pytest

from benchmarks.claim_heavy import heavy_text
from lake.config import load_settings
from lake.layer import Interrupted
from lake.pipeline import run_pipeline
from lake.stop import StopRequest

from ..conftest import CLAIMHOUSE, SEEDS, claimhouse

pytestmark = pytest.mark.slow

# Each step stopped once under way, in order; each next run starts where the last stopped.
# Bronze is signalled in a `claimhouse run` process with a Spark of its own. Gold's run is a
# client of the warm engine (hosted_engine), and the client is signalled: the engine stops the
# run as a signal to it would. Silver's two units are stopped in this process, as a signal
# stops them (lake.stop: the unit's Spark jobs cancelled), which saves a JVM per run.
STEPS = (
    ("bronze", "bronze: ingesting the input folder", signal.SIGTERM),
    ("silver.claims", "silver.claims: ", signal.SIGTERM),
    ("silver.stories", "silver.stories: ", signal.SIGINT),
    ("gold", "gold: rebuilding every story", signal.SIGINT),
)
IN_PROCESS = ("silver.claims", "silver.stories")
# 40 KB of the seeds' text on one line: 126 claims, over a budget of 100.
ENV = {
    "CLAIMHOUSE_SETTLE_S": "0",
    "CLAIMHOUSE_MAX_CLAIMS_PER_ARTICLE": "100",
    "CLAIMHOUSE_EXTRACT_BUDGET_S": "60",
}
HEAVY_CLAIMS = 126


def _interrupted_run(
    args: list[str], marker: str, signum: int, engine: dict[str, str]
) -> tuple[int, list[str]]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLAIMHOUSE_")}
    env |= ENV | (engine or {"CLAIMHOUSE_ENGINE": "off"})
    proc = subprocess.Popen(
        [CLAIMHOUSE, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
    )
    lines: list[str] = []
    seen = threading.Event()

    def read() -> None:
        for line in proc.stderr:
            lines.append(line.rstrip("\n"))
            if marker in line:
                seen.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    assert seen.wait(300), lines
    time.sleep(2)  # inside the step's Spark work, not before it
    proc.send_signal(signum)
    proc.stdout.read()
    code = proc.wait(timeout=300)
    reader.join(timeout=30)
    return code, lines


def _stopped_in_process(spark, settings, unit: str, marker: str, signum: int):
    """`run_pipeline` in this process, stopped as `signum` stops it once `unit` has started:
    (the Interrupted it raised, the lines it reported)."""
    stop, lines = StopRequest(), []

    def progress(message: str) -> None:
        lines.append(message)
        if message.startswith(marker) and stop.signum is None:
            stop.request(signum)

    with pytest.raises(Interrupted) as caught:
        run_pipeline(spark, settings, f"stopped-{unit}", progress, lines.append, stop=stop)
    return caught.value, lines


@pytest.fixture(scope="module")
def interrupted(tmp_path_factory, spark, hosted_engine):
    """The seeds' first three articles and a claim-heavy one, each step in STEPS interrupted
    in turn, then one run to the end: (a function running a query on the warehouse, each
    interrupted run's exit code and lines, the interrupted units, the last run). Gold's
    stopped run, the queries and the last run go through the test run's warm engine
    (hosted_engine): a JVM each would cost 15 s or more."""
    work = tmp_path_factory.mktemp("interrupt")
    inputs = work / "in"
    inputs.mkdir()
    for seed in sorted(SEEDS.glob("*.txt"))[:3]:
        shutil.copy2(seed, inputs / seed.name)
    (inputs / "heavy.txt").write_text(heavy_text(40))
    warehouse = work / "wh"
    args = ["run", "--input", str(inputs), "--warehouse", str(warehouse), "--no-dagster"]
    engine = {"CLAIMHOUSE_ENGINE_DIR": str(hosted_engine[0])}
    stopped = []
    for step, marker, signum in STEPS:
        if step not in IN_PROCESS:
            served = engine if step == "gold" else {}
            stopped.append(_interrupted_run(args, marker, signum, served))
            continue
        with pytest.MonkeyPatch.context() as env:
            for name, value in ENV.items():
                env.setenv(name, value)
            settings = load_settings(warehouse=warehouse, input_dir=inputs)
            error, lines = _stopped_in_process(spark, settings, step, marker, signum)
        assert error.unit == step, (error, lines)
        stopped.append((error.exit_code, [*lines, f"error: {error}"]))

    def sql(query: str) -> subprocess.CompletedProcess:
        return claimhouse(
            "sql", query, "--format", "csv", "--warehouse", str(warehouse), env_extra=engine
        )

    statuses = sql(
        "SELECT unit, status FROM audit.layer_runs WHERE status = 'interrupted' "
        "ORDER BY started_at",
    )
    final = claimhouse(*args, env_extra=ENV | engine)
    return sql, stopped, statuses, final


def test_each_step_stopped_ends_in_one_line_and_the_next_run_is_clean(interrupted):
    sql, stopped, statuses, final = interrupted
    for (step, _, signum), (code, lines) in zip(STEPS, stopped, strict=True):
        name = signal.Signals(signum).name
        assert code == 128 + signum, lines
        errors = [line for line in lines if line.startswith("error:")]
        assert errors == [
            f"error: interrupted by {name} during {step}: what the steps before it published "
            "stays current and nothing half-made is read; run again to finish"
        ], lines
        assert lines[-1] == errors[0]
        assert not [line for line in lines if "Traceback" in line or line.startswith("\tat ")]
    assert statuses.returncode == 0, statuses.stderr
    assert statuses.stdout.splitlines() == ["unit,status"] + [
        f"{s},interrupted" for s, _, _ in STEPS
    ]
    assert "not a readable Delta table" not in statuses.stderr
    assert final.returncode == 0, final.stderr
    assert "gold: " in final.stderr + final.stdout
    assert not [
        line
        for line in final.stderr.splitlines()
        if line.startswith(("error", "warning")) or "Traceback" in line
    ]
    # What the stopped runs of silver wrote before the stop is not there twice.
    twice = sql("SELECT count(*) - count(DISTINCT claim_id) AS n FROM silver.claims")
    assert twice.stdout.splitlines() == ["n", "0"], twice.stderr


def test_an_article_over_the_claim_budget_is_quarantined_whole_and_the_rest_reach_gold(
    interrupted,
):
    sql, _, _, final = interrupted
    assert final.returncode == 0, final.stderr
    per_article = sql(
        "WITH c AS (SELECT article_id, count(*) AS n FROM silver.claims GROUP BY 1), "
        "q AS (SELECT article_id, count(*) AS n FROM silver.claims_quarantine "
        "WHERE exists(rules_broken, r -> r LIKE 'claims_per_article: %') GROUP BY 1), "
        "e AS (SELECT article_id, count(*) AS n FROM gold.fact_evidence GROUP BY 1) "
        "SELECT substring_index(a.source_uri, '/', -1) AS file, coalesce(c.n, 0) AS claims, "
        "coalesce(q.n, 0) AS over_budget, coalesce(e.n, 0) AS evidence "
        "FROM bronze.articles a LEFT JOIN c USING (article_id) LEFT JOIN q USING (article_id) "
        "LEFT JOIN e USING (article_id) ORDER BY file",
    )
    assert per_article.returncode == 0, per_article.stderr
    rows = [line.split(",") for line in per_article.stdout.splitlines()[1:]]
    assert [r[0] for r in rows] == [p.name for p in sorted(SEEDS.glob("*.txt"))[:3]] + ["heavy.txt"]
    assert rows[-1][1:] == ["0", str(HEAVY_CLAIMS), "0"]
    assert all(
        int(claims) > 0 and over == "0" and int(evidence) > 0
        for _, claims, over, evidence in rows[:3]
    )
    rule = sql(
        "SELECT DISTINCT r FROM silver.claims_quarantine LATERAL VIEW explode(rules_broken) AS r "
        "WHERE r LIKE 'claims_per_article: %'",
    )
    assert list(csv.reader(rule.stdout.splitlines()))[1:] == [
        [
            f"claims_per_article: the article has {HEAVY_CLAIMS} claims, over the budget of 100 "
            "(CLAIMHOUSE_MAX_CLAIMS_PER_ARTICLE); none is reconciled"
        ]
    ]
