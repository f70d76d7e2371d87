"""Input folder -> bronze.articles, bronze.rejects and bronze.ingest_log, idempotently.

The driver lists file names and sizes only; executors read and parse the contents
(`binaryFile` + `mapInPandas`) and Delta MERGEs write the results.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from functools import partial
from pathlib import Path, PurePosixPath
from stat import S_ISREG

import pandas as pd
from delta.tables import DeltaTable
from pyspark.errors import AnalysisException
from pyspark.sql import SparkSession, Window
from pyspark.sql import functions as F
from pyspark.sql.types import LongType, StringType, StructField, StructType, TimestampType

from lake.bronze.parse import ARTICLE_SUFFIXES, READS, SIDECAR_SUFFIX, ParsedFile, parse_file
from lake.contracts.enforce import candidates, enforce_tables
from lake.layer import RunContext, Unit
from lake.schemas import BRONZE_ARTICLES, BRONZE_INGEST_LOG, BRONZE_REJECTS
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

    @property
    def articles_seen(self) -> int:
        """Files of this run that are articles: new, unchanged, duplicate or updated."""
        return self.new_articles + self.unchanged + self.duplicates + self.updated

    @property
    def accounted(self) -> int:
        return (
            self.new_articles
            + self.unchanged
            + self.duplicates
            + self.rejected
            + self.sidecars
            + self.not_settled
            + self.updated
        )

    def describe(self) -> str:
        """One line for the CLI and Dagster's run log: how every file was accounted for."""
        why = "; ".join(f"{n} {kind}" for kind, n in self.reject_reasons)
        return (
            f"bronze: {self.files_seen} files seen = {self.new_articles} new articles + "
            f"{self.unchanged} unchanged + {self.duplicates} duplicates + "
            f"{self.rejected} rejected + {self.sidecars} sidecars"
            + (f" + {self.updated} with new metadata" if self.updated else "")
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
        if any(part.startswith(".") for part in PurePosixPath(rel).parts):
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


def _workers_read_local(wanted: list[InputFile]) -> bool:
    """Local files are opened by the workers themselves (a cluster's workers see the input
    folder at the same path): no Hadoop scan of the folder, no shuffle pairing each file with
    its sidecar. Other file systems are read by Spark's binaryFile scan."""
    return all(f.path.startswith("file:") for f in wanted)


def _read_contents(spark: SparkSession, input_dir, wanted: list[InputFile], max_bytes: int):
    """path -> content for the wanted files of a remote folder (hdfs:, s3a:...). One directory
    scan reads them in parallel. Spark's listing skips names starting with '_', even by name:
    those get no content, so they are rejected with a reason saying so."""
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
    return found.where(F.col("length") <= max_bytes).select("path", "content")


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
    ]
)


_VANISHED = (
    "file could not be read (moved or deleted during ingestion, or a name starting with '_' "
    "on a remote file system, which Spark skips): check it and run again"
)


def _parse_batches(batches: Iterator[pd.DataFrame]) -> Iterator[pd.DataFrame]:
    """Rows with their content (and their sidecar's) read by Spark -> _PARSED rows."""
    for batch in batches:
        rows = [
            _parse_row(r.source_uri, r.size_bytes, r.content, r.sidecar_uri, r.sidecar_content)
            for r in batch.itertuples(index=False)
        ]
        yield pd.DataFrame(rows, columns=_PARSED.fieldNames())


def _read_and_parse_batches(
    max_file_bytes: int, batches: Iterator[pd.DataFrame]
) -> Iterator[pd.DataFrame]:
    """Listing rows of local files -> _PARSED rows; the worker reads each file and sidecar."""
    for batch in batches:
        rows = [
            _parse_row(
                r.source_uri,
                r.size_bytes,
                _read_local(r.path, max_file_bytes),
                r.sidecar_uri,
                # Arrow hands a column of nulls to pandas as NaN: test for a str.
                _read_local(r.sidecar_path, max_file_bytes)
                if isinstance(r.sidecar_path, str)
                else None,
            )
            for r in batch.itertuples(index=False)
        ]
        yield pd.DataFrame(rows, columns=_PARSED.fieldNames())


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
    }


def _classify(files: list[InputFile], max_file_bytes: int) -> tuple[list, list, list]:
    """Split the listing into articles (with their sidecar), sidecars, and early rejects."""
    rejects = [(f, f.problem) for f in files if f.problem]
    files = [f for f in files if not f.problem]
    by_uri = {f.source_uri: f for f in files}
    articles, sidecars = [], set()
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
        if suffix == SIDECAR_SUFFIX:
            why = (
                "metadata sidecar with no article of the same name (.txt, .md, .html or .htm) "
                "beside it"
            )
        else:
            kind = suffix or "(no extension)"
            why = f"unsupported file type {kind!r}: claimhouse reads {READS}"
        rejects.append((f, why))
    return articles, sorted(sidecars), rejects


def ingest(
    spark: SparkSession,
    lake: Lake,
    input_dir: Path | str,
    run_id: str,
    max_file_bytes: int,
    settle_s: float = 0.0,
    validate: bool = True,
) -> IngestSummary:
    """Load every file below input_dir into bronze; rerunning on the same files changes nothing.
    A file modified less than settle_s seconds ago (or whose article or sidecar was) may still
    be being written: it is logged as not_settled and left for the next run. The candidate
    rows are checked against bronze's contracts before anything is written (`validate=False`
    only for tests of the ingest rules themselves)."""
    for spec in (BRONZE_ARTICLES, BRONZE_REJECTS, BRONZE_INGEST_LOG):
        lake.ensure(spec)
    now = datetime.now(UTC)
    seen = list_input(spark, input_dir)
    unsettled = unsettled_files(seen, now.timestamp() - settle_s)
    files = [f for f in seen if f.source_uri not in unsettled]
    articles, sidecars, early_rejects = _classify(files, max_file_bytes)
    unchanged = _unchanged_since_logged(lake, articles)
    skipped_sidecars = {
        s.source_uri for f, s in articles if s is not None and f.source_uri in unchanged
    }
    articles = [(f, s) for f, s in articles if f.source_uri not in unchanged]
    read_sidecars = {s.source_uri for _, s in articles if s is not None}
    skipped_sidecars -= read_sidecars
    to_log = [u for u in sidecars if u not in skipped_sidecars]
    if not (articles or early_rejects or unsettled or to_log):
        # Nothing to read, refuse or log: every file is as a run logged it. No Spark job,
        # no contract (the rows there passed when written), no commit.
        quiet = IngestSummary(run_id, len(files), 0, len(unchanged), 0, 0, len(skipped_sidecars))
        if quiet.accounted == quiet.files_seen:
            return quiet

    listing_schema = (
        "source_uri string, path string, size_bytes long, sidecar_uri string, sidecar_path string"
    )
    listing = spark.createDataFrame(
        [
            (f.source_uri, f.path, f.size_bytes, s.source_uri if s else None, s.path if s else None)
            for f, s in articles
        ],
        listing_schema,
    )
    wanted = [f for f, _ in articles] + [f for f in files if f.source_uri in read_sidecars]
    if _workers_read_local(wanted):
        parsed = listing.mapInPandas(partial(_read_and_parse_batches, max_file_bytes), _PARSED)
    else:
        contents = _read_contents(spark, input_dir, wanted, max_file_bytes)
        sidecar_contents = contents.select(
            F.col("path").alias("sidecar_path"), F.col("content").alias("sidecar_content")
        )
        to_parse = (
            listing.join(contents, "path", "left")
            .join(sidecar_contents, "sidecar_path", "left")
            .select("source_uri", "size_bytes", "content", "sidecar_uri", "sidecar_content")
        )
        parsed = to_parse.mapInPandas(_parse_batches, _PARSED)
    parsed = parsed.persist()
    try:
        summary = _build_validate_publish(
            spark,
            lake,
            parsed,
            early_rejects,
            to_log,
            {"unchanged": len(unchanged), "sidecar": len(skipped_sidecars)},
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
    lake: Lake, articles: list[tuple[InputFile, InputFile | None]]
) -> dict[str, tuple[str, str, int]]:
    """Article files (and their sidecars) not modified since a run logged them as an article
    that is still in bronze, with the same size: source_uri -> (article_id, content_sha256,
    size). These are `unchanged` without being read, which keeps a rerun over a large folder
    cheap. `logged_at` is taken before a run reads anything, so a file written during that
    run is read again by the next."""
    if not articles or lake.version(BRONZE_INGEST_LOG.name) == 0:
        return {}
    last = _latest_logged_here(lake)
    if last is None:
        last = _latest_logged_by_spark(lake)
    unchanged = {}
    for f, s in articles:
        row = last.get(f.source_uri)
        if row is None or f.modified_at is None or (s is not None and s.modified_at is None):
            continue
        size, article_id, sha, logged_us = row
        modified = max(f.modified_at, s.modified_at if s else 0.0)
        if size == f.size_bytes and modified < logged_us / 1_000_000:
            unchanged[f.source_uri] = (article_id, sha, size)
    return unchanged


_LOGGED = ("source_uri", "size_bytes", "article_id", "content_sha256", "logged_at", "outcome")


def _latest_logged_here(lake: Lake) -> dict[str, tuple] | None:
    """Each file's latest log row as an article still in bronze, read in this process from
    the two tables' files (no Spark job: a run over unchanged files then runs none); None when
    they cannot be read so."""
    log = read_local(lake.path(BRONZE_INGEST_LOG.name), list(_LOGGED))
    kept = read_local(lake.path(BRONZE_ARTICLES.name), ["article_id"])
    if log is None or kept is None:
        return None
    present = set(kept.column("article_id").to_pylist())
    last: dict[str, tuple] = {}
    for uri, size, article_id, sha, logged_at, outcome in zip(
        *(log.column(c).to_pylist() for c in _LOGGED), strict=True
    ):
        if outcome not in ("new", "unchanged", "updated"):
            continue
        stamp = logged_at.replace(tzinfo=UTC) if logged_at.tzinfo is None else logged_at
        micros = int(stamp.timestamp() * 1_000_000)
        if uri not in last or micros > last[uri][3]:
            last[uri] = (size, article_id, sha, micros)
    return {uri: row for uri, row in last.items() if row[1] in present}


def _latest_logged_by_spark(lake: Lake) -> dict[str, tuple]:
    # Each file's latest log row comes to the driver as Arrow columns and is compared with
    # the listing there: one aggregate, no join with a frame of the whole listing.
    latest = F.max_by(
        F.struct("size_bytes", "article_id", "content_sha256", F.unix_micros("logged_at")),
        "logged_at",
    )
    logged = (
        lake.read(BRONZE_INGEST_LOG.name)
        .where(F.col("outcome").isin("new", "unchanged", "updated"))
        .groupBy("source_uri")
        .agg(latest.alias("l"))
        .select("source_uri", F.col("l.*"))
        .toDF("source_uri", "size_bytes", "article_id", "content_sha256", "logged_us")
        .join(lake.read(BRONZE_ARTICLES.name).select("article_id"), "article_id", "left_semi")
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


def reason_kind(reason):
    """A reject reason without its particulars (what to do, names, sizes), to count by:
    "sidecar a.json is not usable JSON (...): fix it" -> "sidecar is not usable JSON"."""
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
    ok = parsed.where(F.col("reason").isNull())
    # Pin the snapshot this run compares against: `decided` is lazy and is evaluated again
    # after the MERGE below, which must not make this run's new articles look unchanged.
    before = lake.version(BRONZE_ARTICLES.name)
    existing_rows = lake.read(BRONZE_ARTICLES.name, version=before)
    existing = existing_rows.select(
        "article_id",
        F.col("source_uri").alias("existing_uri"),
        *(F.col(c).alias(f"was_{c}") for c in _METADATA),
    )
    first_existing = existing.groupBy("article_id").agg(F.min("existing_uri").alias("kept_uri"))
    same_file = existing.withColumn("same_file", F.lit(True)).withColumnRenamed(
        "existing_uri", "source_uri"
    )
    # The same file, same text, other metadata: its sidecar was corrected or arrived late.
    metadata_changed = F.lit(False)
    for c in _METADATA:
        metadata_changed = metadata_changed | ~F.col(c).eqNullSafe(F.col(f"was_{c}"))
    by_content = Window.partitionBy("article_id").orderBy("source_uri")
    decided = (
        ok.join(first_existing, "article_id", "left")
        .join(same_file, ["article_id", "source_uri"], "left")
        .withColumn("batch_first", F.first("source_uri").over(by_content))
        .withColumn(
            "outcome",
            F.when(F.col("same_file") & metadata_changed, F.lit("updated"))
            .when(F.col("same_file"), F.lit("unchanged"))
            .when(F.col("kept_uri").isNotNull(), F.lit("duplicate"))
            .when(F.col("batch_first") == F.col("source_uri"), F.lit("new"))
            .otherwise(F.lit("duplicate")),
        )
        .withColumn(
            "reason",
            F.when(
                F.col("outcome") == "duplicate",
                F.format_string(
                    "duplicate of article %s (%s): same text after normalization",
                    F.col("article_id"),
                    F.coalesce("kept_uri", "batch_first"),
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
    )

    early = spark.createDataFrame(
        [(f.source_uri, why, f.size_bytes) for f, why in early_rejects],
        "source_uri string, reason string, size_bytes long",
    ).withColumn("content_sha256", F.lit(None).cast("string"))
    parse_rejects = parsed.where(F.col("reason").isNotNull()).select(
        "source_uri", "reason", "size_bytes", "content_sha256"
    )
    duplicates = decided.where(F.col("outcome") == "duplicate").select(
        "source_uri", "reason", "size_bytes", "content_sha256"
    )
    new_rejects = (
        early.unionByName(parse_rejects)
        .unionByName(duplicates)
        .select(
            "source_uri",
            "reason",
            "size_bytes",
            "content_sha256",
            stamp.alias("rejected_at"),
            F.lit(run_id).alias("run_id"),
        )
    )

    by_uri = {f.source_uri: f for f in files}
    sidecar_rows = spark.createDataFrame(
        [(u, by_uri[u].size_bytes) for u in sidecars], "source_uri string, size_bytes long"
    ).select(
        "source_uri",
        F.lit("sidecar").alias("outcome"),
        F.lit(None).cast("string").alias("article_id"),
        F.lit(None).cast("string").alias("reason"),
        "size_bytes",
        F.lit(None).cast("string").alias("content_sha256"),
    )
    not_read = spark.createDataFrame(
        [
            (
                uri,
                "not_settled",
                None,
                "modified during the last seconds (still being written?): read by the next run",
                by_uri[uri].size_bytes,
                None,
            )
            for uri in sorted(unsettled)
        ],
        "source_uri string, outcome string, article_id string, reason string, "
        "size_bytes long, content_sha256 string",
    )
    log = (
        decided.select(
            "source_uri", "outcome", "article_id", "reason", "size_bytes", "content_sha256"
        )
        .unionByName(not_read)
        .unionByName(
            parse_rejects.unionByName(early).select(
                "source_uri",
                F.lit("rejected").alias("outcome"),
                F.lit(None).cast("string").alias("article_id"),
                "reason",
                "size_bytes",
                "content_sha256",
            )
        )
        .unionByName(sidecar_rows)
        .select(
            F.lit(run_id).alias("run_id"),
            F.lit(str(input_dir)).alias("input_dir"),
            "source_uri",
            "outcome",
            "article_id",
            "reason",
            "size_bytes",
            "content_sha256",
            stamp.alias("logged_at"),
        )
        # Computed once here: Delta's append would not read a cached frame, and ran the
        # whole plan again (2 s at 10k).
        .localCheckpoint(eager=True)
    )
    logged = {
        r["outcome"]: int(r["n"])
        for r in log.groupBy("outcome").agg(F.count("*").alias("n")).collect()
    }
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
    return ingest(ctx.spark, ctx.lake, s.input_dir, ctx.run_id, s.max_file_bytes, s.settle_s)


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
