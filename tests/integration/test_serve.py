"""`claimhouse serve-sql`: a real Thrift server in its own process, queried by real clients."""

from __future__ import annotations

import getpass
import os
import queue
import re
import select
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from pyhive import hive
from thrift.transport.TTransport import TTransportException

from lake.bronze.ingest import ingest
from lake.serve import refresh_catalog
from lake.silver.publish import extract_new
from lake.users import add_user

BIN = Path(sys.executable).parent
BEELINE = Path(__import__("pyspark").__file__).parent / "bin" / "beeline"

pytestmark = pytest.mark.slow


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if not k.startswith("CLAIMHOUSE_")}


READER, WRITER = ("ana", "reader-pass-1"), ("wes", "writer-pass-1")
QUERY_TIMEOUT_S = 30


@pytest.fixture(scope="module")
def server(gold):
    """`claimhouse serve-sql` on the seeds' warehouse with a reader and a writer, started with
    an environment that would rebind Hive's Thrift service elsewhere (it must not)."""
    _, settings, _, _ = gold
    add_user(settings.warehouse, *READER, role="reader")
    add_user(settings.warehouse, *WRITER, role="writer")
    port = _free_port()
    proc = subprocess.Popen(
        [str(BIN / "claimhouse"), "serve-sql", "--port", str(port)]
        + ["--warehouse", str(settings.warehouse)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={
            **_env(),
            "HIVE_SERVER2_THRIFT_BIND_HOST": "0.0.0.0",
            "CLAIMHOUSE_SQL_QUERY_TIMEOUT_S": str(QUERY_TIMEOUT_S),
        },
    )
    lines: queue.Queue[str] = queue.Queue()
    log: list[str] = []  # drained all along: a full pipe would block the server's logging
    threading.Thread(target=lambda: [lines.put(x) for x in proc.stdout], daemon=True).start()
    threading.Thread(target=lambda: [log.append(x) for x in proc.stderr], daemon=True).start()
    first = lines.get(timeout=240)
    assert first.startswith("serving"), first + "".join(log)
    assert f"jdbc:hive2://127.0.0.1:{port}/default" in first
    yield port, proc, lines, log
    proc.terminate()  # SIGTERM: a graceful stop
    assert proc.wait(timeout=60) == 0
    assert lines.get(timeout=5).strip() == "stopped"
    # No credential reaches the server's log.
    text = "".join(log)
    assert READER[1] not in text and WRITER[1] not in text


def _connect(port: int, user: tuple[str, str] = READER):
    return hive.connect(
        host="127.0.0.1", port=port, auth="CUSTOM", username=user[0], password=user[1]
    )


def _query(port: int, sql: str, user: tuple[str, str] = READER) -> list[tuple]:
    conn = _connect(port, user)
    try:
        cursor = conn.cursor()
        cursor.execute(sql)
        return cursor.fetchall() if cursor.description else []
    finally:
        conn.close()


def _server_error(port: int, sql: str, user: tuple[str, str] = READER) -> str:
    with pytest.raises(Exception) as caught:
        _query(port, sql, user)
    status = getattr(caught.value.args[0], "status", None) if caught.value.args else None
    return getattr(status, "errorMessage", None) or str(caught.value)


def test_a_writers_table_mid_create_is_listed_but_not_named_while_serving(spark, lake, warehouse):
    """A writer's CREATE TABLE in the sandbox commits Delta's log, then names the table in the
    catalog. A refresh in between that named it first made the writer's CREATE fail."""
    spark.range(3).write.format("delta").save(str(warehouse / "sandbox" / "mid"))
    try:
        known = refresh_catalog(spark, lake, {}, serving=True)
        assert known["sandbox.mid"] == (0, 3, "ok")
        assert not spark.catalog.tableExists("sandbox.mid")
        # A starting server names it: its catalog is new, and no client is connected yet.
        refresh_catalog(spark, lake, {})
        assert spark.catalog.tableExists("sandbox.mid")
    finally:
        spark.sql("DROP TABLE IF EXISTS sandbox.mid")


def test_a_client_without_credentials_or_with_a_wrong_password_is_refused(server):
    """The client hears why (not Hive's "Error validating the login"); the server's log says
    it in one line, with no stack frames."""
    port, _, _, log = server
    before = len(log)
    with pytest.raises(TTransportException) as wrong:
        hive.connect(host="127.0.0.1", port=port, auth="CUSTOM", username="ana", password="no")
    assert str(wrong.value) == (
        "Bad status: 3 (b\"wrong user name or password for 'ana' (users: claimhouse users list)\")"
    )
    with pytest.raises(TTransportException) as anonymous:
        hive.connect(host="127.0.0.1", port=port, auth="NONE")  # no password
    me = getpass.getuser()  # PyHive's user when none is given
    assert f"wrong user name or password for '{me}'" in str(anonymous.value)
    time.sleep(1)  # the log's reader thread
    logged = log[before:]
    assert [line.split(" ", 1)[1].rstrip() for line in logged] == [
        "WARN login: refused the login of 'ana': wrong user name or password for 'ana' "
        "(users: claimhouse users list)",
        f"WARN login: refused the login of '{me}': wrong user name or password for "
        f"'{me}' (users: claimhouse users list)",
    ], logged
    done = subprocess.run(
        [str(BIN / "claimhouse"), "sql", "--server", f"127.0.0.1:{port}", "--user", "ana"]
        + ["SELECT 1"],
        capture_output=True,
        text=True,
        timeout=60,
        env={**_env(), "CLAIMHOUSE_SQL_PASSWORD": "wrong-password"},
    )
    assert done.returncode == 2  # usage: fix the credentials
    assert done.stderr.strip() == (
        f"error: 127.0.0.1:{port} refused the login of 'ana': wrong user name or password"
    )


def test_the_server_listens_only_where_it_says(server):
    """HIVE_SERVER2_THRIFT_BIND_HOST=0.0.0.0 was in the server's environment."""
    port, *_ = server
    listening = subprocess.run(["ss", "-ltnH"], capture_output=True, text=True).stdout
    addresses = {
        line.split()[3] for line in listening.splitlines() if line.split()[3].endswith(f":{port}")
    }
    hosts = {a.rsplit(":", 1)[0].strip("[]") for a in addresses}
    assert hosts and all(h.endswith("127.0.0.1") for h in hosts), addresses


READER_MAY_NOT = {
    "INSERT": "INSERT INTO bronze.rejects SELECT * FROM bronze.rejects",
    "DELETE": "DELETE FROM bronze.articles WHERE true",
    "MERGE": "MERGE INTO bronze.rejects t USING bronze.rejects s ON t.source_uri = s.source_uri "
    "WHEN MATCHED THEN DELETE",
    "DROP": "DROP TABLE silver.claims",
    "directory": "INSERT OVERWRITE DIRECTORY '/tmp/claimhouse-x' USING parquet "
    "SELECT * FROM bronze.articles",
    "SET": "SET spark.databricks.delta.retentionDurationCheck.enabled=false",
    "VACUUM": "VACUUM bronze.articles RETAIN 0 HOURS",
    # gold's tables are views of the release: Delta would refuse these in its own words first.
    "DELETE gold": "DELETE FROM gold.facts WHERE true",
    "UPDATE gold": "UPDATE gold.facts SET status = 'corroborated'",
    "MERGE gold": "MERGE INTO gold.facts t USING gold.facts s ON t.fact_id = s.fact_id "
    "WHEN MATCHED THEN DELETE",
}


@pytest.mark.parametrize("what", sorted(READER_MAY_NOT))
def test_a_reader_may_not_change_anything(server, gold, what):
    port, *_ = server
    lake = gold[0]
    before = {t: (lake.version(t), lake.count(t)) for t in ("bronze.articles", "bronze.rejects")}
    message = _server_error(port, READER_MAY_NOT[what])
    assert "claimhouse: user 'ana' (reader) may not run" in message, message
    assert "a reader may query, DESCRIBE, SHOW and read history; nothing else" in message
    assert {t: (lake.version(t), lake.count(t)) for t in before} == before


def test_no_file_is_read_by_its_path(server):
    port, *_ = server
    message = _server_error(port, "SELECT * FROM text.`/etc/hostname`")
    assert "TABLE_OR_VIEW_NOT_FOUND" in message
    message = _server_error(port, "SELECT count(*) FROM delta.`/tmp`")
    assert "TABLE_OR_VIEW_NOT_FOUND" in message


def test_a_reader_reads_history_and_travels_in_time(server, gold):
    port, *_ = server
    history = _query(port, "DESCRIBE HISTORY bronze.articles")
    assert history and history[-1][0] == 0
    assert _query(port, "SELECT count(*) FROM bronze.articles VERSION AS OF 1")[0][0] == 5
    assert ("facts",) in {(r[1],) for r in _query(port, "SHOW TABLES IN gold")}
    described = _query(port, "DESCRIBE gold.facts")
    assert described[0][0] == "fact_id"
    # dbt's column docs, as the release's column comments, in another process too.
    assert described[0][2].startswith("sha256 of story_id, kind, measure_key and per")


def test_a_runaway_query_is_ended_with_a_message_and_a_big_scan_streams(server):
    port, *_ = server
    started = time.monotonic()
    message = _server_error(port, "SELECT sum(id % 7) FROM range(0, 100000000000, 1, 2)")
    assert time.monotonic() - started < QUERY_TIMEOUT_S + 60
    assert "TIMEDOUT" in message, message
    # A writer's table of 150,000 rows of 2 KB (300 MB), read whole by a client: the server
    # streams it a partition at a time and still answers afterwards.
    _query(
        port,
        "CREATE OR REPLACE TABLE sandbox.big USING delta AS "
        "SELECT id, repeat('x', 2000) AS body FROM range(0, 150000, 1, 6)",
        WRITER,
    )
    conn = _connect(port)
    try:
        cursor = conn.cursor()
        cursor.execute("SELECT * FROM sandbox.big")
        seen = 0
        while batch := cursor.fetchmany(10000):
            seen += len(batch)
        assert seen == 150000
    finally:
        conn.close()
    assert _query(port, "SELECT 1") == [(1,)]
    _query(port, "DROP TABLE sandbox.big", WRITER)


def test_pyhive_joins_facts_to_their_evidence(server):
    port, *_ = server
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
    port, *_ = server
    lake = gold[0]
    done = subprocess.run(
        [str(BEELINE), "-u", f"jdbc:hive2://127.0.0.1:{port}", "--silent=true"]
        + ["-n", READER[0], "-p", READER[1]]
        + ["--outputformat=csv2", "-e", "SELECT count(*) AS n FROM silver.claims"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert f"n\n{lake.count('silver.claims')}" in done.stdout
    assert sorted(r[1] for r in _query(port, "SHOW TABLES IN gold")) == [
        "conflicts_report",
        "fact_conflicts",
        "fact_evidence",
        "facts",
    ]
    listing = dict(
        (f"{r[0]}.{r[1]}", r[2:])
        for r in _query(port, "SELECT * FROM claimhouse.tables WHERE layer IN ('bronze', 'gold')")
    )
    assert listing["bronze.articles"] == (str(lake.path("bronze.articles")), 1, 5, "ok")
    assert listing["gold.facts"][0] == str(lake.path("gold.facts"))


def test_a_second_server_on_the_same_port_is_refused(server):
    port, *_ = server
    done = subprocess.run(
        [str(BIN / "claimhouse"), "serve-sql", "--port", str(port)],
        capture_output=True,
        text=True,
        timeout=60,
        env=_env(),
    )
    assert done.returncode == 3  # the environment: the port is taken
    assert f"port {port} on 127.0.0.1 is already in use" in " ".join(done.stderr.split())
    assert "Traceback" not in done.stderr


def test_sql_server_option(server):
    port, *_ = server
    done = subprocess.run(
        [str(BIN / "claimhouse"), "sql", "--server", f"127.0.0.1:{port}", "--format", "csv"]
        + ["--user", READER[0]]
        + ["SELECT status, count(*) AS n FROM gold.facts GROUP BY status ORDER BY status"],
        capture_output=True,
        text=True,
        timeout=60,
        env={**_env(), "CLAIMHOUSE_SQL_PASSWORD": READER[1]},
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == "status,n"
    assert "conflicting," in done.stdout


def test_sql_finds_the_running_endpoint_and_runs_piped_statements_there(server, gold):
    """No --server: the endpoint serving the warehouse is found, so no Spark starts here."""
    port, *_ = server
    _, settings, _, _ = gold
    done = subprocess.run(
        [str(BIN / "claimhouse"), "sql", "--warehouse", str(settings.warehouse)]
        + ["--format", "csv", "--user", READER[0]],
        input=(
            "SELECT count(*) AS n FROM gold.facts;\n"
            "SELECT nope FROM gold.facts;\n"
            "-- a comment; then a statement over two lines\n"
            "SELECT 'a;b' AS s\n  FROM gold.facts LIMIT 1;\n"
        ),
        capture_output=True,
        text=True,
        timeout=120,
        env={**_env(), "CLAIMHOUSE_SQL_PASSWORD": READER[1]},
    )
    facts = _query(port, "SELECT count(*) FROM gold.facts")[0][0]
    assert done.stdout.splitlines() == ["n", str(facts), "s", "a;b"], done.stderr
    err = " ".join(done.stderr.split())
    via = f"(via the running serve-sql at 127.0.0.1:{port} as {READER[0]}; --local skips it)"
    assert via in err
    assert "error: 127.0.0.1:" in err and "nope" in err
    assert "Traceback" not in err and "incubator" not in err  # no JVM started here
    assert done.returncode == 2  # the failed statement's code; the others still ran


def test_sql_with_no_query_in_a_terminal_is_a_shell_with_history(server, gold, tmp_path):
    """A pseudo-terminal, as a person types: a prompt, a result, `exit`, and the statement
    kept in ~/.claimhouse_sql_history for the next session."""
    import pty

    port, *_ = server
    _, settings, _, _ = gold
    main, child = pty.openpty()
    proc = subprocess.Popen(
        [str(BIN / "claimhouse"), "sql", "--warehouse", str(settings.warehouse)]
        + ["--format", "csv", "--user", READER[0]],
        stdin=child,
        stdout=child,
        stderr=subprocess.PIPE,
        env={**_env(), "CLAIMHOUSE_SQL_PASSWORD": READER[1], "HOME": str(tmp_path)},
    )
    os.close(child)
    seen = b""

    def read_until(marker: bytes, timeout: float = 90) -> None:
        """Read the terminal until `marker` shows (carriage returns aside: a terminal turns
        each line end into CR LF), failing after `timeout` rather than blocking."""
        nonlocal seen
        deadline = time.monotonic() + timeout
        while marker not in seen.replace(b"\r", b""):
            left = deadline - time.monotonic()
            assert left > 0, seen.decode(errors="replace")
            if not select.select([main], [], [], left)[0]:
                continue
            try:
                seen += os.read(main, 4096)
            except OSError:  # the child closed the terminal
                raise AssertionError(seen.decode(errors="replace")) from None

    read_until(b"sql> ")
    os.write(main, b"SELECT 40 + 2\r")
    read_until(b"...> ")  # no `;` yet: the statement goes on
    os.write(main, b"  AS answer;\r")
    read_until(b"answer\n42\n")
    os.write(main, b"exit\r")
    assert proc.wait(timeout=60) == 0, proc.stderr.read().decode()
    os.close(main)
    assert (tmp_path / ".claimhouse_sql_history").read_text().splitlines()[-3:] == [
        "SELECT 40 + 2",
        "  AS answer;",
        "exit",
    ]


def _in_terminal(args: list[str], env: dict[str, str], columns: int) -> tuple[int, list[str]]:
    """Run a command with its stdout on a pseudo-terminal `columns` wide; its lines, with the
    terminal's carriage returns and the colours rich adds there taken out."""
    import fcntl
    import pty
    import struct
    import termios

    main, child = pty.openpty()
    fcntl.ioctl(child, termios.TIOCSWINSZ, struct.pack("HHHH", 50, columns, 0, 0))
    proc = subprocess.Popen(
        args, stdin=subprocess.DEVNULL, stdout=child, stderr=subprocess.PIPE, env=env
    )
    os.close(child)
    seen = b""
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        if not select.select([main], [], [], 1)[0]:
            if proc.poll() is not None:
                break
            continue
        try:
            chunk = os.read(main, 65536)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        seen += chunk
    code = proc.wait(timeout=60)
    os.close(main)
    text = re.sub(rb"\x1b\[[0-9;]*[A-Za-z]", b"", seen).replace(b"\r", b"").decode()
    return code, text.splitlines()


def test_a_wide_result_in_an_80_column_terminal_is_one_field_per_line(server, gold):
    port, *_ = server
    _, settings, _, _ = gold
    code, lines = _in_terminal(
        [str(BIN / "claimhouse"), "sql", "SELECT * FROM gold.facts ORDER BY fact_id"]
        + ["--warehouse", str(settings.warehouse), "--user", READER[0], "--limit", "2"],
        {**_env(), "CLAIMHOUSE_SQL_PASSWORD": READER[1], "COLUMNS": "", "LINES": ""},
        80,
    )
    assert code == 0, lines
    columns = [
        r[0] for r in _query(port, "DESCRIBE gold.facts") if r[0] and not r[0].startswith("#")
    ]
    assert lines[0] == "─[ row 1 ]" + "─" * 70, lines[:3]
    second = next(i for i, line in enumerate(lines) if line.startswith("─[ row 2 ]"))
    names = [line.split(" │ ")[0].strip() for line in lines[1:second]]
    assert [n for n in names if n] == columns  # a long value goes on under a blank name
    assert all(len(line) <= 80 for line in lines), max(lines, key=len)


def test_commits_by_another_process_are_seen_without_restart(server, gold, spark, tmp_path):
    """This test process writes silver while the server runs; the next query sees it."""
    port, *_ = server
    lake = gold[0]
    before = _query(port, "SELECT count(*) FROM silver.claims")[0][0]
    (tmp_path / "new.txt").write_text(
        "Officials said about 2,500 troops arrived, according to the Pentagon."
    )
    ingest(spark, lake, tmp_path, "s1", 5 * 1024 * 1024, validate=False)
    added = extract_new(spark, lake, "s1").claims
    assert added == 1
    assert _query(port, "SELECT count(*) FROM silver.claims")[0][0] == before + added


DOWNSTREAM_PROFILE = """
downstream:
  target: endpoint
  outputs:
    endpoint:
      type: spark
      method: thrift
      host: 127.0.0.1
      port: "{{ env_var('CLAIMHOUSE_SQL_PORT') | as_number }}"
      user: "{{ env_var('CLAIMHOUSE_SQL_USER') }}"
      password: "{{ env_var('CLAIMHOUSE_SQL_PASSWORD') }}"
      auth: CUSTOM
      schema: sandbox
      threads: 1
"""


def test_a_writer_builds_a_downstream_dbt_project_into_sandbox_only(server, tmp_path):
    """A downstream team's dbt project reads gold through the endpoint (dbt's thrift target,
    logged in as a writer) and builds into `sandbox`; the same user cannot write to gold."""
    port, *_ = server
    project = tmp_path / "downstream"
    (project / "models").mkdir(parents=True)
    (project / "dbt_project.yml").write_text(
        "name: downstream\nversion: '1.0'\nconfig-version: 2\nprofile: downstream\n"
        "models:\n  downstream:\n    +materialized: table\n    +file_format: delta\n"
    )
    (project / "profiles.yml").write_text(DOWNSTREAM_PROFILE)
    (project / "models" / "sources.yml").write_text(
        "version: 2\nsources:\n  - name: gold\n    schema: gold\n    tables:\n      - name: facts\n"
    )
    (project / "models" / "facts_by_status.sql").write_text(
        "select status, count(*) as facts from {{ source('gold', 'facts') }} group by status"
    )
    env = {
        **_env(),
        "CLAIMHOUSE_SQL_PORT": str(port),
        "CLAIMHOUSE_SQL_USER": WRITER[0],
        "CLAIMHOUSE_SQL_PASSWORD": WRITER[1],
    }

    def dbt(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [str(BIN / "dbt"), *args, "--project-dir", str(project), "--profiles-dir", str(project)]
            + ["--target-path", str(tmp_path / "t"), "--log-path", str(tmp_path / "l")],
            cwd=project,
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
        )

    built = dbt("build")
    assert built.returncode == 0, built.stdout[-3000:]
    counts = dict(_query(port, "SELECT status, facts FROM sandbox.facts_by_status"))
    assert counts["conflicting"] == 1  # the seeds: the meeting date
    (project / "models" / "into_gold.sql").write_text(
        "{{ config(schema='gold_build') }} select 1 as x"
    )
    refused = dbt("run", "--select", "into_gold")
    assert refused.returncode != 0
    assert "user 'wes' (writer) may not run" in refused.stdout
    assert "a writer writes only in the sandbox schema" in refused.stdout
