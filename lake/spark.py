"""The only place a SparkSession is built: Delta on, metastore and scratch inside the warehouse."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import threading
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from pyspark.sql import DataFrame, SparkSession
from pyspark.sql.types import StructType

from lake.config import Settings

LOG4J_CONF = Path(__file__).resolve().parent / "conf" / "log4j2.properties"


def local_delta_jars(jars_dir: Path) -> list[Path]:
    """Delta's jars fetched by scripts/setup; empty when claimhouse was installed elsewhere."""
    return sorted(jars_dir.glob("*.jar")) if jars_dir.is_dir() else []


# The SQL endpoint's guard (java/claimhouse/sql/LakeGuard.java, built by scripts/setup): roles
# enforced inside Spark, on every statement a client sends.
GUARD_EXTENSION = "claimhouse.sql.LakeGuard"
DELTA_EXTENSION = "io.delta.sql.DeltaSparkSessionExtension"


def spark_conf(settings: Settings, ui: bool = False, endpoint: bool = False) -> dict[str, str]:
    """Settings for a claimhouse session; also used for dbt's profile. `endpoint`: the SQL
    endpoint's session, where clients' statements pass the guard, no file is read by path,
    results stream to the client and a query has a time limit."""
    spark_dir = settings.spark_dir
    java_opts = " ".join(
        [
            f"-Dderby.system.home={spark_dir}",
            f"-Djava.io.tmpdir={spark_dir / 'tmp'}",
            f"-Dlog4j2.configurationFile=file:{LOG4J_CONF}",
            # The throughput collector: on few cores G1's concurrent threads compete with the
            # JIT and the query (a short run is mostly the cold JIT's compiling).
            "-XX:+UseParallelGC",
        ]
    )
    conf = {
        "spark.app.name": "claimhouse",
        "spark.master": settings.spark_master,
        "spark.ui.enabled": str(ui).lower(),
        # In local mode the driver JVM is also the executor: Spark's 1g default is too small
        # for broadcast joins over article bodies (contract rules join claims to bronze).
        "spark.driver.memory": settings.driver_memory,
        "spark.sql.extensions": DELTA_EXTENSION,
        "spark.sql.catalog.spark_catalog": "org.apache.spark.sql.delta.catalog.DeltaCatalog",
        # in-memory: each process names the lake's tables by path at start, so any number of
        # processes (pipeline, dbt, SQL server) can share a warehouse.
        "spark.sql.catalogImplementation": settings.catalog,
        "spark.sql.warehouse.dir": str(spark_dir / "spark-warehouse"),
        "spark.hadoop.javax.jdo.option.ConnectionURL": (
            f"jdbc:derby:;databaseName={spark_dir / 'metastore_db'};create=true"
        ),
        "spark.driver.extraJavaOptions": java_opts,
        "spark.local.dir": str(spark_dir / "tmp"),
        **command_conf(settings),
        "spark.sql.session.timeZone": "UTC",
        # Delta rebuilds a table's state with this many tasks (default 50): our logs are short.
        "spark.databricks.delta.snapshotPartitions": "4",
        # Delta's VACUUM lists a table's files in this many tasks: Spark's default of 10,000
        # took 40-65 s to vacuum a table of a few files on 2 cores (16: 7-10 s).
        "spark.sql.sources.parallelPartitionDiscovery.parallelism": "16",
        # A run generates more classes than Spark's default cache of 100 keeps, so a long-lived
        # session (the warm engine, Dagster, tests) compiled them all again on every run.
        "spark.sql.codegen.cache.maxEntries": "5000",
        # A Hive metastore (CLAIMHOUSE_CATALOG=hive, dbt from a shell) cannot hold a view whose
        # column comment is over 256 characters (gold.facts'); Spark then stores the view its
        # own way, but only after Hive's handler retried that certain failure 10 times 2 s apart.
        "spark.hadoop.hive.hmshandler.retry.attempts": "1",
        "spark.ui.showConsoleProgress": "false",
        "spark.pyspark.python": sys.executable,
        "spark.pyspark.driver.python": sys.executable,
        "spark.executorEnv.PYSPARK_PYTHON": sys.executable,
    }
    if endpoint:
        # The guard first: its rules run before Delta's, which fail some writes in their own way.
        conf["spark.sql.extensions"] = f"{GUARD_EXTENSION},{DELTA_EXTENSION}"
        # No SELECT FROM text.`/any/file` nor delta.`/path`: only the catalog's tables.
        conf["spark.sql.runSQLOnFiles"] = "false"
        # Big scans stream to the client a partition at a time instead of collecting at once.
        conf["spark.sql.thriftServer.incrementalCollect"] = "true"
        conf["spark.sql.thriftServer.queryTimeout"] = f"{settings.sql_query_timeout_s}s"
        conf["spark.sql.thriftServer.interruptOnCancel"] = "true"
    if settings.spark_event_log is not None:
        # Every job and SQL statement with its timings, for benchmarks/spark_profile.py or a
        # Spark History Server; uncompressed so a plain reader can follow it. Spark needs the
        # folder to exist.
        folder = settings.spark_event_log
        folder.mkdir(parents=True, exist_ok=True)
        conf["spark.eventLog.enabled"] = "true"
        conf["spark.eventLog.dir"] = folder.as_uri()
        conf["spark.eventLog.compress"] = "false"
    if settings.spark_master.startswith("spark://"):
        # Standalone executors default to 1g, too small for the body joins named above.
        conf["spark.executor.memory"] = settings.executor_memory
        if urlparse(settings.spark_master).hostname in ("127.0.0.1", "localhost"):
            # A loopback master's workers reach the driver on loopback too.
            conf["spark.driver.host"] = "127.0.0.1"
    conf.update(s3a_conf(settings))
    jars = local_delta_jars(settings.jars_dir)
    if jars:
        conf["spark.jars"] = ",".join(str(j) for j in jars)
        # Also on the driver's own classpath: threads that do not inherit Spark's jar class
        # loader (the Thrift server's session handlers) must still find the Delta catalog.
        conf["spark.driver.extraClassPath"] = ":".join(str(j) for j in jars)
    return conf


def s3a_conf(settings: Settings) -> dict[str, str]:
    """Hadoop's S3A settings for an `s3a://` warehouse (and any s3a:// path read by name).
    Credentials are not set here: S3A's default chain reads AWS_ACCESS_KEY_ID and
    AWS_SECRET_ACCESS_KEY from the environment, as claimhouse's own requests do."""
    conf = {
        "spark.hadoop.fs.s3a.endpoint.region": settings.s3_region,
        "spark.hadoop.fs.s3a.path.style.access": str(settings.s3_path_style).lower(),
    }
    if settings.s3_endpoint:
        conf["spark.hadoop.fs.s3a.endpoint"] = settings.s3_endpoint
        conf["spark.hadoop.fs.s3a.connection.ssl.enabled"] = str(
            settings.s3_endpoint.startswith("https://")
        ).lower()
    return conf


@contextlib.contextmanager
def conf_restored(spark: SparkSession, keys: Iterable[str]) -> Iterator[None]:
    """Put these session settings back as they were (unset when they were) afterwards,
    whatever the block or a library inside it set."""
    saved = {key: spark.conf.get(key, None) for key in keys}
    try:
        yield
    finally:
        for key, value in saved.items():
            if value is None:
                spark.conf.unset(key)
            else:
                spark.conf.set(key, value)


def command_conf(settings: Settings) -> dict[str, str]:
    """The settings a running session can take per command (SQL settings, unlike the JVM's):
    the warm engine applies a client's for the length of its command."""
    # Small data per run: few shuffle partitions keep local runs fast; AQE coalesces anyway.
    return {"spark.sql.shuffle.partitions": str(settings.shuffle_partitions)}


def get_spark(settings: Settings, ui: bool | None = None, endpoint: bool = False) -> SparkSession:
    """Return this process's SparkSession, starting it on first use.

    A JVM holds one session for its lifetime; later calls return it unchanged, so the first
    caller's warehouse decides where the metastore lives. Tables are always read and written
    by path, so other warehouses still work in the same process.
    """
    active = SparkSession.getActiveSession()
    if active is not None:
        return active
    if ui is None:
        ui = settings.spark_ui
    # Workers must run the interpreter that has claimhouse installed.
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
    (settings.spark_dir / "tmp").mkdir(parents=True, exist_ok=True)
    builder = SparkSession.builder
    if settings.catalog == "hive":
        builder = builder.enableHiveSupport()
    for key, value in spark_conf(settings, ui=ui, endpoint=endpoint).items():
        builder = builder.config(key, value)
    if not local_delta_jars(settings.jars_dir):
        from delta import configure_spark_with_delta_pip

        builder = configure_spark_with_delta_pip(builder)
    else:
        _start_jvm(spark_conf(settings, ui=ui, endpoint=endpoint))
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    return spark


# What the JVM prints at every start that tells a user nothing (Spark 4 turns on the vector
# module itself); everything else it writes to stderr is passed on.
JVM_NOISE = (b"WARNING: Using incubator modules",)
# Delta's VACUUM prints its count on the JVM's stdout; lake.maintenance reports it itself.
JVM_CONSOLE_NOISE = b" files and directories in a total of "


def _start_jvm(conf: dict[str, str]) -> None:
    """Start the driver JVM the way SparkSession would, but with its stdout and stderr
    through a filter: the session built next uses this gateway."""
    from pyspark import SparkConf, SparkContext
    from pyspark.java_gateway import launch_gateway

    if SparkContext._gateway is not None or "PYSPARK_GATEWAY_PORT" in os.environ:
        return
    submit = SparkConf(loadDefaults=False).setAll(list(conf.items()))
    gateway = launch_gateway(
        submit, popen_kwargs={"stdout": subprocess.PIPE, "stderr": subprocess.PIPE}
    )
    for pipe, fd in ((gateway.proc.stdout, 1), (gateway.proc.stderr, 2)):
        threading.Thread(
            target=_forward, args=(pipe, fd), name=f"claimhouse-jvm-{fd}", daemon=True
        ).start()
    SparkContext._ensure_initialized(gateway=gateway)


_muted = threading.Event()


def mute_jvm_stderr() -> None:
    """Pass nothing more of the JVM's stderr on: once a run is stopping, its cancelled jobs
    log stack traces that say nothing to the person who stopped it."""
    _muted.set()


def unmute_jvm_stderr() -> None:
    """Pass the JVM's stderr on again: the warm engine's next command is not stopping."""
    _muted.clear()


def _forward(pipe, fd: int) -> None:
    for line in iter(pipe.readline, b""):
        noise = line.startswith(JVM_NOISE) or JVM_CONSOLE_NOISE in line
        if not (noise or (fd == 2 and _muted.is_set())):
            with contextlib.suppress(OSError):
                os.write(fd, line)


def unreachable_master(master: str, timeout_s: float = 5.0) -> str | None:
    """Why no host of a `spark://` master URL takes a connection, or None (any other master,
    or one that answers). Spark itself retries an unreachable master for over a minute."""
    if not master.startswith("spark://"):
        return None
    reasons = []
    for hostport in master.removeprefix("spark://").split(","):
        host, _, port = hostport.rpartition(":")
        try:
            with socket.create_connection((host, int(port)), timeout=timeout_s):
                return None
        except (OSError, ValueError) as exc:
            reasons.append(
                f"{hostport}: {exc.strerror or exc}"
                if isinstance(exc, OSError)
                else f"{hostport}: not host:port"
            )
    return "; ".join(reasons)


def local_frame(
    spark: SparkSession,
    rows: Sequence[Mapping[str, Any] | Sequence[Any]],
    schema: StructType | str,
) -> DataFrame:
    """A DataFrame of rows this process holds (dicts by column name, or tuples in the schema's
    order; `schema` a StructType or a DDL string), handed to the JVM as one Arrow table.
    spark.createDataFrame(list) ships them as a pickled RDD instead, which made a one-row
    audit append nearly twice as slow (benchmarks/HISTORY.md, 2026-12-07)."""
    import pyarrow as pa
    from pyspark.sql.pandas.types import to_arrow_schema

    struct = StructType.fromDDL(schema) if isinstance(schema, str) else schema
    names = struct.fieldNames()
    records = [
        row if isinstance(row, Mapping) else dict(zip(names, row, strict=True)) for row in rows
    ]
    table = pa.Table.from_pylist(records, schema=to_arrow_schema(struct))
    return spark.createDataFrame(table, struct)
