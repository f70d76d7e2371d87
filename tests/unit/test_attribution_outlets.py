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
