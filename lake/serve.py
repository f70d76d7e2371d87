"""A SQL endpoint over the lake: Spark's Thrift server (HiveServer2 protocol) in this process.

JDBC/ODBC clients (beeline, BI tools, PyHive, dbt's thrift target) query the lake's tables by
their layer-qualified names. The catalog is in-memory and filled from the warehouse, so the
server holds no metastore lock: pipeline runs, dbt and Dagster in other processes keep
working, and because Delta's log is the source of truth, each query reads the newest
committed version (a query running during a commit sees the old or the new one, never a mix).
New tables that other processes create are named within `refresh_seconds`.

Clients authenticate (HiveServer2's CUSTOM mechanism against the warehouse's users file,
lake.users) and run as their user; the guard in the session's extensions
(java/claimhouse/sql/LakeGuard.java) lets a reader only read and a writer write only in the
`sandbox` schema. No file is read by path, results stream, and a query has a time limit
(lake.spark.spark_conf(endpoint=True)).
"""

from __future__ import annotations

import json
import os
import signal
import socket
import threading
import time
from collections.abc import Callable
from pathlib import Path

from pyspark.sql import SparkSession

from lake.config import Settings
from lake.schemas import SANDBOX
from lake.storage import Lake, LakeError, _sql_string
from lake.users import load_users, users_file

LOOPBACK = ("127.0.0.1", "localhost", "::1")
# Hive's Thrift service reads these before its configuration: a value inherited from the
# environment would bind the server elsewhere than the address claimhouse prints.
HIVE_BIND_VARIABLES = ("HIVE_SERVER2_THRIFT_BIND_HOST", "HIVE_SERVER2_THRIFT_PORT")


def endpoint_file(warehouse: Path) -> Path:
    """Where a serving endpoint says where it is (`claimhouse sql` finds it there)."""
    return warehouse / "_serve" / "endpoint.json"


def running_endpoint(warehouse: Path) -> str | None:
    """host:port of the `serve-sql` serving this warehouse now, or None: its file names a
    live process that holds the port (a killed server's stale file does not count)."""
    try:
        found = json.loads(endpoint_file(warehouse).read_text())
        os.kill(int(found["pid"]), 0)
        host, port = str(found["host"]), int(found["port"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if not port_in_use(host, port):
        return None
    return f"{'127.0.0.1' if host in ('0.0.0.0', '::') else host}:{port}"


def _forget_endpoint(warehouse: Path) -> None:
    """Remove the endpoint file if this process wrote it."""
    try:
        if json.loads(endpoint_file(warehouse).read_text()).get("pid") == os.getpid():
            endpoint_file(warehouse).unlink()
    except (OSError, ValueError):
        pass


def port_in_use(host: str, port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError:
            return True
    return False


def refresh_catalog(
    spark: SparkSession, lake: Lake, last: dict[str, tuple], serving: bool = False
) -> dict:
    """Name every table under the warehouse and rebuild the `claimhouse.tables` listing
    (layer, table_name, path, delta_version, row_count, status) when something changed. A
    folder that is not a readable Delta table is listed as broken, and the rest still work.
    Once clients are `serving`, a sandbox table is only listed: a writer makes and names it
    through SQL, and naming it from here while its CREATE was committing failed that CREATE
    (TABLE_OR_VIEW_ALREADY_EXISTS)."""
    current: dict[str, tuple] = {}
    for name in lake.tables():
        try:
            if not (serving and name.startswith(f"{SANDBOX}.")):
                lake.register(name)
            version = lake.version(name)
            old = last.get(name)
            rows = old[1] if old is not None and old[0] == version else lake.count(name)
            current[name] = (version, rows, "ok")
        except Exception as exc:  # a folder being created right now, or a broken one
            first = str(exc).strip().splitlines()[0][:200] if str(exc).strip() else "unreadable"
            current[name] = (None, None, f"broken: {first}")
    if current != last:
        values = ", ".join(
            f"({_sql_string(n.split('.')[0])}, {_sql_string(n.split('.')[1])}, "
            f"{_sql_string(str(lake.path(n)))}, {'NULL' if v is None else v}, "
            f"{'NULL' if r is None else r}, {_sql_string(status)})"
            for n, (v, r, status) in sorted(current.items())
        )
        spark.sql("CREATE DATABASE IF NOT EXISTS claimhouse")
        spark.sql(
            "CREATE OR REPLACE VIEW claimhouse.tables AS SELECT * FROM VALUES "
            + (values or "(NULL, NULL, NULL, CAST(NULL AS BIGINT), CAST(NULL AS BIGINT), NULL)")
            + " AS t(layer, table_name, path, delta_version, row_count, status)"
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
    progress: Callable[[str], None] = lambda message: None,
) -> None:
    """Serve until SIGINT/SIGTERM (or `stop` is set), then shut the server down cleanly.
    `progress` hears each step of the start."""
    if port_in_use(host, port):
        raise LakeError(
            f"port {port} on {host} is already in use (another `claimhouse serve-sql`?): "
            "stop that process or pass --port"
        )
    jvm = spark.sparkContext._jvm
    for variable in HIVE_BIND_VARIABLES:
        if jvm.java.lang.System.getenv(variable):
            raise LakeError(
                f"{variable} is set in the server's environment: unset it and start again"
            )
    if host not in LOOPBACK and not load_users(settings.local_dir):
        raise LakeError(
            f"binding to {host} needs users to authenticate, and there are none: add one with "
            "`claimhouse users add NAME`"
        )
    lake = Lake(spark, settings.warehouse, state=settings.local_dir)
    # A writer's tables (a downstream dbt project's) live in the warehouse's sandbox folder.
    spark.sql(
        f"CREATE DATABASE IF NOT EXISTS {SANDBOX} LOCATION "
        + _sql_string(str(settings.warehouse / SANDBOX))
    )
    progress(f"naming the tables of {settings.warehouse}")
    known = refresh_catalog(spark, lake, {})
    progress(f"{len(known)} tables named; starting the Thrift server on {host}:{port}")
    # The authenticator and the guard read the users file (java/claimhouse/sql/Users.java).
    jvm.java.lang.System.setProperty("claimhouse.users.file", str(users_file(settings.local_dir)))
    # A refused login's reason reaches the client, and the log gets one line for it.
    jvm.claimhouse.sql.PlainLogin.install()
    # Hive makes a new HiveConf for each login, which reads its settings from system properties.
    jvm.java.lang.System.setProperty(
        "hive.server2.custom.authentication.class", "claimhouse.sql.PasswordFileAuthenticator"
    )
    # Read by the Thrift server from the session's Hadoop configuration when it starts.
    for key, value in {
        "hive.server2.thrift.port": str(port),
        "hive.server2.thrift.bind.host": host,
        "hive.server2.logging.operation.enabled": "false",
        "hive.server2.authentication": "CUSTOM",
        "hive.server2.custom.authentication.class": "claimhouse.sql.PasswordFileAuthenticator",
        # Each statement runs as the authenticated user: the guard's roles key on it.
        "hive.server2.enable.doAs": "true",
    }.items():
        spark.conf.set(key, value)
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
        where = endpoint_file(settings.local_dir)
        where.parent.mkdir(parents=True, exist_ok=True)
        where.write_text(json.dumps({"host": host, "port": port, "pid": os.getpid()}))
        ready(f"jdbc:hive2://{host}:{port}/default ({len(known)} tables)")
        while not stop.wait(refresh_seconds):
            known = refresh_catalog(spark, lake, known, serving=True)
    finally:
        _forget_endpoint(settings.local_dir)
        server.stop()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
