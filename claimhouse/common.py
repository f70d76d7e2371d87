"""What every command group of `claimhouse` shares: the consoles, the common options, the
exit codes, errors and JSON log lines, the settings, the writer lock, progress lines and the
Spark session."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from lake.config import SettingsError, load_settings

# soft_wrap: long messages stay on one line, so they can be grepped and copied.
out = Console(soft_wrap=True)
err = Console(stderr=True, soft_wrap=True)

WarehouseOpt = Annotated[
    Path | None,
    typer.Option("--warehouse", help="Warehouse folder [env CLAIMHOUSE_WAREHOUSE; ./warehouse]"),
]
MasterOpt = Annotated[
    str | None,
    typer.Option("--master", help="Spark master URL [env CLAIMHOUSE_SPARK_MASTER; local[*]]"),
]


# Exit codes (README "Exit codes"): what the user does next differs per code.
EXIT_DATA = 1  # a data or contract failure: the message names the table, rule or file
EXIT_USAGE = 2  # a usage or settings error: fix the command, its options or CLAIMHOUSE_*
EXIT_ENV = 3  # the environment: warehouse busy, Spark cannot start, SQL endpoint unreachable
EXIT_EMPTY = 4  # the run found no article to build from: nothing after bronze was built
# 130 / 143: Ctrl-C / SIGTERM stopped the run (lake.stop: 128 + the signal, as shells report)


class LogFormat(StrEnum):
    text = "text"
    json = "json"


# `run --log-format json` (cron, CI, log shippers): every line the run prints is one JSON
# object on stdout instead, errors and warnings included.
_log = {"format": LogFormat.text}
# Without a terminal, a step that prints nothing for this long says it is still going.
HEARTBEAT_S = 60.0


def _event(event: str, message: str, **fields) -> None:
    record = {"time": datetime.now().astimezone().isoformat(timespec="seconds"), "event": event}
    print(json.dumps({**record, "message": message, **fields}, default=str), flush=True)


def _fail(message: str, code: int) -> typer.Exit:
    if _log["format"] is LogFormat.json:
        _event("error", message, exit_code=code)
    else:
        err.print(f"[bold red]error:[/] {message}", highlight=False)
    return typer.Exit(code)


def _settings(*args):
    try:
        return load_settings(*args)
    except SettingsError as exc:
        raise _fail(str(exc), EXIT_USAGE) from exc


@contextmanager
def _writer(settings, run_id: str) -> Iterator[None]:
    """Hold the warehouse's writer lock; another writer's run ends this one with EXIT_BUSY."""
    from lake.lock import WarehouseBusy, warehouse_lock

    try:
        lock = warehouse_lock(
            settings.warehouse, run_id, settings.lock_timeout_s, settings=settings
        )
        lock.__enter__()
    except WarehouseBusy as exc:
        raise _fail(str(exc), EXIT_ENV) from exc
    try:
        yield
    finally:
        lock.__exit__(None, None, None)


@contextmanager
def _progress(first: str, heartbeat_s: float = HEARTBEAT_S) -> Iterator[Callable[[str], None]]:
    """What a long step is doing: a spinner in a terminal; elsewhere (a pipe, cron, CI) a
    timestamped line per step (a JSON object with --log-format json), and a heartbeat line
    when a step has been quiet for heartbeat_s."""
    if err.is_terminal and _log["format"] is LogFormat.text:
        with err.status(first) as status:
            yield status.update
        return
    current = {"step": first, "since": time.monotonic(), "said": time.monotonic()}
    lock = threading.Lock()

    def say(message: str, event: str = "step") -> None:
        if _log["format"] is LogFormat.json:
            _event(event, message)
        else:
            err.print(f"{datetime.now().astimezone():%H:%M:%S} {message}", highlight=False)

    def line(message: str) -> None:
        with lock:
            current.update(step=message, since=time.monotonic(), said=time.monotonic())
            say(message)

    stop = threading.Event()

    def beat() -> None:
        while not stop.wait(min(5.0, heartbeat_s)):
            with lock:
                if time.monotonic() - current["said"] < heartbeat_s:
                    continue
                current["said"] = time.monotonic()
                took = time.monotonic() - current["since"]
                say(f"still: {current['step']} ({took:.0f} s so far)", "heartbeat")

    line(first)
    beating = threading.Thread(target=beat, name="claimhouse-heartbeat", daemon=True)
    beating.start()
    try:
        yield line
    finally:
        stop.set()
        beating.join()


def _session(settings, endpoint: bool = False):
    """Start Spark, turning a failed JVM start into a readable error."""
    from pyspark.logger import PySparkLogger

    from lake.spark import get_spark

    _check_master(settings)
    # PySpark logs every failed query as JSON on stderr; the CLI reports errors itself.
    for name in ("SQLQueryContextLogger", "DataFrameQueryContextLogger"):
        PySparkLogger.getLogger(name).disabled = True
    try:
        return get_spark(settings, endpoint=endpoint)
    except Exception as exc:  # the JVM's own exception types vary by failure
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise _fail(
            f"could not start Spark (master {settings.spark_master}): {first.rstrip('.')}. "
            "Check the --master URL, that Java 17 is installed, and run ./scripts/setup.",
            EXIT_ENV,
        ) from exc


def _check_master(settings) -> None:
    """An unreachable standalone master in seconds, in one line, before Spark tries at length."""
    from lake.spark import unreachable_master

    why = unreachable_master(settings.spark_master)
    if why:
        raise _fail(
            f"cannot reach the Spark master {settings.spark_master} ({why}): start it, "
            "or pass --master local[*]",
            EXIT_ENV,
        )
