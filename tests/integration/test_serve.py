"""`claimhouse serve-sql`: a real Thrift server in its own process, queried by real clients."""

from __future__ import annotations

import os
import queue
import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from pyhive import hive

from lake.bronze.ingest import ingest
from lake.gold.build import DBT_PROJECT_DIR
from lake.silver.publish import extract_new

BIN = Path(sys.executable).parent
BEELINE = Path(__import__("pyspark").__file__).parent / "bin" / "beeline"

pytestmark = pytest.mark.slow


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if not k.startswith("CLAIMHOUSE_")}


@pytest.fixture(scope="module")
def server(gold):
    _, settings, _, _ = gold
    port = _free_port()
    proc = subprocess.Popen(
        [str(BIN / "claimhouse"), "serve-sql", "--port", str(port)]
        + ["--warehouse", str(settings.warehouse)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=_env(),
    )
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: [lines.put(x) for x in proc.stdout], daemon=True).start()
    first = lines.get(timeout=240)
    assert first.startswith("serving"), first + proc.stderr.read()
    assert f"jdbc:hive2://127.0.0.1:{port}/default" in first
    yield port, proc, lines
    proc.terminate()  # SIGTERM: a graceful stop
    assert proc.wait(timeout=60) == 0
    assert lines.get(timeout=5).strip() == "stopped"


def _query(port: int, sql: str) -> list[tuple]:
    conn = hive.connect(host="127.0.0.1", port=port, auth="NONE")
    try:
        cursor = conn.cursor()
        cursor.execute(sql)
        return cursor.fetchall()
    finally:
        conn.close()


def test_pyhive_joins_facts_to_their_evidence(server):
    port, _, _ = server
    rows = _query(
        port,
        "SELECT f.label, f.status, e.attribution_kind FROM gold.facts f "
        "JOIN gold.fact_evidence e ON f.fact_id = e.fact_id "
        "WHERE f.measure_key = 'arrests/per_day' ORDER BY e.attribution_kind",
    )
    assert [r[:2] for r in rows] == [("arrests per day", "corroborated")] * 5
    assert sorted(r[2] for r in rows) == [
        "anonymous_sources",
        "anonymous_sources",
        "named_person",
        "named_person",
        "unattributed",
    ]


def test_beeline_and_the_table_listing(server, gold):
    port, _, _ = server
    lake = gold[0]
    done = subprocess.run(
        [str(BEELINE), "-u", f"jdbc:hive2://127.0.0.1:{port}", "--silent=true"]
        + ["--outputformat=csv2", "-e", "SELECT count(*) AS n FROM silver.claims"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert f"n\n{lake.count('silver.claims')}" in done.stdout
    assert sorted(r[1] for r in _query(port, "SHOW TABLES IN gold")) == [
        "fact_conflicts",
        "fact_evidence",
        "facts",
    ]
    listing = dict(
        (f"{r[0]}.{r[1]}", r[2:])
        for r in _query(port, "SELECT * FROM claimhouse.tables WHERE layer IN ('bronze', 'gold')")
    )
    assert listing["bronze.articles"] == (str(lake.path("bronze.articles")), 1, 5)
    assert listing["gold.facts"][0] == str(lake.path("gold.facts"))


def test_a_second_server_on_the_same_port_is_refused(server):
    port, _, _ = server
    done = subprocess.run(
        [str(BIN / "claimhouse"), "serve-sql", "--port", str(port)],
        capture_output=True,
        text=True,
        timeout=60,
        env=_env(),
    )
    assert done.returncode == 1
    assert f"port {port} on 127.0.0.1 is already in use" in " ".join(done.stderr.split())
    assert "Traceback" not in done.stderr


def test_sql_server_option(server):
    port, _, _ = server
    done = subprocess.run(
        [str(BIN / "claimhouse"), "sql", "--server", f"127.0.0.1:{port}", "--format", "csv"]
        + ["SELECT status, count(*) AS n FROM gold.facts GROUP BY status ORDER BY status"],
        capture_output=True,
        text=True,
        timeout=60,
        env=_env(),
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == "status,n"
    assert "conflicting," in done.stdout


def test_commits_by_another_process_are_seen_without_restart(server, gold, spark, tmp_path):
    """This test process writes silver while the server runs; the next query sees it."""
    port, _, _ = server
    lake = gold[0]
    before = _query(port, "SELECT count(*) FROM silver.claims")[0][0]
    (tmp_path / "new.txt").write_text(
        "Officials said about 2,500 troops arrived, according to the Pentagon."
    )
    ingest(spark, lake, tmp_path, "s1", 5 * 1024 * 1024)
    added = extract_new(spark, lake, "s1").claims
    assert added == 1
    assert _query(port, "SELECT count(*) FROM silver.claims")[0][0] == before + added


def test_dbt_builds_through_the_thrift_target(server, gold, tmp_path):
    port, _, _ = server
    _, settings, _, _ = gold
    env = {
        **_env(),
        "CLAIMHOUSE_WAREHOUSE": str(settings.warehouse),
        "CLAIMHOUSE_DBT_TARGET": "thrift",
        "CLAIMHOUSE_SQL_PORT": str(port),
        "PWD": str(DBT_PROJECT_DIR),
    }
    done = subprocess.run(
        [str(BIN / "dbt"), "build", "--select", "facts"]
        + ["--target-path", str(tmp_path / "t"), "--log-path", str(tmp_path / "l")],
        cwd=DBT_PROJECT_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout[-3000:]
    assert "target='thrift'" in done.stdout
    assert _query(port, "SELECT count(*) FROM gold.facts WHERE status = 'corroborated'")[0][0] > 0
