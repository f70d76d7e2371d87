"""One SparkSession for the whole test session; every test gets its own warehouse folder."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SEEDS = REPO / "seeds"
# Tests write their input files a moment before they ingest them: no settle time, except in
# the tests of settling, which set their own.
os.environ.setdefault("CLAIMHOUSE_SETTLE_S", "0")


@pytest.fixture(scope="session")
def spark(tmp_path_factory):
    from lake.config import load_settings
    from lake.spark import get_spark

    os.environ.setdefault("CLAIMHOUSE_SHUFFLE_PARTITIONS", "2")
    home = tmp_path_factory.mktemp("spark-home")
    session = get_spark(load_settings(warehouse=home), ui=False)
    yield session
    session.stop()


@pytest.fixture
def warehouse(tmp_path: Path) -> Path:
    return tmp_path / "warehouse"


@pytest.fixture
def lake(spark, warehouse):
    from lake.storage import Lake

    return Lake(spark, warehouse)


@pytest.fixture
def seeds_copy(tmp_path: Path) -> Path:
    """The shipped seed articles in a folder the test may change."""
    target = tmp_path / "input"
    shutil.copytree(SEEDS, target)
    return target


@pytest.fixture(scope="session")
def gold(spark, tmp_path_factory):
    """The seeds through bronze, silver and one gold build (run id g1), shared by the tests
    that read them: (lake, settings, gold summary, article_id -> "000".."004").
    tests/integration/test_serve.py adds one article and claim: count, do not assume 43."""
    from lake.bronze.ingest import ingest
    from lake.config import load_settings
    from lake.gold.build import build_gold
    from lake.silver.publish import extract_new
    from lake.silver.publish_stories import publish_stories
    from lake.storage import Lake

    settings = load_settings(warehouse=tmp_path_factory.mktemp("gold") / "warehouse")
    lake = Lake(spark, settings.warehouse)
    ingest(spark, lake, SEEDS, "g1", 5 * 1024 * 1024)
    extract_new(spark, lake, "g1")
    publish_stories(spark, lake, "g1")
    summary = build_gold(spark, settings, "g1")
    names = {
        r["article_id"]: r["source_uri"][:3]
        for r in lake.read("bronze.articles").select("article_id", "source_uri").collect()
    }
    return lake, settings, summary, names


def contracts_with_strict_attribution(tmp_path: Path, severity: str) -> Path:
    """A copy of the shipped contracts where silver.claims' attribution_present demands a
    source on every claim (the seeds have unattributed claims) with the given severity."""
    from lake.contracts import CONTRACTS_DIR

    folder = tmp_path / "contracts"
    shutil.copytree(CONTRACTS_DIR, folder)
    silver = folder / "silver.claims.yml"
    text = silver.read_text()
    start = text.index("  - name: attribution_present")
    end = text.index("  - name: bounds_contain_value")
    silver.write_text(
        text[:start]
        + "  - name: attribution_present\n"
        + "    description: every claim names its source\n"
        + f"    severity: {severity}\n"
        + "    predicate: attribution IS NOT NULL\n"
        + text[end:]
    )
    return folder
