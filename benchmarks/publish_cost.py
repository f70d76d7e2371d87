"""What gold's publish step costs: Lake.publish of a warehouse's current gold candidate, timed
with a warm JVM on a copy of the warehouse (the release table, the plain tables and the
manifest), with the plain tables' writes and the manifest's append timed apart.

    .venv/bin/python benchmarks/publish_cost.py <warehouse built by claimhouse run> --times 4

Prints JSON: the first publish (JVM and catalog warm-up), each later one, their median, and
the seconds per publish of the plain tables' writes (summed over the three, which run at
once) and of the manifest's append.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from lake.config import load_settings
from lake.gold.build import column_docs
from lake.schemas import GOLD_BUILD_TABLES, GOLD_RELEASE
from lake.spark import get_spark
from lake.storage import Lake


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("warehouse", type=Path)
    parser.add_argument("--times", type=int, default=4)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="publish-cost-")) / "wh"
    shutil.copytree(args.warehouse, work, ignore=shutil.ignore_patterns("tmp"))
    parts: dict[str, list[float]] = {}
    for name in ("_write_plain", "_record_release"):
        real = getattr(Lake, name)

        def timed(self, *a, _real=real, _name=name, **k):
            started = time.perf_counter()
            try:
                return _real(self, *a, **k)
            finally:
                parts.setdefault(_name, []).append(time.perf_counter() - started)

        setattr(Lake, name, timed)
    settings = load_settings(warehouse=work)
    spark = get_spark(settings, ui=False)
    try:
        lake = Lake(spark, work)
        lake.register_all()
        versions = {t: lake.version(t) for t in GOLD_BUILD_TABLES}
        docs = column_docs(settings)
        seconds = []
        for i in range(args.times + 1):
            started = time.perf_counter()
            lake.publish(GOLD_RELEASE, versions, f"cost{i}", docs=docs)
            seconds.append(time.perf_counter() - started)
    finally:
        spark.stop()
        shutil.rmtree(work.parent, ignore_errors=True)
    later = {k: v[len(v) // (args.times + 1) :] for k, v in parts.items()}
    print(
        json.dumps(
            {
                "warmup_s": round(seconds[0], 3),
                "publish_s": [round(s, 3) for s in seconds[1:]],
                "median_s": round(statistics.median(seconds[1:]), 3),
                "per_publish_s": {k: round(sum(v) / args.times, 3) for k, v in later.items()},
            }
        )
    )


if __name__ == "__main__":
    main()
