"""What a claim measures (measure_key): rules checked on sentences written for these tests."""

from __future__ import annotations

import pytest

from lake.silver.extract import extract_claims


def claim(sentence: str, text: str):
    hits = [c for c in extract_claims("a1", sentence) if c.claim_text == text]
    assert len(hits) == 1, [c.claim_text for c in extract_claims("a1", sentence)]
    return hits[0]


@pytest.mark.parametrize(
    "sentence, text, measure_key",
    [
        # a name is not an adverb or a verb: "Daily" in an outlet's name sets no rate, and
        # "Sentinel" does not start the verb "sent"
        (
            "Editors at the Daily Ledger said 40 volunteers cleared the debris.",
            "40 volunteers",
            "volunteers",
        ),
        (
            "The Evening Sentinel reported that 85 residents have died since the spill.",
            "85 residents",
            "deaths",
        ),
        # a noun that shares a verb's stem is not the verb: the fire marshal fired nobody
        ("The county fire marshal said 9 people have died.", "9 people", "deaths"),
        ("The court sentenced 14 people after the riot.", "14 people", "people"),
        # while the verb forms still name the action
        ("The chain fired 120 people last spring.", "120 people", "dismissals"),
        ("The state sent 300 people to the border.", "300 people", "deployments"),
        # a capitalised word after a dateline's dash opens the sentence
        (
            "BAYPORT, Maine — Rescue teams reached 75 people stranded on rooftops.",
            "75 people",
            "rescues",
        ),
    ],
)
def test_names_are_not_verbs_or_rates(sentence, text, measure_key):
    c = claim(sentence, text)
    assert (c.measure_key, c.per) == (measure_key, None)


def test_a_lowercase_rate_adverb_still_makes_a_rate():
    c = claim("Crews cleared about 300 tons of debris daily.", "about 300 tons")
    assert (c.kind, c.per) == ("rate", "day")


@pytest.mark.parametrize(
    "sentence, text, measure_key",
    [
        # where the source spoke is not what the date dates
        (
            "In an interview with the Harbor Gazette, the mayor said the span reopened on June 3.",
            "June 3",
            "date:reopen",
        ),
        (
            "According to a person briefed on the talks, the plant closes on May 9.",
            "May 9",
            "date:close",
        ),
        ("The Summit Daily reported that the plant closed on May 9.", "May 9", "date:close"),
        # unless the date is the interview's own
        ("In an interview on Tuesday, the mayor praised the crews.", "Tuesday", "date:statement"),
        # an event noun of the sentence's own still names the date
        ("The hearing on June 3 ran past midnight.", "June 3", "date:hearing"),
    ],
)
def test_an_event_noun_inside_a_source_does_not_name_the_date(sentence, text, measure_key):
    assert claim(sentence, text).measure_key == measure_key


def test_a_date_is_keyed_by_its_own_sentences_event_whatever_else_the_article_mentions():
    body = "The hearing drew crowds. The hearing ran long. The plant closes on May 9."
    (c,) = [c for c in extract_claims("a1", body) if c.kind == "date"]
    assert c.measure_key == "date:close"


def test_a_date_naming_no_event_is_unnamed_and_never_reconciled_with_another():
    """One key for every date that names nothing merged unrelated dates into false conflicts;
    such a date is "unnamed", a fact of its own in gold (dbt var solitary_measures)."""
    (c,) = [c for c in extract_claims("a1", "By May 9, nothing.") if c.kind == "date"]
    assert c.measure_key == "date:unnamed" and c.frame.event is None


@pytest.mark.parametrize(
    "sentence, text, side",
    [
        # in a negotiation, what one side asks for and what the other offers are two figures
        ("The pilots' union wants a raise of 15%.", "15%", "demanded"),
        ("Nurses are holding out for a raise of 9 percent.", "9 percent", "demanded"),
        (
            "The hospital has offered a raise of 4 percent, a spokesman said.",
            "4 percent",
            "offered",
        ),
        ("Management tabled a pay increase of 3%.", "3%", "offered"),
        (
            "The city is seeking $40 million in damages from the contractor.",
            "$40 million",
            "demanded",
        ),
        # "demand" the noun, a plan that "calls for", a verb in another clause: no side
        ("Electricity demand peaked at 9,100 megawatts.", "9,100 megawatts", None),
        ("The plan calls for $2 billion in new spending.", "$2 billion", None),
        ("Workers want a deal, and the company said revenue rose 8 percent.", "8 percent", None),
    ],
)
def test_a_figure_demanded_or_offered_says_which_side(sentence, text, side):
    c = claim(sentence, text)
    assert (
        c.measure_key.endswith(f"/{side}")
        if side
        else not c.measure_key.endswith(("/demanded", "/offered"))
    )
    assert (f"stance:{side}" in c.measure_terms) == (side is not None)


def test_the_nearest_negotiating_verb_decides():
    c = claim("Workers want more than management offered 4% in May.", "4%")
    assert c.measure_key.endswith("/offered")


def test_seeking_to_act_is_an_aim_not_a_demand():
    c = claim("The agency will seek to hire 400 inspectors this year.", "400 inspectors")
    assert c.measure_key == "inspectors"


@pytest.mark.parametrize(
    "sentence, text, measure_key",
    [
        # people hired for a while or in someone's place are not the regular ones
        (
            "The mill brought in 250 replacement workers.",
            "250 replacement workers",
            "temporary workers",
        ),
        (
            "The district called in 40 substitute teachers.",
            "40 substitute teachers",
            "temporary teachers",
        ),
        (
            "Stores will add 9,000 temporary workers for the holidays.",
            "9,000 temporary workers",
            "temporary workers",
        ),
        ("About 1,200 workers walked out on Monday.", "About 1,200 workers", "workers"),
    ],
)
def test_temporary_or_replacement_people_are_their_own_count(sentence, text, measure_key):
    assert claim(sentence, text).measure_key == measure_key


@pytest.mark.parametrize(
    "sentence, text, measure_key",
    [
        # a toll counts deaths, whatever noun (if any) the writer put after the number
        ("The toll rose to 23, officials said.", "23", "deaths"),
        ("By Sunday the toll had climbed to 58 people.", "58 people", "deaths"),
        ("The death toll from the landslide stood at 14.", "14", "deaths"),
        # a road toll is money, and a toll that is not the clause's subject counts nothing
        ("The bridge toll rose to $7.50 in May.", "$7.50", "bridge toll"),
        ("Officials counted 300 people at the toll plaza.", "300 people", "people"),
    ],
)
def test_a_toll_counts_deaths(sentence, text, measure_key):
    assert claim(sentence, text).measure_key == measure_key


@pytest.mark.parametrize(
    "sentence, text, measure_key",
    [
        # people who fled are displaced; people ordered to leave are evacuated
        (
            "Nearly 9,000 villagers have fled across the river.",
            "Nearly 9,000 villagers",
            "villagers",
        ),
        (
            "Nearly 9,000 people have fled across the river.",
            "Nearly 9,000 people",
            "displaced people",
        ),
        (
            "About 640 residents were ordered to leave the valley.",
            "About 640 residents",
            "evacuations",
        ),
        ("Some 80 residents were told to evacuate by noon.", "Some 80 residents", "evacuations"),
        ("About 640 residents were ordered to stay indoors.", "About 640 residents", "residents"),
    ],
)
def test_fleeing_and_ordered_to_leave(sentence, text, measure_key):
    assert claim(sentence, text).measure_key == measure_key


@pytest.mark.parametrize(
    "sentence, text, measure_key",
    [
        # "service members" are troops; "the Guard" is the National Guard
        (
            "About 1,900 service members shipped out on Monday.",
            "About 1,900 service members",
            "troops",
        ),
        (
            "The governor called up 600 Guard soldiers.",
            "600 Guard soldiers",
            "national guard troops",
        ),
        (
            "The governor called up 600 National Guard troops.",
            "600 National Guard troops",
            "national guard troops",
        ),
        # another guard is not
        (
            "Eight Coast Guard cutters joined the search.",
            "Eight Coast Guard cutters",
            "coast guard cutters",
        ),
    ],
)
def test_military_names(sentence, text, measure_key):
    assert claim(sentence, text).measure_key == measure_key


@pytest.mark.parametrize(
    "sentence, text, measure_key",
    [
        # an amount approved, allocated or pledged is funding, not its giver
        ("The council approved $4.5 million to repave Main Street.", "$4.5 million", "funding"),
        ("Donors pledged an additional $800,000 after the flood.", "$800,000", "funding"),
        # what it is for still wins when the sentence says it
        ("The council allocated $2 million for road repairs.", "$2 million", "road repairs"),
        # a rate adverb between the amount and what it is spent on
        ("The city spends $90,000 monthly on security.", "$90,000", "security/per_month"),
    ],
)
def test_what_granted_money_is(sentence, text, measure_key):
    assert claim(sentence, text).measure_key == measure_key


@pytest.mark.parametrize(
    "sentence, text, measure_key",
    [
        # going to the polls is the vote; certifying the results is another event
        ("Residents went to the polls on March 4 to pick a mayor.", "March 4", "date:vote"),
        (
            "The county will certify the count on Friday, March 14.",
            "Friday, March 14",
            "date:certification",
        ),
        ("Certification of the results is due on March 21.", "March 21", "date:certification"),
    ],
)
def test_election_dates(sentence, text, measure_key):
    assert claim(sentence, text).measure_key == measure_key


@pytest.mark.parametrize(
    "sentence, text, measure_key",
    [
        # a unit says how much, the subject rising to or standing at it says of what
        ("Demand peaked at 31,000 megawatts on Tuesday.", "31,000 megawatts", "megawatts:demand"),
        ("The river rose to 31 feet on Sunday.", "31 feet", "length:river"),
        ("Gas use has climbed to 4,000 barrels a day.", "4,000 barrels", "barrels:use/per_day"),
        # otherwise the unit is the key, as before
        ("A storm knocked out 2,000 megawatts.", "2,000 megawatts", "megawatts:storm"),
        ("The fire has burned 9,000 acres.", "9,000 acres", "acres:fire"),
    ],
)
def test_a_unit_rising_to_or_standing_at_is_its_subject(sentence, text, measure_key):
    assert claim(sentence, text).measure_key == measure_key


@pytest.mark.parametrize(
    "sentence, text, measure_key",
    [
        # things turned down are not all of them
        (
            "About 2,300 ballots were rejected over late postmarks.",
            "About 2,300 ballots",
            "rejected ballots",
        ),
        (
            "Clerks set aside 410 ballots with missing signatures.",
            "410 ballots",
            "rejected ballots",
        ),
        ("The agency denied 40 permits last year.", "40 permits", "rejected permits"),
        ("Voters returned 88,000 ballots by Friday.", "88,000 ballots", "ballots"),
    ],
)
def test_things_turned_down_are_their_own_count(sentence, text, measure_key):
    assert claim(sentence, text).measure_key == measure_key


@pytest.mark.parametrize(
    "sentence, text, measure_key",
    [
        # a margin of victory is not the votes cast
        ("The mayor won by 312 votes.", "312 votes", "margin:votes"),
        ("The race was decided by fewer than 90 votes.", "fewer than 90 votes", "margin:votes"),
        ("Her margin was 4,100 votes.", "4,100 votes", "margin:votes"),
        ("Voters cast 61,000 votes in the runoff.", "61,000 votes", "votes"),
        # "by" after a verb of change is no margin
        ("Turnout grew by 3,000 voters.", "3,000 voters", "voters"),
    ],
)
def test_a_margin_of_victory(sentence, text, measure_key):
    assert claim(sentence, text).measure_key == measure_key
