"""`claimhouse engine`: the warm engine, one Spark that `run` and `sql` reuse instead of
starting their own, and how a command is handed to it."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import typer

from claimhouse.common import EXIT_ENV, _fail, _progress, _session, _settings, err, out
from claimhouse.output import FormatOpt, OutputFormat
from lake.config import load_settings

engine_app = typer.Typer(
    help="The warm engine: one Spark that `run` and `sql` reuse instead of starting their own.",
    no_args_is_help=True,
)


# What the engine runs each forwarded command with (argv -> exit code): claimhouse.cli's
# `_in_engine`, over the app that holds every command. The root app imports this module, so it
# hands that over (set_handler) rather than this module importing the root.
_handler: Callable[[list[str]], int] | None = None


def set_handler(handler: Callable[[list[str]], int]) -> None:
    global _handler
    _handler = handler


@engine_app.command("start")
def engine_start(
    timeout: Annotated[
        float | None,
        typer.Option(
            "--timeout", help="Seconds to wait for it to serve [300; 1200 with --warm-up]"
        ),
    ] = None,
    warm_up: Annotated[
        bool,
        typer.Option(
            "--warm-up",
            help="Run the pipeline twice on a scratch copy of the seeds before serving, so the "
            "first real run finds Spark warm (about as long as two seed runs)",
        ),
    ] = False,
) -> None:
    """Start the engine in the background (loopback only; its secret in an owner-only file)."""
    import subprocess

    from lake import engine

    if timeout is None:
        timeout = 1200.0 if warm_up else 300.0
    settings = _settings()
    found = engine.read_state(settings.engine_dir)
    if found is not None:
        out.print(f"engine already running at {found.address} (pid {found.pid})")
        return
    settings.engine_dir.mkdir(parents=True, exist_ok=True)
    log = settings.engine_dir / "engine.log"
    with log.open("ab") as handle:
        child = subprocess.Popen(
            [sys.executable, "-m", "claimhouse.cli", "engine", "serve", *(["--warm-up"] * warm_up)],
            stdin=subprocess.DEVNULL,
            stdout=handle,
            stderr=handle,
            start_new_session=True,
        )
    deadline = time.monotonic() + timeout
    doing = "starting the engine's Spark" + (" and warming it up on the seeds" if warm_up else "")
    with _progress(f"{doing}...") as progress:
        while time.monotonic() < deadline:
            state = engine.read_state(settings.engine_dir)
            if state is not None and state.pid == child.pid:
                out.print(f"engine running at {state.address} (pid {state.pid}); log {log}")
                return
            if child.poll() is not None:
                tail = log.read_text(errors="replace").strip().splitlines()[-5:]
                raise _fail(
                    f"the engine stopped while starting (exit {child.returncode}): "
                    + " | ".join(tail),
                    EXIT_ENV,
                )
            time.sleep(0.5)
        progress("giving up")
    child.terminate()
    raise _fail(f"the engine did not start within {timeout:.0f} s; see {log}", EXIT_ENV)


@engine_app.command("serve", hidden=True)
def engine_serve(
    warm_up: Annotated[bool, typer.Option("--warm-up", help="See `engine start`")] = False,
) -> None:
    """The engine itself, in the foreground (`engine start` runs this in the background)."""
    import signal

    from lake import engine

    settings = _settings(_engine_scratch())
    spark = _session(settings)
    if warm_up:
        _warm_up(spark, settings.engine_dir / "warm-up")
    server = engine.Engine(settings.engine_dir, engine.fixed_settings(settings), _handler)
    signal.signal(signal.SIGTERM, lambda *_: server.shutdown())
    state = server.publish_state()
    print(f"engine serving at {state.address} (pid {state.pid})", flush=True)
    try:
        server.serve_forever()
    finally:
        spark.stop()


def _warm_up(spark, folder: Path) -> None:
    """Run the pipeline on a copy of the seeds in a scratch warehouse under `folder`: every
    article but one, then the last one too, so both a full and an incremental build have run
    once; then remove it. A new JVM plans and compiles Spark's code the first time it runs it,
    which makes a cold engine's first run about twice as long as its next. Best effort: a
    failure is logged and the engine serves anyway."""
    import shutil

    from lake.pipeline import new_run_id, run_pipeline

    shipped = load_settings(environ={}).input_dir
    seeds = sorted(p for p in shipped.glob("*") if p.is_file())
    if len(seeds) < 2:
        print(f"no warm-up: no seed articles in {shipped}", file=sys.stderr)
        return
    started = time.perf_counter()
    shutil.rmtree(folder, ignore_errors=True)
    inbox = folder / "input"
    inbox.mkdir(parents=True)
    try:
        settings = load_settings(warehouse=folder / "warehouse", input_dir=inbox)
        for batch in (seeds[:-1], seeds[-1:]):
            for path in batch:
                shutil.copy2(path, inbox / path.name)
            run_pipeline(spark, settings, f"warm-up-{new_run_id()}")
        print(f"warmed up in {time.perf_counter() - started:.1f}s on {len(seeds)} seed articles")
    except Exception as exc:  # the engine is still useful cold
        print(f"warm-up failed, serving cold: {type(exc).__name__}: {exc}", file=sys.stderr)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
        sys.stdout.flush()


def _engine_scratch() -> Path:
    """The engine's own Spark scratch space (metastore, temp files): its folder, not a lake."""
    return _settings().engine_dir / "spark"


@engine_app.command("stop")
def engine_stop() -> None:
    """Stop the engine (a command it is running finishes first)."""
    from lake import engine

    settings = _settings()
    try:
        stopped = engine.stop(settings.engine_dir)
    except engine.EngineError as exc:
        raise _fail(str(exc), EXIT_ENV) from exc
    out.print("engine stopped" if stopped else "no engine running")


@engine_app.command("status")
def engine_status(fmt: FormatOpt = OutputFormat.table) -> None:
    """Whether the engine runs, where, since when and with which Spark settings (exit 3: none)."""
    from lake import engine

    settings = _settings()
    try:
        found = engine.status(settings.engine_dir)
    except engine.EngineError as exc:
        raise _fail(str(exc), EXIT_ENV) from exc
    if found is None:
        if fmt is OutputFormat.json:
            print(json.dumps({"running": False}))
        else:
            out.print(f"no engine running (state folder {settings.engine_dir})")
        raise typer.Exit(EXIT_ENV)
    if fmt is OutputFormat.json:
        print(json.dumps({"running": True, **found}, default=str))
        return
    for key, value in found.items():
        out.print(f"{key}: {value}", highlight=False)


def _forward(settings, argv: list[str]) -> int | None:
    """Hand `run` or `sql` to the warm engine when one is up (None: run it here)."""
    import io

    from lake import engine

    if engine.in_use(settings) is None:
        return None
    piped = not sys.stdin.isatty()
    if engine.interactive(argv) and not piped:
        return None  # a shell on this terminal
    stdin = sys.stdin.read() if piped and argv[0] == "sql" else None

    def note(message: str) -> None:
        err.print(message, highlight=False)

    code = engine.forward(settings.engine_dir, argv, note, stdin)
    if code is None and stdin is not None:
        sys.stdin = io.StringIO(stdin)  # the statements, for this process to run
    return code
