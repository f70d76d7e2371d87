"""The warm engine: `claimhouse run` and `claimhouse sql` in their own processes hand their
command to a running engine, which runs it in its Spark and streams back what it prints. The
engine here is served from a thread of this test process (conftest's hosted_engine), whose
Spark is already warm; the last two start and stop a real one with `claimhouse engine
start|stop`, the last warmed up on the seeds (heavy). A rerun through it is in test_cli.py
(test_run_end_to_end_twice)."""

from __future__ import annotations

import dataclasses
import json
import os
import re
import stat
import subprocess

import pytest

from evaluation.compare import table_differences
from lake import engine

from ..conftest import CLAIMHOUSE, SEEDS, claimhouse

pytestmark = pytest.mark.slow


def _table_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("│")]


@pytest.mark.heavy  # a whole seeds build; test_cli.py's rerun through the engine is in CI
def test_a_run_in_the_engine_builds_and_prints_what_a_run_in_its_own_spark_does(
    spark, cli_run, hosted_engine, tmp_path
):
    folder, server = hosted_engine
    served = server.served
    warehouse = tmp_path / "wh"
    via = {"CLAIMHOUSE_ENGINE_DIR": str(folder)}
    done = claimhouse("run", "--input", str(SEEDS), "--warehouse", str(warehouse), env_extra=via)
    assert done.returncode == 0, done.stderr[-3000:]
    assert server.served == served + 1
    cold_warehouse, cold = cli_run
    assert cold.returncode == 0, cold.stderr[-3000:]
    # The same tables, row for row, and the same summary printed.
    differences = table_differences(spark, cold_warehouse, warehouse)
    assert {t: d for t, d in differences.items() if d["only_in_a"] or d["only_in_b"]} == {}
    assert _table_lines(done.stdout) == _table_lines(cold.stdout)
    assert "gold: 8 dbt models built" in done.stdout


def test_a_command_in_the_engine_runs_with_the_clients_shuffle_partitions(
    spark, hosted_engine, tmp_path
):
    """The SQL settings a session takes per command (lake.spark.command_conf) are the
    client's while its command runs, and the engine's own again afterwards."""
    folder, server = hosted_engine
    own = spark.conf.get("spark.sql.shuffle.partitions")
    assert own != "7"
    via = {"CLAIMHOUSE_ENGINE_DIR": str(folder), "CLAIMHOUSE_SHUFFLE_PARTITIONS": "7"}
    served = server.served
    done = claimhouse(
        "sql",
        "SET spark.sql.shuffle.partitions",
        "--format",
        "json",
        "--warehouse",
        str(tmp_path / "wh"),
        env_extra=via,
    )
    assert done.returncode == 0, done.stderr
    assert server.served == served + 1
    assert json.loads(done.stdout) == [{"key": "spark.sql.shuffle.partitions", "value": "7"}]
    assert spark.conf.get("spark.sql.shuffle.partitions") == own


def test_sql_in_the_engine_reads_the_warehouse_it_names(cli_run, hosted_engine, tmp_path):
    """A query as an argument, and statements piped in, each against its own warehouse."""
    folder, server = hosted_engine
    served = server.served
    via = {"CLAIMHOUSE_ENGINE_DIR": str(folder)}
    warehouse, first = cli_run
    assert first.returncode == 0, first.stderr[-3000:]
    query = claimhouse(
        "sql",
        "SELECT count(*) AS facts FROM gold.facts",
        "--format",
        "json",
        "--warehouse",
        str(warehouse),
        env_extra=via,
    )
    assert query.returncode == 0, query.stderr
    assert json.loads(query.stdout) == [{"facts": 30}]
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLAIMHOUSE_")}
    piped = subprocess.run(
        [CLAIMHOUSE, "sql", "--format", "csv", "--warehouse", str(tmp_path / "empty")],
        input="SELECT 6 * 7 AS answer;\nSELECT count(*) AS n FROM gold.facts;\n",
        capture_output=True,
        text=True,
        timeout=300,
        env={**env, **via},
    )
    assert piped.stdout.splitlines()[:2] == ["answer", "42"]
    # The empty warehouse has no gold: the engine forgot the other warehouse's tables.
    assert piped.returncode == 2, piped.stderr
    assert "TABLE_OR_VIEW_NOT_FOUND" in piped.stderr and "`gold`.`facts`" in piped.stderr
    assert server.served == served + 2


def test_a_wrong_secret_is_refused_and_the_client_runs_on_its_own(hosted_engine, tmp_path):
    folder, server = hosted_engine
    state = engine.read_state(folder)
    assert stat.S_IMODE(engine.state_path(folder).stat().st_mode) == 0o600
    forged = dataclasses.replace(state, token="guessed")
    with pytest.raises(engine.EngineError, match="refused: wrong engine token"):
        engine.request(forged, ["sql", "SELECT 1"])
    elsewhere = tmp_path / "forged"
    elsewhere.mkdir()
    engine.state_path(elsewhere).write_text(json.dumps(dataclasses.asdict(forged)))
    notes: list[str] = []
    assert engine.forward(elsewhere, ["sql", "SELECT 1"], notes.append) is None
    assert notes and "refused: wrong engine token" in notes[0] and "running without it" in notes[0]


def test_a_command_for_another_spark_is_declined(hosted_engine):
    folder, server = hosted_engine
    state = engine.read_state(folder)
    reply = engine.request(state, ["sql", "SELECT 1", "--master", "local[1]"], env={})
    assert reply == {"declined": "its Spark was started with other spark_master"}
    reply = engine.request(state, ["validate"], env={})
    assert reply == {"declined": "it runs only run, sql, maintain, dagster-run"}


def test_engine_start_serves_sql_and_stop_ends_it(tmp_path):
    via = {"CLAIMHOUSE_ENGINE_DIR": str(tmp_path / "engine")}
    started = claimhouse("engine", "start", env_extra=via)
    assert started.returncode == 0, started.stderr[-3000:]
    assert "engine running at 127.0.0.1:" in started.stdout
    try:
        assert "warmed up" not in (tmp_path / "engine" / "engine.log").read_text()
        status = claimhouse("engine", "status", "--format", "json", env_extra=via)
        found = json.loads(status.stdout)
        assert found["running"] and found["commands_served"] == 0
        state = engine.read_state(tmp_path / "engine")
        # Its secret is in the owner-only state file, never on a command line.
        assert state.token not in (tmp_path / "engine" / "engine.log").read_text()
        with open(f"/proc/{state.pid}/cmdline", "rb") as cmdline:
            assert state.token.encode() not in cmdline.read()
        query = claimhouse(
            "sql",
            "SELECT 41 + 1 AS answer",
            "--format",
            "json",
            "--warehouse",
            str(tmp_path / "wh"),
            env_extra=via,
        )
        assert query.returncode == 0, query.stderr
        assert json.loads(query.stdout) == [{"answer": 42}]
        again = json.loads(claimhouse("engine", "status", "--format", "json", env_extra=via).stdout)
        assert again["commands_served"] == 1 and again["pid"] == found["pid"]
    finally:
        stopped = claimhouse("engine", "stop", env_extra=via)
    assert stopped.returncode == 0 and "engine stopped" in stopped.stdout
    gone = claimhouse("engine", "status", env_extra=via)
    assert gone.returncode == 3 and "no engine running" in gone.stdout
    assert not os.path.exists(f"/proc/{state.pid}") or _zombie(state.pid)


def _zombie(pid: int) -> bool:
    with open(f"/proc/{pid}/stat") as handle:
        return handle.read().split(")")[-1].split()[0] == "Z"


@pytest.mark.heavy  # two seeds builds in a cold JVM; the start, serving and stop are in CI above
def test_engine_start_warm_up_runs_the_seeds_twice_then_serves(tmp_path):
    via = {"CLAIMHOUSE_ENGINE_DIR": str(tmp_path / "engine")}
    started = claimhouse("engine", "start", "--warm-up", env_extra=via, timeout=1200)
    assert started.returncode == 0, started.stderr[-3000:]
    try:
        # It ran the seeds twice in a scratch warehouse before serving, and removed it.
        log = (tmp_path / "engine" / "engine.log").read_text()
        assert re.search(r"warmed up in [0-9.]+s on 5 seed articles", log), log[-3000:]
        assert not (tmp_path / "engine" / "warm-up").exists()
        status = claimhouse("engine", "status", "--format", "json", env_extra=via)
        assert json.loads(status.stdout)["running"]
    finally:
        stopped = claimhouse("engine", "stop", env_extra=via)
    assert stopped.returncode == 0 and "engine stopped" in stopped.stdout
