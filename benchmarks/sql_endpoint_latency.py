"""Query latency over `claimhouse serve-sql` (Thrift/HiveServer2) with 1M rows in silver.claims.

    .venv/bin/python benchmarks/sql_endpoint_latency.py --rows 1000000 --loops 30

Runs the seeds through every layer into a temporary warehouse, grows silver.claims to --rows
by appending copies of the seed claims with fresh claim ids (written by Spark executors, not
the extractor), starts the server in its own process, then times over PyHive:
a point query on gold.facts by fact_id and a full scan (GROUP BY over every claim row) of
silver.claims, logged in as a reader (the server authenticates every client and passes every
statement through its role guard), and the login itself. With --articles it also grows
bronze.articles to that many rows (copies of the seed bodies with fresh ids), reads the whole
table through one client, and checks the server still answers. Prints one JSON object with
p50/p95 in milliseconds.

--versus HOST:PORT times the same point query on another server in the same rounds, one query
each in turn: a server started from an earlier checkout on its own seeds warehouse (connected
without credentials, as servers were before authentication), so both see the same machine at
the same moment.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from pyhive import hive
from pyspark.sql import functions as F

from lake.config import REPO_ROOT, load_settings
from lake.pipeline import run_pipeline
from lake.spark import get_spark
from lake.storage import Lake
from lake.users import add_user

USER = ("bench", "bench-password")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _percentiles(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return {"p50_ms": round(statistics.median(ordered) * 1000, 1), "p95_ms": round(p95 * 1000, 1)}


def _interleaved(a: tuple, b: tuple, loops: int) -> tuple[list[float], list[float]]:
    """Each (cursor, sql) `loops` times, in turn, the first alternating, after 50 warm-up rounds:
    a server's JIT warms over its first tens of queries, and an older server would win by that."""
    times: tuple[list[float], list[float]] = ([], [])
    for i in range(50 + loops):
        for which in (0, 1) if i % 2 == 0 else (1, 0):
            cursor, sql = (a, b)[which]
            t = time.perf_counter()
            cursor.execute(sql)
            cursor.fetchall()
            if i >= 50:
                times[which].append(time.perf_counter() - t)
    return times


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--loops", type=int, default=30)
    parser.add_argument("--articles", type=int, default=0, help="full-scan test size; 0 skips")
    parser.add_argument("--versus", help="HOST:PORT of a server to time the point query against")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="claimhouse-sql-bench-"))
    server = None
    try:
        settings = load_settings(warehouse=work / "wh", input_dir=REPO_ROOT / "seeds")
        add_user(settings.warehouse, *USER)
        spark = get_spark(settings)
        run_pipeline(spark, settings)
        lake = Lake(spark, settings.warehouse)
        seed_claims = lake.read("silver.claims")
        copies = -(-args.rows // seed_claims.count()) - 1
        grown = (
            seed_claims.crossJoin(spark.range(copies).withColumnRenamed("id", "copy"))
            .withColumn("claim_id", F.sha2(F.concat_ws("|", "claim_id", "copy"), 256))
            .drop("copy")
        )
        grown.write.format("delta").mode("append").save(str(lake.path("silver.claims")))
        claim_rows = lake.count("silver.claims")
        if args.articles:
            seeds = lake.read("bronze.articles")
            copies = -(-args.articles // seeds.count())
            (
                seeds.crossJoin(spark.range(copies).withColumnRenamed("id", "copy"))
                .withColumn("article_id", F.sha2(F.concat_ws("|", "article_id", "copy"), 256))
                .drop("copy")
                .limit(args.articles)
                .write.format("delta")
                .mode("overwrite")
                .save(str(lake.path("bronze.articles")))
            )
        article_rows = lake.count("bronze.articles")
        fact_id = lake.read("gold.facts").orderBy("fact_id").first()["fact_id"]
        spark.stop()

        port = _free_port()
        env = {k: v for k, v in os.environ.items() if not k.startswith("CLAIMHOUSE_")}
        started = time.perf_counter()
        server = subprocess.Popen(
            [str(Path(sys.executable).parent / "claimhouse"), "serve-sql", "--port", str(port)]
            + ["--warehouse", str(settings.warehouse)],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            env=env,
        )
        assert server.stdout.readline().startswith("serving")
        server_start_s = time.perf_counter() - started
        logins = []
        for _ in range(max(5, args.loops // 3)):
            t = time.perf_counter()
            hive.connect(
                host="127.0.0.1", port=port, auth="CUSTOM", username=USER[0], password=USER[1]
            ).close()
            logins.append(time.perf_counter() - t)
        conn = hive.connect(
            host="127.0.0.1", port=port, auth="CUSTOM", username=USER[0], password=USER[1]
        )
        cursor = conn.cursor()

        def timed(sql: str, loops: int) -> list[float]:
            cursor.execute(sql)  # warm-up: plan caches, Delta snapshot
            cursor.fetchall()
            out = []
            for _ in range(loops):
                t = time.perf_counter()
                cursor.execute(sql)
                cursor.fetchall()
                out.append(time.perf_counter() - t)
            return out

        point_sql = f"SELECT * FROM gold.facts WHERE fact_id = '{fact_id}'"
        versus = None
        if args.versus:
            host, other_port = args.versus.rsplit(":", 1)
            other = hive.connect(host=host, port=int(other_port), auth="NONE").cursor()
            other.execute("SELECT fact_id FROM gold.facts ORDER BY fact_id LIMIT 1")
            other_sql = f"SELECT * FROM gold.facts WHERE fact_id = '{other.fetchall()[0][0]}'"
            point, versus = _interleaved((cursor, point_sql), (other, other_sql), args.loops)
        else:
            point = timed(point_sql, args.loops)
        scan = timed(
            "SELECT kind, count(*), avg(value), max(char_end) FROM silver.claims GROUP BY kind",
            max(5, args.loops // 3),
        )
        full_scan = None
        if args.articles:
            t = time.perf_counter()
            cursor.execute("SELECT * FROM bronze.articles")
            rows = body_bytes = 0
            while batch := cursor.fetchmany(10_000):
                rows += len(batch)
                body_bytes += sum(len(r[6]) for r in batch)
            seconds = time.perf_counter() - t
            cursor.execute("SELECT count(*) FROM gold.facts")
            full_scan = {
                "rows_read": rows,
                "body_mb": round(body_bytes / 1e6, 1),
                "seconds": round(seconds, 1),
                "server_answers_after": cursor.fetchall()[0][0] > 0 and server.poll() is None,
            }
        conn.close()
        print(
            json.dumps(
                {
                    "silver_claims_rows": claim_rows,
                    "bronze_articles_rows": article_rows,
                    "full_scan_bronze_articles": full_scan,
                    "server_start_s": round(server_start_s, 1),
                    "point_query_gold_facts": {"loops": len(point), **_percentiles(point)},
                    **(
                        {
                            "point_query_versus": {
                                "server": args.versus,
                                **_percentiles(versus),
                                "p50_ratio": round(
                                    statistics.median(point) / statistics.median(versus), 3
                                ),
                            }
                        }
                        if versus
                        else {}
                    ),
                    "full_scan_silver_claims": {"loops": len(scan), **_percentiles(scan)},
                    "login": {"loops": len(logins), **_percentiles(logins)},
                    "cores": os.cpu_count(),
                }
            )
        )
    finally:
        if server is not None:
            server.terminate()
            server.wait(timeout=60)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
