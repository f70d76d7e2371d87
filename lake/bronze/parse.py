"""Pure functions: one input file's bytes -> an article or a reject reason. No Spark here."""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime

from dateutil import parser as dateparser

from lake.bronze.html import HTML_SUFFIXES, Page, declared_codec, extract_page
from lake.schemas import PUBLISHED_AT_SOURCES

ARTICLE_SUFFIXES = (".txt", ".md", *HTML_SUFFIXES)
# What bronze reads, as reject reasons name it.
READS = ".txt, .md, .html, .htm, .jsonl, .ndjson, .parquet, .warc and .warc.gz"
SIDECAR_SUFFIX = ".json"
SIDECAR_FIELDS = ("outlet", "title", "published_at", "url")


@dataclass(frozen=True)
class ParsedFile:
    """What one input file became: an article (reason is None) or a reject (reason set)."""

    content_sha256: str | None
    reason: str | None = None
    article_id: str | None = None
    body: str | None = None
    outlet: str | None = None
    title: str | None = None
    published_at: datetime | None = None
    url: str | None = None
    # where published_at came from: sidecar | text (the file itself: a "Published:" line, an
    # HTML page's metadata) | None (unknown)
    published_at_source: str | None = None

    @property
    def char_count(self) -> int | None:
        return None if self.body is None else len(self.body)


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def normalize_body(text: str) -> str:
    """Canonical form of an article's text; article_id hashes it and silver spans index it."""
    text = unicodedata.normalize("NFC", text.removeprefix("\ufeff"))
    return text.replace("\r\n", "\n").replace("\r", "\n").strip()


def decode_text(raw: bytes) -> tuple[str | None, str | None]:
    """(text, None) or (None, reason). UTF-8, or UTF-16 when a byte-order mark says so."""
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return raw.decode("utf-16"), None
        except UnicodeDecodeError as err:
            return None, f"not valid UTF-16 text despite its byte-order mark ({err.reason})"
    if b"\x00" in raw:
        return None, "binary file (contains NUL bytes): convert it to UTF-8 text (.txt or .md)"
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        return None, (
            f"not valid UTF-8 text (byte 0x{raw[err.start]:02x} at offset {err.start}): "
            "re-save the file as UTF-8"
        )
    return _not_binary(text)


def _not_binary(text: str) -> tuple[str | None, str | None]:
    controls = sum(1 for ch in text if unicodedata.category(ch) == "Cc" and ch not in "\t\n\r\f")
    if controls > max(2, len(text) // 100):
        return None, f"binary file ({controls} control characters): not a text article"
    return text, None


def decode_html(raw: bytes, http_charset: str | None = None) -> tuple[str | None, str | None]:
    """(text, None) or (None, reason). As decode_text, but a page may declare another charset
    in a meta tag (pages saved from the web often do): then it must decode as that, strictly.
    A byte-order mark wins over the tag, as in browsers; the HTTP header's charset (a WARC
    response's) counts where the page declares none."""
    if raw.startswith((b"\xff\xfe", b"\xfe\xff", b"\xef\xbb\xbf")):
        return decode_text(raw)
    codec, problem = declared_codec(raw)
    if codec is None and problem is None and http_charset:
        codec, problem = declared_codec(b'<meta charset="' + http_charset.encode() + b'">')
    if problem or codec is None:
        return (None, problem) if problem else decode_text(raw)
    if b"\x00" in raw:
        return None, "binary file (contains NUL bytes): not an HTML page"
    try:
        text = raw.decode(codec)
    except UnicodeDecodeError as err:
        return None, (
            f"not valid {codec} text, the charset the page declares (byte "
            f"0x{raw[err.start]:02x} at offset {err.start}): fix its <meta charset> or "
            "re-save the page as UTF-8"
        )
    return _not_binary(text)


# "© 2025 Latin Times. All rights reserved." / "Copyright (c) 2024 The Outlet"
_COPYRIGHT = re.compile(
    r"^\s*(?:©|\(c\)|copyright)(?:\s*(?:©|\(c\)))?\s*(?:\d{4}(?:\s*[-–]\s*\d{4})?\s*,?\s*)?"
    r"(?P<outlet>[A-Z][\w&'’.\- ]{1,60}?)\s*(?:[.,;|]|\ball rights reserved\b|$)",
    re.IGNORECASE | re.MULTILINE,
)
# "WASHINGTON (Reuters) —": a wire dateline names the agency in parentheses.
_DATELINE = re.compile(
    r"^[A-Z][A-Z .,'’\-]{2,40}\((?P<outlet>[A-Z][\w&.' ]{1,40})\)\s*[—–-]", re.MULTILINE
)
# "... did not respond to a request for comment from the Daily Beast."
_OWN_REQUEST = re.compile(
    r"requests? for (?:further |additional )?comment from (?:the )?"
    r"(?P<outlet>[A-Z][\w&'’.]*(?: [A-Z][\w&'’.]*){0,4})"
)
# "This article originally appeared in The Outlet."
_ORIGINALLY = re.compile(
    r"^this (?:article|story) (?:originally |first )?(?:appeared|was published) "
    r"(?:on|in|by) (?-i:the )?(?P<outlet>[A-Z][\w&'’.]*(?: [A-Z][\w&'’.]*){0,4})",
    re.IGNORECASE | re.MULTILINE,
)


def detect_outlet(body: str) -> str | None:
    """The publisher where the text itself states it; None rather than a guess.

    A lowercase "the" before the name is grammar and is dropped ("from the Daily Beast");
    a capitalised one is part of the name ("The Conversation").
    """
    for pattern in (_COPYRIGHT, _DATELINE, _ORIGINALLY, _OWN_REQUEST):
        match = pattern.search(body)
        if match:
            outlet = match.group("outlet").strip(" .,’'")
            if outlet and not outlet.lower().startswith("all rights"):
                return outlet
    return None


_TITLE_MD = re.compile(r"^#\s+(?P<title>.+?)\s*#*\s*$")
_PUBLISHED = re.compile(
    r"^(?:published|posted|updated|date)(?:\s+on)?\s*[:\-–]?\s*(?P<date>.{6,60}?)\s*$",
    re.IGNORECASE | re.MULTILINE,
)


# A dateline on a line of its own: "WASHINGTON —", "LONDON (Reuters) -".
_DATELINE_LINE = re.compile(r"[A-Z][A-Z .,'’]{2,40}(?:\([^)]{1,40}\))?\s*[—–-]")


def _metadata_line(line: str) -> bool:
    """A line that only says when or where: "Published: March 13, 2025", "March 13, 2025",
    "WASHINGTON —". It comes before a title, never as one."""
    stated = _PUBLISHED.fullmatch(line)
    if stated and parse_timestamp(stated.group("date")):
        return True
    if len(line) <= 60 and any(c.isdigit() for c in line) and parse_timestamp(line):
        return True
    return bool(_DATELINE_LINE.fullmatch(line))


def detect_title(body: str) -> str | None:
    """A markdown heading or a short first line without closing punctuation. Lines that only
    say when or where it was published come before it, never as it."""
    first = ""
    for line in body.split("\n", 8)[:8]:
        first = line.strip()
        if first and not _metadata_line(first):
            break
    else:
        return None
    heading = _TITLE_MD.match(first)
    if heading:
        return heading.group("title")
    closed = first.endswith((".", "?", "!", '"', "”", ":", ";", ","))
    # Three words at least: a lone dateline word such as "WASHINGTON" is not a title.
    if 0 < len(first) <= 150 and not closed and len(first.split()) >= 3:
        return first
    return None


def parse_timestamp(text: str) -> datetime | None:
    """A date or timestamp with a year, as UTC; None when it does not parse as one."""
    try:
        parsed = dateparser.parse(text, default=datetime(1, 1, 1))
        if parsed is None or parsed.year == 1:
            return None
        if parsed.tzinfo is None:
            return parsed.replace(tzinfo=UTC)
        # A stamp at the calendar's edge overflows when moved to UTC ("9999-12-31T23:59-14:00").
        return parsed.astimezone(UTC)
    except (ValueError, OverflowError):
        return None


def detect_published_at(body: str) -> datetime | None:
    for match in _PUBLISHED.finditer(body):
        parsed = parse_timestamp(match.group("date"))
        if parsed is not None:
            return parsed
    return None


def parse_sidecar(name: str, raw: bytes) -> tuple[dict[str, object], str | None]:
    """(fields, None) or ({}, reason). Unknown keys are ignored; known ones are checked."""
    try:
        data = json.loads(raw.decode("utf-8-sig"))
    except UnicodeDecodeError:
        return {}, f"sidecar {name} is not UTF-8: re-save it as UTF-8 JSON"
    except json.JSONDecodeError as err:
        return {}, (
            f"sidecar {name} is not valid JSON (line {err.lineno}, column {err.colno}: "
            f"{err.msg}): fix or remove it"
        )
    except RecursionError:
        return {}, f"sidecar {name} is nested too deeply to be metadata: fix or remove it"
    except ValueError as err:  # e.g. an integer of thousands of digits
        return {}, f"sidecar {name} is not usable JSON ({err}): fix or remove it"
    if not isinstance(data, dict):
        return {}, f"sidecar {name} must hold a JSON object with {', '.join(SIDECAR_FIELDS)}"
    fields: dict[str, object] = {}
    for key in SIDECAR_FIELDS:
        value = data.get(key)
        if value is None or value == "":
            continue
        fields[key], problem = metadata_value(f"sidecar {name}", key, key, value)
        if problem:
            return {}, problem
    return fields, None


def metadata_value(where: str, field: str, name: str, value: object) -> tuple[object, str | None]:
    """One metadata value of a sidecar or a record (`field`: title, published_at, outlet or
    url; `name`: what the input calls it), checked: (the value, None) or (None, the reason,
    starting with `where`)."""
    if not isinstance(value, str):
        return None, f"{where}: {name} must be a string, got {type(value).__name__}"
    if not encodable(value):
        return None, (
            f"{where}: {name} holds an unpaired surrogate escape (such as \\ud800), "
            "which is not text: fix the value"
        )
    if field != "published_at":
        return value.strip(), None
    stamp = parse_timestamp(value)
    if stamp is None:
        return None, (
            f"{where}: {name} {value[:60]!r} is not a date with a year (use ISO 8601, e.g. "
            "2025-05-29T14:00:00Z)"
        )
    return stamp, None


def encodable(text: str) -> bool:
    """False for text holding an unpaired surrogate (such as \\ud800), which UTF-8 cannot hold."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def parse_file(
    source_uri: str,
    raw: bytes,
    sidecar_name: str | None = None,
    sidecar_raw: bytes | None = None,
) -> ParsedFile:
    """Turn one article file (and its optional sidecar) into an article or a reject.

    Never raises: a file that breaks the parser is a reject naming the error, so one file
    cannot stop a run.
    """
    try:
        return _parse_file(source_uri, raw, sidecar_name, sidecar_raw)
    except Exception as err:  # any parser bug must become a reject row, not a failed run
        return ParsedFile(
            sha256_hex(raw),
            reason=(
                f"claimhouse could not parse this file ({type(err).__name__}: {str(err)[:200]}); "
                "please report it with the file, then fix or remove the file"
            ),
        )


def _parse_file(
    source_uri: str, raw: bytes, sidecar_name: str | None, sidecar_raw: bytes | None
) -> ParsedFile:
    digest = sha256_hex(raw)  # of the file's bytes, whatever its format: content dedup
    if not raw:
        return ParsedFile(digest, reason="empty file (0 bytes)")
    is_html = source_uri.lower().endswith(HTML_SUFFIXES)
    if is_html:
        text, page, problem = read_page(raw)
    else:
        (text, problem), page = decode_text(raw), None
    if problem:
        return ParsedFile(digest, reason=problem)
    if not (text or "").strip():
        return ParsedFile(digest, reason="only whitespace: no article text")
    meta: dict[str, object] = {}
    if sidecar_raw is not None:
        meta, problem = parse_sidecar(sidecar_name or "sidecar", sidecar_raw)
        if problem:
            return ParsedFile(digest, reason=problem)
    return article(digest, text or "", meta, page)


NO_PAGE_TEXT = (
    "no article text found in the HTML page (trafilatura found no main content): it may hold "
    "only navigation or links, or load its text by script; save the article's own page, or "
    "its text as .txt"
)


def read_page(
    raw: bytes, http_charset: str | None = None
) -> tuple[str | None, Page | None, str | None]:
    """(main text, page, None) or (None, None, reason) for an HTML page's bytes."""
    text, problem = decode_html(raw, http_charset)
    if problem:
        return None, None, problem
    if not (text or "").strip():
        return text, None, None
    page = extract_page(text or "")
    if page is None:
        return None, None, NO_PAGE_TEXT
    return page.text, page, None


def article(
    digest: str, text: str, meta: Mapping[str, object], page: Page | None = None
) -> ParsedFile:
    """An article from its text, the metadata given beside it (a sidecar's, a record's
    fields) and, for a page, what the page states; a reject when the text is only whitespace.
    Field by field: the given metadata, else what the file itself states (an HTML page's
    metadata, else the text's own lines)."""
    body = normalize_body(text)
    if not body:
        return ParsedFile(digest, reason="only whitespace: no article text")
    stated: dict[str, object] = {}
    if page is not None:
        stamp = parse_timestamp(page.published_at) if page.published_at else None
        stated = {
            "outlet": page.outlet,
            "title": page.title,
            "url": page.url,
            "published_at": stamp,
        }
    sidecar, in_file = PUBLISHED_AT_SOURCES
    published_at, source = meta.get("published_at"), sidecar
    if published_at is None:
        published_at = stated.get("published_at") or detect_published_at(body)
        source = in_file
    return ParsedFile(
        content_sha256=digest,
        article_id=sha256_hex(body.encode("utf-8")),
        body=body,
        outlet=meta.get("outlet") or stated.get("outlet") or detect_outlet(body),  # type: ignore[arg-type]
        title=meta.get("title") or stated.get("title") or detect_title(body),  # type: ignore[arg-type]
        published_at=published_at,  # type: ignore[arg-type]
        url=meta.get("url") or stated.get("url"),  # type: ignore[arg-type]
        published_at_source=None if published_at is None else source,
    )
