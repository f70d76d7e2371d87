"""mass: a weight ("a 2,000-pound bomb", "300 pounds", "5 tons of cocaine", "2.5 kg", "40 metric
tons", "200 milligrams").

Found by the quantity finder (lake.silver.quantities), whose figures MASSES turns into masses
with the reading every unit kind shares (lake.silver.kinds.units): a figure followed by a unit
of mass, or with one written onto it (the finder's attached units, lake.silver.lexicon's
ATTACHED_UNITS: "2,000-pound", "200lbs", "2.5kg"). A figure per anything ("$3 a pound", "$400
per ton", "300 pounds per square inch") is not a mass. A mass keeps its stated value and unit
(unit: the unit's name, plural, US spelling: "metric tons"); gold compares masses in kilograms
(gold_unit, by `units`). A "ton" is the US short ton (2,000 pounds), as American news means it;
"tonnes" and "metric tons" are 1,000 kg; a long ton only where it is spelled "long ton". "Tons
of" with no figure is vague and no claim. Its measure_key is "mass:" + what its frame reads it
measures ("police seized 5 tons of cocaine", "a 2,000-pound bomb"); "mass:unnamed" is kept in
silver and reconciled with nothing, as an unnamed length.

Pounds are also money. The finder reads a figure followed by the word "pounds" as an amount of
sterling (lake.silver.kinds.money's CURRENCY_WORDS); a mass takes it back (`_pounds_weigh`)
unless the sentence states money:

* "£", "GBP", "pence" or "sterling" anywhere in the sentence ("5 million pounds sterling") ->
  money; so is an amount per a period ("50 pounds a week": the finder's rate);
* a word of weighing before the figure ("weighs 300 pounds", "a weight of") -> mass;
* pounds of something ("2 million pounds of ground beef", "300 pounds of cocaine") -> mass,
  unless it is money ("of taxpayers' money");
* a figure in millions or billions ("361 million pounds") -> money;
* a word of money before the figure in its clause ("paid 300 pounds", "a fine of 50 pounds") ->
  money;
* any other count of pounds ("he was 215 pounds", "lost 25 pounds", "over two pounds") -> mass.

A figure of pounds written with a symbol or code ("£5", "GBP 5") is money before this reads it,
and a figure written onto "pound" ("a 10-pound bag", "one pound") was never money.
"""

from __future__ import annotations

import re
from typing import Any

from lake.silver.kinds.base import Kind
from lake.silver.kinds.units import UnitReading, restates

# What one of each stored unit is in kilograms (exact: the international avoirdupois pound and
# ounce; the US short ton of 2,000 pounds and the British long ton of 2,240).
KILOGRAMS_PER_UNIT = {
    "milligrams": 0.000001,
    "grams": 0.001,
    "ounces": 0.028349523125,
    "pounds": 0.45359237,
    "kilograms": 1,
    "tons": 907.18474,
    "metric tons": 1000,
    "long tons": 1016.0469088,
}
# Each spelling after a figure -> the unit stored (the finder's attached units, "2,000-pound",
# "2.5kg", come as the plural words here). "g" (a gravity, "5G") and "t" are left out.
UNIT_SPELLINGS = {
    **{w: "milligrams" for w in ("milligram", "milligrams", "milligramme", "milligrammes", "mg")},
    **{w: "grams" for w in ("gram", "grams", "gramme", "grammes")},
    **{w: "ounces" for w in ("ounce", "ounces", "oz")},
    **{w: "pounds" for w in ("pound", "pounds", "lb", "lbs")},
    **{w: "kilograms" for w in ("kilogram", "kilograms", "kilogramme", "kilogrammes")},
    **{w: "kilograms" for w in ("kg", "kgs", "kilo", "kilos")},
    **{w: "tons" for w in ("ton", "tons", "short ton", "short tons")},
    **{
        w: "metric tons"
        for w in ("tonne", "tonnes", "metric ton", "metric tons", "metric tonne", "metric tonnes")
    },
    **{w: "long tons" for w in ("long ton", "long tons")},
}

# The sentence states money in sterling: the pounds are money.
_STERLING = re.compile(r"£|\bGBP\b|\bpence\b|\bsterling\b", re.IGNORECASE)
# "pounds" right after the figure, as the finder read it for money.
_POUNDS_AFTER = re.compile(r"\s+pounds\b", re.IGNORECASE)
# What pounds are of ("of cocaine", "of the drug", "of taxpayers' money").
_OF_AFTER = re.compile(r"\s+of\s+(?:(?:the|their|his|her|its|our)\s+)?(?P<noun>[a-z][\w'’]*)", re.I)
# Nouns that make "pounds of" money.
MONEY_NOUNS = frozenset((
    "money", "cash", "funding", "funds", "investment", "investments", "aid", "debt", "debts",
    "spending", "revenue", "profit", "profits", "taxpayers", "taxpayers'", "taxpayers’",
    "public", "savings", "losses", "damages", "compensation",
))  # fmt: skip
# A word of weighing before the figure, in its clause: the pounds are a weight.
_WEIGH_BEFORE = re.compile(
    r"\b(?:weigh|weighs|weighed|weighing|weight|weights|heavier|heavy|lighter|overweight)\b"
    r"[^.;:!?]*$",
    re.IGNORECASE,
)
# A figure in millions or more of pounds, with nothing it is of, is an amount of money.
_SCALED = re.compile(r"(?:million|billion|trillion|bn|mn|m)$", re.IGNORECASE)
# A word of money before the figure, in its clause: the pounds are money.
_MONEY_BEFORE = re.compile(
    r"\b(?:paid|pay|pays|paying|cost|costs|costing|worth|price|prices|priced|fine|fined|fines|"
    r"salary|salaries|wage|wages|earn|earns|earned|earning|earnings|spend|spends|spent|budget|"
    r"profit|profits|revenue|revenues|sales|turnover|bid|offer|offered|fee|fees|bonus|"
    r"compensation|damages|awarded|donated|invest|invested|loan|loans|debt|raise|raised|tax|"
    r"taxes|grant|sold|sell|bought|buy|charged|charge|bill|owed|owes|owe|valued|bail|deal|"
    r"contract|prize|reward|ransom|bribe|bribes|penalty|refund|payment|payout|pension|rent)\b"
    r"[^.;:!?]*$",
    re.IGNORECASE,
)
# How far before the figure the words of weighing or money are read.
_CLAUSE = 60


def _pounds_weigh(sentence: str, q: Any) -> bool:
    """Do the pounds the finder read as money ("300 pounds") weigh? The rule of the module's
    docstring."""
    word = _POUNDS_AFTER.match(sentence, q.number_end)
    if word is None or _STERLING.search(sentence):
        return False  # "£5", "GBP 5", "5 million pounds sterling"
    before = sentence[max(0, q.start - _CLAUSE) : q.start]
    if _WEIGH_BEFORE.search(before):
        return True
    if of := _OF_AFTER.match(sentence, word.end()):
        return of.group("noun").lower() not in MONEY_NOUNS
    if _SCALED.search(sentence[q.number_start : q.number_end]):
        return False
    return _MONEY_BEFORE.search(before) is None


def _reads(sentence: str, q: Any) -> bool:
    """The mentions a mass is read from: the finder's counts that are not rates, and its amounts
    of sterling read only from the word "pounds" that weigh."""
    if q.per:
        return False
    if q.kind == "count":
        return True
    return q.kind == "money" and q.currency == "GBP" and _pounds_weigh(sentence, q)


MASSES = UnitReading("mass", KILOGRAMS_PER_UNIT, UNIT_SPELLINGS, claims=_reads)
read_masses = MASSES.read
mass_key = MASSES.key


KIND = Kind(
    name="mass",
    summary="a weight, in its stated unit (gold: kilograms)",
    finder="lake.silver.quantities:find_quantities",
    measure_key="lake.silver.kinds.mass:mass_key",
    words={
        "KILOGRAMS_PER_UNIT": KILOGRAMS_PER_UNIT,
        "UNIT_SPELLINGS": UNIT_SPELLINGS,
        "MONEY_NOUNS": MONEY_NOUNS,
    },
    gold_unit="kilograms",
    units=KILOGRAMS_PER_UNIT,
    # A mass that names nothing it weighs is kept in silver but reconciled with nothing: two
    # unrelated weights of one story do not disagree (as unnamed lengths).
    unreconciled_keys=("mass:unnamed",),
    reads=read_masses,
    # what a mass weighs is a unit's ("police seized 5 tons of cocaine"), as a length's
    frame_as=("count", "pounds"),
    restates=restates,
    examples=(
        ("Police seized 5 tons of cocaine at the port.", "5 tons"),
        ("The plane dropped a 2,000-pound bomb on the bridge.", "2,000-pound"),
        ("He weighed 300 pounds when he was arrested.", "300 pounds"),
    ),
)
