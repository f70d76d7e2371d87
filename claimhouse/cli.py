"""`claimhouse` command line: run the pipeline, query the lake, read a table's history.

The root app: it assembles the command groups (claimhouse.run, .sql, .serve, .engine and
.dagster, over what they share in claimhouse.common and claimhouse.output) and hands a command
to the warm engine when one is up."""

from __future__ import annotations

import sys

import typer

from claimhouse import dagster, engine, run, serve, sql
from lake.config import SettingsError, load_settings

app = typer.Typer(
    name="claimhouse",
    help="A data-quality lakehouse: news articles -> sourced claims -> reconciled facts.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

# The commands in the order `claimhouse --help` lists them; the groups come after them.
app.command()(run.run)
app.command()(sql.sql)
app.command()(run.validate)
app.command()(run.maintain)
app.command("compile-contracts")(run.compile_contracts)
app.command()(run.dashboard)
app.command()(run.generate)
app.command()(dagster.ui)
app.command("serve-sql")(serve.serve_sql)
app.command()(sql.history)
app.command("dagster-run", hidden=True)(dagster.dagster_run)
app.add_typer(serve.users_app, name="users")
app.add_typer(engine.engine_app, name="engine")


def _in_engine(argv: list[str]) -> int:
    """Run one forwarded command in this (the engine's) process."""
    try:
        app(args=argv, prog_name="claimhouse")
    except SystemExit as done:
        return done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
    return 0


engine.set_handler(_in_engine)


def main() -> None:
    from lake.engine import FORWARDED

    argv = sys.argv[1:]
    if argv and argv[0] in FORWARDED and "--help" not in argv:
        try:
            settings = load_settings()
        except SettingsError:
            settings = None  # the command itself reports it
        if settings is not None:
            code = engine._forward(settings, argv)
            if code is not None:
                sys.exit(code)
    app()


if __name__ == "__main__":
    main()
