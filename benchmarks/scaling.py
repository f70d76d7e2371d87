"""Silver throughput on local[1] against local[2]; prints one JSON object.

    .venv/bin/python benchmarks/scaling.py --mb 20

Runs benchmarks/extraction_throughput.py once per master, each in its own process (a JVM holds
one master for its life), on corpora of the same size, and reports the speed-up of the Spark
extraction from one core to two: of all of extract_new (extraction, the batch's contract, the
claims MERGE, the extraction log) and of the extraction job alone.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _run(master: str, mb: float) -> dict:
    done = subprocess.run(
        [sys.executable, str(HERE / "extraction_throughput.py"), "--mb", str(mb)]
        + ["--master", master],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"extraction_throughput.py --master {master} failed:\n{done.stderr}")
    return json.loads(done.stdout[done.stdout.index("{") :])  # it prints indented JSON


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--mb", type=float, default=20.0, help="corpus size in MB of text")
    args = parser.parse_args()
    one, two = _run("local[1]", args.mb), _run("local[2]", args.mb)
    print(
        json.dumps(
            {
                "benchmark": "scaling",
                "date": datetime.now(UTC).strftime("%Y-%m-%d"),
                "text_mb": one["text_mb"],
                "articles": one["articles"],
                "local_1_extract_s": one["spark_extract_s"],
                "local_2_extract_s": two["spark_extract_s"],
                "local_1_mb_per_s": one["spark_mb_per_s"],
                "local_2_mb_per_s": two["spark_mb_per_s"],
                "speedup": round(one["spark_extract_s"] / two["spark_extract_s"], 2),
                # extract_new's extraction job alone: what two cores can share
                "local_1_extraction_only_s": one["spark_extraction_only_s"],
                "local_2_extraction_only_s": two["spark_extraction_only_s"],
                "extraction_only_speedup": round(
                    one["spark_extraction_only_s"] / two["spark_extraction_only_s"], 2
                ),
                "claims": [one["claims_spark"], two["claims_spark"]],
            }
        )
    )


if __name__ == "__main__":
    main()
