"""Delta tables of one warehouse: paths, creation, MERGE, history and catalog registration.

Tables are read and written by path (`<warehouse>/<layer>/<table>`); the Spark catalog only
names them (`bronze.articles`) for SQL users, dbt and the Thrift server.

A released layer (gold) is read only as its published release: `gold.facts` is the `facts`
rows of the release table gold_release.tables, which a publish replaces in one commit for
every gold table at once (lake.schemas.ReleaseSpec). Each gold table is also a plain Delta
table (gold_release.facts...) for readers without Spark, and gold_release.manifest names the
version of each that holds a release (docs/tables.md).
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from delta.tables import DeltaTable
from pyspark.sql import DataFrame, SparkSession
from pyspark.sql import functions as F
from pyspark.sql.types import StructType

from lake.objectstore import RemotePath, is_remote
from lake.schemas import GOLD_RELEASE, SANDBOX, ReleaseSpec, ReportSpec, TableSpec
from lake.spark import local_frame

RELEASES: dict[str, ReleaseSpec] = {GOLD_RELEASE.layer: GOLD_RELEASE}
# Delta commits that change no row (lake.maintenance's): a unit's input or output table
# moved only by them is as it was.
ROW_NEUTRAL_OPERATIONS = ("OPTIMIZE", "VACUUM START", "VACUUM END")
_NO_STATS = ("delta.dataSkippingNumIndexedCols", "0")


class LakeError(Exception):
    """A problem the user can act on; the CLI prints it without a stack trace."""


@dataclass(frozen=True)
class MergeResult:
    inserted: int
    updated: int
    version: int


@dataclass
class Lake:
    spark: SparkSession
    root: Path | RemotePath
    # table -> why register_all could not name it
    broken: dict[str, str] = field(default_factory=dict, repr=False)
    # The local folder of the warehouse's own files (Great Expectations' results): the
    # warehouse itself, or for an s3a:// one Settings.local_dir.
    state: Path | None = None

    @property
    def local_root(self) -> Path:
        if self.state is not None:
            return self.state
        if isinstance(self.root, Path):
            return self.root
        from lake.config import default_state_dir

        return default_state_dir(self.root)

    @property
    def remote(self) -> bool:
        return isinstance(self.root, RemotePath)

    def path(self, table: str) -> Path | RemotePath:
        """Where the table's Delta log lives; for a released table, the release table's."""
        layer, name = _split(table)
        if layer in RELEASES:
            return self.path(RELEASES[layer].store)
        return self.root / layer / name

    def exists(self, table: str) -> bool:
        return DeltaTable.isDeltaTable(self.spark, str(self.path(table)))

    # --- releases ------------------------------------------------------------------------

    def publish(
        self,
        spec: ReleaseSpec,
        versions: dict[str, int],
        release_id: str,
        docs: Mapping[str, Mapping[str, str]] | None = None,
    ) -> dict[str, int]:
        """Copy the built tables at `versions` ({built table: version}) into the release table
        in one commit: readers of the views switch to them at once. Before, each is copied
        into its plain Delta table (spec.plain) for readers without Spark; after, the
        manifest gains one row per table naming the plain table's version, in one commit, so
        it names only finished versions. Returns {table written: its new version}. `docs`
        ({table: {column: description}}) become the columns' comments, which DESCRIBE shows
        on the views and delta-rs on the plain tables."""
        frames = {
            t: _documented(self.read(spec.built(t), version=versions[spec.built(t)]), docs, t)
            for t in spec.tables
        }
        # First, so that a failed write leaves the views on the release they showed; the
        # three at once, as each small write is mostly the driver waiting on its commit.
        with ThreadPoolExecutor(max_workers=max(1, len(spec.plain_tables))) as pool:
            futures = {
                plain: pool.submit(self._write_plain, plain, frames[table])
                for table, plain in zip(spec.tables, spec.plain_tables, strict=False)
            }
        written = {plain: future.result() for plain, future in futures.items()}
        types = {t: StructType(df.schema.fields) for t, df in frames.items()}
        rows = None
        for table, df in frames.items():
            part = df.select(
                F.lit(release_id).alias("release_id"),
                F.lit(table).alias("relation"),
                *(
                    (
                        F.struct(*df.columns) if other == table else F.lit(None).cast(types[other])
                    ).alias(other)
                    for other in spec.tables
                ),
            )
            rows = part if rows is None else rows.unionByName(part)
        store = str(self.path(spec.store))
        # No per-file column statistics: the release's files are few, and Delta parsing
        # statistics of every nested column cost a point query through the views about 20 ms
        # (benchmarks/README.md, sql_endpoint_latency). A table property is read from the
        # options only when the table is created; an older release table gets it once here.
        if (
            store not in _WITHOUT_STATS
            and self.exists(spec.store)
            and _NO_STATS[0] not in self._properties(store)
        ):
            quoted = store.replace("`", "``")
            self.spark.sql(
                f"ALTER TABLE delta.`{quoted}` SET TBLPROPERTIES ('{_NO_STATS[0]}' = '0')"
            )
        (
            rows.write.format("delta")
            .mode("overwrite")
            .option("overwriteSchema", "true")
            .option(*_NO_STATS)
            .partitionBy("relation")
            .save(store)
        )
        self.register(spec.store)
        for table in spec.tables:
            self._register_released(spec, table, frames[table].schema)
        _WITHOUT_STATS.add(store)
        written[spec.store] = release = self.version(spec.store)
        if spec.manifest is not None:
            written[spec.manifest.name] = self._record_release(spec, release_id, release, written)
        return written

    def _write_plain(self, table: str, df: DataFrame) -> int:
        """Replace the plain table's rows by `df` in one commit; returns its new version. A
        DataFrame write keeps Delta's basic protocol (no deletion vectors), which every Delta
        reader opens."""
        df.write.format("delta").mode("overwrite").option("overwriteSchema", "true").save(
            str(self.path(table))
        )
        return self.version(table)

    def _record_release(
        self, spec: ReleaseSpec, release_id: str, release: int, written: Mapping[str, int]
    ) -> int:
        """Append the release's manifest rows (one per table) in one commit; its new version."""
        manifest = spec.manifest
        assert manifest is not None
        now = datetime.now(UTC)
        rows = [
            {
                "release_id": release_id,
                "published_at": now,
                "release_version": release,
                "table_name": table,
                "path": "/".join(_split(plain)),
                "version": written[plain],
            }
            for table, plain in zip(spec.tables, spec.plain_tables, strict=True)
        ]
        return self.append_rows(manifest, rows)

    def _properties(self, path: str) -> dict[str, str]:
        return DeltaTable.forPath(self.spark, path).detail().first()["properties"]

    def _released(self, table: str, version: int | None = None) -> DataFrame:
        layer, name = _split(table)
        spec = RELEASES[layer]
        reader = self.spark.read.format("delta")
        if version is not None:
            reader = reader.option("versionAsOf", version)
        stored = reader.load(str(self.path(spec.store)))
        return stored.where(F.col("relation") == name).select(f"`{name}`.*")

    def ensure(self, spec: TableSpec) -> None:
        """Create the table empty with its schema if absent, and name it in the catalog."""
        if not self.exists(spec.name):
            location = str(self.path(spec.name))
            # The builder, unlike a DataFrame write, keeps NOT NULL and column comments.
            builder = (
                DeltaTable.createIfNotExists(self.spark)
                .location(location)
                .addColumns(spec.schema)
                .comment(spec.description)
            )
            # A name free in the catalog is created with the table: one statement, not three.
            self._database(spec.name)
            named = not self._in_catalog(spec.name)  # a stale name: register() fixes it
            if named:
                builder = builder.tableName(spec.name)
            for key, value in spec.properties:
                builder = builder.property(key, value)
            builder.execute()
            if named:
                _REGISTERED[spec.name] = location
        else:
            self._upgrade(spec)
        self.register(spec.name)

    def _in_catalog(self, table: str) -> bool:
        """Whether the catalog has the name, one whose folder was deleted included (Spark then
        fails to load it)."""
        try:
            return self.spark.catalog.tableExists(table)
        except Exception:  # noqa: BLE001 - the name is there; its table is gone
            return True

    def _database(self, table: str) -> None:
        """Create the table's database if the catalog lacks it (asking the catalog runs no
        statement)."""
        layer, _ = _split(table)
        if not self.spark.catalog.databaseExists(layer):
            self.spark.sql(f"CREATE DATABASE IF NOT EXISTS `{layer}`")

    def _upgrade(self, spec: TableSpec) -> None:
        """A warehouse made by an older claimhouse gains the nullable columns added to the
        table's spec since (Delta's ALTER TABLE ADD COLUMNS: the old rows read them as null),
        and the spec's table properties. Once per table and process."""
        location = str(self.path(spec.name))
        if _SCHEMA_CHECKED.get(spec.name) == (location, spec):
            return
        quoted = location.replace("`", "``")
        if spec.properties:
            current = {
                r["key"]: r["value"]
                for r in self.spark.sql(f"SHOW TBLPROPERTIES delta.`{quoted}`").collect()
            }
            unset = {k: v for k, v in spec.properties if current.get(k) != v}
            if unset:
                pairs = ", ".join(f"'{k}' = '{v}'" for k, v in unset.items())
                self.spark.sql(f"ALTER TABLE delta.`{quoted}` SET TBLPROPERTIES ({pairs})")
        have = set(DeltaTable.forPath(self.spark, location).toDF().columns)
        missing = [f for f in spec.schema.fields if f.name not in have]
        if any(not f.nullable for f in missing):
            raise LakeError(
                f"{spec.name} at {location} lacks required columns "
                f"{[f.name for f in missing if not f.nullable]}: it was made by another "
                "version of claimhouse; rebuild it (claimhouse run into a new warehouse)"
            )
        if missing:
            columns = ", ".join(
                f"`{f.name}` {f.dataType.simpleString()}"
                + (
                    " COMMENT '" + f.metadata["comment"].replace("'", "\\'") + "'"
                    if f.metadata.get("comment")
                    else ""
                )
                for f in missing
            )
            self.spark.sql(f"ALTER TABLE delta.`{quoted}` ADD COLUMNS ({columns})")
        _SCHEMA_CHECKED[spec.name] = (location, spec)

    def read(self, table: str, version: int | None = None) -> DataFrame:
        self._require(table)
        layer, name = _split(table)
        if layer in RELEASES:
            if RELEASES[layer].report(name) is not None:
                if version is not None:
                    raise LakeError(
                        f"{table} is a view of the current release: read its tables at a "
                        "version instead"
                    )
                self.register(table)
                return self.spark.table(table)
            return self._released(table, version)
        reader = self.spark.read.format("delta")
        if version is not None:
            reader = reader.option("versionAsOf", version)
        return reader.load(str(self.path(table)))

    def append(self, spec: TableSpec, df: DataFrame) -> int:
        """Append rows; returns the new table version."""
        self.ensure(spec)
        df.write.format("delta").mode("append").save(str(self.path(spec.name)))
        return self.version(spec.name)

    def append_rows(
        self, spec: TableSpec, rows: Sequence[Mapping[str, Any] | Sequence[Any]]
    ) -> int:
        """Append rows this process holds (dicts by column name, or tuples in the schema's
        order: an audit record, a release's manifest rows); returns the new table version."""
        return self.append(spec, local_frame(self.spark, rows, spec.schema))

    def overwrite(self, spec: TableSpec, df: DataFrame) -> int:
        """Replace every row in one commit (the old rows stay readable by time travel);
        returns the new table version."""
        self.ensure(spec)
        df.write.format("delta").mode("overwrite").save(str(self.path(spec.name)))
        return self.version(spec.name)

    def merge_insert(self, spec: TableSpec, df: DataFrame) -> MergeResult:
        """Insert rows whose key is not in the table yet; existing keys are left unchanged.

        Running it again with the same rows inserts nothing: this is what makes loads idempotent.
        """
        self.ensure(spec)
        target = DeltaTable.forPath(self.spark, str(self.path(spec.name)))
        condition = " AND ".join(f"t.`{k}` <=> s.`{k}`" for k in spec.key)
        metrics = (
            target.alias("t").merge(df.alias("s"), condition).whenNotMatchedInsertAll().execute()
        )
        row = metrics.first() if metrics is not None else None
        inserted = int(row["num_inserted_rows"]) if row is not None else 0
        updated = int(row["num_updated_rows"]) if row is not None else 0
        return MergeResult(inserted=inserted, updated=updated, version=self.version(spec.name))

    def merge_upsert(self, spec: TableSpec, df: DataFrame) -> MergeResult:
        """Insert rows with new keys and overwrite rows whose key exists (pass only rows that
        changed: Delta commits a version even when a MERGE changes nothing)."""
        self.ensure(spec)
        target = DeltaTable.forPath(self.spark, str(self.path(spec.name)))
        condition = " AND ".join(f"t.`{k}` <=> s.`{k}`" for k in spec.key)
        metrics = (
            target.alias("t")
            .merge(df.alias("s"), condition)
            .whenMatchedUpdateAll()
            .whenNotMatchedInsertAll()
            .execute()
        )
        row = metrics.first() if metrics is not None else None
        inserted = int(row["num_inserted_rows"]) if row is not None else 0
        updated = int(row["num_updated_rows"]) if row is not None else 0
        return MergeResult(inserted=inserted, updated=updated, version=self.version(spec.name))

    def version(self, table: str) -> int:
        """The table's newest committed version, another process's commits included. Read from
        Delta's log (DeltaLog.update lists the commits since the last look): no Spark job, where
        `DESCRIBE HISTORY` took one per call, and runs pin and compare versions often."""
        self._require(table)
        jvm = self.spark._jvm
        log = jvm.org.apache.spark.sql.delta.DeltaLog.forTable(
            self.spark._jsparkSession, str(self.path(table))
        )
        none = jvm.scala.Option.empty()
        return int(log.update(False, none, none).version())

    def changes(self, table: str, after: int, upto: int) -> DataFrame:
        """Delta's change data feed of versions after+1 to upto: every row inserted, deleted or
        updated (both images), `_change_type` saying which."""
        return (
            self.spark.read.format("delta")
            .option("readChangeFeed", "true")
            .option("startingVersion", after + 1)
            .option("endingVersion", upto)
            .load(str(self.path(table)))
        )

    def changes_readable(self, table: str, after: int, upto: int) -> bool:
        """Whether the change data feed still covers versions after+1 to upto: on since
        `after`, and its files not vacuumed (read, so a missing file shows now)."""
        if after >= upto:
            return True
        try:
            self.changes(table, after, upto).count()
        except Exception:  # noqa: BLE001 - Delta raises several kinds for a range it lacks
            return False
        return True

    def rows_unchanged(self, table: str, after: int, upto: int) -> bool:
        """Whether versions after+1 to upto of the table changed no row: each is a commit of
        maintenance (OPTIMIZE, VACUUM), read from the log's JSON (a commit whose file a
        checkpoint's log cleanup removed counts as a change)."""
        log = self.path(table) / "_delta_log"
        for version in range(after + 1, upto + 1):
            try:
                text = self.read_text(log / f"{version:020d}.json")
                info = next(
                    (
                        json.loads(line)["commitInfo"]
                        for line in text.splitlines()
                        if '"commitInfo"' in line
                    ),
                    {},
                )
            except (OSError, ValueError, KeyError):
                return False
            if info.get("operation") not in ROW_NEUTRAL_OPERATIONS:
                return False
        return True

    def history(self, table: str) -> DataFrame:
        """Delta's history of the table (for a released one, of the release table: a version
        per release)."""
        self._require(table)
        return DeltaTable.forPath(self.spark, str(self.path(table))).history()

    def count(self, table: str, version: int | None = None) -> int:
        """Rows of the table (at `version`; 0 if it does not exist). Summed from the row count
        Delta's log keeps for each data file, so no Spark job runs; a table whose log lacks a
        file's count, or whose rows a deletion vector hides, is counted by Spark."""
        if not self.exists(table):
            return 0
        layer, name = _split(table)
        relation = None
        if layer in RELEASES:
            if RELEASES[layer].report(name) is not None:
                return self.read(table).count()
            relation = name
        logged = _logged_rows(self.path(table), version, relation)
        return logged if logged is not None else self.read(table, version).count()

    def tables(self) -> list[str]:
        """Every Delta table under the warehouse, as '<layer>.<table>', then the tables of the
        releases (gold.facts...). A folder named like a released layer holds no readable
        tables (an older claimhouse built gold there) and is left out, and so is a log with no
        commit yet: a first write under way, or one an interrupt left (the next run removes
        it)."""
        found = []
        for log_dir in self.glob("*/*/_delta_log"):
            layer, name = log_dir.parent.parent.name, log_dir.parent.name
            if (
                not layer.startswith("_")
                and layer not in RELEASES
                and self._has_commit(log_dir.parent)
            ):
                found.append(f"{layer}.{name}")
        for spec in RELEASES.values():
            if self.exists(spec.store):
                found += [spec.published(t) for t in spec.tables]
                found += [spec.published(r.name) for r in spec.reports]
        return found

    def register(self, table: str) -> None:
        """Name the table in the catalog, pointing at this warehouse's copy."""
        layer, name = _split(table)
        if layer in RELEASES:
            spec = RELEASES[layer]
            report = spec.report(name)
            if report is None:
                self._register_released(spec, name)
            else:
                self._register_report(spec, report)
            return
        location = str(self.path(table))
        exists = self._in_catalog(f"{layer}.{name}")
        if exists and _REGISTERED.get(table) == location:
            return
        self._database(table)
        if exists:
            try:
                current = self.spark.sql(f"DESCRIBE DETAIL `{layer}`.`{name}`").first()["location"]
            except Exception:  # noqa: BLE001 - its folder was deleted (another warehouse's)
                current = None
            if current is not None and _strip_scheme(current) == location:
                _REGISTERED[table] = location
                return
            # Registered for another warehouse, or for one since deleted: external table, so
            # this drops the name only.
            self.spark.sql(f"DROP TABLE `{layer}`.`{name}`")
        self.spark.sql(
            f"CREATE TABLE `{layer}`.`{name}` USING DELTA LOCATION {_sql_string(location)}"
        )
        _REGISTERED[table] = location

    def _register_released(self, spec: ReleaseSpec, name: str, schema=None) -> None:
        """`<layer>.<table>` as a view of the table's rows in the release table, with the
        columns' comments (DESCRIBE shows the docs dbt wrote). The view's text never changes
        between releases; it is made again only when its columns did."""
        self.register(spec.store)
        if schema is None:
            schema = self._released(spec.published(name)).schema
        columns = ", ".join(
            f"`{f.name}`"
            + (f" COMMENT {_sql_string(doc)}" if (doc := f.metadata.get("comment")) else "")
            for f in schema.fields
        )
        key = f"{spec.published(name)}@{self.root}"
        if _REGISTERED.get(key) == columns and self.spark.catalog.tableExists(spec.published(name)):
            return
        store_layer, store_name = _split(spec.store)
        self._database(spec.published(name))
        self.spark.sql(
            f"CREATE OR REPLACE VIEW `{spec.layer}`.`{name}` ({columns}) "
            f"COMMENT {_sql_string(f'the published {name}: rows of {spec.store}')} AS "
            f"SELECT `{name}`.* FROM `{store_layer}`.`{store_name}` WHERE relation = '{name}'"
        )
        _REGISTERED[key] = columns

    def _register_report(self, spec: ReleaseSpec, report: ReportSpec) -> None:
        """`<layer>.<report>`: a view over the release's views, so of the same release."""
        for table in spec.tables:
            self.register(spec.published(table))
        key = f"{spec.published(report.name)}@{self.root}"
        if _REGISTERED.get(key) and self.spark.catalog.tableExists(spec.published(report.name)):
            return
        columns = ", ".join(f"`{c}` COMMENT {_sql_string(doc)}" for c, doc in report.columns)
        self.spark.sql(
            f"CREATE OR REPLACE VIEW `{spec.layer}`.`{report.name}` ({columns}) "
            f"COMMENT {_sql_string(report.description)} AS {report.sql}"
        )
        _REGISTERED[key] = "report"

    def forget_other_warehouses(self) -> list[str]:
        """Drop catalog names that point outside this warehouse (external tables: the data
        stays), or at a table no longer there. A long-lived process that switches warehouses
        (tests, a Dagster run with another lake) would otherwise have dbt rebuild a model over
        another lake's location; one whose warehouse was deleted under it (the warm engine),
        merge into a table that is gone."""
        roots = tuple({str(self.root) + "/", str(self.root.resolve()) + "/"})
        dropped = []
        for database in self.spark.catalog.listDatabases():
            # SHOW TABLES, not listTables: that loads every table, and fails on one whose
            # folder is gone.
            for row in self.spark.sql(f"SHOW TABLES IN `{database.name}`").collect():
                key = f"{database.name}.{row['tableName']}"
                if row["isTemporary"] or f"{key}@{self.root}" in _REGISTERED:
                    continue  # a release's view this process made (_register_released)
                name = f"`{database.name}`.`{row['tableName']}`"
                # Where this process named the table, it knows the location without asking.
                location = _REGISTERED.get(key)
                if location is None:
                    try:
                        described = self.spark.sql(f"DESCRIBE TABLE EXTENDED {name}").collect()
                    except Exception:  # noqa: BLE001 - its folder is gone: the name goes too
                        described = []
                    info = {r["col_name"]: r["data_type"] for r in described}
                    if info.get("Type") == "VIEW":
                        continue
                    location = info.get("Location")
                where = _strip_scheme(location or "")
                if location is None or not where.startswith(roots) or not self._exists(where):
                    self.spark.sql(f"DROP TABLE {name}")
                    _REGISTERED.pop(key, None)
                    dropped.append(key)
        # A release's views (gold.facts) read its store: gone with it, they would name a table
        # this warehouse never had.
        for spec in RELEASES.values():
            if spec.store not in dropped or not self.spark.catalog.databaseExists(spec.layer):
                continue
            for view in self.spark.catalog.listTables(spec.layer):
                if view.tableType == "VIEW" and not view.isTemporary:
                    self.spark.sql(f"DROP VIEW IF EXISTS `{spec.layer}`.`{view.name}`")
                    dropped.append(f"{spec.layer}.{view.name}")
        return dropped

    def remove_half_made(self) -> list[str]:
        """Remove the table folders of the lake's own layers that hold no Delta commit: an
        interrupted first write (data files, perhaps an empty log), which no reader can see and
        which makes the table's next CREATE fail. Returns their names. The sandbox is left
        alone: a writer on the SQL endpoint may be creating a table there right now. Call it
        holding the writer lock."""
        removed = []
        if self.remote:
            for folder in self.glob("*/*"):
                layer = folder.parent.name
                if layer.startswith(("_", ".")) or layer == SANDBOX or self._has_commit(folder):
                    continue
                files = self.files(folder)
                if files is None or any(not _delta_file(Path(f)) for f in files):
                    continue  # a file, or not only what a Delta write leaves
                self.delete_folder(folder)
                removed.append(f"{layer}.{folder.name}")
            return removed
        for folder in sorted(self.root.glob("*/*/")):
            layer = folder.parent.name
            if layer.startswith(("_", ".")) or layer == SANDBOX or _has_commit(folder):
                continue
            if any(not _delta_file(p) for p in folder.rglob("*") if p.is_file()):
                continue  # not only what a Delta write leaves: not ours to remove
            shutil.rmtree(folder)
            removed.append(f"{layer}.{folder.name}")
        return removed

    # --- files, local or on object storage (through Hadoop's FileSystem, as Spark) ------------

    def _hadoop(self, location: str):
        jvm = self.spark._jvm
        path = jvm.org.apache.hadoop.fs.Path(location)
        conf = self.spark._jsc.hadoopConfiguration()
        return path.getFileSystem(conf), path

    def glob(self, pattern: str) -> list[Path | RemotePath]:
        """Paths under the warehouse matching the pattern, sorted."""
        if isinstance(self.root, Path):
            return sorted(self.root.glob(pattern))
        fs, path = self._hadoop(str(self.root / pattern))
        found = fs.globStatus(path) or []
        return sorted((RemotePath(str(status.getPath().toString())) for status in found), key=str)

    def _has_commit(self, folder: Path | RemotePath) -> bool:
        if isinstance(folder, Path):
            return _has_commit(folder)
        fs, path = self._hadoop(str(folder / "_delta_log"))
        if not fs.exists(path):
            return False
        return any(
            s.getPath().getName().endswith(".json") or ".checkpoint" in s.getPath().getName()
            for s in fs.listStatus(path)
        )

    def files(self, folder: RemotePath) -> list[str] | None:
        """The files under a folder (relative paths), or None when it is a file itself."""
        fs, path = self._hadoop(str(folder))
        if fs.getFileStatus(path).isFile():
            return None
        found, files = [], fs.listFiles(path, True)
        while files.hasNext():
            found.append(str(files.next().getPath().toString()).removeprefix(str(folder) + "/"))
        return found

    def delete_folder(self, folder: RemotePath) -> None:
        fs, path = self._hadoop(str(folder))
        fs.delete(path, True)

    def _exists(self, location: str) -> bool:
        if not is_remote(location):
            return Path(location).exists()
        fs, path = self._hadoop(location)
        return bool(fs.exists(path))

    def read_text(self, location: Path | RemotePath) -> str:
        if isinstance(location, Path):
            return location.read_text(encoding="utf-8")
        fs, path = self._hadoop(str(location))
        try:
            stream = fs.open(path)
        except Exception as exc:  # the JVM's FileNotFoundException
            raise OSError(f"cannot read {location}") from exc
        try:
            return self.spark._jvm.org.apache.commons.io.IOUtils.toString(stream, "UTF-8")
        finally:
            stream.close()

    def register_all(self) -> list[str]:
        """Name every table of the warehouse in the catalog, the releases' views included;
        returns their names. A folder that is not a readable Delta table (a stray
        `_delta_log`) is left out, its reason in `broken`, and the others still work."""
        names = []
        for table in self.tables():
            try:
                self.register(table)
            except Exception as exc:  # the JVM's errors for a broken log vary
                text = str(exc).strip()
                self.broken[table] = text.splitlines()[0][:300] if text else type(exc).__name__
                continue
            self.broken.pop(table, None)
            names.append(table)
        return names

    def _require(self, table: str) -> None:
        if not self.exists(table):
            known = ", ".join(self.tables()) or "none yet (run `claimhouse run` first)"
            raise LakeError(f"no Delta table {table} at {self.path(table)}; tables: {known}")


def _documented(df: DataFrame, docs: Mapping[str, Mapping[str, str]] | None, table: str):
    for column, doc in ((docs or {}).get(table) or {}).items():
        if column in df.columns and doc:
            df = df.withMetadata(column, {**df.schema[column].metadata, "comment": doc})
    return df


# table -> location this process registered it at; saves a catalog round trip per write.
_REGISTERED: dict[str, str] = {}
# table -> (location, spec) this process has brought the table up to.
_SCHEMA_CHECKED: dict[str, tuple[str, TableSpec]] = {}
# Release tables this process wrote: they have the property _NO_STATS (one DESCRIBE DETAIL
# less per publish).
_WITHOUT_STATS: set[str] = set()


def _logged_rows(path: Path, version: int | None, relation: str | None) -> int | None:
    """The rows of the Delta table at `path` from its log's per-file stats (delta-rs reads
    the log in milliseconds; Spark's count is a job and a log scan), only the release's
    `relation` partition when given; None when the log cannot tell."""
    from deltalake import DeltaTable as LogReader  # here: Spark's Python workers skip it

    if is_remote(path):
        return None  # delta-rs would need the S3 settings: Spark counts instead
    try:
        table = LogReader(str(path), version=version)
        if "deletionVectors" in (table.protocol().reader_features or ()):
            return None
        files = table.get_add_actions(flatten=True)
    except Exception:  # noqa: BLE001 - Spark then counts, and raises what it must
        return None
    if files.num_rows == 0:
        return 0
    counts = files.column("num_records").to_pylist()
    if relation is not None:
        partitions = files.column("partition.relation").to_pylist()
        counts = [n for n, p in zip(counts, partitions, strict=True) if p == relation]
    return None if any(n is None for n in counts) else sum(counts)


def read_local(path: Path, columns: list[str]):
    """These columns of the newest version of the unpartitioned Delta table at `path`, read
    in this process with delta-rs and pyarrow (a small table: milliseconds, where Spark runs
    jobs); a pyarrow Table, or None when delta-rs cannot read it so (deletion vectors, an
    unreadable log): the caller then asks Spark."""
    import pyarrow.parquet as pq
    from deltalake import DeltaTable as LogReader

    if is_remote(path):
        return None
    try:
        table = LogReader(str(path))
        if "deletionVectors" in (table.protocol().reader_features or ()):
            return None
        if table.metadata().partition_columns:
            return None
        uris = table.file_uris()
        if not uris:
            return None
        return pq.ParquetDataset(uris).read(columns=columns)
    except Exception:  # noqa: BLE001 - Spark then reads it, and raises what it must
        return None


def live_files(path: Path) -> dict[tuple, int] | None:
    """The data files of the Delta table at `path`'s newest version, counted per partition
    (its partition values, () when it has none), read from its log with delta-rs; None when
    the log cannot be read that way."""
    from deltalake import DeltaTable as LogReader

    if is_remote(path):
        return None
    try:
        files = LogReader(str(path)).get_add_actions(flatten=True)
    except Exception:  # noqa: BLE001 - the caller then does the work without the shortcut
        return None
    columns = [c for c in files.column_names if c.startswith("partition.")]
    counts: dict[tuple, int] = {}
    for row in (
        zip(*(files.column(c).to_pylist() for c in columns), strict=True)
        if columns
        else (() for _ in range(files.num_rows))
    ):
        counts[tuple(row)] = counts.get(tuple(row), 0) + 1
    return counts


def expired_files(path: Path, keep_hours: int) -> int | None:
    """How many files a VACUUM keeping `keep_hours` would remove from the Delta table at
    `path` (a dry run of delta-rs's full vacuum: every file no version of those hours needs,
    untracked ones included); None when delta-rs cannot tell."""
    from deltalake import DeltaTable as LogReader

    if is_remote(path):
        return None
    try:
        return len(
            LogReader(str(path)).vacuum(
                keep_hours, dry_run=True, enforce_retention_duration=False, full=True
            )
        )
    except Exception:  # noqa: BLE001 - the caller then lets Spark's VACUUM decide
        return None


def _split(table: str) -> tuple[str, str]:
    parts = table.split(".")
    if len(parts) != 2 or not all(parts):
        raise LakeError(f"table names are '<layer>.<table>', e.g. bronze.articles; got {table!r}")
    return parts[0], parts[1]


def _sql_string(text: str) -> str:
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def _strip_scheme(location: str) -> str:
    return location.removeprefix("file://").removeprefix("file:")


def _has_commit(folder: Path) -> bool:
    log = folder / "_delta_log"
    return any(log.glob("*.json")) or any(log.glob("*.checkpoint*.parquet"))


def _delta_file(path: Path) -> bool:
    """A file a Delta write leaves: data, its checksum, a log entry or a deletion vector."""
    data = path.suffix in (".parquet", ".crc", ".json", ".bin", ".tmp")
    return data or "_delta_log" in path.parts
