"""The CQE scorer's matching and unit mapping, on quantities written for these tests."""

from __future__ import annotations

import pytest

from evaluation.cqe import (
    Quantity,
    claim_quantities,
    claim_unit,
    gold_value,
    miss_class,
    one_to_one,
    prf,
    repo_counts,
    values_match,
)


def test_gold_values_decode_as_the_repository_does():
    assert gold_value("40-50") == (40.0, 50.0)
    assert gold_value("40-50", average_ranges=True) == 45.0
    assert gold_value("-5") == -5.0  # a leading minus is a sign, not a range
    assert gold_value("1E-5") == pytest.approx(1e-5)


def test_a_range_only_equals_a_range():
    assert values_match((8.0, 10.0), (8.0, 10.0))
    assert not values_match((8.0, 10.0), 9.0)
    assert not values_match(9.0, (8.0, 10.0))
    assert values_match(1_000_000.0, 1_000_000.000001)


def test_repository_counting_credits_a_value_before_its_unit():
    gold = [Quantity(5.0, "dollar")]
    tags = [Quantity(5.0, "euro"), Quantity(5.0, "dollar")]
    # value credited once (capped at one gold), unit matched by the second prediction
    assert repo_counts(gold, tags) == (1, 1)


def test_repository_counting_can_credit_one_prediction_twice():
    gold = [Quantity(5.0, "dollar"), Quantity(7.0, "dollar")]
    tags = [Quantity(5.0, "euro"), Quantity(5.0, "yen")]
    # the wrong-unit predictions stay in play: the first gold takes two value credits
    assert repo_counts(gold, tags) == (2, 0)
    assert [t is not None for t in one_to_one(gold, tags)] == [True, False]


def test_prf_rounds_like_the_repository_and_survives_no_predictions():
    assert prf(3, 4, 5) == {"P": 60.0, "R": 75.0, "F1": 66.7}
    assert prf(0, 4, 0) == {"P": 0.0, "R": 0.0, "F1": 0.0}


@pytest.mark.parametrize(
    "kind, unit, per, text, set_name, expected",
    [
        ("percent", "percent", None, "12%", "currency", "percentage"),
        ("money", "USD", None, "$3 million", "currency", "dollar"),
        ("money", "EUR", None, "€15", "currency", "euro"),
        ("money", None, None, "15 credits", "currency", "-"),
        ("count", "miles", None, "ten miles", "dimension", "mile"),
        ("count", "km", None, "5 km", "dimension", "kilometre"),
        ("length", "kilometers", None, "5 km", "dimension", "kilometre"),
        ("length", "nautical miles", None, "200 nautical miles", "dimension", "nautical mile"),
        ("mass", "pounds", None, "25 pounds", "dimension", "pound-mass"),
        ("mass", "metric tons", None, "16,000 metric tons", "dimension", "metric ton"),
        ("mass", "kilograms", None, "2.5 kg", "dimension", "kilogram"),
        ("count", "old", None, "seven years old", "age", "year of age"),
        ("count", None, None, "42", "dimension", "-"),
        ("rate", "barrels", "day", "9 barrels a day", "dimension", "barrel per day"),
    ],
)
def test_claim_units_in_the_repository_names(kind, unit, per, text, set_name, expected):
    assert claim_unit(kind, unit, per, text, set_name) == expected


def test_claims_of_a_written_sentence_become_quantities():
    found = claim_quantities("The tank holds 40 gallons and cost $3 million.", "dimension")
    assert [(q.value, q.unit) for q in found] == [(40.0, "gallon"), (3_000_000.0, "dollar")]


@pytest.mark.parametrize(
    "text, value, unit, expected",
    [
        ("It was -5 degrees outside.", -5.0, "fahrenheit", "negative number"),
        ("Add 75ml of milk.", 75.0, "millilitre", "number glued to its unit"),
        ("Between 8-10 rooms.", (8.0, 10.0), "room", "range"),
        ("He is 9 years old.", 9.0, "year of age", "age or duration"),
    ],
)
def test_misses_are_classed(text, value, unit, expected):
    cls, _ = miss_class(text, Quantity(value, unit), [])
    assert cls.startswith(expected)
