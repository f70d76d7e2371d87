"""orchestration.launcher: with the warm engine up, a launched Dagster run executes in the
engine's process (here a thread of this test process serving lake.engine), its events in the
instance as a run worker's; with none, Dagster's default launcher takes it. Terminate stops a
run in the engine (`claimhouse engine start`'s process). Small jobs keep this quick;
tests/ui/test_dagster_ui.py launches the claimhouse job from the UI."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time

import dagster as dg
import pytest
from dagster._core.launcher import LaunchRunContext

from claimhouse.cli import _in_engine
from lake import engine
from lake.config import load_settings
from orchestration.launcher import ENGINE_PID_TAG, EngineRunLauncher, engine_up
from orchestration.resources import LakeResource

from ..conftest import claimhouse

ran_in: list = []


@dg.op
def where() -> int:
    ran_in.append((os.getpid(), threading.current_thread().name))
    return 41


@dg.op
def plus_one(n: int) -> int:
    return n + 1


@dg.job(executor_def=dg.in_process_executor)  # as claimhouse's Definitions run
def tiny():
    plus_one(where())


@dg.op
def spark_for_hours(context, lake: LakeResource) -> int:
    with lake.open(context) as ctx:
        return ctx.spark.range(0, 10**13, 1, 2).selectExpr("max(id)").first()[0]


@dg.job(executor_def=dg.in_process_executor, resource_defs={"lake": LakeResource()})
def long_spark():
    plus_one(spark_for_hours())


@pytest.fixture
def instance(tmp_path):
    (tmp_path / "dagster.yaml").write_text(
        "run_launcher:\n  module: orchestration.launcher\n  class: EngineRunLauncher\n"
        "telemetry:\n  enabled: false\n"
    )
    with dg.DagsterInstance.from_config(str(tmp_path)) as found:
        yield found


@pytest.fixture
def engine_folder(tmp_path, monkeypatch):
    folder = tmp_path / "engine"
    fixed = engine.fixed_settings(load_settings(warehouse=tmp_path / "spark"))
    server = engine.Engine(folder, fixed, _in_engine)
    server.publish_state()
    engine.serve_in_thread(server)
    monkeypatch.setenv("CLAIMHOUSE_ENGINE_DIR", str(folder))
    yield folder, server
    server.shutdown()


def test_a_launched_run_executes_in_the_engine(instance, engine_folder):
    folder, server = engine_folder
    assert isinstance(instance.run_launcher, EngineRunLauncher) and engine_up()
    recon = dg.reconstructable(tiny)
    run = instance.create_run_for_job(
        job_def=tiny, job_code_origin=recon.get_python_origin(), run_config={}
    )
    instance.run_launcher.launch_run(LaunchRunContext(dagster_run=run, workspace=None))
    deadline = time.monotonic() + 120
    while not instance.get_run_by_id(run.run_id).is_finished:
        assert time.monotonic() < deadline, "the run did not finish in 120 s"
        time.sleep(0.5)
    finished = instance.get_run_by_id(run.run_id)
    assert finished.status == dg.DagsterRunStatus.SUCCESS
    assert ENGINE_PID_TAG in finished.tags and server.served == 1
    # It ran here, in the engine's thread, not in a process of its own.
    assert ran_in == [(os.getpid(), "claimhouse-engine")]
    handed = [
        e.message for e in instance.all_logs(run.run_id) if e.message and "warm engine" in e.message
    ]
    assert handed and "claimhouse engine status" in handed[0]


def test_with_no_engine_dagsters_default_launcher_takes_the_run(monkeypatch, tmp_path):
    monkeypatch.setenv("CLAIMHOUSE_ENGINE_DIR", str(tmp_path / "none"))
    assert not engine_up()
    monkeypatch.setenv("CLAIMHOUSE_ENGINE", "off")
    assert not engine_up()


def test_terminate_cancels_at_once_a_run_whose_process_is_gone(instance):
    """A run handed over whose `claimhouse dagster-run` process died (the engine with it, say):
    nothing would see a canceling mark, so Terminate ends it Canceled itself."""
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    run = instance.create_run_for_job(
        job_def=tiny, run_config={}, tags={ENGINE_PID_TAG: str(gone.pid)}
    )
    assert instance.run_launcher.terminate(run.run_id)
    finished = instance.get_run_by_id(run.run_id)
    assert finished.status == dg.DagsterRunStatus.CANCELED
    assert any(
        f"pid {gone.pid}) is gone" in (e.message or "") for e in instance.all_logs(run.run_id)
    )


def _started(instance, run_id: str, step: str) -> bool:
    return any(
        e.dagster_event is not None
        and e.dagster_event.event_type == dg.DagsterEventType.STEP_START
        and e.dagster_event.step_key == step
        for e in instance.all_logs(run_id)
    )


@pytest.mark.slow
def test_terminate_stops_a_run_in_the_engine_and_the_engine_serves_on(
    instance, tmp_path, monkeypatch
):
    """Terminate a run whose step is inside a long Spark job in `claimhouse engine start`'s
    process: the job is cancelled, the run ends Canceled without its next step, and the
    engine's Spark answers the next command."""
    via = {
        "CLAIMHOUSE_ENGINE_DIR": str(tmp_path / "engine"),
        "CLAIMHOUSE_WAREHOUSE": str(tmp_path / "wh"),
    }
    started = claimhouse("engine", "start", env_extra=via)
    assert started.returncode == 0, started.stderr[-3000:]
    for name, value in via.items():
        monkeypatch.setenv(name, value)
    try:
        recon = dg.reconstructable(long_spark)
        run = instance.create_run_for_job(
            job_def=long_spark, job_code_origin=recon.get_python_origin(), run_config={}
        )
        instance.run_launcher.launch_run(LaunchRunContext(dagster_run=run, workspace=None))
        deadline = time.monotonic() + 120
        while not _started(instance, run.run_id, "spark_for_hours"):
            assert time.monotonic() < deadline, "the run did not start in the engine in 120 s"
            time.sleep(0.5)
        time.sleep(3)  # into the Spark job
        assert instance.run_launcher.terminate(run.run_id), [
            str(e.dagster_event.event_specific_data)[:3000]
            for e in instance.all_logs(run.run_id)
            if e.dagster_event is not None and e.dagster_event.is_step_failure
        ]
        # The engine's process polls the run's status (every 10 s by default).
        deadline = time.monotonic() + 60
        while not instance.get_run_by_id(run.run_id).is_finished:
            assert time.monotonic() < deadline, "the run did not stop within 60 s of Terminate"
            time.sleep(0.5)
        assert instance.get_run_by_id(run.run_id).status == dg.DagsterRunStatus.CANCELED
        assert not _started(instance, run.run_id, "plus_one")
        logs = instance.all_logs(run.run_id)
        assert any("Asked the run to stop" in (e.message or "") for e in logs)
        (failed,) = [
            e.dagster_event for e in logs if e.dagster_event and e.dagster_event.is_step_failure
        ]
        assert failed.step_key == "spark_for_hours"
        assert (
            "The run was terminated while this step ran" in failed.step_failure_data.error.message
        )
        # The engine's Spark serves the next command.
        query = claimhouse("sql", "SELECT 41 + 1 AS answer", "--format", "json", env_extra=via)
        assert query.returncode == 0, query.stderr[-3000:]
        assert json.loads(query.stdout) == [{"answer": 42}]
        status = json.loads(
            claimhouse("engine", "status", "--format", "json", env_extra=via).stdout
        )
        assert status["running"] and status["commands_served"] == 2
    finally:
        claimhouse("engine", "stop", env_extra=via)
