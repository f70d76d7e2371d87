"""The seed run, cold and on the warm engine; prints one JSON object.

    .venv/bin/python benchmarks/engine.py [--runs 3] [--warm-up] [--input FOLDER]

1. `claimhouse run` on the seeds into a fresh warehouse in a new process with no engine
   (`CLAIMHOUSE_ENGINE=off`): the JVM starts and every first query runs on a cold JIT.
2. `claimhouse engine start` in a private engine folder, then the same command `--runs` times,
   each into a fresh warehouse: the command goes to the engine, which runs it in its Spark.
   The first of these warms the engine; the later ones are what a user pays once it is warm.
   With `--warm-up` the engine warms itself on the seeds before it serves (`engine start
   --warm-up`), and its first run is the one to compare (best with an `--input` other than
   the seeds, such as a small generated corpus's articles folder).
3. `claimhouse engine stop`.

Every time is the client's wall clock, from the command's start to its exit.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CLAIMHOUSE = str(Path(sys.executable).with_name("claimhouse"))


def _timed(args: list[str], env: dict[str, str]) -> float:
    started = time.perf_counter()
    done = subprocess.run([CLAIMHOUSE, *args], capture_output=True, text=True, env=env)
    if done.returncode != 0:
        raise SystemExit(f"claimhouse {' '.join(args)} failed:\n{done.stderr[-3000:]}")
    return round(time.perf_counter() - started, 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="seed runs on the engine")
    parser.add_argument("--input", type=Path, default=REPO / "seeds")
    parser.add_argument("--warm-up", action="store_true", help="engine start --warm-up")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="claimhouse-engine-bench-"))
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLAIMHOUSE_")}
    env["CLAIMHOUSE_ENGINE_DIR"] = str(work / "engine")
    run = ["run", "--input", str(args.input)]
    try:
        cold_s = _timed(
            [*run, "--warehouse", str(work / "cold")], {**env, "CLAIMHOUSE_ENGINE": "off"}
        )
        start_s = _timed(["engine", "start", *(["--warm-up"] * args.warm_up)], env)
        engine_s = [
            _timed([*run, "--warehouse", str(work / f"warm{i}")], env) for i in range(args.runs)
        ]
        _timed(["engine", "stop"], env)
    finally:
        subprocess.run([CLAIMHOUSE, "engine", "stop"], capture_output=True, env=env)
        shutil.rmtree(work, ignore_errors=True)
    warm = min(engine_s[1:]) if len(engine_s) > 1 else engine_s[0]
    print(
        json.dumps(
            {
                "benchmark": "engine",
                "date": datetime.now(UTC).strftime("%Y-%m-%d"),
                "machine": f"{platform.machine()}, {os.cpu_count()} cores",
                "input": str(args.input),
                "warm_up": args.warm_up,
                "cold_new_process_s": cold_s,
                "engine_start_s": start_s,
                "engine_runs_s": engine_s,
                "warm_s": warm,
                "warm_fraction_of_cold": round(warm / cold_s, 3),
            }
        )
    )


if __name__ == "__main__":
    main()
