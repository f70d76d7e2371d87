"""The claim kinds: one module per kind in this package declares it (`KIND`, a
lake.silver.kinds.base.Kind), and the registry is the package's modules, found here, so adding
a kind adds a module and edits no list.

Everything else that lists kinds reads this registry: the extractor's finders import the
kinds' words, gold's dbt project gets its kind lists and unit tables as vars (dbt_vars, passed
by lake.gold.build.dbt_args), and benchmarks/baseline.py reads the same vars. The lists that
cannot import it (the contracts' YAML; dbt's defaults in dbt_project.yml for a build from a
shell; the scorers' and the synthetic corpus's kinds) are held to it by
tests/unit/test_kinds.py. docs/add-a-claim-kind.md says how to add one.
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import Any

from lake.silver.kinds.base import Kind

# The package's modules that declare no kind: what a kind is, and the reading every kind of a
# physical unit shares (length's, mass's).
NOT_KINDS = ("base", "units")


def _modules() -> tuple[Kind, ...]:
    found = (
        importlib.import_module(f"{__name__}.{module.name}")
        for module in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name)
        if module.name not in NOT_KINDS
    )
    return tuple(module.KIND for module in found)


# In their modules' order, by name: every list of kinds (the contract's, dbt's) shows it.
KINDS: tuple[Kind, ...] = _modules()
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
