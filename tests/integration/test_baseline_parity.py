"""benchmarks/baseline.py is a second copy of gold's rules (story grouping, reconciliation) in
plain Python, the floor claimhouse's speed is measured against. It is held to gold here: on
the seeds and on a 1,000-article synthetic corpus, the baseline given silver's claims builds
the same stories, facts, evidence and conflicts as the pipeline."""

from __future__ import annotations

import importlib.util
import math

import pytest
from pyspark.sql import functions as F

from lake.silver.stories import STORY_METHOD
from lake.storage import Lake

from ..conftest import REPO

pytestmark = pytest.mark.slow

_spec = importlib.util.spec_from_file_location("baseline", REPO / "benchmarks" / "baseline.py")
baseline = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(baseline)

# Columns both copies compute (gold's others say when and by which run a row was written).
FACT_COLUMNS = (
    "fact_id",
    "story_id",
    "kind",
    "measure_key",
    "label",
    "subject",
    "property",
    "event",
    "scope",
    "role",
    "measure_keys",
    "per",
    "consensus_value",
    "consensus_text",
    "consensus_lower",
    "consensus_upper",
    "value_min",
    "value_max",
    "status",
    "article_count",
    "articles",
    "independent_source_count",
    "claim_count",
)


CONFLICT_COLUMNS = (
    "fact_id",
    "value_a",
    "value_b",
    "articles_a",
    "articles_b",
    "matched_parts",
    "match_confidence",
)


def _value(v):
    if isinstance(v, float):
        return None if math.isinf(v) else round(v, 6)
    if isinstance(v, list):
        return tuple(sorted(v))
    return v


def _rows(rows, columns) -> set[tuple]:
    return {tuple(_value(r[c]) for c in columns) for r in rows}


def _partition(story: dict[str, str]) -> set[frozenset]:
    groups: dict[str, set] = {}
    for article, story_id in story.items():
        groups.setdefault(story_id, set()).add(article)
    return {frozenset(g) for g in groups.values()}


def differences(lake: Lake) -> dict[str, dict[str, int]]:
    """What the baseline builds from this warehouse's bronze and silver, against gold: rows
    only in gold and only in the baseline, per table (and stories as sets of articles)."""
    articles = {r["article_id"]: r.asDict() for r in lake.read("bronze.articles").collect()}
    stories = {
        r["article_id"]: r["story_id"]
        for r in lake.read("silver.article_stories")
        .where(F.col("story_method") == STORY_METHOD)
        .collect()
    }
    claims = [r.asDict(recursive=True) for r in lake.read("silver.claims").collect()]
    facts, evidence, conflicts = baseline.reconcile(claims, stories)
    found = {
        "stories": (_partition(stories), _partition(baseline.group_stories(articles))),
        "gold.facts": (
            _rows(lake.read("gold.facts").collect(), FACT_COLUMNS),
            _rows(facts, FACT_COLUMNS),
        ),
        "gold.fact_evidence": (
            _rows(lake.read("gold.fact_evidence").collect(), ("fact_id", "claim_id", "agrees")),
            _rows(evidence, ("fact_id", "claim_id", "agrees")),
        ),
        "gold.fact_conflicts": (
            _rows(
                lake.read("gold.fact_conflicts").collect(),
                CONFLICT_COLUMNS,
            ),
            _rows(conflicts, CONFLICT_COLUMNS),
        ),
    }
    return {
        name: {"gold": len(g), "only_gold": len(g - b), "only_baseline": len(b - g)}
        for name, (g, b) in found.items()
    }


def _agree(found: dict) -> dict:
    return {name: d for name, d in found.items() if d["only_gold"] or d["only_baseline"]}


def test_the_baseline_builds_the_seeds_gold(spark, cli_run):
    found = differences(Lake(spark, cli_run[0]))
    assert _agree(found) == {}
    assert found["gold.facts"]["gold"] >= 21 and found["gold.fact_conflicts"]["gold"] >= 1


@pytest.mark.heavy  # reads the pipeline benchmark's 1,000-article run (heavy there too)
def test_the_baseline_builds_a_synthetic_corpus_gold(spark, benchmark_1k):
    """The 1,000-article synthetic corpus (seed 23) benchmarks/pipeline.py built."""
    work, done = benchmark_1k
    assert done.returncode == 0, done.stderr[-3000:]
    found = differences(Lake(spark, work / "wh1000"))
    assert _agree(found) == {}
    assert found["gold.facts"]["gold"] > 400 and found["gold.fact_conflicts"]["gold"] > 30
