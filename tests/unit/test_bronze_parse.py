"""Bronze's pure parsing: decoding, normalization, outlet/title/date detection, sidecars."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime

import pytest

from lake.bronze.parse import (
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
