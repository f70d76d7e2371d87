"""`claimhouse sql` (a query, the interactive shell or piped statements, on this process's
Spark or a running serve-sql) and `claimhouse history`."""

from __future__ import annotations

import logging
import sys
from contextlib import suppress
from pathlib import Path
from typing import Annotated

import typer

from claimhouse.common import (
    EXIT_ENV,
    EXIT_USAGE,
    MasterOpt,
    WarehouseOpt,
    _fail,
    _session,
    _settings,
    err,
)
from claimhouse.output import FormatOpt, OutputFormat, _emit


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
        found = running_endpoint(settings.local_dir)
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
        lake = Lake(self.spark, settings.warehouse, state=settings.local_dir)
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


def _server_error(exc: Exception) -> str:
    """The server's own message (Thrift's errorMessage), not the status struct around it."""
    status = getattr(getattr(exc, "args", [None])[0], "status", None)
    message = getattr(status, "errorMessage", None)
    text = message or str(exc)
    return text.strip().splitlines()[0][:2000]


def _first_line(exc: Exception) -> str:
    return str(exc).strip().splitlines()[0]


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
        hist = Lake(spark, settings.warehouse, state=settings.local_dir).history(table)
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
