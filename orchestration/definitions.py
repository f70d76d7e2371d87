"""The claimhouse code location: assembles the areas' definitions, nothing else.

`dagster definitions validate` (or `dagster dev`) from the repository root (pyproject.toml's
[tool.dagster]). Loading reads CLAIMHOUSE_ENV and prepares the dbt manifest when called, not
when this module is imported.
"""

from __future__ import annotations

import dagster as dg

from orchestration.defs import automation, gold, layers, maintenance, validation
from orchestration.environment import current_environment
from orchestration.resources import resources_for

# Each area (orchestration/defs/) returns its own Definitions for an environment.
AREAS = (layers, gold, automation, validation, maintenance)


@dg.definitions
def defs() -> dg.Definitions:
    env = current_environment()
    return dg.Definitions.merge(
        *(area.defs(env) for area in AREAS),
        dg.Definitions(
            resources=resources_for(env),
            # Ad-hoc materializations from the UI too: every step in the run's process, so all
            # steps share one SparkSession (a JVM per step costs ~5-7 s, and the embedded Derby
            # metastore admits one process).
            executor=dg.in_process_executor,
        ),
    )
