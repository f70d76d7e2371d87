"""The claim kinds, listed once: one module per kind declares it (lake.silver.kinds.base.Kind).

Everything else that lists kinds reads this registry: the extractor's finders import the
kinds' words, gold's dbt project gets its kind lists and unit tables as vars (dbt_vars, passed
by lake.gold.build.dbt_args), and benchmarks/baseline.py reads the same vars. The lists that
cannot import it (lake.schemas, which silver's layer sits above; the contracts' YAML; dbt's
defaults in dbt_project.yml for a build from a shell; the scorers' and the synthetic corpus's
kinds) are held to it by tests/unit/test_kinds.py.
docs/add-a-claim-kind.md says how to add one.
"""

from __future__ import annotations

from typing import Any

from lake.silver.kinds import (
    age,
    count,
    date,
    duration,
    length,
    money,
    percent,
    rate,
    ratio,
    time,
)
from lake.silver.kinds.base import Kind

# In silver.claims' documented order (the contracts and dbt list them in this order too).
KINDS: tuple[Kind, ...] = (
    count.KIND,
    rate.KIND,
    percent.KIND,
    money.KIND,
    date.KIND,
    time.KIND,
    ratio.KIND,
    duration.KIND,
    age.KIND,
    length.KIND,
)
NAMES: tuple[str, ...] = tuple(k.name for k in KINDS)
BY_NAME: dict[str, Kind] = {k.name: k for k in KINDS}
# The finders, in the order the extractor runs them over a sentence: a span one finder took is
# not read again by a later one ("four years ago" is a date, not a duration).
FINDERS: tuple[str, ...] = (
    "lake.silver.dates:find_dates",
    "lake.silver.times:find_times",
    "lake.silver.durations:find_durations",
    "lake.silver.quantities:find_quantities",
)
# measure_keys that stay in silver but make no fact (lake.silver.measure, dbt).
UNRECONCILED_MEASURES: tuple[str, ...] = tuple(key for k in KINDS for key in k.unreconciled_keys)


def dbt_vars() -> dict[str, Any]:
    """The dbt vars gold reads about kinds (dbt_project.yml holds the same as its defaults)."""
    return {
        "kinds": list(NAMES),
        "gold_units": {k.name: k.gold_unit for k in KINDS if k.gold_unit},
        # Each kind's units, as the kind declares them: macros/time_units.sql scales by these.
        "unit_scales": {k.name: dict(k.units) for k in KINDS if k.units},
        "unit_axis_kinds": [k.name for k in KINDS if k.unit_on_axis],
        "unreconciled_measures": list(UNRECONCILED_MEASURES),
        "solitary_measures": [key for k in KINDS for key in k.solitary_keys],
        "named_only_measures": [key for k in KINDS for key in k.named_only_keys],
    }
