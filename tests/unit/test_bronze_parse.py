"""Bronze's pure parsing: decoding, normalization, outlet/title/date detection, sidecars,
HTML pages."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lake.bronze.parse import (
    decode_html,
    decode_text,
    detect_outlet,
    detect_published_at,
    detect_title,
    normalize_body,
    parse_file,
    parse_sidecar,
)


def test_utf8_decodes():
    assert decode_text("Café – 3,000".encode()) == ("Café – 3,000", None)


def test_utf16_with_bom_decodes():
    assert decode_text("Troops: 21,000".encode("utf-16")) == ("Troops: 21,000", None)


def test_latin1_is_rejected_with_offset():
    text, reason = decode_text("Caf\xe9 society".encode("latin-1"))
    assert text is None
    assert reason == "not valid UTF-8 text (byte 0xe9 at offset 3): re-save the file as UTF-8"


def test_nul_bytes_mean_binary():
    text, reason = decode_text(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    assert text is None
    assert reason.startswith("binary file (contains NUL bytes)")


def test_control_characters_mean_binary():
    _, reason = decode_text(bytes(range(1, 9)) * 20)
    assert reason is not None and reason.startswith("binary file (")


def test_normalize_body():
    assert normalize_body("\ufeff  Line one\r\nLine two\rCafe\u0301  \n\n") == (
        "Line one\nLine two\nCaf\u00e9"
    )


@pytest.mark.parametrize(
    ("body", "outlet"),
    [
        ("Story text.\n© 2025 Latin Times. All rights reserved.", "Latin Times"),
        ("Story.\nCopyright 2019-2024 The Herald Tribune", "The Herald Tribune"),
        ("WASHINGTON (Reuters) — Officials said on Monday that...", "Reuters"),
        (
            "Text.\nDHS did not respond to a request for comment from the Daily Beast.",
            "Daily Beast",
        ),
        ("This article originally appeared in The Conversation.", "The Conversation"),
        # Outlets cited as sources are not the publisher.
        ("The meeting was on May 20, according to the Washington Examiner.", None),
        ("Miller told NBC News that 3,000 arrests a day was the goal.", None),
        ("WASHINGTON — In mid-May, officials met.", None),
    ],
)
def test_detect_outlet(body, outlet):
    assert detect_outlet(body) == outlet


def test_detect_title():
    assert (
        detect_title("# ICE sets daily arrest target\n\nBody text.")
        == "ICE sets daily arrest target"
    )
    assert detect_title("ICE sets daily arrest target\nBody text follows here.") == (
        "ICE sets daily arrest target"
    )
    assert detect_title("An irate Stephen Miller threatened officials.\nMore.") is None
    assert detect_title("WASHINGTON\nBody") is None
    # a publication line is metadata: the title is the line after it, or there is none
    assert detect_title("Published: March 13, 2025\n\nCity council approves budget\nBody.") == (
        "City council approves budget"
    )
    assert detect_title("Published: March 13, 2025\nThe council met on Tuesday.") is None
    assert detect_title("Published works by local authors\nBody.") == (
        "Published works by local authors"
    )
    # a bare date line, or a dateline alone, is metadata too
    assert detect_title("March 13, 2025\nCity council approves budget\nBody.") == (
        "City council approves budget"
    )
    assert detect_title("2025-03-13 08:00\n\nCity council approves budget\nBody.") == (
        "City council approves budget"
    )
    assert detect_title("WASHINGTON —\nCity council approves budget\nBody.") == (
        "City council approves budget"
    )
    assert detect_title("LONDON (Reuters) -\nThe council met on Tuesday.") is None
    # a headline with a number in it is still a headline
    assert detect_title("5 killed as storm hits coast in 2024\nBody.") == (
        "5 killed as storm hits coast in 2024"
    )


def test_detect_published_at():
    assert detect_published_at("Published: May 29, 2025\nText") == datetime(2025, 5, 29, tzinfo=UTC)
    assert detect_published_at("Text\nUpdated 2025-06-02T14:30:00-04:00") == datetime(
        2025, 6, 2, 18, 30, tzinfo=UTC
    )
    assert detect_published_at("Published: last Tuesday\nText") is None
    assert detect_published_at("No date line here.") is None


def test_sidecar_fields():
    fields, reason = parse_sidecar(
        "a.json",
        b'{"outlet": "NBC News", "title": "T", "published_at": "2025-05-30", "url": "u", "x": 1}',
    )
    assert reason is None
    assert fields == {
        "outlet": "NBC News",
        "title": "T",
        "published_at": datetime(2025, 5, 30, tzinfo=UTC),
        "url": "u",
    }


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        (b'{"outlet": "NBC"', "sidecar a.json is not valid JSON (line 1, column 17: "),
        (b"[1, 2]", "sidecar a.json must hold a JSON object"),
        (b'{"outlet": 5}', "sidecar a.json: outlet must be a string, got int"),
        (b'{"published_at": "soon"}', "sidecar a.json: published_at 'soon' is not a date"),
    ],
)
def test_bad_sidecars(raw, reason):
    fields, got = parse_sidecar("a.json", raw)
    assert fields == {}
    assert got.startswith(reason)


def test_parse_file_article():
    raw = "  Officials met on May 20.\r\n© 2025 Latin Times\n".encode()
    parsed = parse_file("a.txt", raw)
    body = "Officials met on May 20.\n© 2025 Latin Times"
    assert parsed.reason is None
    assert parsed.body == body
    assert parsed.article_id == hashlib.sha256(body.encode()).hexdigest()
    assert parsed.content_sha256 == hashlib.sha256(raw).hexdigest()
    assert parsed.outlet == "Latin Times"
    assert parsed.char_count == len(body)


def test_sidecar_overrides_text():
    parsed = parse_file("a.txt", b"Text.\n(c) 2024 Old Name", "a.json", b'{"outlet": "New Name"}')
    assert parsed.outlet == "New Name"


@pytest.mark.parametrize(
    ("raw", "sidecar", "published_at", "source"),
    [
        # The sidecar wins over a line in the text.
        (
            b"Published: May 29, 2025\nText.",
            b'{"published_at": "2025-05-30T08:00:00Z"}',
            datetime(2025, 5, 30, 8, tzinfo=UTC),
            "sidecar",
        ),
        # A sidecar without the date leaves the text's line to say it.
        (
            b"Published: May 29, 2025\nText.",
            b'{"outlet": "X"}',
            datetime(2025, 5, 29, tzinfo=UTC),
            "text",
        ),
        (b"Updated 2025-06-02\nText.", None, datetime(2025, 6, 2, tzinfo=UTC), "text"),
        # Stated nowhere: unknown, and relative dates stay unresolved.
        (b"Text on Tuesday.", None, None, None),
    ],
)
def test_published_at_says_where_it_came_from(raw, sidecar, published_at, source):
    parsed = parse_file("a.txt", raw, "a.json" if sidecar else None, sidecar)
    assert (parsed.published_at, parsed.published_at_source) == (published_at, source)


@pytest.mark.parametrize(
    ("raw", "reason"),
    [(b"", "empty file (0 bytes)"), (b" \n\t\r\n ", "only whitespace: no article text")],
)
def test_empty_inputs_rejected(raw, reason):
    assert parse_file("a.txt", raw).reason == reason


# HTML pages: tests/fixtures/html holds pages written for these tests, each with a sidecar
# stating what the page says (outlet, title, published_at, url).
HTML = Path(__file__).parents[1] / "fixtures" / "html"
HARBOR_BODY = (
    "Port authority approves $2.4 billion expansion\n"
    "The port authority board voted 7 to 2 on Wednesday to approve a $2.4 billion expansion "
    "of the container terminal, the largest project in its 80-year history.\n"
    "Construction is due to begin on March 3, 2026 and to finish by the end of 2029, adding "
    "about 1,200 permanent jobs, according to the authority's own estimate.\n"
    "Opponents said the plan would double truck traffic on the coastal road to 14,000 "
    "vehicles a day. The board said it would fund a new rail link covering 40% of the cargo."
)


def test_an_html_page_gives_its_article_text_without_the_boilerplate():
    raw = (HTML / "harbor_ledger.html").read_bytes()
    parsed = parse_file("harbor_ledger.html", raw)
    assert parsed.reason is None
    assert parsed.body == HARBOR_BODY  # no menu, ad, related links or footer
    assert parsed.article_id == hashlib.sha256(HARBOR_BODY.encode()).hexdigest()
    assert parsed.content_sha256 == hashlib.sha256(raw).hexdigest()  # the file's bytes
    assert parsed.title == "Port authority approves $2.4 billion expansion"
    assert parsed.outlet == "The Harbor Ledger"  # og:site_name
    # article:published_time with its offset, in UTC: not the day in the URL's path
    assert parsed.published_at == datetime(2025, 5, 29, 12, 30, tzinfo=UTC)
    assert parsed.published_at_source == "text"
    assert parsed.url == "https://harborledger.example/news/2025/05/29/port-expansion"


@pytest.mark.parametrize("page", ["harbor_ledger.html", "valley_courier.html", "metro_wire.htm"])
def test_an_html_pages_metadata_is_what_its_sidecar_states(page):
    """Without its sidecar, each test page gives the fields the sidecar states."""
    stated, _ = parse_sidecar("x.json", (HTML / page).with_suffix(".json").read_bytes())
    parsed = parse_file(page, (HTML / page).read_bytes())
    assert {k: getattr(parsed, k) for k in stated} == stated


def test_json_ld_lists_and_subheadings():
    parsed = parse_file("v.html", (HTML / "valley_courier.html").read_bytes())
    assert parsed.body.splitlines()[3:6] == [
        "Prices",
        "The price of feed wheat rose to $248 a tonne on August 12, up from $201 a month earlier.",
        "- Barley output fell 18% to 95,000 tonnes.",
    ]
    # Cookie banner, share bar, newsletter box, reader comments, more links, footer: none.
    for boilerplate in ("cookies", "Share on", "newsletter", "Terrible news", "Dairy", "Mill"):
        assert boilerplate not in parsed.body


def test_a_page_in_its_declared_charset():
    """metro_wire.htm is windows-1252, as its meta tag says. Its layout is a table, which
    trafilatura keeps whole: the menu and the ads come with the article (a known limit)."""
    parsed = parse_file("metro_wire.htm", (HTML / "metro_wire.htm").read_bytes())
    assert parsed.reason is None
    assert "City inspectors fined four cafés a total of €40,000 after finding mice" in parsed.body


def test_a_page_with_only_navigation_is_a_reject_that_says_what_to_do():
    parsed = parse_file("nav_only.html", (HTML / "nav_only.html").read_bytes())
    assert parsed.body is None
    assert parsed.reason.startswith(
        "no article text found in the HTML page (trafilatura found no main content): "
    )
    assert "save the article's own page, or its text as .txt" in parsed.reason


def test_a_sidecar_beside_an_html_page_wins_field_by_field():
    parsed = parse_file(
        "harbor_ledger.html",
        (HTML / "harbor_ledger.html").read_bytes(),
        "harbor_ledger.json",
        b'{"outlet": "Ledger Wire", "published_at": "2025-05-30T08:00:00Z"}',
    )
    assert parsed.outlet == "Ledger Wire"
    assert (parsed.published_at, parsed.published_at_source) == (
        datetime(2025, 5, 30, 8, tzinfo=UTC),
        "sidecar",
    )
    # what the sidecar leaves out, the page gives
    assert parsed.title == "Port authority approves $2.4 billion expansion"
    assert parsed.url == "https://harborledger.example/news/2025/05/29/port-expansion"


def test_a_domain_is_not_an_outlet_and_a_published_line_dates_the_page():
    """A page that names no site gets none (gold takes the site from the URL); with no date in
    its markup, a "Published:" line of its text dates it, as for a .txt file."""
    page = (
        b"<html><head><title>Council backs new bridge | example.com</title>"
        b'<link rel="canonical" href="https://example.com/bridge"></head><body><article>'
        b"<h1>Council backs new bridge</h1><p>Published: 3 June 2025</p>"
        b"<p>The council voted 9 to 4 for a bridge costing 80 million, to open in 2028.</p>"
        b"<p>Work starts on 1 September and will close the ferry for 6 weeks.</p>"
        b"</article></body></html>"
    )
    parsed = parse_file("bridge.html", page)
    assert parsed.reason is None
    assert parsed.outlet is None
    assert parsed.title == "Council backs new bridge"
    assert (parsed.published_at, parsed.published_at_source) == (
        datetime(2025, 6, 3, tzinfo=UTC),
        "text",
    )


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        (
            b"<html><body><p>Caf\xe9 owners said 40 staff were hired.</p></body></html>",
            "not valid UTF-8 text (byte 0xe9 at offset 18): re-save the file as UTF-8",
        ),
        (
            b'<html><head><meta charset="shift_jis"></head><body><p>\x82\xff</p></body></html>',
            "not valid shift_jis text, the charset the page declares (byte 0x82 at offset 54): "
            "fix its <meta charset> or re-save the page as UTF-8",
        ),
        (
            b'<html><head><meta charset="klingon-8"></head><body>x</body></html>',
            "the page declares charset 'klingon-8', which is not a known encoding: re-save the "
            "page as UTF-8",
        ),
        (b"", "empty file (0 bytes)"),
        (b"  \n ", "only whitespace: no article text"),
    ],
)
def test_html_that_does_not_decode_is_a_reject(raw, reason):
    assert parse_file("a.html", raw).reason == reason


def test_a_declared_charset_decodes_and_a_bom_wins_over_it():
    body = "<p>Caf\u00e9 owners in the old town said 40 staff were hired on Monday.</p>"
    page = f'<html><head><meta charset="iso-8859-1"></head><body>{body}</body></html>'
    assert decode_html(page.encode("latin-1"))[0] == page
    assert decode_html(b"\xef\xbb\xbf" + page.encode())[0] == "\ufeff" + page


@settings(max_examples=150, deadline=None)
@given(st.binary(max_size=600) | st.text(max_size=400).map(lambda t: f"<html><p>{t}</p>".encode()))
def test_parse_file_on_any_bytes_named_html_never_raises(raw):
    parsed = parse_file("page.html", raw)
    assert (parsed.reason is None) != (parsed.body is None)
    assert parsed.content_sha256 == hashlib.sha256(raw).hexdigest()
