"""Torture: bad input, two writers at once, and SIGKILL at a run's commit boundaries.

    .venv/bin/python benchmarks/torture.py --articles 300
    .venv/bin/python benchmarks/torture.py --articles 300 --kill-at bronze.articles silver.claims

Builds one input folder: a synthetic corpus (`synthetic`) plus hostile entries (empty,
binary and Latin-1 files, broken, deep, surrogate and oversize sidecars, a number of 400
digits, a date at the calendar's edge, a 200 KB run of numbers, links outside the folder and to
nowhere, a pipe, a name that is not UTF-8). Then, each with `claimhouse run` in a process of
its own:

1. a clean run into a fresh warehouse: files seen against files accounted for;
2. two runs started together on one fresh warehouse: one completes, the other exits 3 (busy);
3. for each table in --kill-at: a run killed (SIGKILL to its process group, JVM included) as
   soon as that table commits its first data version, then a rerun; the tables must equal the
   clean run's (articles, claims, facts), with no duplicate keys and no empty extraction row
   for an article that has claims.

Prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BIN = Path(sys.executable).parent
CLAIMHOUSE = str(BIN / "claimhouse")
# The first Delta version that holds a run's data: tables claimhouse creates empty first
# (version 0) write data at 1; dbt's candidate tables and the gold release are created with
# their rows at 0.
DATA_VERSION = {
    "bronze.articles": 1,
    "bronze.ingest_log": 1,
    "silver.claims": 1,
    "silver.extractions": 1,
    "silver.article_terms": 1,
    "silver.article_stories": 1,
    "gold_build.facts": 0,
    "gold_build.fact_evidence": 0,
    "gold_build.fact_conflicts": 0,
    "gold_release.tables": 0,
    "audit.dq_results": 1,
    "audit.layer_runs": 1,
}


def build_input(folder: Path, articles: int) -> None:
    subprocess.run(
        [
            str(BIN / "python"),
            "-m",
            "synthetic.generate",
            "--articles",
            str(articles),
            "--events",
            str(max(1, articles // 10)),
            "--seed",
            "11",
            "--out",
            str(folder / "corpus"),
        ],
        check=True,
        capture_output=True,
    )
    shutil.rmtree(folder / "corpus" / "truth", ignore_errors=True)
    bad = folder / "corpus" / "articles" / "zz_bad"
    bad.mkdir()
    outside = folder / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("A file outside the input folder: 42 keys.")
    (bad / "empty.txt").write_bytes(b"")
    (bad / "binary.txt").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" * 8)
    (bad / "latin1.txt").write_bytes("Caf\xe9 owners hired 40 staff.".encode("latin-1"))
    (bad / "broken.txt").write_text("An article whose sidecar is broken.")
    (bad / "broken.json").write_text('{"outlet": ')
    (bad / "deep.txt").write_text("An article with a deep sidecar.")
    (bad / "deep.json").write_bytes(b"[" * 5000 + b"]" * 5000)
    (bad / "surrogate.txt").write_text("An article whose outlet is not text.")
    (bad / "surrogate.json").write_text('{"outlet": "The \\ud800 Times"}')
    (bad / "digits.txt").write_text("The budget was " + "9" * 400 + " dollars, up 3%.")
    (bad / "edge.txt").write_text("Published: 9999-12-31T23:59:59-14:00\n\nOfficials said 40.")
    (bad / "numbers.txt").write_text("1 " * 100_000)
    (bad / "escape.txt").symlink_to(outside / "secret.txt")
    (bad / "dangling.txt").symlink_to(outside / "nowhere.txt")
    os.mkfifo(bad / "pipe.txt")
    (bad / os.fsdecode(b"caf\xe9.txt")).write_text("A name that is not UTF-8, 3 words.")


def claimhouse_run(input_dir: Path, warehouse: Path) -> subprocess.Popen:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLAIMHOUSE_")}
    env["CLAIMHOUSE_SETTLE_S"] = "0"
    return subprocess.Popen(
        [CLAIMHOUSE, "run", "--input", str(input_dir), "--warehouse", str(warehouse)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        start_new_session=True,  # its own process group: a kill takes the JVM with it
    )


def finish(proc: subprocess.Popen, timeout: float = 1800) -> tuple[int, str, str]:
    out, err = proc.communicate(timeout=timeout)
    return proc.returncode, out, err


def committed(warehouse: Path, table: str, version: int) -> bool:
    layer, name = table.split(".")
    return (warehouse / layer / name / "_delta_log" / f"{version:020d}.json").exists()


def snapshot(warehouse: Path) -> dict:
    """What a run must leave behind, read with Spark in this process."""
    from pyspark.sql import functions as F

    from lake.config import load_settings
    from lake.spark import get_spark
    from lake.storage import Lake

    spark = get_spark(load_settings(warehouse=warehouse), ui=False)
    lake = Lake(spark, warehouse)

    def keys(table: str, *cols: str) -> list:
        return sorted(tuple(r) for r in lake.read(table).select(*cols).collect())

    def duplicates(table: str, *key: str) -> int:
        return lake.read(table).groupBy(*key).count().where(F.col("count") > 1).count()

    claims = lake.read("silver.claims").groupBy("article_id").count()
    empty = (
        lake.read("silver.extractions")
        .where(F.col("claims") == 0)
        .join(claims, "article_id")
        .count()
    )
    return {
        "articles": keys("bronze.articles", "article_id"),
        "claims": keys("silver.claims", "claim_id", "value_text"),
        "facts": keys("gold.facts", "fact_id", "status"),
        "evidence": keys("gold.fact_evidence", "fact_id", "claim_id"),
        "duplicates": {
            "bronze.articles": duplicates("bronze.articles", "article_id"),
            "silver.claims": duplicates("silver.claims", "claim_id"),
            "silver.extractions": duplicates(
                "silver.extractions", "article_id", "extractor_version"
            ),
            "gold.facts": duplicates("gold.facts", "fact_id"),
        },
        "empty_extractions_with_claims": empty,
    }


def compare(clean: dict, other: dict) -> dict:
    return {
        "same_articles": clean["articles"] == other["articles"],
        "same_claims": clean["claims"] == other["claims"],
        "same_facts": clean["facts"] == other["facts"] and clean["evidence"] == other["evidence"],
        "duplicates": sum(other["duplicates"].values()),
        "empty_extractions_with_claims": other["empty_extractions_with_claims"],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--articles", type=int, default=300)
    parser.add_argument(
        "--kill-at",
        nargs="*",
        default=["bronze.articles", "silver.claims", "gold_build.facts", "gold_release.tables"],
    )
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="claimhouse-torture-"))
    build_input(work, args.articles)
    input_dir = work / "corpus" / "articles"
    result: dict = {"articles": args.articles, "work": str(work)}

    started = time.perf_counter()
    code, out, err = finish(claimhouse_run(input_dir, work / "clean"))
    # "[HH:MM:SS ]bronze: N files seen = ...": timestamped when stdout is not a terminal
    lines = [line[line.index("bronze: ") :] for line in out.splitlines() if "bronze: " in line]
    seen = next((line for line in lines if "files seen" in line), "")
    result["clean"] = {"exit": code, "seconds": round(time.perf_counter() - started, 1)}
    result["clean"]["bronze_line"] = seen
    if seen:  # "bronze: N files seen = a new articles + b unchanged + ...; k read"
        parts = seen.split("=")[1].split(";")[0].split()
        result["clean"]["files_seen"] = int(seen.split()[1])
        result["clean"]["files_accounted"] = sum(int(w) for w in parts if w.isdigit())
    result["clean"]["stderr_tail"] = err.strip().splitlines()[-2:] if code else []
    clean = snapshot(work / "clean")
    result["clean"]["duplicates"] = sum(clean["duplicates"].values())
    result["clean"]["empty_extractions_with_claims"] = clean["empty_extractions_with_claims"]

    first, second = (claimhouse_run(input_dir, work / "two") for _ in range(2))
    codes = sorted([finish(first)[0], finish(second)[0]])
    result["two_writers"] = {"exit_codes": codes, "one_ran_one_refused": codes == [0, 3]}
    result["two_writers"].update(compare(clean, snapshot(work / "two")))

    result["kills"] = []
    for table in args.kill_at:
        warehouse = work / f"kill-{table}"
        proc = claimhouse_run(input_dir, warehouse)
        killed = False
        while proc.poll() is None:
            if committed(warehouse, table, DATA_VERSION[table]):
                os.killpg(proc.pid, signal.SIGKILL)
                killed = True
                break
            time.sleep(0.05)
        proc.wait()
        started = time.perf_counter()
        code, _, err = finish(claimhouse_run(input_dir, warehouse))
        entry = {
            "killed_after": table,
            "killed": killed,
            "rerun_exit": code,
            "rerun_seconds": round(time.perf_counter() - started, 1),
        }
        if code == 0:
            entry.update(compare(clean, snapshot(warehouse)))
        else:
            entry["rerun_error"] = err.strip().splitlines()[-1:] if err else []
        result["kills"].append(entry)
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
