"""Gold read without Spark, as docs/tables.md tells a delta-rs or Polars user to: the plain Delta
tables hold exactly the rows Spark's gold.* views show, and the manifest pins all three at one
release, an earlier one included (time travel)."""

from __future__ import annotations

import shutil
from pathlib import Path

import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from deltalake import DeltaTable
from polars.testing import assert_frame_equal
from pyspark.sql import functions as F

from lake.config import load_settings
from lake.gold import build as gold_unit
from lake.layer import execute, open_run
from lake.maintenance import maintain
from lake.schemas import GOLD_BUILD_TABLES, GOLD_RELEASE, GOLD_RELEASE_MANIFEST
from lake.storage import Lake

# Each table's key: rows are sorted by it before they are compared.
KEYS = {
    "facts": ["fact_id"],
    "fact_evidence": ["fact_id", "claim_id"],
    "fact_conflicts": ["conflict_id"],
}


def _latest(warehouse: Path) -> dict[str, tuple[str, int]]:
    """The read protocol: the manifest's latest release -> {table: (path, version)}."""
    manifest = pl.read_delta(str(warehouse / "gold_release" / "manifest"))
    latest = manifest.filter(pl.col("release_version") == pl.col("release_version").max())
    return {r["table_name"]: (r["path"], r["version"]) for r in latest.iter_rows(named=True)}


def _by_key(frame: pl.DataFrame, table: str) -> pl.DataFrame:
    assert frame.select(KEYS[table]).n_unique() == frame.height, table
    return frame.sort(KEYS[table])


def _spark(lake: Lake, table: str, release_version: int | None = None) -> pl.DataFrame:
    """The rows Spark shows: the gold.* view, or the release table at a version."""
    if release_version is None:
        rows = lake.read(f"gold.{table}")
    else:
        rows = (
            lake.spark.read.format("delta")
            .option("versionAsOf", release_version)
            .load(str(lake.path(GOLD_RELEASE.store)))
            .where(F.col("relation") == table)
            .select(f"`{table}`.*")
        )
    return _by_key(pl.from_arrow(rows.toArrow()), table)


def _delta_rs(path: Path, version: int | None, table: str) -> pl.DataFrame:
    """delta-rs's files of the version read as docs/tables.md shows, typed by its Delta
    schema (to_pyarrow_table aborts the interpreter at exit with deltalake 1.6.6)."""
    delta = DeltaTable(str(path), version=version)
    schema = pa.schema(delta.schema().to_arrow())
    rows = pq.ParquetDataset(delta.file_uris()).read().select(schema.names).cast(schema)
    return _by_key(pl.from_arrow(rows), table)


def _polars(path: Path, version: int | None, table: str) -> pl.DataFrame:
    return _by_key(pl.read_delta(str(path), version=version), table)


def _assert_same(outside: pl.DataFrame, spark: pl.DataFrame, what: str) -> None:
    """Same columns in the same order, same types, same rows."""
    try:
        assert_frame_equal(outside, spark, check_dtypes=True)
    except AssertionError as differs:
        raise AssertionError(f"{what}: {differs}") from differs


def test_delta_rs_and_polars_read_the_plain_tables_as_spark_s_views_show_them(gold, spark):
    lake, settings, _, _ = gold
    warehouse = settings.warehouse
    # Gold current first, whatever earlier tests did to the shared warehouse (test_gold's
    # rebuild leaves silver changed after it); then a run with nothing new publishes nothing:
    # no new release, no new version of any table.
    with open_run(spark, settings, "outside") as ctx:
        execute(gold_unit.UNIT, ctx)
    versions = {
        t: lake.version(t) for t in (*GOLD_RELEASE.plain_tables, GOLD_RELEASE_MANIFEST.name)
    }
    with open_run(spark, settings, "again") as ctx:
        assert execute(gold_unit.UNIT, ctx).status == "unchanged"
    assert {t: lake.version(t) for t in versions} == versions

    pinned = _latest(warehouse)
    assert sorted(pinned) == sorted(GOLD_RELEASE.tables)
    manifest = lake.read(GOLD_RELEASE_MANIFEST.name)
    newest = manifest.agg(F.max("release_version")).first()[0]
    # The latest release is the one the views read, and every table's version is its newest.
    assert newest == lake.version(GOLD_RELEASE.store)
    for table, (path, version) in pinned.items():
        assert path == f"gold_release/{table}"
        assert version == lake.version(GOLD_RELEASE.plain(table))
        plain = warehouse / path
        # Delta's basic protocol: what any Delta reader opens.
        protocol = DeltaTable(str(plain)).protocol()
        assert (protocol.min_reader_version, protocol.min_writer_version) == (1, 2), table
        shown = _spark(lake, table)
        assert shown.height > 0, table
        for read, reader in (("delta-rs", _delta_rs), ("polars", _polars)):
            _assert_same(reader(plain, version, table), shown, f"{read} {table}@{version}")
            _assert_same(reader(plain, None, table), shown, f"{read} {table} newest")
        # dbt's column docs travel with the table.
        fields = {f.name: f.metadata for f in DeltaTable(str(plain)).schema().fields}
        assert "comment" in fields[KEYS[table][0]], table


def test_an_earlier_release_stays_readable_at_the_versions_its_manifest_rows_name(
    gold, spark, tmp_path
):
    """A second release (the candidate's facts under other ids) moves the plain tables on; the
    first release, read through its manifest rows, is still the rows its views showed."""
    shutil.copytree(gold[1].warehouse, tmp_path / "wh")
    lake = Lake(spark, tmp_path / "wh")
    lake.register_all()
    first = _latest(lake.root)
    first_release = lake.version(GOLD_RELEASE.store)
    shown = {t: _spark(lake, t) for t in GOLD_RELEASE.tables}
    for table in GOLD_BUILD_TABLES:
        renamed = lake.read(table).withColumn("fact_id", F.concat("fact_id", F.lit("-b")))
        # Two files each, as an incremental build leaves them: what OPTIMIZE would compact.
        renamed = renamed.repartition(2).localCheckpoint()
        renamed.write.format("delta").mode("overwrite").save(str(lake.path(table)))
    # As an older claimhouse left it: the release table collects per-file statistics, which
    # cost every point query through the views. The next publish turns them off.
    store = str(lake.path(GOLD_RELEASE.store))
    no_stats = "delta.dataSkippingNumIndexedCols"
    spark.sql(f"ALTER TABLE delta.`{store}` UNSET TBLPROPERTIES ('{no_stats}')")
    released = lake.publish(GOLD_RELEASE, {t: lake.version(t) for t in GOLD_BUILD_TABLES}, "r2")
    assert spark.sql(f"SHOW TBLPROPERTIES delta.`{store}` ('{no_stats}')").first()["value"] == "0"

    second = _latest(lake.root)
    assert second != first
    assert {t: v for t, (_, v) in second.items()} == {
        t: released[GOLD_RELEASE.plain(t)] for t in GOLD_RELEASE.tables
    }
    manifest = pl.read_delta(str(lake.root / "gold_release" / "manifest"))
    releases = manifest.group_by("release_version").len().sort("release_version")
    assert releases.tail(2).rows() == [(first_release, 3), (released[GOLD_RELEASE.store], 3)]
    for table, (path, version) in first.items():
        plain = lake.root / path
        now = _polars(plain, None, table)
        assert now["fact_id"].str.ends_with("-b").all(), table
        _assert_same(now, _spark(lake, table), f"{table} second release")
        for read, reader in (("delta-rs", _delta_rs), ("polars", _polars)):
            _assert_same(reader(plain, version, table), shown[table], f"{read} {table}@{version}")
        # The same rows as Spark's time travel to the first release.
        _assert_same(_spark(lake, table, first_release), shown[table], table)

    # Maintenance keeping no hours at all leaves the latest release readable (it never compacts
    # the plain tables); the first release's files go, as docs/tables.md says.
    with open_run(spark, load_settings(warehouse=lake.root, keep_hours=0), "upkeep") as ctx:
        upkept = maintain(ctx, list(GOLD_RELEASE.plain_tables))
    assert [(u.compacted_from, u.vacuumed > 0) for u in upkept.tables] == [(0, True)] * 3
    assert _latest(lake.root) == second
    for table, (path, version) in second.items():
        _assert_same(
            _delta_rs(lake.root / path, version, table), _spark(lake, table), f"{table} kept"
        )
        with pytest.raises(Exception, match="(?i)not found|no such file"):
            _polars(lake.root / path, first[table][1], table)
