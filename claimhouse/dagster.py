"""`claimhouse ui` (the Dagster UI over the lake) and `claimhouse dagster-run` (a Dagster run
handed over by orchestration.launcher, run in this process)."""

from __future__ import annotations

import sys
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
    from orchestration.launcher import execute_handed_over

    if not execute_handed_over(input_json):
        raise typer.Exit(EXIT_DATA)
