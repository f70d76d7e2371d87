"""Contract files: the shipped ones load; mistakes are reported with file, line and the fix."""

from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

import pytest

from lake.contracts.compile import rules
from lake.contracts.spec import CONTRACTS_DIR, ContractError, load_contract, load_contracts

VALID = """\
table: silver.things
description: things for tests
owner: tests
columns:
  thing_id:
    nullable: false
    unique: true
    severity: fail
  kind:
    allowed_values: [a, b]
    severity: quarantine
  score:
    min: 0
    max: 1
    severity: warn
row_rules:
  - name: low_le_high
    description: low <= high
    severity: quarantine
    predicate: low IS NULL OR high IS NULL OR low <= high
table_rules:
  - name: parent_exists
    description: every thing has a parent
    severity: quarantine
    key: thing_id
    query: SELECT t.* FROM {table} t LEFT ANTI JOIN bronze.parents p USING (parent_id)
"""


def _write(tmp_path: Path, text: str, name: str = "silver.things.yml") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return path


def _line(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


def _error(path: Path) -> str:
    with pytest.raises(ContractError) as caught:
        load_contract(path)
    return str(caught.value)


def test_a_valid_contract_loads_and_names_its_column_rules(tmp_path):
    contract = load_contract(_write(tmp_path, VALID))
    assert contract.table == "silver.things" and contract.layer == "silver"
    assert [(r.name, r.severity) for r in rules(contract)] == [
        ("thing_id_not_null", "fail"),
        ("thing_id_unique", "fail"),
        ("kind_allowed_values", "quarantine"),
        ("score_between", "warn"),
        ("low_le_high", "quarantine"),
        ("parent_exists", "quarantine"),
    ]
    parent = rules(contract)[-1]
    assert "{batch}" in parent.query and "{table}" not in parent.query
    assert rules(contract)[2].predicate == "`kind` IS NULL OR `kind` IN ('a', 'b')"


def test_the_shipped_contracts_load():
    contracts = load_contracts(CONTRACTS_DIR)
    assert set(contracts) >= {"silver.claims", "bronze.articles"}
    names = {r.name: r.severity for r in rules(contracts["silver.claims"])}
    assert names["claim_id_unique"] == "fail"
    assert names["article_exists"] == names["span_matches_body"] == "quarantine"
    assert names["attribution_in_body"] == "warn"
    assert names["kind_allowed_values"] == names["attribution_present"] == "quarantine"
    articles = {r.name: r.severity for r in rules(contracts["bronze.articles"])}
    assert articles == {
        "article_id_not_null": "fail",
        "article_id_unique": "fail",
        "body_not_null": "fail",
        "char_count_matches_body": "warn",
    }


def test_a_typo_in_a_key_names_file_line_and_the_allowed_keys(tmp_path):
    text = VALID.replace("    unique: true", "    uniqe: true")
    message = _error(_write(tmp_path, text))
    assert f"{tmp_path / 'silver.things.yml'}:{_line(text, 'uniqe')}:" in message
    assert "columns.thing_id.uniqe" in message and "unknown key 'uniqe'" in message
    assert "unique" in message.split("Allowed here:")[1]


def test_a_bad_severity_names_file_line_and_the_choices(tmp_path):
    text = VALID.replace("severity: quarantine\n    predicate", "severity: hard\n    predicate")
    message = _error(_write(tmp_path, text))
    assert f"{tmp_path / 'silver.things.yml'}:{_line(text, 'hard')}:" in message
    assert "row_rules.0.severity" in message
    assert "warn, quarantine, fail" in message and "'hard'" in message


def test_a_yaml_syntax_error_names_the_line(tmp_path):
    text = VALID.replace("description: things for tests", "description: things: for tests")
    path = _write(tmp_path, text)
    message = _error(path)
    assert message.startswith(f"{path}:{_line(text, 'things: for')}:")
    assert "YAML syntax error" in message and "quote" in message


def test_structural_mistakes_say_what_to_change(tmp_path):
    no_key = VALID.replace("    key: thing_id\n", "")
    assert "needs `key`" in _error(_write(tmp_path, no_key))
    no_table = VALID.replace("FROM {table} t", "FROM silver.things t")
    assert "{table}" in _error(_write(tmp_path, no_table))
    twice = VALID.replace("owner: tests\n", "owner: tests\nowner: again\n")
    assert ":4: key 'owner' appears twice" in _error(_write(tmp_path, twice))
    missing = VALID.replace("owner: tests\n", "")
    assert "missing required key 'owner'" in _error(_write(tmp_path, missing))
    clash = VALID.replace("name: low_le_high", "name: thing_id_unique")
    assert "two rules are named 'thing_id_unique'" in _error(_write(tmp_path, clash))
    renamed = _write(tmp_path, VALID, name="silver.other.yml")
    assert "rename the file to silver.things.yml" in _error(renamed)
    assert "YAML" not in _error(_write(tmp_path, "- just\n- a list\n"))


def test_the_committed_ge_suites_match_their_contracts():
    from lake.contracts.compile import stale_suites

    assert stale_suites(load_contracts()) == [], "run `claimhouse compile-contracts`"


def test_an_edited_contract_makes_its_committed_suite_stale(tmp_path):
    from lake.contracts.compile import SUITES_DIR, compile_suites, stale_suites

    contracts = load_contracts()
    suites = tmp_path / "suites"
    shutil.copytree(SUITES_DIR, suites)
    edited = contracts["bronze.articles"].model_copy(update={"description": "edited"})
    assert stale_suites({"bronze.articles": edited}, suites) == []  # description: not in GE
    loosened = contracts["gold.facts"].model_copy(update={"row_rules": []})
    assert stale_suites({"gold.facts": loosened}, suites) == ["gold.facts"]
    changed = compile_suites({"gold.facts": loosened}, suites)
    assert changed == {suites / "gold.facts.json": True}
    assert stale_suites({"gold.facts": loosened}, suites) == []
