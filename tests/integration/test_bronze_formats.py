"""Files holding many articles (JSON Lines, Parquet, WARC) through bronze: every record an
article or a reject at its position, reruns idempotent, a grown JSON Lines file read from its
new lines; and the done-when test: the same event as pages, records and .txt files gives the
same articles, claims and facts."""

from __future__ import annotations

import json

import pytest
from pyspark.sql import functions as F

from lake.bronze.ingest import ingest

from ..same_event import ARTICLES, BROKEN_LINES, news_please, write_formats_folder

LIMIT = 5 * 1024 * 1024


def rows(lake, table: str, *cols: str) -> set[tuple]:
    return {tuple(r) for r in lake.read(table).select(*cols).collect()}


def versions(lake) -> dict[str, int]:
    return {t: lake.version(t) for t in ("bronze.articles", "bronze.rejects", "bronze.ingest_log")}


@pytest.fixture(scope="module")
def same_event(spark, tmp_path_factory) -> dict:
    """The eight articles of tests/same_event.py as .txt files with sidecars ("txt"), and as
    two HTML pages, a JSON Lines file, a Parquet file and a WARC file with broken lines and
    non-HTML records beside them ("formats"), each run into its own warehouse in process:
    bronze, silver and its stories for both, gold for the formats only (see the done-when
    test). name -> (folder, lake, bronze's summary)."""
    from lake.config import load_settings
    from lake.layer import open_run
    from lake.pipeline import run_units
    from lake.storage import Lake
    from lake.units import UNITS

    from ..same_event import write_text_folder

    root = tmp_path_factory.mktemp("same-event")
    built = {}
    for name, write in (("txt", write_text_folder), ("formats", write_formats_folder)):
        folder = write(root / name)
        settings = load_settings(warehouse=root / f"wh-{name}", input_dir=folder)
        with open_run(spark, settings, f"{name}-1") as ctx:
            summary = run_units(ctx, UNITS if name == "formats" else UNITS[:3])
        built[name] = (folder, Lake(spark, settings.warehouse), summary.bronze)
    return built


def test_every_record_is_an_article_a_reject_or_skipped_at_its_position(spark, same_event):
    folder, lake, summary = same_event["formats"]
    # 5 files: 2 pages, and 3 files of records holding 4 + 2 + 7 records.
    assert (summary.files_seen, summary.containers, summary.records) == (5, 3, 13)
    assert (summary.new_articles, summary.rejected, summary.skipped) == (8, 2, 5)
    assert summary.accounted == summary.files_seen
    said = summary.describe()
    assert "3 of them JSON Lines, Parquet or WARC files read (13 records)" in said, said
    assert "5 skipped (WARC records other than HTML pages)" in said, said

    by_place = {
        (uri, pos): title
        for uri, pos, title in rows(lake, "bronze.articles", "source_uri", "position", "title")
    }
    assert by_place[("news.jsonl", 1)] == "Kestrel tunnel: what commuters need to know"
    assert by_place[("news.jsonl", 3)] == "Transport board opens $1.8 billion Kestrel tunnel"
    assert by_place[("news.parquet", 0)] == "Kestrel tunnel ends a long wait for Alder Falls"
    assert by_place[("courier.html", None)] == "Kestrel rail tunnel opens to passengers"
    warc = sorted(pos for uri, pos in by_place if uri == "crawl.warc.gz")
    data = (folder / "crawl.warc.gz").read_bytes()
    assert len(warc) == 2 and all(data[p : p + 2] == b"\x1f\x8b" for p in warc)
    # The page without a canonical link has the WARC-Target-URI as its url.
    bulletin = next(a for a in ARTICLES if a["name"] == "bulletin")
    assert (bulletin["url"],) in rows(lake, "bronze.articles", "url")

    rejects = sorted(rows(lake, "bronze.rejects", "source_uri", "position", "reason"))
    assert [(u, p) for u, p, _ in rejects] == [("news.jsonl", n) for n in sorted(BROKEN_LINES)]
    assert rejects[0][2].startswith("news.jsonl line 2: not valid JSON (column ")
    assert rejects[1][2].startswith("news.jsonl line 4: no text field (maintext)")
    log = rows(lake, "bronze.ingest_log", "source_uri", "position", "outcome")
    assert ("crawl.warc.gz", None, "container") in log
    assert {o for u, p, o in log if u == "crawl.warc.gz" and p is not None} == {"new", "skipped"}
    assert sum(o == "skipped" for _, _, o in log) == 5
    kinds = dict(summary.reject_reasons)
    assert kinds == {"no text field": 1, "not valid JSON": 1}, kinds

    # A rerun over the unchanged folder reads nothing and commits nothing.
    before = versions(lake)
    again = ingest(spark, lake, folder, "r2", LIMIT)
    assert (again.new_articles, again.unchanged, again.files_read) == (0, 5, 0)
    assert versions(lake) == before


def test_files_of_records_read_by_sparks_scan_give_the_same_outcomes(
    spark, lake, tmp_path, monkeypatch
):
    """A remote folder's files come through Spark's binaryFile scan: files of records larger
    than the size limit are still read (the limit holds for each record)."""
    import lake.bronze.ingest as ingest_module

    monkeypatch.setattr(ingest_module, "_workers_read_local", lambda wanted: False)
    folder = write_formats_folder(tmp_path / "in")
    summary = ingest(spark, lake, folder, "r1", 1500)
    assert (summary.new_articles, summary.rejected, summary.skipped, summary.records) == (
        8,
        2,
        5,
        13,
    )


def test_a_grown_jsonl_file_is_read_from_its_new_lines_and_a_rewritten_one_whole(
    spark, lake, tmp_path
):
    folder = tmp_path / "in"
    folder.mkdir()
    first, second = (json.dumps(news_please(a)) for a in ARTICLES[2:4])
    feed = folder / "feed.jsonl"
    feed.write_text(first + "\n" + "not json\n")
    ingest(spark, lake, folder, "r1", LIMIT)
    # The crawler appends a line: only it is read.
    with feed.open("a") as out:
        out.write(second + "\n")
    grown = ingest(spark, lake, folder, "r2", LIMIT)
    assert (grown.new_articles, grown.rejected, grown.records) == (1, 0, 1)
    log = lake.read("bronze.ingest_log").where(F.col("run_id") == "r2")
    assert rows(lake, "bronze.articles", "position") == {(1,), (3,)}
    container = log.where(F.col("outcome") == "container").first()
    assert "read from line 3" in container["reason"]
    assert [r["position"] for r in log.where(F.col("position").isNotNull()).collect()] == [3]
    # A rewrite (the broken line fixed in place) is read whole: the fixed line is new, the
    # others unchanged, and no reject is repeated.
    feed.write_text(first + "\n" + json.dumps({"maintext": "Fixed: 12 trains a day."}) + "\n")
    feed.write_text(feed.read_text() + second + "\n")
    rewritten = ingest(spark, lake, folder, "r3", LIMIT)
    assert (rewritten.new_articles, rewritten.unchanged, rewritten.records) == (1, 2, 3)
    assert lake.count("bronze.rejects") == 1
    before = versions(lake)
    assert ingest(spark, lake, folder, "r4", LIMIT).files_read == 0
    assert versions(lake) == before


def test_a_broken_parquet_or_warc_file_is_one_reject_naming_it(spark, lake, tmp_path):
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "bad.parquet").write_bytes(b"PAR1 not really")
    (folder / "bad.warc").write_bytes(b"hello, not a WARC\n")
    (folder / "empty.jsonl").write_bytes(b"")
    summary = ingest(spark, lake, folder, "r1", LIMIT)
    assert (summary.rejected, summary.containers, summary.accounted) == (3, 0, 3)
    reasons = dict(rows(lake, "bronze.rejects", "source_uri", "reason"))
    assert reasons["bad.parquet"].startswith("not a readable Parquet file (")
    assert reasons["bad.warc"].startswith("not a readable WARC file (")
    assert reasons["empty.jsonl"] == "empty file (0 bytes)"
    assert rows(lake, "bronze.rejects", "position") == {(None,)}


ARTICLE_FIELDS = ("article_id", "body", "title", "outlet", "published_at", "url")
CLAIM_FIELDS = (
    "claim_id",
    "article_id",
    "char_start",
    "char_end",
    "claim_text",
    "kind",
    "value",
    "unit",
    "measure_key",
    "date_start",
)


def test_the_same_event_in_every_format_gives_the_same_articles_claims_and_facts(same_event):
    """The same articles as .txt files with sidecars, and as pages, JSON Lines, Parquet and
    WARC (same_event): bronze's articles, silver's claims and stories are equal. Gold is a
    function of those (and of each article's metadata, equal too), so it is built once, from
    the folder of formats: its facts are reconciled across articles of different formats."""
    txt, formats = same_event["txt"][1], same_event["formats"][1]

    assert rows(txt, "bronze.articles", *ARTICLE_FIELDS) == rows(
        formats, "bronze.articles", *ARTICLE_FIELDS
    )
    assert txt.count("bronze.articles") == len(ARTICLES)
    assert (txt.count("bronze.rejects"), formats.count("bronze.rejects")) == (0, 2)
    claims = rows(txt, "silver.claims", *CLAIM_FIELDS)
    assert claims and claims == rows(formats, "silver.claims", *CLAIM_FIELDS)

    def stories(lake) -> set[frozenset]:
        grouped: dict[str, set] = {}
        for article_id, story in rows(lake, "silver.article_stories", "article_id", "story_id"):
            grouped.setdefault(story, set()).add(article_id)
        return {frozenset(g) for g in grouped.values()}

    assert stories(txt) == stories(formats)

    # Facts whose evidence comes from articles held in different kinds of file: every kind
    # has a share in facts reconciled across kinds, and such facts are corroborated.
    form = {
        r["article_id"]: r["source_uri"].rsplit(".", 1)[-1]
        for r in formats.read("bronze.articles").collect()
    }
    kinds_per_fact: dict[str, set] = {}
    for fact_id, article_id in rows(formats, "gold.fact_evidence", "fact_id", "article_id"):
        kinds_per_fact.setdefault(fact_id, set()).add(form[article_id])
    across = {f: k for f, k in kinds_per_fact.items() if len(k) >= 2}
    assert set().union(*across.values()) == {"html", "htm", "jsonl", "parquet", "gz"}, across
    status = dict(rows(formats, "gold.facts", "fact_id", "status"))
    assert "corroborated" in {status[f] for f in across}, status


def test_a_warehouse_made_before_positions_gains_them_and_keeps_its_files_unchanged(
    spark, lake, tmp_path
):
    from lake import storage

    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "a.txt").write_text("The Kestrel tunnel cost $1.8 billion.\n")
    (folder / "b.txt").write_text("")
    ingest(spark, lake, folder, "r1", LIMIT)
    # The three tables as an older claimhouse left them: no position column.
    for table in ("bronze.articles", "bronze.rejects", "bronze.ingest_log"):
        old = lake.read(table).drop("position").localCheckpoint()
        old.write.format("delta").mode("overwrite").option("overwriteSchema", "true").save(
            str(lake.path(table))
        )
        assert "position" not in lake.read(table).columns
    storage._SCHEMA_CHECKED.clear()
    (folder / "news.jsonl").write_text(json.dumps(news_please(ARTICLES[2])) + "\n{}\n")
    summary = ingest(spark, lake, folder, "r2", LIMIT)
    assert (summary.unchanged, summary.new_articles, summary.rejected) == (1, 1, 2)
    assert summary.files_read == 2  # the empty file is read again; a.txt is not
    assert rows(lake, "bronze.articles", "source_uri", "position") == {
        ("a.txt", None),
        ("news.jsonl", 1),
    }
    assert rows(lake, "bronze.rejects", "source_uri", "position") == {
        ("b.txt", None),
        ("news.jsonl", 2),
    }
