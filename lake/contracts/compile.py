"""Contract -> rules -> a Great Expectations suite, built at run time (no suite is committed).

Every rule is one GE expectation, and also knows how to find its violating rows in Spark, so
that quarantine splits rows by evaluating the rule itself rather than GE's partial lists:

- column properties: ExpectColumnValuesToNotBeNull / ToBeUnique / ToBeInSet / ToBeBetween /
  ToBeOfType, named `<column>_not_null`, `_unique`, `_allowed_values`, `_between`, `_type`.
  As in GE, a NULL is not a violation of allowed_values or min/max (use nullable: false).
- row rules: PredicateRowsCountExpectation (lake.contracts.lean), which counts the rows where
  `NOT coalesce((predicate), false)` as an aggregate GE computes in one pass with the batch's
  others: a row where the predicate is NULL breaks the rule, in GE's count and in the
  quarantine split alike. Its `unexpected_rows_query` is the same rule as a query, for Data Docs.
- table rules: UnexpectedRowsCountExpectation over the rule's own query. GE runs it with the
  session's `spark.sql` after naming the batch as a temp view, so the query may join any table
  in the Spark catalog (bronze.articles); `{table}` is accepted as a synonym of `{batch}`.

Each expectation carries `meta = {rule, severity, description, contract}`: that is how results
map back to rules. GE's own `severity` is set too (fail -> critical, quarantine -> warning,
warn -> info) so Data Docs show it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pyspark.sql import Column
from pyspark.sql import functions as F

from lake.config import REPO_ROOT
from lake.contracts.spec import SPARK_TYPES, ColumnSpec, Contract, RowRule, TableRule

if TYPE_CHECKING:
    from great_expectations.core import ExpectationSuite

GE_SEVERITY = {"fail": "critical", "quarantine": "warning", "warn": "info"}


@dataclass(frozen=True)
class Rule:
    name: str
    severity: str
    description: str
    origin: Literal["column", "row", "table"]
    check: str  # not_null | unique | allowed_values | between | type | predicate | query
    column: str | None = None
    predicate: str | None = None  # SQL true for a good row; rules that look at one row only
    query: str | None = None  # table rules: SQL over {batch} returning the violating rows
    key: str | None = None  # table rules: the column naming a violating row
    params: tuple[tuple[str, Any], ...] = ()

    @property
    def row_local(self) -> bool:
        """True when each row can be judged alone (by `predicate`)."""
        return self.predicate is not None


def broken(predicate: str) -> Column:
    """True for a row breaking a row rule; a NULL predicate counts as broken."""
    return ~F.coalesce(F.expr(predicate), F.lit(False))


def broken_count(predicate: str) -> Column:
    """The aggregate counting a batch's rows that break a row rule (0 for no rows)."""
    return F.count(F.when(broken(predicate), F.lit(1)))


def quote_identifier(name: str) -> str:
    return "`" + name.replace("`", "``") + "`"


def sql_literal(value: Any) -> str:
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, int | float):
        return repr(value)
    return "'" + str(value).replace("\\", "\\\\").replace("'", "\\'") + "'"


def _column_rule(column: str, spec: ColumnSpec, check: str) -> Rule:
    """The rule one property of a column makes (ColumnSpec.checks names them)."""
    col = quote_identifier(column)
    what = f" ({spec.description})" if spec.description else ""
    common = {"severity": spec.severity, "origin": "column", "column": column, "check": check}
    name = f"{column}_{check}"
    if check == "type":
        type_class = SPARK_TYPES[spec.type.split("<")[0].strip().lower()]
        return Rule(
            name=name,
            description=f"{column} is of Spark type {spec.type}{what}",
            params=(("type_", type_class),),
            **common,
        )
    if check == "not_null":
        return Rule(
            name=name,
            description=f"{column} is never null{what}",
            predicate=f"{col} IS NOT NULL",
            **common,
        )
    if check == "unique":
        return Rule(name=name, description=f"{column} values are unique{what}", **common)
    if check == "allowed_values":
        values = ", ".join(sql_literal(v) for v in spec.allowed_values)
        return Rule(
            name=name,
            description=f"{column} is one of {', '.join(map(str, spec.allowed_values))}",
            predicate=f"{col} IS NULL OR {col} IN ({values})",
            params=(("value_set", tuple(spec.allowed_values)),),
            **common,
        )
    bounds = []
    if spec.min is not None:
        bounds.append(f"{col} >= {sql_literal(spec.min)}")
    if spec.max is not None:
        bounds.append(f"{col} <= {sql_literal(spec.max)}")
    return Rule(
        name=name,
        description=f"{column} is within [{spec.min}, {spec.max}]{what}",
        predicate=f"{col} IS NULL OR ({' AND '.join(bounds)})",
        params=(("min_value", spec.min), ("max_value", spec.max)),
        **common,
    )


def table_query(query: str) -> str:
    """The rule's query with `{table}` as GE's `{batch}` placeholder."""
    return query.replace("{table}", "{batch}")


def _named(rule: RowRule | TableRule) -> dict[str, str]:
    return {"name": rule.name, "severity": rule.severity, "description": rule.description}


def rules(contract: Contract) -> list[Rule]:
    """Every rule of a contract in file order: column properties, row rules, table rules."""
    found: list[Rule] = []
    for column, spec in contract.columns.items():
        found += [_column_rule(column, spec, check) for check in spec.checks()]
    found += [
        Rule(**_named(r), origin="row", check="predicate", predicate=r.predicate)
        for r in contract.row_rules
    ]
    found += [
        Rule(**_named(r), origin="table", check="query", query=table_query(r.query), key=r.key)
        for r in contract.table_rules
    ]
    return found


def expectation(rule: Rule, contract: Contract):
    """The GE expectation checking one rule, tagged with the rule in its `meta`."""
    import great_expectations.expectations as gxe

    from lake.contracts.lean import PredicateRowsCountExpectation, UnexpectedRowsCountExpectation

    common = {
        "meta": {
            "rule": rule.name,
            "severity": rule.severity,
            "description": rule.description,
            "contract": contract.table,
        },
        "notes": f"{rule.name} ({rule.severity}): {rule.description}",
        "severity": GE_SEVERITY[rule.severity],
    }
    params = dict(rule.params)
    if rule.check == "not_null":
        return gxe.ExpectColumnValuesToNotBeNull(column=rule.column, **common)
    if rule.check == "unique":
        return gxe.ExpectColumnValuesToBeUnique(column=rule.column, **common)
    if rule.check == "allowed_values":
        return gxe.ExpectColumnValuesToBeInSet(
            column=rule.column, value_set=list(params["value_set"]), **common
        )
    if rule.check == "between":
        return gxe.ExpectColumnValuesToBeBetween(
            column=rule.column,
            min_value=params["min_value"],
            max_value=params["max_value"],
            **common,
        )
    if rule.check == "type":
        return gxe.ExpectColumnValuesToBeOfType(column=rule.column, type_=params["type_"], **common)
    if rule.check == "predicate":
        # GE fills {batch} with str.format: braces of the predicate itself are doubled.
        predicate = rule.predicate.replace("{", "{{").replace("}", "}}")
        query = f"SELECT * FROM {{batch}} WHERE NOT coalesce(({predicate}), false)"
        return PredicateRowsCountExpectation(
            unexpected_rows_query=query, predicate=rule.predicate, **common
        )
    if rule.check == "query":
        return UnexpectedRowsCountExpectation(unexpected_rows_query=rule.query, **common)
    raise ValueError(f"unknown check {rule.check!r}")


def build_suite(contract: Contract) -> ExpectationSuite:
    """A fresh GE suite named after the table, one expectation per rule. Given to the
    suite at once: `add_expectation` on a suite the store already holds saves the store's
    copy once per expectation."""
    import great_expectations as gx

    return gx.ExpectationSuite(
        name=contract.table,
        meta={"contract": source_name(contract)},
        expectations=[expectation(rule, contract) for rule in rules(contract)],
    )


# Where `claimhouse compile-contracts` writes the suites for a reader to look at (gitignored):
# runs build theirs from the contracts every time (lake.contracts.run).
SUITES_DIR = REPO_ROOT / "expectations" / "suites"


def source_name(contract: Contract) -> str:
    """The contract's file, relative to the repository when it lives there."""
    if contract.source is None:
        return contract.table
    try:
        return str(contract.source.resolve().relative_to(REPO_ROOT))
    except ValueError:
        return str(contract.source)


def suite_document(contract: Contract) -> dict:
    """The compiled GE suite as the JSON GE stores, without the ids GE assigns on save."""
    import great_expectations as gx

    gx.get_context(mode="ephemeral")  # GE builds suites only inside a context
    document = build_suite(contract).to_json_dict()
    document.pop("id", None)
    for item in document.get("expectations", []):
        item.pop("id", None)
    return document


def _suite_text(contract: Contract) -> str:
    return json.dumps(suite_document(contract), indent=2, sort_keys=True) + "\n"


def compile_suites(contracts: dict[str, Contract], out: Path = SUITES_DIR) -> dict[Path, bool]:
    """Write each contract's suite to `<out>/<table>.json`; returns path -> whether it changed."""
    out.mkdir(parents=True, exist_ok=True)
    changed = {}
    for table, contract in sorted(contracts.items()):
        path = out / f"{table}.json"
        text = _suite_text(contract)
        changed[path] = not path.exists() or path.read_text(encoding="utf-8") != text
        if changed[path]:
            path.write_text(text, encoding="utf-8")
    return changed
