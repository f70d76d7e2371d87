"""Story grouping's pure parts: which words count as proper names, and average linkage."""

from __future__ import annotations

from lake.silver.stories import article_terms, average_linkage


def test_capitalized_inside_a_sentence_is_a_proper_name_candidate():
    terms = article_terms(
        "Floods hit Marlow on Tuesday. The river rose, officials in Marlow said.\n"
        "“Marlow will recover,” the mayor said. Rivers rise."
    )
    # (capitalized inside a sentence, written in lower case)
    assert terms["marlow"] == (True, False)
    assert terms["tuesday"] == (True, False)
    assert terms["floods"] == (False, False)  # only ever first in its sentence
    assert terms["river"] == (False, True)
    assert terms["rivers"] == (False, False)
    assert terms["recover"] == (False, True)
    assert "the" not in terms and "on" not in terms  # function words and short words


def test_average_linkage_does_not_chain_through_one_stray_link():
    links = [
        ("a1", "a2", 0.6),
        ("a2", "a3", 0.5),
        ("a1", "a3", 0.4),
        ("b1", "b2", 0.7),
        ("a3", "b1", 0.3),  # one link between the two stories
    ]
    groups = average_linkage(["a1", "a2", "a3", "b1", "b2", "c1"], links, 0.1)
    assert groups == {
        "a1": "a1",
        "a2": "a1",
        "a3": "a1",
        "b1": "b1",
        "b2": "b1",
        "c1": "c1",
    }
    # Single linkage at the same threshold would have made one group of five:
    # the mean over the 3 x 2 pairs is 0.3 / 6 = 0.05 < 0.1.
    assert set(average_linkage(["a3", "b1"], [("a3", "b1", 0.3)], 0.1).values()) == {"a3"}


def test_two_tight_stories_linked_loosely_stay_apart():
    # a and b are tight (mean 0.5 within each); every pair across is linked at 0.15: the mean
    # across, 0.15, passes the 0.1 threshold but is under 0.4 x 0.5 = 0.2 of their cohesion.
    within = [("a1", "a2", 0.5), ("a1", "a3", 0.5), ("a2", "a3", 0.5), ("b1", "b2", 0.5)]
    across = [(a, b, 0.15) for a in ("a1", "a2", "a3") for b in ("b1", "b2")]
    apart = average_linkage(["a1", "a2", "a3", "b1", "b2"], within + across, 0.1)
    assert apart == {"a1": "a1", "a2": "a1", "a3": "a1", "b1": "b1", "b2": "b1"}
    # At 0.25 across (over 0.2) they are one story.
    closer = [(a, b, 0.25) for a in ("a1", "a2", "a3") for b in ("b1", "b2")]
    together = average_linkage(["a1", "a2", "a3", "b1", "b2"], within + closer, 0.1)
    assert set(together.values()) == {"a1"}
    # A lone article is no group of several: n joins a at 0.15 whatever a's cohesion.
    assert average_linkage(["a1", "n"], [("a1", "n", 0.15)], 0.1) == {"a1": "a1", "n": "a1"}


def test_going_on_from_stories_a_self_link_is_a_storys_cohesion():
    # Stories s (3 articles) and t (2) formed earlier; 0.9 over 6 pairs across is a mean of
    # 0.15. Without their inner links they merge; with them (s: 1.5 over 3 pairs, t: 0.5 over
    # 1, cohesion 0.5 each) they stay apart, as over all articles above.
    sizes = {"s": 3, "t": 2}
    assert set(average_linkage(["s", "t"], [("s", "t", 0.9)], 0.1, sizes).values()) == {"s"}
    links = [("s", "t", 0.9), ("s", "s", 1.5), ("t", "t", 0.5)]
    assert average_linkage(["s", "t"], links, 0.1, sizes) == {"s": "s", "t": "t"}


def test_specific_figures_count_as_names_round_ones_and_years_do_not():
    terms = article_terms(
        "Clinics gave 32,824 doses in 2024, up from 300 in May; officials expect 5,000 more. "
        "About 1,190,000 people live there, 4.8 million in the region; 12 ships and 120 planes."
    )
    figures = {t: v for t, v in terms.items() if t.startswith("#")}
    # Digits (separators dropped) weigh as proper names: never written in lower case.
    assert figures == {"#32824": (True, False), "#1190000": (True, False), "#120": (True, False)}


def test_linkage_goes_on_from_stories_formed_earlier():
    # Story s = {s1, s2, s3} was formed earlier. A new article n links to two of its members:
    # the mean over the 3 pairs, (0.2 + 0.15 + 0) / 3 = 0.117, reaches the 0.1 threshold.
    story = {"s": 3, "n": 1}
    assert average_linkage(["s", "n"], [("s", "n", 0.35)], 0.1, story) == {"s": "n", "n": "n"}


def test_a_lone_article_joins_the_story_it_links_to_most():
    links = [
        ("a1", "a2", 0.6),
        ("a1", "a3", 0.5),
        ("a2", "a3", 0.4),
        ("b1", "b2", 0.5),
        ("a1", "x", 0.12),  # mean over a's 3 articles 0.04
        ("b1", "x", 0.15),  # mean over b's 2 articles 0.075
    ]
    groups = average_linkage(["a1", "a2", "a3", "b1", "b2", "x", "y"], links, 0.1)
    # No mean reaches 0.1, but x links to b (0.15) more than to a (0.12); y links to nothing.
    assert groups == {
        "a1": "a1",
        "a2": "a1",
        "a3": "a1",
        "b1": "b1",
        "b2": "b1",
        "x": "b1",
        "y": "y",
    }
    # Going on from stories formed earlier, a story's link is the sum of its articles' links:
    # n links to s (3 articles, 0.25) and t (2 articles, 0.18), means 0.083 and 0.09.
    sizes = {"s": 3, "t": 2, "n": 1, "m": 1}
    continued = average_linkage(
        ["s", "t", "n", "m"], [("s", "n", 0.25), ("n", "t", 0.18)], 0.1, sizes
    )
    assert continued == {"s": "n", "n": "n", "t": "t", "m": "m"}


def test_a_stray_that_joined_through_one_strong_link_moves_to_the_story_it_links_to_more():
    a = [("a1", "a2", 0.6), ("a1", "a3", 0.6), ("a2", "a3", 0.6)]
    b = [("b1", "b2", 0.5), ("b1", "b3", 0.5), ("b2", "b3", 0.5)]
    nodes = ["a1", "a2", "a3", "b1", "b2", "b3", "x"]
    # x links to a1 at 0.9, the strongest link of all, so it joins a1 first and a with it
    # (over 4 x 3 pairs the two stories link at most 0.0875, under the 0.1 threshold). Its
    # links to b, 3 x 0.35 = 1.05 (mean 0.35), beat those to a's other three, 0.9 (mean 0.3).
    to_b = [("x", b1, 0.35) for b1 in ("b1", "b2", "b3")]
    moved = average_linkage(nodes, [*a, *b, ("x", "a1", 0.9), *to_b], 0.1)
    assert moved == {
        "a1": "a1",
        "a2": "a1",
        "a3": "a1",
        "b1": "b1",
        "b2": "b1",
        "b3": "b1",
        "x": "b1",
    }
    # At 0.25 each (sum 0.75 < 0.9, mean 0.25 < 0.3) x stays where the linkage put it.
    to_b = [("x", b1, 0.25) for b1 in ("b1", "b2", "b3")]
    stays = average_linkage(nodes, [*a, *b, ("x", "a1", 0.9), *to_b], 0.1)
    assert stays["x"] == "a1" and stays["b3"] == "b1"


def test_continuing_from_the_stories_gives_what_linkage_over_all_articles_gives():
    links = {
        ("a1", "a2"): 0.6,
        ("a1", "a3"): 0.5,
        ("a2", "a3"): 0.4,
        ("b1", "b2"): 0.5,
        ("a3", "n"): 0.3,
        ("a1", "n"): 0.2,
        ("b1", "n"): 0.05,
    }
    everything = average_linkage(
        ["a1", "a2", "a3", "b1", "b2", "n"], [(a, b, w) for (a, b), w in links.items()], 0.1
    )
    # The stories without n, then n against them: a story's link sums its articles' links.
    before = average_linkage(
        ["a1", "a2", "a3", "b1", "b2"],
        [(a, b, w) for (a, b), w in links.items() if "n" not in (a, b)],
        0.1,
    )
    assert before == {"a1": "a1", "a2": "a1", "a3": "a1", "b1": "b1", "b2": "b1"}
    continued = average_linkage(
        ["a1", "b1", "n"], [("a1", "n", 0.5), ("b1", "n", 0.05)], 0.1, {"a1": 3, "b1": 2}
    )
    assert continued == {"a1": "a1", "n": "a1", "b1": "b1"}
    assert everything == {**before, "n": "a1"}


def test_bucket_links_are_the_pairs_and_evidence_a_loop_over_every_pair_finds():
    import itertools
    import math
    import random

    import pandas as pd

    from lake.silver.stories import LINK_THRESHOLD, PSEUDO_ARTICLES, WINDOW_DAYS, _bucket_links

    rng = random.Random(5)
    vocabulary = [f"t{i}" for i in range(12)]
    people = [f"n{i}" for i in range(6)]
    # A name's articles in the window of each bucket (the home bucket's, the next one's), and
    # how many articles each window holds.
    df_w = {(name, home): rng.randrange(2, 40) for name in people for home in (True, False)}
    n_w = {True: 400.0, False: 520.0}
    articles = {}  # id -> (day, home, {term: w}, norm, names)
    for i in range(24):
        home = i < 14  # the bucket's own articles; the rest are the next bucket's
        day = rng.randrange(0, 14) if home else rng.randrange(14, 28)
        vector = {t: rng.uniform(0.5, 3.0) for t in rng.sample(vocabulary, 4)}
        norm = sum(w * w for w in vector.values()) ** 0.5 * rng.uniform(1.0, 1.5)
        articles[f"x{i:02d}"] = (day, home, vector, norm, set(rng.sample(people, 2)))
    frame = pd.DataFrame(
        [
            (t, a, w, float(day), norm, None, None, home)
            for a, (day, home, vector, norm, _) in articles.items()
            for t, w in vector.items()
        ]
        + [
            (name, a, None, float(day), None, float(df_w[(name, home)]), n_w[home], home)
            for a, (day, home, _, _, names) in articles.items()
            for name in names
        ],
        columns=["term", "article_id", "w", "day", "norm", "df_w", "n_w", "home"],
    )
    expected = {}
    for a, b in itertools.combinations(sorted(articles), 2):
        (da, ha, va, na, pa), (db, hb, vb, nb, pb) = articles[a], articles[b]
        if not (ha or hb) or abs(da - db) > WINDOW_DAYS:
            continue  # two next-bucket articles are the next bucket's own pairs
        similarity = sum(va[t] * vb[t] for t in va.keys() & vb.keys()) / (na * nb)
        evidence = sum(
            math.log((max(n_w[ha], n_w[hb]) + PSEUDO_ARTICLES) / max(df_w[(t, ha)], df_w[(t, hb)]))
            for t in pa & pb
        )
        if similarity >= LINK_THRESHOLD:
            expected[(a, b)] = (similarity, evidence)
    found = _bucket_links(frame)
    assert len(expected) > 10  # the case has pairs on both sides of the threshold
    assert {e for _, e in expected.values()} != {0.0}  # and pairs sharing names
    assert set(zip(found["a"], found["b"], strict=True)) == set(expected)
    for a, b, similarity, evidence in found.itertuples(index=False):
        assert abs(similarity - expected[(a, b)][0]) < 1e-12
        assert abs(evidence - expected[(a, b)][1]) < 1e-9
