"""Pure functions: a file holding many articles (JSON Lines, Parquet, WARC) -> its records, each
an article or a reject (or, for WARC, a record that is not an article: skipped), with its
position in the file. No Spark here.

Positions: the line number for JSON Lines (from 1), the row index for Parquet (from 0), the
byte offset of the record for WARC (in the compressed file for .warc.gz).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import BinaryIO

from lake.bronze.parse import (
    ParsedFile,
    article,
    encodable,
    metadata_value,
    read_page,
    sha256_hex,
)
from lake.config import FieldMap

JSONL_SUFFIXES = (".jsonl", ".ndjson")
PARQUET_SUFFIXES = (".parquet",)
WARC_SUFFIXES = (".warc", ".warc.gz")
# Each kind of file of records, and what its records' position counts.
UNITS = {"jsonl": "line", "parquet": "row", "warc": "byte offset"}
_HTML_TYPES = ("text/html", "application/xhtml+xml")
# A domain as outlet (news-please's source_domain) names the site as gold reads it from a URL.
_DOMAIN = re.compile(r"(?:www\.)?((?:[\w-]+\.)+[a-z]{2,})", re.IGNORECASE)
_CHARSET = re.compile(r"charset\s*=\s*[\"']?([\w.:-]+)", re.IGNORECASE)


class FileRefused(Exception):
    """The whole file cannot be read as records: its message is the reject reason."""


@dataclass(frozen=True)
class Record:
    """One record of a file: an article (parsed.reason None), a reject (parsed.reason set), or,
    when `skipped` says why, a record that is no article by design."""

    position: int
    parsed: ParsedFile
    skipped: str | None = None
    size: int = 0  # the record's bytes: a line, a row as JSON, a WARC record's block


def records_kind(uri: str) -> str | None:
    """'jsonl', 'parquet' or 'warc' for a file of records, by its name; None for others."""
    name = uri.lower()
    for kind, suffixes in (
        ("jsonl", JSONL_SUFFIXES),
        ("parquet", PARQUET_SUFFIXES),
        ("warc", WARC_SUFFIXES),
    ):
        if name.endswith(suffixes):
            return kind
    return None


def located(uri: str, position: int | None) -> str:
    """'news.jsonl line 3': where a record is, as reasons name it; the uri alone for a file."""
    kind = records_kind(uri)
    if position is None or kind is None:
        return uri
    return f"{uri} {UNITS[kind]} {position}"


@dataclass(frozen=True)
class Scan:
    """One pass over a file's bytes: its sha256, and what a run that read its first
    `prefix_bytes` needs to read only what was appended since."""

    sha256: str
    size: int
    prefix_sha256: str | None  # of the first prefix_bytes, when the file has that many
    prefix_lines: int  # newlines in them
    prefix_ends_line: bool  # they end with a newline


def scan(stream: BinaryIO, prefix_bytes: int | None = None) -> Scan:
    whole, prefix = hashlib.sha256(), hashlib.sha256()
    size = lines = 0
    ends_line, prefix_sha = False, None
    while chunk := stream.read(1 << 20):
        if prefix_bytes is not None and size < prefix_bytes:
            part = chunk[: prefix_bytes - size]
            prefix.update(part)
            lines += part.count(b"\n")
            if size + len(part) == prefix_bytes:
                prefix_sha, ends_line = prefix.hexdigest(), part.endswith(b"\n")
        whole.update(chunk)
        size += len(chunk)
    if prefix_bytes == 0:
        prefix_sha = prefix.hexdigest()
    return Scan(whole.hexdigest(), size, prefix_sha, lines, ends_line)


def _metadata(
    get: Callable[[str], object], fields: FieldMap, where: str
) -> tuple[dict[str, object], str | None]:
    """The article fields a record gives (title, published_at, outlet, url), checked as a
    sidecar's are: ({...}, None) or ({}, reason)."""
    meta: dict[str, object] = {}
    for field in ("title", "published_at", "outlet", "url"):
        for name in fields.names(field):
            value = get(name)
            if value is None or value == "":
                continue
            if field == "published_at" and isinstance(value, datetime):
                stamp = value if value.tzinfo else value.replace(tzinfo=UTC)
                meta[field] = stamp.astimezone(UTC)
                break
            checked, problem = metadata_value(where, field, name, value)
            if problem:
                return {}, problem
            if field == "outlet" and (domain := _DOMAIN.fullmatch(checked)):
                checked = domain.group(1).lower()
            meta[field] = checked
            break
    return meta, None


def _record(digest: str, get: Callable[[str], object], fields: FieldMap, where: str) -> ParsedFile:
    """A record's fields -> an article or a reject naming where the record is."""
    names = fields.names("body")
    present = [n for n in names if get(n) is not None]
    if not present:
        return ParsedFile(
            digest,
            reason=(
                f"{where}: no text field ({' or '.join(names)}): give the record its "
                "article text, or name the field that holds it in CLAIMHOUSE_RECORD_FIELDS"
            ),
        )
    text = get(present[0])
    if not isinstance(text, str):
        return ParsedFile(
            digest,
            reason=f"{where}: {present[0]} must be a string, got {type(text).__name__}",
        )
    if not encodable(text):
        return ParsedFile(
            digest,
            reason=(
                f"{where}: {present[0]} holds an unpaired surrogate escape (such as \\ud800), "
                "which is not text: fix the value"
            ),
        )
    meta, problem = _metadata(get, fields, where)
    if problem:
        return ParsedFile(digest, reason=problem)
    parsed = article(digest, text, meta)
    if parsed.reason:
        return replace(parsed, reason=f"{where}: {present[0]} is {parsed.reason}")
    return parsed


def read_jsonl(
    uri: str,
    stream: BinaryIO,
    fields: FieldMap,
    max_record_bytes: int,
    first_line: int = 1,
) -> Iterator[Record]:
    """Each line of a JSON Lines file from the stream's position, numbered from first_line: a
    JSON object whose fields give the article. Blank lines are no records."""
    number = first_line - 1
    while True:
        line = stream.readline(max_record_bytes + 2)
        if not line:
            return
        number += 1
        where = f"{uri} line {number}"
        if len(line) > max_record_bytes + 1 or (
            len(line) == max_record_bytes + 1 and not line.endswith(b"\n")
        ):
            size = len(line)
            while line and not line.endswith(b"\n"):  # the rest of the long line
                line = stream.readline(1 << 20)
                size += len(line)
            yield Record(
                number,
                ParsedFile(
                    None,
                    reason=(
                        f"{where}: {size:,} bytes, over the {max_record_bytes:,}-byte limit: "
                        "split the article or raise --max-file-bytes"
                    ),
                ),
                size=size,
            )
            continue
        raw = line.rstrip(b"\r\n")
        if number == 1:
            raw = raw.removeprefix(b"\xef\xbb\xbf")
        if not raw.strip():
            continue
        yield Record(number, _jsonl_record(raw, where, fields), size=len(raw))


def _jsonl_record(raw: bytes, where: str, fields: FieldMap) -> ParsedFile:
    digest = sha256_hex(raw)
    try:
        data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as err:
        return ParsedFile(
            digest,
            reason=(
                f"{where}: not valid UTF-8 (byte 0x{raw[err.start]:02x} at column "
                f"{err.start + 1}): re-save the file as UTF-8"
            ),
        )
    except json.JSONDecodeError as err:
        return ParsedFile(
            digest,
            reason=(
                f"{where}: not valid JSON (column {err.colno}: {err.msg}): fix the line or "
                "remove it"
            ),
        )
    except RecursionError:
        return ParsedFile(digest, reason=f"{where}: nested too deeply to be an article")
    except ValueError as err:  # e.g. an integer of thousands of digits
        return ParsedFile(digest, reason=f"{where}: not usable JSON ({str(err)[:100]})")
    if not isinstance(data, dict):
        return ParsedFile(
            digest,
            reason=(
                f"{where}: a JSON {type(data).__name__}, not an object with the "
                "article's fields: fix the line or remove it"
            ),
        )
    return _record(digest, data.get, fields, where)


def read_parquet(
    uri: str, stream: BinaryIO, fields: FieldMap, max_record_bytes: int
) -> Iterator[Record]:
    """Each row of a Parquet file, numbered from 0: its columns give the article. Raises
    FileRefused when the file is not Parquet or has no text column."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        table = pq.ParquetFile(stream)
    except Exception as err:  # noqa: BLE001 - pyarrow raises several kinds for a bad file
        raise FileRefused(
            f"not a readable Parquet file ({type(err).__name__}: {str(err)[:150]}): re-export "
            "it, or remove it"
        ) from None
    schema = table.schema_arrow
    have = set(schema.names)
    body = next((n for n in fields.names("body") if n in have), None)
    if body is None:
        raise FileRefused(
            f"no column {' or '.join(fields.names('body'))} for the article text (columns: "
            f"{', '.join(schema.names[:12])}): name it in CLAIMHOUSE_RECORD_FIELDS"
        )
    if not (
        pa.types.is_string(schema.field(body).type)
        or pa.types.is_large_string(schema.field(body).type)
    ):
        raise FileRefused(
            f"column {body} holds {schema.field(body).type}, not text: the article text must "
            "be a string column"
        )
    wanted = [n for f in fields.pairs for n in f[1] if n in have]
    columns = list(dict.fromkeys(wanted))
    row = 0
    try:
        for batch in table.iter_batches(batch_size=1024, columns=columns):
            for values in batch.to_pylist():
                where = f"{uri} row {row}"
                values = {k: v for k, v in values.items() if v is not None}
                text = values.get(body)
                as_json = json.dumps(
                    values, sort_keys=True, default=str, ensure_ascii=False
                ).encode("utf-8", "surrogatepass")
                digest = sha256_hex(as_json)
                if isinstance(text, str) and len(text.encode("utf-8", "replace")) > (
                    max_record_bytes
                ):
                    parsed = ParsedFile(
                        digest,
                        reason=(
                            f"{where}: {body} is over the {max_record_bytes:,}-byte limit: "
                            "split the article or raise --max-file-bytes"
                        ),
                    )
                else:
                    parsed = _record(digest, values.get, fields, where)
                yield Record(row, parsed, size=len(as_json))
                row += 1
    except FileRefused:
        raise
    except Exception as err:  # noqa: BLE001 - a damaged row group: the rows after it are lost
        yield Record(
            row,
            ParsedFile(
                None,
                reason=(
                    f"{uri} row {row}: this row and the ones after it could not be read "
                    f"({type(err).__name__}: {str(err)[:150]}): re-export the file"
                ),
            ),
        )


def read_warc(uri: str, stream: BinaryIO, max_record_bytes: int) -> Iterator[Record]:
    """Each record of a WARC file (.warc or .warc.gz), at its byte offset: an HTTP response
    holding an HTML page is read as an .html file is (lake/bronze/html.py), with the
    WARC-Target-URI as its url when the page states no canonical one; every other record
    (warcinfo, request, metadata, a response of another type or status) is skipped, saying
    what it is. Raises FileRefused when the file does not start as WARC."""
    from warcio.archiveiterator import ArchiveIterator
    from warcio.exceptions import ArchiveLoadFailed

    records = ArchiveIterator(stream, check_digests=False)
    count = 0
    while True:
        try:
            record = next(records)
        except StopIteration:
            # warcio ends quietly at a gzip member cut short: its bytes are still there
            end = stream.seek(0, 2)
            last = records.member_info  # (offset, length) of the last record read
            done = sum(last) if last else records.offset
            if count and done < end:
                yield Record(
                    done,
                    ParsedFile(
                        None,
                        reason=(
                            f"{uri} byte offset {done}: the WARC file ends in an "
                            f"incomplete record ({end - done:,} bytes not read): "
                            "re-fetch the file, or let the crawler finish writing it"
                        ),
                    ),
                )
            return
        except (ArchiveLoadFailed, ValueError, OSError, EOFError) as err:
            problem = f"{type(err).__name__}: {str(err).strip()[:150]}"
            if count == 0:
                raise FileRefused(
                    f"not a readable WARC file ({problem}): claimhouse reads WARC/1.0 and 1.1 "
                    "files, plain or gzipped per record"
                ) from None
            # where the last record read ended
            yield Record(
                records.offset,
                ParsedFile(
                    None,
                    reason=(
                        f"{uri} byte offset {records.offset}: the WARC file is broken from "
                        f"here ({problem}); the records after it were not read: fix or "
                        "re-fetch the file"
                    ),
                ),
            )
            return
        count += 1
        # Where this record starts (warcio's get_record_offset would consume the record).
        offset = records.offset
        found = _warc_record(uri, offset, record, max_record_bytes)
        # Read the record to its end: one cut short (the file ends inside it) is a reject,
        # not an article made of part of a page.
        raw = record.raw_stream
        while raw.read(1 << 16):
            pass
        missing = getattr(raw, "limit", 0)
        if record.length is None:  # no Content-Length: the file ends inside its headers
            missing = 1
        if missing > 0:
            found = Record(
                offset,
                ParsedFile(
                    found.parsed.content_sha256,
                    reason=(
                        f"{uri} byte offset {offset}: the WARC file ends in an incomplete "
                        "record: re-fetch the file, or let the crawler finish writing it"
                    ),
                ),
            )
        yield replace(found, size=int(record.length or 0))


def _warc_record(uri: str, offset: int, record, max_record_bytes: int) -> Record:
    where = f"{uri} byte offset {offset}"
    kind = record.rec_type
    if kind != "response":
        return Record(offset, ParsedFile(None), skipped=f"WARC {kind} record: not an article")
    http = record.http_headers
    if http is None:
        return Record(
            offset,
            ParsedFile(None),
            skipped="WARC response record without HTTP headers: not an article",
        )
    status = http.get_statuscode() or ""
    if not status.startswith("2"):
        return Record(offset, ParsedFile(None), skipped=f"WARC response with HTTP status {status}")
    content_type = http.get_header("Content-Type") or ""
    if not content_type.split(";")[0].strip().lower().startswith(_HTML_TYPES):
        shown = content_type.split(";")[0].strip() or "no Content-Type"
        return Record(
            offset, ParsedFile(None), skipped=f"WARC response of {shown}: not an HTML page"
        )
    payload = record.content_stream().read(max_record_bytes + 1)
    digest = sha256_hex(payload)
    if len(payload) > max_record_bytes:
        return Record(
            offset,
            ParsedFile(
                digest,
                reason=(
                    f"{where}: the page is over the {max_record_bytes:,}-byte limit: raise "
                    "--max-file-bytes to read it"
                ),
            ),
        )
    if not payload:
        return Record(offset, ParsedFile(digest, reason=f"{where}: the page is empty (0 bytes)"))
    charset = _CHARSET.search(content_type)
    text, page, problem = read_page(payload, charset.group(1) if charset else None)
    if problem:
        return Record(offset, ParsedFile(digest, reason=f"{where}: {problem}"))
    parsed = article(digest, text or "", {}, page)
    if parsed.reason:
        return Record(offset, replace(parsed, reason=f"{where}: {parsed.reason}"))
    target = record.rec_headers.get_header("WARC-Target-URI")
    if parsed.url is None and target:
        parsed = replace(parsed, url=target.strip("<> "))
    return Record(offset, parsed)
