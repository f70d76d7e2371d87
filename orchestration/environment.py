"""The one place the environment name (CLAIMHOUSE_ENV, lake.config) becomes Dagster's
automation state and a dbt target.

Read when called, never at import, so tests and tools can switch environments without purging
`sys.modules`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import dagster as dg

from lake.config import load_settings


@dataclass(frozen=True)
class Environment:
    name: str  # local | ci | prod
    dbt_target: str  # an output of dbt_project/profiles.yml
    automation_running: bool  # sensor and schedule start RUNNING (else STOPPED until turned on)


def current_environment(environ: Mapping[str, str] | None = None) -> Environment:
    """CLAIMHOUSE_ENV (default `local`) -> Environment.

    Every environment parses and builds dbt with the `local` target: the orchestrator runs dbt
    in-process on the run's SparkSession (dbt-spark `method: session`), which is what that target
    is; `thrift` is for people querying a running SQL endpoint.
    """
    name = load_settings(environ=environ).env
    return Environment(name=name, dbt_target="local", automation_running=name == "prod")


def daily_schedule(
    name: str, job, hour_utc: int, description: str, env: Environment
) -> dg.ScheduleDefinition:
    """A job once a day at `hour_utc`:00 UTC; running from the start only where automation
    runs (CLAIMHOUSE_ENV=prod), stopped elsewhere until turned on in the UI."""
    return dg.ScheduleDefinition(
        name=name,
        job=job,
        cron_schedule=f"0 {hour_utc} * * *",
        execution_timezone="UTC",
        default_status=(
            dg.DefaultScheduleStatus.RUNNING
            if env.automation_running
            else dg.DefaultScheduleStatus.STOPPED
        ),
        description=description,
    )
