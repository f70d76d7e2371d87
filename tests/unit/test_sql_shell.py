"""`claimhouse sql`'s shell: statements split at `;` outside quotes and comments, and run in
order from a pipe, with no Spark (an engine that records what it is given)."""

from __future__ import annotations

import io

import pytest
from hypothesis import given
from hypothesis import strategies as st

from claimhouse import common as cli
from claimhouse.output import OutputFormat
from claimhouse.sql import _shell, _split_statements, _SqlFailed


def test_statements_end_at_semicolons_outside_quotes_and_comments():
    text = (
        "SELECT 'a;b' AS s;\n"
        "SELECT `odd;name` FROM t; -- a comment; not a statement\n"
        'SELECT "x;" ;\n'
        "SELECT 'it\\'s; fine';  SELECT 2"
    )
    statements, rest = _split_statements(text)
    assert statements == [
        "SELECT 'a;b' AS s",
        "SELECT `odd;name` FROM t",
        'SELECT "x;"',  # comments go: Spark needs none of them
        "SELECT 'it\\'s; fine'",
    ]
    assert rest == "SELECT 2"


def test_an_unfinished_statement_waits_for_its_semicolon():
    assert _split_statements("SELECT 1\nFROM t") == ([], "SELECT 1\nFROM t")
    assert _split_statements("SELECT ';'\n") == ([], "SELECT ';'\n")
    assert _split_statements("SELECT 1;\nSELECT\n") == (["SELECT 1"], "SELECT\n")
    assert _split_statements(";;  ;") == ([], "")


_plain = st.text(
    # No quotes, comments or brackets, which sqlparse pairs (it also quotes with ´ and `$$` or
    # `$tag$`, which Spark SQL never does; `/*` and `#` open comments): a `;` between them is
    # not an end. Nor T-SQL's batch separator `GO`, at which sqlparse ends a statement.
    alphabet=st.characters(blacklist_characters=";'\"`´-\\()[]$*#", blacklist_categories=("Cs",)),
    min_size=1,
).filter(lambda text: text.strip() and "GO" not in text)


@given(st.lists(_plain, min_size=1, max_size=6))
def test_statements_joined_by_semicolons_come_back(parts):
    statements, rest = _split_statements(";".join(parts) + ";")
    # The same statements; line ends may be normalised (CR to LF).
    assert [" ".join(x.split()) for x in statements] == [" ".join(p.split()) for p in parts]
    assert rest == ""


class _Recorder:
    def __init__(self, failing: str = "bad"):
        self.seen: list[str] = []
        self.failing = failing

    def run(self, query: str, fmt, limit: int) -> None:
        self.seen.append(query)
        if self.failing in query:
            raise _SqlFailed(f"no such thing: {query}", cli.EXIT_USAGE)


def test_piped_statements_all_run_and_the_first_failure_is_the_exit_code(monkeypatch, capsys):
    monkeypatch.setattr(
        "sys.stdin", io.StringIO("SELECT 1;\nSELECT bad;\nSELECT\n  2;\nexit\nSELECT 3;\n")
    )
    engine = _Recorder()
    code = _shell(engine, OutputFormat.csv, 10, "here")
    assert engine.seen == ["SELECT 1", "SELECT bad", "SELECT\n  2"]
    assert code == cli.EXIT_USAGE
    assert "error: no such thing: SELECT bad" in capsys.readouterr().err


@pytest.mark.parametrize("tail", ["SELECT 4", "SELECT 4\n"])
def test_a_last_statement_without_its_semicolon_still_runs(monkeypatch, tail):
    monkeypatch.setattr("sys.stdin", io.StringIO(tail))
    engine = _Recorder()
    assert _shell(engine, OutputFormat.csv, 10, "here") == 0
    assert engine.seen == ["SELECT 4"]
