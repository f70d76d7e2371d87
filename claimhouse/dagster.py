"""`claimhouse ui` (the Dagster UI over the lake) and `claimhouse dagster-run` (a Dagster run
handed over by orchestration.launcher, run in this process)."""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated

import typer

from claimhouse.common import EXIT_DATA, MasterOpt, WarehouseOpt, _settings, out


def ui(
    port: Annotated[int, typer.Option("--port", min=1, max=65535)] = 3000,
    input_dir: Annotated[
        Path | None, typer.Option("--input", help="Folder the sensor watches [./seeds]")
    ] = None,
    warehouse: WarehouseOpt = None,
    master: MasterOpt = None,
) -> None:
    """Start the Dagster UI (`dagster dev`) on 127.0.0.1 with claimhouse's code location."""
    import os
    import signal

    from lake.config import REPO_ROOT
    from orchestration.runless import dagster_home

    settings = _settings(warehouse, input_dir, master)
    home = dagster_home(settings)
    env = {
        **os.environ,
        "DAGSTER_HOME": str(home),
        "CLAIMHOUSE_WAREHOUSE": str(settings.warehouse),
        "CLAIMHOUSE_INPUT": str(settings.input_dir),
        "CLAIMHOUSE_SPARK_MASTER": settings.spark_master,
    }
    dagster = str(Path(sys.executable).parent / "dagster")
    args = [dagster, "dev", "-m", "orchestration.definitions", "-h", "127.0.0.1", "-p", str(port)]
    out.print(f"Dagster UI on http://127.0.0.1:{port} for {settings.warehouse}; Ctrl-C stops")
    os.chdir(REPO_ROOT)
    # A shell that starts us in the background ignores SIGINT, and exec keeps "ignored":
    # restore the defaults so Ctrl-C and SIGTERM reach dagster's own handlers.
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    os.execve(dagster, args, env)


def dagster_run(input_json: str) -> None:
    """A Dagster run handed over by orchestration.launcher: what `dagster api execute_run`
    does, in this process (the warm engine's, when it is up)."""
    from dagster._cli.api import _execute_run_command_body
    from dagster._cli.utils import get_instance_for_cli
    from dagster._grpc.types import ExecuteRunArgs
    from dagster._serdes import deserialize_value

    args = deserialize_value(input_json, ExecuteRunArgs)
    with (
        get_instance_for_cli(instance_ref=args.instance_ref) as instance,
        _spark_jobs_cancelled_when_terminated(instance, args.run_id),
    ):
        code = _execute_run_command_body(
            args.run_id, instance, lambda event: None, set_exit_code_on_failure=True
        )
    if code:
        raise typer.Exit(EXIT_DATA)


@contextmanager
def _spark_jobs_cancelled_when_terminated(instance, run_id: str) -> Iterator[None]:
    """While the block runs the Dagster run, a thread polls its status; once Terminate marked
    it canceling (orchestration.launcher), each poll cancels the Spark jobs running then, so
    the step under way fails and no other starts (orchestration.resources). A thread of its
    own and no signal: the run's thread may be inside a call to the JVM, which an interrupt
    there would leave half-read."""
    from dagster import DagsterInstance, DagsterRunStatus

    from lake.stop import cancel_spark_jobs

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
