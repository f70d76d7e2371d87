"""One SparkSession for the whole test session; every test gets its own warehouse folder."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parent.parent
SEEDS = REPO / "seeds"
# Claims of these measure keys stay in silver and make no fact (dbt var unreconciled_measures).
UNRECONCILED_MEASURES = yaml.safe_load((REPO / "dbt_project" / "dbt_project.yml").read_text())[
    "vars"
]["unreconciled_measures"]
# Tests write their input files a moment before they ingest them: no settle time, except in
# the tests of settling, which set their own.
os.environ.setdefault("CLAIMHOUSE_SETTLE_S", "0")


CLAIMHOUSE = str(Path(sys.executable).parent / "claimhouse")

# ./scripts/test runs the suite in two processes (pytest-xdist, `-n 2`), each with its own
# Spark: one process alone leaves about a quarter of 2 cores idle while it waits on the JVMs and
# commands it starts. These files run in the second, the rest in the first; the split balances
# their times (benchmarks/HISTORY.md, 2026-12-07). A session fixture is built once in each
# process that uses it (the seeds' `claimhouse run`, cli_run, in both).
SECOND_PROCESS = (
    "tests/unit/",
    "tests/orchestration/",
    "tests/ui/",
    "tests/benchmarks/",
    "tests/integration/test_gold_incremental.py",
    "tests/integration/test_object_storage.py",
    "tests/integration/test_silver.py",
)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """xdist's scope scheduling with two scopes, the two processes above. (Its `loadgroup`
    marks cannot do it on pytest 9.2: xdist 3.8 renames a test's node id where pytest no
    longer reads it.)"""
    from xdist.scheduler import LoadScopeScheduling

    class TwoProcesses(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return "second" if nodeid.startswith(SECOND_PROCESS) else "first"

    return TwoProcesses(config, log)


def claimhouse(
    *args: str, timeout: int = 600, env_extra: dict | None = None
) -> subprocess.CompletedProcess:
    """The console script in its own process (and JVM), with no CLAIMHOUSE_* settings but
    env_extra's; a warm engine the developer left running is not used unless env_extra names
    an engine folder."""
    return subprocess.run(
        [CLAIMHOUSE, *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=_cli_env(env_extra),
    )


def claimhouse_process(*args: str, env_extra: dict | None = None) -> subprocess.Popen:
    """claimhouse(), started and left running (a server): its stdout and stderr are pipes."""
    return subprocess.Popen(
        [CLAIMHOUSE, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=_cli_env(env_extra),
    )


def _cli_env(env_extra: dict | None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLAIMHOUSE_")}
    if "CLAIMHOUSE_ENGINE_DIR" not in (env_extra or {}):
        env["CLAIMHOUSE_ENGINE"] = "off"
    env.update(env_extra or {})
    return env


@pytest.fixture(scope="session")
def cli_run(tmp_path_factory) -> tuple[Path, subprocess.CompletedProcess]:
    """`claimhouse run` on the seeds, as a user types it, once per session: (warehouse, the
    finished process). Tests may run it again on the same warehouse (nothing new: it changes
    no table but the logs)."""
    warehouse = tmp_path_factory.mktemp("cli-run") / "wh"
    done = claimhouse("run", "--input", str(SEEDS), "--warehouse", str(warehouse))
    return warehouse, done


@pytest.fixture(scope="session")
def benchmark_1k(tmp_path_factory) -> tuple[Path, subprocess.CompletedProcess]:
    """benchmarks/pipeline.py as a user runs it, on 1,000 synthetic articles (seed 23), once
    per session, keeping its corpus and warehouse: (folder with corpus1000/ and wh1000/, the
    finished process; its Spark event log is in ev/)."""
    work = tmp_path_factory.mktemp("bench1k")
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLAIMHOUSE_")}
    done = subprocess.run(
        [sys.executable, str(REPO / "benchmarks" / "pipeline.py"), "--articles", "1000"]
        + ["--keep", str(work)],
        capture_output=True,
        text=True,
        timeout=1800,
        env={**env, "TMPDIR": str(work), "CLAIMHOUSE_SPARK_EVENT_LOG": str(work / "ev")},
    )
    return work, done


@pytest.fixture(scope="session")
def spark(tmp_path_factory):
    from lake.config import load_settings
    from lake.spark import get_spark

    os.environ.setdefault("CLAIMHOUSE_SHUFFLE_PARTITIONS", "2")
    home = tmp_path_factory.mktemp("spark-home")
    session = get_spark(load_settings(warehouse=home), ui=False)
    yield session
    session.stop()


@pytest.fixture(scope="session")
def hosted_engine(spark, tmp_path_factory):
    """A warm engine (lake.engine) served from a thread of this test process, whose Spark is
    the session's: (its folder, the server). A `claimhouse` command given
    env_extra={"CLAIMHOUSE_ENGINE_DIR": folder} runs in it."""
    from claimhouse.cli import _in_engine
    from lake import engine
    from lake.config import load_settings

    folder = tmp_path_factory.mktemp("engine")
    settings = load_settings(warehouse=folder / "spark")
    server = engine.Engine(folder, engine.fixed_settings(settings), _in_engine)
    server.publish_state()
    engine.serve_in_thread(server)
    yield folder, server
    server.shutdown()


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
def gold(spark, cli_run, tmp_path_factory):
    """A copy of the warehouse `claimhouse run` built from the seeds (cli_run), registered in
    this session, shared by the tests that read it: (lake, settings, the run's stdout,
    article_id -> "000".."004"). tests/integration/test_serve.py adds one article and claim,
    and test_gold.py rebuilds gold once: count, do not assume 43 or one run id."""
    from lake.config import load_settings
    from lake.storage import Lake

    built, done = cli_run
    assert done.returncode == 0, done.stderr[-3000:]
    settings = load_settings(
        warehouse=tmp_path_factory.mktemp("gold") / "warehouse", input_dir=SEEDS
    )
    copy_warehouse(built, settings.warehouse)
    lake = Lake(spark, settings.warehouse)
    lake.register_all()
    names = {
        r["article_id"]: r["source_uri"][:3]
        for r in lake.read("bronze.articles").select("article_id", "source_uri").collect()
    }
    return lake, settings, done.stdout, names


def copy_warehouse(built: Path, to: Path) -> None:
    """A copy of a warehouse another process built, without that run's Spark scratch folder:
    its JVM may still be deleting it."""

    def scratch(folder: str, names: list[str]) -> list[str]:
        return ["tmp"] if Path(folder).name == "_spark" else []

    shutil.copytree(built, to, ignore=scratch)


def contracts_with_fail_rule(tmp_path: Path, table: str, name: str, predicate: str) -> Path:
    """A copy of the shipped contracts where `table` gains the `fail` row rule `name`."""
    from lake.contracts import CONTRACTS_DIR

    folder = tmp_path / "contracts"
    shutil.copytree(CONTRACTS_DIR, folder)
    contract = folder / f"{table}.yml"
    document = yaml.safe_load(contract.read_text())
    document["schema"][0].setdefault("quality", []).insert(
        0,
        {
            "name": name,
            "description": "a stricter team",
            "type": "sql",
            "severity": "fail",
            "query": f"SELECT COUNT(*) FROM ${{table}} WHERE ({predicate}) IS NOT TRUE",
            "mustBe": 0,
        },
    )
    contract.write_text(yaml.safe_dump(document, sort_keys=False))
    return folder


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
        + "    type: sql\n"
        + f"    severity: {severity}\n"
        + "    query: SELECT COUNT(*) FROM ${table} WHERE (attribution IS NOT NULL) IS NOT TRUE\n"
        + "    mustBe: 0\n"
        + text[end:]
    )
    return folder


# S3Proxy (fetched by scripts/setup into .jars/s3proxy/): a real S3-compatible server, its
# objects in a temporary folder, for the tests of s3a:// warehouses.
S3PROXY_JARS = REPO / ".jars" / "s3proxy"
S3_BUCKET = "claimhouse-test"
S3_KEYS = {"AWS_ACCESS_KEY_ID": "claimhouse-test", "AWS_SECRET_ACCESS_KEY": "claimhouse-secret"}
_S3PROXY_LOGGING = """<configuration>
  <appender name="ERR" class="ch.qos.logback.core.ConsoleAppender">
    <target>System.err</target>
    <encoder><pattern>%d{HH:mm:ss} %-5level %logger{0} - %msg%n</pattern></encoder>
  </appender>
  <root level="WARN"><appender-ref ref="ERR"/></root>
</configuration>
"""


@pytest.fixture(scope="session")
def s3_server(tmp_path_factory):
    """S3Proxy on loopback with one bucket, S3_BUCKET, for the whole test session: yields the
    variables that point claimhouse at it (endpoint, path-style requests, credentials; a test
    adds CLAIMHOUSE_STATE_DIR, the warehouse's local folder)."""
    import socket
    import time

    from lake.objectstore import S3Client, S3Config

    if not any(S3PROXY_JARS.glob("s3proxy-*.jar")):
        pytest.fail(f"S3Proxy's jars are not in {S3PROXY_JARS}: run scripts/setup")
    work = tmp_path_factory.mktemp("s3proxy")
    (work / "data").mkdir()
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    endpoint = f"http://127.0.0.1:{port}"
    (work / "s3proxy.conf").write_text(
        f"s3proxy.endpoint={endpoint}\n"
        "s3proxy.authorization=aws-v2-or-v4\n"
        f"s3proxy.identity={S3_KEYS['AWS_ACCESS_KEY_ID']}\n"
        f"s3proxy.credential={S3_KEYS['AWS_SECRET_ACCESS_KEY']}\n"
        "jclouds.provider=filesystem-nio2\n"
        f"jclouds.filesystem.basedir={work / 'data'}\n"
    )
    (work / "logback.xml").write_text(_S3PROXY_LOGGING)
    log = (work / "s3proxy.log").open("wb")
    server = subprocess.Popen(
        ["java", "-Xmx256m", f"-Dlogback.configurationFile={work / 'logback.xml'}"]
        + ["-cp", f"{S3PROXY_JARS}/*", "org.gaul.s3proxy.Main"]
        + ["--properties", str(work / "s3proxy.conf")],
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    deadline = time.monotonic() + 60
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            if server.poll() is not None or time.monotonic() > deadline:
                server.kill()
                pytest.fail(f"S3Proxy did not start: {(work / 's3proxy.log').read_text()[-2000:]}")
            time.sleep(0.2)
    env = {**S3_KEYS, "CLAIMHOUSE_S3_ENDPOINT": endpoint, "CLAIMHOUSE_S3_PATH_STYLE": "1"}
    S3Client(S3Config(endpoint, "us-east-1", True), environ=S3_KEYS).create_bucket(S3_BUCKET)
    yield env
    server.terminate()
    try:
        server.wait(timeout=15)
    except subprocess.TimeoutExpired:
        server.kill()
    log.close()


def spark_reads_bucket(spark, s3_server) -> None:
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
