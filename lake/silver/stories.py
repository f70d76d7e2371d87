"""Group bronze's articles into stories: articles about the same event, so that gold reconciles
claims per story ("deaths" in one flood and in another storm are two facts, not a conflict).

Two articles are linked when
  - their words agree: cosine of binary TF-IDF vectors >= LINK_THRESHOLD, where proper names
    (capitalized inside a sentence and never written in lower case in the corpus) weigh
    PROPER_NAME_WEIGHT times a common word, and words in more than MAX_DF_SHARE of the articles
    are left out;
  - they name the same rare things: the shared proper names' (and specific figures', below)
    evidence, sum(ln((N + N0) / df)),
    is >= MIN_NAME_EVIDENCE, where N and df count the articles of the pair's date window (its
    WINDOW_DAYS bucket and the two beside it; the whole corpus for undated articles): a town
    named in hundreds of articles over the years still singles out this week's story about
    it. N0 pseudo-articles that name none of them keep the weight meaningful on a handful of
    articles; template words shared by every story about a flood do not link two floods;
  - they were published within WINDOW_DAYS of each other (when both carry a date).
A specific figure ("32,824", "1,190,000": three or more digits, not a round number such as
5,000, not a year) counts as a proper name: articles about one event repeat its figures, and
an article that names nobody is still tied to its event by them.
Stories are then formed by average linkage over those links: two groups merge while the mean
similarity over all their pairs of articles (missing links count 0) is >= LINK_THRESHOLD, so
one stray link does not chain two stories together.

The grouping is recomputed over every article each run (a new article can join or bridge
stories); a story's id is its smallest article_id.
"""

from __future__ import annotations

import heapq
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime

import pandas as pd
from pyspark.sql import DataFrame, SparkSession
from pyspark.sql import functions as F
from pyspark.sql.types import BooleanType, StringType, StructField, StructType

from lake.schemas import BRONZE_ARTICLES, SILVER_ARTICLE_STORIES
from lake.storage import Lake

STORY_METHOD = "stories-3"  # 2: name evidence counted per date window; 3: figures as names
LINK_THRESHOLD = 0.1
PROPER_NAME_WEIGHT = 2.0
MAX_DF_SHARE = 0.05  # words in more than 5% of articles (at least 50) carry no story signal
MIN_DF_CAP = 50
MIN_NAME_EVIDENCE = 10.0
PSEUDO_ARTICLES = 1000  # N0
WINDOW_DAYS = 14

_WORD = re.compile(r"[A-Za-z][A-Za-z'’\-]{2,}")
_SENTENCE_BREAK = re.compile(r"(?<=[.!?”\"])\s+|\n+")
_OPENERS = " “\"‘'(—–-"
# Digits with optional thousands separators, not part of a longer number or a decimal.
_FIGURE = re.compile(r"(?<![\d.,])(?:\d{1,3}(?:,\d{3})+|\d{3,})(?![\d,]|\.\d)")
# Function words: frequent everywhere, so IDF would weigh them little anyway; dropping them
# keeps the term table small.
_STOPWORDS = """the and for that with from this have has had was were are will would said says
not but they their them been its into than about after over more also who which when what while
where there other some out new one two three four five six"""
_STOP = frozenset(_STOPWORDS.split())

_TERMS = StructType(
    [
        StructField("article_id", StringType(), False),
        StructField("term", StringType(), False),
        StructField("proper", BooleanType(), False),  # capitalized inside a sentence
        StructField("lower_seen", BooleanType(), False),  # written in lower case here
    ]
)


def article_terms(text: str) -> dict[str, tuple[bool, bool]]:
    """Distinct lower-cased words of one article -> (capitalized inside a sentence here,
    written in lower case here); its specific figures as '#' and their digits -> (True, False)."""
    terms: dict[str, tuple[bool, bool]] = {}
    for sentence in _SENTENCE_BREAK.split(text):
        for match in _WORD.finditer(sentence):
            word = match.group(0)
            term = word.lower()
            if term in _STOP:
                continue
            proper, lower = terms.get(term, (False, False))
            if word[0].isupper():
                proper = proper or sentence[: match.start()].strip(_OPENERS) != ""
            else:
                lower = True
            terms[term] = (proper, lower)
    for match in _FIGURE.finditer(text):
        digits = match.group(0).replace(",", "")
        if _is_specific_figure(digits):
            terms["#" + digits] = (True, False)
    return terms


def _is_specific_figure(digits: str) -> bool:
    """Three or more digits, at least two of them before the trailing zeros (327, 5,430, but
    not 300 or 5,000: round figures fit many stories), and not a year (1900-2100)."""
    if len(digits) == 4 and 1900 <= int(digits) <= 2100:
        return False
    return len(digits) >= 3 and len(digits.rstrip("0")) >= 2


def _terms_batches(batches: Iterator[pd.DataFrame]) -> Iterator[pd.DataFrame]:
    for batch in batches:
        rows = [
            (rec.article_id, term, proper, lower)
            for rec in batch.itertuples(index=False)
            for term, (proper, lower) in article_terms(
                f"{rec.title or ''}\n{rec.body or ''}"
            ).items()
        ]
        yield pd.DataFrame(rows, columns=_TERMS.fieldNames())


def average_linkage(
    nodes: Iterable[str], links: Iterable[tuple[str, str, float]], threshold: float
) -> dict[str, str]:
    """node -> its group's smallest node. Merges the two groups of highest mean pairwise
    similarity (absent links count 0) while that mean is >= threshold."""
    size = {n: 1 for n in nodes}
    members = {n: [n] for n in size}
    adjacent: dict[str, dict[str, float]] = {n: {} for n in size}
    for a, b, similarity in links:
        if a != b:
            adjacent[a][b] = adjacent[b][a] = adjacent[a].get(b, 0.0) + similarity
    heap = [
        (-w, a, b) for a in adjacent for b, w in adjacent[a].items() if a < b and w >= threshold
    ]
    heapq.heapify(heap)
    while heap:
        negative_mean, a, b = heapq.heappop(heap)
        if a not in size or b not in size or b not in adjacent[a]:
            continue  # one side was merged away
        if abs(adjacent[a][b] / (size[a] * size[b]) + negative_mean) > 1e-12:
            continue  # stale: the pair's mean changed since it was pushed
        if len(adjacent[a]) < len(adjacent[b]):
            a, b = b, a  # fold the smaller neighbourhood into the larger
        size[a] += size.pop(b)
        members[a] += members.pop(b)
        del adjacent[a][b]
        for n, w in adjacent.pop(b).items():
            if n != a:
                del adjacent[n][b]
                adjacent[a][n] = adjacent[n][a] = adjacent[a].get(n, 0.0) + w
        for n, w in adjacent[a].items():
            mean = w / (size[a] * size[n])
            if mean >= threshold:
                heapq.heappush(heap, (-mean, min(a, n), max(a, n)))
    return {m: min(group) for group in members.values() for m in group}


_STORY_OF = StructType(
    [
        StructField("article_id", StringType(), False),
        StructField("story_id", StringType(), False),
    ]
)


def _link_groups(frame: pd.DataFrame) -> pd.DataFrame:
    nodes = set(frame["a"]) | set(frame["b"])
    story = average_linkage(
        nodes, zip(frame["a"], frame["b"], frame["similarity"], strict=True), LINK_THRESHOLD
    )
    return pd.DataFrame(list(story.items()), columns=_STORY_OF.fieldNames())


def _article_terms(articles: DataFrame) -> DataFrame:
    return articles.select("article_id", "title", "body").mapInPandas(_terms_batches, _TERMS)


def _weighted_terms(terms: DataFrame, n: int) -> DataFrame:
    """terms with df, name and TF-IDF weight w."""
    stats = terms.groupBy("term").agg(F.count("*").alias("df"), F.max("lower_seen").alias("common"))
    return (
        terms.join(stats, "term")
        .withColumn("name", F.col("proper") & ~F.col("common"))
        .withColumn("idf", F.log((1 + n + PSEUDO_ARTICLES) / (1 + F.col("df"))) + 1)
        .withColumn("w", F.col("idf") * F.when(F.col("name"), PROPER_NAME_WEIGHT).otherwise(1.0))
    )


def _window_dots(postings: DataFrame) -> DataFrame:
    """(a < b, dot) over the terms two articles share, for pairs published within WINDOW_DAYS
    of each other or with either date unknown. Dated postings are joined per (term, bucket of
    WINDOW_DAYS days) against the neighbouring buckets only: a pair in the window is at most
    one bucket apart, so common terms no longer pair every article with every other."""
    dated = postings.where(F.col("day").isNotNull()).withColumn(
        "bucket", F.floor(F.col("day") / WINDOW_DAYS)
    )
    near = dated.withColumn(
        "bucket", F.explode(F.array(*(F.col("bucket") + k for k in (-1, 0, 1))))
    )
    a, b = dated.alias("a"), near.alias("b")
    in_window = (
        a.join(
            b,
            (F.col("a.term") == F.col("b.term"))
            & (F.col("a.bucket") == F.col("b.bucket"))
            & (F.col("a.article_id") < F.col("b.article_id")),
        )
        .where(F.abs(F.col("a.day") - F.col("b.day")) <= WINDOW_DAYS)
        .select(
            F.col("a.article_id").alias("a"),
            F.col("b.article_id").alias("b"),
            (F.col("a.w") * F.col("b.w")).alias("product"),
        )
    )
    # An undated article pairs with every other one; a pair of two undated ones is kept once.
    u, p = postings.where(F.col("day").isNull()).alias("u"), postings.alias("p")
    undated = u.join(
        p,
        (F.col("u.term") == F.col("p.term"))
        & (F.col("u.article_id") != F.col("p.article_id"))
        & (F.col("p.day").isNotNull() | (F.col("u.article_id") < F.col("p.article_id"))),
    ).select(
        F.least("u.article_id", "p.article_id").alias("a"),
        F.greatest("u.article_id", "p.article_id").alias("b"),
        (F.col("u.w") * F.col("p.w")).alias("product"),
    )
    return in_window.unionByName(undated).groupBy("a", "b").agg(F.sum("product").alias("dot"))


def _links(articles: DataFrame, weighted: DataFrame, n: int) -> DataFrame:
    cap = max(MIN_DF_CAP, int(n * MAX_DF_SHARE))
    day = articles.select(
        "article_id", F.datediff(F.to_date("published_at"), F.lit("1970-01-01")).alias("day")
    )
    vector = weighted.where(F.col("df") <= cap)
    norms = vector.groupBy("article_id").agg(F.sqrt(F.sum(F.col("w") ** 2)).alias("norm"))
    postings = (
        vector.where(F.col("df") >= 2).select("term", "article_id", "w").join(day, "article_id")
    )
    dots = _window_dots(postings)
    na = norms.select(F.col("article_id").alias("a"), F.col("norm").alias("na"))
    nb = norms.select(F.col("article_id").alias("b"), F.col("norm").alias("nb"))
    candidates = (
        dots.join(na, "a")
        .join(nb, "b")
        .select("a", "b", (F.col("dot") / (F.col("na") * F.col("nb"))).alias("similarity"))
        .where(F.col("similarity") >= LINK_THRESHOLD)
    )
    names = _window_name_counts(weighted, day, n)
    ea = names.select(
        F.col("article_id").alias("a"),
        "term",
        F.col("df_w").alias("df_a"),
        F.col("n_w").alias("n_a"),
    )
    eb = names.select(
        F.col("article_id").alias("b"),
        "term",
        F.col("df_w").alias("df_b"),
        F.col("n_w").alias("n_b"),
    )
    evidence = (
        candidates.select("a", "b")
        .join(ea, "a")
        .join(eb, ["b", "term"])
        .groupBy("a", "b")
        .agg(
            F.sum(
                F.log((F.greatest("n_a", "n_b") + PSEUDO_ARTICLES) / F.greatest("df_a", "df_b"))
            ).alias("name_evidence")
        )
    )
    return candidates.join(evidence, ["a", "b"]).where(F.col("name_evidence") >= MIN_NAME_EVIDENCE)


def _window_name_counts(weighted: DataFrame, day: DataFrame, n: int) -> DataFrame:
    """(article_id, term, df_w, n_w) for each proper name of an article: how many articles of
    its date window (its WINDOW_DAYS bucket and the two beside it) contain the word, out of
    how many articles. A name common over years of news can still single out one story in its
    fortnight; undated articles fall back to the whole corpus (df, n)."""
    bucket = F.floor(F.col("day") / WINDOW_DAYS)
    around = F.explode(F.array(*(F.col("bucket") + k for k in (-1, 0, 1)))).alias("center")
    name_terms = weighted.where("name").select("term").distinct()
    df_w = (
        weighted.join(name_terms, "term", "left_semi")
        .join(day.where(F.col("day").isNotNull()), "article_id")
        .groupBy("term", bucket.alias("bucket"))
        .agg(F.count("*").alias("c"))
        .select("term", around, "c")
        .groupBy("term", "center")
        .agg(F.sum("c").alias("df_w"))
    )
    n_w = (
        day.where(F.col("day").isNotNull())
        .groupBy(bucket.alias("bucket"))
        .agg(F.count("*").alias("c"))
        .select(around, "c")
        .groupBy("center")
        .agg(F.sum("c").alias("n_w"))
    )
    return (
        weighted.where("name")
        .join(day, "article_id")
        .withColumn("center", bucket)
        .join(df_w, ["term", "center"], "left")
        .join(n_w, "center", "left")
        .select(
            "article_id",
            "term",
            F.coalesce("df_w", "df").cast("double").alias("df_w"),
            F.coalesce("n_w", F.lit(n)).cast("double").alias("n_w"),
        )
    )


def story_links(articles: DataFrame) -> DataFrame:
    """Links (a < b, similarity, name_evidence) between articles (article_id, title, body,
    published_at), as defined above. Lazy and uncached: assign_stories caches the terms."""
    n = articles.count()
    return _links(articles, _weighted_terms(_article_terms(articles), n), n)


def assign_stories(spark: SparkSession, articles: DataFrame) -> DataFrame:
    """(article_id, story_id, story_size) for every article; an article with no link is a
    story of its own. Runs the linkage before returning and keeps its result on the executors
    (a local checkpoint: nothing is collected to the driver), so the term tables it caches
    meanwhile can be released on return; the join back to every article stays lazy."""
    n = articles.count()
    # Each term table feeds several branches (df stats, vectors, postings, names): without a
    # cache Spark re-runs the Python tokenizer for each.
    terms = _article_terms(articles)
    weighted = _weighted_terms(terms, n)
    try:
        terms.persist()
        weighted.persist()
        # One task sees every link: linkage is global. Links are few (about 17 per article
        # at 10k).
        grouped = (
            _links(articles, weighted, n)
            .select("a", "b", "similarity")
            .withColumn("all", F.lit(0))
            .groupBy("all")
            .applyInPandas(_link_groups, _STORY_OF)
            .localCheckpoint(eager=True)
        )
    finally:
        weighted.unpersist()
        terms.unpersist()
    stories = (
        articles.select("article_id")
        .join(grouped, "article_id", "left")
        .withColumn("story_id", F.coalesce("story_id", "article_id"))
    )
    size = stories.groupBy("story_id").agg(F.count("*").cast("int").alias("story_size"))
    return stories.join(size, "story_id").select("article_id", "story_id", "story_size")


@dataclass(frozen=True)
class StoriesSummary:
    articles: int
    stories: int  # -1: not regrouped (no new article)
    changed: int  # rows inserted or moved to another story by this run


def publish_stories(spark: SparkSession, lake: Lake, run_id: str) -> StoriesSummary:
    """Regroup every bronze article into stories; write only the rows that changed. Nothing
    to do (no job beyond one check) when every article already has a story by this method."""
    lake.ensure(SILVER_ARTICLE_STORIES)
    articles = lake.read(BRONZE_ARTICLES.name).select("article_id", "title", "body", "published_at")
    current = lake.read(SILVER_ARTICLE_STORIES.name).where(F.col("story_method") == STORY_METHOD)
    if articles.join(current, "article_id", "left_anti").isEmpty():
        return StoriesSummary(lake.count(SILVER_ARTICLE_STORIES.name), -1, 0)
    assigned = assign_stories(spark, articles).persist()
    try:
        changed = assigned.join(
            current.select("article_id", "story_id", "story_size"),
            ["article_id", "story_id", "story_size"],
            "left_anti",
        ).persist()
        n_changed = changed.count()
        if n_changed:
            lake.merge_upsert(
                SILVER_ARTICLE_STORIES,
                changed.select(
                    "article_id",
                    "story_id",
                    "story_size",
                    F.lit(STORY_METHOD).alias("story_method"),
                    F.lit(datetime.now(UTC)).cast("timestamp").alias("grouped_at"),
                    F.lit(run_id).alias("run_id"),
                ),
            )
        changed.unpersist()
        counts = assigned.agg(
            F.count("*").alias("articles"), F.countDistinct("story_id").alias("stories")
        ).first()
        return StoriesSummary(int(counts["articles"]), int(counts["stories"]), n_changed)
    finally:
        assigned.unpersist()
