"""Input folder -> bronze.articles, bronze.rejects and bronze.ingest_log, idempotently.

The driver lists file names and sizes only; executors read and parse the contents
(`binaryFile` + `mapInPandas`) and Delta MERGEs write the results.
"""

from __future__ import annotations

import io
import os
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from functools import partial
from pathlib import Path, PurePosixPath
from stat import S_ISREG
from typing import Any, BinaryIO

import pandas as pd
from delta.tables import DeltaTable
from pyspark.errors import AnalysisException
from pyspark.sql import Column, DataFrame, SparkSession, Window
from pyspark.sql import functions as F
from pyspark.sql.types import LongType, StringType, StructField, StructType, TimestampType

from lake.bronze import records
from lake.bronze.parse import ARTICLE_SUFFIXES, READS, SIDECAR_SUFFIX, ParsedFile, parse_file
from lake.config import DEFAULT_FIELDS, FieldMap, Settings
from lake.contracts.enforce import candidates, enforce_tables
from lake.layer import RunContext, Unit
from lake.objectstore import ObjectStoreError, RemotePath, S3Client, S3Config
from lake.schemas import BRONZE_ARTICLES, BRONZE_INGEST_LOG, BRONZE_REJECTS
from lake.spark import local_frame
from lake.storage import Lake, LakeError, read_local


@dataclass(frozen=True)
class IngestSummary:
    run_id: str
    files_seen: int
    new_articles: int
    unchanged: int
    duplicates: int
    rejected: int
    sidecars: int
    files_read: int = 0  # files whose content this run read (unchanged ones are not)
    not_settled: int = 0  # still being written: left for the next run
    updated: int = 0  # same text, new metadata (a corrected or late sidecar)
    # (kind of reason, files) of this run's rejects, most frequent first
    reject_reasons: tuple[tuple[str, int], ...] = ()
    # Files holding many articles (JSON Lines, Parquet, WARC) this run read; the records it
    # read from them; those records that are no article by design (WARC records other than
    # HTML responses). The other outcomes count files and records alike (an unchanged file of
    # records is one `unchanged`).
    containers: int = 0
    records: int = 0
    skipped: int = 0

    @property
    def articles_seen(self) -> int:
        """Files and records of this run that are articles: new, unchanged, duplicate or
        updated."""
        return self.new_articles + self.unchanged + self.duplicates + self.updated

    @property
    def accounted(self) -> int:
        """Files accounted for: each article file, reject, sidecar or file of records once (a
        file of records by its records, when read)."""
        return (
            self.new_articles
            + self.unchanged
            + self.duplicates
            + self.rejected
            + self.sidecars
            + self.not_settled
            + self.updated
            + self.skipped
            + self.containers
            - self.records
        )

    def describe(self) -> str:
        """One line for the CLI and Dagster's run log: how every file was accounted for."""
        why = "; ".join(f"{n} {kind}" for kind, n in self.reject_reasons)
        head = f"bronze: {self.files_seen} files seen = "
        if self.containers:
            head = (
                f"bronze: {self.files_seen} files seen, {self.containers} of them JSON Lines, "
                f"Parquet or WARC files read ({self.records} records): "
                f"{self.files_seen - self.containers + self.records} files and records = "
            )
        return (
            head + f"{self.new_articles} new articles + "
            f"{self.unchanged} unchanged + {self.duplicates} duplicates + "
            f"{self.rejected} rejected + {self.sidecars} sidecars"
            + (f" + {self.updated} with new metadata" if self.updated else "")
            + (
                f" + {self.skipped} skipped (WARC records other than HTML pages)"
                if self.skipped
                else ""
            )
            + (
                f" + {self.not_settled} not settled (still being written: next run)"
                if self.not_settled
                else ""
            )
            + f"; {self.files_read} read (unchanged files are not)"
            + (f". Rejected: {why} (bronze.rejects has each file's reason)" if why else "")
        )

    def metadata(self) -> dict[str, object]:
        return {
            "files_seen": self.files_seen,
            "files_read": self.files_read,
            "new_articles": self.new_articles,
            "unchanged": self.unchanged,
            "updated": self.updated,
            "duplicates": self.duplicates,
            "rejected": self.rejected,
            "sidecars": self.sidecars,
            "not_settled": self.not_settled,
            "reject_reasons": dict(self.reject_reasons),
            "files_of_records": self.containers,
            "records_read": self.records,
            "records_skipped": self.skipped,
        }


@dataclass(frozen=True)
class InputFile:
    path: str  # as Hadoop names it, e.g. file:/data/in/a.txt
    source_uri: str  # relative to the input folder, '/'-separated
    size_bytes: int
    modified_at: float | None = None  # seconds since the epoch, when the file system says
    problem: str | None = None  # why it cannot be read at all: a reject, never an article


def list_input(spark: SparkSession, input_dir: Path | str) -> list[InputFile]:
    """Every file below input_dir, recursively: local folders with os.walk, other file systems
    (hdfs:, s3a:...) through Hadoop's FileSystem. Names starting with '.' are hidden.
    """
    text = str(input_dir)
    if "://" not in text and not text.startswith("file:"):
        return list_local(Path(text))
    return _list_hadoop(spark, text)


def list_local(root: Path) -> list[InputFile]:
    """Every entry below root that is not hidden. What cannot be read as a file (a link that
    leads outside root or nowhere, a linked folder, a pipe, a folder that cannot be listed, a
    name that is not UTF-8) is listed too, with its reject reason in `problem`."""
    if not root.exists():
        raise LakeError(f"input folder {root} does not exist: pass --input DIR")
    if not root.is_dir():
        raise LakeError(f"input {root} is a file, not a folder: pass the folder that holds it")
    root = root.resolve()
    files: list[InputFile] = []

    def unlisted(rel: str, problem: str) -> None:
        files.append(InputFile(path="", source_uri=_printable(rel), size_bytes=0, problem=problem))

    # One directory read per folder and one stat per entry (the directory read says which
    # entries are links and folders): a listing of 200,000 files is a cost of every run.
    pending = [(str(root), "")]
    while pending:
        folder, prefix = pending.pop()
        try:
            with os.scandir(folder) as it:
                entries = list(it)
        except OSError as error:
            if not prefix:
                raise LakeError(
                    f"input folder {root} could not be listed: {error.strerror}"
                ) from None
            unlisted(
                prefix[:-1],
                f"folder could not be listed ({error.strerror}): its files were not read; "
                "fix its permissions and run again",
            )
            continue
        for entry in entries:
            name = entry.name
            if name.startswith("."):
                continue
            rel = prefix + name
            if entry.is_dir(follow_symlinks=False):
                pending.append((entry.path, rel + "/"))
                continue
            if entry.is_symlink() and _is_dir(entry):
                unlisted(
                    rel,
                    "link to a folder: linked folders are not followed; move or copy the "
                    "files into the input folder",
                )
                continue
            found = _local_entry(root, entry, rel)
            if isinstance(found, str):
                unlisted(rel, found)
            else:
                files.append(found)
    return sorted(files, key=lambda f: f.source_uri)


def _is_dir(entry: os.DirEntry) -> bool:
    try:
        return entry.is_dir()
    except OSError:
        return False


def _printable(rel: str) -> str:
    """A name as text: bytes that are not UTF-8 (kept by the OS as surrogates) become \\xNN."""
    if rel.isascii():
        return rel
    return os.fsencode(rel).decode("utf-8", "backslashreplace")


def _local_entry(root: Path, entry: os.DirEntry, rel: str) -> InputFile | str:
    """The file to read, or why it cannot be read."""
    if _printable(rel) != rel:
        return "file name is not valid UTF-8: rename the file"
    full = entry.path
    if entry.is_symlink():
        target = os.path.realpath(full)
        if not os.path.exists(target):
            return f"broken link: its target {os.readlink(full)} does not exist"
        if os.path.commonpath([target, str(root)]) != str(root):
            return (
                f"link to {target}, outside the input folder: not followed, so nothing "
                "outside the folder becomes queryable; copy the file in instead"
            )
    try:
        stat = entry.stat()
    except OSError as error:
        return f"file could not be read ({error.strerror}): check it and run again"
    if not S_ISREG(stat.st_mode):
        return f"not a regular file (a pipe, socket or device): claimhouse reads {READS} files"
    if not os.access(full, os.R_OK):
        return "file is not readable (permission denied): fix its permissions and run again"
    return InputFile(
        path=f"file:{full}",
        source_uri=rel,
        size_bytes=stat.st_size,
        # ctime too: copies that keep an old mtime (cp -p, rsync -t) still count.
        modified_at=max(stat.st_mtime, stat.st_ctime),
    )


def _list_hadoop(spark: SparkSession, input_dir: str) -> list[InputFile]:
    jvm = spark.sparkContext._jvm  # type: ignore[attr-defined]
    hconf = spark.sparkContext._jsc.hadoopConfiguration()  # type: ignore[attr-defined]
    root = jvm.org.apache.hadoop.fs.Path(input_dir)
    fs = root.getFileSystem(hconf)
    if not fs.exists(root) or not fs.getFileStatus(root).isDirectory():
        raise LakeError(f"input folder {input_dir} does not exist or is not a folder")
    root_str = fs.makeQualified(root).toString().rstrip("/") + "/"
    files = []
    listing = fs.listFiles(root, True)
    while listing.hasNext():
        status = listing.next()
        path = status.getPath().toString()
        rel = path[len(root_str) :] if path.startswith(root_str) else status.getPath().getName()
        if _hidden(rel):
            continue
        files.append(
            InputFile(
                path=path,
                source_uri=rel,
                size_bytes=int(status.getLen()),
                modified_at=status.getModificationTime() / 1000,
            )
        )
    return sorted(files, key=lambda f: f.source_uri)


def input_problem(settings: Settings) -> str | None:
    """Why the settings' input folder cannot be listed at all, or None. An `s3a://` folder (a
    prefix: object stores have no folders) needs at least one object."""
    folder = settings.input_dir
    if isinstance(folder, RemotePath):
        client = S3Client(S3Config.of(settings))
        try:
            found = next(iter(client.list(folder.bucket, _prefix(folder))), None)
        except ObjectStoreError as error:
            return (
                f"input folder {folder} cannot be listed ({error}): check CLAIMHOUSE_S3_ENDPOINT "
                "and the AWS_* credentials"
            )
        if found is None:
            return f"input folder {folder} holds no objects: pass --input s3a://BUCKET/PREFIX"
        return None
    if folder.is_dir():
        return None
    if folder.exists():
        return (
            f"input {folder} is a file, not a folder: pass the folder that holds the articles "
            "with --input DIR"
        )
    return f"input folder {folder} does not exist: pass --input DIR"


def list_object_store(client: S3Client, folder: RemotePath) -> list[InputFile]:
    """What bronze lists in an `s3a://` input folder (through Hadoop's S3A), listed with
    claimhouse's own S3 client: for callers without Spark, such as the Dagster sensor."""
    prefix = _prefix(folder)
    files = [
        InputFile(
            path=f"s3a://{folder.bucket}/{o.key}",
            source_uri=o.key[len(prefix) :],
            size_bytes=o.size,
            modified_at=o.modified_at,
        )
        for o in client.objects(folder.bucket, prefix)
        if not o.key.endswith("/") and not _hidden(o.key[len(prefix) :])
    ]
    return sorted(files, key=lambda f: f.source_uri)


def _prefix(folder: RemotePath) -> str:
    """The keys below a folder start with this (a bucket's root: every key)."""
    return f"{folder.key}/" if folder.key else ""


def _hidden(rel: str) -> bool:
    return any(part.startswith(".") for part in PurePosixPath(rel).parts)


def _workers_read_local(wanted: list[InputFile]) -> bool:
    """Local files are opened by the workers themselves (a cluster's workers see the input
    folder at the same path): no Hadoop scan of the folder, no shuffle pairing each file with
    its sidecar. Other file systems are read by Spark's binaryFile scan."""
    return all(f.path.startswith("file:") for f in wanted)


def _read_contents(
    spark: SparkSession,
    input_dir,
    wanted: list[InputFile],
    max_bytes: int,
    unlimited: set[str] | frozenset[str] = frozenset(),
):
    """path -> content for the wanted files of a remote folder (hdfs:, s3a:...). One directory
    scan reads them in parallel. Spark's listing skips names starting with '_', even by name:
    those get no content, so they are rejected with a reason saying so. Files of records
    (`unlimited`) are read whatever their size: their records are held to max_bytes."""
    if not wanted:
        return spark.createDataFrame([], "path string, content binary")
    reader = spark.read.format("binaryFile")
    named = [f.path for f in wanted if not _hidden_from_spark(f)]
    found = None
    if len(wanted) <= _READ_BY_NAME_MAX:
        # An incremental run wants a few files of a large folder: name them, read only them.
        try:
            found = reader.load(named) if named else spark.createDataFrame([], _BINARY_FILE)
        except AnalysisException:  # one vanished since the listing: scan, report it missing
            found = None
    if found is None:
        found = reader.option("recursiveFileLookup", "true").load(str(input_dir))
    fits = F.col("length") <= max_bytes
    if unlimited:
        fits = fits | F.col("path").isin(sorted(unlimited))
    return found.where(fits).select("path", "content")


# Up to this many wanted files are read by name; more, and one scan of the folder is cheaper.
_READ_BY_NAME_MAX = 256
_BINARY_FILE = "path string, modificationTime timestamp, length long, content binary"


def _hidden_from_spark(f: InputFile) -> bool:
    return any(p.startswith("_") for p in PurePosixPath(f.source_uri).parts)


_PARSED = StructType(
    [
        StructField("source_uri", StringType(), False),
        StructField("size_bytes", LongType(), False),
        StructField("content_sha256", StringType(), True),
        StructField("reason", StringType(), True),
        StructField("article_id", StringType(), True),
        StructField("outlet", StringType(), True),
        StructField("title", StringType(), True),
        StructField("published_at", TimestampType(), True),
        StructField("url", StringType(), True),
        StructField("body", StringType(), True),
        StructField("published_at_source", StringType(), True),
        # where a record is in its file (null for a file that is one article)
        StructField("position", LongType(), True),
        # file (one article or a reject) | container (a file of records, read) | record |
        # skipped (a record that is no article by design)
        StructField("role", StringType(), False),
    ]
)
# Rows a worker hands back at a time: a file of records may hold a great many.
_ROWS_PER_BATCH = 2000


_VANISHED = (
    "file could not be read (moved or deleted during ingestion, or a name starting with '_' "
    "on a remote file system, which Spark skips): check it and run again"
)


def _parse_batches(
    fields: FieldMap, max_file_bytes: int, batches: Iterator[pd.DataFrame]
) -> Iterator[pd.DataFrame]:
    """Rows with their content (and their sidecar's) read by Spark -> _PARSED rows."""

    def stream(r) -> BinaryIO | None:
        return None if r.content is None else io.BytesIO(bytes(r.content))

    def parse(r) -> dict:
        return _parse_row(r.source_uri, r.size_bytes, r.content, r.sidecar_uri, r.sidecar_content)

    return _parsed_batches(batches, stream, parse, fields, max_file_bytes)


def _read_and_parse_batches(
    fields: FieldMap, max_file_bytes: int, batches: Iterator[pd.DataFrame]
) -> Iterator[pd.DataFrame]:
    """Listing rows of local files -> _PARSED rows; the worker reads each file and sidecar."""

    def parse(r) -> dict:
        return _parse_row(
            r.source_uri,
            r.size_bytes,
            _read_local(r.path, max_file_bytes),
            r.sidecar_uri,
            # Arrow hands a column of nulls to pandas as NaN: test for a str.
            _read_local(r.sidecar_path, max_file_bytes)
            if isinstance(r.sidecar_path, str)
            else None,
        )

    return _parsed_batches(batches, lambda r: _open_local(r.path), parse, fields, max_file_bytes)


def _parsed_batches(
    batches: Iterator[pd.DataFrame],
    stream: Callable[[Any], BinaryIO | None],
    parse: Callable[[Any], dict],
    fields: FieldMap,
    max_file_bytes: int,
) -> Iterator[pd.DataFrame]:
    """Each listed row -> _PARSED rows, at most _ROWS_PER_BATCH a frame: a file of records
    (`kind` set) a row per record read from `stream(row)`, any other file `parse(row)`."""
    for batch in batches:
        rows: list[dict] = []
        for r in batch.itertuples(index=False):
            if not isinstance(r.kind, str):
                rows.append(parse(r))
                continue
            for row in _records_rows(r, partial(stream, r), fields, max_file_bytes):
                rows.append(row)
                if len(rows) >= _ROWS_PER_BATCH:
                    yield pd.DataFrame(rows, columns=_PARSED.fieldNames())
                    rows = []
        yield pd.DataFrame(rows, columns=_PARSED.fieldNames())


def _open_local(path: str) -> BinaryIO | None:
    try:
        return open(path.removeprefix("file:"), "rb")  # noqa: SIM115 - the caller closes it
    except OSError:
        return None


def _records_rows(
    listed, open_stream: Callable[[], BinaryIO | None], fields: FieldMap, max_record_bytes: int
) -> Iterator[dict]:
    """A file of records -> a _PARSED row per record, then one for the file (role container);
    or a single row rejecting the whole file. A JSON Lines file that only grew since a run read
    it (its first logged_size bytes hash to logged_sha and end a line) is read from there."""
    uri = listed.source_uri
    stream = open_stream()
    if stream is None:
        yield _file_row(uri, listed.size_bytes, None, _VANISHED)
        return
    with stream:
        kind = listed.kind
        logged_size = listed.logged_size if isinstance(listed.logged_sha, str) else None
        logged_size = int(logged_size) if logged_size is not None else None
        found = records.scan(stream, logged_size if kind == "jsonl" else None)
        if found.size == 0:
            yield _file_row(uri, 0, found.sha256, "empty file (0 bytes)")
            return
        resumed = (
            logged_size is not None
            and found.prefix_sha256 == listed.logged_sha
            and found.prefix_ends_line
        )
        stream.seek(logged_size if resumed else 0)
        if kind == "jsonl":
            first = found.prefix_lines + 1 if resumed else 1
            reader = records.read_jsonl(uri, stream, fields, max_record_bytes, first)
            note = (
                f"read from line {first}: the file only grew since a run read its first "
                f"{logged_size:,} bytes"
                if resumed
                else None
            )
        elif kind == "parquet":
            reader, note = records.read_parquet(uri, stream, fields, max_record_bytes), None
        else:
            reader, note = records.read_warc(uri, stream, max_record_bytes), None
        count, last = 0, -1
        try:
            for record in reader:
                count, last = count + 1, record.position
                yield _record_row(uri, record)
        except records.FileRefused as refused:
            yield _file_row(uri, found.size, found.sha256, str(refused))
            return
        except Exception as err:  # a reader bug must become a reject, not a failed run
            problem = (
                f"claimhouse could not read this file ({type(err).__name__}: "
                f"{str(err)[:200]}); please report it with the file, then fix or remove it"
            )
            if count == 0:
                yield _file_row(uri, found.size, found.sha256, problem)
                return
            after = records.located(uri, last)
            yield _record_row(
                uri,
                records.Record(last + 1, ParsedFile(None, reason=f"after {after}: {problem}")),
            )
        yield {
            **_file_row(uri, found.size, found.sha256, note),
            "role": "container",
        }


def _file_row(uri: str, size: int, sha: str | None, reason: str | None) -> dict:
    row = dict.fromkeys(_PARSED.fieldNames())
    row.update(source_uri=uri, size_bytes=int(size), content_sha256=sha, reason=reason, role="file")
    return row


def _record_row(uri: str, record: records.Record) -> dict:
    p = record.parsed
    return {
        "source_uri": uri,
        "size_bytes": int(record.size),
        "content_sha256": p.content_sha256,
        "reason": record.skipped or p.reason,
        "article_id": p.article_id,
        "outlet": p.outlet,
        "title": p.title,
        "published_at": p.published_at,
        "url": p.url,
        "body": p.body,
        "published_at_source": p.published_at_source,
        "position": int(record.position),
        "role": "skipped" if record.skipped else "record",
    }


def _read_local(path: str, max_file_bytes: int) -> bytes | None:
    """A local file's bytes; None when it vanished or grew over the limit since the listing
    (as Spark's scan, filtered on length, would give)."""
    try:
        with open(path.removeprefix("file:"), "rb") as fh:
            data = fh.read(max_file_bytes + 1)
    except OSError:
        return None
    return None if len(data) > max_file_bytes else data


def _parse_row(source_uri, size_bytes, content, sidecar_uri, sidecar_content) -> dict:
    if content is None and size_bytes > 0:
        parsed = ParsedFile(None, reason=_VANISHED)
    elif isinstance(sidecar_uri, str) and sidecar_content is None:
        # Ingesting the article without its metadata would lose the outlet and date for good:
        # the next run, once the sidecar is fixed, ingests both.
        parsed = ParsedFile(
            None,
            reason=(
                f"sidecar {sidecar_uri} could not be read (deleted, unreadable, or over the "
                "file size limit): fix it, or remove it to ingest the article without metadata"
            ),
        )
    else:
        # Spark reads no row for a 0-byte file: its content is empty, not missing.
        raw = bytes(content) if content is not None else b""
        side = None if sidecar_content is None else bytes(sidecar_content)
        parsed = parse_file(source_uri, raw, sidecar_uri, side)
    return {
        "source_uri": source_uri,
        "size_bytes": int(size_bytes),
        "content_sha256": parsed.content_sha256,
        "reason": parsed.reason,
        "article_id": parsed.article_id,
        "outlet": parsed.outlet,
        "title": parsed.title,
        "published_at": parsed.published_at,
        "url": parsed.url,
        "body": parsed.body,
        "published_at_source": parsed.published_at_source,
        "position": None,
        "role": "file",
    }


def _classify(files: list[InputFile], max_file_bytes: int) -> tuple[list, list, list, list]:
    """Split the listing into articles (with their sidecar), files of records, sidecars, and
    early rejects. A file of records has no size limit (it is read as a stream); each of its
    records has."""
    rejects = [(f, f.problem) for f in files if f.problem]
    files = [f for f in files if not f.problem]
    by_uri = {f.source_uri: f for f in files}
    articles, sidecars = [], set()
    containers = [f for f in files if records.records_kind(f.source_uri)]
    for f in files:
        stem, suffix = split_suffix(f.source_uri)
        if suffix.lower() not in ARTICLE_SUFFIXES:
            continue
        sidecar = by_uri.get(stem + SIDECAR_SUFFIX)
        if sidecar is not None:
            sidecars.add(sidecar.source_uri)
        if f.size_bytes > max_file_bytes:
            rejects.append(
                (
                    f,
                    f"file too large ({f.size_bytes:,} bytes, over the {max_file_bytes:,}-byte "
                    "limit): split it or raise --max-file-bytes",
                )
            )
        else:
            articles.append((f, sidecar))
    for f in files:
        suffix = split_suffix(f.source_uri)[1].lower()
        if suffix in ARTICLE_SUFFIXES or f.source_uri in sidecars:
            continue
        if records.records_kind(f.source_uri):
            continue
        if suffix == SIDECAR_SUFFIX:
            why = (
                "metadata sidecar with no article of the same name (.txt, .md, .html or .htm) "
                "beside it"
            )
        else:
            kind = suffix or "(no extension)"
            why = f"unsupported file type {kind!r}: claimhouse reads {READS}"
        rejects.append((f, why))
    return articles, containers, sorted(sidecars), rejects


def ingest(
    spark: SparkSession,
    lake: Lake,
    input_dir: Path | str,
    run_id: str,
    max_file_bytes: int,
    settle_s: float = 0.0,
    validate: bool = True,
    fields: FieldMap = DEFAULT_FIELDS,
) -> IngestSummary:
    """Load every file below input_dir into bronze; rerunning on the same files changes nothing.
    A file modified less than settle_s seconds ago (or whose article or sidecar was) may still
    be being written: it is logged as not_settled and left for the next run. `fields` names
    the fields of a JSON Lines or Parquet record that give an article's. The candidate rows
    are checked against bronze's contracts before anything is written (`validate=False` only
    for tests of the ingest rules themselves)."""
    for spec in (BRONZE_ARTICLES, BRONZE_REJECTS, BRONZE_INGEST_LOG):
        lake.ensure(spec)
    now = datetime.now(UTC)
    seen = list_input(spark, input_dir)
    unsettled = unsettled_files(seen, now.timestamp() - settle_s)
    files = [f for f in seen if f.source_uri not in unsettled]
    articles, containers, sidecars, early_rejects = _classify(files, max_file_bytes)
    last = _latest_logged(lake) if (articles or containers) else {}
    unchanged = _unchanged_since_logged(last, articles)
    # A file of records logged (read) before: unchanged, or what a run read of it.
    logged = {f.source_uri: last[f.source_uri] for f in containers if f.source_uri in last}
    unchanged_containers = {
        f.source_uri
        for f in containers
        if f.source_uri in logged
        and f.modified_at is not None
        and logged[f.source_uri][0] == f.size_bytes
        and f.modified_at < logged[f.source_uri][3] / 1_000_000
    }
    containers = [f for f in containers if f.source_uri not in unchanged_containers]
    skipped_sidecars = {
        s.source_uri for f, s in articles if s is not None and f.source_uri in unchanged
    }
    articles = [(f, s) for f, s in articles if f.source_uri not in unchanged]
    read_sidecars = {s.source_uri for _, s in articles if s is not None}
    skipped_sidecars -= read_sidecars
    to_log = [u for u in sidecars if u not in skipped_sidecars]
    n_unchanged = len(unchanged) + len(unchanged_containers)
    if not (articles or containers or early_rejects or unsettled or to_log):
        # Nothing to read, refuse or log: every file is as a run logged it. No Spark job,
        # no contract (the rows there passed when written), no commit.
        quiet = IngestSummary(run_id, len(files), 0, n_unchanged, 0, 0, len(skipped_sidecars))
        if quiet.accounted == quiet.files_seen:
            return quiet

    listing_schema = (
        "source_uri string, path string, size_bytes long, sidecar_uri string, "
        "sidecar_path string, kind string, logged_size long, logged_sha string"
    )
    listing = local_frame(
        spark,
        [
            (f.source_uri, f.path, f.size_bytes, s.source_uri if s else None)
            + (s.path if s else None, None, None, None)
            for f, s in articles
        ]
        + [
            (f.source_uri, f.path, f.size_bytes, None, None, records.records_kind(f.source_uri))
            + (logged.get(f.source_uri, (None, None, None))[0],)
            + (logged.get(f.source_uri, (None, None, None))[2],)
            for f in containers
        ],
        listing_schema,
    )
    wanted = (
        [f for f, _ in articles] + containers + [f for f in files if f.source_uri in read_sidecars]
    )
    if _workers_read_local(wanted):
        parsed = listing.mapInPandas(
            partial(_read_and_parse_batches, fields, max_file_bytes), _PARSED
        )
    else:
        contents = _read_contents(
            spark, input_dir, wanted, max_file_bytes, {f.path for f in containers}
        )
        sidecar_contents = contents.select(
            F.col("path").alias("sidecar_path"), F.col("content").alias("sidecar_content")
        )
        to_parse = (
            listing.join(contents, "path", "left")
            .join(sidecar_contents, "sidecar_path", "left")
            .select(
                "source_uri",
                "size_bytes",
                "content",
                "sidecar_uri",
                "sidecar_content",
                "kind",
                "logged_size",
                "logged_sha",
            )
        )
        parsed = to_parse.mapInPandas(partial(_parse_batches, fields, max_file_bytes), _PARSED)
    parsed = parsed.persist()
    try:
        summary = _build_validate_publish(
            spark,
            lake,
            parsed,
            early_rejects,
            to_log,
            {"unchanged": n_unchanged, "sidecar": len(skipped_sidecars)},
            seen,
            unsettled,
            input_dir,
            run_id,
            now,
            validate,
        )
    finally:
        parsed.unpersist()
    return replace(summary, files_read=len(wanted))


def _unchanged_since_logged(
    last: dict[str, tuple], articles: list[tuple[InputFile, InputFile | None]]
) -> dict[str, tuple[str, str, int]]:
    """Article files (and their sidecars) not modified since a run logged them as an article
    that is still in bronze, with the same size: source_uri -> (article_id, content_sha256,
    size). These are `unchanged` without being read, which keeps a rerun over a large folder
    cheap. `logged_at` is taken before a run reads anything, so a file written during that
    run is read again by the next."""
    unchanged = {}
    for f, s in articles:
        row = last.get(f.source_uri)
        if row is None or f.modified_at is None or (s is not None and s.modified_at is None):
            continue
        size, article_id, sha, logged_us = row
        if article_id is None:  # a file of records by this name once: read it
            continue
        modified = max(f.modified_at, s.modified_at if s else 0.0)
        if size == f.size_bytes and modified < logged_us / 1_000_000:
            unchanged[f.source_uri] = (article_id, sha, size)
    return unchanged


def _latest_logged(lake: Lake) -> dict[str, tuple]:
    """Each file's latest log row as an article still in bronze, or as a file of records:
    source_uri -> (size_bytes, article_id (None for a file of records), content_sha256,
    logged_at in microseconds)."""
    if lake.version(BRONZE_INGEST_LOG.name) == 0:
        return {}
    last = _latest_logged_here(lake)
    return _latest_logged_by_spark(lake) if last is None else last


_LOGGED = (
    "source_uri",
    "size_bytes",
    "article_id",
    "content_sha256",
    "logged_at",
    "outcome",
    "position",
)
# The log rows that say what a file was when a run read it: a file that is one article, or a
# file of records as a whole (its records' rows have a position).
_FILE_OUTCOMES = ("new", "unchanged", "updated", "container")


def _latest_logged_here(lake: Lake) -> dict[str, tuple] | None:
    """Each file's latest log row as an article still in bronze or as a file of records, read
    in this process from the two tables' files (no Spark job: a run over unchanged files then
    runs none); None when they cannot be read so."""
    log = read_local(lake.path(BRONZE_INGEST_LOG.name), list(_LOGGED))
    kept = read_local(lake.path(BRONZE_ARTICLES.name), ["article_id"])
    if log is None or kept is None:
        return None
    present = set(kept.column("article_id").to_pylist())
    last: dict[str, tuple] = {}
    for uri, size, article_id, sha, logged_at, outcome, position in zip(
        *(log.column(c).to_pylist() for c in _LOGGED), strict=True
    ):
        if outcome not in _FILE_OUTCOMES or position is not None:
            continue
        stamp = logged_at.replace(tzinfo=UTC) if logged_at.tzinfo is None else logged_at
        micros = int(stamp.timestamp() * 1_000_000)
        if uri not in last or micros > last[uri][3]:
            last[uri] = (size, article_id, sha, micros, outcome)
    return {uri: row[:4] for uri, row in last.items() if row[1] in present or row[4] == "container"}


def _latest_logged_by_spark(lake: Lake) -> dict[str, tuple]:
    # Each file's latest log row comes to the driver as Arrow columns and is compared with
    # the listing there: one aggregate, no join with a frame of the whole listing.
    latest = F.max_by(
        F.struct(
            "size_bytes",
            "article_id",
            "content_sha256",
            F.unix_micros("logged_at"),
            "outcome",
        ),
        "logged_at",
    )
    present = lake.read(BRONZE_ARTICLES.name).select("article_id", F.lit(True).alias("kept"))
    logged = (
        lake.read(BRONZE_INGEST_LOG.name)
        .where(F.col("outcome").isin(*_FILE_OUTCOMES) & F.col("position").isNull())
        .groupBy("source_uri")
        .agg(latest.alias("l"))
        .select("source_uri", F.col("l.*"))
        .toDF("source_uri", "size_bytes", "article_id", "content_sha256", "logged_us", "outcome")
        .join(present.distinct(), "article_id", "left")
        .where(F.col("kept") | (F.col("outcome") == "container"))
        .toArrow()
        .to_pydict()
    )
    return {
        uri: tuple(row)
        for uri, *row in zip(
            logged["source_uri"],
            logged["size_bytes"],
            logged["article_id"],
            logged["content_sha256"],
            logged["logged_us"],
            strict=True,
        )
    }


_METADATA = ("outlet", "title", "published_at", "url", "published_at_source")


def _pos_key(column: str):
    """A record's position, -1 for a file that is one article: a join key without nulls."""
    return F.coalesce(F.col(column), F.lit(-1).cast("long"))


def _located(uri, position):
    """records.located in Spark: 'news.jsonl line 3', or the uri alone for a file."""
    unit = (
        F.when(uri.rlike(r"(?i)\.(jsonl|ndjson)$"), F.lit("line"))
        .when(uri.rlike(r"(?i)\.parquet$"), F.lit("row"))
        .otherwise(F.lit("byte offset"))
    )
    return F.when(position.isNull(), uri).otherwise(
        F.concat_ws(" ", uri, unit, position.cast("string"))
    )


def reason_kind(reason):
    """A reject reason without its particulars (what to do, names, sizes), to count by:
    "sidecar a.json is not usable JSON (...): fix it" -> "sidecar is not usable JSON"."""
    # A record's reason starts with where it is: "news.jsonl line 3: not valid JSON (...)".
    reason = F.regexp_replace(reason, r"^.*? (?:line|row|byte offset) [0-9]+: ", "")
    head = F.regexp_extract(reason, r"^([^:(]*)", 1)
    head = F.regexp_replace(head, r"sidecar \S+\.\S+", "sidecar")
    return F.trim(F.regexp_replace(head, r"(?<![-\w])[0-9][0-9,.]*", "N"))


def _update_metadata(lake: Lake, updated) -> None:
    """New metadata for articles whose text is unchanged: one Delta version (the old values
    stay readable by time travel). Called only when the run's log counts such articles."""
    rows = updated.select("article_id", *_METADATA)
    target = DeltaTable.forPath(lake.spark, str(lake.path(BRONZE_ARTICLES.name)))
    (
        target.alias("t")
        .merge(rows.alias("s"), "t.article_id = s.article_id")
        .whenMatchedUpdate(set={c: f"s.{c}" for c in _METADATA})
        .execute()
    )


def unsettled_files(files: list[InputFile], settled_before: float) -> set[str]:
    """source_uris modified at or after settled_before: still being copied, perhaps. An article
    and its sidecar wait for each other."""
    fresh = {
        f.source_uri for f in files if f.modified_at is not None and f.modified_at >= settled_before
    }
    waiting = {stem for uri in fresh if (stem := _pair_stem(uri))}
    return fresh | {f.source_uri for f in files if _pair_stem(f.source_uri) in waiting}


def _pair_stem(uri: str) -> str | None:
    """An article's or sidecar's name without its suffix; None for other files."""
    stem, suffix = split_suffix(uri)
    return stem if suffix.lower() in (*ARTICLE_SUFFIXES, SIDECAR_SUFFIX) else None


def split_suffix(uri: str) -> tuple[str, str]:
    """(uri without its suffix, the suffix) of a '/'-separated relative name, as PurePosixPath
    has them ('a/b.tar.gz' -> ('a/b.tar', '.gz'); 'a/.b' and 'a/b.' have none), without
    building a path object for each of a large folder's names."""
    start = uri.rfind("/") + 1
    dot = uri.rfind(".", start)
    if start < dot < len(uri) - 1:
        return uri[:dot], uri[dot:]
    return uri, ""


def _build_validate_publish(
    spark,
    lake,
    parsed,
    early_rejects,
    sidecars,
    skipped,
    files,
    unsettled,
    input_dir,
    run_id,
    now,
    validate,
) -> IngestSummary:
    """The candidate rows of the three tables, their contracts, then the MERGEs. The log holds
    a row for each file this run read or refused; `skipped` counts, by outcome, the files it
    left unread because nothing changed since a run logged them (unchanged articles and their
    sidecars): they are in the run's summary, not the log, which so grows with what changes,
    not with every run."""
    readable = parsed.where(F.col("role").isin("file", "record"))
    ok = readable.where(F.col("reason").isNull()).withColumn("pos_key", _pos_key("position"))
    # Pin the snapshot this run compares against: `decided` is lazy and is evaluated again
    # after the MERGE below, which must not make this run's new articles look unchanged.
    before = lake.version(BRONZE_ARTICLES.name)
    existing_rows = lake.read(BRONZE_ARTICLES.name, version=before)
    existing = existing_rows.select(
        "article_id",
        F.col("source_uri").alias("existing_uri"),
        _pos_key("position").alias("pos_key"),
        _located(F.col("source_uri"), F.col("position")).alias("existing_at"),
        *(F.col(c).alias(f"was_{c}") for c in _METADATA),
    )
    first_existing = existing.groupBy("article_id").agg(
        F.min_by("existing_at", F.struct("existing_uri", "pos_key")).alias("kept_uri")
    )
    # The same text at the same place (a file, or a record's position in its file).
    same_file = (
        existing.drop("existing_at")
        .withColumn("same_file", F.lit(True))
        .withColumnRenamed("existing_uri", "source_uri")
    )
    # The same file, same text, other metadata: its sidecar was corrected or arrived late.
    metadata_changed = F.lit(False)
    for c in _METADATA:
        metadata_changed = metadata_changed | ~F.col(c).eqNullSafe(F.col(f"was_{c}"))
    by_content = Window.partitionBy("article_id").orderBy("source_uri", "pos_key")
    decided = (
        ok.join(first_existing, "article_id", "left")
        .join(same_file, ["article_id", "source_uri", "pos_key"], "left")
        .withColumn("batch_first", F.first(F.struct("source_uri", "pos_key")).over(by_content))
        .withColumn(
            "outcome",
            F.when(F.col("same_file") & metadata_changed, F.lit("updated"))
            .when(F.col("same_file"), F.lit("unchanged"))
            .when(F.col("kept_uri").isNotNull(), F.lit("duplicate"))
            .when(
                (F.col("batch_first.source_uri") == F.col("source_uri"))
                & (F.col("batch_first.pos_key") == F.col("pos_key")),
                F.lit("new"),
            )
            .otherwise(F.lit("duplicate")),
        )
        .withColumn(
            "reason",
            F.when(
                F.col("outcome") == "duplicate",
                F.format_string(
                    "duplicate of article %s (%s): same text after normalization",
                    F.col("article_id"),
                    F.coalesce(
                        "kept_uri",
                        _located(
                            F.col("batch_first.source_uri"),
                            F.when(F.col("batch_first.pos_key") >= 0, F.col("batch_first.pos_key")),
                        ),
                    ),
                ),
            ),
        )
    )
    stamp = F.lit(now).cast("timestamp")
    new_articles = decided.where(F.col("outcome") == "new").select(
        "article_id",
        "source_uri",
        "outlet",
        "title",
        "published_at",
        "url",
        "body",
        F.length("body").cast("int").alias("char_count"),
        "content_sha256",
        stamp.alias("ingested_at"),
        F.lit(run_id).alias("run_id"),
        "published_at_source",
        "position",
    )

    early = (
        local_frame(
            spark,
            [(f.source_uri, why, f.size_bytes) for f, why in early_rejects],
            "source_uri string, reason string, size_bytes long",
        )
        .withColumn("content_sha256", F.lit(None).cast("string"))
        .withColumn("position", F.lit(None).cast("long"))
    )
    parse_rejects = readable.where(F.col("reason").isNotNull()).select(
        "source_uri", "reason", "size_bytes", "content_sha256", "position"
    )
    duplicates = decided.where(F.col("outcome") == "duplicate").select(
        "source_uri", "reason", "size_bytes", "content_sha256", "position"
    )
    new_rejects = (
        early.unionByName(parse_rejects)
        .unionByName(duplicates)
        .select(
            "source_uri",
            "reason",
            "size_bytes",
            "content_sha256",
            "position",
            stamp.alias("rejected_at"),
            F.lit(run_id).alias("run_id"),
        )
    )

    by_uri = {f.source_uri: f for f in files}
    sidecar_rows = local_frame(
        spark, [(u, by_uri[u].size_bytes) for u in sidecars], "source_uri string, size_bytes long"
    ).select(
        "source_uri",
        F.lit("sidecar").alias("outcome"),
        F.lit(None).cast("string").alias("article_id"),
        F.lit(None).cast("string").alias("reason"),
        "size_bytes",
        F.lit(None).cast("string").alias("content_sha256"),
        F.lit(None).cast("long").alias("position"),
    )
    not_read = local_frame(
        spark,
        [
            (
                uri,
                "not_settled",
                None,
                "modified during the last seconds (still being written?): read by the next run",
                by_uri[uri].size_bytes,
                None,
                None,
            )
            for uri in sorted(unsettled)
        ],
        "source_uri string, outcome string, article_id string, reason string, "
        "size_bytes long, content_sha256 string, position long",
    )
    # A file of records read (its own row, position null) and its records that are no article.
    containers_and_skipped = _no_article(
        parsed.where(F.col("role").isin("container", "skipped")), F.col("role")
    )
    log_columns = (
        "source_uri",
        "outcome",
        "article_id",
        "reason",
        "size_bytes",
        "content_sha256",
        "position",
    )
    log = (
        decided.select(*log_columns)
        .unionByName(not_read)
        .unionByName(_no_article(parse_rejects.unionByName(early), F.lit("rejected")))
        .unionByName(sidecar_rows)
        .unionByName(containers_and_skipped)
        .select(
            F.lit(run_id).alias("run_id"),
            F.lit(str(input_dir)).alias("input_dir"),
            *log_columns[:-1],
            stamp.alias("logged_at"),
            log_columns[-1],
        )
        # Computed once here: Delta's append would not read a cached frame, and ran the
        # whole plan again (2 s at 10k).
        .localCheckpoint(eager=True)
    )
    logged: dict[str, int] = {}
    records_read = 0
    for r in (
        log.groupBy("outcome", F.col("position").isNotNull().alias("of_record"))
        .agg(F.count("*").alias("n"))
        .collect()
    ):
        logged[r["outcome"]] = logged.get(r["outcome"], 0) + int(r["n"])
        records_read += int(r["n"]) if r["of_record"] else 0
    counts = {o: logged.get(o, 0) + skipped.get(o, 0) for o in {*logged, *skipped}}
    reasons = {
        r["kind"]: int(r["n"])
        for r in log.where(F.col("outcome") == "rejected")
        .groupBy(reason_kind(F.col("reason")).alias("kind"))
        .agg(F.count("*").alias("n"))
        .collect()
    }
    summary = IngestSummary(
        run_id=run_id,
        files_seen=len(files),
        new_articles=counts.get("new", 0),
        unchanged=counts.get("unchanged", 0),
        duplicates=counts.get("duplicate", 0),
        rejected=counts.get("rejected", 0),
        sidecars=counts.get("sidecar", 0),
        not_settled=counts.get("not_settled", 0),
        updated=counts.get("updated", 0),
        reject_reasons=tuple(sorted(reasons.items(), key=lambda kv: (-kv[1], kv[0]))),
        containers=counts.get("container", 0),
        records=records_read,
        skipped=counts.get("skipped", 0),
    )
    if summary.accounted != summary.files_seen:
        # Nothing is lost: every file seen is an article, a sidecar or a reject. This
        # candidate breaks that, so nothing is published and the run stops loudly.
        raise LakeError(
            f"bronze.ingest_log of run {run_id} accounts for {summary.accounted} of the "
            f"{summary.files_seen} files seen in {input_dir}: this is a claimhouse bug; "
            "please report it with the folder's listing"
        )
    # Validate the candidate: the articles this run adds and its log; the log's rules read
    # bronze.articles and bronze.rejects as this run would leave them. The rows already there
    # passed when they were written (the MERGE on article_id adds only new keys), so a run
    # pays for what it adds; `claimhouse validate` checks every row. A broken `fail` rule
    # publishes nothing, so a rerun of the same folder meets the same failure instead of
    # passing over it.
    if validate:
        will_be = {
            BRONZE_ARTICLES.name: existing_rows.unionByName(new_articles),
            BRONZE_REJECTS.name: lake.read(BRONZE_REJECTS.name).unionByName(new_rejects),
        }
        with candidates(spark, will_be) as bindings:
            enforce_tables(
                spark,
                lake,
                [(BRONZE_ARTICLES.name, new_articles), (BRONZE_INGEST_LOG.name, log)],
                run_id,
                bindings=bindings,
            )
    # Publish: MERGEs on the keys, so a rerun adds nothing; the log last. The log's counts
    # say which MERGEs have rows: a rerun over unchanged files runs none.
    if summary.new_articles:
        lake.merge_insert(BRONZE_ARTICLES, new_articles)
    if summary.updated:
        _update_metadata(lake, decided.where(F.col("outcome") == "updated"))
    if summary.rejected or summary.duplicates:
        lake.merge_insert(BRONZE_REJECTS, new_rejects)
    # run_id is new each run, so a plain append cannot duplicate rows. A run that read
    # and refused nothing commits no empty version.
    if logged:
        lake.append(BRONZE_INGEST_LOG, log)
    return summary


def _build(ctx: RunContext, inputs: Mapping[str, int]) -> IngestSummary:
    s = ctx.settings
    return ingest(
        ctx.spark,
        ctx.lake,
        s.input_dir,
        ctx.run_id,
        s.max_file_bytes,
        s.settle_s,
        fields=s.record_fields,
    )


# Bronze reads a folder, not a Delta table: it never skips itself, and reads only the files
# modified since a run logged them.
UNIT = Unit(
    name="bronze",
    inputs=(),
    outputs=(BRONZE_ARTICLES.name, BRONZE_REJECTS.name, BRONZE_INGEST_LOG.name),
    build=_build,
    doing="ingesting the input folder",
    shown=(BRONZE_ARTICLES.name, BRONZE_REJECTS.name),
    # bronze.ingest_log's rules (every file seen is an article or a reject) guard the articles.
    contracts=(BRONZE_ARTICLES.name, BRONZE_INGEST_LOG.name),
)


def _no_article(frame: DataFrame, outcome: Column) -> DataFrame:
    """ingest_log rows for files or records that made no article."""
    return frame.select(
        "source_uri",
        outcome.alias("outcome"),
        F.lit(None).cast("string").alias("article_id"),
        "reason",
        "size_bytes",
        "content_sha256",
        "position",
    )
