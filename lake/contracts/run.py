"""Validate a DataFrame against its contract with GE, apply severities, record results.

- `validate` runs the contract's suite through a GE checkpoint on a file context at
  `<warehouse>/_gx` (Data Docs at `_gx/uncommitted/data_docs/local_site/index.html`).
- `apply_severities` raises on `fail` rules, splits off rows breaking `quarantine` rules
  (evaluating each rule in Spark; a NULL predicate counts as broken, never drops a row) and
  leaves `warn` rules to the record.
- `record_results` appends one row per rule to `audit.dq_results`, passes included.
- `update_docs` renders validations' Data Docs pages and the site index once for several.
"""

from __future__ import annotations

import json
import re
import time
import uuid
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pyspark.errors import AnalysisException
from pyspark.sql import Column, DataFrame, SparkSession, Window
from pyspark.sql import functions as F
from pyspark.sql.types import (
    ArrayType,
    BooleanType,
    LongType,
    StringType,
    StructField,
    StructType,
    TimestampType,
)

from lake.contracts.compile import (
    Rule,
    broken,
    broken_count,
    build_suite,
    quote_identifier,
    rules,
    source_name,
)
from lake.contracts.docs_assets import localize
from lake.contracts.spec import Contract, ContractError
from lake.schemas import TABLES, TableSpec
from lake.storage import Lake, LakeError

SAMPLE_ROWS = 5
SAMPLE_STRING_CHARS = 200  # longer strings (article bodies) are cut in samples


def _f(name: str, dtype, nullable: bool = True, doc: str = "") -> StructField:
    return StructField(name, dtype, nullable, {"comment": doc} if doc else {})


AUDIT_DQ_RESULTS = TableSpec(
    name="audit.dq_results",
    key=("run_id", "table_name", "rule", "evaluated_at"),
    description="One row per contract rule per validation: passed or not, counts, a sample.",
    schema=StructType(
        [
            _f("run_id", StringType(), False),
            _f("layer", StringType(), False),
            _f("table_name", StringType(), False, "'<layer>.<table>' validated"),
            _f("contract", StringType(), False, "contract file the rule comes from"),
            _f("rule", StringType(), False),
            _f("severity", StringType(), False, "warn | quarantine | fail"),
            _f("passed", BooleanType(), False),
            _f("element_count", LongType(), True, "rows validated"),
            _f("unexpected_count", LongType(), True, "rows breaking the rule"),
            _f("unexpected_sample", StringType(), True, "JSON array of up to 5 violating rows"),
            _f("evaluated_at", TimestampType(), False),
        ]
    ),
)


class ContractViolation(LakeError):
    """A `fail` rule was broken: the run stops before anything downstream is built."""

    def __init__(
        self,
        table: str,
        rule: str,
        count: int | None,
        sample: list[dict],
        *,
        description: str = "",
        contract: str = "",
        others: tuple[str, ...] = (),
    ):
        self.table, self.rule, self.count, self.sample = table, rule, count, sample
        shown = json.dumps(sample[:3], default=str)
        also = f" Also broken (fail): {', '.join(others)}." if others else ""
        where = f" ({contract})" if contract else ""
        super().__init__(
            f"{table}: rule {rule} (severity fail) is broken by {count} row(s): {description}. "
            f"Sample: {shown}.{also} The run stopped: nothing downstream of {table} was "
            f"built. Fix the data or the step that "
            f"produces {table}, then rerun; if the rule is wrong, change it in the "
            f"contract{where}."
        )


@dataclass(frozen=True)
class RuleResult:
    rule: str
    severity: str
    description: str
    expectation: str  # GE expectation type
    passed: bool
    element_count: int | None
    unexpected_count: int | None
    unexpected_sample: tuple[dict, ...] = ()


@dataclass(frozen=True)
class ValidationReport:
    table: str
    contract: str
    run_id: str
    evaluated_at: datetime
    results: tuple[RuleResult, ...]
    seconds: float
    data_docs: Path | None = None
    # GE's keys of the stored result and its suite, for the Data Docs build (update_docs).
    docs_keys: tuple[Any, ...] = field(default=(), compare=False, repr=False)

    @property
    def success(self) -> bool:
        return all(r.passed for r in self.results)

    def result(self, rule: str) -> RuleResult:
        for r in self.results:
            if r.rule == rule:
                return r
        raise KeyError(f"{self.table} has no rule {rule!r}")

    def failed(self, severity: str | None = None) -> list[RuleResult]:
        return [r for r in self.results if not r.passed and severity in (None, r.severity)]

    def summary(self) -> str:
        lines = [f"{self.table}: {len(self.failed())} of {len(self.results)} rules broken"]
        for r in self.results:
            state = "ok" if r.passed else f"BROKEN by {r.unexpected_count}"
            lines.append(f"  {r.rule} [{r.severity}]: {state}")
        return "\n".join(lines)


# --- validate --------------------------------------------------------------------------------


def validate(
    spark: SparkSession,
    lake: Lake,
    contract: Contract,
    df: DataFrame,
    run_id: str,
    *,
    data_docs: bool = True,
) -> ValidationReport:
    """Run the contract's rules on `df` through a GE checkpoint; returns one result per rule.
    `data_docs`: render its Data Docs page now (else the caller's update_docs does, once for
    several validations).

    Raises ContractError when the contract does not fit the data (missing columns, SQL that
    Spark cannot analyse); broken rules are results, not errors (see apply_severities).
    """
    started = time.perf_counter()
    evaluated_at = datetime.now(UTC)
    all_rules = rules(contract)
    view = f"_contract_batch_{uuid.uuid4().hex[:12]}"
    cached_here = not df.is_cached
    if cached_here:
        df = df.persist()
    df.createOrReplaceTempView(view)
    try:
        _preflight(spark, lake, contract, all_rules, df, view)
        outcomes, keys = _run_checkpoint(lake, contract, df, run_id, evaluated_at)
        results = _results(spark, contract, all_rules, outcomes, df, view)
    finally:
        spark.catalog.dropTempView(view)
        spark.catalog.dropTempView("tmp_view")  # GE's fixed name for {batch}
        if cached_here:
            df.unpersist()
    report = ValidationReport(
        table=contract.table,
        contract=_contract_name(contract),
        run_id=run_id,
        evaluated_at=evaluated_at,
        results=tuple(results),
        seconds=round(time.perf_counter() - started, 3),
        docs_keys=keys,
    )
    if data_docs:
        (report,) = update_docs(lake, [report])
    return report


def update_docs(lake: Lake, reports: Iterable[ValidationReport]) -> list[ValidationReport]:
    """Render the reports' validation and suite pages and the site's index in one Data Docs
    build (what GE's UpdateDataDocsAction does per validation: each build also re-renders the
    index, which lists every stored result); returns the reports with their `data_docs`."""
    reports = list(reports)
    keys = [k for r in reports for k in r.docs_keys]
    if not keys:
        return reports
    index = _docs_index(lake)
    started = time.time() - 1  # file times may be coarser than the clock
    _gx_context(lake).build_data_docs(resource_identifiers=keys, build_index=True)
    site = index.parent
    localize(site, [p for p in site.rglob("*.html") if p.stat().st_mtime >= started])
    found = index if index.exists() else None
    return [replace(r, data_docs=found) for r in reports]


def _contract_name(contract: Contract) -> str:
    return source_name(contract)


def _fail_contract(contract: Contract, message: str) -> ContractError:
    return ContractError(f"{_contract_name(contract)}: {message}")


def _preflight(spark, lake, contract, all_rules, df, view) -> None:
    """Check that the contract fits the data before GE runs, naming columns and rules."""
    found = df.columns
    missing = [c for c in contract.columns if c not in found]
    if missing:
        raise _fail_contract(
            contract,
            f"columns {', '.join(missing)} are in the contract but not in the data for "
            f"{contract.table}; found: {', '.join(found)}. Fix the contract or the producer.",
        )
    _register_referenced(lake, all_rules)
    for rule in all_rules:
        try:
            if rule.row_local:
                # analysed as GE counts it: an aggregate over the batch
                df.agg(broken_count(rule.predicate))
            elif rule.query is not None:
                columns = spark.sql(rule.query.format(batch=view)).columns
                if rule.key is not None and rule.key not in columns:
                    raise _fail_contract(
                        contract,
                        f"rule {rule.name}: its query returns no column {rule.key!r} (its key); "
                        f"it returns: {', '.join(columns)}. Select the key column.",
                    )
        except AnalysisException as exc:
            first = str(exc).strip().splitlines()[0]
            raise _fail_contract(
                contract,
                f"rule {rule.name}: Spark cannot run its SQL: {first}. Fix the "
                f"{'predicate' if rule.row_local else 'query'} in the contract.",
            ) from exc
        except (KeyError, IndexError, ValueError) as exc:
            raise _fail_contract(
                contract,
                f"rule {rule.name}: the query has a brace that is not {{table}} or {{batch}} "
                f"({exc!r}); write literal braces as {{{{ and }}}}.",
            ) from exc


def _register_referenced(lake: Lake, some_rules: list[Rule]) -> None:
    """Point the catalog names the rules' queries use (bronze.articles) at this warehouse."""
    queries = " ".join(r.query for r in some_rules if r.query)
    if not queries:
        return
    for table in lake.tables():
        if re.search(rf"(?<![\w.`]){re.escape(table)}(?![\w])", queries):
            lake.register(table)


_CONTEXTS: dict[Path, Any] = {}
# GE keeps this many of each table's newest validation results (and their Data Docs pages).
# Each validation's Data Docs build lists and parses the key of every stored result, so an
# unbounded store slows every run as the history grows; audit.dq_results keeps every rule's
# result of every run.
KEPT_RESULTS = 50


def _gx_context(lake: Lake):
    """The warehouse's GE file context (`<warehouse>/_gx`), one per process and warehouse."""
    root = (lake.local_root / "_gx").resolve()
    context = _CONTEXTS.get(root)
    if context is None:
        import great_expectations as gx
        from great_expectations.data_context.types.base import ProgressBarsConfig

        root.mkdir(parents=True, exist_ok=True)
        _repair_gx(root)
        context = gx.get_context(mode="file", context_root_dir=str(root))
        context.variables.progress_bars = ProgressBarsConfig(
            globally=False, metric_calculations=False
        )
        context.variables.save()
        _CONTEXTS[root] = context
    return context


# GE rewrites its files in place, so a run killed mid-write can leave one truncated, and then
# every later run fails to load the context. Its config, suites, validation definitions and
# checkpoints are rebuilt from the contracts on every run, so a broken one is simply removed.
# So is a broken validation result: a kill can only have cut the newest few.
_NEWEST_RESULTS_CHECKED = 50


def _repair_gx(root: Path) -> list[Path]:
    """Remove GE files that do not parse; returns what was removed."""
    import yaml

    removed = []
    config = root / "great_expectations.yml"
    if config.exists():
        try:
            yaml.safe_load(config.read_text(encoding="utf-8"))
        except (yaml.YAMLError, UnicodeDecodeError):
            removed.append(config)
    derived = [
        p
        for folder in ("expectations", "validation_definitions", "checkpoints")
        for p in (root / folder).rglob("*.json")
    ]
    results = sorted(
        (root / "uncommitted" / "validations").rglob("*.json"),
        key=lambda p: p.stat().st_mtime,
        reverse=True,
    )[:_NEWEST_RESULTS_CHECKED]
    for path in derived + results:
        try:
            json.loads(path.read_text(encoding="utf-8"))
        except (ValueError, UnicodeDecodeError):
            removed.append(path)
    for path in removed:
        path.unlink(missing_ok=True)
    return removed


def prune_results(root: Path, table: str, keep: int = KEPT_RESULTS) -> int:
    """Remove all but the `keep` newest validation results of `table` from the GE store at
    `root`, with their Data Docs pages; returns how many results went. Results are stored as
    <suite path>/<run name>/<run time>/<batch>.json, the run time sortable as text."""
    removed = 0
    for base, suffix in (
        (root / "uncommitted" / "validations", ".json"),
        (root / "uncommitted" / "data_docs" / "local_site" / "validations", ".html"),
    ):
        folder = base.joinpath(*table.split("."))
        found = sorted(folder.glob(f"*/*/*{suffix}"), key=lambda p: p.parent.name, reverse=True)
        for old in found[keep:]:
            old.unlink(missing_ok=True)
            removed += suffix == ".json"
            for empty in (old.parent, old.parent.parent):
                try:
                    empty.rmdir()
                except OSError:  # not empty, or gone: another result lives there
                    break
    return removed


def _docs_index(lake: Lake) -> Path:
    return (
        lake.local_root / "_gx" / "uncommitted" / "data_docs" / "local_site" / "index.html"
    ).resolve()


def _run_checkpoint(lake, contract, df, run_id, evaluated_at) -> tuple[list, tuple]:
    """The rules' outcomes, and the keys of the stored result and its suite."""
    from great_expectations.core.run_identifier import RunIdentifier
    from great_expectations.data_context.types.resource_identifiers import (
        ExpectationSuiteIdentifier,
    )

    context = _gx_context(lake)
    root = lake.local_root / "_gx"
    # Room for this run's result, before its Data Docs build lists the store.
    prune_results(root, contract.table, KEPT_RESULTS - 1)
    checkpoint = _checkpoint(context, root, contract)
    result = checkpoint.run(
        batch_parameters={"dataframe": df},
        run_id=RunIdentifier(run_name=run_id, run_time=evaluated_at),
    )
    ((key, suite_result),) = result.run_results.items()
    suite = checkpoint.validation_definitions[0].suite
    return list(suite_result.results), (key, ExpectationSuiteIdentifier(name=suite.name))


# Each contract's checkpoint, built and saved once per process while its GE files stay as this
# process saved them: building a suite saves every expectation into the store one by one, and
# saving the suite, its validation definition and checkpoint again cost each validation about
# 0.4 s (seven a run) for files that had not changed (benchmarks/HISTORY.md, 2026-12-07).
_CHECKPOINTS: dict[tuple[int, str], tuple[Any, tuple[int, ...]]] = {}


def _checkpoint(context: Any, root: Path, contract: Contract) -> Any:
    """The contract's GE checkpoint (suite, validation definition, checkpoint), saved in the
    store at `root`; rebuilt when the contract changed or another process rewrote its files."""
    import great_expectations as gx

    key = (id(context), source_name(contract) + contract.model_dump_json())
    cached = _CHECKPOINTS.get(key)
    if cached is not None and cached[1] == _saved_stamps(root, contract.table):
        return cached[0]
    try:
        source = context.data_sources.get("lake")
    except KeyError:
        # The DataFrame is persisted by validate for the run's duration; GE's own persist
        # would keep it cached for the life of the process.
        source = context.data_sources.add_spark("lake", persist=False)
    try:
        asset = source.get_asset(contract.table)
    except LookupError:
        asset = source.add_dataframe_asset(contract.table)
    try:
        batch = asset.get_batch_definition("whole_dataframe")
    except KeyError:
        batch = asset.add_batch_definition_whole_dataframe("whole_dataframe")
    suite = context.suites.add_or_update(build_suite(contract))
    definition = context.validation_definitions.add_or_update(
        gx.ValidationDefinition(name=contract.table, data=batch, suite=suite)
    )
    checkpoint = context.checkpoints.add_or_update(
        gx.Checkpoint(
            name=contract.table,
            validation_definitions=[definition],
            actions=[],
            result_format={"result_format": "SUMMARY", "partial_unexpected_count": SAMPLE_ROWS},
        )
    )
    _CHECKPOINTS[key] = (checkpoint, _saved_stamps(root, contract.table))
    return checkpoint


def _saved_stamps(root: Path, table: str) -> tuple[int, ...]:
    """When the GE files of a table's suite, validation definition and checkpoint were last
    written (0 for one that is missing)."""
    paths = (
        root.joinpath("expectations", *table.split(".")).with_suffix(".json"),
        root / "validation_definitions" / f"{table}.json",
        root / "checkpoints" / f"{table}.json",
    )
    return tuple(p.stat().st_mtime_ns if p.exists() else 0 for p in paths)


def _results(spark, contract, all_rules, outcomes, df, view) -> list[RuleResult]:
    by_rule = {o.expectation_config.meta.get("rule"): o for o in outcomes}
    element_count = next(
        (
            o.result["element_count"]
            for o in outcomes
            if o.result and o.result.get("element_count") is not None
        ),
        None,
    )
    results = []
    for rule in all_rules:
        outcome = by_rule.get(rule.name)
        if outcome is None:
            raise _fail_contract(contract, f"rule {rule.name}: GE returned no result for it")
        info = outcome.exception_info or {}
        if info.get("raised_exception"):
            message = str(info.get("exception_message", "")).strip().splitlines()
            raise _fail_contract(
                contract,
                f"rule {rule.name}: Great Expectations could not evaluate it: "
                f"{message[0] if message else 'no message'}",
            )
        data = outcome.result or {}
        if element_count is None:
            element_count = df.count()
        if rule.check in ("predicate", "query"):
            unexpected = data.get("observed_value")
        elif rule.check == "type":
            unexpected = 0 if outcome.success else element_count
        else:
            unexpected = data.get("unexpected_count")
        passed = bool(outcome.success)
        sample: tuple[dict, ...] = ()
        if not passed:
            sample = tuple(_sample(_violations(spark, df, rule, view)))
        results.append(
            RuleResult(
                rule=rule.name,
                severity=rule.severity,
                description=rule.description,
                expectation=outcome.expectation_config.type,
                passed=passed,
                element_count=element_count,
                unexpected_count=None if unexpected is None else int(unexpected),
                unexpected_sample=sample,
            )
        )
    return results


def _violations(spark, df: DataFrame, rule: Rule, view: str) -> DataFrame | None:
    if rule.row_local:
        return df.where(broken(rule.predicate))
    if rule.check == "unique":
        col = F.col(quote_identifier(rule.column))
        counted = df.where(col.isNotNull()).withColumn(
            "__n", F.count(F.lit(1)).over(Window.partitionBy(col))
        )
        return counted.where(F.col("__n") > 1).drop("__n")
    if rule.query is not None:
        return spark.sql(rule.query.format(batch=view))
    return None  # a type rule is about the schema, not rows


def _sample(rows: DataFrame | None) -> list[dict]:
    if rows is None:
        return []
    # Nulls stay in the sample: they are often what broke the rule.
    as_json = F.to_json(
        F.struct(*[F.col(quote_identifier(c)) for c in rows.columns]),
        {"ignoreNullFields": "false"},
    )
    return [_shorten(json.loads(r[0])) for r in rows.select(as_json).limit(SAMPLE_ROWS).collect()]


def _shorten(row: dict) -> dict:
    return {
        k: (v[:SAMPLE_STRING_CHARS] + "…")
        if isinstance(v, str) and len(v) > SAMPLE_STRING_CHARS
        else v
        for k, v in row.items()
    }


# --- severities ------------------------------------------------------------------------------


def apply_severities(
    spark: SparkSession,
    lake: Lake,
    contract: Contract,
    df: DataFrame,
    report: ValidationReport,
    *,
    write_quarantine: bool = True,
) -> tuple[DataFrame, DataFrame | None]:
    """(rows that go on, rows quarantined or None); raises ContractViolation on a `fail` rule.

    Quarantined rows get `rules_broken` (rule names) and, with write_quarantine, are written to
    `<layer>.<table>_quarantine` (MERGE on its key when lake.schemas names that table, else
    appended). Only rules the report found broken are evaluated again, on `df` itself.
    """
    if report.table != contract.table:
        raise LakeError(f"the report is for {report.table}, the contract for {contract.table}")
    failing = report.failed("fail")
    if failing:
        first = failing[0]
        raise ContractViolation(
            contract.table,
            first.rule,
            first.unexpected_count,
            list(first.unexpected_sample),
            description=first.description,
            contract=report.contract,
            others=tuple(r.rule for r in failing[1:]),
        )
    broken = {r.rule for r in report.failed("quarantine")}
    to_split = [r for r in rules(contract) if r.name in broken]
    if not to_split:
        return df, None
    _register_referenced(lake, to_split)
    view = f"_contract_split_{uuid.uuid4().hex[:12]}"
    df.createOrReplaceTempView(view)
    try:
        flagged, flags = _flag(spark, df, to_split, view)
        marked = flagged.withColumn("rules_broken", F.array_compact(F.array(*flags)))
        marked = marked.select(*df.columns, "rules_broken")
        good = marked.where(F.size("rules_broken") == 0).select(*df.columns)
        bad = marked.where(F.size("rules_broken") > 0)
        if write_quarantine:
            _write_quarantine(lake, contract, bad)
    finally:
        # Analysed plans keep what the view named: the returned DataFrames do not need it.
        spark.catalog.dropTempView(view)
    return good, bad


def _flag(spark, df, to_split: list[Rule], view: str) -> tuple[DataFrame, list[Column]]:
    """df with helper columns, and per rule an expression: the rule name when broken, else NULL."""
    flags: list[Column] = []
    out = df
    for i, rule in enumerate(to_split):
        name = F.lit(rule.name)
        if rule.row_local:
            flags.append(F.when(broken(rule.predicate), name))
        elif rule.check == "unique":
            col = F.col(quote_identifier(rule.column))
            count = F.count(F.lit(1)).over(Window.partitionBy(col))
            flags.append(F.when(col.isNotNull() & (count > 1), name))
        elif rule.query is not None:
            key = rule.key
            hit = f"__hit_{i}"
            keys = (
                spark.sql(rule.query.format(batch=view))
                .select(F.col(quote_identifier(key)).alias(f"__key_{i}"))
                .where(F.col(f"__key_{i}").isNotNull())
                .distinct()
                .withColumn(hit, F.lit(True))
            )
            out = out.join(keys, F.col(quote_identifier(key)) == F.col(f"__key_{i}"), "left")
            flags.append(F.when(F.coalesce(F.col(hit), F.lit(False)), name))
        else:
            raise ContractError(
                f"rule {rule.name} ({rule.check}) cannot pick out rows; give it severity fail"
            )
    return out, flags


def _write_quarantine(lake: Lake, contract: Contract, bad: DataFrame) -> None:
    name = f"{contract.table}_quarantine"
    spec = TABLES.get(name)
    if spec is not None and set(spec.schema.fieldNames()) <= set(bad.columns):
        lake.merge_insert(spec, bad.select(*spec.schema.fieldNames()))
        return
    fields = [StructField(f.name, f.dataType, True, f.metadata) for f in bad.schema.fields]
    fields[-1] = StructField("rules_broken", ArrayType(StringType()), False)
    spec = TableSpec(
        name=name,
        schema=StructType(fields),
        key=(),
        description=f"Rows of {contract.table} that broke a quarantine rule of its contract.",
    )
    lake.append(spec, bad)


# --- audit -----------------------------------------------------------------------------------


def record_results(
    spark: SparkSession,
    lake: Lake,
    reports: ValidationReport | Iterable[ValidationReport],
    run_id: str,
) -> int:
    """Append one row per rule of each report to audit.dq_results, in one commit; returns the
    table's new version."""
    if isinstance(reports, ValidationReport):
        reports = [reports]
    rows = [
        (
            run_id,
            report.table.split(".")[0],
            report.table,
            report.contract,
            r.rule,
            r.severity,
            r.passed,
            r.element_count,
            r.unexpected_count,
            json.dumps(list(r.unexpected_sample), default=str, ensure_ascii=False),
            report.evaluated_at,
        )
        for report in reports
        for r in report.results
    ]
    return lake.append_rows(AUDIT_DQ_RESULTS, rows)
