"""Validate silver.claims at N rows against its contract; prints one JSON object.

    .venv/bin/python benchmarks/contract_validation.py --rows 1000000

The seeds go through bronze and silver once; then their articles are copied (each copy a new
article_id, same body) and their claims with them, until silver.claims holds N rows that
all satisfy the contract. Reported beside each other:
- write_s: the Delta write of those N claims (what the pipeline pays anyway),
- validate_s: the GE checkpoint over every rule of expectations/contracts/silver.claims.yml
  (column rules, row rules, the joins to bronze.articles for spans and attributions),
- severities_s: applying the severities (finding quarantine rows; none here),
- record_s: appending the rule results to audit.dq_results.
"""

from __future__ import annotations

import argparse
import json
import platform
import shutil
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from pyspark.sql import functions as F

from lake.bronze.ingest import ingest
from lake.config import REPO_ROOT, load_settings
from lake.contracts import (
    CONTRACTS_DIR,
    apply_severities,
    load_contracts,
    record_results,
    validate,
)
from lake.schemas import BRONZE_ARTICLES, SILVER_CLAIMS
from lake.silver.publish import extract_new
from lake.spark import get_spark
from lake.storage import Lake


def _copies(spark, n: int):
    return spark.range(n).withColumnRenamed("id", "copy")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--master", default="local[*]")
    args = parser.parse_args()
    workdir = Path(tempfile.mkdtemp(prefix="claimhouse-bench-"))
    try:
        settings = load_settings(warehouse=workdir / "seed", spark_master=args.master)
        spark = get_spark(settings)
        seed = Lake(spark, settings.warehouse)
        ingest(spark, seed, REPO_ROOT / "seeds", "seed", 5 * 1024 * 1024)
        extract_new(spark, seed, "seed")
        articles = seed.read("bronze.articles").persist()
        claims = seed.read("silver.claims").persist()
        per_copy = claims.count()
        copies = -(-args.rows // per_copy)

        lake = Lake(spark, workdir / "big")
        new_id = F.sha2(F.concat_ws(":", "article_id", F.col("copy").cast("string")), 256)
        lake.append(
            BRONZE_ARTICLES,
            articles.crossJoin(_copies(spark, copies))
            .withColumn("article_id", new_id)
            # A distinct tail per copy, after the text, so spans stay valid and bodies do not
            # compress to nothing as identical values would.
            .withColumn("body", F.concat("body", F.lit("\n\n[copy "), "copy", F.lit("]")))
            .withColumn("char_count", F.length("body"))
            .drop("copy")
            .select(*BRONZE_ARTICLES.schema.fieldNames()),
        )
        big_claims = (
            claims.crossJoin(_copies(spark, copies))
            .withColumn("article_id", new_id)
            .withColumn("claim_id", F.sha2(F.concat_ws(":", "claim_id", "article_id"), 256))
            .drop("copy")
            .limit(args.rows)
            .select(*SILVER_CLAIMS.schema.fieldNames())
        )
        lake.ensure(SILVER_CLAIMS)
        t0 = time.perf_counter()
        lake.append(SILVER_CLAIMS, big_claims)
        write_s = time.perf_counter() - t0
        rows = lake.count("silver.claims")

        contract = load_contracts(CONTRACTS_DIR)["silver.claims"]
        table = lake.read("silver.claims")
        t0 = time.perf_counter()
        report = validate(spark, lake, contract, table, "bench")
        validate_s = time.perf_counter() - t0
        t0 = time.perf_counter()
        _, quarantined = apply_severities(spark, lake, contract, table, report)
        severities_s = time.perf_counter() - t0
        t0 = time.perf_counter()
        record_results(spark, lake, report, "bench")
        record_s = time.perf_counter() - t0
        broken = {r.rule: r.unexpected_count for r in report.failed()}
        print(
            json.dumps(
                {
                    "benchmark": "contract_validation",
                    "date": datetime.now(UTC).strftime("%Y-%m-%d"),
                    "machine": f"{platform.machine()}, {spark.sparkContext.defaultParallelism}"
                    " cores",
                    "master": args.master,
                    "claim_rows": rows,
                    "articles": copies * articles.count(),
                    "rules": len(report.results),
                    "rules_broken": broken,
                    "quarantined_rows": 0 if quarantined is None else quarantined.count(),
                    "write_s": round(write_s, 2),
                    "validate_s": round(validate_s, 2),
                    "severities_s": round(severities_s, 2),
                    "record_s": round(record_s, 2),
                    "validation_over_write": round(validate_s / write_s, 2),
                }
            )
        )
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
