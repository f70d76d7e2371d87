"""Data contracts (ODCS v3 YAML, lake.contracts.odcs) -> typed, validated specs.

One file per table, `expectations/contracts/<layer>.<table>.yml`. Every error names the file,
the line and what to change: a contract is edited by hand, and a typo must not pass silently
(the ODCS schema refuses unknown keys).
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, ValidationError, model_validator

from lake.config import REPO_ROOT
from lake.contracts.odcs import OdcsError, is_odcs, schema_errors, to_contract_fields
from lake.storage import LakeError

CONTRACTS_DIR = REPO_ROOT / "expectations" / "contracts"

Severity = Literal["warn", "quarantine", "fail"]
SEVERITIES: tuple[str, ...] = ("warn", "quarantine", "fail")
RuleName = Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]*$", max_length=80)]
Identifier = Annotated[str, Field(pattern=r"^[A-Za-z_][A-Za-z0-9_]*$")]

# Spark type names a column's `type` may take -> the pyspark.sql.types class GE checks against.
SPARK_TYPES: dict[str, str] = {
    "string": "StringType",
    "int": "IntegerType",
    "integer": "IntegerType",
    "bigint": "LongType",
    "long": "LongType",
    "smallint": "ShortType",
    "double": "DoubleType",
    "float": "FloatType",
    "decimal": "DecimalType",
    "boolean": "BooleanType",
    "date": "DateType",
    "timestamp": "TimestampType",
    "binary": "BinaryType",
    "array": "ArrayType",
    "map": "MapType",
    "struct": "StructType",
}


class ContractError(LakeError):
    """A contract file that cannot be used; the message names the file, line and the fix."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ColumnSpec(_Strict):
    """Properties of one column; each set property becomes one rule named `<column>_<check>`."""

    description: str | None = None
    type: str | None = Field(None, description="Spark type: string, int, double, timestamp…")
    nullable: bool = True
    unique: bool = False
    allowed_values: list[str | int | float | bool] | None = Field(None, min_length=1)
    min: int | float | None = None
    max: int | float | None = None
    severity: Severity = Field("fail", description="severity of this column's rules")

    @model_validator(mode="after")
    def _check(self) -> ColumnSpec:
        if self.type is not None and self.type.split("<")[0].strip().lower() not in SPARK_TYPES:
            raise ValueError(
                f"type {self.type!r} is not a Spark type; use one of {', '.join(SPARK_TYPES)}"
            )
        if self.min is not None and self.max is not None and self.min > self.max:
            raise ValueError(f"min ({self.min}) is greater than max ({self.max})")
        return self

    def checks(self) -> list[str]:
        """The checks its properties make, in rule order."""
        made = [
            ("type", self.type is not None),
            ("not_null", not self.nullable),
            ("unique", self.unique),
            ("allowed_values", self.allowed_values is not None),
            ("between", self.min is not None or self.max is not None),
        ]
        return [check for check, on in made if on]


class RowRule(_Strict):
    """A SQL boolean over one row; rows where it is false or NULL break the rule."""

    name: RuleName
    description: str
    severity: Severity
    predicate: str = Field(min_length=1)


class TableRule(_Strict):
    """A SQL query returning the violating rows of the table under test ({table} or {batch});
    it may join other lake tables by their catalog names (bronze.articles)."""

    name: RuleName
    description: str
    severity: Severity
    query: str = Field(min_length=1)
    key: Identifier | None = Field(
        None, description="column of the violating rows naming the row in the table under test"
    )

    @model_validator(mode="after")
    def _check(self) -> TableRule:
        if "{table}" not in self.query and "{batch}" not in self.query:
            raise ValueError(
                "query must read the table under test as {table} (or {batch}), "
                "e.g. SELECT t.* FROM {table} t WHERE NOT EXISTS "
                "(SELECT 1 FROM bronze.articles a WHERE a.article_id = t.article_id)"
            )
        if self.severity == "quarantine" and self.key is None:
            raise ValueError(
                "a quarantine table rule needs `key`: the column (e.g. claim_id) that names "
                "the violating rows in the table under test"
            )
        return self


class Contract(_Strict):
    table: str = Field(pattern=r"^[a-z_][a-z0-9_]*\.[a-z_][a-z0-9_]*$")
    description: str
    owner: str
    columns: dict[Identifier, ColumnSpec] = Field(default_factory=dict)
    row_rules: list[RowRule] = Field(default_factory=list)
    table_rules: list[TableRule] = Field(default_factory=list)

    _source: Path | None = PrivateAttr(default=None)

    @property
    def layer(self) -> str:
        return self.table.split(".")[0]

    @property
    def table_name(self) -> str:
        return self.table.split(".")[1]

    @property
    def source(self) -> Path | None:
        """The file this contract was loaded from, if any."""
        return self._source

    def bound(self, bindings: dict[str, str]) -> Contract:
        """This contract with the lake tables its table rules name (`bronze.articles`) read
        from other relations instead: a unit validating a candidate binds each of its own
        tables to the candidate, so cross-table rules see the tables as they would be after
        publishing, not as they are."""
        if not bindings:
            return self
        pattern = re.compile(
            r"(?<![\w.`])(" + "|".join(re.escape(t) for t in sorted(bindings)) + r")(?![\w`])"
        )
        rules = [
            r.model_copy(update={"query": pattern.sub(lambda m: bindings[m.group(1)], r.query)})
            for r in self.table_rules
        ]
        return self.model_copy(update={"table_rules": rules})

    def rule_names(self) -> list[str]:
        """Every rule's name in file order: `<column>_<check>` for column properties, then the
        row and table rules' own names (lake.contracts.compile builds the rules)."""
        names = [f"{c}_{check}" for c, spec in self.columns.items() for check in spec.checks()]
        return names + [r.name for r in self.row_rules] + [r.name for r in self.table_rules]

    @model_validator(mode="after")
    def _unique_rule_names(self) -> Contract:
        seen: set[str] = set()
        for name in self.rule_names():
            if name in seen:
                raise ValueError(
                    f"two rules are named {name!r} (column rules are named "
                    "<column>_not_null, _unique, _allowed_values, _between, _type); rename one"
                )
            seen.add(name)
        return self


# --- loading ---------------------------------------------------------------------------------


def load_contract(path: str | Path) -> Contract:
    """Read and check one contract file; raises ContractError naming file, line and fix."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ContractError(f"{path}: cannot read the contract: {exc.strerror}") from exc
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
        data = yaml.safe_load(text)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = f"{path}:{mark.line + 1}:{mark.column + 1}" if mark else str(path)
        problem = " ".join(p for p in (exc.context, exc.problem) if p)
        raise ContractError(
            f"{where}: YAML syntax error: {problem}. Check indentation, colons and quotes "
            "(quote SQL that contains ': ' or starts with a special character)."
        ) from exc
    except yaml.YAMLError as exc:
        raise ContractError(f"{path}: YAML error: {exc}") from exc
    if not is_odcs(data):
        raise ContractError(
            f"{path}:1: not an ODCS v3 data contract: claimhouse reads contracts in the Open "
            "Data Contract Standard (apiVersion: v3.1.0, kind: DataContract, one `schema` "
            "object for the table); expectations/README.md shows one"
        )
    _reject_duplicate_keys(path, root)
    broken = schema_errors(data)
    if broken:
        lines = [
            f"{path}:{_line_of(root, loc)}: {'.'.join(map(str, loc)) or '(top level)'}: {why}"
            for loc, why in broken
        ]
        raise ContractError(
            "not a valid ODCS v3 data contract:\n  " + "\n  ".join(lines)
            if len(lines) > 1
            else f"not a valid ODCS v3 data contract: {lines[0]}"
        )
    try:
        fields, locate = to_contract_fields(data)
    except OdcsError as exc:
        raise ContractError(f"{path}:{_line_of(root, exc.path)}: {exc}") from exc
    try:
        contract = Contract.model_validate(fields)
    except ValidationError as exc:
        raise ContractError(_describe(path, root, exc, locate)) from exc
    stem = path.name.removesuffix(".yml").removesuffix(".yaml")
    if "." in stem and stem != contract.table:
        line = _line_of(root, locate(("table",)))
        raise ContractError(
            f"{path}:{line}: the file is named for {stem} but its table is {contract.table}; "
            f"rename the file to {contract.table}.yml or fix the schema's `physicalName`"
        )
    contract._source = path
    return contract


def contracts_dir() -> Path:
    """The contracts folder: CLAIMHOUSE_CONTRACTS when set, else expectations/contracts/."""
    from lake.config import load_settings

    return load_settings().contracts_dir


def load_contracts(directory: str | Path | None = None) -> dict[str, Contract]:
    """Every `*.yml` contract of a folder (default: contracts_dir()), keyed by table name."""
    directory = Path(directory) if directory is not None else contracts_dir()
    if not directory.is_dir():
        raise ContractError(f"{directory}: no such contracts folder")
    found: dict[str, Contract] = {}
    for path in sorted([*directory.glob("*.yml"), *directory.glob("*.yaml")]):
        stat = path.stat()
        contract = _load_unchanged(path, stat.st_mtime_ns, stat.st_size)
        if contract.table in found:
            raise ContractError(
                f"{path}: {contract.table} already has a contract in "
                f"{found[contract.table].source}; keep one file per table"
            )
        found[contract.table] = contract
    return found


# Every enforcement reads the folder; a file parses and checks again only once it changed
# (contracts are frozen models, so sharing them is safe).
@lru_cache(maxsize=256)
def _load_unchanged(path: Path, mtime_ns: int, size: int) -> Contract:
    return load_contract(path)


def _reject_duplicate_keys(path: Path, node: Any) -> None:
    if isinstance(node, yaml.MappingNode):
        seen: set[str] = set()
        for key, value in node.value:
            if key.value in seen:
                raise ContractError(
                    f"{path}:{key.start_mark.line + 1}: key {key.value!r} appears twice in the "
                    "same mapping; YAML would silently keep the last one. Remove one."
                )
            seen.add(key.value)
            _reject_duplicate_keys(path, value)
    elif isinstance(node, yaml.SequenceNode):
        for item in node.value:
            _reject_duplicate_keys(path, item)


def _line_of(root: Any, loc: tuple) -> int:
    """1-based line of the deepest node of `loc` found in the YAML tree (keys by their key)."""
    node, line = root, (root.start_mark.line + 1 if root is not None else 1)
    for part in loc:
        if isinstance(node, yaml.MappingNode):
            match = next((kv for kv in node.value if kv[0].value == str(part)), None)
            if match is None:
                break
            line = match[0].start_mark.line + 1
            node = match[1]
        elif isinstance(node, yaml.SequenceNode) and isinstance(part, int):
            if part >= len(node.value):
                break
            node = node.value[part]
            line = node.start_mark.line + 1
        else:
            break
    return line


# Where claimhouse's fields are written in an ODCS document, for messages.
_ODCS_NAMES = {
    "table": "the schema's physicalName",
    "description": "description.purpose",
    "owner": "team.name",
    "severity": "severity",
    "name": "name",
    "predicate": "query",
    "query": "query",
    "key": "the custom property `key`",
    "allowed_values": "invalidValues' validValues",
    "min": "logicalTypeOptions.minimum",
    "max": "logicalTypeOptions.maximum",
    "type": "physicalType",
}


def _describe(path: Path, root: Any, exc: ValidationError, locate) -> str:
    lines = []
    for error in exc.errors(include_url=False):
        loc = tuple(error["loc"])
        place = locate(loc)
        where = ".".join(str(p) for p in place) or "(top level)"
        line = _line_of(root, place)
        kind = error["type"]
        field = _ODCS_NAMES.get(str(loc[-1]), str(loc[-1])) if loc else ""
        if kind == "missing":
            fix = f"missing {field}: add it"
        elif kind == "literal_error" and loc and loc[-1] == "severity":
            fix = f"severity must be one of {', '.join(SEVERITIES)}; got {error['input']!r}"
        elif kind == "string_pattern_mismatch" and loc and loc[-1] == "name":
            fix = f"rule names are lower_snake_case (a-z, 0-9, _); got {error['input']!r}"
        elif kind == "string_pattern_mismatch" and loc == ("table",):
            fix = f"physicalName is '<layer>.<table>', e.g. silver.claims; got {error['input']!r}"
        else:
            fix = re.sub(r"^(Value|Assertion) error, ", "", error["msg"])
            if field:
                fix = f"{field}: {fix}"
        lines.append(f"{path}:{line}: {where}: {fix}")
    return "invalid contract:\n  " + "\n  ".join(lines) if len(lines) > 1 else lines[0]
