"""Each closed vocabulary has one home, lake.schemas; every list of allowed values in the
contracts (expectations/contracts/), in dbt's tests and in the marts' Delta constraints
(dbt_project/models/) must be it."""

from __future__ import annotations

import re
from pathlib import Path

import jinja2
import yaml

from lake import schemas
from lake.contracts.spec import load_contracts
from lake.silver import kinds

REPO = Path(__file__).resolve().parents[2]
HOMES = {
    "kind": kinds.NAMES,
    "qualifier": schemas.QUALIFIERS,
    "date_granularity": schemas.DATE_GRANULARITIES,
    "date_resolution": schemas.DATE_RESOLUTIONS,
    "attribution_kind": schemas.ATTRIBUTION_KINDS,
    "status": schemas.FACT_STATUSES,
    "outcome": schemas.INGEST_OUTCOMES,
    "role": schemas.FRAME_ROLES,
    "reported_by_source": schemas.REPORTED_BY_SOURCES,
}


def _contract_lists():
    for table, contract in load_contracts(REPO / "expectations" / "contracts").items():
        for column, spec in contract.columns.items():
            if spec.allowed_values is not None:
                yield f"{table}:{column}", column, spec.allowed_values


def _dbt_lists():
    for path in sorted((REPO / "dbt_project" / "models").rglob("*.yml")):
        document = yaml.safe_load(path.read_text())
        for node in [*(document.get("models") or []), *_source_tables(document)]:
            for column in node.get("columns") or []:
                for test in column.get("data_tests") or []:
                    if isinstance(test, dict) and "accepted_values" in test:
                        values = test["accepted_values"]["arguments"]["values"]
                        yield f"{path.name}:{node['name']}.{column['name']}", column["name"], values


# A check constraint's list of values: "status in ('corroborated', 'single_source')".
_IN_LIST = re.compile(r"(\w+) in \(([^)]*)\)")


# A constraint may take its list from a dbt var ("kind in ('{{ var('kinds') | join(...) }}')"):
# rendered as dbt renders it, with the project's vars and those claimhouse passes.
_VARS = {
    **yaml.safe_load((REPO / "dbt_project" / "dbt_project.yml").read_text())["vars"],
    **kinds.dbt_vars(),
}


def _rendered(expression: str) -> str:
    return jinja2.Environment().from_string(expression).render(var=_VARS.__getitem__)


def _constraint_lists():
    for path in sorted((REPO / "dbt_project" / "models").rglob("*.yml")):
        for model in yaml.safe_load(path.read_text()).get("models") or []:
            for constraint in model.get("constraints") or []:
                expression = _rendered(constraint.get("expression", ""))
                for column, values in _IN_LIST.findall(expression):
                    listed = [v.strip().strip("'") for v in values.split(",")]
                    yield f"{path.name}:{constraint['name']}", column, listed


# A frame role's list in a contract's SQL rule: "frame.role.key IN ('part', ...)".
_ROLE_LIST = re.compile(r"\.(role)\.key IN \(([^)]*)\)")


def _contract_sql_lists():
    for path in sorted((REPO / "expectations" / "contracts").glob("*.yml")):
        text = " ".join(path.read_text().split())
        for column, values in _ROLE_LIST.findall(text):
            yield f"{path.name}:{column}", column, [v.strip().strip("'") for v in values.split(",")]


def _source_tables(document):
    for source in document.get("sources") or []:
        yield from source.get("tables") or []


def test_every_list_of_allowed_values_is_its_vocabulary_in_lake_schemas():
    found = [*_contract_lists(), *_dbt_lists(), *_constraint_lists(), *_contract_sql_lists()]
    assert len(list(_contract_sql_lists())) == 1  # silver.claims' frame roles
    assert len(found) >= 8  # contracts and dbt both list them
    # kind, status, attribution_kind, reported_by_source
    assert len(list(_constraint_lists())) == 4
    wrong = {
        where: values
        for where, column, values in found
        if column not in HOMES or tuple(values) != HOMES[column]
    }
    assert wrong == {}
