"""What a run outside Dagster (`claimhouse run`) did, recorded in the Dagster instance the UI reads.

The lake's audit is the record: audit.layer_runs says which unit published what, audit.dq_results
how each contract rule judged it. For each unit whose latest row came from a run Dagster did not
launch and has not been recorded yet, this reports runless events: one materialization per asset
the unit published (the same keys and metadata a Dagster run reports), then one evaluation per
check (contract rules, and dbt's tests for gold). The UI then shows what the lake holds, whoever
built it.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import dagster as dg
from pyspark.sql import Window
from pyspark.sql import functions as F

from lake.config import REPO_ROOT, Settings
from lake.schemas import AUDIT_LAYER_RUNS, GOLD_TABLES
from lake.storage import Lake
from lake.units import UNITS
from orchestration.checks import (
    build_gold_contract_checks,
    contract_check_results,
    recorded_results,
)
from orchestration.defs.gold import (
    build_gold_assets,
    checks_by_test,
    dbt_project,
    model_materializations,
    run_results,
    test_check_results,
)
from orchestration.defs.layers import asset_key, unit_checks
from orchestration.environment import current_environment
from orchestration.metadata import table_metadata

INSTANCE_SETTINGS = REPO_ROOT / "orchestration" / "dagster.yaml"
_CURSOR = "claimhouse/recorded/"  # + unit: the run id recorded last for it


def dagster_home(settings: Settings) -> Path:
    """The instance `claimhouse ui` opens and `claimhouse run` records into: $DAGSTER_HOME when
    set, else the warehouse's `_dagster/`, holding the instance settings of this checkout."""
    own = settings.local_dir / "_dagster"
    home = Path(os.environ.get("DAGSTER_HOME") or own)
    home.mkdir(parents=True, exist_ok=True)
    config, wanted = home / "dagster.yaml", INSTANCE_SETTINGS.read_text()
    # A deployment's own instance keeps its settings; the warehouse's follows this checkout.
    if not config.exists() or (home == own and config.read_text() != wanted):
        config.write_text(wanted)
    return home


@dataclass
class Recorded:
    runs: list[str]  # claimhouse run ids recorded this time
    materializations: int = 0
    checks: int = 0
    home: Path | None = None

    def describe(self) -> str:
        if not self.runs:
            return f"dagster: nothing new to record in {self.home}"
        return (
            f"dagster: {self.materializations} materializations and {self.checks} check "
            f"results recorded in {self.home} (`claimhouse ui` shows them)"
        )


def record_lake(lake: Lake, settings: Settings) -> Recorded:
    """Record every unit's latest run that the instance has not seen (see the module doc)."""
    home = dagster_home(settings)
    with dg.DagsterInstance.from_config(str(home)) as instance:
        recorded = Recorded(runs=[], home=home)
        latest = _latest_runs(lake)
        keys = {f"{_CURSOR}{unit}" for unit in latest}
        done = instance.run_storage.get_cursor_values(keys)
        new = {
            unit: row
            for unit, row in latest.items()
            # recorded already, or a Dagster run (its events are there)
            if done.get(f"{_CURSOR}{unit}") != row["run_id"] and not instance.has_run(row["run_id"])
        }
        checked = recorded_results(lake, [row["run_id"] for row in new.values()])
        for unit, row in new.items():
            run_id = row["run_id"]
            events = list(_unit_events(lake, settings, unit, row, checked[run_id]))
            for event in events:
                instance.report_runless_asset_event(event)
            recorded.materializations += sum(isinstance(e, dg.AssetMaterialization) for e in events)
            recorded.checks += sum(isinstance(e, dg.AssetCheckEvaluation) for e in events)
            instance.run_storage.set_cursor_values({f"{_CURSOR}{unit}": run_id})
            if run_id not in recorded.runs:
                recorded.runs.append(run_id)
        return recorded


def _latest_runs(lake: Lake) -> dict[str, dict]:
    """Each unit's latest row of audit.layer_runs, in the order the units ran."""
    if not lake.exists(AUDIT_LAYER_RUNS.name):
        return {}
    newest = Window.partitionBy("unit").orderBy(F.col("finished_at").desc())
    rows = (
        lake.read(AUDIT_LAYER_RUNS.name)
        .withColumn("_n", F.row_number().over(newest))
        .where("_n = 1")
        .orderBy("finished_at")
        .collect()
    )
    return {r["unit"]: r.asDict() for r in rows}


def _unit_events(
    lake: Lake, settings: Settings, unit: str, row: dict, checked: list[dict]
) -> Iterator[dg.AssetMaterialization | dg.AssetCheckEvaluation]:
    run_id, published = row["run_id"], row["status"] == "published"
    tags = {"claimhouse/run_id": run_id}
    extra = {"claimhouse_run_id": run_id, "unit_status": row["status"]}
    declared = next((u for u in UNITS if u.name == unit), None)
    if declared is None:  # a unit this checkout no longer has
        return
    if declared.builds_with_dbt:
        yield from _gold_events(lake, settings, run_id, published, tags, extra, checked)
        return
    if published:
        summary = json.loads(row["summary"] or "{}")
        for table in declared.shown:
            if not lake.exists(table):
                continue
            version = (row["outputs"] or {}).get(table)
            metadata = table_metadata(
                lake, table, extra={**extra, **summary}, preview=False, version=version
            )
            yield dg.AssetMaterialization(
                asset_key=asset_key(table),
                description=f"claimhouse run {run_id}",
                metadata=metadata,
                tags={**tags, "dagster/data_version": str(metadata["delta_version"].value)},
            )
    yield from _evaluations(
        contract_check_results(lake, run_id, unit_checks(declared), checked), tags
    )


def _gold_events(
    lake: Lake,
    settings: Settings,
    run_id: str,
    published: bool,
    tags: dict,
    extra: dict,
    checked: list[dict],
) -> Iterator[dg.AssetMaterialization | dg.AssetCheckEvaluation]:
    env = current_environment()
    project = dbt_project(env.dbt_target)
    assets_def = build_gold_assets(env)
    manifest = json.loads(project.manifest_path.read_text())
    results = run_results(settings, run_id)
    if published:
        for result in model_materializations(
            manifest,
            project,
            lake,
            results,
            set(assets_def.keys),
            unchanged=not results,  # the build's results are gone: the release stands
            extra=extra,
            preview=False,  # rows and version; the runs Dagster launches show previews
        ):
            yield dg.AssetMaterialization(
                asset_key=result.asset_key,
                description=f"claimhouse run {run_id}",
                metadata=result.metadata,
                tags={**tags, "dagster/data_version": result.data_version.value},
            )
    yield from _evaluations(
        test_check_results(results, checks_by_test(assets_def), set(assets_def.check_keys)), tags
    )
    specs = list(build_gold_contract_checks().check_specs)
    recorded = [spec for spec in specs if spec.metadata["contract_table"] in GOLD_TABLES]
    yield from _evaluations(contract_check_results(lake, run_id, recorded, checked), tags)


def _evaluations(
    results: Iterable[dg.AssetCheckResult], tags: dict
) -> Iterator[dg.AssetCheckEvaluation]:
    for result in results:
        yield dg.AssetCheckEvaluation(
            asset_key=result.asset_key,
            check_name=result.check_name,
            passed=result.passed,
            metadata={**(result.metadata or {}), **{k.split("/")[-1]: v for k, v in tags.items()}},
            severity=result.severity,
        )
