"""Contract files: the shipped ones load; mistakes are reported with file, line and the fix."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from lake.contracts.compile import rules
from lake.contracts.spec import CONTRACTS_DIR, ContractError, load_contract, load_contracts

VALID = """\
apiVersion: v3.1.0
kind: DataContract
id: tests-silver-things
name: silver.things
version: 1.0.0
status: active
description:
  purpose: things for tests
team:
  name: tests
schema:
  - name: things
    physicalName: silver.things
    properties:
      - name: thing_id
        required: true
        unique: true
        customProperties:
          - {property: severity, value: fail}
      - name: kind
        quality:
          - metric: invalidValues
            arguments: {validValues: [a, b]}
            mustBe: 0
            severity: quarantine
      - name: score
        logicalType: number
        logicalTypeOptions: {minimum: 0, maximum: 1}
        customProperties:
          - {property: severity, value: warn}
    quality:
      - name: low_le_high
        description: low <= high
        type: sql
        severity: quarantine
        query: >-
          SELECT COUNT(*) FROM ${table}
          WHERE (low IS NULL OR high IS NULL OR low <= high) IS NOT TRUE
        mustBe: 0
      - name: parent_exists
        description: every thing has a parent
        type: sql
        severity: quarantine
        query: >-
          SELECT COUNT(*) FROM (
            SELECT t.* FROM ${table} t LEFT ANTI JOIN bronze.parents p USING (parent_id)
          ) AS violations
        mustBe: 0
        customProperties:
          - {property: key, value: thing_id}
      - name: readable
        type: text
        description: things read well (documentation, which no engine runs)
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
    assert names["kind_allowed_values"] == names["attribution_present"] == "quarantine"
    assert names["attribution_in_body"] == names["value_present"] == "quarantine"
    articles = {r.name: r.severity for r in rules(contracts["bronze.articles"])}
    assert articles == {
        "article_id_not_null": "fail",
        "article_id_unique": "fail",
        "body_not_null": "fail",
        "char_count_matches_body": "warn",
    }


def test_a_folder_read_again_gives_each_files_current_contract(tmp_path):
    # Every enforcement reads the folder; an unchanged file is not parsed again, an edited
    # one is, and a broken edit is refused on every read, not served from before.
    path = _write(tmp_path, VALID)
    first = load_contracts(tmp_path)["silver.things"]
    assert load_contracts(tmp_path)["silver.things"] is first
    path.write_text(textwrap.dedent(VALID).replace("severity: quarantine", "severity: warn", 1))
    edited = load_contracts(tmp_path)["silver.things"]
    assert [r.severity for r in rules(edited)].count("quarantine") == (
        [r.severity for r in rules(first)].count("quarantine") - 1
    )
    path.write_text(textwrap.dedent(VALID).replace("severity:", "severty:", 1))
    for _ in range(2):
        with pytest.raises(ContractError, match="severty"):
            load_contracts(tmp_path)


def test_a_typo_in_a_key_names_file_line_and_the_odcs_schema_refuses_it(tmp_path):
    text = VALID.replace("        unique: true", "        uniqe: true")
    message = _error(_write(tmp_path, text))
    assert f"{tmp_path / 'silver.things.yml'}:{_line(text, 'uniqe')}:" in message
    assert "not a valid ODCS v3 data contract" in message
    assert "schema.0.properties.0" in message and "'uniqe' was unexpected" in message


def test_a_bad_severity_names_file_line_and_the_choices(tmp_path):
    text = VALID.replace("severity: quarantine\n        query", "severity: hard\n        query")
    message = _error(_write(tmp_path, text))
    assert f"{tmp_path / 'silver.things.yml'}:{_line(text, 'low_le_high')}:" in message
    assert "schema.0.quality.0" in message
    assert "warn, quarantine, fail" in message and "'hard'" in message


def test_a_yaml_syntax_error_names_the_line(tmp_path):
    text = VALID.replace("purpose: things for tests", "purpose: things: for tests")
    path = _write(tmp_path, text)
    message = _error(path)
    assert message.startswith(f"{path}:{_line(text, 'things: for')}:")
    assert "YAML syntax error" in message and "quote" in message


def test_structural_mistakes_say_what_to_change(tmp_path):
    no_key = VALID.replace("          - {property: key, value: thing_id}\n", "").replace(
        "        mustBe: 0\n        customProperties:\n", "        mustBe: 0\n"
    )
    assert "needs `key`" in _error(_write(tmp_path, no_key))
    no_table = VALID.replace("FROM ${table} t", "FROM silver.things t")
    assert "{table}" in _error(_write(tmp_path, no_table))
    twice = VALID.replace("version: 1.0.0\n", "version: 1.0.0\nversion: 2.0.0\n")
    assert ":6: key 'version' appears twice" in _error(_write(tmp_path, twice))
    no_owner = VALID.replace("team:\n  name: tests\n", "")
    assert "missing team.name: add it" in _error(_write(tmp_path, no_owner))
    clash = VALID.replace("name: low_le_high", "name: thing_id_unique")
    assert "two rules are named 'thing_id_unique'" in _error(_write(tmp_path, clash))
    renamed = _write(tmp_path, VALID, name="silver.other.yml")
    assert "rename the file to silver.things.yml" in _error(renamed)
    assert "not an ODCS v3 data contract" in _error(_write(tmp_path, "- just\n- a list\n"))
    legacy = "table: silver.things\ndescription: d\nowner: o\n"
    assert "not an ODCS v3 data contract" in _error(_write(tmp_path, legacy))


def test_sql_rules_claimhouse_cannot_run_are_refused_not_skipped(tmp_path):
    ratio = VALID.replace(
        "WHERE (low IS NULL OR high IS NULL OR low <= high) IS NOT TRUE", "GROUP BY kind"
    ).replace("SELECT COUNT(*) FROM ${table}\n", "SELECT avg(score) FROM ${table}\n")
    message = _error(_write(tmp_path, ratio))
    assert f":{_line(ratio, 'SELECT avg') - 1}:" in message  # the line of its `query:`
    assert "query is not a shape claimhouse runs" in message and "AS violations" in message
    bound = VALID.replace(
        "mustBe: 0\n      - name: parent_exists", "mustBeLessThan: 5\n      - name: parent_exists"
    )
    assert "mustBe: 0" in _error(_write(tmp_path, bound))
    soda = VALID.replace(
        "      - name: readable\n        type: text\n",
        "      - name: readable\n        type: custom\n        engine: soda\n"
        "        implementation: 'row_count > 0'\n",
    )
    assert "quality rules are `sql` or `text`" in _error(_write(tmp_path, soda))


def test_a_teams_own_odcs_contract_loads_with_the_standards_own_metrics(tmp_path):
    """What another team writes (no claimhouse custom properties): nullValues and
    duplicateValues metrics, text rules, a schema property's `required`; severities default to
    fail."""
    text = """\
    apiVersion: v3.0.2
    kind: DataContract
    id: orders
    version: 2.1.0
    status: active
    description: {purpose: orders as shipped}
    team: {name: shop}
    schema:
      - name: orders
        physicalName: sandbox.orders
        properties:
          - name: order_id
            logicalType: string
            physicalType: string
            quality:
              - {metric: nullValues, mustBe: 0}
              - {metric: duplicateValues, mustBe: 0, severity: warn}
          - name: total
            required: true
            logicalType: number
            logicalTypeOptions: {minimum: 0}
        quality:
          - {type: text, description: totals are in euros}
    """
    contract = load_contract(_write(tmp_path, text, name="sandbox.orders.yml"))
    assert contract.owner == "shop" and contract.description == "orders as shipped"
    assert [(r.name, r.severity) for r in rules(contract)] == [
        ("order_id_type", "warn"),
        ("order_id_not_null", "warn"),
        ("order_id_unique", "warn"),
        ("total_not_null", "fail"),
        ("total_between", "fail"),
    ]


def test_compiled_suites_follow_their_contracts(tmp_path):
    """Suites are generated, never committed: each contract compiles to one suite file, and a
    change to a rule (not to a description, which GE does not hold) changes its suite."""
    from lake.contracts.compile import compile_suites

    contracts = load_contracts()
    suites = tmp_path / "suites"
    written = compile_suites(contracts, suites)
    assert sorted(p.name for p in written) == sorted(f"{t}.json" for t in contracts)
    assert all(written.values())
    edited = contracts["bronze.articles"].model_copy(update={"description": "edited"})
    assert compile_suites({"bronze.articles": edited}, suites) == {
        suites / "bronze.articles.json": False
    }
    loosened = contracts["gold.facts"].model_copy(update={"row_rules": []})
    assert compile_suites({"gold.facts": loosened}, suites) == {suites / "gold.facts.json": True}


def test_the_shipped_contracts_are_valid_odcs_by_the_standards_own_schema_and_model():
    """The check CI runs: each file against the ODCS JSON schema and the standard's pydantic
    model (`open-data-contract-standard`), independently of how claimhouse reads it."""
    import yaml
    from open_data_contract_standard.model import OpenDataContractStandard

    from lake.contracts.odcs import schema_errors

    paths = sorted(CONTRACTS_DIR.glob("*.yml"))
    assert len(paths) == 7
    for path in paths:
        document = yaml.safe_load(path.read_text())
        assert schema_errors(document) == [], path
        parsed = OpenDataContractStandard.model_validate(document)
        assert parsed.kind == "DataContract" and parsed.apiVersion == "v3.1.0", path
        assert [s.physicalName for s in parsed.schema_] == [path.stem], path
