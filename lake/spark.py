"""The only place a SparkSession is built: Delta on, metastore and scratch inside the warehouse."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from urllib.parse import urlparse

from pyspark.sql import SparkSession

from lake.config import REPO_ROOT, Settings

JARS_DIR = Path(os.environ.get("CLAIMHOUSE_JARS_DIR", REPO_ROOT / ".jars"))
LOG4J_CONF = Path(__file__).resolve().parent / "conf" / "log4j2.properties"


def local_delta_jars(jars_dir: Path = JARS_DIR) -> list[Path]:
    """Delta's jars fetched by scripts/setup; empty when claimhouse was installed elsewhere."""
    return sorted(jars_dir.glob("*.jar")) if jars_dir.is_dir() else []


def catalog_implementation() -> str:
    """'in-memory' (default): each process names the lake's tables by path at start, so any
    number of processes (pipeline, dbt, SQL server) can share a warehouse. 'hive': a Derby
    metastore inside the warehouse, which only one process at a time may open."""
    value = os.environ.get("CLAIMHOUSE_CATALOG", "in-memory")
    if value not in ("in-memory", "hive"):
        raise ValueError(f"CLAIMHOUSE_CATALOG must be 'in-memory' or 'hive', not {value!r}")
    return value


def spark_conf(settings: Settings, ui: bool = False) -> dict[str, str]:
    """Settings for a claimhouse session; also used for dbt's profile and the Thrift server."""
    spark_dir = settings.spark_dir
    java_opts = " ".join(
        [
            f"-Dderby.system.home={spark_dir}",
            f"-Djava.io.tmpdir={spark_dir / 'tmp'}",
            f"-Dlog4j2.configurationFile=file:{LOG4J_CONF}",
        ]
    )
    conf = {
        "spark.app.name": "claimhouse",
        "spark.master": settings.spark_master,
        "spark.ui.enabled": str(ui).lower(),
        # In local mode the driver JVM is also the executor: Spark's 1g default is too small
        # for broadcast joins over article bodies (contract rules join claims to bronze).
        "spark.driver.memory": os.environ.get("CLAIMHOUSE_DRIVER_MEMORY", "4g"),
        "spark.sql.extensions": "io.delta.sql.DeltaSparkSessionExtension",
        "spark.sql.catalog.spark_catalog": "org.apache.spark.sql.delta.catalog.DeltaCatalog",
        "spark.sql.catalogImplementation": catalog_implementation(),
        "spark.sql.warehouse.dir": str(spark_dir / "spark-warehouse"),
        "spark.hadoop.javax.jdo.option.ConnectionURL": (
            f"jdbc:derby:;databaseName={spark_dir / 'metastore_db'};create=true"
        ),
        "spark.driver.extraJavaOptions": java_opts,
        "spark.local.dir": str(spark_dir / "tmp"),
        # Small data per run: few shuffle partitions keep local runs fast; AQE coalesces anyway.
        "spark.sql.shuffle.partitions": os.environ.get("CLAIMHOUSE_SHUFFLE_PARTITIONS", "8"),
        "spark.sql.session.timeZone": "UTC",
        # Delta rebuilds a table's state with this many tasks (default 50): our logs are short.
        "spark.databricks.delta.snapshotPartitions": "4",
        "spark.ui.showConsoleProgress": "false",
        "spark.pyspark.python": sys.executable,
        "spark.pyspark.driver.python": sys.executable,
        "spark.executorEnv.PYSPARK_PYTHON": sys.executable,
    }
    event_log = os.environ.get("CLAIMHOUSE_SPARK_EVENT_LOG")
    if event_log:
        # Every job and SQL statement with its timings, for benchmarks/spark_profile.py or a
        # Spark History Server; uncompressed so a plain reader can follow it. Spark needs the
        # folder to exist.
        folder = Path(event_log).resolve()
        folder.mkdir(parents=True, exist_ok=True)
        conf["spark.eventLog.enabled"] = "true"
        conf["spark.eventLog.dir"] = folder.as_uri()
        conf["spark.eventLog.compress"] = "false"
    if settings.spark_master.startswith("spark://"):
        # Standalone executors default to 1g, too small for the body joins named above.
        conf["spark.executor.memory"] = os.environ.get("CLAIMHOUSE_EXECUTOR_MEMORY", "2g")
        if urlparse(settings.spark_master).hostname in ("127.0.0.1", "localhost"):
            # A loopback master's workers reach the driver on loopback too.
            conf["spark.driver.host"] = "127.0.0.1"
    jars = local_delta_jars()
    if jars:
        conf["spark.jars"] = ",".join(str(j) for j in jars)
        # Also on the driver's own classpath: threads that do not inherit Spark's jar class
        # loader (the Thrift server's session handlers) must still find the Delta catalog.
        conf["spark.driver.extraClassPath"] = ":".join(str(j) for j in jars)
    return conf


def get_spark(settings: Settings, ui: bool | None = None) -> SparkSession:
    """Return this process's SparkSession, starting it on first use.

    A JVM holds one session for its lifetime; later calls return it unchanged, so the first
    caller's warehouse decides where the metastore lives. Tables are always read and written
    by path, so other warehouses still work in the same process.
    """
    active = SparkSession.getActiveSession()
    if active is not None:
        return active
    if ui is None:
        ui = os.environ.get("CLAIMHOUSE_SPARK_UI", "") == "1"
    # Workers must run the interpreter that has claimhouse installed.
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
    (settings.spark_dir / "tmp").mkdir(parents=True, exist_ok=True)
    builder = SparkSession.builder
    if catalog_implementation() == "hive":
        builder = builder.enableHiveSupport()
    for key, value in spark_conf(settings, ui=ui).items():
        builder = builder.config(key, value)
    if not local_delta_jars():
        from delta import configure_spark_with_delta_pip

        builder = configure_spark_with_delta_pip(builder)
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    return spark
