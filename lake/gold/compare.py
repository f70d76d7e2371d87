"""Compare the gold tables of two warehouses row for row (the cluster benchmark and its test:
a standalone cluster must build the same gold as `local[*]`)."""

from __future__ import annotations

from pathlib import Path

from pyspark.sql import SparkSession

from lake.storage import Lake

GOLD_TABLES = ("gold.facts", "gold.fact_evidence", "gold.fact_conflicts")
# Differ between any two runs by design: when and by which run a row was written.
RUN_COLUMNS = {"run_id", "first_seen"}


def gold_differences(
    spark: SparkSession,
    warehouse_a: Path,
    warehouse_b: Path,
    version_a: int | None = None,
) -> dict[str, dict[str, int]]:
    """Per gold table: rows only in a, rows only in b (duplicates counted), and both row
    counts. `version_a` reads a's tables as of that Delta version (time travel)."""
    lake_a, lake_b = Lake(spark, warehouse_a), Lake(spark, warehouse_b)
    result = {}
    for table in GOLD_TABLES:
        a, b = lake_a.read(table, version_a), lake_b.read(table)
        columns = sorted(c for c in a.columns if c not in RUN_COLUMNS)
        if columns != sorted(c for c in b.columns if c not in RUN_COLUMNS):
            raise ValueError(f"{table}: the two warehouses' columns differ")
        a, b = a.select(columns), b.select(columns)
        result[table] = {
            "rows_a": a.count(),
            "rows_b": b.count(),
            "only_in_a": a.exceptAll(b).count(),
            "only_in_b": b.exceptAll(a).count(),
        }
    return result
