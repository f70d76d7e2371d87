"""Claim extraction throughput: Spark (local[*]) vs the same library in one Python process.

    .venv/bin/python benchmarks/extraction_throughput.py --mb 200

Builds a corpus by replicating the seed articles with a unique line appended to each copy (so
every copy is a distinct article), ingests it into bronze, then times silver extraction with
Spark and the plain loop over the same bodies. Prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from lake.bronze.ingest import ingest
from lake.bronze.parse import normalize_body
from lake.config import REPO_ROOT, load_settings
from lake.silver.extract import extract_claims
from lake.silver.publish import extract_new
from lake.spark import get_spark
from lake.storage import Lake


def build_corpus(folder: Path, megabytes: float) -> tuple[int, int]:
    seeds = [p.read_text(encoding="utf-8") for p in sorted((REPO_ROOT / "seeds").glob("*.txt"))]
    target, written, count = megabytes * 2**20, 0, 0
    while written < target:
        text = seeds[count % len(seeds)] + f"\nCorpus copy {count}."
        sub = folder / f"{count // 1000:04d}"
        sub.mkdir(exist_ok=True)
        (sub / f"{count:07d}.txt").write_text(text, encoding="utf-8")
        written += len(text.encode())
        count += 1
    return count, written


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--mb", type=float, default=200.0, help="corpus size in MB of text")
    parser.add_argument("--master", default="local[*]")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="claimhouse-extract-bench-"))
    try:
        corpus = work / "corpus"
        corpus.mkdir()
        articles, size = build_corpus(corpus, args.mb)
        settings = load_settings(warehouse=work / "wh", spark_master=args.master)
        spark = get_spark(settings)
        cores = spark.sparkContext.defaultParallelism
        lake = Lake(spark, settings.warehouse)
        t0 = time.perf_counter()
        ingest(spark, lake, corpus, "bench", 5 * 2**20)
        ingest_s = time.perf_counter() - t0
        t0 = time.perf_counter()
        silver = extract_new(spark, lake, "bench")
        spark_s = time.perf_counter() - t0

        t0 = time.perf_counter()
        plain_claims = 0
        for path in sorted(corpus.rglob("*.txt")):
            body = normalize_body(path.read_text(encoding="utf-8"))
            plain_claims += len(extract_claims(path.name, body))
        plain_s = time.perf_counter() - t0
        mb = size / 2**20
        print(
            json.dumps(
                {
                    "benchmark": "extraction_throughput",
                    "date": datetime.now(UTC).isoformat(timespec="seconds"),
                    "machine": f"{os.cpu_count()} cores",
                    "master": args.master,
                    "articles": articles,
                    "text_mb": round(mb, 1),
                    "bronze_ingest_s": round(ingest_s, 1),
                    "spark_extract_s": round(spark_s, 1),
                    # the extraction job alone (mapInPandas), without the batch's contract,
                    # the claims MERGE and the extraction log
                    "spark_extraction_only_s": round(silver.extraction_s, 1),
                    "spark_mb_per_s": round(mb / spark_s, 3),
                    "spark_mb_per_s_per_core": round(mb / spark_s / cores, 3),
                    "plain_python_s": round(plain_s, 1),
                    "plain_python_mb_per_s": round(mb / plain_s, 3),
                    "claims_spark": silver.claims + silver.quarantined,
                    "claims_plain": plain_claims,
                },
                indent=2,
            )
        )
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
