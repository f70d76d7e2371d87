"""The claimhouse code location: assembles the definitions, nothing else.

`dagster definitions validate` (or `dagster dev`) from the repository root (pyproject.toml's
[tool.dagster]). Loading reads CLAIMHOUSE_ENV and prepares the dbt manifest when called, not
when this module is imported.
"""

from __future__ import annotations

import dagster as dg

from lake.gold import build as gold
from lake.units import UNITS
from orchestration.assets import unit_asset
from orchestration.checks import build_gold_contract_checks
from orchestration.dbt import build_gold_assets
from orchestration.environment import current_environment
from orchestration.maintenance import build_maintenance_job, build_maintenance_schedule
from orchestration.resources import resources_for
from orchestration.sensors import build_daily_schedule, build_full_job, build_input_sensor
from orchestration.validation import build_validate_job


@dg.definitions
def defs() -> dg.Definitions:
    env = current_environment()
    job = build_full_job()
    validate_job = build_validate_job()
    maintenance_job = build_maintenance_job()
    return dg.Definitions(
        # One asset set per unit, in the pipeline's order: gold's are dbt's models.
        assets=[
            build_gold_assets(env) if unit is gold.UNIT else unit_asset(unit) for unit in UNITS
        ],
        asset_checks=[build_gold_contract_checks()],
        jobs=[job, validate_job, maintenance_job],
        sensors=[build_input_sensor(job, env)],
        schedules=[
            build_daily_schedule(validate_job, env),
            build_maintenance_schedule(maintenance_job, env),
        ],
        resources=resources_for(env),
        # Ad-hoc materializations from the UI too: every step in the run's process, so all
        # steps share one SparkSession (a JVM per step costs ~5-7 s, and the embedded Derby
        # metastore admits one process).
        executor=dg.in_process_executor,
    )
