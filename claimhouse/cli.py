"""`claimhouse` command line: run the pipeline, query the lake, read a table's history."""

from __future__ import annotations

import csv
import json
import logging
import re
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from datetime import date, datetime
from decimal import Decimal
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from lake.config import SettingsError, load_settings

app = typer.Typer(
    name="claimhouse",
    help="A data-quality lakehouse: news articles -> sourced claims -> reconciled facts.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
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


class OutputFormat(StrEnum):
    table = "table"  # one field per line instead when the table is wider than the terminal
    vertical = "vertical"
    json = "json"
    csv = "csv"


FormatOpt = Annotated[OutputFormat, typer.Option("--format", help="Output format")]


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
        lock = warehouse_lock(settings.warehouse, run_id, settings.lock_timeout_s)
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


@app.command()
def run(
    input_dir: Annotated[
        Path | None,
        typer.Option(
            "--input", help="Folder of articles (.txt, .md) [env CLAIMHOUSE_INPUT; ./seeds]"
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

        recorded = record_lake(Lake(spark, settings.warehouse), settings)
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
    from lake.layer import Interrupted
    from lake.pipeline import new_run_id, run_pipeline
    from lake.spark import mute_jvm_stderr
    from lake.stop import stop_on_signals
    from lake.storage import LakeError

    as_json = _log["format"] is LogFormat.json
    settings = _settings(warehouse, input_dir, master, max_file_bytes)
    if not settings.input_dir.is_dir():
        if settings.input_dir.exists():
            raise _fail(
                f"input {settings.input_dir} is a file, not a folder: pass the folder that "
                "holds the articles with --input DIR",
                EXIT_USAGE,
            )
        raise _fail(
            f"input folder {settings.input_dir} does not exist: pass --input DIR", EXIT_USAGE
        )
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
            f"rejected); {built}. Put .txt or .md articles there and run again."
        )
        if as_json:
            _event("warning", message, exit_code=EXIT_EMPTY)
        else:
            err.print(f"[bold yellow]warning:[/] {message}", highlight=False)
        raise typer.Exit(EXIT_EMPTY)


def _jsonable(value):
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, Decimal):
        return float(value)
    if isinstance(value, bytes | bytearray):
        return value.hex()
    return value


@app.command()
def sql(
    query: Annotated[
        str | None,
        typer.Argument(
            help='Spark SQL, e.g. "SELECT * FROM gold.conflicts_report"; none: an interactive '
            "shell (statements end with ;, history in ~/.claimhouse_sql_history), or the "
            "statements piped to standard input"
        ),
    ] = None,
    fmt: FormatOpt = OutputFormat.table,
    limit: Annotated[
        int, typer.Option("--limit", min=0, help="At most this many rows (0: all, streamed)")
    ] = 1000,
    warehouse: WarehouseOpt = None,
    master: MasterOpt = None,
    server: Annotated[
        str | None,
        typer.Option("--server", help="Query a running `claimhouse serve-sql` at host:port"),
    ] = None,
    user: Annotated[
        str | None,
        typer.Option("--user", help="Log in to serve-sql as this user [env CLAIMHOUSE_SQL_USER]"),
    ] = None,
    local: Annotated[
        bool,
        typer.Option(
            "--local", help="Start Spark in this process even when serve-sql serves the warehouse"
        ),
    ] = False,
) -> None:
    """Run Spark SQL over the lake's tables (bronze.articles, gold.facts, ...). When a
    `claimhouse serve-sql` serves the warehouse and a user is given, the query goes there (a
    few seconds, no Spark start); else this process starts its own Spark."""
    from lake.serve import running_endpoint

    settings = _settings(warehouse, None, master)
    user = user or settings.sql_user
    if server is None and not local:
        found = running_endpoint(settings.warehouse)
        if found and user:
            server = found
            err.print(f"(via the running serve-sql at {found} as {user}; --local skips it)")
        elif found:
            err.print(
                f"note: serve-sql serves {settings.warehouse} at {found}: pass --user NAME (or "
                "set CLAIMHOUSE_SQL_USER) to query it in seconds; starting Spark here instead",
                highlight=False,
            )
    engine = _ServerSql(server, user) if server else _LocalSql(settings)
    try:
        if query is not None:
            try:
                engine.run(query, fmt, limit)
            except _SqlFailed as failed:
                raise _fail(failed.message, failed.code) from None
            return
        code = _shell(engine, fmt, limit, server or str(settings.warehouse))
    finally:
        engine.close()
    if code:
        raise typer.Exit(code)


class _SqlFailed(Exception):
    """A statement the engine refused: one line, and the exit code it earns."""

    def __init__(self, message: str, code: int):
        super().__init__(message)
        self.message, self.code = message, code


class _LocalSql:
    """Statements on this process's Spark, over the warehouse's tables."""

    def __init__(self, settings):
        from lake.storage import Lake

        self.settings = settings
        self.spark = _session(settings)
        lake = Lake(self.spark, settings.warehouse)
        # A long-lived session (the engine) may still name another warehouse's tables.
        lake.forget_other_warehouses()
        self.known = lake.register_all()
        for table, why in lake.broken.items():
            err.print(
                f"warning: {table} is not a readable Delta table, left out: {why}", highlight=False
            )

    def run(self, query: str, fmt: OutputFormat, limit: int) -> None:
        from pyspark.errors import AnalysisException, ParseException

        try:
            df = self.spark.sql(query)
            if limit:
                df = df.limit(limit + 1)
            emitted = _emit(df.toLocalIterator(), df.columns, fmt, limit)
        except ParseException as exc:
            raise _SqlFailed(f"SQL syntax: {_first_line(exc)}", EXIT_USAGE) from exc
        except AnalysisException as exc:
            tables = ", ".join(self.known) or "none (run `claimhouse run` first)"
            message = f"{_first_line(exc)}\ntables in {self.settings.warehouse}: {tables}"
            raise _SqlFailed(message, EXIT_USAGE) from exc
        _say_limited(emitted, limit)

    def close(self) -> None:
        return None


class _ServerSql:
    """Statements on a running `claimhouse serve-sql` (host:port) through PyHive, as `user`
    with the password from CLAIMHOUSE_SQL_PASSWORD or asked for: one login per session."""

    def __init__(self, server: str, user: str | None):
        import getpass

        from pyhive import hive

        from lake.config import sql_password

        host, _, port = server.rpartition(":")
        if not host or not port.isdigit():
            raise _fail(
                f"--server takes host:port, e.g. 127.0.0.1:10000; got {server!r}", EXIT_USAGE
            )
        if not user:
            raise _fail(
                "--server needs a user: pass --user NAME or set CLAIMHOUSE_SQL_USER "
                "(users: `claimhouse users list`)",
                EXIT_USAGE,
            )
        password = sql_password()
        if password is None:
            if not sys.stdin.isatty():
                raise _fail(
                    f"no password for {user!r} and no terminal to ask for it on: "
                    "set CLAIMHOUSE_SQL_PASSWORD",
                    EXIT_USAGE,
                )
            password = getpass.getpass(f"password for {user}@{server}: ")
        # Thrift logs a failed connection itself; the error below says it once.
        logging.getLogger("thrift").setLevel(logging.CRITICAL)
        self.server = server
        try:
            self.conn = hive.connect(
                host=host, port=int(port), auth="CUSTOM", username=user, password=password
            )
        except Exception as exc:  # thrift's transport and SASL errors vary
            text = _first_line(exc)
            if "Error validating the login" in text or "wrong user name or password" in text:
                message = f"{server} refused the login of {user!r}: wrong user name or password"
                raise _fail(message, EXIT_USAGE) from exc
            message = f"cannot connect to {server}: {text}. Is serve-sql running?"
            raise _fail(message, EXIT_ENV) from exc

    def run(self, query: str, fmt: OutputFormat, limit: int) -> None:
        from pyspark.sql import Row

        cursor = self.conn.cursor()
        try:
            cursor.execute(query)
        except Exception as exc:  # PyHive wraps the server's error in its own types
            raise _SqlFailed(f"{self.server}: {_server_error(exc)}", EXIT_USAGE) from exc
        columns = [d[0].split(".")[-1] for d in cursor.description or []]
        rows = (Row(**dict(zip(columns, r, strict=True))) for r in iter(cursor.fetchone, None))
        _say_limited(_emit(rows, columns, fmt, limit), limit)
        cursor.close()

    def close(self) -> None:
        self.conn.close()


def _say_limited(emitted: int, limit: int) -> None:
    if limit and emitted > limit:
        err.print(f"(showing the first {limit} rows; pass --limit 0 for all)")


SQL_HISTORY = Path.home() / ".claimhouse_sql_history"


def _shell(engine, fmt: OutputFormat, limit: int, where: str) -> int:
    """Statements read until `exit` or end of input, each ended by `;`. In a terminal: line
    editing and history, and an error is reported and the shell goes on (exit 0). Piped: every
    statement runs, and the exit code is the first failure's."""
    interactive = sys.stdin.isatty()
    if interactive:
        import readline

        with suppress(OSError):
            readline.read_history_file(SQL_HISTORY)
        readline.set_history_length(1000)
        err.print(f"claimhouse sql on {where}: end each statement with ; (exit or Ctrl-D leaves)")
    first_failure, pending = 0, ""
    while True:
        try:
            line = input("...> " if pending else "sql> ") if interactive else sys.stdin.readline()
        except EOFError:
            break
        except KeyboardInterrupt:
            pending = ""
            print()
            continue
        if not interactive and not line:
            break
        if not pending and line.strip().rstrip(";").strip().lower() in ("exit", "quit"):
            break
        pending += line if line.endswith("\n") else line + "\n"
        statements, pending = _split_statements(pending)
        pending = pending if pending.strip() else ""
        for statement in statements:
            try:
                engine.run(statement, fmt, limit)
            except _SqlFailed as failed:
                first_failure = first_failure or failed.code
                err.print(f"[bold red]error:[/] {failed.message}", highlight=False)
    if pending.strip():  # a last statement without its `;`
        try:
            engine.run(pending.strip(), fmt, limit)
        except _SqlFailed as failed:
            first_failure = first_failure or failed.code
            err.print(f"[bold red]error:[/] {failed.message}", highlight=False)
    if interactive:
        with suppress(OSError):
            readline.write_history_file(SQL_HISTORY)
        return 0
    return first_failure


def _split_statements(text: str) -> tuple[list[str], str]:
    """The complete statements in `text` (sqlparse: each ended by a `;` outside quotes and
    comments), without their `;` and comments, and the unfinished rest."""
    import sqlparse

    statements, rest = [], ""
    for part in sqlparse.split(text, strip_semicolon=False):
        bare = sqlparse.format(part, strip_comments=True).strip()
        if not bare.endswith(";"):
            rest = text[text.rindex(part) :]  # only the last can lack its `;`; keep its line end
            continue
        if bare.rstrip(";").strip():
            statements.append(bare.rstrip(";").strip())
    return statements, rest


@app.command()
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
            checked = validate_current(spark, Lake(spark, settings.warehouse), run_id, chosen)
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


@app.command()
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


@app.command("compile-contracts")
def compile_contracts(
    check: Annotated[
        bool, typer.Option("--check", help="Only report suites out of date (exit 1 if any)")
    ] = False,
) -> None:
    """Compile expectations/contracts/*.yml into the Great Expectations suites committed under
    expectations/suites/ (what each run validates with, readable in review)."""
    from lake.contracts.compile import SUITES_DIR, compile_suites, stale_suites
    from lake.contracts.spec import load_contracts
    from lake.storage import LakeError

    try:
        contracts = load_contracts()
    except LakeError as exc:
        raise _fail(str(exc), EXIT_USAGE) from exc
    if check:
        stale = stale_suites(contracts)
        if stale:
            raise _fail(
                f"suites out of date with their contracts: {', '.join(stale)}; "
                "run `claimhouse compile-contracts` and commit expectations/suites/",
                EXIT_DATA,
            )
        out.print(f"{len(contracts)} suites in {SUITES_DIR} match their contracts")
        return
    for path, changed in compile_suites(contracts).items():
        out.print(f"{'wrote' if changed else 'unchanged'} {path}")


@app.command()
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
    if not settings.warehouse.is_dir():
        raise _fail(f"no warehouse at {settings.warehouse}: run `claimhouse run` first", EXIT_USAGE)
    spark = _session(settings)
    page = write_dashboard(
        spark, Lake(spark, settings.warehouse), out_file or settings.warehouse / "dashboard.html"
    )
    out.print(f"dashboard written to {page}")
    if open_browser:
        webbrowser.open(page.as_uri())


@app.command()
def generate(
    articles: Annotated[int, typer.Option("--articles", min=1, help="How many articles")],
    events: Annotated[int, typer.Option("--events", min=1, help="How many news events")],
    out_dir: Annotated[Path, typer.Option("--out", help="Folder to write (articles/, truth/)")],
    seed: Annotated[int, typer.Option("--seed", help="Same seed, same corpus")] = 0,
) -> None:
    """Write a synthetic news corpus with ground truth (claims, facts, non-claims)."""
    from dataclasses import asdict

    from lake.synthetic.generate import generate as write_corpus

    summary = write_corpus(articles=articles, events=events, seed=seed, out=out_dir)
    out.print_json(json.dumps(asdict(summary)))
    out.print(f"run it: claimhouse run --input {out_dir / 'articles'}")


@app.command()
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


@app.command("serve-sql")
def serve_sql(
    host: Annotated[
        str | None,
        typer.Option(
            "--host",
            help="Address to bind [env CLAIMHOUSE_SQL_HOST; 127.0.0.1]; beyond "
            "loopback, users must exist",
        ),
    ] = None,
    port: Annotated[
        int | None,
        typer.Option("--port", min=1, max=65535, help="[env CLAIMHOUSE_SQL_PORT; 10000]"),
    ] = None,
    warehouse: WarehouseOpt = None,
    master: MasterOpt = None,
) -> None:
    """Serve the lake over JDBC/ODBC (Spark Thrift server, HiveServer2 protocol) until Ctrl-C.
    Clients log in as a user of `claimhouse users`; readers read, writers write in `sandbox`."""
    import os

    from lake.serve import HIVE_BIND_VARIABLES, LOOPBACK, port_in_use, serve
    from lake.storage import LakeError
    from lake.users import load_users

    settings = _settings(warehouse, None, master)
    host = host or settings.sql_host
    port = port or settings.sql_port
    users = load_users(settings.warehouse)
    if host not in LOOPBACK and not users:
        raise _fail(
            f"binding to {host} needs users to log in, and there are none: add one with "
            "`claimhouse users add NAME`",
            EXIT_USAGE,
        )
    if not users:
        err.print(
            "[bold yellow]warning:[/] no users yet: nobody can connect until you add one with "
            "`claimhouse users add NAME`"
        )
    if port_in_use(host, port):
        raise _fail(
            f"port {port} on {host} is already in use (another `claimhouse serve-sql`?): "
            "stop that process or pass --port",
            EXIT_ENV,
        )
    # Hive would bind to these before to --host/--port: the server binds where it says.
    for variable in HIVE_BIND_VARIABLES:
        if os.environ.pop(variable, None):
            err.print(f"note: {variable} is ignored: the server binds to {host}:{port}")

    def progress(message: str) -> None:
        err.print(f"{datetime.now().astimezone():%H:%M:%S} {message}", highlight=False)

    progress("starting Spark")
    spark = _session(settings, endpoint=True)
    try:
        serve(
            spark,
            settings,
            host,
            port,
            ready=lambda url: out.print(f"serving {settings.warehouse} at {url}; Ctrl-C stops"),
            progress=progress,
        )
    except LakeError as exc:
        raise _fail(str(exc), EXIT_DATA) from exc
    out.print("stopped")


users_app = typer.Typer(help="Users of the SQL endpoint (serve-sql): readers and writers.")
app.add_typer(users_app, name="users")


@users_app.command("add")
def users_add(
    name: Annotated[str, typer.Argument(help="User name")],
    role: Annotated[
        str, typer.Option("--role", help="reader: queries only; writer: also tables in sandbox")
    ] = "reader",
    password_stdin: Annotated[
        bool, typer.Option("--password-stdin", help="Read the password from standard input")
    ] = False,
    warehouse: WarehouseOpt = None,
) -> None:
    """Add a user (or change one's password and role); the password is asked for, never
    passed as an argument."""
    import getpass

    from lake.storage import LakeError
    from lake.users import add_user

    settings = _settings(warehouse, None, None)
    if password_stdin:
        password = sys.stdin.readline().rstrip("\n")
    else:
        password = getpass.getpass(f"password for {name}: ")
        if getpass.getpass("again: ") != password:
            raise _fail("the two passwords differ; nothing changed", EXIT_USAGE)
    try:
        user = add_user(settings.warehouse, name, password, role)
    except LakeError as exc:
        raise _fail(str(exc), EXIT_USAGE) from exc
    out.print(f"user {user.name} ({user.role}) saved in {settings.warehouse / '_sql' / 'users'}")


@users_app.command("remove")
def users_remove(
    name: Annotated[str, typer.Argument(help="User name")], warehouse: WarehouseOpt = None
) -> None:
    """Remove a user: their next connection is refused."""
    from lake.storage import LakeError
    from lake.users import remove_user

    settings = _settings(warehouse, None, None)
    try:
        remove_user(settings.warehouse, name)
    except LakeError as exc:
        raise _fail(str(exc), EXIT_USAGE) from exc
    out.print(f"user {name} removed")


@users_app.command("list")
def users_list(warehouse: WarehouseOpt = None) -> None:
    """The users and their roles (never their passwords)."""
    from lake.users import load_users

    settings = _settings(warehouse, None, None)
    table = Table("user", "role")
    for user in sorted(load_users(settings.warehouse).values(), key=lambda u: u.name):
        table.add_row(user.name, user.role)
    out.print(table)


def _server_error(exc: Exception) -> str:
    """The server's own message (Thrift's errorMessage), not the status struct around it."""
    status = getattr(getattr(exc, "args", [None])[0], "status", None)
    message = getattr(status, "errorMessage", None)
    text = message or str(exc)
    return text.strip().splitlines()[0][:2000]


def _print_rows(columns: list[str], rows: list[list[str]], vertical: bool = False) -> None:
    """A table as wide as its widest cell needs; in a terminal too narrow for it, one field per
    line. Piped output is never cut: a script gets every character."""
    from lake.results import layout, table_width

    width = out.width if out.is_terminal else None
    shown = layout(columns, rows, width, vertical)
    if isinstance(shown, str):
        out.print(shown, highlight=False, markup=False)
    elif width is not None:
        out.print(shown, width=width)
    else:  # rich caps a print's width at its console's (80 columns when piped)
        Console(file=sys.stdout, width=table_width(columns, rows), soft_wrap=True).print(shown)


def _first_line(exc: Exception) -> str:
    return str(exc).strip().splitlines()[0]


def _emit(rows, columns: list[str], fmt: OutputFormat, limit: int) -> int:
    """Print rows in the chosen format; returns how many rows the query produced (to limit+1)."""
    count = 0
    if fmt in (OutputFormat.table, OutputFormat.vertical):
        shown = []
        for row in rows:
            count += 1
            if limit and count > limit:
                break
            shown.append(["NULL" if v is None else str(_jsonable(v)) for v in row])
        _print_rows(columns, shown, vertical=fmt is OutputFormat.vertical)
        return count
    if fmt is OutputFormat.csv:
        writer = csv.writer(sys.stdout)
        writer.writerow(columns)
        for row in rows:
            count += 1
            if limit and count > limit:
                break
            writer.writerow(["" if v is None else _jsonable(v) for v in row])
        return count
    sys.stdout.write("[")
    for row in rows:
        count += 1
        if limit and count > limit:
            break
        record = {k: _jsonable(v) for k, v in row.asDict(recursive=True).items()}
        sys.stdout.write(("\n" if count == 1 else ",\n") + json.dumps(record, default=str))
    sys.stdout.write("\n]\n" if count else "]\n")
    return count


@app.command()
def history(
    table: Annotated[str, typer.Argument(help="<layer>.<table>, e.g. bronze.articles")],
    fmt: FormatOpt = OutputFormat.table,
    warehouse: WarehouseOpt = None,
    master: MasterOpt = None,
) -> None:
    """Show a table's Delta history: versions, operations, rows and the run that wrote them."""
    from lake.storage import Lake, LakeError, _split

    try:
        _split(table)
    except LakeError as exc:
        raise _fail(str(exc), EXIT_USAGE) from exc
    settings = _settings(warehouse, None, master)
    spark = _session(settings)
    try:
        hist = Lake(spark, settings.warehouse).history(table)
    except LakeError as exc:
        raise _fail(str(exc), EXIT_USAGE) from exc
    df = hist.selectExpr(
        "version",
        "timestamp",
        "operation",
        "coalesce(operationMetrics['numOutputRows'], operationMetrics['numTargetRowsInserted'])"
        " AS rows_written",
        "userMetadata AS written_by",
    ).orderBy("version")
    _emit(df.toLocalIterator(), df.columns, fmt, 0)


engine_app = typer.Typer(
    help="The warm engine: one Spark that `run` and `sql` reuse instead of starting their own.",
    no_args_is_help=True,
)
app.add_typer(engine_app, name="engine")


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
    server = engine.Engine(settings.engine_dir, engine.fixed_settings(settings), _in_engine)
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


def _in_engine(argv: list[str]) -> int:
    """Run one forwarded command in this (the engine's) process."""
    try:
        app(args=argv, prog_name="claimhouse")
    except SystemExit as done:
        return done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
    return 0


@app.command("dagster-run", hidden=True)
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


def main() -> None:
    from lake.engine import FORWARDED

    argv = sys.argv[1:]
    if argv and argv[0] in FORWARDED and "--help" not in argv:
        try:
            settings = load_settings()
        except SettingsError:
            settings = None  # the command itself reports it
        if settings is not None:
            code = _forward(settings, argv)
            if code is not None:
                sys.exit(code)
    app()


if __name__ == "__main__":
    main()
