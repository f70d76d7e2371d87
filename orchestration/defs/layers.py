"""A lake unit (lake.units) as a Dagster multi-asset: one asset per table it shows, one check
per rule of the contracts it validates. Gold's assets are dbt's models (orchestration.defs.gold).

Each asset runs its unit through lake.layer.execute, exactly as `claimhouse run` does (the
unit pins its inputs, skips itself when they are unchanged, builds, validates and publishes),
then reports what the unit wrote. Asset keys are the lake's table names (`bronze.articles` ->
`bronze/articles`), which is also what dagster-dbt derives for the dbt sources, so lineage
runs from files to gold unbroken.
"""

import dagster as dg

from lake.contracts.run import ContractViolation
from lake.layer import Unit, UnitResult, execute
from lake.schemas import TABLES
from lake.units import UNITS
from orchestration.checks import contract_check_results, contract_check_specs
from orchestration.environment import Environment
from orchestration.metadata import table_metadata
from orchestration.resources import LakeResource


def asset_key(table: str) -> dg.AssetKey:
    return dg.AssetKey(table.split("."))


def unit_asset(unit: Unit) -> dg.AssetsDefinition:
    """A multi-asset over one unit: one asset per table it shows, one check per rule of its
    contracts (on the first table), read from what the unit recorded in audit.dq_results."""
    checks = unit_checks(unit)
    specs = [
        dg.AssetSpec(
            asset_key(table),
            description=TABLES[table].description,
            deps=[asset_key(d) for d in unit.inputs],
            group_name=TABLES[table].layer,
            kinds={"spark", "delta"},
        )
        for table in unit.shown
    ]

    @dg.multi_asset(
        name=unit.name.replace(".", "_"), specs=specs, check_specs=checks, description=unit.doing
    )
    def _asset(context: dg.AssetExecutionContext, lake: LakeResource):
        with lake.open(context) as ctx:
            try:
                result = execute(unit, ctx)
            except ContractViolation as violation:
                context.log.error(str(violation))
                yield from contract_check_results(ctx.lake, ctx.run_id, checks)
                raise
            for table in unit.shown:
                yield _materialization(ctx.lake, table, result)
            yield from contract_check_results(ctx.lake, ctx.run_id, checks)

    return _asset


def _materialization(lake, table: str, result: UnitResult) -> dg.MaterializeResult:
    extra = {"unit_status": result.status, **result.summary.metadata()}
    metadata = table_metadata(lake, table, TABLES[table].preview, extra)
    return dg.MaterializeResult(
        asset_key=asset_key(table),
        metadata=metadata,
        # Unchanged Delta version, unchanged data: Dagster shows it as the same version.
        data_version=dg.DataVersion(str(lake.version(table))),
    )


def unit_checks(unit: Unit) -> list[dg.AssetCheckSpec]:
    """One check per rule of the unit's contracts, on the first table it shows. Dagster's runs
    (unit_asset) and `claimhouse run`'s runless events (orchestration.runless) both use them."""
    return contract_check_specs(asset_key(unit.shown[0]), *unit.contracts)


def defs(env: Environment) -> dg.Definitions:
    """One multi-asset per unit whose build is Python; gold's build is dbt's (defs.gold)."""
    return dg.Definitions(assets=[unit_asset(u) for u in UNITS if not u.builds_with_dbt])
