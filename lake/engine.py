"""The warm engine: one long-lived claimhouse process whose Spark driver runs `claimhouse run` and
`claimhouse sql` for any client on this machine, so a run pays for what it touches instead of a
JVM start and a cold JIT.

Spark Connect cannot carry the pipeline here (Delta's Connect plugin is not on Maven Central,
and the layers use Delta's JVM API), nor can the Thrift server (SQL only). So the engine is a
claimhouse process that runs the same CLI commands in its own warm session: a client sends its
arguments, CLAIMHOUSE_* settings, working folder and piped input; the engine runs the command,
streams back what it prints, and its exit code.

- Loopback only. A client authenticates with the engine's secret, held in a state file only its
  owner can read (`<engine_dir>/engine.json`, mode 0600): whoever may read it may run commands
  as the engine's user, which they could do anyway.
- One command at a time: a second client waits for the first (runs on one warehouse are
  serialized by its writer lock anyway).
- A command whose Spark settings differ from the engine's (another master, catalog, driver heap,
  event log or jars folder) is declined, and the client runs it in its own Spark.
"""

from __future__ import annotations

import contextlib
import hmac
import io
import json
import os
import secrets
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from lake.config import ENGINE_OFF, Settings, load_settings
from lake.stop import SIGNALS

STATE_FILE = "engine.json"
# Commands a client may send to the engine; the engine's own controls start with "__".
FORWARDED = ("run", "sql", "maintain", "dagster-run")
_STATUS, _STOP = "__status__", "__stop__"
_CONNECT_TIMEOUT_S = 2.0
# A client must send its request this soon after connecting, or it is dropped: the engine
# serves one client at a time, and a silent one would hold it.
REQUEST_TIMEOUT_S = 10.0
# Settings fixed when a JVM starts: a command that needs other values cannot use the engine.
_FIXED = ("spark_master", "catalog", "driver_memory", "spark_event_log", "jars_dir")


class EngineError(Exception):
    """The engine could not be reached or refused the client."""


@dataclass(frozen=True)
class EngineState:
    pid: int
    host: str
    port: int
    token: str
    started_at: str
    spark: dict[str, str]  # the _FIXED settings the engine's Spark started with

    @property
    def address(self) -> str:
        return f"{self.host}:{self.port}"


def state_path(engine_dir: Path) -> Path:
    return engine_dir / STATE_FILE


def read_state(engine_dir: Path) -> EngineState | None:
    """The running engine's state, or None (no file, an unreadable one, or its process gone)."""
    path = state_path(engine_dir)
    try:
        state = EngineState(**json.loads(path.read_text()))
    except (OSError, ValueError, TypeError):
        return None
    if not _alive(state.pid):
        with contextlib.suppress(OSError):
            path.unlink()
        return None
    return state


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def in_use(settings: Settings) -> EngineState | None:
    """The engine commands should go to: the running one, unless CLAIMHOUSE_ENGINE is off."""
    return read_state(settings.engine_dir) if settings.engine == "auto" else None


def fixed_settings(settings: Settings) -> dict[str, str]:
    return {name: str(getattr(settings, name)) for name in _FIXED}


# --- client ---------------------------------------------------------------------------------


def request(
    state: EngineState,
    argv: list[str],
    *,
    env: dict[str, str] | None = None,
    cwd: str | None = None,
    stdin: str | None = None,
    out: Callable[[str], None] = lambda text: None,
    err: Callable[[str], None] = lambda text: None,
    timeout_s: float | None = None,
    pass_signals: bool = False,
) -> dict[str, Any]:
    """Send one command to the engine and relay what it prints; returns its last message
    ({"exit": code} when it ran the command, {"declined": why} when it did not, {"status":
    {...}} for a status request). Raises EngineError when it cannot be reached or refuses.
    With `pass_signals`, SIGINT or SIGTERM of this process stops the command in the engine."""
    try:
        conn = socket.create_connection((state.host, state.port), timeout=_CONNECT_TIMEOUT_S)
    except OSError as exc:
        raise EngineError(f"no engine answers at {state.address}: {exc}") from exc
    try:
        with conn:
            conn.settimeout(timeout_s)
            message = {
                "token": state.token,
                "argv": argv,
                "env": env if env is not None else _claimhouse_env(),
                "cwd": cwd or os.getcwd(),
                "stdin": stdin,
            }
            # Signals are taken before the command is sent: one that arrives as the engine
            # starts it is passed on, never a KeyboardInterrupt here.
            passed = _signals_passed_on(conn) if pass_signals else contextlib.nullcontext()
            with passed as command_sent:
                conn.sendall(json.dumps(message).encode() + b"\n")
                if command_sent is not None:
                    command_sent()
                return _replies(state, conn, out, err)
    except OSError as exc:  # a timeout, or the engine gone mid-command
        raise EngineError(f"the engine at {state.address} stopped answering: {exc}") from exc


def _replies(
    state: EngineState,
    conn: socket.socket,
    out: Callable[[str], None],
    err: Callable[[str], None],
) -> dict[str, Any]:
    for line in conn.makefile("r", encoding="utf-8"):
        reply = json.loads(line)
        if "out" in reply:
            out(reply["out"])
        elif "err" in reply:
            err(reply["err"])
        elif "refused" in reply:
            raise EngineError(f"the engine at {state.address} refused: {reply['refused']}")
        else:
            return reply
    raise EngineError(f"the engine at {state.address} closed the connection mid-command")


@contextlib.contextmanager
def _signals_passed_on(conn: socket.socket) -> Iterator[Callable[[], None] | None]:
    """Ctrl-C or SIGTERM of this client stops its command in the engine as it would stop a
    run of its own (lake.stop): the engine prints the one line and the exit code follows. A
    second signal ends the client at once; the engine goes on stopping the command. Yields
    what to call once the command is sent: a signal before it is passed on then."""
    if threading.current_thread() is not threading.main_thread():
        yield None
        return
    told: list[int] = []
    sent: list[bool] = []

    def tell(signum: int) -> None:
        with contextlib.suppress(OSError):
            conn.sendall(json.dumps({"signal": signum}).encode() + b"\n")

    def handle(signum: int, frame) -> None:
        if told:
            os._exit(128 + signum)
        told.append(signum)
        if sent:
            tell(signum)

    def command_sent() -> None:
        sent.append(True)
        if told:
            tell(told[0])

    previous = {s: signal.getsignal(s) for s in SIGNALS}
    for s in SIGNALS:
        signal.signal(s, handle)
    try:
        yield command_sent
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)


def _claimhouse_env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k.startswith("CLAIMHOUSE_")}


def forward(
    engine_dir: Path, argv: list[str], note: Callable[[str], None], stdin: str | None = None
) -> int | None:
    """Run a CLI command in the engine when one is up and takes it: its exit code, or None
    (no engine, or it declined: the caller runs the command itself). What the engine prints
    goes to this process's stdout and stderr as it comes; `stdin`, what was piped in."""
    state = read_state(engine_dir)
    if state is None or not argv or argv[0] not in FORWARDED:
        return None
    try:
        reply = request(
            state,
            argv,
            stdin=stdin,
            out=lambda text: (sys.stdout.write(text), sys.stdout.flush()),
            err=lambda text: (sys.stderr.write(text), sys.stderr.flush()),
            pass_signals=True,
        )
    except EngineError as exc:
        note(f"note: {exc}; running without it")
        return None
    if "declined" in reply:
        note(f"note: the engine at {state.address} declined ({reply['declined']}); running here")
        return None
    return int(reply.get("exit", 1))


# Options of `run` and `sql` that take a value (the rest are flags).
_VALUED = (
    "--input",
    "--warehouse",
    "--master",
    "--max-file-bytes",
    "--log-format",
    "--format",
    "--limit",
    "--server",
    "--user",
)


def interactive(argv: list[str]) -> bool:
    """`claimhouse sql` with no query: a shell on this terminal, which stays in this process."""
    if argv[:1] != ["sql"]:
        return False
    rest = iter(argv[1:])
    for arg in rest:
        if arg in _VALUED:
            next(rest, None)
        elif not arg.startswith("-"):
            return False
    return True


def status(engine_dir: Path) -> dict[str, Any] | None:
    state = read_state(engine_dir)
    if state is None:
        return None
    return request(state, [_STATUS], timeout_s=30)["status"]


def stop(engine_dir: Path, timeout_s: float = 60.0) -> bool:
    """Ask the engine to stop and wait for its process to end; False when none was running.
    Raises EngineError when it is still running after `timeout_s` (a long command)."""
    state = read_state(engine_dir)
    if state is None:
        return False
    with contextlib.suppress(EngineError):
        request(state, [_STOP], timeout_s=timeout_s)
    deadline = time.monotonic() + timeout_s
    while _alive(state.pid) and time.monotonic() < deadline:
        time.sleep(0.2)
    if _alive(state.pid):
        raise EngineError(
            f"the engine (pid {state.pid}) did not stop within {timeout_s:.0f} s, a command "
            f"still running? Try again later, or end it with `kill {state.pid}`"
        )
    with contextlib.suppress(OSError):
        state_path(engine_dir).unlink()
    return True


# --- server ---------------------------------------------------------------------------------


class _Stream(io.TextIOBase):
    """A text stream whose writes go to the client as {"out"/"err": text} lines."""

    def __init__(self, send: Callable[[dict], None], key: str):
        self._send, self._key = send, key

    def write(self, text: str) -> int:
        if text:
            self._send({self._key: text})
        return len(text)

    def isatty(self) -> bool:
        return False

    @property
    def encoding(self) -> str:
        return "utf-8"


Handler = Callable[[list[str]], int]


class Engine:
    """The server: accepts one client at a time on a loopback port and runs its command with
    `handler` (argv -> exit code) in this process, under the client's settings and folder."""

    def __init__(self, engine_dir: Path, spark: dict[str, str], handler: Handler):
        self.engine_dir = engine_dir
        self.spark = spark
        self.handler = handler
        self.token = secrets.token_urlsafe(32)
        self.started_at = datetime.now(UTC).isoformat(timespec="seconds")
        self.served = 0
        self._sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._sock.bind(("127.0.0.1", 0))
        self._sock.listen(8)
        self.port: int = self._sock.getsockname()[1]
        self._stopping = threading.Event()

    def publish_state(self) -> EngineState:
        """Write the state file (owner-only) that clients find the engine by."""
        self.engine_dir.mkdir(parents=True, exist_ok=True)
        os.chmod(self.engine_dir, 0o700)
        state = EngineState(
            os.getpid(), "127.0.0.1", self.port, self.token, self.started_at, self.spark
        )
        path = state_path(self.engine_dir)
        temporary = path.with_suffix(".tmp")
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as handle:
            json.dump(state.__dict__, handle)
        os.replace(temporary, path)
        return state

    def serve_forever(self) -> None:
        try:
            while not self._stopping.is_set():
                try:
                    conn, _ = self._sock.accept()
                except OSError:
                    break
                with conn:
                    self._serve(conn)
        finally:
            self._sock.close()
            current = read_state(self.engine_dir)
            if current is not None and current.port == self.port:
                with contextlib.suppress(OSError):
                    state_path(self.engine_dir).unlink()

    def shutdown(self) -> None:
        self._stopping.set()
        with contextlib.suppress(OSError):
            self._sock.shutdown(socket.SHUT_RDWR)
        self._sock.close()

    def _serve(self, conn: socket.socket) -> None:
        lock = threading.Lock()

        def send(message: dict) -> None:
            with lock, contextlib.suppress(OSError):
                conn.sendall(json.dumps(message).encode() + b"\n")

        conn.settimeout(REQUEST_TIMEOUT_S)
        reader = conn.makefile("r", encoding="utf-8")
        try:
            message = json.loads(reader.readline() or "{}")
        except OSError:
            return  # silent past the timeout, or gone
        except ValueError:
            send({"refused": "not a claimhouse engine request"})
            return
        conn.settimeout(None)
        if not hmac.compare_digest(str(message.get("token", "")), self.token):
            send({"refused": "wrong engine token (is the state file from another engine?)"})
            return
        argv = list(message.get("argv") or [])
        if argv == [_STATUS]:
            send({"status": self.describe()})
            return
        if argv == [_STOP]:
            send({"exit": 0})
            self.shutdown()
            return
        env = {k: str(v) for k, v in (message.get("env") or {}).items()}
        with _client_context(env, message.get("cwd"), message.get("stdin"), send):
            why = self._declined(argv, env)
            if why:
                send({"declined": why})
                return
            self.served += 1
            listener = threading.Thread(
                target=_hear_signals, args=(reader,), name="claimhouse-client", daemon=True
            )
            listener.start()
            with _command_conf():
                code = _run(self.handler, argv)
        send({"exit": code})
        with contextlib.suppress(OSError):
            conn.shutdown(socket.SHUT_RD)  # the listener's read ends
        listener.join(timeout=5)

    def _declined(self, argv: list[str], env: dict[str, str]) -> str | None:
        if not argv or argv[0] not in FORWARDED:
            return f"it runs only {', '.join(FORWARDED)}"
        master = _option(argv, "--master")
        try:
            wanted = fixed_settings(load_settings(spark_master=master))
        except Exception as exc:  # the command itself reports bad settings
            return None if isinstance(exc, ValueError) else str(exc)
        differ = [k for k in _FIXED if wanted[k] != self.spark.get(k)]
        if differ:
            return "its Spark was started with other " + ", ".join(differ)
        return None

    def describe(self) -> dict[str, Any]:
        return {
            "pid": os.getpid(),
            "address": f"127.0.0.1:{self.port}",
            "started_at": self.started_at,
            "commands_served": self.served,
            **self.spark,
        }


def _hear_signals(reader: io.TextIOBase) -> None:
    """While a command runs, a client that is sent SIGINT or SIGTERM says so ({"signal": n}):
    the command stops as a signal to this process would stop it (lake.stop). A command that
    does not listen for stops (a query) has its Spark jobs cancelled instead."""
    from lake.stop import cancel_spark_jobs, deliver

    with contextlib.suppress(OSError, ValueError):  # the command ended and the client left
        for line in reader:
            signum = json.loads(line).get("signal")
            if isinstance(signum, int) and not deliver(signum):
                cancel_spark_jobs()


def _option(argv: list[str], name: str) -> str | None:
    for i, arg in enumerate(argv):
        if arg == name and i + 1 < len(argv):
            return argv[i + 1]
        if arg.startswith(name + "="):
            return arg.split("=", 1)[1]
    return None


@contextlib.contextmanager
def _client_context(
    env: dict[str, str], cwd: str | None, stdin: str | None, send: Callable[[dict], None]
) -> Iterator[None]:
    """The client's CLAIMHOUSE_* settings (and no others), its folder, its piped input, and
    this process's stdout and stderr sent to it; all restored afterwards."""
    saved_env = {k: v for k, v in os.environ.items() if k.startswith("CLAIMHOUSE_")}
    saved_cwd = os.getcwd()
    saved_stdin = sys.stdin
    for key in saved_env:
        del os.environ[key]
    os.environ.update({k: v for k, v in env.items() if k.startswith("CLAIMHOUSE_")})
    # The command runs here: it must not forward itself to the engine again.
    os.environ.update(ENGINE_OFF)
    try:
        if cwd and Path(cwd).is_dir():
            os.chdir(cwd)
        sys.stdin = io.StringIO(stdin) if stdin is not None else io.StringIO("")
        with (
            contextlib.redirect_stdout(_Stream(send, "out")),
            contextlib.redirect_stderr(_Stream(send, "err")),
        ):
            yield
    finally:
        sys.stdin = saved_stdin
        os.chdir(saved_cwd)
        for key in [k for k in os.environ if k.startswith("CLAIMHOUSE_")]:
            del os.environ[key]
        os.environ.update(saved_env)


@contextlib.contextmanager
def _command_conf() -> Iterator[None]:
    """The client's per-command Spark settings (lake.spark.command_conf: its shuffle
    partitions) on this process's session while its command runs; the engine's own after."""
    from pyspark import SparkContext
    from pyspark.sql import SparkSession

    from lake.spark import command_conf, conf_restored, unmute_jvm_stderr

    unmute_jvm_stderr()  # an earlier command may have been stopped
    # The session is active in the thread that made it; this may be another.
    if SparkContext._active_spark_context is None:
        yield
        return
    session = SparkSession.builder.getOrCreate()
    try:
        wanted = command_conf(load_settings())
    except ValueError:  # the command itself reports bad settings
        wanted = {}
    with conf_restored(session, wanted):
        for key, value in wanted.items():
            session.conf.set(key, value)
        yield


def _run(handler: Handler, argv: list[str]) -> int:
    try:
        return int(handler(argv) or 0)
    except SystemExit as exc:
        code = exc.code
        if code is None:
            return 0
        if isinstance(code, int):
            return code
        print(code, file=sys.stderr)
        return 1
    except Exception as exc:  # an unexpected failure ends this command, not the engine
        print(f"error: the engine could not run the command: {exc}", file=sys.stderr)
        return 1


def serve_in_thread(engine: Engine) -> threading.Thread:
    """Serve in a daemon thread of this process (tests; a process that already holds Spark)."""
    thread = threading.Thread(target=engine.serve_forever, name="claimhouse-engine", daemon=True)
    thread.start()
    return thread
