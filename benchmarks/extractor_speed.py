"""Single-process extraction speed of the `lake` on PYTHONPATH, over real news or a synthetic
corpus.

    PYTHONPATH=<checkout> .venv/bin/python benchmarks/extractor_speed.py --basil <BASIL repo>
    .venv/bin/python -m synthetic.generate --articles 1000 --events 100 --seed 23 --out /tmp/c
    PYTHONPATH=<checkout> .venv/bin/python benchmarks/extractor_speed.py /tmp/c

`--basil`: the articles of a fetched launchnlp/BASIL (bare git dir or checkout), held-out
events never read (`evaluation.basil.rebuild`), each with its publication date. Otherwise a
folder written by `synthetic.generate`, with each sidecar's date. `extract_claims` over
every article, best of `--passes`; prints one JSON object (extractor version, MB, seconds,
MB/s, claims). To compare two extractor versions, run it for each checkout in turn,
interleaved, in one sitting.
"""

from __future__ import annotations

import argparse
import json
import time
from datetime import datetime
from pathlib import Path

from evaluation.basil.rebuild import load_articles
from lake.silver.extract import EXTRACTOR_VERSION, extract_claims


def _published(sidecar: Path) -> datetime | None:
    try:
        return _date(json.loads(sidecar.read_text())["published_at"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _date(text: str | None) -> datetime | None:
    try:
        return datetime.fromisoformat(text) if text else None
    except ValueError:
        return None


def main() -> None:
    parser = argparse.ArgumentParser()
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument(
        "corpus", type=Path, nargs="?", help="a folder written by synthetic.generate"
    )
    source.add_argument("--basil", type=Path, help="a fetched launchnlp/BASIL")
    parser.add_argument("--passes", type=int, default=3)
    args = parser.parse_args()
    if args.basil:
        docs = [(a.stem, a.text, _date(a.published_at)) for a in load_articles(args.basil)]
    else:
        docs = [
            (p.stem, p.read_text(encoding="utf-8"), _published(p.with_suffix(".json")))
            for p in sorted((args.corpus / "articles").glob("*/*.txt"))
        ]
    megabytes = sum(len(body.encode()) for _, body, _ in docs) / 2**20
    best, claims = float("inf"), 0
    for _ in range(args.passes):
        started = time.perf_counter()
        claims = sum(len(extract_claims(key, body, published)) for key, body, published in docs)
        best = min(best, time.perf_counter() - started)
    print(
        json.dumps(
            {
                "extractor_version": EXTRACTOR_VERSION,
                "source": "basil" if args.basil else "synthetic",
                "articles": len(docs),
                "mb": round(megabytes, 3),
                "best_s": round(best, 2),
                "mb_per_s": round(megabytes / best, 3),
                "claims": claims,
            }
        )
    )


if __name__ == "__main__":
    main()
