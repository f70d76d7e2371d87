"""`claimhouse run --master spark://...` on a real standalone cluster (a master and a worker
started with pyspark's spark-class on loopback) builds the same gold as local[*]."""

from __future__ import annotations

import pytest

from evaluation.compare import gold_differences
from lake.standalone import standalone_cluster

from ..conftest import SEEDS, claimhouse

pytestmark = [pytest.mark.slow, pytest.mark.heavy]


def test_a_standalone_cluster_builds_the_same_gold_as_local(gold, spark, tmp_path):
    local_lake, local_settings, _, _ = gold
    warehouse = tmp_path / "warehouse"
    with standalone_cluster(cores=2, memory="3g", work_dir=tmp_path / "cluster") as cluster:
        done = claimhouse(
            *("run", "--input", str(SEEDS), "--warehouse", str(warehouse)),
            *("--master", cluster.master_url),
            timeout=600,
        )
        executors = (cluster.log_dir / "worker.log").read_text()
    assert done.returncode == 0, done.stderr[-3000:]
    # The work ran on the cluster's executor, not in the driver.
    assert "Asked to launch executor" in executors
    # Version 0: the shared local build as first written (test_serve adds to it later).
    differences = gold_differences(spark, local_settings.warehouse, warehouse, version_a=0)
    assert differences == {
        "gold.facts": {"rows_a": 31, "rows_b": 31, "only_in_a": 0, "only_in_b": 0},
        "gold.fact_evidence": {"rows_a": 46, "rows_b": 46, "only_in_a": 0, "only_in_b": 0},
        "gold.fact_conflicts": {"rows_a": 1, "rows_b": 1, "only_in_a": 0, "only_in_b": 0},
    }
