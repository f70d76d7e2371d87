"""Write and read N rows through lake.storage; prints one JSON object with rows/s and memory.

    .venv/bin/python benchmarks/storage_throughput.py --rows 1000000 5000000

Rows look like silver claims (ids, a double, short strings), generated on the executors:
nothing is collected on the driver, so the driver's memory should stay flat as N grows.
"""

from __future__ import annotations

import argparse
import json
import platform
import resource
import shutil
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from pyspark.sql import functions as F
from pyspark.sql.types import DoubleType, LongType, StringType, StructField, StructType

from lake.config import load_settings
from lake.schemas import TableSpec
from lake.spark import get_spark
from lake.storage import Lake

SPEC = TableSpec(
    name="bench.claims",
    key=("claim_id",),
    description="benchmark rows",
    schema=StructType(
        [
            StructField("claim_id", StringType(), False),
            StructField("article_id", StringType(), False),
            StructField("sentence_index", LongType(), False),
            StructField("value", DoubleType(), True),
            StructField("unit", StringType(), True),
            StructField("claim_text", StringType(), True),
        ]
    ),
)


def rows_df(spark, n: int):
    return spark.range(n).select(
        F.sha2(F.col("id").cast("string"), 256).alias("claim_id"),
        F.sha2((F.col("id") % 5000).cast("string"), 256).alias("article_id"),
        (F.col("id") % 40).alias("sentence_index"),
        (F.col("id") % 100000).cast("double").alias("value"),
        F.element_at(
            F.array(*map(F.lit, ["troops", "arrests", "agents", "percent"])),
            (F.col("id") % 4 + 1).cast("int"),
        ).alias("unit"),
        F.concat(
            F.lit("up to "),
            F.format_number(F.col("id") % 100000, 0),
            F.lit(" National Guard troops"),
        ).alias("claim_text"),
    )


def jvm_peak_rss_mb(spark) -> float | None:
    pid = spark.sparkContext._jvm.java.lang.ProcessHandle.current().pid()
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        return None
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", type=int, nargs="+", default=[1_000_000, 5_000_000])
    parser.add_argument("--master", default="local[*]")
    args = parser.parse_args()
    workdir = Path(tempfile.mkdtemp(prefix="claimhouse-bench-"))
    try:
        settings = load_settings(warehouse=workdir, spark_master=args.master)
        started = time.perf_counter()
        spark = get_spark(settings)
        jvm_start = time.perf_counter() - started
        # Warm the JVM (class loading, JIT) so the first measured size is not penalised.
        warm = Lake(spark, workdir / "warmup")
        warm.append(SPEC, rows_df(spark, 100_000))
        warm.read(SPEC.name).count()
        results = []
        for n in args.rows:
            lake = Lake(spark, workdir / f"n{n}")
            lake.ensure(SPEC)
            t0 = time.perf_counter()
            lake.append(SPEC, rows_df(spark, n))
            write_s = time.perf_counter() - t0
            t0 = time.perf_counter()
            scanned = (
                lake.read(SPEC.name)
                .agg(
                    F.count("*").alias("rows"),
                    F.sum(F.length("claim_text")).alias("chars"),
                    F.sum("value").alias("total"),
                )
                .first()
            )
            read_s = time.perf_counter() - t0
            assert scanned["rows"] == n, (scanned["rows"], n)
            size = sum(p.stat().st_size for p in lake.path(SPEC.name).rglob("*.parquet"))
            results.append(
                {
                    "rows": n,
                    "write_s": round(write_s, 2),
                    "write_rows_per_s": round(n / write_s),
                    "read_s": round(read_s, 2),
                    "read_rows_per_s": round(n / read_s),
                    "parquet_mb": round(size / 2**20, 1),
                    "driver_python_peak_rss_mb": round(
                        resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1
                    ),
                    "driver_jvm_peak_rss_mb": jvm_peak_rss_mb(spark),
                }
            )
        print(
            json.dumps(
                {
                    "benchmark": "storage_throughput",
                    "date": datetime.now(UTC).isoformat(timespec="seconds"),
                    "machine": f"{platform.machine()}, {__import__('os').cpu_count()} cores",
                    "master": args.master,
                    "spark_start_s": round(jvm_start, 1),
                    "results": results,
                },
                indent=2,
            )
        )
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
