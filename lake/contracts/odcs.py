"""Open Data Contract Standard (ODCS v3) documents -> claimhouse's contract fields.

A contract file is an ODCS v3 data contract (Bitol, LF AI & Data), checked against the schema
the `open-data-contract-standard` package ships, so `datacontract-cli` and catalogs read the
same files. Its one schema object is the table (`physicalName: <layer>.<table>`); this module
reads from it what claimhouse enforces:

- a property's `physicalType` (a Spark type), `required`, `unique`, `logicalTypeOptions`
  `minimum`/`maximum`, and the library metrics `invalidValues` (`validValues`), `nullValues`
  and `duplicateValues` with `mustBe: 0`: column rules;
- the object's `sql` quality rules in two shapes, with `mustBe: 0`:
  `SELECT COUNT(*) FROM ${table} WHERE (<predicate>) IS NOT TRUE` (a row rule), and
  `SELECT COUNT(*) FROM (<query returning the violating rows>) AS violations` (a table rule);
- `severity` (fail | quarantine | warn): ODCS's own property of a quality rule; for a column's
  rules, the property's custom property `severity`; a table rule's `key` is a custom property;
- `text` rules are documentation and run nowhere.

Anything else is refused with the file, the line and the shapes claimhouse runs, never skipped.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from functools import cache
from importlib.resources import files
from typing import Any

ODCS_VERSIONS = ("v3.0.0", "v3.0.1", "v3.0.2", "v3.1.0")
SEVERITY = "severity"  # the custom property that carries a column's severity
KEY = "key"  # the custom property naming a table rule's key column

_ROW_RULE = re.compile(
    r"^\s*SELECT\s+COUNT\s*\(\s*\*\s*\)\s+FROM\s+\$\{(?:table|batch)\}\s+WHERE\s+\((?P<p>.*)\)"
    r"\s+IS\s+NOT\s+TRUE\s*;?\s*$",
    re.IGNORECASE | re.DOTALL,
)
_TABLE_RULE = re.compile(
    r"^\s*SELECT\s+COUNT\s*\(\s*\*\s*\)\s+FROM\s+\((?P<q>.*)\)\s+(?:AS\s+)?violations\s*;?\s*$",
    re.IGNORECASE | re.DOTALL,
)
SHAPES = (
    "claimhouse runs `sql` rules of two shapes, each with `mustBe: 0`: "
    "`SELECT COUNT(*) FROM ${table} WHERE (<predicate>) IS NOT TRUE` and "
    "`SELECT COUNT(*) FROM (<query returning the violating rows>) AS violations`"
)


class OdcsError(ValueError):
    """A document claimhouse cannot read: `path` is where in it (keys and list indexes)."""

    def __init__(self, message: str, path: tuple = ()):
        super().__init__(message)
        self.path = path


def is_odcs(data: Any) -> bool:
    return isinstance(data, dict) and ("apiVersion" in data or data.get("kind") == "DataContract")


@cache
def _validator():
    from jsonschema import Draft201909Validator

    schema = json.loads(files("open_data_contract_standard").joinpath("schema.json").read_text())
    return Draft201909Validator(schema)


def schema_errors(data: dict) -> list[tuple[tuple, str]]:
    """Where the document breaks the ODCS schema, and how (deepest first, at most five)."""
    found: list[tuple[tuple, str]] = []
    for error in sorted(_validator().iter_errors(data), key=lambda e: -len(e.absolute_path)):
        best = error
        while best.context:  # oneOf/anyOf: the branch that got furthest says the most
            best = max(best.context, key=lambda e: len(e.absolute_path))
        path = tuple(best.absolute_path)
        unexpected = re.findall(r"'([^']+)' (?:was|were) unexpected", best.message)
        if unexpected:  # an unknown key: point at its line, not its parent's
            path = (*path, unexpected[0])
        if (path, best.message) not in found:
            found.append((path, best.message))
    return found[:5]


def to_contract_fields(data: dict) -> tuple[dict, Callable[[tuple], tuple]]:
    """The ODCS document as claimhouse's contract fields (lake.contracts.spec.Contract), and a
    function from a field's location to the document's (for errors with a line)."""
    places: dict[tuple, tuple] = {}
    objects = data.get("schema") or []
    if len(objects) != 1:
        raise OdcsError(
            f"a claimhouse contract describes one table: `schema` holds {len(objects)} objects; "
            "keep one file per table",
            ("schema",),
        )
    table = objects[0]
    where = ("schema", 0)
    if "physicalName" not in table:
        raise OdcsError(
            "the schema object needs `physicalName: <layer>.<table>`, e.g. silver.claims", where
        )
    description = data.get("description") or {}
    team = data.get("team") if isinstance(data.get("team"), dict) else {}
    fields: dict[str, Any] = {
        "table": table["physicalName"],
        "description": description.get("purpose") or table.get("description"),
        "owner": team.get("name"),
        "columns": {},
        "row_rules": [],
        "table_rules": [],
    }
    fields = {k: v for k, v in fields.items() if v is not None}  # absent: "missing ..."
    places[("table",)] = (*where, "physicalName")
    places[("description",)] = ("description", "purpose")
    places[("owner",)] = ("team", "name")
    for i, prop in enumerate(table.get("properties") or []):
        at = (*where, "properties", i)
        name = prop.get("name")
        fields["columns"][name] = _column(prop, at)
        places[("columns", name)] = at
    for i, rule in enumerate(table.get("quality") or []):
        at = (*where, "quality", i)
        kind = rule.get("type", "library")
        if kind == "text":
            continue
        if kind != "sql":
            raise OdcsError(f"a table's quality rules are `sql` or `text` here; {SHAPES}", at)
        _zero(rule, at)
        query = rule.get("query", "")
        common = {
            k: rule[k] for k in ("name", "description", "severity") if rule.get(k) is not None
        }
        if match := _ROW_RULE.match(query):
            places[("row_rules", len(fields.setdefault("row_rules", [])))] = at
            fields["row_rules"].append({**common, "predicate": match["p"].strip()})
        elif match := _TABLE_RULE.match(query):
            places[("table_rules", len(fields.setdefault("table_rules", [])))] = at
            key = _custom(rule, KEY)
            fields["table_rules"].append(
                {**common, "query": _placeholders(match["q"].strip())}
                | ({"key": key} if key is not None else {})
            )
        else:
            raise OdcsError(f"query is not a shape claimhouse runs: {SHAPES}", (*at, "query"))

    def locate(loc: tuple) -> tuple:
        for size in range(len(loc), 0, -1):
            if loc[:size] in places:
                return places[loc[:size]]
        return ()

    return fields, locate


def _column(prop: dict, at: tuple) -> dict:
    column: dict[str, Any] = {}
    if prop.get("description"):
        column["description"] = prop["description"]
    if prop.get("physicalType"):
        column["type"] = prop["physicalType"]
    if prop.get("required"):
        column["nullable"] = False
    if prop.get("unique"):
        column["unique"] = True
    options = prop.get("logicalTypeOptions") or {}
    if "minimum" in options:
        column["min"] = options["minimum"]
    if "maximum" in options:
        column["max"] = options["maximum"]
    severity = _custom(prop, SEVERITY)
    for i, rule in enumerate(prop.get("quality") or []):
        here = (*at, "quality", i)
        kind, metric = rule.get("type", "library"), rule.get("metric") or rule.get("rule")
        if kind == "text":
            continue
        if kind != "library" or metric not in ("invalidValues", "nullValues", "duplicateValues"):
            raise OdcsError(
                "a column's quality rules are the library metrics invalidValues (with "
                "arguments.validValues), nullValues and duplicateValues, each with mustBe: 0",
                here,
            )
        _zero(rule, here)
        if rule.get("severity") is not None:
            if severity is not None and rule["severity"] != severity:
                raise OdcsError(
                    f"a column's rules share one severity: this one says {rule['severity']!r}, "
                    f"an earlier one {severity!r}",
                    (*here, "severity"),
                )
            severity = rule["severity"]
        if metric == "nullValues":
            column["nullable"] = False
        elif metric == "duplicateValues":
            column["unique"] = True
        else:
            valid = (rule.get("arguments") or {}).get("validValues")
            if not valid:
                raise OdcsError("invalidValues needs arguments.validValues: [...]", here)
            column["allowed_values"] = valid
    if severity is not None:
        column["severity"] = severity
    return column


def _zero(rule: dict, at: tuple) -> None:
    if rule.get("mustBe") != 0 or any(k.startswith("must") and k != "mustBe" for k in rule):
        raise OdcsError(
            "claimhouse counts violations: a rule it runs says `mustBe: 0` and no other bound",
            at,
        )


def _custom(node: dict, name: str) -> Any:
    for item in node.get("customProperties") or []:
        if item.get("property") == name:
            return item.get("value")
    return None


def _placeholders(query: str) -> str:
    """ODCS's `${table}` to the rule's `{table}`; other braces are literal."""
    escaped = query.replace("{", "{{").replace("}", "}}")
    return escaped.replace("${{table}}", "{table}").replace("${{batch}}", "{batch}")
