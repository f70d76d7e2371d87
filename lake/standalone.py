"""A Spark standalone cluster (one master, one worker) on loopback, started with pyspark's own
`spark-class`: the path for users who outgrow `local[*]`, tried end to end on one machine.

    python -m lake.standalone --cores 2 --memory 4g     # prints the master URL, Ctrl-C stops

Then `claimhouse run --master spark://127.0.0.1:<port>`. On a real cluster the workers must see
the warehouse and input folders at the same paths (a shared filesystem), and run the same
Python environment.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

import pyspark

HOST = "127.0.0.1"


@dataclass(frozen=True)
class Cluster:
    master_url: str
    master_ui: str
    log_dir: Path


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def _spark_class(main: str, args: list[str], log: Path, env: dict[str, str]) -> subprocess.Popen:
    spark_home = Path(pyspark.__file__).parent
    with log.open("wb") as out:
        return subprocess.Popen(
            [str(spark_home / "bin" / "spark-class"), main, *args],
            stdout=out,
            stderr=subprocess.STDOUT,
            env=env,
            start_new_session=True,  # its own process group: stopped as one
        )


def _alive_workers(master_ui: str) -> int:
    try:
        with urllib.request.urlopen(f"{master_ui}/json/", timeout=2) as response:
            return int(json.load(response).get("aliveworkers", 0))
    except OSError:
        return 0


def _stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


@contextmanager
def standalone_cluster(
    cores: int = 2, memory: str = "4g", work_dir: Path | None = None, timeout: float = 90
) -> Iterator[Cluster]:
    """Start a master and one worker on loopback; stop both on exit."""
    work_dir = Path(work_dir or tempfile.mkdtemp(prefix="claimhouse-cluster-"))
    log_dir = work_dir / "logs"
    log_dir.mkdir(parents=True, exist_ok=True)
    env = {
        **os.environ,
        "SPARK_HOME": str(Path(pyspark.__file__).parent),
        "SPARK_LOCAL_IP": HOST,
        # Executors run this interpreter, the one with claimhouse installed.
        "PYSPARK_PYTHON": sys.executable,
    }
    port, ui_port, worker_ui = _free_port(), _free_port(), _free_port()
    master_url, master_ui = f"spark://{HOST}:{port}", f"http://{HOST}:{ui_port}"
    processes = [
        _spark_class(
            "org.apache.spark.deploy.master.Master",
            ["--host", HOST, "--port", str(port), "--webui-port", str(ui_port)],
            log_dir / "master.log",
            env,
        )
    ]
    try:
        processes.append(
            _spark_class(
                "org.apache.spark.deploy.worker.Worker",
                [
                    *("--host", HOST, "--cores", str(cores), "--memory", memory),
                    *("--webui-port", str(worker_ui), "--work-dir", str(work_dir / "work")),
                    master_url,
                ],
                log_dir / "worker.log",
                env,
            )
        )
        deadline = time.monotonic() + timeout
        while _alive_workers(master_ui) < 1:
            dead = [p for p in processes if p.poll() is not None]
            if dead or time.monotonic() > deadline:
                raise RuntimeError(
                    f"the standalone cluster did not start within {timeout:.0f} s "
                    f"(master {master_url}); see the logs in {log_dir}"
                )
            time.sleep(0.5)
        yield Cluster(master_url, master_ui, log_dir)
    finally:
        for process in reversed(processes):
            _stop(process)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cores", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--memory", default="4g", help="memory the worker offers executors")
    args = parser.parse_args(argv)
    # `kill` stops the master and worker too (the context manager's exit runs).
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    with standalone_cluster(args.cores, args.memory) as cluster:
        print(f"master {cluster.master_url} (UI {cluster.master_ui}); logs in {cluster.log_dir}")
        print("claimhouse run --master", cluster.master_url)
        with suppress(KeyboardInterrupt):
            signal.pause()
    return 0


if __name__ == "__main__":
    sys.exit(main())
