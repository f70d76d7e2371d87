"""orchestration.launcher: with the warm engine up, a launched Dagster run executes in the
engine's process (here a thread of this test process serving lake.engine), its events in the
instance as a run worker's; with none, Dagster's default launcher takes it. A two-op job with no
Spark keeps this quick; tests/ui/test_dagster_ui.py launches the claimhouse job from the UI."""

from __future__ import annotations

import os
import threading
import time

import dagster as dg
import pytest
from dagster._core.launcher import LaunchRunContext

from lake import engine
from lake.cli import _in_engine
from lake.config import load_settings
from orchestration.launcher import ENGINE_PID_TAG, EngineRunLauncher, engine_up

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
