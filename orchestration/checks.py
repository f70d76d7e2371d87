"""Contract rules (expectations/contracts/*.yml) as Dagster asset checks, one per rule.

Each lake unit validates its candidate against its contracts before publishing it
(lake.layer) and records every rule's result in audit.dq_results; the checks report those
rows, so the UI and `claimhouse run` judge the same evaluation. `fail` rules are blocking: a
broken one stops everything downstream of the asset in the run.
"""

import json
from collections.abc import Iterable

import dagster as dg
from pyspark.sql import functions as F

from lake.contracts.compile import rules
from lake.contracts.enforce import validate_current
from lake.contracts.spec import load_contracts
from lake.gold import build as gold
from lake.layer import last_published
from lake.schemas import GOLD_RELEASE
from lake.storage import Lake
from orchestration.resources import LakeResource

_SEVERITY = {
    "fail": dg.AssetCheckSeverity.ERROR,
    "quarantine": dg.AssetCheckSeverity.WARN,
    "warn": dg.AssetCheckSeverity.WARN,
}


def contract_check_specs(asset_key: dg.AssetKey, *tables: str) -> list[dg.AssetCheckSpec]:
    """One check per rule of the tables' contracts, attached to `asset_key`."""
    contracts = load_contracts()
    specs, seen = [], set()
    for table in tables:
        for rule in rules(contracts[table]):
            if rule.name in seen:
                raise ValueError(f"rule {rule.name} appears twice on {asset_key.to_user_string()}")
            seen.add(rule.name)
            specs.append(
                dg.AssetCheckSpec(
                    name=rule.name,
                    asset=asset_key,
                    description=f"[{rule.severity}] {table}: {rule.description}",
                    blocking=rule.severity == "fail",
                    metadata={"contract_table": table, "severity": rule.severity},
                )
            )
    return specs


def recorded_results(lake: Lake, run_ids: Iterable[str]) -> dict[str, list[dict]]:
    """audit.dq_results' rows of these runs, per run, oldest first: one query for them all."""
    run_ids = sorted(set(run_ids))
    found: dict[str, list[dict]] = {run_id: [] for run_id in run_ids}
    if run_ids and lake.exists("audit.dq_results"):
        rows = (
            lake.read("audit.dq_results")
            .where(F.col("run_id").isin(run_ids))
            .orderBy("evaluated_at")
            .collect()
        )
        for row in rows:
            found[row["run_id"]].append(row.asDict())
    return found


def contract_check_results(
    lake: Lake, run_id: str, specs: list[dg.AssetCheckSpec], recorded: list[dict] | None = None
) -> list[dg.AssetCheckResult]:
    """Each spec's latest result recorded by run `run_id` in audit.dq_results (metadata
    `evaluated_in_run` names that run). A rule with no row (no new rows reached its table)
    passes with rows_checked 0. `recorded`: the run's rows, when read already
    (recorded_results)."""
    if recorded is None:
        recorded = recorded_results(lake, [run_id])[run_id]
    tables = {spec.metadata["contract_table"] for spec in specs}
    latest = {(r["table_name"], r["rule"]): r for r in recorded if r["table_name"] in tables}
    results = []
    for spec in specs:
        table, severity = spec.metadata["contract_table"], spec.metadata["severity"]
        row = latest.get((table, spec.name))
        if row is None:
            results.append(
                dg.AssetCheckResult(
                    asset_key=spec.asset_key,
                    check_name=spec.name,
                    passed=True,
                    metadata={"severity": severity, "rows_checked": 0},
                )
            )
            continue
        sample = json.loads(row["unexpected_sample"] or "[]")
        results.append(
            dg.AssetCheckResult(
                asset_key=spec.asset_key,
                check_name=spec.name,
                passed=bool(row["passed"]),
                severity=_SEVERITY[severity],
                metadata={
                    "severity": severity,
                    "evaluated_in_run": run_id,
                    "table": table,
                    "rows_checked": row["element_count"] or 0,
                    "rows_broken": row["unexpected_count"] or 0,
                    "sample": dg.MetadataValue.json(sample),
                },
            )
        )
    return results


def build_gold_contract_checks() -> dg.AssetChecksDefinition:
    """Gold's contract rules as checks on gold/facts, gold/fact_evidence, gold/fact_conflicts.
    The gold unit validates its candidate before publishing it (lake.gold.build), so after a
    build these report what it recorded for the run. When the run built nothing (gold was
    unchanged) or the checks run alone, they report what the run that published the current
    release recorded for it: nothing changed, so nothing is validated again (the daily
    validation job and `claimhouse validate` check everything as it is). Only a release with
    no recorded results is validated here."""

    specs = [
        spec
        for table in gold.UNIT.contracts
        for spec in contract_check_specs(dg.AssetKey(table.split(".")), table)
    ]

    @dg.multi_asset_check(specs=specs, name="gold_contracts")
    def gold_contracts(context: dg.AssetCheckExecutionContext, lake: LakeResource):
        with lake.open(context) as ctx:
            evaluated_in = ctx.run_id
            if not _recorded(ctx.lake, ctx.run_id, gold.UNIT.contracts):
                evaluated_in = _release_run(ctx.lake)
            if evaluated_in is None:
                evaluated_in = ctx.run_id
                checked = validate_current(
                    ctx.spark, ctx.lake, ctx.run_id, list(gold.UNIT.contracts)
                )
                broken = [
                    f"{item.table}: {r.rule}"
                    for item in checked
                    if item.report is not None
                    for r in item.report.failed("fail")
                ]
                if broken:
                    context.log.error("gold's release breaks: " + "; ".join(broken))
            yield from contract_check_results(ctx.lake, evaluated_in, specs)

    return gold_contracts


def _release_run(lake: Lake) -> str | None:
    """The run that published gold's current release, when it recorded its contract results."""
    published = last_published(lake, gold.UNIT.name)
    if published is None or published["outputs"].get(GOLD_RELEASE.store) != lake.version(
        GOLD_RELEASE.store
    ):
        return None
    recorded = _recorded(lake, published["run_id"], gold.UNIT.contracts)
    return published["run_id"] if recorded else None


def _recorded(lake: Lake, run_id: str, tables) -> bool:
    """Whether this run recorded contract results for any of the tables."""
    if not lake.exists("audit.dq_results"):
        return False
    return not (
        lake.read("audit.dq_results")
        .where((F.col("run_id") == run_id) & F.col("table_name").isin(list(tables)))
        .isEmpty()
    )
