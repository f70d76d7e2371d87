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


@pytest.mark.parametrize(
    "sentence, text, kind, bounds",
    [
        # a vague count of a scale, written without "of"
        ("Crews cleared several hundred trees.", "several hundred trees", "count", (200, 999)),
        ("The plant will shed a few thousand jobs.", "a few thousand jobs", "count", (2000, 5999)),
        ("Several dozen volunteers showed up.", "Several dozen volunteers", "count", (24, 119)),
        (
            "The upgrade will cost several million dollars.",
            "several million dollars",
            "money",
            (2e6, 9999999),
        ),
        # billions, like millions
        (
            "The storm caused billions of dollars in damage.",
            "billions of dollars",
            "money",
            (2e9, 999999999999),
        ),
    ],
)
def test_vague_amounts(sentence, text, kind, bounds):
    (c,) = [c for c in extract_claims("a1", sentence) if c.claim_text == text]
    assert (c.kind, c.qualifier, c.value, (c.lower, c.upper)) == (kind, "vague", None, bounds)


def test_several_of_a_count_is_not_a_vague_amount():
    claims = extract_claims("a1", "Several of the 40 homes burned.")
    assert [(c.claim_text, c.value) for c in claims] == [("40 homes", 40)]


def test_showed_up_is_no_speech_verb_but_shows_up_to_is():
    (came,) = extract_claims("a1", "About 300 fans showed up at the gate.")
    assert (came.claim_text, came.attribution) == ("About 300 fans", None)
    (shown,) = extract_claims("a1", "A county memo shows up to 90 roads were closed.")
    assert (shown.claim_text, shown.attribution_kind) == ("up to 90 roads", "document")
