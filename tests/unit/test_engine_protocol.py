"""The engine's protocol with a plain handler (no Spark): what a client sends is what the
command sees, what it prints comes back in order, and the engine's own state is restored."""

from __future__ import annotations

import dataclasses
import os
import sys
from pathlib import Path

import pytest

from lake import engine
from lake.config import load_settings


@pytest.fixture
def served(tmp_path):
    seen: list[dict] = []

    def handler(argv: list[str]) -> int:
        seen.append(
            {
                "argv": argv,
                "warehouse": os.environ.get("CLAIMHOUSE_WAREHOUSE"),
                "engine": os.environ.get("CLAIMHOUSE_ENGINE"),
                "cwd": os.getcwd(),
                "stdin": sys.stdin.read(),
            }
        )
        print("to stdout")
        print("to stderr", file=sys.stderr)
        if argv[-1] == "boom":
            raise RuntimeError("kaput")
        if argv[-1] == "exit4":
            sys.exit(4)
        return 0

    fixed = engine.fixed_settings(load_settings(warehouse=tmp_path / "spark"))
    server = engine.Engine(tmp_path / "engine", fixed, handler)
    state = server.publish_state()
    thread = engine.serve_in_thread(server)
    yield state, server, seen
    server.shutdown()
    thread.join(timeout=10)


def test_the_command_sees_the_clients_settings_folder_and_input_and_its_output_streams_back(
    served, tmp_path, monkeypatch
):
    state, server, seen = served
    monkeypatch.setenv("CLAIMHOUSE_WAREHOUSE", "/engine/own")
    before = os.getcwd()
    out, err = [], []
    reply = engine.request(
        state,
        ["sql", "SELECT 1"],
        env={"CLAIMHOUSE_WAREHOUSE": "/client/lake", "PATH": "/nowhere"},
        cwd=str(tmp_path),
        stdin="SELECT 2;",
        out=out.append,
        err=err.append,
    )
    assert reply == {"exit": 0}
    assert seen == [
        {
            "argv": ["sql", "SELECT 1"],
            "warehouse": "/client/lake",
            "engine": "off",  # the command must not forward itself again
            "cwd": str(tmp_path),
            "stdin": "SELECT 2;",
        }
    ]
    assert "".join(out) == "to stdout\n" and "".join(err) == "to stderr\n"
    assert os.environ["CLAIMHOUSE_WAREHOUSE"] == "/engine/own" and os.getcwd() == before
    assert "CLAIMHOUSE_ENGINE" not in os.environ and os.environ["PATH"] != "/nowhere"
    assert server.served == 1


def test_exit_codes_and_failures_end_the_command_not_the_engine(served):
    state, server, _ = served
    assert engine.request(state, ["run", "exit4"], env={}) == {"exit": 4}
    err: list[str] = []
    assert engine.request(state, ["run", "boom"], env={}, err=err.append) == {"exit": 1}
    assert "the engine could not run the command: kaput" in "".join(err)
    assert engine.request(state, ["run", "fine"], env={}) == {"exit": 0}


def test_a_wrong_secret_or_an_unknown_command_is_not_run(served, tmp_path):
    state, server, seen = served
    with pytest.raises(engine.EngineError, match="refused: wrong engine token"):
        engine.request(dataclasses.replace(state, token="x"), ["run"], env={})
    assert engine.request(state, ["validate"], env={}) == {
        "declined": "it runs only run, sql, maintain, dagster-run"
    }
    declined = engine.request(state, ["run", "--master", "spark://elsewhere:7077"], env={})
    assert declined == {"declined": "its Spark was started with other spark_master"}
    assert seen == [] and server.served == 0


def test_status_stop_and_a_stale_state_file(served, tmp_path):
    state, server, _ = served
    found = engine.status(tmp_path / "engine")
    assert found["address"] == state.address and found["commands_served"] == 0
    # This engine serves from a thread of the test process, which does not end: `stop` asks,
    # the engine stops serving, and `stop` says the process is still there.
    with pytest.raises(engine.EngineError, match="did not stop within 0 s"):
        engine.stop(tmp_path / "engine", timeout_s=0.1)
    with pytest.raises(engine.EngineError, match="no engine answers"):
        engine.request(state, ["run"], env={})
    # A state file whose process is gone is no engine, and is removed.
    stale = tmp_path / "stale"
    stale.mkdir()
    engine.state_path(stale).write_text(
        '{"pid": 999999999, "host": "127.0.0.1", "port": 1, "token": "t", '
        '"started_at": "", "spark": {}}'
    )
    assert engine.read_state(stale) is None and not engine.state_path(stale).exists()
    assert engine.forward(stale, ["run"], print) is None


@pytest.mark.parametrize(
    "argv, shell",
    [
        (["sql"], True),
        (["sql", "--format", "json", "--warehouse", "/w"], True),
        (["sql", "--local"], True),
        (["sql", "SELECT 1"], False),
        (["sql", "--limit", "5", "SELECT 1"], False),
        (["run"], False),
    ],
)
def test_only_a_sql_shell_without_a_query_is_interactive(argv, shell):
    assert engine.interactive(argv) is shell


def test_the_state_file_is_the_owners_alone(served, tmp_path):
    mode = engine.state_path(tmp_path / "engine").stat().st_mode & 0o777
    assert mode == 0o600 and (Path(tmp_path / "engine").stat().st_mode & 0o777) == 0o700


def test_a_silent_client_is_dropped_and_the_next_one_served(served, monkeypatch):
    state, server, seen = served
    monkeypatch.setattr(engine, "REQUEST_TIMEOUT_S", 0.3)
    import socket

    with socket.create_connection((state.host, state.port)) as silent:
        # It says nothing; the engine drops it and answers the next client.
        assert engine.request(state, ["run", "fine"], env={}, timeout_s=10) == {"exit": 0}
        assert silent.recv(1) == b""
    assert len(seen) == 1


def test_a_signalled_client_stops_its_command_in_the_engine_as_a_signal_would_here(tmp_path):
    """Ctrl-C of a client whose `run` the engine serves: the command's stop request (lake.stop)
    hears SIGINT, the command ends itself with its one line and 130, and the engine, whose
    own signal handlers are untouched, goes on serving."""
    import signal
    import threading
    import time

    from lake.stop import stop_on_signals

    started = threading.Event()

    def handler(argv: list[str]) -> int:
        with stop_on_signals(lambda request: None) as stop:
            if argv[-1] == "fine":
                return 0
            started.set()
            deadline = time.monotonic() + 20
            while stop.signum is None and time.monotonic() < deadline:
                time.sleep(0.05)
            if stop.signum is None:
                return 0
            print(f"error: interrupted by {stop.signal}", file=sys.stderr)
            return stop.exit_code

    fixed = engine.fixed_settings(load_settings(warehouse=tmp_path / "spark"))
    server = engine.Engine(tmp_path / "engine", fixed, handler)
    state = server.publish_state()
    thread = engine.serve_in_thread(server)
    before = signal.getsignal(signal.SIGINT)
    try:
        threading.Thread(
            target=lambda: started.wait(10) and os.kill(os.getpid(), signal.SIGINT), daemon=True
        ).start()
        err: list[str] = []
        reply = engine.request(state, ["run"], env={}, err=err.append, pass_signals=True)
        assert reply == {"exit": 130} and "".join(err) == "error: interrupted by SIGINT\n"
        assert signal.getsignal(signal.SIGINT) is before
        assert engine.request(state, ["run", "fine"], env={}, timeout_s=10) == {"exit": 0}
    finally:
        server.shutdown()
        thread.join(timeout=10)
