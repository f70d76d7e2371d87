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
from pathlib import Path

from dagster import DagsterInstance
from dagster._core.launcher import LaunchRunContext
from dagster._core.launcher.default_run_launcher import DefaultRunLauncher
from dagster._grpc.types import ExecuteRunArgs
from dagster._serdes import serialize_value

from lake import engine
from lake.config import SettingsError, load_settings

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

    def launch_run(self, context: LaunchRunContext) -> None:
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
