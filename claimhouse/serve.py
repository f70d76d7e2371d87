"""`claimhouse serve-sql` (the lake over JDBC/ODBC) and `claimhouse users` (who may log in to
it)."""

from __future__ import annotations

import sys
from datetime import datetime
from typing import Annotated

import typer
from rich.table import Table

from claimhouse.common import (
    EXIT_DATA,
    EXIT_ENV,
    EXIT_USAGE,
    MasterOpt,
    WarehouseOpt,
    _fail,
    _session,
    _settings,
    err,
    out,
)


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
    users = load_users(settings.local_dir)
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
        user = add_user(settings.local_dir, name, password, role)
    except LakeError as exc:
        raise _fail(str(exc), EXIT_USAGE) from exc
    out.print(f"user {user.name} ({user.role}) saved in {settings.local_dir / '_sql' / 'users'}")


@users_app.command("remove")
def users_remove(
    name: Annotated[str, typer.Argument(help="User name")], warehouse: WarehouseOpt = None
) -> None:
    """Remove a user: their next connection is refused."""
    from lake.storage import LakeError
    from lake.users import remove_user

    settings = _settings(warehouse, None, None)
    try:
        remove_user(settings.local_dir, name)
    except LakeError as exc:
        raise _fail(str(exc), EXIT_USAGE) from exc
    out.print(f"user {name} removed")


@users_app.command("list")
def users_list(warehouse: WarehouseOpt = None) -> None:
    """The users and their roles (never their passwords)."""
    from lake.users import load_users

    settings = _settings(warehouse, None, None)
    table = Table("user", "role")
    for user in sorted(load_users(settings.local_dir).values(), key=lambda u: u.name):
        table.add_row(user.name, user.role)
    out.print(table)
