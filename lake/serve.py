"""A SQL endpoint over the lake: Spark's Thrift server (HiveServer2 protocol) in this process.

JDBC/ODBC clients (beeline, BI tools, PyHive, dbt's thrift target) query the lake's tables by
their layer-qualified names. The catalog is in-memory and filled from the warehouse, so the
server holds no metastore lock: pipeline runs, dbt and Dagster in other processes keep
working, and because Delta's log is the source of truth, each query reads the newest
committed version (a query running during a commit sees the old or the new one, never a mix).
New tables that other processes create are named within `refresh_seconds`.
"""

from __future__ import annotations

import signal
import socket
import threading
import time
from collections.abc import Callable

from pyspark.sql import SparkSession

from lake.config import Settings
from lake.storage import Lake, LakeError

LOOPBACK = ("127.0.0.1", "localhost", "::1")


def port_in_use(host: str, port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError:
            return True
    return False


def refresh_catalog(spark: SparkSession, lake: Lake, last: dict[str, tuple[int, int]]) -> dict:
    """Name every table under the warehouse and rebuild the `claimhouse.tables` listing
    (layer, table_name, path, delta_version, row_count) when a version changed."""
    current: dict[str, tuple[int, int]] = {}
    for name in lake.register_all():
        try:
            version = lake.version(name)
            rows = last[name][1] if last.get(name, (None,))[0] == version else lake.count(name)
        except Exception:  # a table being created right now: list it on the next refresh
            continue
        current[name] = (version, rows)
    if current != last:
        values = ", ".join(
            f"('{n.split('.')[0]}', '{n.split('.')[1]}', '{lake.path(n)}', {v}, {r})"
            for n, (v, r) in sorted(current.items())
        )
        spark.sql("CREATE DATABASE IF NOT EXISTS claimhouse")
        spark.sql(
            "CREATE OR REPLACE VIEW claimhouse.tables AS SELECT * FROM VALUES "
            + (values or "(NULL, NULL, NULL, NULL, NULL)")
            + " AS t(layer, table_name, path, delta_version, row_count)"
            + ("" if values else " WHERE false")
        )
    return current


def serve(
    spark: SparkSession,
    settings: Settings,
    host: str = "127.0.0.1",
    port: int = 10000,
    refresh_seconds: float = 10.0,
    ready: Callable[[str], None] = print,
    stop: threading.Event | None = None,
) -> None:
    """Serve until SIGINT/SIGTERM (or `stop` is set), then shut the server down cleanly."""
    if port_in_use(host, port):
        raise LakeError(
            f"port {port} on {host} is already in use (another `claimhouse serve-sql`?): "
            "stop that process or pass --port"
        )
    lake = Lake(spark, settings.warehouse)
    known = refresh_catalog(spark, lake, {})
    # Read by the Thrift server from the session's Hadoop configuration when it starts.
    spark.conf.set("hive.server2.thrift.port", str(port))
    spark.conf.set("hive.server2.thrift.bind.host", host)
    spark.conf.set("hive.server2.logging.operation.enabled", "false")
    jvm = spark.sparkContext._jvm
    try:
        server = jvm.org.apache.spark.sql.hive.thriftserver.HiveThriftServer2.startWithContext(
            spark._jsparkSession.sqlContext()
        )
    except Exception as exc:  # py4j wraps the JVM's exception
        if "Address already in use" in str(exc):
            raise LakeError(
                f"port {port} on {host} was taken while the server started: stop the other "
                "process or pass --port"
            ) from exc
        raise
    stop = stop or threading.Event()
    previous = {}
    if threading.current_thread() is threading.main_thread():
        for sig in (signal.SIGINT, signal.SIGTERM):
            previous[sig] = signal.signal(sig, lambda *_: stop.set())
    try:
        deadline = time.monotonic() + 60
        while not port_in_use(host, port):
            if time.monotonic() > deadline:
                raise LakeError(f"the Thrift server did not open port {port} within 60 s")
            time.sleep(0.2)
        ready(f"jdbc:hive2://{host}:{port}/default ({len(known)} tables)")
        while not stop.wait(refresh_seconds):
            known = refresh_catalog(spark, lake, known)
    finally:
        server.stop()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
