"""A run killed right after a commit (SIGKILL to its process group, JVM included) and then run
again leaves the same tables as a run that was never killed. `benchmarks/torture.py` does
this at every commit boundary; here, the one where claims used to be lost: after the claims
MERGE and before the extraction log that says which articles are done."""

from __future__ import annotations

import os
import signal
import time

import pytest

from benchmarks.torture import DATA_VERSION, claimhouse_run, committed, compare, finish, snapshot

from ..conftest import SEEDS

pytestmark = [pytest.mark.slow, pytest.mark.heavy]


def test_a_run_killed_between_the_claims_and_the_extraction_log_is_completed_by_the_next(
    cli_run, tmp_path
):
    clean, done = cli_run
    assert done.returncode == 0, done.stderr
    warehouse = tmp_path / "warehouse"
    run = claimhouse_run(SEEDS, warehouse)
    while run.poll() is None and not committed(
        warehouse, "silver.claims", DATA_VERSION["silver.claims"]
    ):
        time.sleep(0.02)
    assert run.poll() is None, "the run ended before its claims were committed"
    os.killpg(run.pid, signal.SIGKILL)
    run.wait()
    assert not committed(warehouse, "silver.extractions", DATA_VERSION["silver.extractions"])

    code, out, err = finish(claimhouse_run(SEEDS, warehouse), timeout=900)
    assert code == 0, err
    assert "silver: 48 claims from 5 new articles" in out  # the killed batch is redone
    assert compare(snapshot(clean), snapshot(warehouse)) == {
        "same_articles": True,
        "same_claims": True,
        "same_facts": True,
        "duplicates": 0,
        "empty_extractions_with_claims": 0,
    }
