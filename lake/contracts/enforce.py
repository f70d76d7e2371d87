"""Apply a table's contract where the pipeline writes it: validate, record, then act.

Results are recorded in audit.dq_results before severities act, so a `fail` is in the history
too. Tables without a contract file pass through unchanged.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass

from pyspark.sql import DataFrame, SparkSession

from lake.contracts.run import (
    ContractViolation,
    ValidationReport,
    apply_severities,
    record_results,
    validate,
)
from lake.contracts.spec import load_contracts
from lake.storage import Lake, LakeError


@dataclass(frozen=True)
class Enforced:
    good: DataFrame  # rows that go on
    quarantined_ids: DataFrame | None  # keys of the rows moved to <table>_quarantine
    quarantined: int
    report: ValidationReport | None  # None: the table has no contract


def enforce(
    spark: SparkSession,
    lake: Lake,
    table: str,
    df: DataFrame,
    run_id: str,
    key: str | None = None,
    bindings: dict[str, str] | None = None,
) -> Enforced:
    """Validate `df` (rows about to be written to `table`) against its contract in
    expectations/contracts/; raises ContractViolation on a `fail` rule. `bindings` maps lake
    tables the rules name to the relations to read instead (Contract.bound)."""
    contract = load_contracts().get(table)
    if contract is None:
        return Enforced(df, None, 0, None)
    contract = contract.bound(bindings or {})
    report = validate(spark, lake, contract, df, run_id)
    record_results(spark, lake, report, run_id)
    good, bad = apply_severities(spark, lake, contract, df, report)
    if bad is None:
        return Enforced(good, None, 0, report)
    ids = bad.select(key).distinct().persist() if key else None
    count = ids.count() if ids is not None else bad.count()
    return Enforced(good, ids, count, report)


def enforce_tables(
    spark: SparkSession,
    lake: Lake,
    batches: list[tuple[str, DataFrame]],
    run_id: str,
    bindings: dict[str, str] | None = None,
) -> list[Enforced]:
    """Enforce several tables' contracts, recording every result before raising: when `fail`
    rules break in more than one table, all of them are in audit.dq_results and the first
    violation is raised."""
    done, violations = [], []
    for table, df in batches:
        try:
            done.append(enforce(spark, lake, table, df, run_id, bindings=bindings))
        except ContractViolation as violation:
            violations.append(violation)
    if violations:
        raise violations[0]
    return done


@contextmanager
def candidates(spark: SparkSession, frames: Mapping[str, DataFrame]) -> Iterator[dict[str, str]]:
    """Name each candidate DataFrame as a temp view for the block; yields the bindings
    (lake table -> view) that make contract rules read the candidates (Contract.bound)."""
    tag = uuid.uuid4().hex[:8]
    names = {table: f"_candidate_{table.replace('.', '_')}_{tag}" for table in frames}
    for table, df in frames.items():
        df.createOrReplaceTempView(names[table])
    try:
        yield names
    finally:
        for name in names.values():
            spark.catalog.dropTempView(name)


@dataclass(frozen=True)
class TableValidation:
    table: str
    report: ValidationReport | None  # None: the table is not in the warehouse yet


def validate_current(
    spark: SparkSession, lake: Lake, run_id: str, tables: list[str] | None = None
) -> list[TableValidation]:
    """Check tables as they are now (default: every table with a contract) and record every
    rule's result in audit.dq_results. Nothing is moved or stopped: the caller decides what a
    broken `fail` rule means (`claimhouse validate` exits 1, the Dagster job fails)."""
    contracts = load_contracts()
    unknown = sorted(set(tables or ()) - set(contracts))
    if unknown:
        raise LakeError(
            f"no contract for {', '.join(unknown)}; contracts: {', '.join(sorted(contracts))}"
        )
    lake.register_all()  # table rules name other tables (bronze.articles, gold.facts...)
    checked = []
    for table in sorted(tables or contracts):
        if not lake.exists(table):
            checked.append(TableValidation(table, None))
            continue
        report = validate(spark, lake, contracts[table], lake.read(table), run_id)
        record_results(spark, lake, report, run_id)
        checked.append(TableValidation(table, report))
    return checked
