"""Group bronze's articles into stories: articles about the same event, so that gold reconciles
claims per story ("deaths" in one flood and in another storm are two facts, not a conflict).

Two articles are linked when
  - their words agree: cosine of binary TF-IDF vectors >= LINK_THRESHOLD, where proper names
    (capitalized inside a sentence and never written in lower case in the corpus) weigh
    PROPER_NAME_WEIGHT times a common word, and words in more than MAX_DF_SHARE of the articles
    are left out;
  - they name the same rare things, the more so the less their words agree: the shared
    proper names' (and specific figures', below) evidence, sum(ln((N + N0) / df)), times the
    cosine is >= MIN_LINK_SCORE, where N and df count the articles of the pair's date window
    (its WINDOW_DAYS bucket and the two beside it; the whole corpus for undated articles): a
    town named in hundreds of articles over the years still singles out this week's story
    about it. N0 pseudo-articles that name none of them keep the weight meaningful on a
    handful of articles; template words shared by every story about a flood do not link two
    floods. Two reports of one event that agree word for word need only its town and an
    official in common; two that agree on little but a town's officials (two events of one
    town) need many more;
  - they were published within WINDOW_DAYS of each other (when both carry a date).
A specific figure ("32,824", "1,190,000": three or more digits, not a round number such as
5,000, not a year) counts as a proper name: articles about one event repeat its figures, and
an article that names nobody is still tied to its event by them.
Stories are then formed by average linkage over those links: two groups merge while the mean
similarity over all their pairs of articles (missing links count 0) is >= LINK_THRESHOLD, so
one stray link does not chain two stories together, and, for two groups of several articles,
is >= COHESION_SHARE of the mean within the looser of them: two tight stories that share a town
and its officials, and little else, stay two stories. An article the linkage leaves alone though
it links to stories of several articles then joins the one it links to most: one article of an
event that words its story differently (a follow-up naming fewer of its people) is not a story
of its own, which would make facts of its own.

A story's id is its smallest article_id when it is formed. This module holds the rules and their
Spark form; lake.silver.publish_stories decides, per run, whether to group every article anew or
to continue the linkage from the stories there are (new articles joining or bridging them).
"""

from __future__ import annotations

import heapq
import re
from collections import defaultdict
from collections.abc import Iterable, Iterator

import numpy as np
import pandas as pd
from pyspark.sql import DataFrame
from pyspark.sql import functions as F
from pyspark.sql.types import (
    ArrayType,
    BooleanType,
    DoubleType,
    IntegerType,
    StringType,
    StructField,
    StructType,
)
from scipy import sparse

# 2: name evidence per date window; 3: figures as names; 4: loners join; 5: cohesion, 10% words;
# 6: similarity x name evidence; 7: strays move to the story they link to more
STORY_METHOD = "stories-7"
TERMS_METHOD = "terms-2"  # what article_terms returns; 2: specific figures as names
LINK_THRESHOLD = 0.1
COHESION_SHARE = 0.4
PROPER_NAME_WEIGHT = 2.0
# Words in more than 10% of articles (at least 50) carry no story signal. A topic's words ("the
# polls", "the blaze"), in a few percent of a year of news, stay: they tell two events of one
# town apart.
MAX_DF_SHARE = 0.10
MIN_DF_CAP = 50
# At the cosine threshold (0.1) a pair needs name evidence 20, at 0.2 it needs 10, at 0.4 it
# needs 5: about a town and one official named in a few percent of the window's articles.
MIN_LINK_SCORE = 2.0
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

_TERM = StructType(
    [
        StructField("term", StringType(), True),
        StructField("proper", BooleanType(), True),  # capitalized inside a sentence
        StructField("lower_seen", BooleanType(), True),  # written in lower case here
    ]
)
# One row per article with its distinct terms: what silver.article_terms stores.
ARTICLE_TERMS = StructType(
    [
        StructField("article_id", StringType(), False),
        StructField("terms", ArrayType(_TERM, True), False),
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
            (
                rec.article_id,
                [
                    {"term": term, "proper": proper, "lower_seen": lower}
                    for term, (proper, lower) in article_terms(
                        f"{rec.title or ''}\n{rec.body or ''}"
                    ).items()
                ],
            )
            for rec in batch.itertuples(index=False)
        ]
        yield pd.DataFrame(rows, columns=ARTICLE_TERMS.fieldNames())


def tokenize(articles: DataFrame) -> DataFrame:
    """(article_id, terms) of articles (article_id, title, body): article_terms on the
    executors."""
    return articles.select("article_id", "title", "body").mapInPandas(_terms_batches, ARTICLE_TERMS)


def explode_terms(terms_per_article: DataFrame) -> DataFrame:
    """(article_id, term, proper, lower_seen): one row per term of each article."""
    return terms_per_article.select("article_id", F.explode("terms").alias("t")).select(
        "article_id", "t.term", "t.proper", "t.lower_seen"
    )


def average_linkage(
    nodes: Iterable[str],
    links: Iterable[tuple[str, str, float]],
    threshold: float,
    sizes: dict[str, int] | None = None,
) -> dict[str, str]:
    """node -> its group's smallest node. Merges the two groups of highest mean pairwise
    similarity (absent links count 0) while that mean is >= threshold and, when both hold
    several articles, >= COHESION_SHARE of the smaller of their own mean pairwise
    similarities; then a lone article joins the group of several it links to most, and an
    article that links to another group of several more than to its own moves there
    (_move_strays). A node may stand for a group formed earlier: `sizes` gives its articles
    (default 1), a link's similarity is then the sum over the pairs of articles it joins, and a
    link from a node to itself is the sum of the links within it, so the linkage goes on from
    there."""
    sizes = sizes or {}
    size = {n: sizes.get(n, 1) for n in nodes}
    node_size = dict(size)
    members = {n: [n] for n in size}
    inner = dict.fromkeys(size, 0.0)  # sum of the links within each group
    adjacent: dict[str, dict[str, float]] = {n: {} for n in size}
    for a, b, similarity in links:
        if a != b:
            adjacent[a][b] = adjacent[b][a] = adjacent[a].get(b, 0.0) + similarity
        else:
            inner[a] += similarity
    node_links = {n: dict(linked) for n, linked in adjacent.items()}

    def cohesion(n: str) -> float:
        return inner[n] / (size[n] * (size[n] - 1) / 2)

    heap = []
    for a in adjacent:
        for b, w in adjacent[a].items():
            if a < b and w / (size[a] * size[b]) >= threshold:
                heap.append((-w / (size[a] * size[b]), a, b))
    heapq.heapify(heap)
    while heap:
        negative_mean, a, b = heapq.heappop(heap)
        if a not in size or b not in size or b not in adjacent[a]:
            continue  # one side was merged away
        if abs(adjacent[a][b] / (size[a] * size[b]) + negative_mean) > 1e-12:
            continue  # stale: the pair's mean changed since it was pushed
        if (
            size[a] > 1
            and size[b] > 1
            and -negative_mean < COHESION_SHARE * min(cohesion(a), cohesion(b))
        ):
            continue  # pushed again if either group grows
        if len(adjacent[a]) < len(adjacent[b]):
            a, b = b, a  # fold the smaller neighbourhood into the larger
        inner[a] += inner.pop(b) + adjacent[a][b]
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
    # An article left alone though it links to stories of several articles joins the one it
    # links to most (sum of its links to their articles; ties: the smallest node). Its own
    # links passed both tests; a story of five whose mean it does not lift to the threshold
    # is still where it belongs rather than a story of one, each making facts of their own.
    # Decided on the linkage's result, so one loner never pulls another.
    joins = {}
    for node, links_to in adjacent.items():
        if size[node] == 1:
            groups = [(-w, n) for n, w in links_to.items() if size[n] > 1]
            if groups:
                joins[node] = min(groups)[1]
    for node, into in joins.items():
        members[into] += members.pop(node)
    _move_strays(members, node_links, node_size)
    return {m: min(group) for group in members.values() if group for m in group}


def _move_strays(
    members: dict[str, list[str]],
    node_links: dict[str, dict[str, float]],
    node_size: dict[str, int],
) -> None:
    """An article in a story of several moves to another story of several when its links to
    that story are both stronger in sum and higher in mean (per article) than its links to its
    own story's other articles: a stray that joined early through one strong link, before its
    own event's story formed. Decided on the linkage's result, so moves do not cascade; a story
    formed earlier (a node of several articles) does not move."""
    group_of = {m: root for root, group in members.items() for m in group}
    articles = {root: sum(node_size[m] for m in group) for root, group in members.items()}
    moves = {}
    for node, own in group_of.items():
        if node_size[node] != 1 or articles[own] < 2:
            continue
        totals: dict[str, float] = defaultdict(float)
        for other, similarity in node_links[node].items():
            totals[group_of[other]] += similarity
        own_total = totals.pop(own, 0.0)
        own_mean = own_total / (articles[own] - 1)
        better = [
            (-total / articles[root], root)
            for root, total in totals.items()
            if articles[root] >= 2 and total >= own_total and total / articles[root] > own_mean
        ]
        if better:
            moves[node] = min(better)[1]
    for node, into in moves.items():
        members[group_of[node]].remove(node)
        members[into].append(node)


# Input of the linkage: links between nodes, where a node is an article or a story formed
# earlier (named by its story_id, its smallest article_id); a row with a == b carries the sum of
# the links within a story formed earlier.
EDGES = StructType(
    [
        StructField("a", StringType(), False),
        StructField("b", StringType(), False),
        StructField("weight", DoubleType(), False),  # sum of the article links it stands for
        StructField("size_a", IntegerType(), False),
        StructField("size_b", IntegerType(), False),
    ]
)
_GROUP_OF = StructType(
    [
        StructField("node", StringType(), False),
        StructField("group_id", StringType(), False),
    ]
)


def _link_groups(frame: pd.DataFrame) -> pd.DataFrame:
    sizes = dict(zip(frame["a"], frame["size_a"].astype(int), strict=True))
    sizes.update(zip(frame["b"], frame["size_b"].astype(int), strict=True))
    group = average_linkage(
        sizes, zip(frame["a"], frame["b"], frame["weight"], strict=True), LINK_THRESHOLD, sizes
    )
    return pd.DataFrame(list(group.items()), columns=_GROUP_OF.fieldNames())


def link_groups(edges: DataFrame) -> DataFrame:
    """(node, group_id) for every node of `edges` (EDGES) by average linkage; group_id is the
    group's smallest node. Linkage is global, so one task sees every edge; the result stays on
    the executors (a local checkpoint: nothing is collected to the driver)."""
    return (
        edges.withColumn("all", F.lit(0))
        .groupBy("all")
        .applyInPandas(_link_groups, _GROUP_OF)
        .localCheckpoint(eager=True)
    )


def term_stats(terms: DataFrame) -> DataFrame:
    """(term, df, common) over every article's terms: in how many articles the term stands,
    and whether any writes it in lower case (then it is no proper name)."""
    return terms.groupBy("term").agg(F.count("*").alias("df"), F.max("lower_seen").alias("common"))


def weighted_terms(terms: DataFrame, stats: DataFrame, n: int) -> DataFrame:
    """(article_id, term, df, name, w): each article's terms with their corpus statistics
    (term_stats over all n articles), whether they are a name, and their TF-IDF weight."""
    name = F.col("proper") & ~F.col("common")
    idf = F.log((1 + n + PSEUDO_ARTICLES) / (1 + F.col("df"))) + 1
    return terms.join(stats, "term").select(
        "article_id",
        "term",
        "df",
        name.alias("name"),
        (idf * F.when(name, PROPER_NAME_WEIGHT).otherwise(1.0)).alias("w"),
    )


def articles_near(day: DataFrame, focus: DataFrame) -> DataFrame | None:
    """(article_id) of every article links(focus=...) reads: those of the focus's WINDOW_DAYS
    buckets and the two on either side (pairs lie within one bucket, and a name's window count
    reaches one more), and the undated ones. None when a focus article is undated: it pairs
    with every article."""
    focus_days = day.join(focus, "article_id", "left_semi")
    if not focus_days.where(F.col("day").isNull()).isEmpty():
        return None
    bucket = F.floor(F.col("day") / WINDOW_DAYS)
    near = (
        focus_days.select(bucket.alias("b"))
        .distinct()
        .select(F.explode(F.array(*(F.col("b") + k for k in range(-2, 3)))).alias("b"))
        .distinct()
    )
    dated = day.withColumn("b", bucket).join(near, "b", "left_semi").select("article_id")
    return dated.union(day.where(F.col("day").isNull()).select("article_id"))


_LINK = StructType(
    [
        StructField("a", StringType(), False),
        StructField("b", StringType(), False),
        StructField("similarity", DoubleType(), False),
        StructField("name_evidence", DoubleType(), False),
    ]
)


def _bucket_links(frame: pd.DataFrame) -> pd.DataFrame:
    """Candidate pairs of one bucket with their name evidence: its articles (`home`) against
    each other and against the next bucket's, as sparse products of their weighted term
    vectors (rows with a weight `w`); pairs more than WINDOW_DAYS apart or under
    LINK_THRESHOLD are dropped. The kept pairs' evidence is a product of their name rows (no
    weight; `df_w`, `n_w` of the article's window): every home article's window is the
    bucket's, every other one's the next bucket's, so a shared name weighs the same in every
    pair of one kind (home-home, home-next)."""
    is_name = frame["w"].isna().to_numpy()
    ids, article = np.unique(frame["article_id"].to_numpy(dtype=object), return_inverse=True)
    is_home = frame["home"].to_numpy(dtype=bool)
    vec, names = frame[~is_name], frame[is_name]
    terms, term = np.unique(vec["term"].to_numpy(dtype=object), return_inverse=True)
    matrix = sparse.csr_matrix(
        (vec["w"].to_numpy(dtype=float), (article[~is_name], term)), shape=(len(ids), len(terms))
    )
    day = np.zeros(len(ids))
    day[article] = frame["day"].to_numpy(dtype=float)
    norm = np.ones(len(ids))
    norm[article[~is_name]] = vec["norm"].to_numpy(dtype=float)
    home = np.unique(article[~is_name & is_home])
    after = np.unique(article[~is_name & ~is_home])
    same = sparse.triu(matrix[home] @ matrix[home].T, k=1).tocoo()
    across = (matrix[home] @ matrix[after].T).tocoo()
    left = np.concatenate([home[same.row], home[across.row]])
    right = np.concatenate([home[same.col], after[across.col]])
    similarity = np.concatenate([same.data, across.data]) / (norm[left] * norm[right])
    keep = (similarity >= LINK_THRESHOLD) & (np.abs(day[left] - day[right]) <= WINDOW_DAYS)
    is_across = np.arange(len(left)) >= len(same.data)
    left, right, similarity, is_across = left[keep], right[keep], similarity[keep], is_across[keep]

    name_terms, name_term = np.unique(names["term"].to_numpy(dtype=object), return_inverse=True)
    named = sparse.csr_matrix(
        (np.ones(len(names)), (article[is_name], name_term)), shape=(len(ids), len(name_terms))
    )
    name_home = is_home[is_name]
    df = np.zeros((2, len(name_terms)))  # per name: articles of the home / next bucket's window
    window = np.ones(2)  # articles of the home / next bucket's window
    for side, rows in ((0, name_home), (1, ~name_home)):
        df[side, name_term[rows]] = names["df_w"].to_numpy(dtype=float)[rows]
        if rows.any():
            window[side] = names["n_w"].to_numpy(dtype=float)[rows][0]
    with np.errstate(divide="ignore"):
        weight_same = np.where(df[0] > 0, np.log((window[0] + PSEUDO_ARTICLES) / df[0]), 0.0)
        weight_across = np.where(
            (df[0] > 0) & (df[1] > 0),
            np.log((window.max() + PSEUDO_ARTICLES) / df.max(axis=0)),
            0.0,
        )
    evidence = np.zeros(len(left))
    for across_pairs, weight in ((False, weight_same), (True, weight_across)):
        pick = is_across == across_pairs
        if pick.any():
            shared = named[left[pick]].multiply(named[right[pick]].multiply(weight[None, :]))
            evidence[pick] = np.asarray(shared.sum(axis=1)).ravel()
    x, y = ids[left], ids[right]
    first = x < y
    return pd.DataFrame(
        {
            "a": np.where(first, x, y),
            "b": np.where(first, y, x),
            "similarity": similarity,
            "name_evidence": evidence,
        }
    )


def _window_links(
    postings: DataFrame, norms: DataFrame, names: DataFrame, day: DataFrame
) -> DataFrame:
    """(a < b, similarity >= LINK_THRESHOLD, name_evidence) for the pairs of dated articles
    published within WINDOW_DAYS of each other. Articles are compared per bucket of
    WINDOW_DAYS days, each bucket with itself and the next (a pair in the window is at most one
    bucket apart): one sparse product per bucket instead of a join on every shared term, and
    a second one over the kept pairs' names (_window_name_counts' rows) for their evidence."""
    bucket = F.floor(F.col("day") / WINDOW_DAYS)
    placed = F.explode(
        F.array(
            F.struct(bucket.alias("g"), F.lit(True).alias("home")),
            F.struct((bucket - 1).alias("g"), F.lit(False).alias("home")),
        )
    ).alias("k")
    columns = ["term", "article_id", "w", "day", "norm", "df_w", "n_w"]
    vector = (
        postings.where(F.col("day").isNotNull())
        .join(norms, "article_id")
        .select(
            "term",
            "article_id",
            F.col("w").cast("double").alias("w"),
            "day",
            F.col("norm").cast("double").alias("norm"),
            F.lit(None).cast("double").alias("df_w"),
            F.lit(None).cast("double").alias("n_w"),
        )
    )
    # A name in one article of its window pairs with no other article of that window.
    named = names.where(F.col("df_w") >= 2).join(day.where(F.col("day").isNotNull()), "article_id")
    named = named.select(
        "term",
        "article_id",
        F.lit(None).cast("double").alias("w"),
        "day",
        F.lit(None).cast("double").alias("norm"),
        "df_w",
        "n_w",
    )
    return (
        vector.unionByName(named)
        .select(*columns, placed)
        .select(*columns, "k.g", "k.home")
        .groupBy("g")
        .applyInPandas(_bucket_links, _LINK)
    )


def _cosine(dots: DataFrame, norms: DataFrame) -> DataFrame:
    """(a, b, similarity) of pairs (a, b, dot) at or above LINK_THRESHOLD."""
    na = norms.select(F.col("article_id").alias("a"), F.col("norm").alias("na"))
    nb = norms.select(F.col("article_id").alias("b"), F.col("norm").alias("nb"))
    return (
        dots.join(na, "a")
        .join(nb, "b")
        .select("a", "b", (F.col("dot") / (F.col("na") * F.col("nb"))).alias("similarity"))
        .where(F.col("similarity") >= LINK_THRESHOLD)
    )


def _undated_dots(postings: DataFrame) -> DataFrame:
    """(a < b, dot) over the terms shared by pairs with an undated article."""
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
    return undated.groupBy("a", "b").agg(F.sum("product").alias("dot"))


def _focus_dots(postings: DataFrame, focus: DataFrame, within: bool = False) -> DataFrame:
    """_window_dots for the pairs with at least one article in `focus` (article_id), or with
    both there (`within`): the focus's postings, few, joined by term to every posting in the
    date window (to the focus's own)."""
    mark = focus.select("article_id", F.lit(True).alias("in_focus"))
    f = postings.join(focus, "article_id", "left_semi").alias("f")
    p = postings.join(mark, "article_id", "inner" if within else "left").alias("p")
    pairs = f.join(
        p,
        (F.col("f.term") == F.col("p.term"))
        & (F.col("f.article_id") != F.col("p.article_id"))
        # a pair of two focus articles is counted from its smaller side only
        & (F.col("p.in_focus").isNull() | (F.col("f.article_id") < F.col("p.article_id")))
        & (
            F.col("f.day").isNull()
            | F.col("p.day").isNull()
            | (F.abs(F.col("f.day") - F.col("p.day")) <= WINDOW_DAYS)
        ),
    ).select(
        F.least("f.article_id", "p.article_id").alias("a"),
        F.greatest("f.article_id", "p.article_id").alias("b"),
        (F.col("f.w") * F.col("p.w")).alias("product"),
    )
    return pairs.groupBy("a", "b").agg(F.sum("product").alias("dot"))


def links(
    weighted: DataFrame,
    day: DataFrame,
    n: int,
    focus: DataFrame | None = None,
    within: bool = False,
) -> DataFrame:
    """Links (a < b, similarity, name_evidence) between articles, as the module docstring
    defines them, from weighted terms (weighted_terms; with `focus`, those of articles_near it
    suffice) and every article's day (days since 1970, null when undated). With `focus`
    (article_id), only the links with at least one end in it; `within`: with both.

    Dated pairs get their similarity and name evidence in one pass per date bucket
    (_window_links); pairs with an undated article, and the pairs around a focus, are
    joined by term and then to their ends' names. The postings and those joined candidates
    are computed before returning and kept on the executors (local checkpoints), as later
    steps read them again; the result itself is lazy."""
    cap = max(MIN_DF_CAP, int(n * MAX_DF_SHARE))
    vector = weighted.where(F.col("df") <= cap)
    postings = vector.where(F.col("df") >= 2)
    if focus is not None and within:
        postings = postings.join(focus, "article_id", "left_semi")
    elif focus is not None:
        # A pair around the focus shares only terms a focus article holds.
        held = postings.join(focus, "article_id", "left_semi").select("term")
        postings = postings.join(held, "term", "left_semi")
    postings = (
        postings.select("term", "article_id", "w")
        .join(day, "article_id")
        .localCheckpoint(eager=True)
    )
    if focus is None:
        norms = _norms(vector)
        dated = _window_links(postings, norms, _window_name_counts(weighted, day, n), day)
        undated = _cosine(_undated_dots(postings), norms).localCheckpoint(eager=True)
        found = dated.unionByName(_with_evidence(undated, weighted, day, n))
    else:
        dots = _focus_dots(postings, focus, within).localCheckpoint(eager=True)
        norms = _norms(vector.join(_ends(dots), "article_id", "left_semi"))
        candidates = _cosine(dots, norms).localCheckpoint(eager=True)
        found = _with_evidence(candidates, weighted, day, n)
    return found.where(F.col("similarity") * F.col("name_evidence") >= MIN_LINK_SCORE)


def _with_evidence(candidates: DataFrame, weighted: DataFrame, day: DataFrame, n: int) -> DataFrame:
    """Candidate pairs (a, b, similarity) with their name evidence, from their ends' names."""
    names = _window_name_counts(weighted, day, n, _ends(candidates))
    # Each article's names as one map term -> (df_w, n_w): a pair's evidence is a fold over one
    # map's keys, not a join that multiplies every pair by its names.
    # Computed once: both ends read it, and Spark would otherwise count the names twice.
    name_map = (
        names.groupBy("article_id")
        .agg(
            F.map_from_entries(F.collect_list(F.struct("term", F.struct("df_w", "n_w")))).alias("m")
        )
        .localCheckpoint(eager=True)
    )
    ma = name_map.select(F.col("article_id").alias("a"), F.col("m").alias("ma"))
    mb = name_map.select(F.col("article_id").alias("b"), F.col("m").alias("mb"))

    def shared(total, term):
        x, y = F.col("ma")[term], F.col("mb")[term]
        weight = F.log(
            (F.greatest(x["n_w"], y["n_w"]) + PSEUDO_ARTICLES) / F.greatest(x["df_w"], y["df_w"])
        )
        return total + F.when(y.isNotNull(), weight).otherwise(F.lit(0.0))

    evidence = F.aggregate(F.map_keys("ma"), F.lit(0.0), shared)
    return (
        candidates.join(ma, "a")
        .join(mb, "b")
        .select("a", "b", "similarity", evidence.alias("name_evidence"))
    )


def _norms(vector: DataFrame) -> DataFrame:
    return vector.groupBy("article_id").agg(F.sqrt(F.sum(F.col("w") ** 2)).alias("norm"))


def _ends(pairs: DataFrame) -> DataFrame:
    """The distinct articles (article_id) at either end of pairs (a, b)."""
    return (
        pairs.select(F.col("a").alias("article_id"))
        .union(pairs.select(F.col("b").alias("article_id")))
        .distinct()
    )


def _window_name_counts(
    weighted: DataFrame, day: DataFrame, n: int, only: DataFrame | None = None
) -> DataFrame:
    """(article_id, term, df_w, n_w) for each proper name of an article: how many articles of
    its date window (its WINDOW_DAYS bucket and the two beside it) contain the word, out of
    how many articles. A name common over years of news can still single out one story in its
    fortnight; undated articles fall back to the whole corpus (df, n). With `only`
    (article_id), for those articles' names alone."""
    bucket = F.floor(F.col("day") / WINDOW_DAYS)
    around = F.explode(F.array(*(F.col("bucket") + k for k in (-1, 0, 1)))).alias("center")
    names = weighted.where("name")
    if only is not None:
        names = names.join(only, "article_id", "left_semi")
    name_terms = names.select("term").distinct()
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
        names.join(day, "article_id")
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


def article_days(articles: DataFrame) -> DataFrame:
    """(article_id, day): days since 1970 of published_at, null when undated."""
    return articles.select(
        "article_id", F.datediff(F.to_date("published_at"), F.lit("1970-01-01")).alias("day")
    )


def story_links(articles: DataFrame) -> DataFrame:
    """Links (a < b, similarity, name_evidence) between articles (article_id, title, body,
    published_at), tokenizing them here: the rules without the tables."""
    n = articles.count()
    # Tokenized once: links reads the terms several times (publish_stories reads stored ones).
    terms = explode_terms(tokenize(articles)).localCheckpoint(eager=True)
    return links(weighted_terms(terms, term_stats(terms), n), article_days(articles), n)
