"""Bronze ingestion on the shipped seeds and on a folder of crafted bad files."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import shutil
import time
from datetime import UTC, datetime
from pathlib import Path

import pytest

from lake.bronze.ingest import IngestSummary, ingest
from lake.contracts import ContractViolation

from ..conftest import SEEDS, contracts_with_fail_rule

LIMIT = 5 * 1024 * 1024


def run(spark, lake, folder: Path, run_id: str, limit: int = LIMIT) -> IngestSummary:
    return ingest(spark, lake, folder, run_id, limit, validate=False)


def table(lake, name: str, *cols: str) -> set[tuple]:
    return {tuple(r) for r in lake.read(name).select(*cols).collect()}


def test_seeds_become_five_articles(spark, lake):
    summary = run(spark, lake, SEEDS, "r1")
    assert summary == IngestSummary("r1", 5, 5, 0, 0, 0, 0, files_read=5)
    expected = {}
    for path in sorted(SEEDS.glob("*.txt")):
        body = path.read_text(encoding="utf-8").strip()
        expected[path.name] = (hashlib.sha256(body.encode()).hexdigest(), body, len(body))
    got = {
        r["source_uri"]: (r["article_id"], r["body"], r["char_count"])
        for r in lake.read("bronze.articles").collect()
    }
    assert got == expected
    outlets = table(lake, "bronze.articles", "source_uri", "outlet")
    # Only two seeds state their publisher: a copyright line and a "request for comment" line.
    assert outlets == {
        ("000_60622ccef9644d1f.txt", "Daily Beast"),
        ("001_0eacdaaccfa7ca56.txt", None),
        ("002_51ff2334b7afe473.txt", "Latin Times"),
        ("003_6c01dbacb232ee45.txt", None),
        ("004_953d131a4f74b23f.txt", None),
    }
    assert table(lake, "bronze.articles", "run_id") == {("r1",)}
    assert lake.count("bronze.rejects") == 0


def test_rerun_adds_nothing(spark, lake):
    run(spark, lake, SEEDS, "r1")
    versions = {
        t: lake.version(t) for t in ("bronze.articles", "bronze.rejects", "bronze.ingest_log")
    }
    spark.sparkContext.setJobGroup("rerun", "bronze over unchanged files")
    try:
        again = run(spark, lake, SEEDS, "r2")
    finally:
        spark.sparkContext.setLocalProperty("spark.jobGroup.id", None)
    # Unchanged since r1 logged them (same size, not modified since): not even read.
    assert again == IngestSummary("r2", 5, 0, 5, 0, 0, 0, files_read=0)
    # No Spark job: the log's latest rows are read in this process, and with nothing to read
    # or refuse no candidate is built (it was 20 jobs).
    assert spark.sparkContext.statusTracker().getJobIdsForGroup("rerun") == []
    assert lake.count("bronze.articles") == 5
    assert table(lake, "bronze.articles", "run_id") == {("r1",)}
    # A MERGE that inserts nothing must not even commit a new version, and files left unread
    # add no log rows: the log grows with what changes, not with each run.
    assert {t: lake.version(t) for t in versions} == versions
    assert table(lake, "bronze.ingest_log", "run_id", "outcome") == {("r1", "new")}
    assert lake.count("bronze.ingest_log") == 5


def test_changed_file_is_a_new_article_and_the_old_one_stays(spark, lake, seeds_copy):
    run(spark, lake, seeds_copy, "r1")
    target = seeds_copy / "004_953d131a4f74b23f.txt"
    target.write_text(target.read_text() + "\nCorrection: the meeting was on May 20.")
    summary = run(spark, lake, seeds_copy, "r2")
    assert (summary.new_articles, summary.unchanged) == (1, 4)
    versions = table(lake, "bronze.articles", "source_uri", "run_id")
    assert ("004_953d131a4f74b23f.txt", "r1") in versions
    assert ("004_953d131a4f74b23f.txt", "r2") in versions
    assert lake.count("bronze.articles") == 6


@pytest.fixture
def bad_folder(tmp_path: Path) -> Path:
    """One file per way an input can fail, plus good articles with and without sidecars."""
    folder = tmp_path / "bad"
    (folder / "nested" / "deeper").mkdir(parents=True)
    shutil.copy(SEEDS / "004_953d131a4f74b23f.txt", folder / "a_story.txt")
    shutil.copy(SEEDS / "004_953d131a4f74b23f.txt", folder / "nested" / "copy.txt")
    (folder / "empty.txt").write_bytes(b"")
    (folder / "blank.md").write_text("   \n\n\t  \n")
    (folder / "image.txt").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" * 4)
    (folder / "latin1.txt").write_bytes(
        "Caf\xe9 owners said 40 staff were hired.".encode("latin-1")
    )
    (folder / "huge.txt").write_text("Officials counted 3,000 arrests. " * 100)
    (folder / "report.pdf").write_bytes(b"%PDF-1.4 fake")
    (folder / "orphan.json").write_text('{"outlet": "Nobody"}')
    (folder / "broken.txt").write_text("An article whose sidecar is broken.")
    (folder / "broken.json").write_text('{"outlet": "NBC News",')
    (folder / "nested" / "deeper" / "story.md").write_text(
        "# Troops deployed\n\nUp to 21,000 National Guard troops were requested."
    )
    (folder / "nested" / "deeper" / "story.json").write_text(
        json.dumps(
            {"outlet": "NBC News", "published_at": "2025-05-30T12:00:00Z", "url": "https://x/y"}
        )
    )
    (folder / ".hidden.txt").write_text("Editors' notes, not an article.")
    # Spark's own file listing skips names starting with '_'; claimhouse must not.
    (folder / "_draft.txt").write_text("A draft that counts 12 new hires.")
    return folder


def counts(summary: IngestSummary) -> IngestSummary:
    """The summary's counts, without its reasons (tested once, below)."""
    return dataclasses.replace(summary, reject_reasons=())


EXPECTED_REJECTS = {
    "empty.txt": "empty file (0 bytes)",
    "blank.md": "only whitespace: no article text",
    "image.txt": "binary file (contains NUL bytes): convert it to UTF-8 text (.txt or .md)",
    "latin1.txt": "not valid UTF-8 text (byte 0xe9 at offset 3): re-save the file as UTF-8",
    "huge.txt": "file too large (3,300 bytes, over the 3,000-byte limit): split it or raise "
    "--max-file-bytes",
    "report.pdf": "unsupported file type '.pdf': claimhouse reads .txt, .md, .html, .htm, "
    ".jsonl, .ndjson, .parquet, .warc and .warc.gz",
    "orphan.json": "metadata sidecar with no article of the same name (.txt, .md, .html or "
    ".htm) beside it",
    "broken.txt": "sidecar broken.json is not valid JSON (line 1, column 23: Expecting "
    "property name enclosed in double quotes): fix or remove it",
}


def test_bad_files_are_rejected_with_reasons(spark, lake, bad_folder):
    summary = run(spark, lake, bad_folder, "r1", limit=3000)
    # 14 visible files: 3 articles, 1 duplicate, 8 rejects, 2 sidecars (broken.json and
    # story.json both belong to an article); .hidden.txt is not seen.
    # 11 read: huge.txt, report.pdf and orphan.json are rejected from the listing alone.
    assert counts(summary) == IngestSummary("r1", 14, 3, 0, 1, 8, 2, files_read=11)
    assert summary.accounted == summary.files_seen
    # The run's summary counts rejects by kind of reason.
    assert dict(summary.reject_reasons) == {
        "binary file": 1,
        "empty file": 1,
        "file too large": 1,
        "metadata sidecar with no article of the same name": 1,
        "not valid UTF-8 text": 1,
        "only whitespace": 1,
        "sidecar is not valid JSON": 1,
        "unsupported file type '.pdf'": 1,
    }
    assert "Rejected: 1 binary file; 1 empty file; " in summary.describe()
    rejects = {r["source_uri"]: r["reason"] for r in lake.read("bronze.rejects").collect()}
    original_id = hashlib.sha256(
        (SEEDS / "004_953d131a4f74b23f.txt").read_text().strip().encode()
    ).hexdigest()
    assert rejects == {
        **EXPECTED_REJECTS,
        "nested/copy.txt": f"duplicate of article {original_id} (a_story.txt): same text after "
        "normalization",
    }
    articles = {r["source_uri"]: r for r in lake.read("bronze.articles").collect()}
    assert set(articles) == {"_draft.txt", "a_story.txt", "nested/deeper/story.md"}
    assert articles["_draft.txt"]["body"] == "A draft that counts 12 new hires."
    story = articles["nested/deeper/story.md"]
    assert (story["outlet"], story["title"], story["url"]) == (
        "NBC News",
        "Troops deployed",
        "https://x/y",
    )
    assert story["published_at"].replace(tzinfo=UTC) == datetime(2025, 5, 30, 12, tzinfo=UTC)
    log = {r["source_uri"]: r["outcome"] for r in lake.read("bronze.ingest_log").collect()}
    assert len(log) == 14
    assert log["broken.json"] == log["nested/deeper/story.json"] == "sidecar"
    assert log["nested/copy.txt"] == "duplicate"


def test_rejects_are_not_repeated_on_rerun(spark, lake, bad_folder):
    run(spark, lake, bad_folder, "r1", limit=3000)
    again = run(spark, lake, bad_folder, "r2", limit=3000)
    # Read again: the 5 rejected articles, broken.txt's sidecar and the duplicate; the three
    # articles in bronze (and story.md's sidecar) are unchanged without a read.
    assert counts(again) == IngestSummary("r2", 14, 0, 3, 1, 8, 2, files_read=7)
    # The log holds what r2 read or refused; the files it left unread are only counted.
    r2 = lake.read("bronze.ingest_log").where("run_id = 'r2'")
    assert {
        r["outcome"]: r["n"] for r in r2.groupBy("outcome").count().toDF("outcome", "n").collect()
    } == {"rejected": 8, "duplicate": 1, "sidecar": 1}
    assert lake.count("bronze.rejects") == 9
    assert table(lake, "bronze.rejects", "run_id") == {("r1",)}


def test_missing_input_folder_is_a_clear_error(spark, lake, tmp_path):
    from lake.storage import LakeError

    with pytest.raises(LakeError, match=r"input folder .*/nope does not exist: pass --input DIR"):
        run(spark, lake, tmp_path / "nope", "r1")


def test_a_rerun_reads_only_the_new_file(spark, lake, seeds_copy):
    run(spark, lake, seeds_copy, "r1")
    (seeds_copy / "005_new.txt").write_text("Officials said 12 people were arrested.\n")
    again = run(spark, lake, seeds_copy, "r2")
    assert again == IngestSummary("r2", 6, 1, 5, 0, 0, 0, files_read=1)
    logged = table(lake, "bronze.ingest_log", "source_uri", "outcome", "run_id")
    assert {r for r in logged if r[2] == "r2"} == {("005_new.txt", "new", "r2")}


def test_a_same_size_rewrite_that_keeps_the_old_mtime_is_still_read(spark, lake, seeds_copy):
    run(spark, lake, seeds_copy, "r1")
    target = seeds_copy / "003_6c01dbacb232ee45.txt"
    before = target.stat()
    text = target.read_text()
    swapped = text.replace("May", "Mai", 1)  # same length, other text
    assert len(swapped.encode()) == len(text.encode()) and swapped != text
    target.write_text(swapped)
    os.utime(target, ns=(before.st_atime_ns, before.st_mtime_ns))  # as cp -p or rsync -t do
    again = run(spark, lake, seeds_copy, "r2")
    # The inode's change time gives the rewrite away: read, and a new article.
    assert (again.files_read, again.new_articles, again.unchanged) == (1, 1, 4)


def test_remote_folders_read_by_spark_give_the_same_outcomes(spark, lake, bad_folder, monkeypatch):
    """Folders on hdfs: or s3a: are read by Spark's binaryFile scan, not by the workers opening
    files: the same files land in the same places, except that Spark never reads a name
    starting with '_', which is rejected saying so."""
    import lake.bronze.ingest as ingest_module

    monkeypatch.setattr(ingest_module, "_workers_read_local", lambda wanted: False)
    summary = run(spark, lake, bad_folder, "r1", limit=3000)
    assert counts(summary) == IngestSummary("r1", 14, 2, 0, 1, 9, 2, files_read=11)
    rejects = {r["source_uri"]: r["reason"] for r in lake.read("bronze.rejects").collect()}
    assert rejects["_draft.txt"] == ingest_module._VANISHED
    assert {k: v for k, v in rejects.items() if k in EXPECTED_REJECTS} == EXPECTED_REJECTS
    articles = {r["source_uri"] for r in lake.read("bronze.articles").collect()}
    assert articles == {"a_story.txt", "nested/deeper/story.md"}


def test_a_local_file_that_vanished_or_grew_over_the_limit_reads_as_missing(tmp_path):
    from lake.bronze.ingest import _read_local

    path = tmp_path / "a.txt"
    path.write_bytes(b"12345")
    assert _read_local(f"file:{path}", 5) == b"12345"
    assert _read_local(f"file:{path}", 4) is None
    assert _read_local(f"file:{tmp_path / 'gone.txt'}", 5) is None


@pytest.fixture
def hostile_folder(tmp_path: Path) -> Path:
    """Entries that are not plain files, and files that broke the parser before."""
    folder, outside = tmp_path / "hostile", tmp_path / "outside"
    (folder / "real").mkdir(parents=True)
    outside.mkdir()
    (outside / "secret.txt").write_text("The host's secret: 42 keys.")
    shutil.copy(SEEDS / "001_0eacdaaccfa7ca56.txt", folder / "real" / "ok.txt")
    (folder / "escape.txt").symlink_to(outside / "secret.txt")
    (folder / "dangling.txt").symlink_to(tmp_path / "nowhere.txt")
    (folder / "linked_dir").symlink_to(outside, target_is_directory=True)
    (folder / "inside.txt").symlink_to(folder / "real" / "ok.txt")
    os.mkfifo(folder / "pipe.txt")
    (folder / os.fsdecode(b"caf\xe9.txt")).write_text("A name in Latin-1, 7 words.")
    (folder / "deep.txt").write_text("An article with a deep sidecar, 3 lines.")
    (folder / "deep.json").write_bytes(b"[" * 5000 + b"]" * 5000)
    (folder / "surrogate.txt").write_text("An article whose outlet is not text, 2 lines.")
    (folder / "surrogate.json").write_text('{"outlet": "The \\ud800 Times"}')
    (folder / "edge.txt").write_text("Published: 9999-12-31T23:59:59-14:00\n\nOfficials said 40.")
    (folder / "big_sidecar.txt").write_text("An article with an oversize sidecar, 5 pages.")
    (folder / "big_sidecar.json").write_text('{"title": "' + "x" * 25_000 + '"}')
    return folder


def test_every_entry_of_a_hostile_folder_is_accounted_for_and_nothing_outside_is_read(
    spark, lake, hostile_folder
):
    summary = run(spark, lake, hostile_folder, "r1", limit=20_000)
    assert summary.accounted == summary.files_seen == 14
    rejects = {r["source_uri"]: r["reason"] for r in lake.read("bronze.rejects").collect()}
    assert rejects == {
        "escape.txt": f"link to {hostile_folder.parent / 'outside' / 'secret.txt'}, outside the "
        "input folder: not followed, so nothing outside the folder becomes queryable; copy "
        "the file in instead",
        "dangling.txt": f"broken link: its target {hostile_folder.parent / 'nowhere.txt'} does "
        "not exist",
        "linked_dir": "link to a folder: linked folders are not followed; move or copy the "
        "files into the input folder",
        "pipe.txt": "not a regular file (a pipe, socket or device): claimhouse reads .txt, .md, "
        ".html, .htm, .jsonl, .ndjson, .parquet, .warc and .warc.gz files",
        "caf\\xe9.txt": "file name is not valid UTF-8: rename the file",
        "deep.txt": "sidecar deep.json is nested too deeply to be metadata: fix or remove it",
        "surrogate.txt": "sidecar surrogate.json: outlet holds an unpaired surrogate escape "
        "(such as \\ud800), which is not text: fix the value",
        "big_sidecar.txt": "sidecar big_sidecar.json could not be read (deleted, unreadable, or "
        "over the file size limit): fix it, or remove it to ingest the article without metadata",
        # A link inside the folder is read under its own name; its target is then a copy.
        "real/ok.txt": f"duplicate of article {_sha(SEEDS / '001_0eacdaaccfa7ca56.txt')} "
        "(inside.txt): same text after normalization",
    }
    articles = {r["source_uri"]: r for r in lake.read("bronze.articles").collect()}
    assert set(articles) == {"inside.txt", "edge.txt"}
    assert articles["edge.txt"]["published_at"] is None
    assert "secret" not in " ".join(r["body"] for r in articles.values())


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_text().strip().encode()).hexdigest()


def test_an_input_that_is_a_file_says_so(spark, lake, tmp_path):
    from lake.storage import LakeError

    (tmp_path / "a.txt").write_text("Officials said 40.")
    with pytest.raises(LakeError, match=r"input .*/a.txt is a file, not a folder: pass the folder"):
        run(spark, lake, tmp_path / "a.txt", "r1")


def test_a_file_still_being_written_is_left_for_the_next_run(spark, lake, tmp_path):
    """Modified within the settle time: logged as not_settled with its sidecar, not read; the
    next run, once it has settled, ingests it with its metadata."""
    from lake.schemas import BRONZE_ARTICLES, BRONZE_INGEST_LOG, BRONZE_REJECTS

    for spec in (BRONZE_ARTICLES, BRONZE_REJECTS, BRONZE_INGEST_LOG):
        lake.ensure(spec)  # so that the run below lists the folder at once
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "old.txt").write_text("Officials said 40 people came.")
    time.sleep(4)  # the change time cannot be set back; old.txt settles by waiting
    (folder / "copying.txt").write_text("The council said 12 homes were")
    (folder / "copying.json").write_text('{"outlet": "The Ledger"}')
    first = ingest(spark, lake, folder, "r1", LIMIT, settle_s=3, validate=False)
    assert first == IngestSummary("r1", 3, 1, 0, 0, 0, 0, files_read=1, not_settled=2)
    log = {r["source_uri"]: r["outcome"] for r in lake.read("bronze.ingest_log").collect()}
    assert log == {"old.txt": "new", "copying.txt": "not_settled", "copying.json": "not_settled"}
    second = ingest(spark, lake, folder, "r2", LIMIT, settle_s=0, validate=False)
    assert (second.new_articles, second.unchanged, second.sidecars) == (1, 1, 1)
    outlets = table(lake, "bronze.articles", "source_uri", "outlet")
    assert outlets == {("old.txt", None), ("copying.txt", "The Ledger")}


def test_a_late_or_corrected_sidecar_updates_the_articles_metadata_with_history(
    spark, lake, tmp_path
):
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "a.txt").write_text("Officials said 40 people came on Tuesday.")
    run(spark, lake, folder, "r1")
    first = lake.version("bronze.articles")
    (folder / "a.json").write_text('{"outlet": "The Ledger", "published_at": "2025-05-21"}')
    late = run(spark, lake, folder, "r2")
    assert (late.updated, late.new_articles, late.sidecars) == (1, 0, 1)
    (folder / "a.json").write_text('{"outlet": "The Ledger", "published_at": "2025-05-22"}')
    corrected = run(spark, lake, folder, "r3")
    assert corrected.updated == 1
    (row,) = lake.read("bronze.articles").collect()
    assert (row["outlet"], str(row["published_at"].date())) == ("The Ledger", "2025-05-22")
    assert row["published_at_source"] == "sidecar"
    assert lake.version("bronze.articles") == first + 2  # one version per correction
    (was,) = lake.read("bronze.articles", version=first).collect()
    assert (was["outlet"], was["published_at"], was["published_at_source"]) == (None, None, None)
    assert was["article_id"] == row["article_id"]
    again = run(spark, lake, folder, "r4")
    assert (again.updated, again.unchanged) == (0, 1)
    log = table(lake, "bronze.ingest_log", "run_id", "source_uri", "outcome")
    assert ("r2", "a.txt", "updated") in log and ("r3", "a.txt", "updated") in log


def test_bronze_checks_its_candidate_before_writing_it(spark, lake, tmp_path, monkeypatch):
    """The batch is validated against bronze's contracts before its MERGEs: a broken `fail`
    rule writes no article and no log row, so a rerun meets the same failure instead of
    passing over it; a batch that passes is written with its results in audit.dq_results."""
    contracts = contracts_with_fail_rule(
        tmp_path, "bronze.ingest_log", "no_new_files", "outcome <> 'new'"
    )
    monkeypatch.setenv("CLAIMHOUSE_CONTRACTS", str(contracts))
    for run_id in ("r1", "r2"):
        with pytest.raises(ContractViolation, match="bronze.ingest_log: rule no_new_files"):
            ingest(spark, lake, SEEDS, run_id, LIMIT)
        assert (lake.count("bronze.articles"), lake.count("bronze.ingest_log")) == (0, 0)
    broken = lake.read("audit.dq_results").where("rule = 'no_new_files'").collect()
    assert sorted((r["run_id"], r["passed"], r["unexpected_count"]) for r in broken) == [
        ("r1", False, 5),
        ("r2", False, 5),
    ]

    monkeypatch.delenv("CLAIMHOUSE_CONTRACTS")
    assert ingest(spark, lake, SEEDS, "r3", LIMIT).new_articles == 5
    checked = lake.read("audit.dq_results").where("run_id = 'r3'").collect()
    assert {r["table_name"] for r in checked} == {"bronze.articles", "bronze.ingest_log"}
    assert all(r["passed"] for r in checked)
    # The accounting rule judged the candidate: the articles this run was about to add.
    accounted = next(r for r in checked if r["rule"] == "file_accounted_for")
    assert (accounted["element_count"], accounted["unexpected_count"]) == (5, 0)

    # A later run checks the article it adds, not the five already there.
    folder = tmp_path / "more"
    shutil.copytree(SEEDS, folder)
    (folder / "late.txt").write_text("Late news\n\nThe ferry carried 41 people on Monday.\n")
    assert ingest(spark, lake, folder, "r4", LIMIT).new_articles == 1
    later = lake.read("audit.dq_results").where("run_id = 'r4'").collect()
    assert {r["element_count"] for r in later if r["table_name"] == "bronze.articles"} == {1}
    assert lake.count("bronze.articles") == 6


def test_a_run_whose_log_loses_a_file_stops_loudly_and_publishes_nothing(spark, lake, monkeypatch):
    """files seen = articles + unchanged + duplicates + rejects + sidecars + ... is checked in
    the run itself: a log that accounts for fewer files stops the run before any MERGE."""
    from lake.storage import LakeError

    monkeypatch.setattr(IngestSummary, "accounted", property(lambda s: s.files_seen - 1))
    with pytest.raises(LakeError, match=r"accounts for 4 of the 5 files seen in .*seeds"):
        ingest(spark, lake, SEEDS, "r1", LIMIT)
    assert (lake.count("bronze.articles"), lake.count("bronze.ingest_log")) == (0, 0)


def test_the_latest_log_rows_read_here_are_those_spark_reads(spark, lake, bad_folder):
    """The rerun's test of what changed reads the log in this process (no Spark job); Spark's
    reading, used when that cannot be done, gives the same rows."""
    from lake.bronze.ingest import _latest_logged_by_spark, _latest_logged_here

    run(spark, lake, bad_folder, "r1", limit=3000)
    (bad_folder / "story.md").write_text("A new text: 40 people were hurt.\n")
    run(spark, lake, bad_folder, "r2", limit=3000)
    here = _latest_logged_here(lake)
    assert here and here == _latest_logged_by_spark(lake)


HTML_PAGES = Path(__file__).parents[1] / "fixtures" / "html"


def test_an_article_as_an_html_page_gives_the_same_row_and_claims_as_its_text(spark, tmp_path):
    """The same article as .txt with its sidecar in one folder and as the .html page in
    another, each run into its own warehouse (in one, the second would be a duplicate): bronze
    rows equal field by field, and silver extracts the same claims at the same spans."""
    from lake.silver.publish import extract_new
    from lake.storage import Lake

    page = HTML_PAGES / "harbor_ledger.html"
    as_text, as_html = tmp_path / "txt", tmp_path / "html"
    as_text.mkdir()
    as_html.mkdir()
    html_copy = as_html / "port.html"
    shutil.copy(page, html_copy)
    # The text a reader copies from the page (title line first), and the sidecar a collector
    # would write for it.
    (as_text / "port.txt").write_text(
        "Port authority approves $2.4 billion expansion\n"
        "The port authority board voted 7 to 2 on Wednesday to approve a $2.4 billion "
        "expansion of the container terminal, the largest project in its 80-year history.\n"
        "Construction is due to begin on March 3, 2026 and to finish by the end of 2029, "
        "adding about 1,200 permanent jobs, according to the authority's own estimate.\n"
        "Opponents said the plan would double truck traffic on the coastal road to 14,000 "
        "vehicles a day. The board said it would fund a new rail link covering 40% of the "
        "cargo.\n"
    )
    shutil.copy(page.with_suffix(".json"), as_text / "port.json")
    fields = ("article_id", "body", "title", "outlet", "published_at", "url")
    claim_cols = ("article_id", "claim_text", "char_start", "char_end", "value", "unit")
    rows, claims = {}, {}
    for folder in (as_text, as_html):
        lake = Lake(spark, tmp_path / f"wh-{folder.name}")
        summary = run(spark, lake, folder, "r1")
        assert (summary.new_articles, summary.rejected) == (1, 0)
        rows[folder.name] = table(lake, "bronze.articles", *fields)
        extract_new(spark, lake, "r1")
        claims[folder.name] = table(lake, "silver.claims", *claim_cols)
    assert rows["txt"] == rows["html"]
    assert len(rows["html"]) == 1
    assert claims["txt"] == claims["html"]
    said = " | ".join(sorted(c[1] for c in claims["html"]))
    assert "$2.4 billion" in said and "1,200" in said and "14,000" in said, said
