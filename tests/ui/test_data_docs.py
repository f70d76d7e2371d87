"""GE's Data Docs of a real run, opened in Chromium with every network request refused: styled
by their own copies of bootstrap and the rest, with the index listing the validations."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from ..conftest import REPO

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARTIFACTS = REPO / "test-artifacts"

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists(), reason="chromium missing: ./scripts/setup"
)


def test_data_docs_are_styled_and_list_their_validations_with_no_network(cli_run):
    from playwright.sync_api import sync_playwright

    warehouse, done = cli_run
    assert done.returncode == 0, done.stderr[-3000:]
    index = warehouse / "_gx" / "uncommitted" / "data_docs" / "local_site" / "index.html"
    refused = []

    def route(r):
        if r.request.url.startswith("file:"):
            r.continue_()
        else:
            refused.append(r.request.url)
            r.abort()

    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        page.route("**/*", route)
        page.goto(index.as_uri())
        # bootstrap-table (a local copy) fills the index's table from its data.
        page.wait_for_selector("table tbody tr td a", timeout=30_000)
        listed = page.eval_on_selector_all(
            "table tbody tr td a", "links => links.map(a => a.innerText)"
        )
        # bootstrap's navbar is a flex box and its body font a system stack; Font Awesome's
        # icons have their own font.
        nav = page.eval_on_selector("nav", "e => getComputedStyle(e).display")
        body = page.eval_on_selector("body", "e => getComputedStyle(e).fontFamily")
        icon = page.eval_on_selector("[class*='fa-']", "e => getComputedStyle(e).fontFamily")
        page.screenshot(path=str(ARTIFACTS / "data_docs_offline.png"), full_page=True)
        first = page.locator("table tbody tr td a").first.get_attribute("href")
        page.goto(index.parent.joinpath(first).resolve().as_uri())
        page.wait_for_load_state("load")
        suite_font = page.eval_on_selector("body", "e => getComputedStyle(e).fontFamily")
        page.screenshot(path=str(ARTIFACTS / "data_docs_suite_offline.png"))
        browser.close()
    assert refused == []
    assert any("silver.claims" in text for text in listed), listed
    assert suite_font == body
    assert (nav, body.split(",")[0], icon) == ("flex", "-apple-system", '"Font Awesome 6 Free"')
