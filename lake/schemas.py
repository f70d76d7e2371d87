"""Every lake table: its name, Spark schema, merge key and one-line description."""

from __future__ import annotations

from dataclasses import dataclass

from pyspark.sql.types import (
    ArrayType,
    BooleanType,
    DoubleType,
    IntegerType,
    LongType,
    MapType,
    StringType,
    StructField,
    StructType,
    TimestampType,
)

# The closed vocabularies of bronze, silver and gold. The contracts and dbt's tests list them
# too (YAML cannot import them): tests/unit/test_vocabularies.py holds those lists to these.
# The claim kinds are not among them: their registry is lake.silver.kinds, a module per kind.
QUALIFIERS = (
    "exact",
    "approximate",
    "at_least",
    "more_than",
    "up_to",
    "almost",
    "vague",
    "range",
)
DATE_GRANULARITIES = ("day", "week", "month", "quarter", "season", "year", "decade")
DATE_RESOLUTIONS = ("stated", "resolved", "unresolved")
ATTRIBUTION_KINDS = (
    "named_person",
    "anonymous_sources",
    "organization",
    "document",
    "media_outlet",
    "unattributed",
)
FACT_STATUSES = ("corroborated", "single_source", "conflicting")
# A claim's frame (silver.claims.frame): the parts of what it states, and the roles a figure
# can play beyond a plain total.
FRAME_PARTS = ("subject", "property", "event", "scope", "role")
FRAME_ROLES = ("part", "target", "estimate", "projection", "record")
# The schema where the SQL endpoint's writers build their own tables (lake.serve).
SANDBOX = "sandbox"
# Where gold.fact_evidence.reported_by came from, best first.
REPORTED_BY_SOURCES = ("outlet", "site", "title", "file")
# Where an article's published_at came from (bronze.articles.published_at_source).
PUBLISHED_AT_SOURCES = ("sidecar", "text")
# What became of a file seen by a run (bronze.ingest_log.outcome).
INGEST_OUTCOMES = (
    "new",
    "unchanged",
    "updated",
    "duplicate",
    "rejected",
    "sidecar",
    "not_settled",
    "container",
    "skipped",
)


# bronze's position column: where a record is in a file holding many articles.
POSITION_DOC = (
    "where a record is in its file: line number (JSON Lines, from 1), row index (Parquet, "
    "from 0) or byte offset (WARC); null for a file that is one article"
)


@dataclass(frozen=True)
class TableSpec:
    name: str  # "<layer>.<table>", also its catalog name
    schema: StructType
    key: tuple[str, ...]  # MERGE key: one row per key value
    description: str
    # Delta table properties the table is created with (and an older table is given).
    properties: tuple[tuple[str, str], ...] = ()
    # The columns worth a look, in order (long text such as a body left out): what Dagster's
    # preview of the table shows.
    preview: tuple[str, ...] = ()

    @property
    def layer(self) -> str:
        return self.name.split(".")[0]

    @property
    def table(self) -> str:
        return self.name.split(".")[1]


def _f(name: str, dtype, nullable: bool = True, doc: str = "") -> StructField:
    return StructField(name, dtype, nullable, {"comment": doc} if doc else {})


BRONZE_ARTICLES = TableSpec(
    name="bronze.articles",
    key=("article_id",),
    description="Raw articles as ingested, one row per distinct normalized body.",
    preview=("source_uri", "outlet", "title", "published_at", "char_count"),
    schema=StructType(
        [
            _f("article_id", StringType(), False, "sha256 of the normalized body"),
            _f("source_uri", StringType(), False, "path relative to the input folder"),
            _f("outlet", StringType(), True, "publisher, where the text or sidecar states it"),
            _f("title", StringType(), True, "from the sidecar or a heading line"),
            _f("published_at", TimestampType(), True, "UTC; from the text or sidecar"),
            _f("url", StringType(), True, "from the sidecar"),
            _f("body", StringType(), False, "normalized text: NFC, LF line ends, trimmed"),
            _f("char_count", IntegerType(), False, "length of body in characters"),
            _f(
                "content_sha256",
                StringType(),
                False,
                "sha256 of the file's bytes (of a record's: its line, its row as JSON, its page)",
            ),
            _f("ingested_at", TimestampType(), False),
            _f("run_id", StringType(), False),
            _f(
                "published_at_source",
                StringType(),
                True,
                "where published_at came from: sidecar (or a record's date field), or text (a "
                "'Published:' line, a page's metadata); null when neither states it (relative "
                "dates then stay unresolved)",
            ),
            _f(
                "position",
                LongType(),
                True,
                POSITION_DOC,
            ),
        ]
    ),
)

BRONZE_REJECTS = TableSpec(
    name="bronze.rejects",
    key=("source_uri", "position", "content_sha256", "reason"),
    description="Input files that could not become articles, with the reason.",
    preview=("source_uri", "reason", "size_bytes"),
    schema=StructType(
        [
            _f("source_uri", StringType(), False, "path relative to the input folder"),
            _f("reason", StringType(), False, "why it was rejected and what to do"),
            _f("size_bytes", LongType(), False),
            _f("content_sha256", StringType(), True, "null when the file was not read"),
            _f("rejected_at", TimestampType(), False),
            _f("run_id", StringType(), False),
            _f("position", LongType(), True, POSITION_DOC),
        ]
    ),
)

BRONZE_INGEST_LOG = TableSpec(
    name="bronze.ingest_log",
    key=("run_id", "source_uri", "position"),
    description=(
        "One row per file a run read or refused, with what became of it (files left unread "
        "because nothing changed are counted in audit.layer_runs.summary)."
    ),
    schema=StructType(
        [
            _f("run_id", StringType(), False),
            _f("input_dir", StringType(), False),
            _f("source_uri", StringType(), False),
            _f(
                "outcome",
                StringType(),
                False,
                "new | unchanged | updated | duplicate | rejected | sidecar | not_settled | "
                "container (a JSON Lines, Parquet or WARC file read; its records have rows of "
                "their own) | skipped (a WARC record that is no HTML page)",
            ),
            _f("article_id", StringType(), True),
            _f("reason", StringType(), True),
            _f("size_bytes", LongType(), False),
            _f("content_sha256", StringType(), True),
            _f("logged_at", TimestampType(), False),
            _f("position", LongType(), True, POSITION_DOC),
        ]
    ),
)

_FRAME_PART = StructType(
    [
        _f("text", StringType(), True, "the words of the sentence it was read from"),
        _f("start", IntegerType(), True, "offset of text into the claim's sentence"),
        _f("end", IntegerType(), True, "sentence[start:end] == text"),
        _f("key", StringType(), True, "the normalized form gold compares (null: none read)"),
    ]
)
_FRAME_DOCS = {
    "subject": "whose number it is, or what it is about",
    "property": "what a number measures, with its modifiers (null for dates and times)",
    "event": "the event a date dates or a number belongs to",
    "scope": "the stated time, place or condition",
    "role": "key: " + " | ".join(FRAME_ROLES) + "; null for a plain figure",
}
FRAME = StructType(
    [_f(part, _FRAME_PART, True, _FRAME_DOCS[part]) for part in FRAME_PARTS]
    + [
        _f(
            "definite",
            BooleanType(),
            True,
            "the frame names its quantity well enough that a differing value is a "
            "disagreement, not another quantity",
        ),
        _f("label", StringType(), True, "the quantity in words, the name of its fact"),
    ]
)

_CLAIM_FIELDS = [
    _f("claim_id", StringType(), False, "sha256 of article_id and span: stable across runs"),
    _f("article_id", StringType(), False, "bronze.articles.article_id"),
    _f("sentence_index", IntegerType(), False),
    _f("char_start", IntegerType(), False, "offset into bronze.articles.body"),
    _f("char_end", IntegerType(), False, "body[char_start:char_end] == claim_text"),
    _f("claim_text", StringType(), False),
    _f("sentence", StringType(), False),
    _f(
        "kind",
        StringType(),
        False,
        "what the claim states: a count, date, money... (lake.silver.kinds; silver.claims' "
        "contract lists every kind)",
    ),
    _f(
        "value",
        DoubleType(),
        True,
        "null for dates, vague amounts, ranges and times of unknown UTC offset; a time's "
        "minutes after midnight UTC",
    ),
    _f(
        "value_text",
        StringType(),
        True,
        "number, ISO date, --MM-DD, a date range a/b, an ISO 8601 duration (P14M, PT48H) or "
        "local time with its UTC offset when known (21:30-04:00, 21:30)",
    ),
    _f("lower", DoubleType(), True, "bound implied by the qualifier"),
    _f("upper", DoubleType(), True, "bound implied by the qualifier"),
    _f(
        "qualifier",
        StringType(),
        False,
        "exact | approximate | at_least | more_than | up_to | almost | vague | range",
    ),
    _f(
        "unit",
        StringType(),
        True,
        "normalized plural noun; a duration's or age's time unit as stated (days, months...); "
        "UTC for a time whose value is in UTC; money's ISO 4217 currency code when stated (USD)",
    ),
    _f("per", StringType(), True, "period of a rate"),
    _f("subject", StringType(), True, "the counted noun phrase as written"),
    _f("measure_key", StringType(), False, "what is measured, for grouping into facts"),
    _f("measure_terms", ArrayType(StringType()), True, "the terms measure_key was built from"),
    _f("date_start", StringType(), True, "first day a date claim can mean"),
    _f("date_end", StringType(), True, "last day a date claim can mean"),
    _f(
        "date_granularity",
        StringType(),
        True,
        "dates: day | week | month | quarter | season | year | decade",
    ),
    _f(
        "date_resolution",
        StringType(),
        True,
        "dates: stated (the text names it) | resolved (relative, counted from the publication "
        "date) | unresolved (relative, and the article has no publication date)",
    ),
    _f(
        "date_reference",
        StringType(),
        True,
        "dates: the publication day used to resolve it or to give a stated day its year",
    ),
    _f("attribution", StringType(), True, "the source as written in the article"),
    _f(
        "attribution_kind",
        StringType(),
        False,
        "named_person | anonymous_sources | organization | document | media_outlet | unattributed",
    ),
    _f("cited_outlet", StringType(), True, "outlet the claim is credited to"),
    _f("reporting_outlet", StringType(), True, "bronze.articles.outlet"),
    _f(
        "frame",
        FRAME,
        True,
        "what the claim states: subject, property, event, scope and role, each the words it "
        "came from (offsets into sentence) and a key; a part not found is null",
    ),
    _f("extractor_version", StringType(), False),
    _f("extracted_at", TimestampType(), False),
    _f("run_id", StringType(), False),
]

# Gold rebuilds the stories whose silver rows changed, read from Delta's change data feed of
# these tables (dbt_project/models/intermediate/int_stories_touched.sql).
CHANGE_FEED = (("delta.enableChangeDataFeed", "true"),)

SILVER_CLAIMS = TableSpec(
    name="silver.claims",
    key=("claim_id",),
    description="Numeric and date claims of every article sentence, with span and source.",
    preview=("claim_text", "kind", "value", "unit", "measure_key", "attribution_kind"),
    schema=StructType(_CLAIM_FIELDS),
    properties=CHANGE_FEED,
)

SILVER_CLAIMS_QUARANTINE = TableSpec(
    name="silver.claims_quarantine",
    key=("claim_id", "extractor_version"),
    description="Extracted claims that broke a silver rule, with the rules they broke.",
    preview=("claim_text", "kind", "measure_key", "rules_broken"),
    schema=StructType(
        [StructField(f.name, f.dataType, True, f.metadata) for f in _CLAIM_FIELDS]
        + [_f("rules_broken", ArrayType(StringType()), False, "rule: what was wrong")]
    ),
)

SILVER_EXTRACTIONS = TableSpec(
    name="silver.extractions",
    key=("article_id", "extractor_version"),
    description="Which articles each extractor version has processed: makes runs incremental.",
    schema=StructType(
        [
            _f("article_id", StringType(), False),
            _f("extractor_version", StringType(), False),
            _f("claims", IntegerType(), False),
            _f("quarantined", IntegerType(), False),
            _f("extracted_at", TimestampType(), False),
            _f("run_id", StringType(), False),
            _f(
                "error",
                StringType(),
                True,
                "why no claims were extracted (an extractor error or its time budget); "
                "null when extraction ran. A new extractor version tries the article again",
            ),
            _f(
                "published_at",
                TimestampType(),
                True,
                "the article's publication time this extraction resolved relative dates against",
            ),
            _f("outlet", StringType(), True, "the article's outlet this extraction used"),
        ]
    ),
)

SILVER_ARTICLE_STORIES = TableSpec(
    name="silver.article_stories",
    key=("article_id",),
    description="Which story (articles about the same event) each bronze article belongs to.",
    preview=("story_id", "article_id", "story_size", "story_method"),
    properties=CHANGE_FEED,
    schema=StructType(
        [
            _f("article_id", StringType(), False),
            _f("story_id", StringType(), False, "smallest article_id when the story was formed"),
            _f("story_size", IntegerType(), False, "articles in the story"),
            _f("story_method", StringType(), False, "lake.silver.stories.STORY_METHOD"),
            _f("grouped_at", TimestampType(), False),
            _f("run_id", StringType(), False, "the run that last changed this row"),
        ]
    ),
)

SILVER_ARTICLE_TERMS = TableSpec(
    name="silver.article_terms",
    key=("article_id",),
    description="Each article's distinct words and specific figures, as story grouping reads "
    "them: tokenized once, when the article first arrives.",
    schema=StructType(
        [
            _f("article_id", StringType(), False),
            _f(
                "terms",
                ArrayType(
                    StructType(
                        [
                            # Delta keeps no NOT NULL inside arrays.
                            _f("term", StringType(), True, "lower-cased word, or '#' + digits"),
                            _f("proper", BooleanType(), True, "capitalized inside a sentence"),
                            _f("lower_seen", BooleanType(), True, "written in lower case"),
                        ]
                    ),
                    True,
                ),
                False,
            ),
            _f("terms_method", StringType(), False, "lake.silver.stories.TERMS_METHOD"),
            _f("run_id", StringType(), False),
        ]
    ),
)

AUDIT_LAYER_RUNS = TableSpec(
    name="audit.layer_runs",
    key=("run_id", "unit", "finished_at"),
    description=(
        "One row per layer unit that built something: the input versions it read, the versions "
        "it wrote, and whether its candidate was published."
    ),
    schema=StructType(
        [
            _f("run_id", StringType(), False),
            _f(
                "unit",
                StringType(),
                False,
                "bronze | silver.claims | silver.stories | gold | maintenance",
            ),
            _f(
                "status",
                StringType(),
                False,
                "published | rejected (a fail rule broke) | failed | interrupted (Ctrl-C, SIGTERM)",
            ),
            _f("code_version", StringType(), True, "extractor version, dbt project digest..."),
            _f(
                "inputs",
                MapType(StringType(), LongType()),
                True,
                "Delta version of each table read, pinned at the unit's start",
            ),
            _f(
                "outputs",
                MapType(StringType(), LongType()),
                True,
                "Delta version of each table written (gold: every table dbt built, and the "
                "release)",
            ),
            _f("started_at", TimestampType(), False),
            _f("finished_at", TimestampType(), False),
            _f("summary", StringType(), True, "the unit's summary as JSON"),
            _f("error", StringType(), True, "why the candidate was not published"),
        ]
    ),
)


@dataclass(frozen=True)
class ReportSpec:
    """A view over a release's published tables, for people: no build of its own, so it is
    always of the release its tables show. `sql` names them as readers do (gold.facts)."""

    name: str
    description: str
    columns: tuple[tuple[str, str], ...]  # (column, comment), in the order `sql` selects them
    sql: str


@dataclass(frozen=True)
class ReleaseSpec:
    """A layer whose tables readers see only as published releases. Its tables are built
    elsewhere (`<build_layer>.<table>`: the candidate), and publishing copies a validated
    candidate into ONE Delta table, `store`, in one commit: a row per row of every table,
    `relation` naming its table and a struct column per table holding it. `<layer>.<table>`
    is a view of that table's rows. A query reads one snapshot of one Delta table however
    many of the views it joins (Delta pins a table's snapshot per query), so a reader never
    sees tables of two releases together, and every process sees a new release at once."""

    layer: str
    build_layer: str
    store: str
    unit: str
    tables: tuple[str, ...]
    reports: tuple[ReportSpec, ...] = ()
    # Readers without Spark (delta-rs, Polars) cannot filter and unpack `store`: each table is
    # also a plain Delta table (`plain`), and the manifest names the version of each that
    # holds a release, so such a reader can pin all of them at one release.
    manifest: TableSpec | None = None

    def report(self, name: str) -> ReportSpec | None:
        return next((r for r in self.reports if r.name == name), None)

    def plain(self, table: str) -> str:
        """The table's plain copy, a Delta table beside the release table
        (gold_release.facts at <warehouse>/gold_release/facts)."""
        return f"{self.store.split('.')[0]}.{table}"

    @property
    def plain_tables(self) -> tuple[str, ...]:
        return tuple(self.plain(t) for t in self.tables) if self.manifest else ()

    def published(self, table: str) -> str:
        return f"{self.layer}.{table}"

    def built(self, table: str) -> str:
        return f"{self.build_layer}.{table}"


CONFLICTS_REPORT = ReportSpec(
    name="conflicts_report",
    description=(
        "One row per claim on either side of each conflict of gold.fact_conflicts, with what a "
        "person needs to judge it: the outlet, title, file and date of its article, the "
        "sentence it was read from and who the article credits it to."
    ),
    columns=(
        ("conflict_id", "the conflict (gold.fact_conflicts.conflict_id)"),
        ("fact_id", "the conflicting fact (gold.facts.fact_id)"),
        ("measure_key", "what the fact measures"),
        ("label", "the fact in words, from its frame (what, which event, whose)"),
        ("matched_parts", "the frame parts both sides state alike: why they were matched"),
        ("match_confidence", "matched_parts over the parts either side states (0 to 1)"),
        ("side", "a (the better-supported value) or b"),
        ("side_value", "this side's value, as a person reads it (dates in words)"),
        ("other_value", "the other side's value, as a person reads it"),
        ("claim_value", "the claim's own value, as a person reads it"),
        ("claim_text", "the mention as written"),
        ("subject", "whose the claim's number is, as its sentence says"),
        ("property", "what the claim measures, as written"),
        ("event", "the event the claim dates or belongs to, as written"),
        ("scope", "the claim's stated time, place or condition"),
        ("quote", "the sentence the claim was read from"),
        ("attribution", "who the article credits the claim to; null when nobody"),
        ("outlet", "the outlet that published the article, where known"),
        ("reported_by", "who published it as a reader is told: outlet, site, title or file"),
        ("reported_by_source", "where reported_by came from: outlet, site, title or file"),
        ("cited_outlet", "the outlet the claim is credited to, when another"),
        ("title", "the article's title"),
        ("source_file", "the article's file, relative to the input folder"),
        ("published_at", "when the article was published, where stated"),
        ("article_id", "the article (bronze.articles.article_id)"),
        ("claim_id", "the claim (gold.fact_evidence.claim_id, silver.claims.claim_id)"),
        ("char_start", "offset of the mention in the article body"),
        ("char_end", "end offset of the mention in the article body"),
    ),
    sql="""
        WITH sides AS (
            SELECT conflict_id, fact_id, measure_key, matched_parts, match_confidence,
                   'a' AS side, value_a_readable AS side_value, value_b_readable AS other_value,
                   explode(claims_a) AS claim_id
            FROM gold.fact_conflicts
            UNION ALL
            SELECT conflict_id, fact_id, measure_key, matched_parts, match_confidence, 'b',
                   value_b_readable, value_a_readable, explode(claims_b)
            FROM gold.fact_conflicts
        )
        SELECT s.conflict_id, s.fact_id, s.measure_key, f.label, s.matched_parts,
               s.match_confidence, s.side, s.side_value, s.other_value,
               e.value_readable AS claim_value, e.claim_text, e.subject, e.property, e.event,
               e.scope, e.quote,
               e.attribution, e.reporting_outlet AS outlet, e.reported_by,
               e.reported_by_source, e.cited_outlet, e.title,
               e.source_file, e.published_at, e.article_id, e.claim_id, e.char_start, e.char_end
        FROM sides AS s
        INNER JOIN gold.fact_evidence AS e ON e.fact_id = s.fact_id AND e.claim_id = s.claim_id
        INNER JOIN gold.facts AS f ON f.fact_id = s.fact_id
    """,
)

GOLD_RELEASE_MANIFEST = TableSpec(
    name="gold_release.manifest",
    key=("release_id", "table_name"),
    description=(
        "One row per gold table per published release: the plain Delta table holding it and "
        "its version there. A release's rows are appended in one commit after its tables are "
        "written, so every row names a finished version; the latest release is the one with "
        "the highest release_version."
    ),
    preview=("release_id", "published_at", "release_version", "table_name", "path", "version"),
    schema=StructType(
        [
            _f("release_id", StringType(), False, "the run that published the release"),
            _f("published_at", TimestampType(), False, "when it was published (UTC)"),
            _f(
                "release_version",
                LongType(),
                False,
                "version of gold_release.tables holding the release (what the gold.* views "
                "read); grows with every release",
            ),
            _f("table_name", StringType(), False, "facts | fact_evidence | fact_conflicts"),
            _f(
                "path",
                StringType(),
                False,
                "the plain Delta table, relative to the warehouse (gold_release/facts)",
            ),
            _f("version", LongType(), False, "the plain table's Delta version holding the release"),
        ]
    ),
)

GOLD_RELEASE = ReleaseSpec(
    layer="gold",
    build_layer="gold_build",
    store="gold_release.tables",
    unit="gold",
    tables=("facts", "fact_evidence", "fact_conflicts"),
    reports=(CONFLICTS_REPORT,),
    manifest=GOLD_RELEASE_MANIFEST,
)
# Published gold as readers name it (views) and as dbt builds it (Delta tables).
GOLD_TABLES = tuple(GOLD_RELEASE.published(t) for t in GOLD_RELEASE.tables)
GOLD_BUILD_TABLES = tuple(GOLD_RELEASE.built(t) for t in GOLD_RELEASE.tables)

TABLES: dict[str, TableSpec] = {
    spec.name: spec
    for spec in (
        BRONZE_ARTICLES,
        BRONZE_REJECTS,
        BRONZE_INGEST_LOG,
        SILVER_CLAIMS,
        SILVER_CLAIMS_QUARANTINE,
        SILVER_EXTRACTIONS,
        SILVER_ARTICLE_TERMS,
        SILVER_ARTICLE_STORIES,
    )
}
