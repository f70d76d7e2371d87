"""Soak: many small incremental runs on the warm engine, with kills; prints one JSON object
per window of runs, then one summary object.

    .venv/bin/python benchmarks/soak.py --runs 2000 [--report-every 100] [--kill-every 300]

The seeds are built into a fresh warehouse by a warm engine (`claimhouse engine start`, a
private engine folder). Then each run changes the input folder once and runs `claimhouse run`
through the engine (the client's wall clock). The changes cycle: a new article (seven runs in
ten), an earlier article changed (a figure in it), a copy of an earlier article under a new
name, a file that is not UTF-8. Every `--kill-every` runs the engine is SIGKILLed a few seconds
into the run, and started again; the next run must finish what the killed one left.

Each window reports the mean and largest run time, the live data files, the files on disk
(live, and those VACUUM keeps for time travel) and the Delta versions of every table, the
warehouse's bytes and the engine's resident memory. The summary compares the first window
with the last, and accounts for every input: each file named in bronze.ingest_log, each
article of bronze.articles extracted, and the claims in silver and its quarantine.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from lake.storage import live_files

REPO = Path(__file__).resolve().parent.parent
CLAIMHOUSE = str(Path(sys.executable).with_name("claimhouse"))
SUBJECTS = ("harbor", "bridge", "ferry", "school", "clinic", "runway", "reservoir", "library")


def _article(n: int, figure: int) -> str:
    place = SUBJECTS[n % len(SUBJECTS)]
    return (
        f"Works at the {place} number {n}\n\n"
        f"The county said {figure} workers would be needed at the {place} for {n % 9 + 2} "
        f"weeks. Costs could reach ${figure * 3},000, according to budget documents.\n"
    )


def _change(inputs: Path, run: int) -> str:
    """One change to the input folder for this run; what it was."""
    kind = run % 10
    if kind == 7 and run > 10:
        path = inputs / f"soak_{run - 7:05d}.txt"
        path.write_text(_article(run - 7, 500 + run))
        return "changed"
    if kind == 8 and run > 10:
        shutil.copy2(inputs / f"soak_{run - 8:05d}.txt", inputs / f"copy_{run:05d}.txt")
        return "duplicate"
    if kind == 9:
        (inputs / f"bad_{run:05d}.txt").write_bytes(b"caf\xe9 au lait " * 64)  # not UTF-8
        return "bad"
    (inputs / f"soak_{run:05d}.txt").write_text(_article(run, 100 + run))
    return "new"


def _engine_pid(env: dict[str, str]) -> int | None:
    state = Path(env["CLAIMHOUSE_ENGINE_DIR"]) / "engine.json"
    try:
        return int(json.loads(state.read_text())["pid"])
    except (OSError, ValueError, KeyError):
        return None


def _rss_mb(pid: int | None) -> float | None:
    if pid is None:
        return None
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                rss = int(line.split()[1]) / 1024
                break
        else:
            return None
        # The engine's JVM is its child; count both.
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        return round(rss + sum(_rss_mb(int(c)) or 0 for c in children), 1)
    except OSError:
        return None


def _tables(warehouse: Path) -> dict[str, dict[str, int]]:
    found = {}
    for log in sorted(warehouse.glob("*/*/_delta_log")):
        folder = log.parent
        if folder.parent.name.startswith("_"):
            continue
        files = sum(
            1
            for p in folder.rglob("*")
            if p.is_file() and "_delta_log" not in p.parts and not p.name.startswith((".", "_"))
        )
        versions = [int(p.stem) for p in log.glob("*.json") if p.stem.isdigit()]
        live = live_files(folder)
        found[f"{folder.parent.name}.{folder.name}"] = {
            "live_files": None if live is None else sum(live.values()),
            "files_on_disk": files,  # the live ones and those kept for time travel
            "versions": max(versions, default=-1) + 1,
        }
    return found


def _bytes(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def _sql(query: str, warehouse: Path, env: dict[str, str]) -> list[dict]:
    done = subprocess.run(
        [CLAIMHOUSE, "sql", query, "--format", "json", "--warehouse", str(warehouse)],
        capture_output=True,
        text=True,
        env=env,
    )
    if done.returncode != 0:
        raise SystemExit(f"claimhouse sql failed: {done.stderr[-2000:]}")
    return json.loads(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=2000)
    parser.add_argument("--report-every", type=int, default=100)
    parser.add_argument("--kill-every", type=int, default=300)
    parser.add_argument("--kill-after-s", type=float, default=4.0)
    parser.add_argument("--maintain-every", type=int, default=100, help="CLAIMHOUSE_MAINTAIN_EVERY")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="claimhouse-soak-"))
    inputs, warehouse = work / "in", work / "wh"
    shutil.copytree(REPO / "seeds", inputs)
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLAIMHOUSE_")}
    env |= {
        "CLAIMHOUSE_ENGINE_DIR": str(work / "engine"),
        "CLAIMHOUSE_SETTLE_S": "0",
        "CLAIMHOUSE_MAINTAIN_EVERY": str(args.maintain_every),
    }
    run = [CLAIMHOUSE, "run", "--input", str(inputs), "--warehouse", str(warehouse)]
    run.append("--no-dagster")
    windows, times, changes, failed, kills = [], [], {}, 0, 0
    try:
        subprocess.run([CLAIMHOUSE, "engine", "start"], check=True, capture_output=True, env=env)
        subprocess.run(run, check=True, capture_output=True, env=env)
        for n in range(1, args.runs + 1):
            kind = _change(inputs, n)
            changes[kind] = changes.get(kind, 0) + 1
            started = time.perf_counter()
            proc = subprocess.Popen(
                run, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env
            )
            if args.kill_every and n % args.kill_every == 0:
                time.sleep(args.kill_after_s)
                pid = _engine_pid(env)
                if pid is not None:
                    os.kill(pid, signal.SIGKILL)
                    kills += 1
                proc.communicate()
                subprocess.run(
                    [CLAIMHOUSE, "engine", "start"], check=True, capture_output=True, env=env
                )
                continue
            _, stderr = proc.communicate()
            times.append(time.perf_counter() - started)
            if proc.returncode != 0:
                failed += 1
                print(json.dumps({"run": n, "failed": stderr.strip()[-500:]}), flush=True)
            if n % args.report_every == 0:
                window = times[-args.report_every :]
                report = {
                    "runs": n,
                    "mean_s": round(sum(window) / len(window), 2),
                    "max_s": round(max(window), 2),
                    "failed": failed,
                    "warehouse_mb": round(_bytes(warehouse) / 2**20, 1),
                    "engine_rss_mb": _rss_mb(_engine_pid(env)),
                    "tables": _tables(warehouse),
                }
                windows.append(report)
                print(json.dumps(report), flush=True)
        files = sorted(p.name for p in inputs.iterdir() if p.suffix == ".txt")
        logged = _sql(
            "SELECT DISTINCT substring_index(source_uri, '/', -1) AS f FROM bronze.ingest_log",
            warehouse,
            env,
        )
        accounted = _sql(
            "SELECT (SELECT count(*) FROM bronze.articles a LEFT ANTI JOIN silver.extractions e "
            "USING (article_id)) AS not_extracted, "
            "(SELECT count(*) FROM silver.claims) AS claims, "
            "(SELECT count(*) FROM silver.claims_quarantine) AS quarantined",
            warehouse,
            env,
        )[0]
    finally:
        subprocess.run([CLAIMHOUSE, "engine", "stop"], capture_output=True, env=env)
    first, last = windows[0] if windows else None, windows[-1] if windows else None
    print(
        json.dumps(
            {
                "benchmark": "soak",
                "date": datetime.now(UTC).strftime("%Y-%m-%d"),
                "machine": f"{platform.machine()}, {os.cpu_count()} cores",
                "runs": args.runs,
                "changes": changes,
                "kills": kills,
                "failed_runs": failed,
                "maintain_every": args.maintain_every,
                "first_window_mean_s": first and first["mean_s"],
                "last_window_mean_s": last and last["mean_s"],
                "last_over_first": first and last and round(last["mean_s"] / first["mean_s"], 3),
                "max_live_files_per_table": last
                and max(t["live_files"] or 0 for t in last["tables"].values()),
                "input_files_not_in_ingest_log": sorted(set(files) - {r["f"] for r in logged}),
                **accounted,
            }
        )
    )
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
