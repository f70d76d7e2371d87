"""The storage layer on real Delta tables: writes, merges, versions, time travel, catalog."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import datetime

import pytest
from pyspark.sql.types import IntegerType, StringType, StructField, StructType

from lake import storage
from lake.schemas import AUDIT_LAYER_RUNS, CHANGE_FEED, TableSpec
from lake.spark import local_frame
from lake.storage import Lake, LakeError

SPEC = TableSpec(
    name="test.items",
    key=("item_id",),
    description="test table",
    schema=StructType(
        [
            StructField("item_id", StringType(), False),
            StructField("qty", IntegerType(), True),
        ]
    ),
)


def rows(df) -> set[tuple]:
    return {tuple(r) for r in df.collect()}


def test_ensure_creates_empty_table_with_schema(lake, warehouse):
    lake.ensure(SPEC)
    assert (warehouse / "test" / "items" / "_delta_log").is_dir()
    assert lake.read("test.items").schema == SPEC.schema
    assert lake.count("test.items") == 0
    assert lake.version("test.items") == 0


def test_append_then_read_back_and_time_travel(spark, lake):
    v1 = lake.append(SPEC, spark.createDataFrame([("a", 1), ("b", 2)], SPEC.schema))
    v2 = lake.append(SPEC, spark.createDataFrame([("c", 3)], SPEC.schema))
    assert (v1, v2) == (1, 2)
    assert rows(lake.read("test.items")) == {("a", 1), ("b", 2), ("c", 3)}
    assert rows(lake.read("test.items", version=1)) == {("a", 1), ("b", 2)}
    # The same through SQL on the registered name.
    assert rows(spark.sql("SELECT * FROM test.items VERSION AS OF 0")) == set()
    assert rows(spark.sql("SELECT item_id FROM test.items VERSION AS OF 2 WHERE qty > 1")) == {
        ("b",),
        ("c",),
    }


def test_rows_held_in_python_append_as_spark_would_read_them(spark, lake):
    # An audit record: maps, timestamps, nulls, as dicts; and tuples against a DDL schema.
    record = {
        "run_id": "r1",
        "unit": "gold",
        "status": "published",
        "code_version": "0.11.5",
        "inputs": {"silver.claims": 7, "bronze.articles": 3},
        "outputs": {},
        "started_at": datetime(2026, 12, 7, 14, 0, 1, 250),
        "finished_at": datetime(2026, 12, 7, 14, 0, 9),
        "summary": None,
        "error": "gold.facts breaks rule x",
    }
    version = lake.append_rows(AUDIT_LAYER_RUNS, [record])
    assert [r.asDict() for r in lake.read(AUDIT_LAYER_RUNS.name, version=version).collect()] == [
        record
    ]
    # No rows, no commit, as a DataFrame write of none.
    assert lake.append(AUDIT_LAYER_RUNS, spark.createDataFrame([], AUDIT_LAYER_RUNS.schema)) == (
        lake.append_rows(AUDIT_LAYER_RUNS, [])
    )
    assert lake.count(AUDIT_LAYER_RUNS.name) == 1
    ddl = "source_uri string, size_bytes long"
    held = [("a.txt", 10), ("b.txt", None)]
    assert local_frame(spark, held, ddl).collect() == spark.createDataFrame(held, ddl).collect()


def test_the_change_feed_lists_what_each_version_changed_until_vacuumed(spark, lake):
    fed = TableSpec("test.fed", SPEC.schema, SPEC.key, "items", CHANGE_FEED)
    lake.ensure(fed)
    lake.append(fed, spark.createDataFrame([("a", 1), ("b", 2)], SPEC.schema))
    lake.merge_upsert(fed, spark.createDataFrame([("b", 3), ("c", 4)], SPEC.schema))
    changes = lake.changes("test.fed", 1, 2).select("item_id", "qty", "_change_type")
    assert rows(changes) == {
        ("b", 2, "update_preimage"),
        ("b", 3, "update_postimage"),
        ("c", 4, "insert"),
    }
    assert lake.changes_readable("test.fed", 0, 2)
    assert lake.changes_readable("test.fed", 2, 2)  # nothing to read
    spark.conf.set("spark.databricks.delta.retentionDurationCheck.enabled", "false")
    try:
        spark.sql(f"VACUUM delta.`{lake.path('test.fed')}` RETAIN 0 HOURS")
    finally:
        spark.conf.unset("spark.databricks.delta.retentionDurationCheck.enabled")
    assert not lake.changes_readable("test.fed", 1, 2)


def test_an_older_table_gains_its_spec_s_properties_and_no_feed_before(spark, lake):
    lake.ensure(SPEC)
    lake.append(SPEC, spark.createDataFrame([("a", 1)], SPEC.schema))
    assert not lake.changes_readable("test.items", 0, 1)  # no change data feed then
    fed = TableSpec("test.items", SPEC.schema, SPEC.key, "items", CHANGE_FEED)
    lake.ensure(fed)
    assert lake.version("test.items") == 2  # the property's own commit
    lake.append(fed, spark.createDataFrame([("b", 2)], SPEC.schema))
    assert rows(lake.changes("test.items", 2, 3).select("item_id", "qty")) == {("b", 2)}
    assert not lake.changes_readable("test.items", 0, 3)


def test_merge_insert_is_idempotent(spark, lake):
    batch = spark.createDataFrame([("a", 1), ("b", 2)], SPEC.schema)
    first = lake.merge_insert(SPEC, batch)
    again = lake.merge_insert(SPEC, batch)
    assert first.inserted == 2
    assert again.inserted == 0
    # Existing keys keep their values; only the new key is added.
    third = lake.merge_insert(SPEC, spark.createDataFrame([("b", 99), ("c", 3)], SPEC.schema))
    assert third.inserted == 1
    assert rows(lake.read("test.items")) == {("a", 1), ("b", 2), ("c", 3)}


def test_history_lists_operations(spark, lake):
    lake.append(SPEC, spark.createDataFrame([("a", 1)], SPEC.schema))
    lake.merge_insert(SPEC, spark.createDataFrame([("b", 2)], SPEC.schema))
    ops = [(r["version"], r["operation"]) for r in lake.history("test.items").collect()]
    assert sorted(ops) == [(0, "CREATE TABLE"), (1, "WRITE"), (2, "MERGE")]


def test_not_null_is_enforced_by_delta(spark, lake):
    lake.ensure(SPEC)
    loose = StructType([StructField("item_id", StringType(), True), SPEC.schema["qty"]])
    with pytest.raises(Exception, match="NOT NULL|null"):
        lake.append(SPEC, spark.createDataFrame([(None, 1)], loose))
    assert lake.count("test.items") == 0


def test_catalog_follows_the_warehouse(spark, tmp_path):
    one, two = Lake(spark, tmp_path / "one"), Lake(spark, tmp_path / "two")
    one.append(SPEC, spark.createDataFrame([("from-one", 1)], SPEC.schema))
    two.append(SPEC, spark.createDataFrame([("from-two", 2)], SPEC.schema))
    one.register_all()
    assert rows(spark.sql("SELECT item_id FROM test.items")) == {("from-one",)}
    two.register_all()
    assert rows(spark.sql("SELECT item_id FROM test.items")) == {("from-two",)}
    # Re-pointing the name dropped metadata only: both tables keep their data.
    assert one.count("test.items") == 1 and two.count("test.items") == 1


def test_missing_table_error_names_known_tables(spark, lake):
    lake.ensure(SPEC)
    with pytest.raises(LakeError, match=r"no Delta table bronze.nope at .*; tables: test.items"):
        lake.read("bronze.nope")
    with pytest.raises(LakeError, match="table names are '<layer>.<table>'"):
        lake.path("articles")


READ_WITH_DELTA_RS = """
import json, sys
import pyarrow.parquet as pq
from deltalake import DeltaTable
table = DeltaTable(sys.argv[1])
rows = []
for uri in table.file_uris():
    rows += pq.read_table(uri).to_pylist()
print(json.dumps({"version": table.version(), "rows": rows}, default=str))
"""


def _in_another_process(script: str, table_path) -> str:
    """Run `script` with the table's path in a new Python process; its stdout."""
    done = subprocess.run(
        [sys.executable, "-c", script, str(table_path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_tables_are_readable_by_delta_rs(spark, lake):
    lake.append(SPEC, spark.createDataFrame([("a", 1), ("b", 2)], SPEC.schema))
    lake.merge_insert(SPEC, spark.createDataFrame([("c", 3)], SPEC.schema))
    read = json.loads(_in_another_process(READ_WITH_DELTA_RS, lake.path("test.items")))
    assert read["version"] == 2
    assert sorted((r["item_id"], r["qty"]) for r in read["rows"]) == [("a", 1), ("b", 2), ("c", 3)]


WRITE_WITH_DELTA_RS = """
import sys
import pyarrow as pa
from deltalake import write_deltalake
schema = pa.schema([pa.field("item_id", pa.string(), False), pa.field("qty", pa.int32())])
write_deltalake(sys.argv[1], pa.table({"item_id": ["z"], "qty": [9]}, schema), mode="append")
"""


def test_the_version_is_the_newest_commit_of_any_writer(spark, lake):
    """Runs pin inputs by `version`: it must match Delta's history, including a commit another
    process made after this one last looked at the table."""
    lake.append(SPEC, spark.createDataFrame([("a", 1)], SPEC.schema))
    assert lake.version("test.items") == 1
    _in_another_process(WRITE_WITH_DELTA_RS, lake.path("test.items"))
    assert lake.version("test.items") == 2  # before anything else reads the table again
    assert lake.history("test.items").agg({"version": "max"}).first()[0] == 2
    assert rows(lake.read("test.items")) == {("a", 1), ("z", 9)}


def test_run_metadata_lands_in_history(spark, lake):
    spark.conf.set("spark.databricks.delta.commitInfo.userMetadata", "claimhouse run r-1")
    try:
        lake.append(SPEC, spark.createDataFrame([("a", 1)], SPEC.schema))
    finally:
        spark.conf.unset("spark.databricks.delta.commitInfo.userMetadata")
    last = lake.history("test.items").orderBy("version", ascending=False).first()
    assert last["userMetadata"] == "claimhouse run r-1"
    assert isinstance(last["timestamp"], datetime)


def test_forget_other_warehouses_drops_only_foreign_names_and_keeps_their_data(
    spark, lake, tmp_path
):
    lake.append(SPEC, spark.createDataFrame([("a", 1)], SPEC.schema))
    other = Lake(spark, tmp_path / "other_warehouse")
    other.ensure(
        TableSpec(name="test.others", key=("item_id",), description="x", schema=SPEC.schema)
    )

    dropped = other.forget_other_warehouses()

    assert "test.items" in dropped and "test.others" not in dropped
    assert not spark.catalog.tableExists("test.items")
    assert spark.catalog.tableExists("test.others")
    # External table: the first warehouse's data is untouched and registers again.
    assert lake.count("test.items") == 1
    lake.register("test.items")
    assert rows(spark.sql("SELECT * FROM test.items")) == {("a", 1)}


def test_a_table_created_while_its_name_points_at_another_warehouse_takes_the_name(
    spark, lake, tmp_path
):
    """ensure() names a new table with its CREATE only when the name is free; a name held by
    another warehouse's table moves to the new one, whose data stays apart."""
    lake.append(SPEC, spark.createDataFrame([("a", 1)], SPEC.schema))
    other = Lake(spark, tmp_path / "other_warehouse")
    other.append(SPEC, spark.createDataFrame([("b", 2), ("c", 3)], SPEC.schema))

    assert (other.root / "test" / "items" / "_delta_log").is_dir()
    assert rows(spark.sql("SELECT * FROM test.items")) == {("b", 2), ("c", 3)}
    assert lake.count("test.items") == 1
    assert "test.items" in other.forget_other_warehouses() + lake.forget_other_warehouses()
    lake.register("test.items")
    assert rows(spark.sql("SELECT * FROM test.items")) == {("a", 1)}
    assert other.forget_other_warehouses() == ["test.items"]


def test_a_warehouse_deleted_under_a_live_process_is_made_again(spark, lake, warehouse):
    """The warm engine outlives a warehouse a user deletes: the names left pointing at it are
    dropped (a table named by dbt, not by Lake, too), and the tables are made again."""
    import shutil

    lake.append(SPEC, spark.createDataFrame([("a", 1)], SPEC.schema))
    spark.sql(
        f"CREATE TABLE test.made_elsewhere (x INT) USING DELTA LOCATION '{warehouse}/test/made'"
    )
    shutil.rmtree(warehouse)

    lake.append(SPEC, spark.createDataFrame([("b", 2)], SPEC.schema))
    assert rows(spark.sql("SELECT * FROM test.items")) == {("b", 2)}
    assert lake.forget_other_warehouses() == ["test.made_elsewhere"]
    assert lake.forget_other_warehouses() == []


def test_a_new_warehouse_after_the_last_one_was_deleted_gets_its_own_tables(
    spark, lake, warehouse, tmp_path
):
    """The warm engine ran into a warehouse that is gone now (its warm-up's, or one a user
    deleted), and the next run names another: the names left pointing at the deleted one are
    taken over by the new warehouse's tables."""
    import shutil

    lake.append(SPEC, spark.createDataFrame([("a", 1)], SPEC.schema))
    shutil.rmtree(warehouse)
    other = Lake(spark, tmp_path / "other")
    other.append(SPEC, spark.createDataFrame([("b", 2)], SPEC.schema))
    assert rows(spark.sql("SELECT * FROM test.items")) == {("b", 2)}
    assert not warehouse.exists()


def test_a_stray_delta_log_folder_is_listed_as_broken_and_the_rest_still_work(spark, tmp_path):
    """A warehouse path with a quote in it, and a folder that only looks like a table."""
    lake = Lake(spark, tmp_path / "it's a warehouse")
    lake.append(SPEC, spark.createDataFrame([("a", 1)], SPEC.schema))
    stray = lake.root / "junk" / "thing" / "_delta_log"
    stray.mkdir(parents=True)
    (stray / "00000000000000000000.json").write_text("not a Delta commit\n")
    assert lake.register_all() == [SPEC.name]
    assert list(lake.broken) == ["junk.thing"]
    assert spark.sql(f"SELECT count(*) FROM {SPEC.name}").first()[0] == 1


def test_a_table_folder_with_no_commit_yet_is_not_a_table_and_not_broken(spark, tmp_path):
    """What an interrupted first CREATE leaves (data files, an empty log) is invisible to a
    reader until the next run removes it: neither listed nor reported broken."""
    lake = Lake(spark, tmp_path / "wh")
    lake.append(SPEC, spark.createDataFrame([("a", 1)], SPEC.schema))
    half = lake.root / "gold_intermediate" / "claim_intervals"
    (half / "_delta_log").mkdir(parents=True)
    (half / "part-00000-0.c000.snappy.parquet").write_bytes(b"PAR1")
    assert lake.tables() == [SPEC.name]
    assert lake.register_all() == [SPEC.name] and lake.broken == {}


def test_counts_come_from_delta_s_log_and_match_spark_at_every_version(spark, lake, warehouse):
    """Appends, a MERGE that rewrites files and a DELETE: the log's per-file row counts, at
    every version, equal what Spark counts."""
    lake.append(SPEC, spark.createDataFrame([("a", 1), ("b", 2)], SPEC.schema))
    lake.merge_upsert(SPEC, spark.createDataFrame([("b", 3), ("c", 4), ("d", 5)], SPEC.schema))
    spark.sql(f"DELETE FROM delta.`{warehouse}/test/items` WHERE item_id IN ('a', 'c')")
    assert [lake.count("test.items", v) for v in range(4)] == [0, 2, 4, 2]
    assert [lake.count("test.items", v) for v in range(4)] == [
        lake.read("test.items", v).count() for v in range(4)
    ]
    assert lake.count("test.items") == 2 and lake.count("test.absent") == 0


def test_a_log_that_cannot_tell_the_rows_is_counted_by_spark(spark, lake, warehouse):
    """Files written without stats, and rows a deletion vector hides, are not in the log's
    counts: Spark counts those tables."""
    unstated = TableSpec("test.unstated", SPEC.schema, SPEC.key, "items")
    spark.conf.set("spark.databricks.delta.stats.collect", "false")
    try:
        lake.append(unstated, spark.createDataFrame([("a", 1), ("b", 2)], SPEC.schema))
    finally:
        spark.conf.unset("spark.databricks.delta.stats.collect")
    assert storage._logged_rows(lake.path("test.unstated"), None, None) is None
    assert lake.count("test.unstated") == 2

    vectors = TableSpec(
        "test.vectors", SPEC.schema, SPEC.key, "items", (("delta.enableDeletionVectors", "true"),)
    )
    lake.append(vectors, spark.createDataFrame([("a", 1), ("b", 2), ("c", 3)], SPEC.schema))
    spark.sql(f"DELETE FROM delta.`{warehouse}/test/vectors` WHERE item_id = 'b'")
    assert storage._logged_rows(lake.path("test.vectors"), None, None) is None
    assert lake.count("test.vectors") == 2
