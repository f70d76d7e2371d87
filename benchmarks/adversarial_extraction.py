"""Extraction time on adversarial inputs: does it grow linearly, and does any article exceed
its time budget?

    .venv/bin/python benchmarks/adversarial_extraction.py --sizes 0.0625 0.25 1

For each shape (unpunctuated prose; a run of thousands of numbers; one huge sentence of
figures, dates and sources) and size in MB, extracts one article of that size in this process
the way silver does (lake.silver.publish.article_rows, with the default budget) and prints one
JSON object: seconds, MB/s, claims, whether the budget stopped it, and seconds per MB relative
to the smallest size (1.0 everywhere means linear).
"""

from __future__ import annotations

import argparse
import json
import random
import time

from lake.config import Settings
from lake.silver.publish import Budget, article_rows

_PROSE = (
    "the council said that officials would meet again soon with residents and others about "
    "plans for roads schools and the budget"
)


def prose(size: int, rng: random.Random) -> str:
    vocabulary = _PROSE.split(" ")
    words, total = [], 0
    while total < size:
        word = rng.choice(vocabulary)
        words.append(word)
        total += len(word) + 1
    return " ".join(words)[:size]


def numbers(size: int, rng: random.Random) -> str:
    return ("1 " * (size // 2 + 1))[:size]


def figures(size: int, rng: random.Random) -> str:
    """One sentence of claims joined by commas: no full stop anywhere."""
    parts, total = [], 0
    while total < size:
        part = (
            f"about {rng.randint(2, 99_999):,} people on May {rng.randint(1, 28)}, "
            f"up {rng.randint(1, 99)}% to ${rng.randint(1, 900)} million according to Reuters"
        )
        parts.append(part)
        total += len(part) + 2
    return ", ".join(parts)[:size]


SHAPES = {"prose": prose, "numbers": numbers, "figures": figures}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=float, nargs="+", default=[0.0625, 0.25, 1.0])
    parser.add_argument("--budget", type=float, default=Settings.extract_budget_s)
    args = parser.parse_args()
    rng = random.Random(7)
    results = []
    for shape, make in SHAPES.items():
        base = None
        for mb in sorted(args.sizes):
            text = make(int(mb * 2**20), rng)
            started = time.perf_counter()
            rows = article_rows("adversarial", text, None, None, Budget(args.budget))
            seconds = time.perf_counter() - started
            error = rows[0].get("extraction_error") if rows else None
            per_mb = seconds / mb
            base = base or per_mb
            results.append(
                {
                    "shape": shape,
                    "mb": mb,
                    "seconds": round(seconds, 3),
                    "mb_per_s": round(mb / seconds, 3) if seconds else None,
                    "claims": 0 if error else len(rows),
                    "stopped_by_budget": error is not None,
                    "budget_s": round(args.budget * max(1.0, len(text) / 100_000), 1),
                    "seconds_per_mb_vs_smallest": round(per_mb / base, 2),
                }
            )
    print(json.dumps({"budget_s_per_100kb": args.budget, "runs": results}, indent=2))


if __name__ == "__main__":
    main()
