"""One claim-heavy input through every layer: `claimhouse run` on the seeds plus one single-line
file, either the seeds' own text repeated (`--shape seeds`: the same claims again and again) or
one sentence of distinct figures, dates and sources (`--shape figures`, as
adversarial_extraction.py makes it); prints one JSON object.

    .venv/bin/python benchmarks/claim_heavy.py --kb 900 --shape figures
    .venv/bin/python benchmarks/claim_heavy.py --kb 40 --shape figures --max-claims 100000

With the default claim budget (CLAIMHOUSE_MAX_CLAIMS_PER_ARTICLE) the heavy article is
quarantined whole and the run ends with the seeds in gold. `--max-claims` above the article's
count lets its claims through, which measures what gold pays for a story at a given count (the
worst case the budget allows: every claim in one story and measure partition).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.adversarial_extraction import figures

REPO = Path(__file__).resolve().parent.parent
SEEDS = REPO / "seeds"
CLAIMHOUSE = str(Path(sys.executable).parent / "claimhouse")


def heavy_text(kb: float) -> str:
    """The seeds' bodies, repeated on one line up to `kb` kilobytes."""
    seeds = " ".join(" ".join(p.read_text().split()) for p in sorted(SEEDS.glob("*.txt")))
    size = int(kb * 1024)
    return (seeds + " ") * (size // (len(seeds) + 1)) + seeds[: size % (len(seeds) + 1)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kb", type=float, default=900)
    parser.add_argument("--shape", choices=("seeds", "figures"), default="seeds")
    parser.add_argument("--max-claims", type=int, default=None)
    parser.add_argument("--extract-budget-s", type=float, default=None)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="claim-heavy-"))
    try:
        inputs = work / "in"
        shutil.copytree(SEEDS, inputs)
        text = (
            heavy_text(args.kb)
            if args.shape == "seeds"
            else figures(int(args.kb * 1024), random.Random(7))
        )
        (inputs / "heavy.txt").write_text(text)
        env = {k: v for k, v in os.environ.items() if not k.startswith("CLAIMHOUSE_")}
        env |= {"CLAIMHOUSE_ENGINE": "off", "CLAIMHOUSE_SETTLE_S": "0"}
        if args.max_claims is not None:
            env["CLAIMHOUSE_MAX_CLAIMS_PER_ARTICLE"] = str(args.max_claims)
        if args.extract_budget_s is not None:
            env["CLAIMHOUSE_EXTRACT_BUDGET_S"] = str(args.extract_budget_s)
        command = [CLAIMHOUSE, "run", "--input", str(inputs), "--warehouse", str(work / "wh")]
        started = time.perf_counter()
        done = subprocess.run(
            command + ["--no-dagster"], capture_output=True, text=True, env=env, timeout=7200
        )
        seconds = time.perf_counter() - started
        lines = (done.stdout + done.stderr).splitlines()
        print(
            json.dumps(
                {
                    "kb": args.kb,
                    "shape": args.shape,
                    "max_claims_per_article": args.max_claims,
                    "exit_code": done.returncode,
                    "seconds": round(seconds, 1),
                    "silver": [x for x in lines if " silver: " in x and "claims" in x],
                    "gold": [x for x in lines if " gold: " in x],
                    "errors": [x for x in lines if x.startswith("error")],
                    "cores": os.cpu_count(),
                    "python": platform.python_version(),
                },
                indent=2,
            )
        )
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
