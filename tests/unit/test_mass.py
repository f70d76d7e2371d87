"""The mass kind ("a 2,000-pound bomb", "5 tons of cocaine", "2.5 kg") and where pounds are
money, on sentences written for these tests (not from any labelled set, not from the
extractor's or the generator's word lists)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lake.silver.extract import extract_claims
from lake.silver.kinds.mass import KILOGRAMS_PER_UNIT


def claims_of(text: str) -> list:
    return [c for c in extract_claims("a1", text) if c.kind != "date"]


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        (
            "Police seized 5 tons of cocaine at the port.",
            [("5 tons", 5, "tons", "exact", "mass:cocaine")],
        ),
        (
            "The plane dropped a 2,000-pound bomb on the bridge.",
            [("2,000-pound", 2000, "pounds", "exact", "mass:bomb")],
        ),
        (
            "The package weighed 2.5 kg when it arrived.",
            [("2.5 kg", 2.5, "kilograms", "exact", "mass:package")],
        ),
        (
            "The freighter carried 40 metric tons of grain.",
            [("40 metric tons", 40, "metric tons", "exact", "mass:grain")],
        ),
        (
            "Exports reached 1.2 million tonnes.",
            [("1.2 million tonnes", 1_200_000, "metric tons", "exact", "mass:exports")],
        ),
        (
            "Each capsule held 200 milligrams of the drug.",
            [("200 milligrams", 200, "milligrams", "exact", "mass:drug")],
        ),
        (
            "Divers recovered 12 ounces of gold and 30 grams of silver.",
            [
                ("12 ounces", 12, "ounces", "exact", "mass:gold"),
                ("30 grams", 30, "grams", "exact", "mass:silver"),
            ],
        ),
        (
            "The old warship displaced 5,000 long tons.",
            [("5,000 long tons", 5000, "long tons", "exact", "mass:old warship")],
        ),
        (
            "Agents found about 20 kilos of heroin in the van.",
            [("about 20 kilos", 20, "kilograms", "approximate", "mass:heroin")],
        ),
        (
            # the same mass again in another unit weighs what the first does
            "The satellite weighs 2.5 tonnes (5,500 pounds).",
            [
                ("2.5 tonnes", 2.5, "metric tons", "exact", "mass:satellite"),
                ("5,500 pounds", 5500, "pounds", "exact", "mass:satellite"),
            ],
        ),
    ],
)
def test_a_mass_is_its_value_in_its_stated_unit(sentence, expected):
    claims = claims_of(sentence)
    assert [(c.claim_text, c.value, c.unit, c.qualifier, c.measure_key) for c in claims] == (
        expected
    )
    assert {c.kind for c in claims} == {"mass"}
    for c in claims:
        assert sentence[c.char_start : c.char_end] == c.claim_text


@pytest.mark.parametrize(
    ("sentence", "span"),
    [
        # a count of pounds with nothing saying money weighs
        ("At his arrest last spring he was 215 pounds.", "215 pounds"),
        ("She lost 25 pounds over the summer.", "25 pounds"),
        ("The newborn is just over two pounds.", "over two pounds"),
        # a word of weighing wins over a word of money
        ("The prize pumpkin weighed 1,200 pounds.", "1,200 pounds"),
        # pounds of something weigh, even by the million
        ("The plant recalled 2 million pounds of ground beef.", "2 million pounds"),
        # a figure written onto "pound" was never money
        ("She carried a 10-pound bag up the hill.", "10-pound"),
    ],
)
def test_pounds_that_weigh_are_a_mass(sentence, span):
    (c,) = claims_of(sentence)
    assert (c.kind, c.claim_text, c.unit) == ("mass", span, "pounds")


@pytest.mark.parametrize(
    ("sentence", "span"),
    [
        # a symbol, a code or "sterling" says money
        ("The ticket cost £5 at the door.", "£5"),
        ("The fine was 5 million pounds sterling.", "5 million pounds"),
        ("The club paid GBP 300 for the kit.", "GBP 300"),
        # millions of pounds, of nothing, are money
        ("Its quarterly profit rose to 361 million pounds.", "361 million pounds"),
        # a word of money before the figure
        ("The club paid 300 pounds for the old bus.", "300 pounds"),
        ("The court fined him 800 pounds.", "800 pounds"),
        # pounds of money are money
        ("They spent 40 million pounds of taxpayers' money.", "40 million pounds"),
        # an amount per a period is pay
        ("He earns 300 pounds a week.", "300 pounds"),
    ],
)
def test_pounds_that_say_money_stay_money(sentence, span):
    (c,) = claims_of(sentence)
    assert (c.kind, c.claim_text, c.unit) == ("money", span, "GBP")


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        # a price per unit is money, not a mass
        ("Coffee sold for $3 a pound.", [("$3", "money")]),
        ("Steel traded at $400 per ton.", [("$400", "money")]),
        # "tons of" with no figure is vague: no claim
        ("There were tons of people at the fair.", []),
        # a bare "g" is not grams ("5G")
        ("The carrier rolled out 5G in the city.", []),
    ],
)
def test_rates_and_vague_weights_are_not_masses(sentence, expected):
    assert [(c.claim_text, c.kind) for c in claims_of(sentence)] == expected


def test_masses_compare_in_kilograms_by_exact_scales():
    assert KILOGRAMS_PER_UNIT["pounds"] == 0.45359237
    assert KILOGRAMS_PER_UNIT["ounces"] * 16 == pytest.approx(KILOGRAMS_PER_UNIT["pounds"])
    assert KILOGRAMS_PER_UNIT["tons"] == pytest.approx(2000 * KILOGRAMS_PER_UNIT["pounds"])
    assert KILOGRAMS_PER_UNIT["long tons"] == pytest.approx(2240 * KILOGRAMS_PER_UNIT["pounds"])
    assert KILOGRAMS_PER_UNIT["metric tons"] == 1000

    # "2.5 tonnes" and "5,500 pounds" state one mass, each rounded: their bounds overlap in kg
    def kilograms(sentence: str) -> tuple[float, float]:
        (c,) = claims_of(sentence)
        return c.lower * KILOGRAMS_PER_UNIT[c.unit], c.upper * KILOGRAMS_PER_UNIT[c.unit]

    tonnes = kilograms("The satellite weighs 2.5 tonnes.")
    pounds = kilograms("The satellite weighs 5,500 pounds.")
    assert tonnes[0] <= pounds[1] and pounds[0] <= tonnes[1]
    assert kilograms("The satellite weighs 2.7 tonnes.")[0] > tonnes[1]


_SPELLED = ("pounds", "lbs", "ounces", "oz", "tons", "tonnes", "metric tons", "kg", "grams")


@given(
    number=st.one_of(
        st.integers(min_value=2, max_value=999_999).map(lambda n: f"{n:,}"),
        st.decimals(min_value="0.1", max_value="9999.9", places=1).map(str),
    ),
    spelling=st.sampled_from(_SPELLED),
)
def test_any_figure_and_mass_unit_is_one_mass_that_reads_back(number, spelling):
    sentence = f"Inspectors weighed {number} {spelling} of scrap at the yard on Monday."
    claims = claims_of(sentence)
    assert [(c.kind, c.claim_text) for c in claims] == [("mass", f"{number} {spelling}")]
    (c,) = claims
    assert c.unit in KILOGRAMS_PER_UNIT
    assert c.value == float(number.replace(",", ""))
    assert c.lower <= c.value <= c.upper
    assert c.measure_key == "mass:scrap"
