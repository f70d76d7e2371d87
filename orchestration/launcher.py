"""Dagster's run launcher for claimhouse: a run goes to the warm engine when one is up.

Dagster starts every run in a new process (`dagster api execute_run`), which starts its own
Spark: a minute or more of JVM start and cold JIT before the first asset. With
`claimhouse engine start` up, this launcher hands the run to the engine instead: a thin
`claimhouse dagster-run` process forwards it (lake.engine), and the engine executes the run in
its warm Spark, writing the run's events to this instance as a run worker would. With no engine
(or one that declines), that same process runs it in its own Spark, as Dagster would.
Terminate in the UI stops such a run too (`terminate`).
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from dagster import (
    DagsterInstance,
    DagsterRunStatus,
    DefaultRunLauncher,
    deserialize_value,
    serialize_value,
)

# Private, and here only: Dagster has no public API that executes a run which exists already
# (the UI made it) in this process. `dagster api execute_run` takes these arguments.
from dagster._grpc.types import ExecuteRunArgs

from lake import engine
from lake.config import SettingsError, load_settings
from lake.stop import cancel_spark_jobs

ENGINE_PID_TAG = "claimhouse/engine_client_pid"


def engine_up() -> bool:
    """Whether runs go to the warm engine now (it is up, and CLAIMHOUSE_ENGINE is not off)."""
    try:
        settings = load_settings()
    except SettingsError:
        return False
    return engine.in_use(settings) is not None


def execute_run_args(instance: DagsterInstance, run_id: str, job_code_origin) -> str:
    """What `dagster api execute_run` takes, serialized."""
    return serialize_value(
        ExecuteRunArgs(
            job_origin=job_code_origin,
            run_id=run_id,
            instance_ref=instance.get_ref(),
            set_exit_code_on_failure=True,
        )
    )


class EngineRunLauncher(DefaultRunLauncher):
    """Runs go to the warm engine when it is up; otherwise Dagster's default launcher."""

    def launch_run(self, context) -> None:
        run = context.dagster_run
        if not engine_up() or run.job_code_origin is None:
            return super().launch_run(context)
        command = [
            sys.executable,
            "-m",
            "claimhouse.cli",
            "dagster-run",
            execute_run_args(self._instance, run.run_id, run.job_code_origin),
        ]
        logs = Path(self._instance.root_directory or ".") / "engine_runs"
        logs.mkdir(parents=True, exist_ok=True)
        with (logs / f"{run.run_id}.log").open("ab") as log:
            client = subprocess.Popen(
                command,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=log,
                start_new_session=True,
                env=os.environ.copy(),
            )
        self._instance.add_run_tags(run.run_id, {ENGINE_PID_TAG: str(client.pid)})
        self._instance.report_engine_event(
            "Handed the run to claimhouse's warm engine (`claimhouse engine status`; client "
            f"pid {client.pid}, its output in {logs / (run.run_id + '.log')}).",
            run,
            cls=self.__class__,
        )
        self._run_ids.add(run.run_id)
        return None

    def terminate(self, run_id: str) -> bool:
        """Terminate from the UI, for a run handed to `claimhouse dagster-run` (in the engine or
        in a process of its own): the run is marked canceling; that process sees it within
        Dagster's cancellation poll, cancels its Spark jobs, and the step they ran under ends
        the run Canceled (orchestration.resources). No signal: one landing inside a call to
        the JVM breaks the engine's connection to it. Other runs: Dagster's way."""
        run = self._instance.get_run_by_id(run_id)
        if run is None or ENGINE_PID_TAG not in run.tags:
            return super().terminate(run_id)
        if run.is_finished:
            return False
        if not _alive(int(run.tags[ENGINE_PID_TAG])):
            # Its process is gone (killed, or the engine under it): none would see the mark.
            self._instance.report_run_canceled(
                run,
                message=f"Canceled: the run's process (pid {run.tags[ENGINE_PID_TAG]}) is gone.",
            )
            return True
        self._instance.report_run_canceling(run)
        self._instance.report_engine_event(
            "Asked the run to stop: the process running it cancels its Spark jobs within "
            f"{self._instance.cancellation_thread_poll_interval_seconds} s, starts no further "
            "step and ends the run Canceled.",
            run,
            cls=self.__class__,
        )
        return True


def _alive(pid: int) -> bool:
    """Whether a process with this pid runs on this machine, where the launcher started the
    run's client."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # alive, another user's
        pass
    return True


def execute_handed_over(input_json: str) -> bool:
    """Execute in this process (the warm engine's, when it is up) a run EngineRunLauncher
    handed over, as `dagster api execute_run` would; whether it succeeded."""
    # What that command runs (private, as above); imported here: the webserver and the daemon
    # load this module for the launcher alone.
    from dagster._cli.api import _execute_run_command_body
    from dagster._cli.utils import get_instance_for_cli

    args = deserialize_value(input_json, ExecuteRunArgs)
    with (
        get_instance_for_cli(instance_ref=args.instance_ref) as instance,
        _spark_jobs_cancelled_when_terminated(instance, args.run_id),
    ):
        code = _execute_run_command_body(
            args.run_id, instance, lambda event: None, set_exit_code_on_failure=True
        )
    return not code


@contextmanager
def _spark_jobs_cancelled_when_terminated(instance: DagsterInstance, run_id: str) -> Iterator[None]:
    """While the block runs the Dagster run, a thread polls its status; once Terminate marked
    it canceling (terminate above), each poll cancels the Spark jobs running then, so the step
    under way fails and no other starts (orchestration.resources). A thread of its own and no
    signal: the run's thread may be inside a call to the JVM, which an interrupt there would
    leave half-read."""
    done = threading.Event()
    every = instance.cancellation_thread_poll_interval_seconds
    ref = instance.get_ref()

    def watch() -> None:
        with DagsterInstance.from_ref(ref) as own:  # an instance per thread, as Dagster's
            while not done.wait(every):
                run = own.get_run_by_id(run_id)
                if run is not None and run.status == DagsterRunStatus.CANCELING:
                    cancel_spark_jobs()

    watcher = threading.Thread(target=watch, name="claimhouse-run-cancel", daemon=True)
    watcher.start()
    try:
        yield
    finally:
        done.set()
        watcher.join()
