"""bronze.articles -> silver.article_terms and silver.article_stories, whole or incrementally.

Each article is tokenized once, when it first arrives (silver.article_terms). Stories then
follow lake.silver.stories' rules in one of two ways:
  - whole: every article is grouped anew by average linkage over every link. This happens when
    no article has a story by this STORY_METHOD yet (a first run, or new rules), or when the
    new articles are more than FULL_REGROUP_SHARE of all of them;
  - incremental: the linkage goes on from the stories there are. Its nodes are the new articles
    and the stories they link to; a story weighs as many articles as it holds, and its link to
    another node is the sum of its articles' links, so a new article joins a story, starts
    one, or bridges two, and no story splits. A story keeps its id as articles join it (of two
    bridged stories, the smaller id stays). Only the links around the new articles, then
    those among the nodes' articles, are computed, with the corpus's term statistics as they
    are now.
An incremental run can thus differ from grouping everything at once (the merge order differs,
and older links were weighed with older statistics); a run that brings many articles, or a new
STORY_METHOD, regroups everything.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime

from pyspark.sql import DataFrame, SparkSession
from pyspark.sql import functions as F

from lake.contracts.enforce import candidates, enforce
from lake.layer import RunContext, Unit
from lake.schemas import BRONZE_ARTICLES, SILVER_ARTICLE_STORIES, SILVER_ARTICLE_TERMS
from lake.silver.stories import (
    STORY_METHOD,
    TERMS_METHOD,
    article_days,
    articles_near,
    explode_terms,
    link_groups,
    links,
    term_stats,
    tokenize,
    weighted_terms,
)
from lake.storage import Lake

# New articles above this share of all articles regroup everything: cheaper than walking the
# neighbourhood of most stories, and it re-weighs every link with today's term statistics.
FULL_REGROUP_SHARE = 0.2


@dataclass(frozen=True)
class StoriesSummary:
    articles: int
    stories: int  # -1: not regrouped (no new article)
    changed: int  # rows inserted or moved to another story by this run
    mode: str = "unchanged"  # whole | incremental | unchanged
    new_articles: int = 0

    def describe(self) -> str:
        """One line for the CLI and Dagster's run log."""
        if self.mode == "whole":
            return (
                f"silver: {self.articles} articles grouped into {self.stories} stories, "
                f"{self.changed} rows changed"
            )
        if self.mode == "incremental":
            return (
                f"silver: {self.new_articles} new articles placed among {self.stories} stories "
                f"(incremental), {self.changed} rows changed"
            )
        return "silver: stories unchanged (no new article)"

    def metadata(self) -> dict[str, object]:
        return {
            "placement": self.mode,
            "articles": self.articles,
            "stories": max(self.stories, 0),
            "new_articles": self.new_articles,
            "rows_changed_this_run": self.changed,
        }


def publish_stories(
    spark: SparkSession, lake: Lake, run_id: str, bronze_version: int | None = None
) -> StoriesSummary:
    """Place the articles that have no story by this STORY_METHOD yet; write only the rows
    that changed, after silver.article_stories' contract passed on the table they would make.
    Nothing to do (no job beyond one check) when there are none. bronze.articles is read at
    `bronze_version` (default: its current version)."""
    for spec in (SILVER_ARTICLE_TERMS, SILVER_ARTICLE_STORIES):
        lake.ensure(spec)
    articles = lake.read(BRONZE_ARTICLES.name, version=bronze_version).select(
        "article_id", "title", "body", "published_at"
    )
    current = (
        lake.read(SILVER_ARTICLE_STORIES.name)
        .where(F.col("story_method") == STORY_METHOD)
        .select("article_id", "story_id", "story_size")
    )
    new = articles.select("article_id").join(current, "article_id", "left_anti")
    n_new = new.count()
    if not n_new:
        return StoriesSummary(lake.count(SILVER_ARTICLE_STORIES.name), -1, 0)
    _store_terms(lake, articles, run_id)
    n = articles.count()
    whole = n_new == n or n_new > FULL_REGROUP_SHARE * n
    stored = lake.read(SILVER_ARTICLE_TERMS.name).where(F.col("terms_method") == TERMS_METHOD)
    # Small, and read by every step: computed once.
    stats = term_stats(explode_terms(stored)).localCheckpoint(eager=True)
    day = article_days(articles).localCheckpoint(eager=True)
    terms = _Terms(stored, stats, day, n)
    try:
        # Built from local checkpoints only: nothing below reads the cached terms again.
        assigned = _group_all(articles, terms) if whole else _group_new(new, current, terms)
    finally:
        terms.release()
    changed = _write_changed(lake, assigned, current, run_id, articles.select("article_id"))
    stories = (
        lake.read(SILVER_ARTICLE_STORIES.name)
        .where(F.col("story_method") == STORY_METHOD)
        .select(F.countDistinct("story_id"))
        .first()[0]
    )
    return StoriesSummary(n, int(stories), changed, "whole" if whole else "incremental", n_new)


def _store_terms(lake: Lake, articles: DataFrame, run_id: str) -> None:
    """Tokenize the articles that have no terms by this TERMS_METHOD yet (all of them when the
    method changed: the table is rewritten)."""
    stored = lake.read(SILVER_ARTICLE_TERMS.name)
    stale = stored.where(F.col("terms_method") != TERMS_METHOD)
    if not stale.isEmpty():
        lake.overwrite(SILVER_ARTICLE_TERMS, _with_method(tokenize(articles), run_id))
        return
    missing = articles.join(stored.select("article_id"), "article_id", "left_anti")
    if not missing.isEmpty():
        lake.merge_insert(SILVER_ARTICLE_TERMS, _with_method(tokenize(missing), run_id))


def _with_method(terms: DataFrame, run_id: str) -> DataFrame:
    return terms.select(
        "article_id",
        "terms",
        F.lit(TERMS_METHOD).alias("terms_method"),
        F.lit(run_id).alias("run_id"),
    )


@dataclass
class _Terms:
    stored: DataFrame  # silver.article_terms rows of this TERMS_METHOD
    stats: DataFrame  # term_stats over all of them
    day: DataFrame  # (article_id, day) of every article
    n: int  # articles
    every: DataFrame | None = None  # every article's weighted terms, cached once read

    def links(self, focus: DataFrame | None = None, within: bool = False) -> DataFrame:
        """stories.links over every article, or around `focus` (among it: `within`), computed
        now. The weighted terms of a focus's neighbourhood are cached for the call only; every
        article's (no focus, or an undated focus article: both calls of a run need them) until
        release()."""
        near = None if focus is None else articles_near(self.day, focus)
        if near is None:
            if self.every is None:
                self.every = weighted_terms(
                    explode_terms(self.stored), self.stats, self.n
                ).persist()
            return links(self.every, self.day, self.n, focus, within).localCheckpoint(eager=True)
        rows = self.stored.join(near, "article_id", "left_semi")
        weighted = weighted_terms(explode_terms(rows), self.stats, self.n).persist()
        try:
            return links(weighted, self.day, self.n, focus, within).localCheckpoint(eager=True)
        finally:
            weighted.unpersist()

    def release(self) -> None:
        if self.every is not None:
            self.every.unpersist()
            self.every = None


def _group_all(articles: DataFrame, terms: _Terms) -> DataFrame:
    """(article_id, story_id) for every article, by average linkage over every link."""
    edges = terms.links().select(
        "a",
        "b",
        F.col("similarity").alias("weight"),
        F.lit(1).alias("size_a"),
        F.lit(1).alias("size_b"),
    )
    groups = link_groups(edges).withColumnRenamed("node", "article_id")
    return (
        articles.select("article_id")
        .join(groups, "article_id", "left")
        .select("article_id", F.coalesce("group_id", "article_id").alias("story_id"))
    )


def _group_new(new: DataFrame, current: DataFrame, terms: _Terms) -> DataFrame:
    """(article_id, story_id) for the new articles and every member of a story they link to,
    by average linkage continued from the current stories."""
    first = terms.links(focus=new)
    ends = first.select(F.col("a").alias("article_id")).union(
        first.select(F.col("b").alias("article_id"))
    )
    touched = current.join(ends, "article_id", "left_semi").select("story_id").distinct()
    members = current.join(touched, "story_id", "left_semi")
    as_story = members.select(
        "article_id",
        F.col("story_id").alias("node"),
        F.col("story_size").alias("size"),
        F.lit(True).alias("is_story"),
    )
    nodes = (
        new.select(
            "article_id",
            F.col("article_id").alias("node"),
            F.lit(1).alias("size"),
            F.lit(False).alias("is_story"),
        )
        .unionByName(as_story)
        .localCheckpoint(eager=True)
    )
    # Every link between two nodes' articles, summed per pair of nodes; links inside one story
    # sum to its row with itself (a == b), its cohesion for the linkage.
    around = terms.links(focus=nodes.select("article_id"), within=True)
    na, nb = (
        nodes.select(
            F.col("article_id").alias(end),
            F.col("node").alias(f"n{end}"),
            F.col("size").alias(f"s{end}"),
        )
        for end in ("a", "b")
    )
    first_smaller = F.col("na") < F.col("nb")
    edges = (
        around.join(na, "a")
        .join(nb, "b")
        .select(
            F.least("na", "nb").alias("a"),
            F.greatest("na", "nb").alias("b"),
            "similarity",
            F.when(first_smaller, F.col("sa")).otherwise(F.col("sb")).alias("size_a"),
            F.when(first_smaller, F.col("sb")).otherwise(F.col("sa")).alias("size_b"),
        )
        .groupBy("a", "b", "size_a", "size_b")
        .agg(F.sum("similarity").alias("weight"))
        .select("a", "b", "weight", "size_a", "size_b")
    )
    grouped = nodes.join(link_groups(edges), "node", "left").withColumn(
        "group_id", F.coalesce("group_id", "node")
    )
    # A story keeps its id when articles join it (gold's fact ids derive from it); of two
    # stories bridged into one, the smaller id stays.
    names = grouped.groupBy("group_id").agg(
        F.coalesce(F.min(F.when(F.col("is_story"), F.col("node"))), F.min("node")).alias("story_id")
    )
    return grouped.join(names, "group_id").select("article_id", "story_id")


def _write_changed(
    lake: Lake, assigned: DataFrame, current: DataFrame, run_id: str, articles: DataFrame
) -> int:
    """Upsert the rows of `assigned` (article_id, story_id: whole stories) whose story or size
    differs from the current row, once the table they would make passes its contract (every
    article of the pinned bronze version has one story); returns how many."""
    size = assigned.groupBy("story_id").agg(F.count("*").cast("int").alias("story_size"))
    changed = (
        assigned.join(size, "story_id")
        .join(current, ["article_id", "story_id", "story_size"], "left_anti")
        .select(
            "article_id",
            "story_id",
            "story_size",
            F.lit(STORY_METHOD).alias("story_method"),
            F.lit(datetime.now(UTC)).cast("timestamp").alias("grouped_at"),
            F.lit(run_id).alias("run_id"),
        )
        .localCheckpoint(eager=True)
    )
    n_changed = changed.count()
    if n_changed:
        table = lake.read(SILVER_ARTICLE_STORIES.name)
        will_be = table.join(changed.select("article_id"), "article_id", "left_anti").unionByName(
            changed
        )
        with candidates(lake.spark, {"bronze.articles": articles}) as bindings:
            enforce(
                lake.spark,
                lake,
                SILVER_ARTICLE_STORIES.name,
                will_be,
                run_id,
                bindings=bindings,
            )
        lake.merge_upsert(SILVER_ARTICLE_STORIES, changed)
    return n_changed


def _build(ctx: RunContext, inputs: Mapping[str, int]) -> StoriesSummary:
    return publish_stories(ctx.spark, ctx.lake, ctx.run_id, inputs[BRONZE_ARTICLES.name])


UNIT = Unit(
    name="silver.stories",
    inputs=(BRONZE_ARTICLES.name,),
    outputs=(SILVER_ARTICLE_TERMS.name, SILVER_ARTICLE_STORIES.name),
    build=_build,
    doing="grouping articles into stories",
    code_version=lambda settings: f"{STORY_METHOD} {TERMS_METHOD}",
    unchanged=lambda: StoriesSummary(-1, -1, 0),
    shown=(SILVER_ARTICLE_STORIES.name,),
    contracts=(SILVER_ARTICLE_STORIES.name,),
)
