"""Apply a table's contract where the pipeline writes it: validate, record, then act.

Results are recorded in audit.dq_results before severities act, so a `fail` is in the history
too. Tables without a contract file pass through unchanged.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass

from pyspark.sql import DataFrame, SparkSession

from lake.contracts.run import (
    ContractViolation,
    ValidationReport,
    apply_severities,
    record_results,
    update_docs,
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
    (done,) = enforce_tables(spark, lake, [(table, df)], run_id, bindings=bindings, key=key)
    return done


def enforce_tables(
    spark: SparkSession,
    lake: Lake,
    batches: list[tuple[str, DataFrame]],
    run_id: str,
    bindings: dict[str, str] | None = None,
    key: str | None = None,
) -> list[Enforced]:
    """Enforce several tables' contracts: validate each, record every result (one
    audit.dq_results commit, one Data Docs build), then act. When `fail` rules break in more
    than one table, all of them are in audit.dq_results and the first violation is raised."""
    contracts = load_contracts()
    checked = []
    try:
        for table, df in batches:
            contract = contracts.get(table)
            if contract is not None:
                contract = contract.bound(bindings or {})
                report = validate(spark, lake, contract, df, run_id, data_docs=False)
            else:
                report = None
            checked.append((contract, df, report))
    finally:  # what was checked is recorded, even when a later contract does not fit
        reports = [report for _, _, report in checked if report is not None]
        if reports:
            record_results(spark, lake, reports, run_id)
            documented = iter(update_docs(lake, reports))
            checked = [(c, df, None if r is None else next(documented)) for c, df, r in checked]
    done, violations = [], []
    for contract, df, report in checked:
        if report is None:
            done.append(Enforced(df, None, 0, None))
            continue
        try:
            good, bad = apply_severities(spark, lake, contract, df, report)
        except ContractViolation as violation:
            violations.append(violation)
            continue
        if bad is None:
            done.append(Enforced(good, None, 0, report))
            continue
        ids = bad.select(key).distinct().persist() if key else None
        count = ids.count() if ids is not None else bad.count()
        done.append(Enforced(good, ids, count, report))
    if violations:
        raise violations[0]
    return done


# Candidate views in use in this process. A view's name stays the same from one run to the
# next, so a bound contract does too, and its GE checkpoint is built once per process
# (lake.contracts.run); two validations at once take different numbers.
_VIEWS_IN_USE: set[str] = set()
_VIEWS_LOCK = threading.Lock()


@contextmanager
def candidates(spark: SparkSession, frames: Mapping[str, DataFrame]) -> Iterator[dict[str, str]]:
    """Name each candidate DataFrame as a temp view for the block; yields the bindings
    (lake table -> view) that make contract rules read the candidates (Contract.bound)."""
    with _VIEWS_LOCK:
        for slot in itertools.count():
            names = {table: f"_candidate_{table.replace('.', '_')}_{slot}" for table in frames}
            if _VIEWS_IN_USE.isdisjoint(names.values()):
                _VIEWS_IN_USE.update(names.values())
                break
    try:
        for table, df in frames.items():
            df.createOrReplaceTempView(names[table])
        yield names
    finally:
        for name in names.values():
            spark.catalog.dropTempView(name)
        with _VIEWS_LOCK:
            _VIEWS_IN_USE.difference_update(names.values())


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
    reports: dict[str, ValidationReport] = {}
    try:
        for table in sorted(tables or contracts):
            if lake.exists(table):
                reports[table] = validate(
                    spark, lake, contracts[table], lake.read(table), run_id, data_docs=False
                )
    finally:  # what was checked is recorded, even when a later contract does not fit
        if reports:
            record_results(spark, lake, reports.values(), run_id)
            reports = dict(zip(reports, update_docs(lake, reports.values()), strict=True))
    return [TableValidation(table, reports.get(table)) for table in sorted(tables or contracts)]
