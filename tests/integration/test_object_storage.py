"""Warehouses and input folders on S3-compatible object storage: `claimhouse run` from and
into `s3a://` on a real S3 server (S3Proxy on loopback, tests/conftest.py), with the same gold
as on local disk, the sensor's listing, an incremental run, time travel, the SQL endpoint, and
the writer lock's conditional PUTs."""

from __future__ import annotations

import json
import socket
import threading
import time
from pathlib import Path

import dagster as dg
import pytest

from lake.bronze.ingest import list_input, list_object_store
from lake.config import load_settings
from lake.lock import LOCK_FILE, ObjectLock, WarehouseBusy, warehouse_lock
from lake.objectstore import RemotePath, S3Client, S3Config
from lake.pipeline import run_pipeline
from lake.schemas import GOLD_TABLES
from lake.storage import Lake
from lake.users import add_user
from orchestration.definitions import defs
from orchestration.resources import LakeResource

from ..conftest import S3_BUCKET, S3_KEYS, SEEDS, claimhouse, claimhouse_process, spark_reads_bucket


def _settings(s3_server, monkeypatch, warehouse: str, **overrides):
    """Settings of an s3a:// warehouse on S3Proxy; this process's requests sign with its keys."""
    for name, value in S3_KEYS.items():
        monkeypatch.setenv(name, value)
    return load_settings(warehouse=warehouse, environ=s3_server, **overrides)


def _client(s3_server) -> S3Client:
    return S3Client(S3Config(s3_server["CLAIMHOUSE_S3_ENDPOINT"], "us-east-1", True), S3_KEYS)


@pytest.fixture(scope="module")
def s3_seeds(s3_server, tmp_path_factory):
    """`claimhouse run` on the seeds, put in the bucket, into an s3a:// warehouse on S3Proxy,
    as a user types it, once per module: (the warehouse's URL, the input folder's URL, the
    environment it ran with, the process)."""
    work = tmp_path_factory.mktemp("s3-seeds")
    url, inputs = f"s3a://{S3_BUCKET}/seeds-wh", f"s3a://{S3_BUCKET}/seeds-in"
    env = {**s3_server, "CLAIMHOUSE_STATE_DIR": str(work / "state"), "CLAIMHOUSE_SETTLE_S": "0"}
    client = _client(s3_server)
    for seed in sorted(SEEDS.glob("*.txt")):
        client.put(S3_BUCKET, f"seeds-in/{seed.name}", seed.read_bytes())
    # Hidden, as in a local folder: never listed, never ingested.
    client.put(S3_BUCKET, "seeds-in/.partial/005.txt", b"Officials said 12 people came.")
    done = claimhouse("run", "--input", inputs, "--warehouse", url, env_extra=env)
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

    spark_reads_bucket(spark, s3_server)
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
def test_an_incremental_run_into_an_s3a_warehouse_rebuilds_the_changed_story(
    spark, s3_server, s3_seeds, monkeypatch
):
    """In this process, on the tests' shared Spark (no second JVM): bronze lists the bucket's
    input folder as the Dagster sensor does, and gold is rebuilt for the new article's story."""
    url, inputs, env, done = s3_seeds
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    spark_reads_bucket(spark, s3_server)
    settings = _settings(
        s3_server,
        monkeypatch,
        url,
        input_dir=inputs,
        state_dir=env["CLAIMHOUSE_STATE_DIR"],
        settle_s=0,  # the object is put a moment before the run
    )
    on_s3 = Lake(spark, RemotePath(url))
    assert sorted(r["source_uri"] for r in on_s3.read("bronze.articles").collect()) == sorted(
        seed.name for seed in SEEDS.glob("*.txt")
    )
    tables = ("gold.fact_evidence", "silver.claims", "bronze.articles")
    before = {t: on_s3.count(t) for t in tables}
    gold_version = on_s3.version("gold_release.tables")
    # The Dagster sensor watches the bucket's input folder: it asks for a run once it changes.
    for name, value in s3_server.items():
        monkeypatch.setenv(name, value)
    sensor = defs().resolve_sensor_def("input_folder_sensor")
    lake_resource = {"lake": LakeResource(input_dir=inputs, warehouse=url)}

    def tick(cursor):
        return sensor.evaluate_tick(dg.build_sensor_context(cursor=cursor, resources=lake_resource))

    cursor = tick(None).cursor
    assert tick(cursor).run_requests == []
    # A new article (a seed with other figures): gold is rebuilt for its story only.
    seed = sorted(SEEDS.glob("00*.txt"))[1]
    text = seed.read_text().replace("21,000", "22,000").replace("May 20", "May 19")
    _client(s3_server).put(S3_BUCKET, "seeds-in/new_article.txt", text.encode())
    listed = [(f.source_uri, f.size_bytes) for f in list_input(spark, inputs)]
    assert listed == [
        (f.source_uri, f.size_bytes)
        for f in list_object_store(_client(s3_server), RemotePath(inputs))
    ]
    assert [uri for uri, _ in listed] == sorted(
        [*(s.name for s in SEEDS.glob("*.txt")), "new_article.txt"]
    )

    (request,) = tick(cursor).run_requests
    assert request.tags["claimhouse/files"] == "6"

    second = run_pipeline(spark, settings, "s3-incremental")
    assert second.bronze.new_articles == 1 and second.gold.incremental
    assert on_s3.count("bronze.articles") == before["bronze.articles"] + 1
    assert on_s3.count("silver.claims") > before["silver.claims"]
    assert on_s3.count("gold.fact_evidence") > before["gold.fact_evidence"]
    # Time travel: the first run's release reads as it was.
    assert on_s3.count("gold.fact_evidence", version=gold_version) == before["gold.fact_evidence"]


def test_polars_reads_gold_from_the_bucket_at_the_release_the_manifest_pins(
    spark, s3_server, s3_seeds
):
    """An outside reader with the bucket's address and keys, no Spark: the manifest's latest
    release names each plain gold table's version, and the rows are those Spark's views show."""
    import polars as pl

    url, _, _, done = s3_seeds
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    options = {
        "AWS_ENDPOINT_URL": s3_server["CLAIMHOUSE_S3_ENDPOINT"],
        "AWS_REGION": "us-east-1",
        "AWS_ALLOW_HTTP": "true",
        **S3_KEYS,
    }
    where = f"s3://{S3_BUCKET}/{RemotePath(url).key}"
    manifest = pl.read_delta(f"{where}/gold_release/manifest", storage_options=options)
    latest = manifest.filter(pl.col("release_version") == pl.col("release_version").max())
    pinned = {r["table_name"]: (r["path"], r["version"]) for r in latest.iter_rows(named=True)}
    assert sorted(pinned) == ["fact_conflicts", "fact_evidence", "facts"]
    spark_reads_bucket(spark, s3_server)
    on_s3 = Lake(spark, RemotePath(url))
    for table, (path, version) in pinned.items():
        rows = pl.read_delta(f"{where}/{path}", version=version, storage_options=options)
        shown = on_s3.read(f"gold.{table}")
        assert rows.height == shown.count() > 0, table
        assert sorted(rows.columns) == sorted(shown.columns), table


def test_a_run_whose_s3a_input_folder_holds_nothing_stops_with_one_line(s3_server, tmp_path):
    env = {**s3_server, "CLAIMHOUSE_STATE_DIR": str(tmp_path / "state")}
    url = f"s3a://{S3_BUCKET}/nothing-here"
    done = claimhouse("run", "--input", url, "--warehouse", str(tmp_path / "wh"), env_extra=env)
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stderr.strip() == (
        f"error: input folder {url} holds no objects: pass --input s3a://BUCKET/PREFIX"
    )


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


@pytest.mark.slow
def test_the_sql_endpoint_serves_an_s3a_warehouse_to_a_reader(spark, s3_server, s3_seeds):
    """`claimhouse serve-sql` on the bucket's warehouse, its users file in the state folder:
    a reader's query and the time travel through it see what Spark sees in the bucket."""
    from pyhive import hive

    url, _, env, done = s3_seeds
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    add_user(Path(env["CLAIMHOUSE_STATE_DIR"]), "ana", "reader-pass-1", role="reader")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = claimhouse_process(
        "serve-sql", "--port", str(port), "--warehouse", url, env_extra={**env, **S3_KEYS}
    )
    log: list[str] = []  # drained all along: a full pipe would block the server's logging
    threading.Thread(target=lambda: log.extend(server.stderr), daemon=True).start()
    try:
        first = server.stdout.readline()
        assert first.startswith(f"serving {url} at jdbc:hive2://127.0.0.1:{port}/"), (
            first + "".join(log[-40:])
        )
        conn = hive.connect(
            host="127.0.0.1", port=port, auth="CUSTOM", username="ana", password="reader-pass-1"
        )
        cursor = conn.cursor()
        spark_reads_bucket(spark, s3_server)
        on_s3 = Lake(spark, RemotePath(url))
        for table in ("gold.facts", "silver.claims", "bronze.articles"):
            cursor.execute(f"SELECT COUNT(*) FROM {table}")
            assert cursor.fetchall() == [(on_s3.count(table),)], table
        cursor.execute("SELECT COUNT(*) FROM bronze.articles VERSION AS OF 0")
        assert cursor.fetchall() == [(0,)]
        conn.close()
    finally:
        server.terminate()
        assert server.wait(timeout=60) == 0
