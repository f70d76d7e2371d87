"""bronze.articles -> silver.claims (+ quarantine), incrementally, on the executors."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import partial

import pandas as pd
from delta.tables import DeltaTable
from pyspark.sql import SparkSession
from pyspark.sql import functions as F
from pyspark.sql.types import ArrayType, StringType, StructField, StructType

from lake.config import Settings
from lake.contracts.enforce import enforce
from lake.layer import RunContext, Unit
from lake.schemas import (
    BRONZE_ARTICLES,
    SILVER_CLAIMS,
    SILVER_CLAIMS_QUARANTINE,
    SILVER_EXTRACTIONS,
)
from lake.silver.extract import EXTRACTOR_VERSION, ExtractionTimeout, extract_claims
from lake.storage import Lake

_EXTRACTED = StructType(
    [
        StructField(f.name, f.dataType, True)
        for f in SILVER_CLAIMS.schema.fields
        if f.name not in ("extractor_version", "extracted_at", "run_id")
    ]
    + [
        StructField("rules_broken", ArrayType(StringType()), True),
        # Set on an article's single row when its extraction raised or ran past its budget.
        StructField("extraction_error", StringType(), True),
    ]
)


@dataclass(frozen=True)
class SilverSummary:
    articles_processed: int
    claims: int
    quarantined: int
    extractor_version: str
    extraction_s: float = 0.0  # running the extractor over the articles, before any write
    failed: int = 0  # articles whose extraction raised or ran past its budget (see the log)
    over_claim_budget: int = 0  # articles quarantined whole: more claims than the budget

    def describe(self) -> str:
        """One line for the CLI and Dagster's run log."""
        if self.articles_processed < 0:
            return f"silver: claims unchanged (no new article; extractor {self.extractor_version})"
        return (
            f"silver: {self.claims} claims from {self.articles_processed} new articles, "
            f"{self.quarantined} quarantined (extractor {self.extractor_version})"
            + (
                f"; {self.failed} articles not extracted (see silver.extractions.error)"
                if self.failed
                else ""
            )
            + (
                f"; {self.over_claim_budget} articles over the claim budget, quarantined whole "
                f"(rule {CLAIM_BUDGET_RULE})"
                if self.over_claim_budget
                else ""
            )
        )

    def metadata(self) -> dict[str, object]:
        return {
            "articles_processed": max(self.articles_processed, 0),
            "claims_this_run": self.claims,
            "rows_quarantined": self.quarantined,
            "articles_failed": self.failed,
            "articles_over_claim_budget": self.over_claim_budget,
            "extractor_version": self.extractor_version,
            "extraction_s": round(self.extraction_s, 3),
        }


# Every column null: a missing key would reach Arrow as NaN, which no array column takes.
_NO_CLAIM = dict.fromkeys(_EXTRACTED.fieldNames())
# Gold compares the claims of a story pairwise: one article's claim count bounds that work.
CLAIM_BUDGET_RULE = "claims_per_article"


@dataclass(frozen=True)
class Budget:
    """What one article may cost silver: seconds per 100 KB of text, and claims."""

    seconds_per_100kb: float = Settings.extract_budget_s
    claims: int = Settings.max_claims_per_article


def article_rows(
    article_id: str,
    body: str,
    published_at: datetime | None,
    outlet: str | None,
    budget: Budget,
) -> list[dict]:
    """One article's claim rows; or, when the extractor raises or runs past the article's time
    budget, a single row naming the error. An article with more claims than the budget has
    every claim quarantined under CLAIM_BUDGET_RULE; the rules of single rows are the
    contract's, checked on the batch (publish_extracted). Never raises."""
    seconds = budget.seconds_per_100kb * max(1.0, len(body) / 100_000)
    try:
        claims = extract_claims(
            article_id, body, published_at, outlet, deadline=time.monotonic() + seconds
        )
        over = (
            [
                f"{CLAIM_BUDGET_RULE}: the article has {len(claims):,} claims, over the budget "
                f"of {budget.claims:,} (CLAIMHOUSE_MAX_CLAIMS_PER_ARTICLE); none is reconciled"
            ]
            if len(claims) > budget.claims
            else []
        )
        return [{**claim.as_row(), "rules_broken": over} for claim in claims]
    except Exception as err:  # one article must not stop the run: it is logged instead
        if isinstance(err, ExtractionTimeout):
            why = f"{err} ({seconds:.1f} s for {len(body):,} characters)"
        else:
            why = f"extractor error {type(err).__name__}: {str(err)[:200]}"
        return [{**_NO_CLAIM, "article_id": article_id, "extraction_error": why}]


def _extract_batches(budget: Budget, batches: Iterator[pd.DataFrame]) -> Iterator[pd.DataFrame]:
    names = _EXTRACTED.fieldNames()
    for batch in batches:
        rows = []
        for rec in batch.itertuples(index=False):
            published = None if pd.isna(rec.published_at) else rec.published_at.to_pydatetime()
            rows.extend(article_rows(rec.article_id, rec.body, published, rec.outlet, budget))
        if rows:  # an empty frame has no Arrow types to convert to the struct schema
            yield pd.DataFrame(rows, columns=names, dtype=object)


def extract_new(
    spark: SparkSession,
    lake: Lake,
    run_id: str,
    version: str = EXTRACTOR_VERSION,
    budget: Budget = Budget(),
    bronze_version: int | None = None,
) -> SilverSummary:
    """Extract claims from articles this extractor version has not processed yet, or whose
    publication time or outlet changed since (a corrected sidecar): relative dates resolve
    against the publication time, so such an article's claims are extracted again.
    bronze.articles is read at `bronze_version` (default: its current version)."""
    for spec in (SILVER_CLAIMS, SILVER_CLAIMS_QUARANTINE, SILVER_EXTRACTIONS):
        lake.ensure(spec)
    done = lake.read(SILVER_EXTRACTIONS.name).where(F.col("extractor_version") == version)
    # Pinned: `todo` is read again when the extraction log is written, and articles another
    # process ingests meanwhile must wait for the next run, not get an empty log row.
    if bronze_version is None:
        bronze_version = lake.version(BRONZE_ARTICLES.name)
    articles = lake.read(BRONZE_ARTICLES.name, version=bronze_version).alias("a")
    same = (
        (F.col("a.article_id") == F.col("d.article_id"))
        & F.col("a.published_at").eqNullSafe(F.col("d.published_at"))
        & F.col("a.outlet").eqNullSafe(F.col("d.outlet"))
    )
    todo = articles.join(done.alias("d"), same, "left_anti").select(
        "article_id", "body", "published_at", "outlet"
    )
    now = datetime.now(UTC)
    # Bronze may sit in a few large files: spread the articles over every core first.
    slots = spark.sparkContext.defaultParallelism * 2
    extracted = (
        todo.repartition(slots, "article_id")
        .mapInPandas(partial(_extract_batches, budget), _EXTRACTED)
        .withColumn("extractor_version", F.lit(version))
        .withColumn("extracted_at", F.lit(now).cast("timestamp"))
        .withColumn("run_id", F.lit(run_id))
        .persist()
    )
    try:
        started = time.perf_counter()
        extracted.count()  # materialize the cache here, so the extraction is timed on its own
        extraction_s = time.perf_counter() - started
        summary = publish_extracted(
            spark,
            lake,
            extracted,
            todo.select("article_id", "published_at", "outlet"),
            version,
            run_id,
            now,
        )
        return dataclasses.replace(summary, extraction_s=extraction_s)
    finally:
        extracted.unpersist()


def publish_extracted(spark, lake, extracted, articles, version, run_id, now) -> SilverSummary:
    """Split extracted rows into claims and quarantine, write both, log the articles."""
    for spec in (SILVER_CLAIMS, SILVER_CLAIMS_QUARANTINE, SILVER_EXTRACTIONS):
        lake.ensure(spec)
    failed = extracted.where(F.col("extraction_error").isNotNull()).select(
        "article_id", F.col("extraction_error").alias("error")
    )
    extracted = extracted.where(F.col("extraction_error").isNull())
    # coalesce: a row whose rule list is null is quarantined, never dropped.
    ok = F.coalesce(F.size("rules_broken") == 0, F.lit(False))
    flagged = extracted.withColumn(
        "rules_broken",
        F.coalesce("rules_broken", F.array(F.lit("rules_evaluated: no rule result for this row"))),
    )
    good = flagged.where(ok).select(*SILVER_CLAIMS.schema.fieldNames())
    bad = flagged.where(~ok).select(*SILVER_CLAIMS_QUARANTINE.schema.fieldNames())
    # Counted before the writes: read again after them, `extracted` would find its articles
    # already logged as done, and no rows.
    over_budget = bad.agg(
        F.count_distinct(
            F.when(
                F.exists("rules_broken", lambda r: r.startswith(f"{CLAIM_BUDGET_RULE}:")),
                F.col("article_id"),
            )
        )
    ).first()[0]
    if not good.isEmpty():
        # The table's contract (expectations/contracts/silver.claims.yml) checks the batch
        # before it is merged: `quarantine` rows go to silver.claims_quarantine with the rules
        # they broke, a `fail` rule stops the run here, before anything downstream.
        enforced = enforce(spark, lake, SILVER_CLAIMS.name, good, run_id, key="claim_id")
        good = enforced.good
        if enforced.quarantined_ids is not None:
            moved = enforced.quarantined_ids.withColumn("_moved", F.lit(True))
            extracted = extracted.join(moved, "claim_id", "left")
            ok = ok & F.col("_moved").isNull()
    _merge_claims(spark, lake, good, version, articles.select("article_id"))
    lake.merge_insert(SILVER_CLAIMS_QUARANTINE, bad)
    per_article = extracted.groupBy("article_id").agg(
        F.sum(ok.cast("int")).cast("int").alias("claims"),
        F.sum((~ok).cast("int")).cast("int").alias("quarantined"),
    )
    log = (
        articles.join(per_article, "article_id", "left")
        .join(failed, "article_id", "left")
        .select(
            "article_id",
            F.lit(version).alias("extractor_version"),
            F.coalesce("claims", F.lit(0)).alias("claims"),
            F.coalesce("quarantined", F.lit(0)).alias("quarantined"),
            F.lit(now).cast("timestamp").alias("extracted_at"),
            F.lit(run_id).alias("run_id"),
            "error",
            *(
                F.col(c) if c in articles.columns else F.lit(None).cast(t).alias(c)
                for c, t in (("published_at", "timestamp"), ("outlet", "string"))
            ),
        )
    )
    # Upsert: an article extracted again (its metadata changed) gets this run's row.
    lake.merge_upsert(SILVER_EXTRACTIONS, log)
    totals = (
        lake.read(SILVER_EXTRACTIONS.name)
        .where(F.col("run_id") == run_id)
        .agg(
            F.count("*").alias("n"),
            F.sum("claims").alias("c"),
            F.sum("quarantined").alias("q"),
            F.count("error").alias("e"),
        )
        .first()
    )
    return SilverSummary(
        int(totals["n"]),
        int(totals["c"] or 0),
        int(totals["q"] or 0),
        version,
        failed=int(totals["e"] or 0),
        over_claim_budget=over_budget,
    )


def _merge_claims(spark: SparkSession, lake: Lake, good, version: str, articles) -> None:
    """One atomic commit: new claims in, claims of older extractor versions out, and an
    article extracted again keeps exactly its new claims (the old ones it no longer has are
    `gone`: deleted by the same MERGE)."""
    current = lake.read(SILVER_CLAIMS.name)
    older = current.where(F.col("extractor_version") != version)
    gone = (
        current.where(F.col("extractor_version") == version)
        .join(articles, "article_id", "left_semi")
        .join(good.select("claim_id"), "claim_id", "left_anti")
    )
    has_older = not older.isEmpty()  # one small query: 0.2 s at 10k
    if good.isEmpty() and not has_older and gone.isEmpty():
        return  # nothing to change: no empty commit, the table's version stays
    columns = SILVER_CLAIMS.schema.fieldNames()
    source = good.select(*columns, F.lit(False).alias("_gone")).unionByName(
        gone.select(*columns, F.lit(True).alias("_gone"))
    )
    values = {c: f"s.`{c}`" for c in columns}
    target = DeltaTable.forPath(spark, str(lake.path(SILVER_CLAIMS.name)))
    merge = (
        target.alias("t")
        .merge(source.alias("s"), "t.claim_id = s.claim_id")
        .whenMatchedDelete(condition="s._gone")
        .whenMatchedUpdate(set=values)
        .whenNotMatchedInsert(condition="NOT s._gone", values=values)
    )
    if has_older:
        # Only then: this clause joins the batch against every claim in the table.
        merge = merge.whenNotMatchedBySourceDelete(condition=f"t.extractor_version <> '{version}'")
    merge.execute()


def _build(ctx: RunContext, inputs: Mapping[str, int]) -> SilverSummary:
    return extract_new(
        ctx.spark,
        ctx.lake,
        ctx.run_id,
        budget=Budget(ctx.settings.extract_budget_s, ctx.settings.max_claims_per_article),
        bronze_version=inputs[BRONZE_ARTICLES.name],
    )


UNIT = Unit(
    name="silver.claims",
    inputs=(BRONZE_ARTICLES.name,),
    outputs=(SILVER_CLAIMS.name, SILVER_CLAIMS_QUARANTINE.name, SILVER_EXTRACTIONS.name),
    build=_build,
    doing="extracting claims from new articles",
    code_version=lambda settings: EXTRACTOR_VERSION,
    unchanged=lambda: SilverSummary(-1, 0, 0, EXTRACTOR_VERSION),
    shown=(SILVER_CLAIMS.name, SILVER_CLAIMS_QUARANTINE.name),
    contracts=(SILVER_CLAIMS.name,),
)
