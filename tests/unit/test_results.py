"""Rows for a person: a whole table when it fits, else one field per line, nothing cut."""

from __future__ import annotations

import io

from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console

from lake.results import as_records, as_table, fits, layout, table_width

FACT = ["fact_id", "consensus_value", "status", "reported_by"]
ROWS = [
    ["3f9c2a71b0e84d55", "21000", "conflicting", "Reuters, The Guardian, Daily Beast"],
    ["77a0e1c4d2b39f60", "2024-05-20", "corroborated", "Latin Times"],
]


def _render(table, width: int) -> list[str]:
    buffer = io.StringIO()
    Console(file=buffer, width=width, color_system=None).print(table)
    return buffer.getvalue().rstrip("\n").splitlines()


def test_a_table_that_fits_is_printed_whole_at_its_own_width():
    width = table_width(FACT, ROWS)
    lines = _render(as_table(FACT, ROWS), width)
    assert max(len(line) for line in lines) == width
    assert "Reuters, The Guardian, Daily Beast" in "\n".join(lines)
    assert "fact_id" in lines[1] and "reported_by" in lines[1]


def test_too_narrow_a_terminal_gets_one_field_per_line():
    shown = layout(FACT, ROWS, 60, vertical=False)
    assert not fits(FACT, ROWS, 60)
    assert shown.splitlines()[:5] == [
        "─[ row 1 ]" + "─" * 50,
        "fact_id         │ 3f9c2a71b0e84d55",
        "consensus_value │ 21000",
        "status          │ conflicting",
        "reported_by     │ Reuters, The Guardian, Daily Beast",
    ]
    assert shown.splitlines()[5].startswith("─[ row 2 ]")


def test_a_value_longer_than_the_line_is_folded_not_cut():
    body = "x" * 150
    lines = as_records(["id", "body"], [["1", body]], 80)
    folded = [line.split(" │ ", 1)[1] for line in lines[1:] if line.startswith(("body", "    "))]
    assert "".join(folded) == body
    assert all(len(line) <= 80 for line in lines)


def test_no_rows_says_so():
    assert layout(FACT, [], 80, vertical=True) == "(no rows)"


cells = st.text(
    alphabet=st.characters(min_codepoint=32, max_codepoint=126), min_size=0, max_size=30
)


@settings(max_examples=60, deadline=None)
@given(
    st.integers(min_value=1, max_value=5).flatmap(
        lambda n: st.tuples(
            st.lists(st.text("abcdefgh_", min_size=1, max_size=12), min_size=n, max_size=n),
            st.lists(st.lists(cells, min_size=n, max_size=n), max_size=4),
        )
    ),
    st.integers(min_value=30, max_value=200),
)
def test_every_value_survives_either_layout(table, width):
    columns, rows = table
    shown = layout(columns, rows, width, vertical=False)
    if isinstance(shown, str):
        assert not fits(columns, rows, width)
        lines = shown.splitlines()
        assert all(len(line) <= width for line in lines)
        text = "".join(line.split(" │ ", 1)[1] for line in lines if " │ " in line)
        for row in rows:
            for value in row:
                assert value in text
    else:
        rendered = _render(shown, width)
        assert max(len(line) for line in rendered) <= width
        assert max(len(line) for line in rendered) == table_width(columns, rows)


def test_a_piped_table_wider_than_80_columns_is_printed_whole(capsys):
    """rich caps a print's width at its console's, 80 columns when stdout is a pipe: the CLI's
    tables (validate, maintain) must still reach a script uncut."""
    from claimhouse.output import _print_rows

    columns = ["table", "files compacted", "into", "files vacuumed", "files now", "version"]
    rows = [["gold_intermediate.claims_reconciled", "12", "1", "30", "1", "41"]]
    _print_rows(columns, rows)
    printed = capsys.readouterr().out
    assert all(name in printed for name in columns + rows[0])
    assert max(len(line) for line in printed.splitlines()) == table_width(columns, rows)
