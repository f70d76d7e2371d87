"""The readers of files holding many articles (lake.bronze.records), without Spark: exact
articles and exact rejects with their positions."""

from __future__ import annotations

import io
import json
from datetime import UTC, datetime

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lake.bronze import records
from lake.bronze.parse import parse_file
from lake.config import DEFAULT_FIELDS, SettingsError, field_map, load_settings

from ..same_event import (
    ARTICLES,
    BROKEN_LINES,
    news_please,
    page,
    sidecar,
    write_formats_folder,
)

LIMIT = 5 * 1024 * 1024


def jsonl(lines: list[str], fields=DEFAULT_FIELDS, limit=LIMIT) -> list[records.Record]:
    data = ("\n".join(lines) + "\n").encode()
    return list(records.read_jsonl("f.jsonl", io.BytesIO(data), fields, limit))


def as_text(article: dict):
    """What bronze makes of the article as .txt with its sidecar."""
    return parse_file(
        "a.txt", article["body"].encode(), "a.json", json.dumps(sidecar(article)).encode()
    )


def test_news_please_records_give_the_articles_their_text_files_give():
    for article in ARTICLES:
        (got,) = jsonl([json.dumps(news_please(article))])
        want = as_text(article)
        assert got.position == 1 and got.parsed.reason is None
        for field in ("article_id", "body", "title", "published_at", "url"):
            assert getattr(got.parsed, field) == getattr(want, field), field
        assert got.parsed.published_at_source == "sidecar"


def test_each_bad_line_is_a_reject_naming_its_line_and_the_others_are_read():
    good = json.dumps({"maintext": "Trains run every 15 minutes.", "url": "https://a.example/1"})
    got = jsonl(
        [
            good,
            "{not json",
            "",
            "[1, 2]",
            json.dumps({"title": "no text"}),
            json.dumps({"maintext": 42}),
            json.dumps({"maintext": "   "}),
            json.dumps({"maintext": "Text.", "date_publish": "someday"}),
            json.dumps({"maintext": "Text.", "title": ["a"]}),
            good,
        ]
    )
    reasons = {r.position: r.parsed.reason for r in got}
    assert reasons == {
        1: None,
        2: "f.jsonl line 2: not valid JSON (column 2: Expecting property name enclosed in "
        "double quotes): fix the line or remove it",
        # line 3 is blank: no record
        4: "f.jsonl line 4: a JSON list, not an object with the article's fields: fix the line "
        "or remove it",
        5: "f.jsonl line 5: no text field (maintext): give the record its article text, or name "
        "the field that holds it in CLAIMHOUSE_RECORD_FIELDS",
        6: "f.jsonl line 6: maintext must be a string, got int",
        7: "f.jsonl line 7: maintext is only whitespace: no article text",
        8: "f.jsonl line 8: date_publish 'someday' is not a date with a year (use ISO 8601, "
        "e.g. 2025-05-29T14:00:00Z)",
        9: "f.jsonl line 9: title must be a string, got list",
        10: None,
    }
    assert got[0].parsed.article_id == got[-1].parsed.article_id
    assert got[1].parsed.content_sha256 == records.sha256_hex(b"{not json")


def test_a_line_over_the_limit_and_undecodable_bytes_are_rejects_at_their_lines():
    short = json.dumps({"maintext": "Short text."})
    data = (short + "\n" + "x" * 300 + "\n").encode() + b'{"maintext": "caf\xe9"}\n' + b"{}"
    got = list(records.read_jsonl("f.jsonl", io.BytesIO(data), DEFAULT_FIELDS, 100))
    assert [(r.position, r.parsed.reason) for r in got] == [
        (1, None),
        (
            2,
            "f.jsonl line 2: 301 bytes, over the 100-byte limit: split the article or raise "
            "--max-file-bytes",
        ),
        (3, "f.jsonl line 3: not valid UTF-8 (byte 0xe9 at column 18): re-save the file as UTF-8"),
        (
            4,
            "f.jsonl line 4: no text field (maintext): give the record its article text, or "
            "name the field that holds it in CLAIMHOUSE_RECORD_FIELDS",
        ),
    ]


def test_the_field_mapping_names_other_fields_and_keeps_the_defaults_it_does_not_name():
    fields = field_map("body=text|content,outlet=")
    assert fields.names("body") == ("text", "content")
    assert fields.names("title") == ("title",) and fields.names("outlet") == ()
    (got,) = jsonl(
        [json.dumps({"content": "Fares are $4.50.", "source_domain": "x.example", "title": "T"})],
        fields,
    )
    assert (got.parsed.body, got.parsed.title, got.parsed.outlet) == ("Fares are $4.50.", "T", None)
    assert str(DEFAULT_FIELDS) == (
        "body=maintext,title=title,published_at=date_publish,outlet=source_domain,url=url"
    )
    with pytest.raises(SettingsError, match="CLAIMHOUSE_RECORD_FIELDS='headline=h'"):
        load_settings(warehouse="w", environ={"CLAIMHOUSE_RECORD_FIELDS": "headline=h"})
    with pytest.raises(SettingsError, match="a record field for body"):
        load_settings(warehouse="w", environ={"CLAIMHOUSE_RECORD_FIELDS": "body="})


def test_a_domain_as_outlet_names_the_site_without_www():
    (got,) = jsonl([json.dumps({"maintext": "Text.", "source_domain": "www.News.example"})])
    assert got.parsed.outlet == "news.example"


# Lines: a good record, broken JSON, a record without text, a non-string text, blank.
_LINE = st.one_of(
    st.builds(
        lambda t: json.dumps({"maintext": t, "title": "x"}),
        st.text(min_size=1, max_size=40).filter(lambda t: t.strip()),
    ),
    st.text(alphabet='{}[]":, ab1', max_size=20),
    st.builds(lambda n: json.dumps({"maintext": n}), st.integers()),
    st.just(json.dumps({"title": "no text"})),
    st.just("   "),
)


@settings(max_examples=200, deadline=None)
@given(st.lists(_LINE, max_size=30))
def test_any_mix_of_lines_gives_each_non_blank_line_an_article_or_a_reject_at_its_number(lines):
    lines = [line.replace("\n", " ").replace("\r", " ") for line in lines]
    got = jsonl(lines)
    expected = [n for n, line in enumerate(lines, 1) if line.strip()]
    assert [r.position for r in got] == expected
    for r in got:
        assert (r.parsed.reason is None) == (r.parsed.body is not None)
        if r.parsed.reason:
            assert r.parsed.reason.startswith(f"f.jsonl line {r.position}: ")


def test_a_grown_file_is_scanned_for_what_was_read_before():
    data = b'{"maintext": "a"}\n{"maintext": "b"}\n'
    before = records.scan(io.BytesIO(data[:18]))
    now = records.scan(io.BytesIO(data), prefix_bytes=before.size)
    assert now.prefix_sha256 == before.sha256 and now.prefix_ends_line
    assert (now.prefix_lines, now.size) == (1, len(data))
    stream = io.BytesIO(data)
    stream.seek(before.size)
    (got,) = records.read_jsonl("f.jsonl", stream, DEFAULT_FIELDS, LIMIT, first_line=2)
    assert (got.position, got.parsed.body) == (2, "b")


def test_parquet_rows_are_articles_or_rejects_at_their_index(tmp_path):
    table = pa.table(
        {
            "maintext": ["Trains run every 15 minutes.", None, "  ", "Fares are $4.50."],
            "title": ["A", "B", "C", None],
            "date_publish": pa.array(
                [datetime(2026, 3, 3, 9, tzinfo=UTC), None, None, None], pa.timestamp("us", "UTC")
            ),
        }
    )
    path = tmp_path / "a.parquet"
    pq.write_table(table, path, row_group_size=2)
    with path.open("rb") as stream:
        got = list(records.read_parquet("a.parquet", stream, DEFAULT_FIELDS, LIMIT))
    assert [(r.position, r.parsed.reason) for r in got] == [
        (0, None),
        (
            1,
            "a.parquet row 1: no text field (maintext): give the record its article text, or "
            "name the field that holds it in CLAIMHOUSE_RECORD_FIELDS",
        ),
        (2, "a.parquet row 2: maintext is only whitespace: no article text"),
        (3, None),
    ]
    assert got[0].parsed.published_at == datetime(2026, 3, 3, 9, tzinfo=UTC)
    assert got[3].parsed.title is None or got[3].parsed.title == "Fares are $4.50."


def test_a_parquet_file_without_a_text_column_or_not_parquet_is_refused_whole(tmp_path):
    path = tmp_path / "a.parquet"
    pq.write_table(pa.table({"text": ["x"]}), path)
    with path.open("rb") as stream, pytest.raises(records.FileRefused) as refused:
        list(records.read_parquet("a.parquet", stream, DEFAULT_FIELDS, LIMIT))
    assert str(refused.value) == (
        "no column maintext for the article text (columns: text): name it in "
        "CLAIMHOUSE_RECORD_FIELDS"
    )
    pq.write_table(pa.table({"maintext": [1]}), path)
    with path.open("rb") as stream, pytest.raises(records.FileRefused, match="not text"):
        list(records.read_parquet("a.parquet", stream, DEFAULT_FIELDS, LIMIT))
    with pytest.raises(records.FileRefused, match="not a readable Parquet file"):
        list(records.read_parquet("a.parquet", io.BytesIO(b"PAR1"), DEFAULT_FIELDS, LIMIT))


def test_warc_html_responses_are_articles_and_other_records_are_skipped(tmp_path):
    folder = write_formats_folder(tmp_path)
    data = (folder / "crawl.warc.gz").read_bytes()
    got = list(records.read_warc("crawl.warc.gz", io.BytesIO(data), LIMIT))
    assert [r.skipped for r in got] == [
        "WARC warcinfo record: not an article",
        "WARC request record: not an article",
        None,
        "WARC request record: not an article",
        None,
        "WARC response of image/png: not an HTML page",
        "WARC metadata record: not an article",
    ]
    # Each position is where its record's gzip member starts.
    assert all(data[r.position : r.position + 2] == b"\x1f\x8b" for r in got)
    pages = [r.parsed for r in got if r.skipped is None]
    warc_articles = [a for a in ARTICLES if a["form"] == "warc"]
    assert [p.body for p in pages] == [as_text(a).body for a in warc_articles]
    assert [p.url for p in pages] == [a["url"] for a in warc_articles]
    assert [p.title for p in pages] == [a["title"] for a in warc_articles]


def test_a_warc_cut_short_ends_in_a_reject_at_the_offset_it_stops(tmp_path):
    folder = write_formats_folder(tmp_path)
    data = (folder / "crawl.warc.gz").read_bytes()
    full = list(records.read_warc("crawl.warc.gz", io.BytesIO(data), LIMIT))
    cut = list(records.read_warc("crawl.warc.gz", io.BytesIO(data[:-30]), LIMIT))
    assert [r.position for r in cut[:-1]] == [r.position for r in full[:-1]]
    last = cut[-1]
    assert last.position == full[-1].position
    assert last.parsed.reason.startswith(
        f"crawl.warc.gz byte offset {last.position}: the WARC file ends in an incomplete record"
    )
    with pytest.raises(records.FileRefused, match="not a readable WARC file"):
        list(records.read_warc("x.warc", io.BytesIO(b"hello\n"), LIMIT))


def test_an_undecodable_page_in_a_warc_is_a_reject_at_its_offset():
    from warcio.statusandheaders import StatusAndHeaders
    from warcio.warcwriter import WARCWriter

    buffer = io.BytesIO()
    writer = WARCWriter(buffer, gzip=False)
    for body in (b"<html><body><p>caf\xe9</p></body></html>", page(ARTICLES[0])):
        writer.write_record(
            writer.create_warc_record(
                "https://a.example/",
                "response",
                payload=io.BytesIO(body),
                http_headers=StatusAndHeaders(
                    "200 OK", [("Content-Type", "text/html")], protocol="HTTP/1.1"
                ),
            )
        )
    got = list(records.read_warc("a.warc", io.BytesIO(buffer.getvalue()), LIMIT))
    assert got[0].position == 0
    assert got[0].parsed.reason == (
        "a.warc byte offset 0: not valid UTF-8 text (byte 0xe9 at offset 18): re-save the "
        "file as UTF-8"
    )
    assert got[1].parsed.reason is None and got[1].position > 0


def test_positions_are_named_as_reasons_name_them():
    assert records.located("a/news.jsonl", 3) == "a/news.jsonl line 3"
    assert records.located("news.parquet", 0) == "news.parquet row 0"
    assert records.located("c.warc.gz", 512) == "c.warc.gz byte offset 512"
    assert records.located("a.txt", None) == "a.txt"
    assert sorted(BROKEN_LINES) == [2, 4]


@settings(max_examples=150, deadline=None)
@given(st.binary(max_size=400))
def test_arbitrary_bytes_never_raise_from_the_readers_but_as_a_refused_file(raw):
    for r in records.read_jsonl("f.jsonl", io.BytesIO(raw), DEFAULT_FIELDS, LIMIT):
        assert (r.parsed.reason is None) == (r.parsed.body is not None)
    for reader in (
        lambda s: records.read_warc("f.warc", s, LIMIT),
        lambda s: records.read_parquet("f.parquet", s, DEFAULT_FIELDS, LIMIT),
    ):
        try:
            for r in reader(io.BytesIO(raw)):
                assert r.skipped or (r.parsed.reason is None) == (r.parsed.body is not None)
        except records.FileRefused:
            pass
