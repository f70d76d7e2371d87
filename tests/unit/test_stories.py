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


def test_specific_figures_count_as_names_round_ones_and_years_do_not():
    terms = article_terms(
        "Clinics gave 32,824 doses in 2024, up from 300 in May; officials expect 5,000 more. "
        "About 1,190,000 people live there, 4.8 million in the region; 12 ships and 120 planes."
    )
    figures = {t: v for t, v in terms.items() if t.startswith("#")}
    # Digits (separators dropped) weigh as proper names: never written in lower case.
    assert figures == {"#32824": (True, False), "#1190000": (True, False), "#120": (True, False)}
