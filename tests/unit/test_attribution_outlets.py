"""Which outlet a claim is credited to (cited_outlet), on sentences written for these tests."""

from __future__ import annotations

import pytest

from lake.silver.extract import extract_claims


@pytest.mark.parametrize(
    "sentence, text, cited",
    [
        # "a report by X" credits X itself, so two articles citing X are one source
        (
            "About 120 cabins burned, according to a report by the Lakeside Herald.",
            "About 120 cabins",
            "Lakeside Herald",
        ),
        (
            "A report by the Granite Tribune says 45 bridges closed.",
            "45 bridges",
            "Granite Tribune",
        ),
        # an interview with an outlet is that outlet's reporting, as "told the X" is
        (
            "In an interview with the Dover Chronicle, the fire chief said 30 engines responded.",
            "30 engines",
            "Dover Chronicle",
        ),
        (
            "In an interview with reporters, the fire chief said 30 engines responded.",
            "30 engines",
            None,
        ),
    ],
)
def test_the_outlet_a_claim_is_credited_to(sentence, text, cited):
    (c,) = [c for c in extract_claims("a1", sentence) if c.claim_text == text]
    assert c.cited_outlet == cited


def test_a_name_before_the_speech_verb_is_not_part_of_the_outlet_after_it():
    sentence = "Crews restored 14 lines, Col. Dana Whitfield told Harbor Wire."
    (c,) = extract_claims("a1", sentence)
    assert (c.attribution, c.cited_outlet) == ("Col. Dana Whitfield", "Harbor Wire")


@pytest.mark.parametrize(
    "sentence, text, attribution",
    [
        # a source may end in "response"; only "In response" is no source
        (
            "According to two officials involved in the response, 60 shelters opened.",
            "60 shelters",
            "two officials involved in the response",
        ),
        (
            "People who coordinate the response said 12 trucks arrived.",
            "12 trucks",
            "People who coordinate the response",
        ),
    ],
)
def test_a_source_ending_in_response(sentence, text, attribution):
    (c,) = [c for c in extract_claims("a1", sentence) if c.claim_text == text]
    assert (c.attribution, c.attribution_kind) == (attribution, "anonymous_sources")


def test_in_response_is_no_source():
    (c,) = extract_claims("a1", "In response, the agency said 40 roads closed.")
    assert c.attribution == "the agency"


@pytest.mark.parametrize(
    "sentence, attribution",
    [
        # institutions named by what they are, and offices "of" something, are organizations
        ("Mercy General Hospital said 31 patients were admitted.", "Mercy General Hospital"),
        (
            "The Office of Emergency Services said 31 roads were closed.",
            "The Office of Emergency Services",
        ),
        ("About 31 lines failed, the grid operator said.", "the grid operator"),
        ("Fewer than 31 flights left, the state regulator said.", "the state regulator"),
    ],
)
def test_organizations_named_by_what_they_are(sentence, attribution):
    (c,) = [c for c in extract_claims("a1", sentence) if c.kind != "date"]
    assert (c.attribution, c.attribution_kind) == (attribution, "organization")


def test_a_person_is_still_a_person():
    (c,) = extract_claims("a1", "Hospital Director Lena Ortiz said 31 patients were admitted.")
    assert c.attribution_kind == "named_person"


def test_a_long_document_description_is_still_the_source():
    sentence = (
        "A memo circulated among county lawyers in the spring obtained by the Dover Chronicle "
        "shows that 44 wells failed."
    )
    (c,) = extract_claims("a1", sentence)
    assert (c.attribution_kind, c.cited_outlet) == ("document", "Dover Chronicle")
