"""Story grouping on real Spark and Delta: the seeds are one story; a synthetic corpus's
articles group by the event they report; reruns change nothing."""

from __future__ import annotations

import itertools
from collections import defaultdict
from datetime import UTC, datetime, timedelta
from pathlib import Path

from pyspark.sql import functions as F

from lake.bronze.ingest import ingest
from lake.silver.publish_stories import publish_stories
from lake.silver.stories import (
    STORY_METHOD,
    WINDOW_DAYS,
    article_days,
    explode_terms,
    links,
    story_links,
    term_stats,
    tokenize,
    weighted_terms,
)
from synthetic.generate import generate

LIMIT = 5 * 1024 * 1024


def _pairs(groups) -> set[tuple[str, str]]:
    return {tuple(sorted(p)) for g in groups for p in itertools.combinations(g, 2)}


def test_the_seed_articles_are_one_story_and_every_fact_carries_it(gold):
    lake = gold[0]
    stories = lake.read("silver.article_stories").collect()
    assert len(stories) == 5
    assert {(r["story_size"], r["story_method"]) for r in stories} == {(5, STORY_METHOD)}
    (story,) = {r["story_id"] for r in stories}
    assert story == min(r["article_id"] for r in stories)
    facts = lake.read("gold.facts").groupBy("story_id").count().collect()
    assert [r["story_id"] for r in facts] == [story]


def test_synthetic_articles_group_by_their_event_and_reruns_change_nothing(spark, lake, tmp_path):
    corpus = tmp_path / "corpus"
    generate(articles=80, events=8, seed=11, out=corpus)
    ingest(spark, lake, corpus / "articles", "s1", LIMIT, validate=False)
    first = publish_stories(spark, lake, "s1")
    assert (first.articles, first.changed) == (80, 80)

    # The generator writes each event's articles into a folder of its own: the truth here.
    uri = lake.read("bronze.articles").select("article_id", "source_uri")
    rows = lake.read("silver.article_stories").join(uri, "article_id").collect()
    events, stories = defaultdict(list), defaultdict(list)
    for row in rows:
        events[Path(row["source_uri"]).parent.name].append(row["article_id"])
        stories[row["story_id"]].append(row["article_id"])
    truth, found = _pairs(events.values()), _pairs(stories.values())
    precision = len(truth & found) / len(found)
    recall = len(truth & found) / len(truth)
    assert precision >= 0.95, (precision, recall)
    assert recall >= 0.9, (precision, recall)

    version = lake.version("silver.article_stories")
    again = publish_stories(spark, lake, "s2")
    assert (again.changed, again.stories) == (0, -1)  # nothing new: not even regrouped
    assert lake.version("silver.article_stories") == version
    assert lake.read("silver.article_stories").where(F.col("run_id") == "s2").count() == 0


def test_new_articles_join_their_events_story_and_other_stories_stay(spark, lake, tmp_path):
    corpus = tmp_path / "corpus"
    generate(articles=80, events=8, seed=11, out=corpus)
    articles_dir, later = corpus / "articles", tmp_path / "later"
    # Hold back one article (and its sidecar) of each of three events: 3 of 80 arrive later.
    held = []
    for event in sorted(p for p in articles_dir.iterdir() if p.is_dir())[:3]:
        article = sorted(event.glob("*.txt"))[-1]
        for path in (article, article.with_suffix(".json")):
            target = later / path.relative_to(articles_dir)
            target.parent.mkdir(parents=True, exist_ok=True)
            path.rename(target)
        held.append(article.relative_to(articles_dir).as_posix())
    ingest(spark, lake, articles_dir, "s1", LIMIT, validate=False)
    spark.catalog.clearCache()  # what other tests left
    first = publish_stories(spark, lake, "s1")
    assert (first.mode, first.articles) == ("whole", 77)
    assert _nothing_cached(spark)
    before = {r["article_id"]: r for r in lake.read("silver.article_stories").collect()}

    for path in later.rglob("*.*"):
        target = articles_dir / path.relative_to(later)
        path.rename(target)
    ingest(spark, lake, articles_dir, "s2", LIMIT, validate=False)
    second = publish_stories(spark, lake, "s2")
    assert (second.mode, second.new_articles, second.articles) == ("incremental", 3, 80)
    assert lake.count("silver.article_terms") == 80  # each article tokenized once

    uri = {
        r["source_uri"]: r["article_id"]
        for r in lake.read("bronze.articles").select("article_id", "source_uri").collect()
    }
    after = {r["article_id"]: r for r in lake.read("silver.article_stories").collect()}
    for source_uri in held:
        event = Path(source_uri).parent.name
        siblings = [a for u, a in uri.items() if Path(u).parent.name == event and u != source_uri]
        # It joins the story most of its event's articles were in, which keeps its id.
        story = max(
            {before[a]["story_id"] for a in siblings},
            key=[before[a]["story_id"] for a in siblings].count,
        )
        assert after[uri[source_uri]]["story_id"] == story
        assert after[uri[source_uri]]["run_id"] == "s2"
    # Stories no new article joined were not rewritten.
    joined = {after[uri[u]]["story_id"] for u in held}
    untouched = [a for a, r in before.items() if r["story_id"] not in joined]
    assert untouched and all(after[a] == before[a] for a in untouched)
    assert second.changed == sum(1 for r in after.values() if r["run_id"] == "s2")
    assert _nothing_cached(spark)

    # An undated article (no sidecar) pairs with every article: a rewrite of a held-back
    # article under a new headline joins that article's story.
    original = articles_dir / held[0]
    title, body = original.read_text(encoding="utf-8").split("\n", 1)
    (articles_dir / "undated.txt").write_text(f"Update: {title}\n{body}", encoding="utf-8")
    ingest(spark, lake, articles_dir, "s3", LIMIT, validate=False)
    third = publish_stories(spark, lake, "s3")
    assert (third.mode, third.new_articles, third.articles) == ("incremental", 1, 81)
    rows = lake.read("bronze.articles").collect()
    uri = {r["source_uri"]: r["article_id"] for r in rows}
    assert [r["published_at"] for r in rows if r["source_uri"] == "undated.txt"] == [None]
    final = {r["article_id"]: r["story_id"] for r in lake.read("silver.article_stories").collect()}
    assert final[uri["undated.txt"]] == after[uri[held[0]]]["story_id"]
    assert _nothing_cached(spark)


def _nothing_cached(spark) -> bool:
    """No DataFrame left cached: a run releases what it persisted."""
    return spark._jsparkSession.sharedState().cacheManager().isEmpty()


def test_links_keep_the_date_window_across_time_buckets_and_undated_articles(spark):
    # Same text everywhere, so only the date window decides which pairs link; the days sit on
    # both sides of WINDOW_DAYS bucket boundaries (0, 14, 28; and before 1970).
    days = {"a": 13, "b": 27, "c": 28, "d": -1, "e": None, "f": None, "g": 100, "h": 42}
    body = (
        "Rescuers in Quenford searched the flooded valley on Monday. Officials from Brackley "
        "and Marlowe said the river crested overnight near Quenford."
    )
    epoch = datetime(1970, 1, 1, 12, tzinfo=UTC)
    articles = spark.createDataFrame(
        [
            (a, "Flood", body, None if d is None else epoch + timedelta(days=d))
            for a, d in days.items()
        ],
        "article_id string, title string, body string, published_at timestamp",
    )
    found = {(r["a"], r["b"]) for r in story_links(articles).collect()}
    expected = {
        (x, y)
        for x, y in itertools.combinations(sorted(days), 2)
        if days[x] is None or days[y] is None or abs(days[x] - days[y]) <= WINDOW_DAYS
    }
    assert found == expected


def test_links_around_or_within_a_focus_are_the_whole_linkage_s_links_there(spark):
    # The incremental placement reads links around its new articles, then within the stories
    # they touch: both must be exactly the links grouping everything finds there.
    days = {"a": 13, "b": 27, "c": 28, "d": -1, "e": None, "g": 100, "h": 42, "k": 30}
    bodies = {
        "Rescuers in Quenford searched the flooded valley on Monday.": "abcd",
        "Officials from Brackley said the river crested overnight near Quenford.": "abcek",
        "Marlowe's council voted to rebuild the bridge at Quenford before winter.": "bcghk",
    }
    epoch = datetime(1970, 1, 1, 12, tzinfo=UTC)
    articles = spark.createDataFrame(
        [
            (
                a,
                "Flood",
                " ".join(text for text, who in bodies.items() if a in who),
                None if d is None else epoch + timedelta(days=d),
            )
            for a, d in days.items()
        ],
        "article_id string, title string, body string, published_at timestamp",
    )
    # Computed once, as publish_stories computes its inputs: otherwise each of the nine calls
    # below tokenizes every article again, several times.
    terms = explode_terms(tokenize(articles)).localCheckpoint(eager=True)
    weighted = weighted_terms(terms, term_stats(terms), len(days)).localCheckpoint(eager=True)
    day = article_days(articles).localCheckpoint(eager=True)

    def found(focus=None, within=False):
        if focus is not None:
            focus = spark.createDataFrame([(a,) for a in focus], "article_id string")
        rows = links(weighted, day, len(days), focus, within).collect()
        return {(r["a"], r["b"]): round(r["similarity"] * r["name_evidence"], 9) for r in rows}

    every = found()
    assert len(every) >= 6
    inside = 0
    for focus in ({"b"}, {"c", "k"}, {"a", "e"}, {"b", "c", "h"}):
        assert found(focus) == {p: v for p, v in every.items() if set(p) & focus}
        among = found(focus, within=True)
        assert among == {p: v for p, v in every.items() if set(p) <= focus}
        inside += len(among)
    assert inside >= 2


def test_the_more_two_articles_agree_the_fewer_names_they_need_to_share(spark, monkeypatch):
    flood = (
        "Rescuers searched the flooded valley near Quenford early this week after the river "
        "crested overnight, and volunteers filled sandbags along the levee while pumps drained "
        "basements."
    )
    articles = {
        # Two wire copies of one flood: one shared name (evidence ln(1004 / 2) = 6.2).
        "w1": ("Valley flood", flood + " Shelters opened at schools."),
        "w2": ("Valley flood", flood + " Shelters opened at churches."),
        # A council vote and a harbor fire of one town, sharing its two officials and little else.
        "o1": (
            "Council vote",
            "Councillors backing Pellingham approved spending on parks, libraries, bus routes "
            "and street lighting, while Vantreece cautioned that pension costs, borrowing "
            "limits, bond ratings and dwindling reserves could squeeze next year's schools, "
            "clinics and road repairs during a lengthy evening session; residents queued to "
            "speak about potholes, noisy bars, zoning, curfews and dogs.",
        ),
        "o2": (
            "Harbor fire",
            "Firefighters battled a warehouse blaze near the docks as Pellingham and Vantreece "
            "watched crews haul hoses across smoking piers, cranes, shipping containers and "
            "fishing trawlers until dawn broke; smoke drifted over ferries, marinas, seafood "
            "markets and boatyards, and sirens wailed while insurers, engineers and inspectors "
            "tallied damaged cargo, forklifts and pallets.",
        ),
    }
    day = datetime(2024, 5, 6, 12, tzinfo=UTC)
    frame = spark.createDataFrame(
        [(a, title, body, day) for a, (title, body) in articles.items()],
        "article_id string, title string, body string, published_at timestamp",
    )

    def found() -> dict[tuple[str, str], tuple[float, float]]:
        return {
            (r["a"], r["b"]): (round(r["similarity"], 2), round(r["name_evidence"], 1))
            for r in story_links(frame).collect()
        }

    # Cosine 0.96 x evidence 6.2 passes; cosine 0.15 x evidence 12.4 (two names, which a
    # fixed evidence of 10 would have let through) does not.
    assert found() == {("w1", "w2"): (0.96, 6.2)}
    monkeypatch.setattr("lake.silver.stories.MIN_LINK_SCORE", 0.0)
    assert found() == {("w1", "w2"): (0.96, 6.2), ("o1", "o2"): (0.15, 12.4)}
