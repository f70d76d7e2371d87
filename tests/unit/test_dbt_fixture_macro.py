"""dbt_project/macros/unit_test_fixtures.sql is dbt's get_fixture_sql with the row rendering
changed (one VALUES list): everything before the rows must stay dbt's, so that an upgrade of
dbt that changes the macro fails here instead of drifting silently."""

from __future__ import annotations

import re
from pathlib import Path

import dbt.include.global_project as global_project

from ..conftest import REPO

OURS = REPO / "dbt_project" / "macros" / "unit_test_fixtures.sql"
DBTS = Path(global_project.__file__).parent / "macros" / "unit_test_sql" / "get_fixture_sql.sql"


def _head(path: Path) -> list[str]:
    """The macro get_fixture_sql up to its rows, without Jinja comments or blank lines."""
    text = path.read_text()
    body = text[text.index("{% macro get_fixture_sql(") :]
    body = body[: body.index("{{ validate_fixture_rows(rows, row_number) }}")]
    # Our one addition, marked: the columns of an ephemeral input from its YAML.
    body = re.sub(
        r"\{#- claimhouse: ephemeral inputs -#\}.*?\{#- /claimhouse -#\}", "", body, flags=re.S
    )
    body = re.sub(r"\{#.*?#\}", "", body, flags=re.S)
    return [line.strip() for line in body.splitlines() if line.strip()]


def test_the_fixture_macro_keeps_dbt_s_column_handling():
    assert _head(OURS) == _head(DBTS)


def test_the_fixture_rows_are_one_values_list():
    text = OURS.read_text()
    body = text[text.index("{% macro get_fixture_sql(") :]
    assert "select * from values" in body and "union all" not in body.lower()
