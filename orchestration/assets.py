"""Bronze and silver as Dagster assets: one lake call each, metadata from the tables written.

Asset keys are the lake's table names (`bronze.articles` -> `bronze/articles`), which is also
what dagster-dbt derives for the dbt sources, so lineage runs from files to gold unbroken.
"""

import dagster as dg

from lake.contracts.run import ContractViolation
from lake.pipeline import ingest_and_check
from lake.schemas import (
    BRONZE_ARTICLES,
    BRONZE_REJECTS,
    SILVER_ARTICLE_STORIES,
    SILVER_CLAIMS,
    SILVER_CLAIMS_QUARANTINE,
)
from lake.silver.publish import extract_new
from lake.silver.publish_stories import publish_stories
from orchestration.checks import contract_check_results, contract_check_specs
from orchestration.metadata import table_metadata
from orchestration.resources import LakeResource

BRONZE_ARTICLES_KEY = dg.AssetKey(["bronze", "articles"])
BRONZE_REJECTS_KEY = dg.AssetKey(["bronze", "rejects"])
SILVER_CLAIMS_KEY = dg.AssetKey(["silver", "claims"])
SILVER_QUARANTINE_KEY = dg.AssetKey(["silver", "claims_quarantine"])
SILVER_STORIES_KEY = dg.AssetKey(["silver", "article_stories"])

# Columns shown in each table's preview (presentation only; long text such as body left out).
PREVIEW_COLUMNS = {
    BRONZE_ARTICLES.name: ("source_uri", "outlet", "title", "published_at", "char_count"),
    BRONZE_REJECTS.name: ("source_uri", "reason", "size_bytes"),
    SILVER_CLAIMS.name: ("claim_text", "kind", "value", "unit", "measure_key", "attribution_kind"),
    SILVER_CLAIMS_QUARANTINE.name: ("claim_text", "kind", "measure_key", "rules_broken"),
}


def _spec(key: dg.AssetKey, description: str, deps=()) -> dg.AssetSpec:
    return dg.AssetSpec(
        key, description=description, deps=deps, group_name=key.path[0], kinds={"spark", "delta"}
    )


def build_bronze_ingest() -> dg.AssetsDefinition:
    """The bronze step, with one check per rule of bronze's contracts (read when called):
    bronze.ingest_log's rules (every file seen is an article or a reject) guard bronze/articles.
    """
    checks = contract_check_specs(BRONZE_ARTICLES_KEY, "bronze.articles", "bronze.ingest_log")

    @dg.multi_asset(
        name="bronze_ingest",
        specs=[
            _spec(BRONZE_ARTICLES_KEY, BRONZE_ARTICLES.description),
            _spec(BRONZE_REJECTS_KEY, BRONZE_REJECTS.description),
        ],
        check_specs=checks,
    )
    def bronze_ingest(context: dg.AssetExecutionContext, lake: LakeResource):
        """Input folder -> bronze.articles and bronze.rejects, then bronze's contracts
        (lake.pipeline.ingest_and_check). A broken `fail` rule fails its blocking check."""
        with lake.open(context.run.run_id) as h:
            try:
                summary = ingest_and_check(h.spark, h.lake, h.settings, h.run_id)
            except ContractViolation as violation:
                context.log.error(str(violation))
                yield from contract_check_results(h.lake, h.run_id, checks)
                raise
            context.log.info(
                f"bronze: {summary.files_seen} files seen = {summary.new_articles} new articles + "
                f"{summary.unchanged} unchanged + {summary.duplicates} duplicates + "
                f"{summary.rejected} rejected + {summary.sidecars} sidecars"
            )
            yield dg.MaterializeResult(
                asset_key=BRONZE_ARTICLES_KEY,
                metadata=table_metadata(
                    h.lake,
                    BRONZE_ARTICLES.name,
                    PREVIEW_COLUMNS[BRONZE_ARTICLES.name],
                    {
                        "input_dir": dg.MetadataValue.path(str(h.settings.input_dir)),
                        "files_seen": summary.files_seen,
                        "files_read": summary.files_read,
                        "new_articles": summary.new_articles,
                        "unchanged": summary.unchanged,
                        "duplicates": summary.duplicates,
                        "sidecars": summary.sidecars,
                    },
                ),
            )
            yield dg.MaterializeResult(
                asset_key=BRONZE_REJECTS_KEY,
                metadata=table_metadata(
                    h.lake,
                    BRONZE_REJECTS.name,
                    PREVIEW_COLUMNS[BRONZE_REJECTS.name],
                    {"rejected_this_run": summary.rejected},
                ),
            )
            yield from contract_check_results(h.lake, h.run_id, checks)

    return bronze_ingest


def build_silver_extract() -> dg.AssetsDefinition:
    """The silver step, with one check per rule of silver.claims' contract (read when called)."""
    checks = contract_check_specs(SILVER_CLAIMS_KEY, "silver.claims")

    @dg.multi_asset(
        name="silver_extract",
        specs=[
            _spec(SILVER_CLAIMS_KEY, SILVER_CLAIMS.description, deps=[BRONZE_ARTICLES_KEY]),
            _spec(
                SILVER_QUARANTINE_KEY,
                SILVER_CLAIMS_QUARANTINE.description,
                deps=[BRONZE_ARTICLES_KEY],
            ),
            _spec(
                SILVER_STORIES_KEY, SILVER_ARTICLE_STORIES.description, deps=[BRONZE_ARTICLES_KEY]
            ),
        ],
        check_specs=checks,
    )
    def silver_extract(context: dg.AssetExecutionContext, lake: LakeResource):
        """New bronze articles -> silver.claims, rule breakers to silver.claims_quarantine
        (lake.silver.publish.extract_new, which enforces silver.claims' contract)."""
        with lake.open(context.run.run_id) as h:
            try:
                summary = extract_new(
                    h.spark, h.lake, h.run_id, budget_s_per_100kb=h.settings.extract_budget_s
                )
            except ContractViolation as violation:
                context.log.error(str(violation))
                yield from contract_check_results(h.lake, h.run_id, checks)
                raise
            context.log.info(
                f"silver: {summary.articles_processed} articles -> {summary.claims} claims, "
                f"{summary.quarantined} quarantined (extractor {summary.extractor_version})"
            )
            run = {
                "articles_processed": summary.articles_processed,
                "extractor_version": summary.extractor_version,
            }
            yield dg.MaterializeResult(
                asset_key=SILVER_CLAIMS_KEY,
                metadata=table_metadata(
                    h.lake,
                    SILVER_CLAIMS.name,
                    PREVIEW_COLUMNS[SILVER_CLAIMS.name],
                    {
                        **run,
                        "claims_this_run": summary.claims,
                        "rows_quarantined": summary.quarantined,
                    },
                ),
            )
            yield dg.MaterializeResult(
                asset_key=SILVER_QUARANTINE_KEY,
                metadata=table_metadata(
                    h.lake,
                    SILVER_CLAIMS_QUARANTINE.name,
                    PREVIEW_COLUMNS[SILVER_CLAIMS_QUARANTINE.name],
                    {**run, "rows_quarantined": summary.quarantined},
                ),
            )
            stories = publish_stories(h.spark, h.lake, h.run_id)
            context.log.info(stories.describe())
            yield dg.MaterializeResult(
                asset_key=SILVER_STORIES_KEY,
                metadata=table_metadata(
                    h.lake,
                    SILVER_ARTICLE_STORIES.name,
                    ("story_id", "article_id", "story_size", "story_method"),
                    {"rows_changed_this_run": stories.changed, "placement": stories.mode},
                ),
            )
            yield from contract_check_results(h.lake, h.run_id, checks)

    return silver_extract
