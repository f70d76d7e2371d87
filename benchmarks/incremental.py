"""Incremental cost: a full build at N articles, then small changes; prints one JSON object.

    .venv/bin/python benchmarks/incremental.py --articles 10000

`claimhouse generate` writes N articles (N/10 events, fixed seed). Ten articles of one large
event and the whole of a ten-article event are held back; one `run_pipeline` builds every layer
from the rest. Then, each followed by `run_pipeline` in the same process (its JVM warm): one new
article (undated: no sidecar, no dateline); one new article dated like the corpus's (a
sidecar); one article changed (a figure in it); the ten held-back articles of the large event
(ten new articles about an existing story); the held-back event (ten articles about a new
story). Bronze skips files not modified since they were logged, silver extracts only what is
new, gold rebuilds the stories the run changed (docs/gold.md: "Gold is rebuilt per story a
run changed").

Then one more article and `claimhouse run` in a new process, as a user's shell or a Dagster
run (one process per run) pays it: its JVM starts and warms up again. Last, one more article
and the same command with the warm engine up (served from this process, whose Spark ran the
builds above): the command runs in the engine's Spark, its time the client's wall clock.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from claimhouse.cli import _in_engine
from lake import engine
from lake.config import load_settings
from lake.pipeline import run_pipeline
from lake.spark import get_spark
from synthetic.generate import generate

NEW_ARTICLE = (
    "Harbor closes after storm\n\n"
    "The port authority said 14 cargo ships were held outside the harbor on Tuesday. "
    "About 300 dock workers were sent home, according to a union spokeswoman.\n"
)
THIRD_ARTICLE = (
    "Ferry service resumes\n\n"
    "Two ferries carried 1,200 passengers on Friday, the transit agency said, after a "
    "three-day halt.\n"
)
DATED_ARTICLE = (
    "Water main breaks downtown\n\n"
    "Crews shut off water to 2,500 homes after a main broke under Front Street, the city's "
    "utility said. Repairs could take 36 hours.\n"
)
ANOTHER_ARTICLE = (
    "Bridge repairs run late\n\n"
    "The county engineer told reporters that 40 crews would work overnight on the river bridge. "
    "Repairs will cost more than $2 million, according to budget documents.\n"
)


def _hold_back(articles: Path, into: Path) -> dict[str, list[Path]]:
    """Move ten articles of the first event with at least twenty, and every article of the first
    event with exactly ten, out of the corpus (with their sidecars); returns where they went."""
    events = {
        e: sorted(e.glob("*.txt")) for e in sorted(p for p in articles.iterdir() if p.is_dir())
    }
    large = next(e for e, files in events.items() if len(files) >= 20)
    small = next(e for e, files in events.items() if len(files) == 10 and e != large)
    held: dict[str, list[Path]] = {
        "existing_story": events[large][-10:],
        "new_story": events[small],
    }
    for name, files in held.items():
        moved = []
        for article in files:
            for path in (article, article.with_suffix(".json")):
                target = into / name / path.relative_to(articles)
                target.parent.mkdir(parents=True, exist_ok=True)
                path.rename(target)
            moved.append(into / name / article.relative_to(articles))
        held[name] = moved
    return held


def _bring_back(files: list[Path], held: Path, articles: Path) -> None:
    for article in files:
        for path in (article, article.with_suffix(".json")):
            target = articles / path.relative_to(held)
            target.parent.mkdir(parents=True, exist_ok=True)
            path.rename(target)


def _stage_s(summary) -> dict[str, float]:
    return {k: round(v, 2) for k, v in summary.stage_seconds.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--articles", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=23)
    parser.add_argument("--master", default="local[*]")
    args = parser.parse_args()
    workdir = Path(tempfile.mkdtemp(prefix="claimhouse-bench-"))
    try:
        corpus = workdir / "corpus"
        generate(args.articles, max(1, args.articles // 10), args.seed, corpus)
        # Files written just before a run are what the benchmark measures, not left to settle.
        os.environ["CLAIMHOUSE_SETTLE_S"] = "0"
        held = _hold_back(corpus / "articles", workdir / "held")
        settings = load_settings(
            warehouse=workdir / "warehouse",
            input_dir=corpus / "articles",
            spark_master=args.master,
        )
        spark = get_spark(settings)
        started = time.perf_counter()
        full = run_pipeline(spark, settings, "full")
        full_s = time.perf_counter() - started
        (corpus / "articles" / "zz_new_article.txt").write_text(NEW_ARTICLE, encoding="utf-8")
        started = time.perf_counter()
        incremental = run_pipeline(spark, settings, "incremental")
        incremental_s = time.perf_counter() - started
        changes = {}

        def change(name: str) -> None:
            started = time.perf_counter()
            summary = run_pipeline(spark, settings, name)
            seconds = time.perf_counter() - started
            changes[name] = {
                "s": round(seconds, 2),
                "fraction": round(seconds / full_s, 3),
                "stage_s": _stage_s(summary),
                "new_articles": summary.bronze.new_articles,
                "gold_stories_touched": summary.gold.stories_touched if summary.gold else None,
            }

        # The article above has no date, so it pairs with every article; a news article
        # usually has one, and then only the articles of its weeks are its neighbours.
        dated = corpus / "articles" / "zz_dated_article.txt"
        dated.write_text(DATED_ARTICLE, encoding="utf-8")
        first = sorted((corpus / "articles").glob("*/*.json"))[0]
        published = json.loads(first.read_text(encoding="utf-8"))["published_at"]
        dated.with_suffix(".json").write_text(json.dumps({"published_at": published}))
        change("dated_new_article")
        changed = sorted((corpus / "articles").glob("*/*.txt"))[len(held["new_story"])]
        text = changed.read_text(encoding="utf-8")
        changed.write_text(
            re.sub(r"\d+", lambda m: str(int(m.group()) + 1), text, count=1), encoding="utf-8"
        )
        change("changed_article")
        _bring_back(
            held["existing_story"], workdir / "held" / "existing_story", corpus / "articles"
        )
        change("ten_articles_existing_story")
        _bring_back(held["new_story"], workdir / "held" / "new_story", corpus / "articles")
        change("ten_articles_new_story")
        (corpus / "articles" / "zz_another_article.txt").write_text(
            ANOTHER_ARTICLE, encoding="utf-8"
        )
        command = [
            str(Path(sys.executable).with_name("claimhouse")),
            "run",
            "--input",
            str(corpus / "articles"),
            "--warehouse",
            str(workdir / "warehouse"),
            "--master",
            args.master,
        ]
        cold_env = {**os.environ, "CLAIMHOUSE_ENGINE": "off"}
        started = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True, env=cold_env)
        new_process_s = time.perf_counter() - started
        (corpus / "articles" / "zz_third_article.txt").write_text(THIRD_ARTICLE, encoding="utf-8")
        server = engine.Engine(workdir / "engine", engine.fixed_settings(settings), _in_engine)
        server.publish_state()
        engine.serve_in_thread(server)
        via = {**os.environ, "CLAIMHOUSE_ENGINE_DIR": str(workdir / "engine")}
        started = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True, env=via)
        engine_s = time.perf_counter() - started
        server.shutdown()
        if server.served != 1:
            raise SystemExit("the warm engine did not run the command")
        print(
            json.dumps(
                {
                    "benchmark": "incremental",
                    "date": datetime.now(UTC).strftime("%Y-%m-%d"),
                    "machine": f"{platform.machine()}, "
                    f"{spark.sparkContext.defaultParallelism} cores",
                    "master": args.master,
                    "articles": args.articles,
                    "full_s": round(full_s, 2),
                    "full_stage_s": {k: round(v, 2) for k, v in full.stage_seconds.items()},
                    "incremental_s": round(incremental_s, 2),
                    "incremental_stage_s": _stage_s(incremental),
                    "incremental_step_s": {
                        k: round(v, 2) for k, v in incremental.step_seconds.items()
                    },
                    "incremental_fraction": round(incremental_s / full_s, 3),
                    "new_process_s": round(new_process_s, 2),
                    "new_process_fraction": round(new_process_s / full_s, 3),
                    "warm_engine_s": round(engine_s, 2),
                    "warm_engine_fraction": round(engine_s / full_s, 3),
                    "new_articles": incremental.bronze.new_articles,
                    "files_read": incremental.bronze.files_read,
                    "articles_extracted": incremental.silver.articles_processed,
                    "gold_stories_touched": incremental.gold.stories_touched,
                    "changes": changes,
                }
            )
        )
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
