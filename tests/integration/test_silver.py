"""Silver on real Spark and Delta: claims from the seeds, incremental runs, quarantine."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from pyspark.sql import functions as F

from lake.bronze.ingest import ingest
from lake.contracts.run import ContractViolation
from lake.schemas import SILVER_CLAIMS_QUARANTINE
from lake.silver.extract import EXTRACTOR_VERSION
from lake.silver.publish import _EXTRACTED, Budget, extract_new, publish_extracted

from ..conftest import SEEDS

LIMIT = 5 * 1024 * 1024


def test_seed_claims_land_in_silver_and_reruns_are_incremental(spark, lake, seeds_copy):
    ingest(spark, lake, seeds_copy, "r1", LIMIT, validate=False)
    first = extract_new(spark, lake, "r1")
    assert first.articles_processed == 5
    assert first.quarantined == 0
    assert lake.count("silver.claims") == first.claims
    row = (
        lake.read("silver.claims")
        .where(F.col("claim_text") == "up to 21,000 National Guard troops")
        .select(
            "value",
            "qualifier",
            "upper",
            "unit",
            "attribution_kind",
            "cited_outlet",
            "extractor_version",
            "run_id",
        )
        .collect()
    )
    assert [tuple(r) for r in row] == [
        (21000.0, "up_to", 21000.0, "troops", "document", "NBC News", EXTRACTOR_VERSION, "r1")
    ]
    # Every span indexes the bronze body exactly.
    bad_spans = (
        lake.read("silver.claims")
        .alias("c")
        .join(lake.read("bronze.articles").alias("a"), "article_id")
        .where(
            F.expr("substring(a.body, c.char_start + 1, c.char_end - c.char_start)")
            != F.col("c.claim_text")
        )
        .count()
    )
    assert bad_spans == 0

    version = lake.version("silver.claims")
    again = extract_new(spark, lake, "r2")
    assert (again.articles_processed, again.claims) == (0, 0)
    assert lake.version("silver.claims") == version  # no empty commit

    (seeds_copy / "005_new.txt").write_text(
        "Officials said about 2,500 troops arrived on Monday, according to the Pentagon."
    )
    ingest(spark, lake, seeds_copy, "r3", LIMIT, validate=False)
    third = extract_new(spark, lake, "r3")
    # The troops, and "Monday" as a vague date (the article states no publication date).
    assert (third.articles_processed, third.claims) == (1, 2)
    assert lake.count("silver.claims") == first.claims + 2
    added = sorted(
        tuple(r)
        for r in lake.read("silver.claims")
        .where(F.col("run_id") == "r3")
        .select("claim_text", "value", "qualifier", "attribution")
        .collect()
    )
    assert added == [
        ("Monday", None, "vague", "the Pentagon"),
        ("about 2,500 troops", 2500.0, "approximate", "the Pentagon"),
    ]


def test_a_new_extractor_version_reprocesses_everything(spark, lake):
    ingest(spark, lake, SEEDS, "r1", LIMIT, validate=False)
    old = extract_new(spark, lake, "r1", version="0.0.9")
    new = extract_new(spark, lake, "r2", version=EXTRACTOR_VERSION)
    assert new.articles_processed == 5
    versions = {r[0] for r in lake.read("silver.claims").select("extractor_version").collect()}
    assert versions == {EXTRACTOR_VERSION}
    assert lake.count("silver.claims") == new.claims == old.claims


def test_rows_breaking_a_rule_are_quarantined_not_dropped(spark, lake, tmp_path):
    publish = _crafted(
        spark,
        lake,
        tmp_path,
        lambda base: [
            {**base, "claim_id": "c-good"},
            {**base, "claim_id": "c-bad", "rules_broken": ["claims_per_article: over the budget"]},
            {**base, "claim_id": "c-null", "rules_broken": None},
        ],
    )
    summary = publish()
    assert (summary.claims, summary.quarantined) == (1, 2)
    assert [r[0] for r in lake.read("silver.claims").select("claim_id").collect()] == ["c-good"]
    quarantined = {
        r["claim_id"]: list(r["rules_broken"])
        for r in lake.read(SILVER_CLAIMS_QUARANTINE.name).collect()
    }
    assert quarantined == {
        "c-bad": ["claims_per_article: over the budget"],
        "c-null": ["rules_evaluated: no rule result for this row"],
    }


def _crafted(spark, lake, tmp_path, rows_fn):
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "a.txt").write_text("In all, 1 official spoke.")
    ingest(spark, lake, folder, "r1", LIMIT, validate=False)
    article_id = lake.read("bronze.articles").first()["article_id"]
    base = {
        **{f: None for f in _EXTRACTED.fieldNames()},
        "article_id": article_id,
        "sentence_index": 0,
        "char_start": 0,
        "char_end": 2,
        "claim_text": "In",
        "sentence": "In",
        "kind": "count",
        "value": 1.0,
        "value_text": "1",
        "qualifier": "exact",
        "measure_key": "k",
        "measure_terms": [],
        "attribution_kind": "unattributed",
        "rules_broken": [],
    }
    now = datetime.now(UTC)
    extracted = (
        spark.createDataFrame(rows_fn(base), _EXTRACTED)
        .withColumn("extractor_version", F.lit("t"))
        .withColumn("extracted_at", F.lit(now).cast("timestamp"))
        .withColumn("run_id", F.lit("r1"))
    )
    articles = lake.read("bronze.articles").select("article_id")
    return lambda: publish_extracted(spark, lake, extracted, articles, "t", "r1", now)


def test_the_contract_quarantines_a_claim_stripped_of_its_source(spark, lake, tmp_path):
    """named_person without an attribution breaks silver.claims' attribution_present rule."""
    publish = _crafted(
        spark,
        lake,
        tmp_path,
        lambda base: [
            {**base, "claim_id": "c-good"},
            {**base, "claim_id": "c-nosource", "attribution_kind": "named_person"},
        ],
    )
    summary = publish()
    assert (summary.claims, summary.quarantined) == (1, 1)
    assert [r[0] for r in lake.read("silver.claims").select("claim_id").collect()] == ["c-good"]
    quarantined = {
        r["claim_id"]: list(r["rules_broken"])
        for r in lake.read(SILVER_CLAIMS_QUARANTINE.name).collect()
    }
    assert quarantined == {"c-nosource": ["attribution_present"]}
    broken = (
        lake.read("audit.dq_results")
        .where("run_id = 'r1' AND NOT passed")
        .select("rule", "severity", "unexpected_count")
        .collect()
    )
    assert [tuple(r) for r in broken] == [("attribution_present", "quarantine", 1)]


def test_a_fail_rule_stops_before_silver_is_written(spark, lake, tmp_path):
    def duplicates(base):
        return [{**base, "claim_id": "c-dup"}, {**base, "claim_id": "c-dup"}]

    publish = _crafted(spark, lake, tmp_path, duplicates)
    with pytest.raises(ContractViolation) as raised:
        publish()
    message = " ".join(str(raised.value).split())
    assert "silver.claims" in message and "claim_id_unique" in message
    assert lake.count("silver.claims") == 0
    failed = lake.read("audit.dq_results").where("NOT passed").select("rule").collect()
    assert [r[0] for r in failed] == ["claim_id_unique"]


def test_an_article_over_its_time_budget_is_logged_with_the_reason_and_not_retried(
    spark, lake, seeds_copy
):
    """A zero budget: every article runs past it. Each is logged in silver.extractions with
    the reason and no claims, the run completes, and the next run does not try again."""
    ingest(spark, lake, seeds_copy, "r1", LIMIT, validate=False)
    first = extract_new(spark, lake, "r1", budget=Budget(0.0))
    assert (first.articles_processed, first.claims, first.quarantined, first.failed) == (5, 0, 0, 5)
    log = lake.read("silver.extractions").select("claims", "quarantined", "error").collect()
    assert {(r["claims"], r["quarantined"]) for r in log} == {(0, 0)}
    assert all(
        r["error"].startswith("extraction ran past its time budget at sentence 1 of ")
        and r["error"].endswith(" characters)")
        for r in log
    )
    assert lake.count("silver.claims") == lake.count("silver.claims_quarantine") == 0
    again = extract_new(spark, lake, "r2")
    assert (again.articles_processed, again.failed) == (0, 0)


def test_an_article_over_its_claim_budget_is_quarantined_whole_and_counted(spark, lake, tmp_path):
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "many.txt").write_text("About 40 people came. Some 12 cars stayed. Nearly 9 left.")
    (folder / "few.txt").write_text("About 250 protesters marched.")
    ingest(spark, lake, folder, "r1", LIMIT, validate=False)
    summary = extract_new(spark, lake, "r1", budget=Budget(5.0, claims=2))
    assert (summary.claims, summary.quarantined, summary.over_claim_budget) == (1, 3, 1)
    assert summary.describe().endswith(
        "; 1 articles over the claim budget, quarantined whole (rule claims_per_article)"
    )
    log = {
        r["claims"]: r["quarantined"]
        for r in lake.read("silver.extractions").select("claims", "quarantined").collect()
    }
    assert log == {0: 3, 1: 0}


def test_an_older_warehouse_gains_the_new_columns_of_the_extraction_log(spark, lake):
    """silver.extractions as an older claimhouse made it, without `error`, `published_at` and
    `outlet`: the next run adds the columns (old rows read null) instead of failing its MERGE."""
    from delta.tables import DeltaTable

    from lake.schemas import SILVER_EXTRACTIONS
    from lake.storage import _SCHEMA_CHECKED

    added = ("error", "published_at", "outlet")
    old_fields = [f for f in SILVER_EXTRACTIONS.schema.fields if f.name not in added]
    (
        DeltaTable.createIfNotExists(spark)
        .location(str(lake.path("silver.extractions")))
        .addColumns(old_fields)
        .execute()
    )
    spark.sql(
        f"INSERT INTO delta.`{lake.path('silver.extractions')}` "
        "VALUES ('old-article', '0.0.1', 3, 0, current_timestamp(), 'r0')"
    )
    _SCHEMA_CHECKED.pop("silver.extractions", None)
    ingest(spark, lake, SEEDS, "r1", LIMIT, validate=False)
    summary = extract_new(spark, lake, "r1")
    assert (summary.articles_processed, summary.failed) == (5, 0)
    rows = lake.read("silver.extractions").select("article_id", "error").collect()
    assert len(rows) == 6 and {r["error"] for r in rows} == {None}


def test_an_article_whose_publication_time_arrives_later_is_extracted_again(spark, lake, tmp_path):
    """Without a date, "on Tuesday" resolves to nothing; a late sidecar gives the article its
    publication time, and the next run extracts it again: the same claims, now dated, with no
    duplicate and no stale claim left behind."""
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "a.txt").write_text("About 40 people were hurt on Tuesday, officials said.")
    ingest(spark, lake, folder, "r1", LIMIT, validate=False)
    first = extract_new(spark, lake, "r1")
    assert (first.articles_processed, first.claims) == (1, 2)
    before = {r["claim_text"]: r["value_text"] for r in lake.read("silver.claims").collect()}
    assert before == {"About 40 people": "40", "Tuesday": None}
    (folder / "a.json").write_text('{"published_at": "2025-05-22T15:00:00Z"}')  # a Thursday
    ingest(spark, lake, folder, "r2", LIMIT, validate=False)
    again = extract_new(spark, lake, "r2")
    assert (again.articles_processed, again.claims) == (1, 2)
    after = {r["claim_text"]: r["value_text"] for r in lake.read("silver.claims").collect()}
    assert after == {"About 40 people": "40", "Tuesday": "2025-05-20"}
    log = lake.read("silver.extractions").collect()
    assert [(r["run_id"], str(r["published_at"].date())) for r in log] == [("r2", "2025-05-22")]
    assert extract_new(spark, lake, "r3").articles_processed == 0


def test_articles_ingested_during_an_extraction_wait_for_the_next_run(spark, lake, seeds_copy):
    """Silver reads bronze at the version its unit pinned at the start: an article another
    process ingests meanwhile gets no extraction row now (none empty, none lost) and is
    extracted by the next run."""
    ingest(spark, lake, seeds_copy, "r1", LIMIT, validate=False)
    pinned = lake.version("bronze.articles")
    (seeds_copy / "005_late.txt").write_text("Officials said 12 people were arrested.\n")
    ingest(
        spark, lake, seeds_copy, "r2", LIMIT, validate=False
    )  # lands while silver runs on `pinned`
    first = extract_new(spark, lake, "s1", bronze_version=pinned)
    assert first.articles_processed == 5
    logged = {r["article_id"] for r in lake.read("silver.extractions").collect()}
    late = lake.read("bronze.articles").where(F.col("source_uri") == "005_late.txt").first()
    assert late["article_id"] not in logged
    second = extract_new(spark, lake, "s2")
    assert (second.articles_processed, second.claims) == (1, 1)
