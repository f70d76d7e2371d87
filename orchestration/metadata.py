"""What every materialization records about its Delta table: rows, version, path, a preview."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import dagster as dg

from lake.storage import Lake

PREVIEW_ROWS = 5
_CELL_CHARS = 60
_DEFAULT_PREVIEW_COLUMNS = 6


def table_metadata(
    lake: Lake,
    table: str,
    preview_columns: Sequence[str] = (),
    extra: Mapping[str, Any] | None = None,
    preview: bool = True,
    version: int | None = None,
) -> dict[str, Any]:
    """Row count, Delta version, path and the first rows of `<layer>.<table>`.

    preview_columns: the columns worth showing, in order (those absent from the table are
    skipped); empty means the table's first few columns. `preview=False` leaves the rows out
    and `version` (when known) saves reading the table's log; the rows are counted at it.
    """
    version = lake.version(table) if version is None else version
    found = {
        "dagster/row_count": dg.MetadataValue.int(lake.count(table, version)),
        "delta_version": dg.MetadataValue.int(version),
        "path": dg.MetadataValue.path(str(lake.path(table))),
        "table": dg.MetadataValue.text(table),
    }
    if preview:
        df = lake.read(table)
        present = [c for c in preview_columns if c in df.columns]
        columns = present or df.columns[:_DEFAULT_PREVIEW_COLUMNS]
        rows = [r.asDict() for r in df.select(*columns).limit(PREVIEW_ROWS).collect()]
        found["preview"] = dg.MetadataValue.md(markdown_table(columns, rows))
    return {**found, **(extra or {})}


def markdown_table(columns: Sequence[str], rows: Sequence[Mapping[str, Any]]) -> str:
    if not rows:
        return "_(no rows)_"
    head = "| " + " | ".join(columns) + " |"
    rule = "|" + "|".join(" --- " for _ in columns) + "|"
    body = ["| " + " | ".join(_cell(row.get(c)) for c in columns) + " |" for row in rows]
    return "\n".join([head, rule, *body])


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, list | tuple):
        value = ", ".join(str(v) for v in value)
    text = " ".join(str(value).split()).replace("|", "\\|")
    return text if len(text) <= _CELL_CHARS else text[: _CELL_CHARS - 1] + "…"
