"""The one place CLAIMHOUSE_ENV becomes an environment name and a dbt target.

Read when called, never at import, so tests and tools can switch environments without purging
`sys.modules`.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass

ENV_NAMES = ("local", "ci", "prod")


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
    env = os.environ if environ is None else environ
    name = (env.get("CLAIMHOUSE_ENV") or "local").strip().lower()
    if name not in ENV_NAMES:
        raise ValueError(f"CLAIMHOUSE_ENV must be one of {', '.join(ENV_NAMES)}, not {name!r}")
    return Environment(name=name, dbt_target="local", automation_running=name == "prod")
