"""How `claimhouse` prints query results: a table (or one field per line), JSON or CSV."""

from __future__ import annotations

import csv
import json
import sys
from datetime import date, datetime
from decimal import Decimal
from enum import StrEnum
from typing import Annotated

import typer
from rich.console import Console

from claimhouse.common import out


class OutputFormat(StrEnum):
    table = "table"  # one field per line instead when the table is wider than the terminal
    vertical = "vertical"
    json = "json"
    csv = "csv"


FormatOpt = Annotated[OutputFormat, typer.Option("--format", help="Output format")]


def _jsonable(value):
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, Decimal):
        return float(value)
    if isinstance(value, bytes | bytearray):
        return value.hex()
    return value


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
