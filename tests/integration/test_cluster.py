"""`claimhouse run --master spark://...` on a real standalone cluster (a master and a worker
started with pyspark's spark-class on loopback) builds the same gold as local[*]: from and into
a local folder, and from and into a bucket (S3Proxy, no folder shared with the workers)."""

from __future__ import annotations

import pytest

from evaluation.compare import gold_differences
from lake.objectstore import RemotePath, S3Client, S3Config
from lake.standalone import standalone_cluster

from ..conftest import S3_BUCKET, S3_KEYS, SEEDS, claimhouse, spark_reads_bucket

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
        "gold.facts": {"rows_a": 30, "rows_b": 30, "only_in_a": 0, "only_in_b": 0},
        "gold.fact_evidence": {"rows_a": 46, "rows_b": 46, "only_in_a": 0, "only_in_b": 0},
        "gold.fact_conflicts": {"rows_a": 1, "rows_b": 1, "only_in_a": 0, "only_in_b": 0},
    }


def test_a_standalone_cluster_on_object_storage_builds_the_same_gold_as_local(
    gold, spark, s3_server, tmp_path, monkeypatch
):
    """Input and warehouse in the bucket: the executors read the articles and write the tables
    through S3A, with the credentials of the worker's environment."""
    local_lake, local_settings, _, _ = gold
    for name, value in S3_KEYS.items():
        monkeypatch.setenv(name, value)
    client = S3Client(S3Config(s3_server["CLAIMHOUSE_S3_ENDPOINT"], "us-east-1", True))
    for seed in sorted(SEEDS.glob("*.txt")):
        client.put(S3_BUCKET, f"cluster-in/{seed.name}", seed.read_bytes())
    url = f"s3a://{S3_BUCKET}/cluster-wh"
    env = {**s3_server, "CLAIMHOUSE_STATE_DIR": str(tmp_path / "state")}
    with standalone_cluster(cores=2, memory="3g", work_dir=tmp_path / "cluster") as cluster:
        done = claimhouse(
            *("run", "--input", f"s3a://{S3_BUCKET}/cluster-in", "--warehouse", url),
            *("--master", cluster.master_url),
            timeout=900,
            env_extra=env,
        )
        executors = (cluster.log_dir / "worker.log").read_text()
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    assert "Asked to launch executor" in executors
    spark_reads_bucket(spark, s3_server)
    differences = gold_differences(spark, local_settings.warehouse, RemotePath(url), version_a=0)
    assert all(d["only_in_a"] == d["only_in_b"] == 0 for d in differences.values()), differences
