"""The one place the environment name (CLAIMHOUSE_ENV, lake.config) becomes Dagster's
automation state and a dbt target.

Read when called, never at import, so tests and tools can switch environments without purging
`sys.modules`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

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
