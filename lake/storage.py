"""Delta tables of one warehouse: paths, creation, MERGE, history and catalog registration.

Tables are read and written by path (`<warehouse>/<layer>/<table>`); the Spark catalog only
names them (`bronze.articles`) for SQL users, dbt and the Thrift server.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from delta.tables import DeltaTable
from pyspark.sql import DataFrame, SparkSession

from lake.schemas import TableSpec


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
    root: Path

    def path(self, table: str) -> Path:
        layer, name = _split(table)
        return self.root / layer / name

    def exists(self, table: str) -> bool:
        return DeltaTable.isDeltaTable(self.spark, str(self.path(table)))

    def ensure(self, spec: TableSpec) -> None:
        """Create the table empty with its schema if absent, and name it in the catalog."""
        if not self.exists(spec.name):
            # The builder, unlike a DataFrame write, keeps NOT NULL and column comments.
            (
                DeltaTable.createIfNotExists(self.spark)
                .location(str(self.path(spec.name)))
                .addColumns(spec.schema)
                .comment(spec.description)
                .execute()
            )
        else:
            self._add_new_columns(spec)
        self.register(spec.name)

    def _add_new_columns(self, spec: TableSpec) -> None:
        """A warehouse made by an older claimhouse gains the nullable columns added to the
        table's spec since (Delta's ALTER TABLE ADD COLUMNS: the old rows read them as null)."""
        location = str(self.path(spec.name))
        if _SCHEMA_CHECKED.get(spec.name) == location:
            return
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
            self.spark.sql(f"ALTER TABLE delta.`{location}` ADD COLUMNS ({columns})")
        _SCHEMA_CHECKED[spec.name] = location

    def read(self, table: str, version: int | None = None) -> DataFrame:
        self._require(table)
        reader = self.spark.read.format("delta")
        if version is not None:
            reader = reader.option("versionAsOf", version)
        return reader.load(str(self.path(table)))

    def append(self, spec: TableSpec, df: DataFrame) -> int:
        """Append rows; returns the new table version."""
        self.ensure(spec)
        df.write.format("delta").mode("append").save(str(self.path(spec.name)))
        return self.version(spec.name)

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
        self._require(table)
        delta = DeltaTable.forPath(self.spark, str(self.path(table)))
        return int(delta.history(1).select("version").first()["version"])

    def history(self, table: str) -> DataFrame:
        self._require(table)
        return DeltaTable.forPath(self.spark, str(self.path(table))).history()

    def count(self, table: str) -> int:
        return self.read(table).count() if self.exists(table) else 0

    def tables(self) -> list[str]:
        """Every Delta table under the warehouse, as '<layer>.<table>'."""
        found = []
        for log_dir in sorted(self.root.glob("*/*/_delta_log")):
            layer, name = log_dir.parent.parent.name, log_dir.parent.name
            if not layer.startswith("_"):
                found.append(f"{layer}.{name}")
        return found

    def register(self, table: str) -> None:
        """Name the table in the catalog, pointing at this warehouse's copy."""
        layer, name = _split(table)
        location = str(self.path(table))
        exists = self.spark.catalog.tableExists(f"{layer}.{name}")
        if exists and _REGISTERED.get(table) == location:
            return
        self.spark.sql(f"CREATE DATABASE IF NOT EXISTS `{layer}`")
        if exists:
            current = self.spark.sql(f"DESCRIBE DETAIL `{layer}`.`{name}`").first()["location"]
            if _strip_scheme(current) == location:
                _REGISTERED[table] = location
                return
            # Registered for another warehouse: external table, so this drops the name only.
            self.spark.sql(f"DROP TABLE `{layer}`.`{name}`")
        self.spark.sql(f"CREATE TABLE `{layer}`.`{name}` USING DELTA LOCATION '{location}'")
        _REGISTERED[table] = location

    def forget_other_warehouses(self) -> list[str]:
        """Drop catalog names that point outside this warehouse (external tables: the data
        stays). A long-lived process that switches warehouses (tests, a Dagster run with
        another lake) would otherwise have dbt rebuild a model over another lake's location."""
        root = str(self.root.resolve())
        dropped = []
        for database in self.spark.catalog.listDatabases():
            for table in self.spark.catalog.listTables(database.name):
                if table.isTemporary or table.tableType == "VIEW":
                    continue
                name = f"`{database.name}`.`{table.name}`"
                rows = self.spark.sql(f"DESCRIBE TABLE EXTENDED {name}").collect()
                location = next((r["data_type"] for r in rows if r["col_name"] == "Location"), "")
                if location and not _strip_scheme(location).startswith(root + "/"):
                    self.spark.sql(f"DROP TABLE {name}")
                    _REGISTERED.pop(f"{database.name}.{table.name}", None)
                    dropped.append(f"{database.name}.{table.name}")
        return dropped

    def register_all(self) -> list[str]:
        names = self.tables()
        for table in names:
            self.register(table)
        return names

    def _require(self, table: str) -> None:
        if not self.exists(table):
            known = ", ".join(self.tables()) or "none yet (run `claimhouse run` first)"
            raise LakeError(f"no Delta table {table} at {self.path(table)}; tables: {known}")


# table -> location this process registered it at; saves a catalog round trip per write.
_REGISTERED: dict[str, str] = {}
# table -> location whose schema this process has brought up to its spec.
_SCHEMA_CHECKED: dict[str, str] = {}


def _split(table: str) -> tuple[str, str]:
    parts = table.split(".")
    if len(parts) != 2 or not all(parts):
        raise LakeError(f"table names are '<layer>.<table>', e.g. bronze.articles; got {table!r}")
    return parts[0], parts[1]


def _strip_scheme(location: str) -> str:
    return location.removeprefix("file://").removeprefix("file:")
