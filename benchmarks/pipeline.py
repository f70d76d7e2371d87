"""The whole pipeline on a synthetic corpus of N articles; prints one JSON object.

    .venv/bin/python benchmarks/pipeline.py --articles 1000 10000

For each N: `claimhouse generate` (N articles, N/10 events, fixed seed) into a temporary
folder, then one `run_pipeline` into a fresh warehouse, timed per stage (each stage includes
its contract validation), then silver's claims scored against the corpus's ground truth
(truth/claims.jsonl) with the same matcher as `python -m evaluation.claims`.

Gold's facts and conflicts are scored against the truth's facts (truth/facts.jsonl) with
`evaluation.facts.score_synthetic`. Story grouping is scored against the
generator's events (pairs of articles). Peak memory is read for the pipeline alone (VmHWM
reset before it) and again after the scoring, which collects every claim and fact on purpose.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import platform
import shutil
import tempfile
import time
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

from evaluation.claims import load_truth, score
from evaluation.facts import score_corpus
from lake.config import load_settings
from lake.pipeline import run_pipeline
from lake.spark import get_spark
from lake.storage import Lake
from synthetic.generate import generate


def _predicted(lake: Lake) -> dict[str, list[dict]]:
    """silver.claims by article file (bronze's source_uri), as the scorer wants them."""
    articles = lake.read("bronze.articles").select("article_id", "source_uri")
    rows = lake.read("silver.claims").join(articles, "article_id").collect()
    predicted: dict[str, list[dict]] = {}
    for row in rows:
        predicted.setdefault(row["source_uri"], []).append(row.asDict())
    return predicted


def _fact_scores(lake: Lake, corpus: Path) -> dict:
    keys = {
        r["article_id"]: Path(r["source_uri"]).stem
        for r in lake.read("bronze.articles").select("article_id", "source_uri").collect()
    }
    columns = [
        "fact_id",
        "kind",
        "consensus_value",
        "consensus_text",
        "consensus_lower",
        "consensus_upper",
        "articles",
        "status",
    ]
    facts = [r.asDict() for r in lake.read("gold.facts").select(columns).collect()]
    conflicts = [
        r.asDict()
        for r in lake.read("gold.fact_conflicts")
        .select("fact_id", "value_a", "value_b", "articles_a", "articles_b")
        .collect()
    ]
    evidence = [
        r.asDict() for r in lake.read("gold.fact_evidence").select("fact_id", "claim_id").collect()
    ]
    claims = [
        r.asDict()
        for r in lake.read("silver.claims")
        .select("claim_id", "article_id", "char_start", "char_end")
        .collect()
    ]
    scores = score_corpus(facts, conflicts, evidence, claims, corpus, keys)
    return scores


def _story_scores(lake: Lake) -> dict:
    """Story grouping against the generator's events (it writes each event's articles into a
    folder of its own), over pairs of articles: precision, recall."""
    rows = (
        lake.read("silver.article_stories")
        .join(lake.read("bronze.articles").select("article_id", "source_uri"), "article_id")
        .select("story_id", "source_uri")
        .collect()
    )
    cells: Counter = Counter((r["story_id"], Path(r["source_uri"]).parent.name) for r in rows)
    stories: Counter = Counter(r["story_id"] for r in rows)
    events: Counter = Counter(Path(r["source_uri"]).parent.name for r in rows)

    def pairs(counts: Counter) -> int:
        return sum(n * (n - 1) // 2 for n in counts.values())

    both = pairs(cells)
    return {
        "stories": len(stories),
        "story_pair_precision": round(both / pairs(stories), 3) if pairs(stories) else None,
        "story_pair_recall": round(both / pairs(events), 3) if pairs(events) else None,
    }


def _jvm_pid(spark) -> int:
    return int(spark.sparkContext._jvm.java.lang.ProcessHandle.current().pid())


def _peak_rss_mb(pid: int | str = "self") -> float | None:
    """The process's peak resident memory (VmHWM) since start or since _reset_peak_rss."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return round(int(line.split()[1]) / 1024, 1)
    return None


def _reset_peak_rss(pid: int | str = "self") -> None:
    """Start VmHWM over from the current RSS (Linux: "5" to /proc/PID/clear_refs), so the
    peak of one stage is not the corpus generator's or an earlier N's."""
    with contextlib.suppress(OSError):
        Path(f"/proc/{pid}/clear_refs").write_text("5")


def measure(spark, n: int, workdir: Path, seed: int) -> dict:
    corpus = workdir / f"corpus{n}"
    started = time.perf_counter()
    generated = generate(n, max(1, n // 10), seed, corpus)
    generate_s = time.perf_counter() - started
    text_bytes = sum(p.stat().st_size for p in (corpus / "articles").rglob("*.txt"))
    settings = load_settings(warehouse=workdir / f"wh{n}", input_dir=corpus / "articles")
    jvm = _jvm_pid(spark)
    _reset_peak_rss()
    _reset_peak_rss(jvm)
    started = time.perf_counter()
    summary = run_pipeline(spark, settings, f"bench{n}")
    total_s = time.perf_counter() - started
    # Peaks of the pipeline itself, before the scoring below collects tables on purpose.
    driver_python_mb, driver_jvm_mb = _peak_rss_mb(), _peak_rss_mb(jvm)
    lake = Lake(spark, settings.warehouse)
    predicted = _predicted(lake)
    truth = load_truth(corpus)
    files = sorted(truth.keys() | predicted.keys())
    result = score({f: predicted.get(f, []) for f in files}, {f: truth.get(f, []) for f in files})
    facts = _fact_scores(lake, corpus)
    stories = _story_scores(lake)
    return {
        "articles": n,
        "events": max(1, n // 10),
        "text_mb": round(text_bytes / 2**20, 2),
        "generate_s": round(generate_s, 2),
        "stage_s": {k: round(v, 2) for k, v in summary.stage_seconds.items()},
        "step_s": {k: round(v, 2) for k, v in summary.step_seconds.items()},
        "total_s": round(total_s, 2),
        "articles_per_s": round(n / total_s, 2),
        "mb_per_s": round(text_bytes / 2**20 / total_s, 4),
        "rows": summary.table_rows,
        "claims_planted": generated.claims,
        "claim_precision": result["precision"],
        "claim_recall": result["recall"],
        "claim_f1": result["f1"],
        "attribution_accuracy": result.get("attribution_accuracy"),
        **stories,
        **facts,
        "driver_python_peak_rss_mb": driver_python_mb,
        "driver_jvm_peak_rss_mb": driver_jvm_mb,
        # The benchmark's own scoring collects every claim and fact into this process.
        "with_scoring_python_peak_rss_mb": _peak_rss_mb(),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--articles", type=int, nargs="+", default=[1000])
    parser.add_argument("--seed", type=int, default=23)
    parser.add_argument("--master", default="local[*]")
    parser.add_argument(
        "--keep",
        type=Path,
        help="Keep each corpus and warehouse in this folder (corpus<N>/, wh<N>/) for inspection",
    )
    args = parser.parse_args()
    workdir = (
        args.keep.resolve() if args.keep else Path(tempfile.mkdtemp(prefix="claimhouse-bench-"))
    )
    workdir.mkdir(parents=True, exist_ok=True)
    try:
        settings = load_settings(warehouse=workdir / "session", spark_master=args.master)
        spark = get_spark(settings)
        runs = [measure(spark, n, workdir, args.seed) for n in args.articles]
        print(
            json.dumps(
                {
                    "benchmark": "pipeline",
                    "date": datetime.now(UTC).strftime("%Y-%m-%d"),
                    "machine": f"{platform.machine()}, "
                    f"{spark.sparkContext.defaultParallelism} cores",
                    "master": args.master,
                    "seed": args.seed,
                    "runs": runs,
                }
            )
        )
    finally:
        if not args.keep:
            shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
