"""How rows are laid out for a person: a table when it fits the width, else one field per line.

A table wider than the terminal is unreadable either way it is cut (blank or truncated
columns), so the CLI falls back to records, as psql's `\\x auto` does.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.table import Table
from rich.text import Text

# rich's default box: one space of padding each side of a cell, one border between cells.
_PER_COLUMN = 3
_EDGE = 1


def table_width(columns: Sequence[str], rows: Sequence[Sequence[str]]) -> int:
    """Characters of the widest line of the table of these rows, no cell cut."""
    widths = [len(c) for c in columns]
    for row in rows:
        for i, value in enumerate(row):
            widths[i] = max(widths[i], max((len(line) for line in value.splitlines()), default=0))
    return sum(widths) + _PER_COLUMN * len(columns) + _EDGE


def fits(columns: Sequence[str], rows: Sequence[Sequence[str]], width: int) -> bool:
    return table_width(columns, rows) <= width


def as_table(columns: Sequence[str], rows: Sequence[Sequence[str]]) -> Table:
    """Every cell whole: print it at `table_width` or wider."""
    table = Table(*columns)
    for column in table.columns:
        column.no_wrap = True
        column.overflow = "ignore"
    for row in rows:
        table.add_row(*(Text(v) for v in row))
    return table


def as_records(columns: Sequence[str], rows: Sequence[Sequence[str]], width: int) -> list[str]:
    """psql's expanded layout: a rule per row, then `name │ value`, values folded to width."""
    if not rows:
        return ["(no rows)"]
    name_width = max(len(c) for c in columns)
    value_width = max(width - name_width - 3, 10)
    lines: list[str] = []
    for number, row in enumerate(rows, 1):
        head = f"─[ row {number} ]"
        lines.append(head + "─" * max(width - len(head), 0))
        for name, value in zip(columns, row, strict=True):
            pieces = _fold(value, value_width)
            lines.append(f"{name:<{name_width}} │ {pieces[0]}")
            lines.extend(f"{'':<{name_width}} │ {piece}" for piece in pieces[1:])
    return lines


def _fold(value: str, width: int) -> list[str]:
    pieces: list[str] = []
    for line in value.splitlines() or [""]:
        pieces.extend(line[i : i + width] for i in range(0, max(len(line), 1), width))
    return pieces


def layout(
    columns: Sequence[str], rows: Sequence[Sequence[str]], width: int | None, vertical: bool
) -> Table | str:
    """The table, or the records as one string. `width` None: no terminal, any width goes."""
    if vertical:
        return "\n".join(as_records(columns, rows, width or 100))
    if width is None or fits(columns, rows, width):
        return as_table(columns, rows)
    return "\n".join(as_records(columns, rows, width))
