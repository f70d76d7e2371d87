"""`claimhouse dashboard` as a person sees it: the seed run's page in headless Chromium."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from pyspark.sql import functions as F

from lake.bronze.ingest import ingest
from lake.contracts import CONTRACTS_DIR, load_contracts, record_results, validate
from lake.dashboard import write_dashboard

from ..conftest import REPO

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARTIFACTS = REPO / "test-artifacts"

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists(), reason="chromium missing: ./scripts/setup"
)


@pytest.fixture(scope="module")
def page_text(spark, gold, tmp_path_factory):
    """The dashboard of the seed run plus one validation with a claim stripped of its source:
    (text of the rendered page, its tables' cells, the stripped claim's id, facts, claims,
    {toolbars shown, the page's HTML})."""
    from playwright.sync_api import sync_playwright

    lake = gold[0]
    lake.register_all()
    claims = lake.read("silver.claims")
    stripped = claims.where("attribution_kind = 'named_person'").orderBy("claim_id").first()
    batch = claims.withColumn(
        "attribution",
        F.when(F.col("claim_id") == stripped["claim_id"], F.lit(None)).otherwise(
            F.col("attribution")
        ),
    )
    contract = load_contracts(CONTRACTS_DIR)["silver.claims"]
    report = validate(spark, lake, contract, batch, "dash-bad", data_docs=False)
    record_results(spark, lake, report, "dash-bad")

    # A real reject: an empty file ingested into the same lake.
    bad_input = tmp_path_factory.mktemp("bad-input")
    (bad_input / "notes.txt").write_text("")
    ingest(spark, lake, bad_input, "dash-rejects", 5 * 1024 * 1024, validate=False)

    out = write_dashboard(spark, lake, tmp_path_factory.mktemp("dash") / "dq.html")
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        page.goto(out.as_uri())
        # plotly draws its charts from the embedded script: no network, no server.
        page.wait_for_selector(".plotly .main-svg", timeout=30_000)
        assert page.locator(".plotly .main-svg").count() >= 3
        page.screenshot(path=str(ARTIFACTS / "dashboard.png"), full_page=True)
        text = page.inner_text("body")
        cells = "rows => rows.map(r => [...r.cells].map(c => c.innerText))"
        tables = {
            name: page.eval_on_selector_all(f"#{name} tbody tr", cells)
            for name in ("conflicts", "failures", "rejects", "tables")
        }
        toolbars = page.locator(".modebar").count()
        browser.close()
    extras = {"toolbars": toolbars, "html": out.read_text()}
    return text, tables, stripped["claim_id"], lake.count("gold.facts"), claims.count(), extras


def test_the_page_shows_the_seed_meeting_date_conflict_with_both_sides(page_text):
    _, tables, _, _, _, _ = page_text
    (row,) = [cells for cells in tables["conflicts"] if cells[0] == "date of the meeting"]
    assert (row[1], row[4]) == ("May 20 (year not stated)", "May 21 (year not stated)")
    assert row[3].splitlines() == ["The agency", "the Washington Examiner"]
    # The seeds have no sidecar, title or URL: an outlet the text names, else the file, said so.
    shown = [line for side in (row[2], row[5]) for line in side.splitlines()]
    files = [line for line in shown if re.fullmatch(r"\d{3}_[0-9a-f]{16}\.txt \(file\)", line)]
    assert files and all(line in files or "(" not in line for line in shown), shown
    assert "Latin Times" in shown


def test_the_page_counts_facts_and_plots_every_validated_table(page_text):
    text, _, _, facts, _, _ = page_text
    assert f"{facts}\nfacts" in text
    for table in ("silver.claims", "gold.facts", "corroborated", "conflicting"):
        assert table in text


def test_the_latest_broken_rule_is_listed_with_its_sample_row(page_text):
    _, tables, claim_id, _, claims, _ = page_text
    broken = [cells for cells in tables["failures"] if cells[0] == "silver.claims"]
    # Of all the claims validated (other tests may have added some to the shared seed run).
    expected = [["attribution_present", "quarantine", "1", str(claims)]]
    assert [cells[1:5] for cells in broken] == expected
    (sample,) = json.loads(broken[0][6])
    assert sample["claim_id"] == claim_id and sample["attribution"] is None


def test_rejects_by_reason_internal_tables_hidden_and_no_toolbar_over_the_charts(page_text):
    _, tables, _, _, _, extras = page_text
    assert tables["rejects"] == [["empty file", "1", "notes.txt", "empty file (0 bytes)"]]
    shown = [row[0] for row in tables["tables"]]
    assert {name.split(".")[0] for name in shown} == {"bronze", "silver", "gold", "audit"}
    assert "gold.conflicts_report" in shown and "gold_build.facts" not in shown
    assert extras["toolbars"] == 0
    # Pass rates are a grid of tables by runs: one cell each, none hidden behind another.
    assert '"zmin":0,"type":"heatmap"' in extras["html"]
