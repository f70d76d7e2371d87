"""Compare the tables of two warehouses row for row: a standalone cluster must build the same
gold as `local[*]`, and Dagster the same tables as `claimhouse run`."""

from __future__ import annotations

from pathlib import Path

from pyspark.sql import DataFrame, SparkSession
from pyspark.sql.types import TimestampType

from lake.schemas import GOLD_TABLES
from lake.storage import Lake

# Differ between any two runs by design: which run wrote a row, and when.
RUN_COLUMNS = {"run_id", "first_seen"}
# Data, not bookkeeping: kept although it is a timestamp.
DATA_TIMESTAMPS = {"published_at"}
# What a run publishes (the logs, ingest_log and extractions, say when and by which run).
LAKE_TABLES = (
    "bronze.articles",
    "bronze.rejects",
    "silver.claims",
    "silver.claims_quarantine",
    "silver.article_terms",
    "silver.article_stories",
    *GOLD_TABLES,
)


def comparable(df: DataFrame) -> DataFrame:
    """The columns two runs of the same input must agree on, sorted by name: not the run id,
    nor the times a row was written."""
    kept = [
        f.name
        for f in df.schema.fields
        if f.name not in RUN_COLUMNS
        and not (isinstance(f.dataType, TimestampType) and f.name not in DATA_TIMESTAMPS)
    ]
    return df.select(sorted(kept))


def table_differences(
    spark: SparkSession,
    warehouse_a: Path,
    warehouse_b: Path,
    tables: tuple[str, ...] = LAKE_TABLES,
    version_a: int | None = None,
) -> dict[str, dict[str, int]]:
    """Per table: rows only in a, rows only in b (duplicates counted), and both row counts.
    `version_a` reads a's tables as of that Delta version (time travel)."""
    lake_a, lake_b = Lake(spark, warehouse_a), Lake(spark, warehouse_b)
    result = {}
    for table in tables:
        a, b = comparable(lake_a.read(table, version_a)), comparable(lake_b.read(table))
        if a.columns != b.columns:
            raise ValueError(f"{table}: the two warehouses' columns differ")
        result[table] = {
            "rows_a": a.count(),
            "rows_b": b.count(),
            "only_in_a": a.exceptAll(b).count(),
            "only_in_b": b.exceptAll(a).count(),
        }
    return result


def gold_differences(
    spark: SparkSession, warehouse_a: Path, warehouse_b: Path, version_a: int | None = None
) -> dict[str, dict[str, int]]:
    """table_differences of the gold tables."""
    return table_differences(spark, warehouse_a, warehouse_b, GOLD_TABLES, version_a)
