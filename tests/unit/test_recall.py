"""Counts the extractor used to miss, on sentences written for these tests."""

from __future__ import annotations

import pytest

from lake.silver.extract import extract_claims


@pytest.mark.parametrize(
    "sentence, text, value",
    [
        # after a dateline's dash a capitalised word opens the sentence: a number word or a
        # qualifier there is not part of a name ("Route 9", "Motel 6")
        ("HALIFAX, N.S. — Nine people were hurt when the ferry struck the pier.", "Nine people", 9),
        (
            "OSLO (Wire) — Roughly 420 passengers were stranded overnight.",
            "Roughly 420 passengers",
            420,
        ),
        ("TUCSON, Ariz. — Some 75 horses were moved to safety.", "Some 75 horses", 75),
        # a speech verb right after a number is an adjective of the count, not a source
        ("The county now has 312 confirmed cases.", "312 confirmed cases", 312),
        ("Health officials logged 14 reported deaths by Friday.", "14 reported deaths", 14),
    ],
)
def test_counts_after_a_dateline_or_before_a_participle(sentence, text, value):
    claims = extract_claims("a1", sentence)
    hit = [c for c in claims if c.claim_text == text]
    assert len(hit) == 1, [c.claim_text for c in claims]
    assert hit[0].value == value


def test_a_capitalised_number_word_inside_a_sentence_is_still_a_name():
    assert extract_claims("a1", "The band Three Dog Night played in Fresno.") == []


def test_a_number_after_a_name_inside_a_sentence_is_still_an_identifier():
    assert extract_claims("a1", "Traffic stalled near Exit 14 on the turnpike.") == []
