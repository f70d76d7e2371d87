"""Bronze, silver claims and silver stories as Dagster assets: one lake unit each.

Each asset runs its unit through lake.layer.execute, exactly as `claimhouse run` does (the
unit pins its inputs, skips itself when they are unchanged, builds, validates and publishes),
then reports what the unit wrote. Asset keys are the lake's table names (`bronze.articles` ->
`bronze/articles`), which is also what dagster-dbt derives for the dbt sources, so lineage
runs from files to gold unbroken.
"""

from collections.abc import Sequence
from dataclasses import dataclass

import dagster as dg

from lake.bronze import ingest as bronze
from lake.contracts.run import ContractViolation
from lake.layer import Unit, UnitResult, execute
from lake.schemas import (
    BRONZE_ARTICLES,
    BRONZE_REJECTS,
    SILVER_ARTICLE_STORIES,
    SILVER_CLAIMS,
    SILVER_CLAIMS_QUARANTINE,
)
from lake.silver import publish as silver_claims
from lake.silver import publish_stories as silver_stories
from orchestration.checks import contract_check_results, contract_check_specs
from orchestration.metadata import table_metadata
from orchestration.resources import LakeResource


def asset_key(table: str) -> dg.AssetKey:
    return dg.AssetKey(table.split("."))


@dataclass(frozen=True)
class Output:
    table: str  # the lake table this asset is
    description: str
    preview: tuple[str, ...]  # columns worth showing (long text such as body left out)


def unit_asset(
    unit: Unit,
    name: str,
    outputs: Sequence[Output],
    contracts: Sequence[str],
    deps: Sequence[str] = (),
) -> dg.AssetsDefinition:
    """A multi-asset over one unit: one asset per output table, one check per rule of the
    `contracts` (on the first output), read from what the unit recorded in audit.dq_results."""
    main = asset_key(outputs[0].table)
    checks = contract_check_specs(main, *contracts)
    specs = [
        dg.AssetSpec(
            asset_key(o.table),
            description=o.description,
            deps=[asset_key(d) for d in deps],
            group_name=o.table.split(".")[0],
            kinds={"spark", "delta"},
        )
        for o in outputs
    ]

    @dg.multi_asset(name=name, specs=specs, check_specs=checks, description=unit.doing)
    def _asset(context: dg.AssetExecutionContext, lake: LakeResource):
        with lake.open(context) as ctx:
            try:
                result = execute(unit, ctx)
            except ContractViolation as violation:
                context.log.error(str(violation))
                yield from contract_check_results(ctx.lake, ctx.run_id, checks)
                raise
            for output in outputs:
                yield _materialization(ctx.lake, output, result)
            yield from contract_check_results(ctx.lake, ctx.run_id, checks)

    return _asset


def _materialization(lake, output: Output, result: UnitResult) -> dg.MaterializeResult:
    extra = {"unit_status": result.status, **result.summary.metadata()}
    metadata = table_metadata(lake, output.table, output.preview, extra)
    return dg.MaterializeResult(
        asset_key=asset_key(output.table),
        metadata=metadata,
        # Unchanged Delta version, unchanged data: Dagster shows it as the same version.
        data_version=dg.DataVersion(str(lake.version(output.table))),
    )


@dataclass(frozen=True)
class UnitAsset:
    """How one lake unit appears in Dagster: its outputs as assets, its contracts as checks
    on the first output. Dagster's runs (unit_asset) and `claimhouse run`'s runless events
    (orchestration.runless) both read these."""

    unit: Unit
    name: str
    outputs: tuple[Output, ...]
    contracts: tuple[str, ...]
    deps: tuple[str, ...] = ()

    def checks(self) -> list[dg.AssetCheckSpec]:
        return contract_check_specs(asset_key(self.outputs[0].table), *self.contracts)

    def build(self) -> dg.AssetsDefinition:
        return unit_asset(self.unit, self.name, self.outputs, self.contracts, self.deps)


# Input folder -> bronze.articles and bronze.rejects; bronze.ingest_log's rules (every file seen
# is an article or a reject) guard bronze/articles.
BRONZE_INGEST = UnitAsset(
    bronze.UNIT,
    "bronze_ingest",
    (
        Output(
            BRONZE_ARTICLES.name,
            BRONZE_ARTICLES.description,
            ("source_uri", "outlet", "title", "published_at", "char_count"),
        ),
        Output(
            BRONZE_REJECTS.name,
            BRONZE_REJECTS.description,
            ("source_uri", "reason", "size_bytes"),
        ),
    ),
    contracts=(BRONZE_ARTICLES.name, "bronze.ingest_log"),
)
# New bronze articles -> silver.claims, rule breakers to silver.claims_quarantine.
SILVER_CLAIMS_ASSET = UnitAsset(
    silver_claims.UNIT,
    "silver_claims",
    (
        Output(
            SILVER_CLAIMS.name,
            SILVER_CLAIMS.description,
            ("claim_text", "kind", "value", "unit", "measure_key", "attribution_kind"),
        ),
        Output(
            SILVER_CLAIMS_QUARANTINE.name,
            SILVER_CLAIMS_QUARANTINE.description,
            ("claim_text", "kind", "measure_key", "rules_broken"),
        ),
    ),
    contracts=(SILVER_CLAIMS.name,),
    deps=(BRONZE_ARTICLES.name,),
)
# bronze.articles -> silver.article_stories (and the articles' terms).
SILVER_STORIES_ASSET = UnitAsset(
    silver_stories.UNIT,
    "silver_stories",
    (
        Output(
            SILVER_ARTICLE_STORIES.name,
            SILVER_ARTICLE_STORIES.description,
            ("story_id", "article_id", "story_size", "story_method"),
        ),
    ),
    contracts=(SILVER_ARTICLE_STORIES.name,),
    deps=(BRONZE_ARTICLES.name,),
)
UNIT_ASSETS = (BRONZE_INGEST, SILVER_CLAIMS_ASSET, SILVER_STORIES_ASSET)
