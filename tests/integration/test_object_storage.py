"""Warehouses on S3-compatible object storage: `claimhouse run` into `s3a://` on a real
S3 server (S3Proxy on loopback, tests/conftest.py), with the same gold as on local disk, an
incremental run, time travel, and the writer lock's conditional PUTs."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import pytest

from lake.config import load_settings
from lake.lock import LOCK_FILE, ObjectLock, WarehouseBusy, warehouse_lock
from lake.objectstore import RemotePath, S3Client, S3Config
from lake.schemas import GOLD_TABLES
from lake.storage import Lake

from ..conftest import S3_BUCKET, S3_KEYS, SEEDS, claimhouse


def _settings(s3_server, monkeypatch, warehouse: str, **overrides):
    """Settings of an s3a:// warehouse on S3Proxy; this process's requests sign with its keys."""
    for name, value in S3_KEYS.items():
        monkeypatch.setenv(name, value)
    return load_settings(warehouse=warehouse, environ=s3_server, **overrides)


def _client(s3_server) -> S3Client:
    return S3Client(S3Config(s3_server["CLAIMHOUSE_S3_ENDPOINT"], "us-east-1", True), S3_KEYS)


def _reads_s3(spark, s3_server) -> None:
    """The shared session (started before S3Proxy) reads the test bucket: S3A's per-bucket
    settings, taken when the bucket's FileSystem is first made."""
    conf = spark._jsc.hadoopConfiguration()
    prefix = f"fs.s3a.bucket.{S3_BUCKET}."
    conf.set(prefix + "endpoint", s3_server["CLAIMHOUSE_S3_ENDPOINT"])
    conf.set(prefix + "path.style.access", "true")
    conf.set(prefix + "connection.ssl.enabled", "false")
    conf.set(prefix + "endpoint.region", "us-east-1")
    conf.set(prefix + "access.key", S3_KEYS["AWS_ACCESS_KEY_ID"])
    conf.set(prefix + "secret.key", S3_KEYS["AWS_SECRET_ACCESS_KEY"])


@pytest.fixture(scope="module")
def s3_seeds(s3_server, tmp_path_factory):
    """`claimhouse run` on the seeds into an s3a:// warehouse on S3Proxy, as a user types it,
    once per module: (its URL, its input folder, the environment it ran with, the process)."""
    work = tmp_path_factory.mktemp("s3-seeds")
    url = f"s3a://{S3_BUCKET}/seeds-wh"
    env = {**s3_server, "CLAIMHOUSE_STATE_DIR": str(work / "state"), "CLAIMHOUSE_SETTLE_S": "0"}
    inputs = work / "input"
    inputs.mkdir()
    for seed in sorted(SEEDS.glob("*.txt")):
        (inputs / seed.name).write_bytes(seed.read_bytes())
    done = claimhouse("run", "--input", str(inputs), "--warehouse", url, env_extra=env)
    return url, inputs, env, done


@pytest.mark.slow
def test_claimhouse_run_into_an_s3a_warehouse_builds_the_gold_of_local_disk(
    spark, cli_run, s3_server, s3_seeds
):
    local, local_done = cli_run
    assert local_done.returncode == 0, local_done.stderr[-3000:]
    url, _, env, done = s3_seeds
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    # The warehouse's own local files are in the state folder, the tables in the bucket.
    state = Path(env["CLAIMHOUSE_STATE_DIR"])
    assert (state / "_dbt" / "target" / "manifest.json").is_file()
    keys = list(_client(s3_server).list(S3_BUCKET, "seeds-wh/"))
    assert "seeds-wh/gold_release/tables/_delta_log/00000000000000000000.json" in keys
    assert not any("/_spark/" in k or "/_dbt/" in k or k.endswith(LOCK_FILE) for k in keys)

    _reads_s3(spark, s3_server)
    on_s3, on_disk = Lake(spark, RemotePath(url)), Lake(spark, local)
    tables = (*GOLD_TABLES, "silver.claims", "bronze.articles")
    counts = {t: on_s3.count(t) for t in tables}
    assert counts == {t: on_disk.count(t) for t in tables}
    assert counts["gold.facts"] > 0
    # Time travel: version 0 is each table as created, empty.
    assert on_s3.count("bronze.articles", version=0) == 0
    assert on_s3.read("silver.claims", version=0).count() == 0
    assert on_s3.read("silver.claims", version=1).count() == counts["silver.claims"]


@pytest.mark.slow
@pytest.mark.heavy  # a second whole run into the bucket; the incremental path itself is in CI
def test_an_incremental_run_into_an_s3a_warehouse_rebuilds_the_changed_story(
    spark, s3_server, s3_seeds
):
    url, inputs, env, done = s3_seeds
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    _reads_s3(spark, s3_server)
    on_s3 = Lake(spark, RemotePath(url))
    tables = ("gold.fact_evidence", "silver.claims", "bronze.articles")
    before = {t: on_s3.count(t) for t in tables}
    gold_version = on_s3.version("gold_release.tables")
    # A new article (a seed with other figures): gold is rebuilt for its story only.
    seed = sorted(inputs.glob("00*.txt"))[1]
    text = seed.read_text().replace("21,000", "22,000").replace("May 20", "May 19")
    (inputs / "new_article.txt").write_text(text)
    second = claimhouse(
        "run", "--input", str(inputs), "--warehouse", url, "--log-format", "json", env_extra=env
    )
    assert second.returncode == 0, second.stdout[-2000:] + second.stderr[-3000:]
    events = [json.loads(line) for line in second.stdout.splitlines()]
    (gold_line,) = [e["message"] for e in events if e.get("layer") == "gold"]
    assert "changed stories" in gold_line, gold_line
    assert on_s3.count("bronze.articles") == before["bronze.articles"] + 1
    assert on_s3.count("silver.claims") > before["silver.claims"]
    assert on_s3.count("gold.fact_evidence") > before["gold.fact_evidence"]
    # Time travel: the first run's release reads as it was.
    assert on_s3.count("gold.fact_evidence", version=gold_version) == before["gold.fact_evidence"]


def test_a_second_writer_on_an_s3a_warehouse_stops_with_one_line_naming_it(
    s3_server, tmp_path, monkeypatch
):
    url = f"s3a://{S3_BUCKET}/busy-wh"
    settings = _settings(s3_server, monkeypatch, url)
    env = {**s3_server, "CLAIMHOUSE_STATE_DIR": str(tmp_path / "state")}
    with warehouse_lock(settings.warehouse, "run-A", settings=settings):
        done = claimhouse("run", "--input", str(SEEDS), "--warehouse", url, env_extra=env)
    assert done.returncode == 3, done.stdout + done.stderr
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith("error: warehouse busy: run run-A since "), line
    assert f"holds {url}." in line and "CLAIMHOUSE_LOCK_TIMEOUT_S" in line, line
    assert "Traceback" not in done.stdout + done.stderr
    # Released: the lock object is gone, and the next writer takes it at once.
    assert _client(s3_server).get(S3_BUCKET, f"busy-wh/{LOCK_FILE}") is None
    with warehouse_lock(settings.warehouse, "run-B", settings=settings):
        pass


def test_the_s3_lock_is_one_writers_and_its_lease_lapses_when_not_renewed(s3_server, monkeypatch):
    settings = _settings(s3_server, monkeypatch, f"s3a://{S3_BUCKET}/lease-wh", lock_lease_s=10)
    client, key = _client(s3_server), f"lease-wh/{LOCK_FILE}"
    # Writers racing for a free lock: the conditional PUT lets exactly one take it.
    locks = [ObjectLock(settings.warehouse, f"racer-{i}", settings) for i in range(6)]
    won, start = [], threading.Barrier(len(locks))

    def race(lock: ObjectLock) -> None:
        start.wait()
        try:
            lock.acquire(0)
            won.append(lock)
        except WarehouseBusy:
            pass

    threads = [threading.Thread(target=race, args=(lock,)) for lock in locks]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(won) == 1
    # The holder renews its lease (every third of it): the object's ETag moves on.
    first_etag = won[0].etag
    time.sleep(4)
    assert client.get(S3_BUCKET, key)[1] == won[0].etag != first_etag
    won[0].close()
    assert client.get(S3_BUCKET, key) is None

    # A killed holder's lock (its lease lapsed, nobody renews it) is taken over.
    lapsed = {"run_id": "killed", "since": "2026-01-01T00:00:00+00:00", "expires": time.time() - 1}
    client.put(S3_BUCKET, key, json.dumps(lapsed).encode())
    with warehouse_lock(settings.warehouse, "run-C", settings=settings):
        body, _ = client.get(S3_BUCKET, key)
        assert json.loads(body)["run_id"] == "run-C"
    # One still within its lease is not: the second writer is told who holds it until when.
    live = {**lapsed, "expires": time.time() + 60}
    client.put(S3_BUCKET, key, json.dumps(live).encode())
    with (
        pytest.raises(WarehouseBusy, match="run killed since .* lapses at "),
        warehouse_lock(settings.warehouse, "run-D", settings=settings),
    ):
        pass
    client.delete(S3_BUCKET, key)
