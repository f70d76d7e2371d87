"""Claim extraction on the issue's seed examples and on sentences from other kinds of news."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lake.bronze.parse import normalize_body
from lake.silver.extract import extract_claims
from lake.silver.kinds.length import METERS_PER_UNIT, UNIT_SPELLINGS
from lake.silver.quantities import words_to_number

from ..conftest import SEEDS


def seed_claims(name: str) -> tuple[str, list]:
    body = normalize_body((SEEDS / name).read_text(encoding="utf-8"))
    return body, extract_claims(name, body)


def find(claims, text: str):
    hits = [c for c in claims if text in c.claim_text]
    assert len(hits) == 1, [c.claim_text for c in claims]
    return hits[0]


def test_up_to_troops_credited_to_a_plan_described_to_nbc():
    body, claims = seed_claims("001_0eacdaaccfa7ca56.txt")
    c = find(claims, "up to 21,000 National Guard troops")
    assert (c.value, c.qualifier, c.upper, c.unit, c.kind) == (
        21000,
        "up_to",
        21000,
        "troops",
        "count",
    )
    assert c.attribution_kind == "document"
    assert c.cited_outlet == "NBC News"
    assert c.attribution.startswith("an operation plan described to NBC News by three sources")
    assert body[c.char_start : c.char_end] == c.claim_text


def test_almost_1600_credited_to_baksay_and_the_examiner():
    _, claims = seed_claims("003_6c01dbacb232ee45.txt")
    c = find(claims, "almost 1,600 illegal immigrants")
    assert (c.value, c.qualifier, c.lower, c.upper) == (1600, "almost", 1440, 1600)
    assert "Laszlo Baksay" in c.attribution
    assert c.cited_outlet == "Washington Examiner"
    date = find(claims, "May 28")
    assert (date.kind, date.value_text, date.value) == ("date", "--05-28", None)


def test_may_21_meeting_from_anonymous_sources():
    _, claims = seed_claims("004_953d131a4f74b23f.txt")
    c = find(claims, "May 21")
    assert (c.kind, c.value_text, c.attribution_kind) == ("date", "--05-21", "anonymous_sources")
    assert c.attribution == "four people familiar with the meeting"
    assert c.measure_key == "date:meeting"


def test_tens_of_thousands_is_vague_with_bounds_and_brands_are_not_claims():
    _, claims = seed_claims("002_51ff2334b7afe473.txt")
    c = find(claims, "tens of thousands of National Guard troops")
    assert (c.value, c.qualifier, c.lower, c.upper) == (None, "vague", 20000, 99999)
    texts = " | ".join(x.claim_text for x in claims)
    assert "Eleven" not in texts and "7" not in texts.split(" | ")
    assert "2025" not in texts  # the copyright year


def test_the_daily_arrest_target_shares_one_measure_key_across_articles():
    keys = {}
    for name, text in [
        ("000_60622ccef9644d1f.txt", "at least 3,000 migrants"),
        ("001_0eacdaaccfa7ca56.txt", "3,000 migrants"),
        ("002_51ff2334b7afe473.txt", "a minimum of 3,000 arrests"),
        ("003_6c01dbacb232ee45.txt", "a minimum of 3,000 arrests"),
        ("004_953d131a4f74b23f.txt", "3,000 people"),
    ]:
        _, claims = seed_claims(name)
        keys[name] = find(claims, text).measure_key
    assert set(keys.values()) == {"arrests/per_day"}
    _, claims = seed_claims("001_0eacdaaccfa7ca56.txt")
    assert find(claims, "3,000 ICE agents").measure_key == "ice agents"


def test_sources_counts_are_not_claims():
    _, claims = seed_claims("004_953d131a4f74b23f.txt")
    assert not [c for c in claims if c.unit in ("sources", "people") and c.value in (2, 4)]


# Sentences written for these tests, in the style of other beats.
@pytest.mark.parametrize(
    ("sentence", "text", "kind", "value", "qualifier", "unit"),
    [
        (
            "The storm killed at least 14 people, officials said.",
            "at least 14 people",
            "count",
            14,
            "at_least",
            "people",
        ),
        (
            "The company will cut roughly 1,200 jobs this year.",
            "roughly 1,200 jobs",
            "count",
            1200,
            "approximate",
            "jobs",
        ),
        ("Unemployment rose to 4.2% in March.", "4.2%", "percent", 4.2, "exact", "percent"),
        (
            "The city approved $3.5 million for repairs.",
            "$3.5 million",
            "money",
            3_500_000,
            "exact",
            "USD",
        ),
        (
            "Nearly two hundred protesters gathered downtown.",
            "Nearly two hundred protesters",
            "count",
            200,
            "almost",
            "protesters",
        ),
        (
            "The clinic vaccinates 500 children a week.",
            "500 children",
            "rate",
            500,
            "exact",
            "children",
        ),
        ("Arrests have tripled since January.", "tripled", "ratio", 3, "exact", "times"),
        (
            "More than 40 percent of voters backed the measure.",
            "More than 40 percent",
            "percent",
            40,
            "more_than",
            "percent",
        ),
    ],
)
def test_other_beats(sentence, text, kind, value, qualifier, unit):
    claims = extract_claims("a1", sentence)
    c = find(claims, text)
    assert (c.kind, c.value, c.qualifier, c.unit) == (kind, value, qualifier, unit)
    assert sentence[c.char_start : c.char_end] == c.claim_text


@pytest.mark.parametrize(
    "sentence",
    [
        "He finished No. 1 in his class.",
        "It was his second term in office.",
        "She shopped at 7-Eleven before the game.",
    ],
)
def test_not_claims(sentence):
    assert extract_claims("a1", sentence) == []


def test_dates_resolve_with_the_publication_date():
    published = datetime(2025, 5, 30, tzinfo=UTC)
    claims = extract_claims("a1", "Officials met last week and again on June 2.", published)
    by_text = {c.claim_text: c for c in claims}
    assert by_text["last week"].value_text == "2025-05-19/2025-05-25"
    assert by_text["June 2"].value_text == "2025-06-02"
    assert extract_claims("a1", "Officials met last week.")[0].value_text is None


@pytest.mark.parametrize(
    ("sentence", "dates"),
    [
        ("Applications are twice the level of last month.", []),
        ("Exports fell to 40 tonnes, down from 55 tonnes last year.", []),
        ("Turnout was lower than last year.", []),
        ("The council met last week to approve the plan.", ["last week"]),
        ("Last year, the city hired 40 teachers.", ["Last year"]),
    ],
)
def test_a_relative_period_that_is_a_comparison_baseline_is_no_date_claim(sentence, dates):
    found = [c.claim_text for c in extract_claims("a1", sentence) if c.kind == "date"]
    assert found == dates


def test_quoted_numbers_belong_to_the_speaker():
    body = '"We will hire 300 officers next year," Mayor Jane Doe said.'
    c = extract_claims("a1", body)[0]
    assert (c.value, c.attribution, c.attribution_kind) == (300, "Mayor Jane Doe", "named_person")


def test_claim_ids_are_stable():
    body = "About 2,000 troops were sent."
    first, again = extract_claims("a1", body), extract_claims("a1", body)
    assert [c.claim_id for c in first] == [c.claim_id for c in again]
    assert first[0].claim_id != extract_claims("a2", body)[0].claim_id


@pytest.mark.parametrize(
    ("words", "value"),
    [
        ("two", 2),
        ("twenty-one thousand", 21000),
        ("a dozen", 12),
        ("three hundred and five", 305),
        ("one million", 1_000_000),
        ("a hundred", 100),
    ],
)
def test_words_to_number(words, value):
    assert words_to_number(words) == value


@pytest.mark.parametrize(
    "sentence, text, measure_key",
    [
        # a date governed by an action verb dates that action, not the article's event
        ("Police detained 40 protesters on Friday, June 6.", "Friday, June 6", "date:arrests"),
        # a data source's date stamps the data
        (
            "The county had 812 cases, according to health data from late March.",
            "late March",
            "date:data",
        ),
        # an event noun in the sentence wins (a summit is a meeting)
        ("The summit on June 3 drew 40 leaders.", "June 3", "date:meeting"),
    ],
)
def test_what_a_date_dates(sentence, text, measure_key):
    claim = next(c for c in extract_claims("a1", sentence) if c.claim_text == text)
    assert claim.measure_key == measure_key


@pytest.mark.parametrize(
    "sentence, text, measure_key",
    [
        ("The city set aside $40 million for flood repairs.", "$40 million", "flood repairs"),
        (
            "The agency spends about $2 million a month on fuel.",
            "about $2 million",
            "fuel/per_month",
        ),
        ("Investors faced losses of $3.2 billion.", "$3.2 billion", "losses"),
        ("Voters backed a school levy worth $85 million.", "$85 million", "school levy"),
        ("The new bridge will cost $1.4 billion, officials said.", "$1.4 billion", "costs"),
        (
            "Officials said the budget gap has widened to $700 million.",
            "$700 million",
            "budget gap",
        ),
        # nothing says what the money is for
        ("It was $5 million.", "$5 million", "unknown"),
    ],
)
def test_what_an_amount_of_money_is_for(sentence, text, measure_key):
    claim = next(c for c in extract_claims("a1", sentence) if c.claim_text == text)
    assert claim.measure_key == measure_key


def test_a_part_introduced_by_including_is_its_own_measure():
    claims = extract_claims(
        "a1", "The district hired 300 teachers, including 120 from out of state, officials said."
    )
    keys = {c.claim_text: c.measure_key for c in claims}
    assert keys["300 teachers"] == "teachers"
    assert keys["120"] == "teachers/subset"


def test_mid_month_spans_the_middle_half_of_the_month():
    (claim,) = extract_claims("a1", "The talks collapsed in mid-March, officials said.")
    assert (claim.value_text, claim.date_start, claim.date_end) == (
        "--03-08/--03-23",
        "--03-08",
        "--03-23",
    )


@pytest.mark.parametrize(
    "sentence",
    [
        "Call the hotline at (415) 555-0199 for help.",
        "A shelter opened at 1200 Oak Street on the east side.",
        "Traffic backed up for miles on Interstate 95 after the crash.",
        "Families slept in the lot of a Motel 6 outside town.",
    ],
)
def test_phone_numbers_addresses_and_names_are_not_claims(sentence):
    assert extract_claims("a1", sentence) == []


def test_an_age_after_a_name_is_an_age_not_a_count():
    (claim,) = extract_claims("a1", "“We lost everything,” said Dana Ruiz, 54, who runs a bakery.")
    assert (claim.kind, claim.value, claim.unit, claim.measure_key) == (
        "age",
        54.0,
        "years",
        "age:ruiz",
    )


def test_a_capitalised_word_opening_the_sentence_does_not_make_a_name():
    (claim,) = extract_claims("a1", "About 400 residents left, the mayor said.")
    assert (claim.value, claim.qualifier) == (400.0, "approximate")


@pytest.mark.parametrize(
    "sentence, text, kind, measure_key",
    [
        # a percent with no "of NP" after it is of the noun before "of", else its clause subject
        (
            "Nurses are asking for a raise of 9 percent.",
            "9 percent",
            "percent",
            "percent:raises/demanded",
        ),
        ("Ridership has dropped 14% since March.", "14%", "percent", "percent:riderships"),
        (
            "A memo shows that membership in the union grew 8 percent last year.",
            "8 percent",
            "percent",
            "percent:memberships",
        ),
        (
            "The firm will cut 12 percent of its workforce.",
            "12 percent",
            "percent",
            "percent:workforces",
        ),
        # "N times the ..." is a multiplier; a ratio is of its clause's subject
        (
            "The flood covered five times the area of the 1998 one.",
            "five times",
            "ratio",
            "ratio:floods",
        ),
        (
            "Applications were nearly triple the level of last spring, the college said.",
            "nearly triple",
            "ratio",
            "ratio:applications",
        ),
        # a vague amount of dollars is money, named by what it is for
        (
            "Repairs will cost tens of millions of dollars, the council said.",
            "tens of millions of dollars",
            "money",
            "costs",
        ),
        # a people noun takes the action of the verb right after it
        ("Nine people have died in the floods.", "Nine people", "count", "deaths"),
        ("Some 40 people are feared dead.", "Some 40 people", "count", "deaths"),
        (
            "The new reservoir holds half the water of the old one.",
            "half",
            "ratio",
            "ratio:reservoirs",
        ),
        # an irregular past tense ends the noun phrase
        (
            "About 40 residents spent the night in a gym.",
            "About 40 residents",
            "count",
            "residents",
        ),
    ],
)
def test_what_a_percent_ratio_or_vague_amount_measures(sentence, text, kind, measure_key):
    claim = next(c for c in extract_claims("a1", sentence) if c.claim_text == text)
    assert (claim.kind, claim.measure_key) == (kind, measure_key)


def test_a_date_in_a_clause_after_the_speech_verb_dates_that_clause():
    said_on = extract_claims("a1", "The mayor said on June 3 that the bridge was safe.")
    assert find(said_on, "June 3").measure_key == "date:statement"
    said_that = extract_claims("a1", "The mayor said the bridge reopened on June 3.")
    assert find(said_that, "June 3").measure_key != "date:statement"


def test_three_times_without_a_comparison_is_not_a_ratio():
    claims = extract_claims("a1", "The committee met three times last year.")
    assert all(c.kind != "ratio" for c in claims)


def test_a_passive_speech_verb_does_not_make_its_subject_a_source():
    # "have been confirmed" reports the count; it does not say who reported it.
    claims = extract_claims("a1", "Twelve people have been confirmed dead, the company said.")
    claim = find(claims, "Twelve people")
    assert (claim.measure_key, claim.attribution) == ("deaths", "the company")
    all_told = extract_claims("a1", "All told, 8 miners were reported missing.")
    assert find(all_told, "8 miners").attribution is None


@pytest.mark.parametrize(
    "sentence, text, attribution, kind",
    [
        # "According to X," at the head of the sentence: X ends at the comma
        (
            "According to a county spreadsheet, 212 bridges need repairs.",
            "212 bridges",
            "a county spreadsheet",
            "document",
        ),
        # the name before an appositive is the speaker, after a dateline or a quote too
        (
            "OAKVILLE — Dana Pruitt, the county's flood manager, said 64 homes were lost.",
            "64 homes",
            "Dana Pruitt",
            "named_person",
        ),
        (
            "“We moved 90 families,” Omar Haddad, a shelter volunteer, told the Valley Courier.",
            "90 families",
            "Omar Haddad",
            "named_person",
        ),
        # people do not take an article
        (
            "The Coast Guard said 14 boats were missing.",
            "14 boats",
            "The Coast Guard",
            "organization",
        ),
        # a title before a name makes a person even when the title names an organization
        (
            "Fire Chief Lena Ortiz said 300 firefighters were on the line.",
            "300 firefighters",
            "Fire Chief Lena Ortiz",
            "named_person",
        ),
        # unnamed sources, capitalized at the start of the sentence or after the verb
        (
            "Officials who asked not to be named said 40 buses were sent.",
            "40 buses",
            "Officials who asked not to be named",
            "anonymous_sources",
        ),
        (
            "The plan calls for 500 new beds, said two people who have seen it.",
            "500 new beds",
            "two people who have seen it",
            "anonymous_sources",
        ),
        # "As first reported by X," credits the outlet
        (
            "As first reported by the Valley Courier, 75 stores will close.",
            "75 stores",
            "the Valley Courier",
            "media_outlet",
        ),
        # a report by an outlet is the outlet's reporting
        (
            "Some 80 pilots quit, according to a report by the Harbor Times.",
            "Some 80 pilots",
            "a report by the Harbor Times",
            "media_outlet",
        ),
        # documents "show"
        (
            "Court records show 1,200 evictions were filed.",
            "1,200 evictions",
            "Court records",
            "document",
        ),
        # "estimates" here is a noun: "Early" is no source
        ("Early estimates put the bill at $4 million.", "$4 million", None, "unattributed"),
    ],
)
def test_who_a_claim_is_attributed_to(sentence, text, attribution, kind):
    claim = find(extract_claims("a1", sentence), text)
    assert (claim.attribution, claim.attribution_kind) == (attribution, kind)


@pytest.mark.parametrize(
    "sentence, text, value, key",
    [
        ("One in five adults said they had skipped a meal.", "One in five", 0.2, "ratio:adults"),
        ("Forecasters give the party a 1-in-3 chance.", "1-in-3", 1 / 3, "ratio:chances"),
        ("Nine in 10 residents voted.", "Nine in 10", 0.9, "ratio:residents"),
        ("Pollsters Give Him a 1 In 3 Chance", "1 In 3", 1 / 3, "ratio:chances"),
        ("About 2 in 100 tests were positive.", "About 2 in 100", 0.02, "ratio:tests"),
    ],
)
def test_a_part_of_a_whole_is_a_ratio(sentence, text, value, key):
    (claim,) = extract_claims("a1", sentence)
    assert (claim.kind, claim.claim_text, claim.measure_key) == ("ratio", text, key)
    assert claim.value == pytest.approx(value)


def test_a_number_before_in_and_a_year_is_no_proportion():
    claims = extract_claims("a1", "The team won 3 in 2019.")
    assert [c.kind for c in claims] == ["count", "date"]


# Lengths: one claim per distance, height or depth, its unit as stated (plural, US spelling),
# its measure what its frame reads it measures, whatever unit the article chose.
@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        (
            "The storm moved 12 miles inland, about 19 kilometers.",
            [
                ("12 miles", 12, "miles", "exact", "length:storm"),
                ("about 19 kilometers", 19, "kilometers", "approximate", "length:storm"),
            ],
        ),
        (
            "The wall is 30 feet high and 5 to 10 miles long.",
            [
                ("30 feet high", 30, "feet", "exact", "length:wall height"),
                ("5 to 10 miles long", None, "miles", "range", "length:wall"),
            ],
        ),
        (
            "Crews repaved a 3-mile stretch of the highway.",
            [("3-mile", 3, "miles", "exact", "length:stretch")],
        ),
        (
            "The 6-foot-4 forward scored the winning basket.",
            [("6-foot-4", 76, "inches", "exact", "length:forward")],
        ),
        (
            "The suspect was 5 feet 9 inches tall, police said.",
            [("5 feet 9 inches tall", 69, "inches", "exact", "length:suspect height")],
        ),
        (
            "The tower is 828 m tall.",
            [("828 m tall", 828, "meters", "exact", "length:tower height")],
        ),
        (
            "The tanker was 200 nautical miles off the coast.",
            [("200 nautical miles", 200, "nautical miles", "exact", "length:tanker")],
        ),
        (
            # a figure in millions: the unit is spelled after the scale, not written onto it
            "The probe has traveled 3 million miles since its launch.",
            [("3 million miles", 3_000_000, "miles", "exact", "length:probe")],
        ),
        (
            "Forecasters expect 20 to 30 centimetres of snow.",
            [("20 to 30 centimetres", None, "centimeters", "range", "length:snow")],
        ),
        (
            "The blast was heard hundreds of miles away.",
            [("hundreds of miles", None, "miles", "vague", "length:blast")],
        ),
        (
            # the same length again in another unit measures what the first does
            "The storm moved 12 miles (19 kilometers) inland.",
            [
                ("12 miles", 12, "miles", "exact", "length:storm"),
                ("19 kilometers", 19, "kilometers", "exact", "length:storm"),
            ],
        ),
        (
            # a distance from a place is named by the place, whatever happened there
            "The attack took place less than 8 miles south of the White House.",
            [("less than 8 miles", 8, "miles", "up_to", "length:from white house")],
        ),
    ],
)
def test_a_length_is_its_value_in_its_stated_unit(sentence, expected):
    claims = [c for c in extract_claims("a1", sentence) if c.kind != "date"]
    assert [(c.claim_text, c.value, c.unit, c.qualifier, c.measure_key) for c in claims] == (
        expected
    )
    assert {c.kind for c in claims} == {"length"}
    for c in claims:
        assert sentence[c.char_start : c.char_end] == c.claim_text


def test_an_exact_length_holds_its_rounding():
    # "12 miles" and "19.3 kilometers" state one length, each rounded: their bounds overlap in
    # meters; "12 miles" and "13 miles" do not.
    def meters(sentence: str) -> tuple[float, float]:
        (c,) = extract_claims("a1", sentence)
        return c.lower * METERS_PER_UNIT[c.unit], c.upper * METERS_PER_UNIT[c.unit]

    miles, km = meters("The storm moved 12 miles."), meters("The storm moved 19.3 kilometers.")
    assert miles[0] <= km[1] and km[0] <= miles[1]
    assert meters("The storm moved 13 miles.")[0] > miles[1]
    # a round figure is rounded to its last non-zero digit, at most 5% of it
    (c,) = extract_claims("a1", "The plane flew at 35,000 feet.")
    assert (c.lower, c.value, c.upper) == (34_600, 35_000, 35_400)


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        # speeds and other rates stay what they were: a rate, or a count of its unit
        ("The car was going 60 miles per hour.", [("60 miles", "rate", "miles")]),
        ("The car was going 60 miles an hour.", [("60 miles", "rate", "miles")]),
        ("The van gets 30 miles per gallon.", [("30 miles", "count", "miles")]),
        ("The train reached 300 km/h.", [("300 km", "count", "kms")]),
        ("Trucks are limited to 30kph on the bridge.", [("30kph", "count", "kilometers per hour")]),
        # areas and volumes are not lengths
        ("The park covers 5 square miles.", [("5 square miles", "count", "miles")]),
        # "m" is meters only where a length is meant; elsewhere millions
        ("The fund reached 5 m people.", [("5 m people", "count", "people")]),
        ("Outreach is 48m and rising.", [("48m", "count", None)]),
        ("The budget is $5 m this year.", [("$5 m", "money", "USD")]),
    ],
)
def test_speeds_areas_and_millions_are_not_lengths(sentence, expected):
    claims = [c for c in extract_claims("a1", sentence) if c.kind != "date"]
    assert [(c.claim_text, c.kind, c.unit) for c in claims] == expected


@given(
    number=st.one_of(
        st.integers(min_value=1, max_value=9_999_999).map(lambda n: f"{n:,}"),
        st.decimals(min_value="0.1", max_value="9999.9", places=1).map(str),
    ),
    spelling=st.sampled_from(sorted(UNIT_SPELLINGS)),
)
def test_any_number_and_length_unit_is_one_length_that_reads_back(number, spelling):
    sentence = f"Crews cleared {number} {spelling} of the road on Monday."
    claims = [c for c in extract_claims("a1", sentence) if c.kind != "date"]
    assert [(c.kind, c.claim_text, c.unit) for c in claims] == [
        ("length", f"{number} {spelling}", UNIT_SPELLINGS[spelling])
    ]
    (c,) = claims
    assert c.value == float(number.replace(",", ""))
    assert c.lower <= c.value <= c.upper
    assert c.measure_key == "length:road"
