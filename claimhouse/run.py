"""`claimhouse run`, `validate`, `maintain`, `compile-contracts`, `dashboard` and `generate`:
the commands that build, check, maintain and show the lake."""

from __future__ import annotations

import json
import re
import time
from datetime import datetime
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from claimhouse.common import (
    EXIT_DATA,
    EXIT_EMPTY,
    EXIT_USAGE,
    LogFormat,
    MasterOpt,
    WarehouseOpt,
    _event,
    _fail,
    _log,
    _progress,
    _session,
    _settings,
    _writer,
    err,
    out,
)
from claimhouse.output import _print_rows


def run(
    input_dir: Annotated[
        Path | None,
        typer.Option(
            "--input", help="Folder of articles (.txt, .md, .html) [env CLAIMHOUSE_INPUT; ./seeds]"
        ),
    ] = None,
    warehouse: WarehouseOpt = None,
    master: MasterOpt = None,
    max_file_bytes: Annotated[
        int | None, typer.Option("--max-file-bytes", min=1, help="Reject larger files [5 MB]")
    ] = None,
    log_format: Annotated[
        LogFormat,
        typer.Option("--log-format", help="text, or json: one JSON object per line on stdout"),
    ] = LogFormat.text,
    dagster: Annotated[
        bool,
        typer.Option(
            "--dagster/--no-dagster",
            help="Record what the run built in the Dagster instance `claimhouse ui` opens",
        ),
    ] = True,
    full_refresh: Annotated[
        bool,
        typer.Option(
            "--full-refresh",
            help="Rebuild gold's every story, not only those changed since its last build",
        ),
    ] = False,
) -> None:
    """Run every layer end to end: ingest articles into bronze, then build the layers after it."""

    _log["format"] = log_format
    try:
        _run(input_dir, warehouse, master, max_file_bytes, dagster, full_refresh)
    finally:
        _log["format"] = LogFormat.text


def _record_in_dagster(spark, settings, progress, report) -> None:
    """What the run published and how its checks went, as runless events in the Dagster
    instance `claimhouse ui` reads. Never fails the run: the lake has it either way."""
    from lake.storage import Lake

    progress("recording the run in the Dagster instance...")
    try:
        from orchestration.runless import record_lake

        recorded = record_lake(Lake(spark, settings.warehouse, state=settings.local_dir), settings)
    except Exception as exc:  # a broken instance must not fail a run the lake has published
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0][:300]
        message = f"the run is in the lake, but Dagster's instance did not take it: {first}"
        if _log["format"] is LogFormat.json:
            _event("warning", message)
        else:
            err.print(f"[bold yellow]warning:[/] {message}", highlight=False)
        return
    report(f"{datetime.now().astimezone():%H:%M:%S} {recorded.describe()}")


def _run(
    input_dir, warehouse, master, max_file_bytes, dagster: bool = True, full_refresh: bool = False
) -> None:
    from lake.bronze.ingest import input_problem
    from lake.layer import Interrupted
    from lake.pipeline import new_run_id, run_pipeline
    from lake.spark import mute_jvm_stderr
    from lake.stop import stop_on_signals
    from lake.storage import LakeError

    as_json = _log["format"] is LogFormat.json
    settings = _settings(warehouse, input_dir, master, max_file_bytes)
    problem = input_problem(settings)
    if problem:
        raise _fail(problem, EXIT_USAGE)
    started = time.perf_counter()
    run_id = new_run_id()
    if as_json:
        _event("start", f"claimhouse run {run_id}", run_id=run_id, warehouse=settings.warehouse)
    else:
        out.print(f"[bold]claimhouse run {run_id}[/] into {settings.warehouse}")

    def report(line: str) -> None:
        if as_json:
            # The line's own "HH:MM:SS " is the event's time.
            text = re.sub(r"^\d\d:\d\d:\d\d ", "", line)
            _event("layer", text, layer=text.split(":", 1)[0])
        else:
            out.print(line, markup=False, highlight=False)

    with (
        _writer(settings, run_id),
        stop_on_signals(lambda _: mute_jvm_stderr()) as stop,
        _progress("starting Spark...") as progress,
    ):
        spark = _session(settings)
        stop.take_signals()  # PySpark's own SIGINT handler came with the session
        try:
            summary = run_pipeline(
                spark,
                settings,
                run_id,
                progress=progress,
                report=report,
                full_refresh=full_refresh,
                stop=stop,
            )
        except Interrupted as exc:
            raise _fail(str(exc), exc.exit_code) from exc
        except LakeError as exc:
            if dagster:
                _record_in_dagster(spark, settings, progress, report)
            raise _fail(str(exc), EXIT_DATA) from exc
        except Exception as exc:
            if stop.signum is None:
                raise
            # stopped outside any unit (between them, or while recording one)
            message = f"interrupted by {stop.signal}: run again to finish"
            raise _fail(message, stop.exit_code) from exc
        if dagster:
            _record_in_dagster(spark, settings, progress, report)
    elapsed = time.perf_counter() - started

    stages = ", ".join(f"{k} {v:.1f}s" for k, v in summary.stage_seconds.items())
    if as_json:
        _event(
            "done",
            f"done in {elapsed:.1f}s ({stages})",
            run_id=run_id,
            seconds=round(elapsed, 1),
            stages={k: round(v, 1) for k, v in summary.stage_seconds.items()},
            tables={
                name: {"rows": rows, "delta_version": summary.table_versions[name]}
                for name, rows in summary.table_rows.items()
            },
        )
    else:
        table = Table("table", "rows", "delta version", title=None)
        for name, rows in summary.table_rows.items():
            table.add_row(name, f"{rows:,}", str(summary.table_versions[name]))
        out.print(table)
        out.print(f"done in {elapsed:.1f}s ({stages})")
    if summary.no_articles:
        seen = summary.bronze.files_seen
        built = (
            "the lake holds none either, so nothing after bronze was built"
            if summary.stopped_empty
            else "the layers after bronze keep the articles of earlier runs"
        )
        message = (
            f"{settings.input_dir} gave no readable article "
            f"({seen} file{'s' if seen != 1 else ''} seen; bronze.rejects says why each was "
            f"rejected); {built}. Put .txt, .md or .html articles there and run again."
        )
        if as_json:
            _event("warning", message, exit_code=EXIT_EMPTY)
        else:
            err.print(f"[bold yellow]warning:[/] {message}", highlight=False)
        raise typer.Exit(EXIT_EMPTY)


def validate(
    layer: Annotated[str | None, typer.Option("--layer", help="Only this layer")] = None,
    table: Annotated[
        str | None, typer.Option("--table", help="Only this table, e.g. silver.claims")
    ] = None,
    warehouse: WarehouseOpt = None,
    master: MasterOpt = None,
) -> None:
    """Check the current tables against their contracts (expectations/contracts/); record
    every rule's result in audit.dq_results. Exit 1 when a `fail` rule is broken."""
    from lake.contracts.enforce import validate_current
    from lake.contracts.spec import load_contracts
    from lake.pipeline import new_run_id
    from lake.storage import Lake, LakeError

    settings = _settings(warehouse, None, master)
    try:
        contracts = load_contracts()
    except LakeError as exc:
        raise _fail(str(exc), EXIT_USAGE) from exc
    chosen = [
        name
        for name in sorted(contracts)
        if (layer is None or name.split(".")[0] == layer) and (table is None or name == table)
    ]
    if not chosen:
        raise _fail(f"no contract matches; contracts: {', '.join(sorted(contracts))}", EXIT_USAGE)
    run_id = new_run_id()
    with _writer(settings, run_id):
        spark = _session(settings)
        try:
            checked = validate_current(
                spark, Lake(spark, settings.warehouse, state=settings.local_dir), run_id, chosen
            )
        except LakeError as exc:
            raise _fail(str(exc), EXIT_DATA) from exc
    columns = ["table", "rule", "severity", "result", "rows broken"]
    rows: list[list[str]] = []
    fatal = 0
    for item in checked:
        if item.report is None:
            rows.append([item.table, "-", "-", "table missing", "-"])
            continue
        for r in item.report.results:
            fatal += (not r.passed) and r.severity == "fail"
            state = "ok" if r.passed else "BROKEN"
            broken = "" if r.passed else f"{r.unexpected_count:,}"
            rows.append([item.table, r.rule, r.severity, state, broken])
    _print_rows(columns, rows)
    out.print(f"results recorded in audit.dq_results (run {run_id})")
    if fatal:
        raise _fail(f"{fatal} rule(s) of severity fail are broken", EXIT_DATA)


def maintain(warehouse: WarehouseOpt = None, master: MasterOpt = None) -> None:
    """Compact, vacuum and checkpoint every table now, and delete audit rows past their
    retention (what `run` does for a table every CLAIMHOUSE_MAINTAIN_EVERY versions);
    recorded in audit.layer_runs as `maintenance`."""
    from lake import maintenance
    from lake.layer import execute, open_run
    from lake.pipeline import new_run_id
    from lake.storage import LakeError

    settings = _settings(warehouse, None, master)
    run_id = new_run_id()
    with _writer(settings, run_id), _progress("starting Spark...") as progress:
        spark = _session(settings)
        try:
            with open_run(spark, settings, run_id, progress) as ctx:
                result = execute(maintenance.UNIT, ctx)
        except LakeError as exc:
            raise _fail(str(exc), EXIT_DATA) from exc
    summary = result.summary
    _print_rows(
        ["table", "files compacted", "into", "files vacuumed", "files now", "version"],
        [
            [
                t.table,
                str(t.compacted_from),
                str(t.compacted_to),
                str(t.vacuumed),
                str(t.files),
                str(t.version),
            ]
            for t in summary.tables
        ],
    )
    out.print(summary.describe(), highlight=False)


def compile_contracts(
    out_dir: Annotated[
        Path | None,
        typer.Option("--out", help="Folder to write <table>.json into [expectations/suites]"),
    ] = None,
) -> None:
    """Compile expectations/contracts/*.yml into the Great Expectations suites each run
    validates with, to read them: runs build their own from the contracts every time."""
    from lake.contracts.compile import SUITES_DIR, compile_suites
    from lake.contracts.spec import load_contracts
    from lake.storage import LakeError

    try:
        contracts = load_contracts()
    except LakeError as exc:
        raise _fail(str(exc), EXIT_USAGE) from exc
    for path, changed in compile_suites(contracts, out_dir or SUITES_DIR).items():
        out.print(f"{'wrote' if changed else 'unchanged'} {path}")


def dashboard(
    out_file: Annotated[
        Path | None,
        typer.Option("--out", help="HTML file to write [<warehouse>/dashboard.html]"),
    ] = None,
    open_browser: Annotated[
        bool, typer.Option("--open", help="Open the page in the default browser")
    ] = False,
    warehouse: WarehouseOpt = None,
    master: MasterOpt = None,
) -> None:
    """Write the data-quality dashboard: one self-contained HTML page (pass rates over runs,
    quarantine, facts by status, conflicts with both sides, latest broken rules, Data Docs)."""
    import webbrowser

    from lake.dashboard import write_dashboard
    from lake.storage import Lake

    settings = _settings(warehouse, None, master)
    if not settings.remote and not settings.warehouse.is_dir():
        raise _fail(f"no warehouse at {settings.warehouse}: run `claimhouse run` first", EXIT_USAGE)
    spark = _session(settings)
    lake = Lake(spark, settings.warehouse, state=settings.local_dir)
    page = write_dashboard(spark, lake, out_file or settings.local_dir / "dashboard.html")
    out.print(f"dashboard written to {page}")
    if open_browser:
        webbrowser.open(page.as_uri())


def generate(
    articles: Annotated[int, typer.Option("--articles", min=1, help="How many articles")],
    events: Annotated[int, typer.Option("--events", min=1, help="How many news events")],
    out_dir: Annotated[Path, typer.Option("--out", help="Folder to write (articles/, truth/)")],
    seed: Annotated[int, typer.Option("--seed", help="Same seed, same corpus")] = 0,
) -> None:
    """Write a synthetic news corpus with ground truth (claims, facts, non-claims)."""
    from dataclasses import asdict

    from synthetic.generate import generate as write_corpus

    summary = write_corpus(articles=articles, events=events, seed=seed, out=out_dir)
    out.print_json(json.dumps(asdict(summary)))
    out.print(f"run it: claimhouse run --input {out_dir / 'articles'}")
