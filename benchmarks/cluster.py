"""The pipeline on a Spark standalone cluster against local[*]; prints one JSON object.

    .venv/bin/python benchmarks/cluster.py --articles 1000

`claimhouse generate` writes N articles (N/10 events, fixed seed); `claimhouse run` builds
every layer twice, each in its own process and warehouse: once on `local[*]`, once on a
master and one worker started on loopback with pyspark's spark-class (lake/standalone.py).
Reports both wall times (JVM start included) and whether the gold tables are the same rows.
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

from evaluation.compare import gold_differences
from lake.config import load_settings
from lake.spark import get_spark
from lake.standalone import standalone_cluster
from synthetic.generate import generate

CLAIMHOUSE = str(Path(sys.executable).parent / "claimhouse")


def _run(corpus: Path, warehouse: Path, master: str) -> float:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLAIMHOUSE_")}
    started = time.perf_counter()
    done = subprocess.run(
        [CLAIMHOUSE, "run", "--input", str(corpus), "--warehouse", str(warehouse)]
        + ["--master", master],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"claimhouse run --master {master} failed:\n{done.stderr[-3000:]}")
    return round(time.perf_counter() - started, 2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--articles", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=23)
    parser.add_argument("--cores", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--memory", default="4g", help="memory the worker offers executors")
    args = parser.parse_args()
    workdir = Path(tempfile.mkdtemp(prefix="claimhouse-bench-"))
    try:
        corpus = workdir / "corpus"
        generate(args.articles, max(1, args.articles // 10), args.seed, corpus)
        local_s = _run(corpus / "articles", workdir / "local", "local[*]")
        with standalone_cluster(args.cores, args.memory, workdir / "cluster") as cluster:
            cluster_s = _run(corpus / "articles", workdir / "cluster-wh", cluster.master_url)
            master = cluster.master_url
        spark = get_spark(load_settings(warehouse=workdir / "compare", spark_master="local[1]"))
        differences = gold_differences(spark, workdir / "local", workdir / "cluster-wh")
        print(
            json.dumps(
                {
                    "benchmark": "cluster",
                    "date": datetime.now(UTC).strftime("%Y-%m-%d"),
                    "machine": f"{platform.machine()}, {os.cpu_count()} cores",
                    "articles": args.articles,
                    "cluster": f"{master}, 1 worker, {args.cores} cores, {args.memory}",
                    "local_s": local_s,
                    "cluster_s": cluster_s,
                    "same_gold": all(
                        d["only_in_a"] == 0 and d["only_in_b"] == 0 for d in differences.values()
                    ),
                    "gold": differences,
                }
            )
        )
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
