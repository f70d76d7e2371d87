"""The Dagster UI as a user sees it: `claimhouse ui`, driven by headless Chromium."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import dagster as dg
import pytest
from pyspark.sql import functions as F

from ..conftest import REPO, SEEDS, copy_warehouse

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARTIFACTS = REPO / "test-artifacts"

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="chromium missing: ./scripts/setup"),
]


# Every node upstream of gold/facts, as the asset graph labels it (its key's last part); the
# ephemeral staging models are none.
LINEAGE_NODES = (
    "articles",
    "claims",
    "article_stories",
    "touched_stories",
    "claim_intervals",
    "precise_merges",
    "measure_merges",
    "claims_reconciled",
    "facts",
)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _graphql(url: str, query: str, variables: dict | None = None) -> dict:
    request = urllib.request.Request(
        f"{url}/graphql",
        data=json.dumps({"query": query, "variables": variables or {}}).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=60) as response:
        body = json.loads(response.read())
    assert "errors" not in body, body
    return body["data"]


def _without_newsletter(page) -> None:
    """Dagster's first-visit newsletter dialog (its `communityNux` in the browser's storage)
    would cover the screenshots: mark it seen before any page loads."""
    page.add_init_script("window.localStorage.setItem('communityNux', '1')")


@pytest.fixture(scope="module")
def dagster_ui(tmp_path_factory, cli_run, hosted_engine):
    """`claimhouse ui` on a copy of the warehouse `claimhouse run` built from the seeds (a user
    opening the UI on their lake), with the warm engine up (conftest's hosted_engine, served
    by this test process): (url, work folder, the engine)."""
    port = _free_port()
    work = tmp_path_factory.mktemp("ui")
    copy_warehouse(cli_run[0], work / "warehouse")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CLAIMHOUSE_", "DAGSTER_"))}
    proc = subprocess.Popen(
        [str(Path(sys.executable).parent / "claimhouse"), "ui", "--port", str(port)]
        + ["--warehouse", str(work / "warehouse"), "--input", str(SEEDS)],
        stdout=(work / "ui.log").open("w"),
        stderr=subprocess.STDOUT,
        env={**env, "TMPDIR": str(work), "CLAIMHOUSE_ENGINE_DIR": str(hosted_engine[0])},
        start_new_session=True,  # its own process group: the whole dagster tree stops together
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 180
    while True:
        try:
            urllib.request.urlopen(f"{url}/server_info", timeout=5)
            break
        except OSError:
            assert proc.poll() is None, (work / "ui.log").read_text()[-3000:]
            assert time.monotonic() < deadline, "dagster dev did not answer in 180 s"
            time.sleep(1)
    yield url, work, hosted_engine[1]
    os.killpg(proc.pid, signal.SIGTERM)
    assert proc.wait(timeout=60) is not None


def test_the_asset_graph_shows_every_layer_and_a_run_from_the_ui_succeeds(spark, dagster_ui):
    from playwright.sync_api import sync_playwright

    from lake.schemas import GOLD_RELEASE
    from lake.storage import Lake

    url, work, engine = dagster_ui
    served = engine.served
    lake = Lake(spark, work / "warehouse")
    release = lake.version(GOLD_RELEASE.store)
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-sync"],
        )
        page = browser.new_page(viewport={"width": 1600, "height": 1000})
        _without_newsletter(page)
        page.goto(f"{url}/assets", wait_until="networkidle")
        page.get_by_text("fact_conflicts").first.wait_for(timeout=60_000)
        text = page.inner_text("body")
        for name in ("bronze", "silver", "gold", "articles", "claims", "facts", "fact_evidence"):
            assert name in text, name
        page.screenshot(path=str(ARTIFACTS / "dagster_assets.png"), full_page=True)

        # The checks generated from dbt's tests are attached to the gold assets.
        page.goto(f"{url}/assets/gold/facts?view=checks", wait_until="networkidle")
        page.get_by_text("unique_facts_fact_id").first.wait_for(timeout=60_000)
        # So are the contract rules (expectations/contracts/gold.facts.yml).
        page.get_by_text("fact_has_evidence").first.wait_for(timeout=60_000)
        page.get_by_text("corroborated_evidence_agrees").first.wait_for(timeout=60_000)

        # The lineage at its default zoom names every model in full (no "…" truncation).
        page.goto(
            f"{url}/assets/gold/facts?view=lineage&lineageScope=upstream&lineageDepth=10",
            wait_until="networkidle",
        )
        page.get_by_text("claims_reconciled", exact=True).first.wait_for(timeout=60_000)
        labels = page.inner_text("body").splitlines()
        assert set(LINEAGE_NODES) <= set(labels), labels
        assert not [label for label in labels if "…" in label], labels
        page.screenshot(path=str(ARTIFACTS / "dagster_lineage.png"))

        # Before anything ran here, the UI shows what `claimhouse run` built: its runless
        # materializations, the same as the lake.
        shown = _graphql(
            url,
            """query($k: AssetKeyInput!) { assetOrError(assetKey: $k) {
                 ... on Asset { assetMaterializations(limit: 1) { runId description } } } }""",
            {"k": {"path": ["gold", "facts"]}},
        )["assetOrError"]["assetMaterializations"]
        assert [m["description"].split()[:2] for m in shown] == [["claimhouse", "run"]], shown

        # Launch the whole job as the UI's "Materialize all" does, through its GraphQL API.
        launched = _graphql(
            url,
            """mutation($p: ExecutionParams!) { launchRun(executionParams: $p) {
                 __typename ... on LaunchRunSuccess { run { runId } }
                 ... on PythonError { message } } }""",
            {
                "p": {
                    "selector": {
                        "repositoryLocationName": "orchestration.definitions",
                        "repositoryName": "__repository__",
                        "jobName": "claimhouse_full",
                    },
                    "runConfigData": {},
                }
            },
        )["launchRun"]
        assert launched["__typename"] == "LaunchRunSuccess", launched
        run_id = launched["run"]["runId"]
        deadline = time.monotonic() + 1200
        status = None
        while time.monotonic() < deadline:
            status = _graphql(
                url,
                "query($id: ID!) { runOrError(runId: $id) { ... on Run { status } } }",
                {"id": run_id},
            )["runOrError"]["status"]
            if status in ("SUCCESS", "FAILURE", "CANCELED"):
                break
            time.sleep(5)
        page.goto(f"{url}/runs/{run_id}", wait_until="networkidle")
        page.get_by_text("Success").first.wait_for(timeout=60_000)
        page.screenshot(path=str(ARTIFACTS / "dagster_run.png"), full_page=True)
        browser.close()
    assert status == "SUCCESS", (work / "ui.log").read_text()[-4000:]
    # The run went to the warm engine (orchestration.launcher), not a process of its own.
    assert engine.served == served + 1
    # The run listed the input folder (bronze's summary under Dagster's run id: every seed
    # unchanged, none read, so none logged), found every layer current and left the published
    # gold release as it was.
    (bronze,) = (
        lake.read("audit.layer_runs").where(f"run_id = '{run_id}' AND unit = 'bronze'").collect()
    )
    assert (
        json.loads(bronze["summary"])["unchanged"],
        json.loads(bronze["summary"])["files_read"],
    ) == (5, 0)
    assert lake.read("bronze.ingest_log").where(f"run_id = '{run_id}'").count() == 0
    assert lake.version(GOLD_RELEASE.store) == release
    # Gold was unchanged, so its contract checks report what the run that published the
    # release recorded, and nothing was validated again.
    publisher = (
        lake.read("audit.layer_runs")
        .where("unit = 'gold' AND status = 'published'")
        .orderBy(F.desc("finished_at"))
        .first()["run_id"]
    )
    again = lake.read("audit.dq_results").where(f"run_id = '{run_id}'")
    assert again.where("table_name LIKE 'gold.%'").count() == 0
    with dg.DagsterInstance.from_config(str(work / "warehouse" / "_dagster")) as instance:
        key = dg.AssetCheckKey(dg.AssetKey(["gold", "facts"]), "fact_has_evidence")
        (record,) = instance.event_log_storage.get_asset_check_execution_history(key, limit=1)
    evaluation = record.event.dagster_event.event_specific_data
    assert record.run_id == run_id and evaluation.passed
    assert evaluation.metadata["evaluated_in_run"].value == publisher
