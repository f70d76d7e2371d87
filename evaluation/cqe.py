"""Value F1 of the claim extractor on the CQE evaluation sets (Almasian et al., EMNLP 2023).

Data: satya77/CQE_Evaluation, read at run time from a fetched copy (bare git dir or checkout):
``data/formatted_test_set/{age,currency,dimension,temperature}-model.json`` (sentences from the
Microsoft Recognizers-Text specs, each with gold quantities ``{"value", "normalized_unit"}``)
and ``data/units/test/sentences_test.json`` (unit disambiguation: a sentence, an ambiguous unit
surface such as "c", and the unit it means). ``NewsQuant.json`` is held out: it is skipped by
name and never opened.

How the repository scores (evaluate_models.py, ``calculate_metrics``), reproduced here:

* Per sentence, gold and predicted quantities are each sorted by normalized unit. For every
  gold quantity the predictions are scanned in order; when a prediction's value equals the
  gold value (``np.isclose``, rtol 1e-5, atol 1e-8; a range only equals a range, both ends
  compared) the value counter goes up, capped at the number of gold quantities in the
  sentence. Only when the unit also matches is the prediction consumed and the scan of that
  gold quantity stopped; a value match with the wrong unit leaves the prediction in place and
  keeps scanning, so one gold value can be credited more than once (within the cap).
* Spans play no part: matching is by value (and unit) within the sentence only.
* P = value matches / all predictions, R = value matches / all gold quantities, F1 from
  those, over the whole set (micro). "value+unit" counts the matches that also consumed a
  prediction. Gold ranges are "a-b" strings; for quantulum3 they are averaged to one number
  (the repository does this because quantulum3 reports a range as its mean).

Our Claim mapped to their quantity: value = ``claim.value``; a vague claim with no value
("dozens of") becomes the range (lower, upper), as a stated range would; date claims are
dropped (the repository drops dates from the CCG tagger too: these sets have no gold dates).
The unit: "percentage" for percents; for money the claim's currency (its unit, an ISO 4217
code) in the repository's names ("dollar", "euro", "pound sterling"...); for a length its
unit in the repository's names ("kilometre", "foot", "nautical mile"), and a mass's
("kilogram", "pound-mass", "metric ton"); "count" for multipliers; otherwise the counted noun,
singular, with measurement abbreviations spelled out ("km" -> "kilometre"); "-" when there is
none; rates add " per <period>". In the age set "year"/"month"/... become "year of age" etc., as the
repository does for every baseline there.

Deviations, stated: (1) the counts above are reproduced exactly, but we also report
``value_1to1`` (each prediction used at most once, each gold at most once), which is what the
misses are computed from; (2) our unit names come from our own small table, not from CQE's
unit dictionary, so value+unit is a lower bound for us; (3) the quantulum3 unit-name table is
rewritten here from the repository's tagger (same renamings), and a division by zero (no
predictions at all) gives 0 instead of raising.

The unit set is scored as the repository scores quantulum3 on it (test_unit_classifier.py):
the first predicted unit that is one of the set's unit classes is the answer; micro F1 over
sentences equals accuracy. A sentence with no such unit counts as wrong (the repository
assigns class 0, an arbitrary class, in that case).

Run: ``.venv/bin/python -m evaluation.cqe --repo <dir> [--json] [--compare quantulum3]``.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from evaluation._repo import RepoReader

SETS = ("age", "currency", "dimension", "temperature")
HELD_OUT = ("NewsQuant",)
SET_PATH = "data/formatted_test_set/{name}-model.json"
UNIT_SET_PATH = "data/units/test/sentences_test.json"

# Published value F1 / value+unit F1 (CQE paper, Table of the Recognizers-Text sets; the same
# numbers are in the repository's data/evaluation_output/<set>-model.csv, checked at run time).
PUBLISHED = {
    "age": {"CQE": (93.3, 93.3), "quantulum3": (93.3, 84.4)},
    "currency": {"CQE": (84.2, 79.6), "quantulum3": (76.2, 32.5)},
    "dimension": {"CQE": (86.5, 79.2), "quantulum3": (83.6, 61.9)},
    "temperature": {"CQE": (95.7, 92.8), "quantulum3": (94.3, 74.3)},
}
_CSV_NAMES = {"CQE": "CQE-Numparser", "quantulum3": "quantulum3"}

Value = float | tuple[float, float]


@dataclass
class Quantity:
    value: Value
    unit: str  # normalized, lower case; "-" when none
    span: tuple[int, int] | None = None  # where a prediction was found (for the miss analysis)
    surface: str = ""


@dataclass
class Counts:
    n_sentences: int = 0
    n_gold: int = 0
    n_pred: int = 0
    value: int = 0  # the repository's counter
    value_unit: int = 0
    value_1to1: int = 0
    misses: list[dict] = field(default_factory=list)
    unit_mismatches: list[dict] = field(default_factory=list)


# ---------------------------------------------------------------------------- matching


def gold_value(raw: str, average_ranges: bool = False) -> Value:
    """A gold value string as the repository decodes it: "a-b" (not negative, not 1E-5) is a
    range, averaged for systems that report ranges as one number."""
    if "E" not in raw and not raw.startswith("-") and "-" in raw:
        low, high = (float(x) for x in raw.split("-")[:2])
        return (low + high) / 2 if average_ranges else (low, high)
    return float(raw)


def _close(gold: float, model: float) -> bool:
    # np.isclose(gold, model): |gold - model| <= atol + rtol * |model|
    return abs(gold - model) <= 1e-8 + 1e-5 * abs(model)


def values_match(gold: Value, model: Value) -> bool:
    """A range equals only a range (both ends); a number only a number."""
    if isinstance(gold, tuple) and isinstance(model, tuple):
        return _close(gold[0], model[0]) and _close(gold[1], model[1])
    if isinstance(gold, tuple) or isinstance(model, tuple):
        return False
    return _close(gold, model)


def repo_counts(gold: list[Quantity], tags: list[Quantity]) -> tuple[int, int]:
    """(value matches, value+unit matches) of one sentence, counted exactly as
    evaluate_models.calculate_metrics counts them, quirks included."""
    remaining = sorted(tags, key=lambda q: q.unit)
    budget = len(gold)
    value_ok = unit_ok = 0
    for g in sorted(gold, key=lambda q: q.unit):
        for t in list(remaining):
            if not values_match(g.value, t.value):
                continue
            if budget > 0:
                value_ok += 1
                budget -= 1
            if t.unit == g.unit:
                unit_ok += 1
                remaining.remove(t)
                break
    return value_ok, unit_ok


def one_to_one(gold: list[Quantity], tags: list[Quantity]) -> list[Quantity | None]:
    """For each gold quantity the prediction it is matched with (value equal; a prediction with
    the same unit preferred), each prediction used once; None when unmatched."""
    free = list(tags)
    matched: list[Quantity | None] = []
    for g in gold:
        same = [t for t in free if values_match(g.value, t.value)]
        pick = next((t for t in same if t.unit == g.unit), same[0] if same else None)
        if pick is not None:
            free.remove(pick)
        matched.append(pick)
    return matched


def prf(tp: int, n_gold: int, n_pred: int) -> dict[str, float]:
    """Percentages rounded to one decimal, as the repository prints them."""
    p = tp / n_pred if n_pred else 0.0
    r = tp / n_gold if n_gold else 0.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    return {"P": round(p * 100, 1), "R": round(r * 100, 1), "F1": round(f * 100, 1)}


# ---------------------------------------------------------------------------- our claims

# The claim's currency (its unit, ISO 4217) in the repository's unit names.
_CURRENCY_NAMES = {
    "USD": "dollar",
    "EUR": "euro",
    "GBP": "pound sterling",
    "JPY": "japanese yen",
    "INR": "rupee",
    "CNY": "chinese yuan",
    "AUD": "australian dollar",
    "CAD": "canadian dollar",
    "CHF": "swiss franc",
    "SEK": "swedish krona",
}
# Measurement words and abbreviations, in the repository's (British) unit names.
_UNIT_NAMES = {
    "km": "kilometre",
    "kms": "kilometre",
    "kilometer": "kilometre",
    "kilometre": "kilometre",
    "m": "metre",
    "meter": "metre",
    "metre": "metre",
    "cm": "centimetre",
    "centimeter": "centimetre",
    "mm": "millimetre",
    "millimeter": "millimetre",
    "mi": "mile",
    "mile": "mile",
    "ft": "foot",
    "feet": "foot",
    "foot": "foot",
    "inch": "inch",
    "lb": "pound-mass",
    "lbs": "pound-mass",
    "pound": "pound-mass",
    "kg": "kilogram",
    "kilo": "kilogram",
    "kilogram": "kilogram",
    "g": "gram",
    "gram": "gram",
    "tonne": "metric ton",
    "ton": "ton",
    "gallon": "gallon",
    "liter": "litre",
    "litre": "litre",
    "ml": "millilitre",
    "milliliter": "millilitre",
    "mph": "mile per hour",
    "kph": "kilometre per hour",
    "degree": "degree",
    "celsius": "celsius",
    "fahrenheit": "fahrenheit",
    "acre": "acre",
    "ounce": "ounce",
    "oz": "ounce",
    "c": "celsius",
    "f": "fahrenheit",
    "deg": "degree",
    "time": "count",
    "times": "count",
    # currency words and codes our extractor leaves as a counted noun ("10 us dollar")
    "dollar": "dollar",
    "usd": "dollar",
    "euro": "euro",
    "eur": "euro",
    "yuan": "chinese yuan",
    "rmb": "chinese yuan",
    "cny": "chinese yuan",
    "yen": "japanese yen",
    "gbp": "pound sterling",
}
# A length's unit (lake.silver.kinds.length.METERS_PER_UNIT) in the repository's names.
_LENGTH_NAMES = {
    "millimeters": "millimetre",
    "centimeters": "centimetre",
    "inches": "inch",
    "feet": "foot",
    "yards": "yard",
    "meters": "metre",
    "kilometers": "kilometre",
    "miles": "mile",
    "nautical miles": "nautical mile",
}
# A mass's unit (lake.silver.kinds.mass.KILOGRAMS_PER_UNIT) in the repository's names.
_MASS_NAMES = {
    "milligrams": "milligram",
    "grams": "gram",
    "ounces": "ounce",
    "pounds": "pound-mass",
    "kilograms": "kilogram",
    "tons": "ton",
    "metric tons": "metric ton",
    "long tons": "long ton",
}
_IRREGULAR = {"feet": "foot", "children": "child", "men": "man", "women": "woman", "mice": "mouse"}
_AGE_UNITS = {"year", "month", "week", "day"}
_AGE = re.compile(r"\b(year|month|week|day)s?[- ]old\b", re.IGNORECASE)


def singular(word: str) -> str:
    word = word.lower()
    if word in _IRREGULAR:
        return _IRREGULAR[word]
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if re.search(r"(?:ches|shes|xes|sses)$", word):
        return word[:-2]
    if word.endswith("s") and not word.endswith(("ss", "us", "is")) and len(word) >= 2:
        return word[:-1]
    return word


def claim_unit(kind: str, unit: str | None, per: str | None, text: str, set_name: str) -> str:
    """Our claim's unit in the repository's normalized unit names."""
    age = _AGE.search(text)
    if kind == "percent":
        name = "percentage"
    elif kind == "age" and unit:
        name = f"{singular(unit)} of age"  # the repository's age unit
    elif age and kind in ("count", "rate"):
        name = f"{age.group(1).lower()} of age"
    elif kind == "money":
        name = _CURRENCY_NAMES.get(unit or "", "-")
    elif kind == "length":
        name = _LENGTH_NAMES.get(unit or "", "-")
    elif kind == "mass":
        name = _MASS_NAMES.get(unit or "", "-")
    elif kind == "ratio":
        name = "count"
    elif unit:
        head = singular(unit.split()[-1])
        name = _UNIT_NAMES.get(head, _UNIT_NAMES.get(unit.lower(), head))
    else:
        name = "-"
    if set_name == "age" and name in _AGE_UNITS:
        name = f"{name} of age"
    if per and name != "-":
        name = f"{name} per {per}"
    return name


def claim_quantities(text: str, set_name: str) -> list[Quantity]:
    """Our extractor's quantities in one sentence, as the repository's tagger dicts."""
    from lake.silver.extract import extract_claims

    out = []
    for c in extract_claims(f"cqe-{set_name}", text):
        if c.kind == "date":
            continue
        if c.value is not None:
            value: Value = float(c.value)
        elif c.lower is not None and c.upper is not None:
            value = (float(c.lower), float(c.upper))
        else:
            continue
        unit = claim_unit(c.kind, c.unit, c.per, c.claim_text, set_name)
        out.append(Quantity(value, unit, (c.char_start, c.char_end), c.claim_text))
    return out


# ---------------------------------------------------------------------------- quantulum3

# quantulum3's unit names renamed to the gold names (the renamings the repository's tagger
# applies to quantulum3, rewritten here).
_QUANTULUM_NAMES = {
    "dimensionless": "-",
    "unk": "-",
    "per cent": "percentage",
    "dollar dollar": "dollar",
    "united states dollar": "dollar",
    "tonne": "metric ton",
    "degree angle": "degree",
    "degree celsius": "celsius",
    "degree fahrenheit": "fahrenheit",
    "percentage drop": "percentage",
    "second of arc": "second",
    "minute of arc": "minute",
    "yard yard": "yard",
    "cubic centimetre": "millilitre",
    "degree angle degree fahrenheit": "fahrenheit",
    "pound sterling year": "pound sterling per year",
    "per year per newton per day": "year",
}


def quantulum_quantities(text: str, set_name: str) -> list[Quantity]:
    from quantulum3 import parser

    out = []
    for q in parser.parse(text):
        name = q.unit.name
        names = dict(_QUANTULUM_NAMES)
        if set_name == "age":
            names.update({u: f"{u} of age" for u in _AGE_UNITS})
        name = names.get(name.lower(), name).strip().lower()
        span = tuple(q.span) if getattr(q, "span", None) else None
        out.append(Quantity(float(q.value), name, span, getattr(q, "surface", "")))
    return out


# ---------------------------------------------------------------------------- miss classes

_NUMBER = re.compile(
    r"(?<![\w.])(?P<sign>-\s?)?(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)"
    r"(?:\s?(?P<scale>thousand|million|billion|trillion|bn|mn|k|m|b)\b)?",
    re.IGNORECASE,
)
_WORDS = (
    r"zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|"
    r"fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|"
    r"eighty|ninety|hundred|thousand|million|billion|dozen"
)
_NUMBER_WORD = re.compile(rf"\b(?:{_WORDS})\b", re.IGNORECASE)
_WORD_RUN = re.compile(
    rf"\b(?:an?\s+)?(?:{_WORDS})(?:[\s-]+(?:and\s+)?(?:{_WORDS}))*\b", re.IGNORECASE
)
_SCALES = {
    "thousand": 1e3,
    "k": 1e3,
    "million": 1e6,
    "m": 1e6,
    "mn": 1e6,
    "billion": 1e9,
    "bn": 1e9,
    "b": 1e9,
    "trillion": 1e12,
}


def locate(
    text: str, value: Value, taken: Iterable[tuple[int, int]] = ()
) -> tuple[int, int] | None:
    """Where in the sentence the gold value is written (digits with their sign and scale word,
    or a run of number words), skipping places already accounted for; None when it is not
    written as one number."""
    from lake.silver.quantities import words_to_number

    target = value[0] if isinstance(value, tuple) else value
    spans = []
    for m in _NUMBER.finditer(text):
        number = float(m.group("num").replace(",", ""))
        if m.group("sign"):
            number = -number
        scale = _SCALES.get((m.group("scale") or "").lower(), 1.0)
        if math.isclose(number * scale, target, rel_tol=1e-6) or (
            math.isclose(number, target, rel_tol=1e-6)
        ):
            spans.append((m.start(), m.end()))
    spans += [
        (m.start(), m.end())
        for m in _WORD_RUN.finditer(text)
        if words_to_number(m.group(0)) == target
    ]
    taken = list(taken)
    free = [sp for sp in spans if not any(sp[0] < e and b < sp[1] for b, e in taken)]
    return (free or spans or [None])[0]


def _surface(text: str, span: tuple[int, int] | None, words_after: int = 2) -> str:
    if span is None:
        return ""
    tail = re.match(rf"(?:\s*\S+){{0,{words_after}}}", text[span[1] :])
    start = span[0]
    while start > 0 and text[start - 1] in "$€£¥ " and span[0] - start < 2:
        start -= 1
    return (text[start : span[1]] + (tail.group(0) if tail else "")).strip()[:60]


def _snippet(text: str) -> str:
    """A short piece of a sentence around its first number-like word, for unlocated values."""
    m = re.search(
        r"\d|" + _NUMBER_WORD.pattern + r"|\bhalf\b|\bthirds?\b|\bquarters?\b", text, re.I
    )
    at = m.start() if m else 0
    return text[max(0, at - 15) : at + 35].strip()


def miss_class(
    text: str, gold: Quantity, claims: list[Quantity], taken: list[tuple[int, int]] | None = None
) -> tuple[str, str]:
    """Why a gold quantity found no prediction with its value: (class, surface). taken: places
    in the sentence already explained (matched predictions, earlier misses); the span found
    is added to it."""
    unit = gold.unit
    taken = [] if taken is None else taken
    span = locate(text, gold.value, taken)
    if span is not None:
        taken.append(span)
    surface = _surface(text, span) or _snippet(text)
    if isinstance(gold.value, tuple):
        return "range (a-b)", surface
    if unit.endswith("of age") or unit in ("year", "month", "week", "day", "hour", "minute"):
        return "age or duration (time nouns are dropped)", surface
    if gold.value < 0:
        return "negative number", surface
    if span is None:
        if gold.value >= 1000 and (split := re.search(r"\d+, \d{3}\b", text)):
            return "thousands separator split by a space (80, 000)", split.group(0)
        if re.search(r"\d\s*/\s*\d|\bhalf\b|\bthirds?\b|\bquarters?\b|[½¼¾]", text, re.I):
            return "fraction", surface
        if re.search(r"\blakh|\bcrore", text, re.I):
            return "unknown scale word (lakh, crore)", surface
        whole = locate(text, float(int(gold.value)))
        if gold.value != int(gold.value) and whole is not None:
            return "amount and its subunit (3 dollars 50 cents)", _surface(text, whole, 3)
        if scaled := re.search(
            r"[\w.]+\s*M[A-Z]{3}\b|\bM[A-Z]{3}\s*\d|\d+\s*[A-Z]{3} million", text
        ):
            return "scale inside a currency code (30 MUSD, 75 USD million)", scaled.group(0)
        if glued := re.search(r"[A-Za-z]{2,}\d[\d.,]*", text):
            return "currency code glued before the number (USD115)", glued.group(0)
        if re.search(r"\d{1,2},\d{2},\d{3}", text):
            return "Indian digit grouping (12,34,567)", surface
        return "other (implicit value, odd gold)", surface
    hit = [c for c in claims if c.span and c.span[0] < span[1] and span[0] < c.span[1]]
    written = text[span[0] : span[1]]
    if hit:
        if re.search(r"\d\s?(?:k|m|bn|mn|b)\b", text[span[0] : span[1] + 1], re.I):
            return "found, scale abbreviation misread (1m, 48m)", surface
        if re.search(r"\d\s*/\s*\d", text[span[0] : span[1] + 6]):
            return "found, fraction misread (10 1/2)", surface
        return "found, value differs", surface
    before, after = text[: span[0]], text[span[1] :]
    if not re.search(r"\d", written):
        if written.lower() == "one" or written[0].isupper():
            return "word number not read ('one', capitalised)", surface
        return "word number not read", surface
    if re.match(r"[^\W\d_]|[°′″'\"$€£¥]", after):
        return "number glued to its unit (75ml, 200lbs, 40°)", surface
    if re.match(r"-[A-Za-z]", after):
        return "hyphenated unit (10-gallon, 3-inch)", surface
    if re.fullmatch(r"\d{4}", written) and 1800 <= gold.value <= 2100:
        return "year-like number dropped", surface
    if re.search(r"(?:[A-Z]{2,4}|Rs\.?|rmb|usd|eur)\s*$", before, re.IGNORECASE):
        return "currency code before the number (USD 200)", text[max(0, span[0] - 4) : span[1]]
    if re.search(r"\b[A-Z][a-z]+\s$", before):
        return "read as a name or identifier", surface
    return "number not extracted (other)", surface


# ---------------------------------------------------------------------------- scoring


def score_set(
    records: Iterable[dict],
    set_name: str,
    tagger: Callable[[str, str], list[Quantity]],
    average_ranges: bool = False,
) -> Counts:
    counts = Counts()
    for rec in records:
        text = rec["text"]
        gold = [
            Quantity(gold_value(q["value"], average_ranges), q["normalized_unit"].lower())
            for q in rec["quantities"]
        ]
        tags = tagger(text, set_name)
        counts.n_sentences += 1
        counts.n_gold += len(gold)
        counts.n_pred += len(tags)
        v, vu = repo_counts(gold, tags)
        counts.value += v
        counts.value_unit += vu
        pairs = list(zip(gold, one_to_one(gold, tags), strict=True))
        taken = [t.span for _, t in pairs if t is not None and t.span]
        for g, t in pairs:
            if t is None:
                cls, surface = miss_class(text, g, tags, taken)
                counts.misses.append(
                    {"class": cls, "surface": surface, "gold": _show(g.value), "unit": g.unit}
                )
            else:
                counts.value_1to1 += 1
                if t.unit != g.unit:
                    cls = "no unit found" if t.unit == "-" else "different unit"
                    counts.unit_mismatches.append(
                        {
                            "class": cls,
                            "surface": t.surface or _surface(text, locate(text, g.value)),
                            "gold": g.unit,
                            "ours": t.unit,
                        }
                    )
    return counts


def _show(value: Value) -> str:
    if isinstance(value, tuple):
        return f"{value[0]:g}-{value[1]:g}"
    return f"{value:g}"


def by_class(items: list[dict], examples: int = 3) -> dict[str, dict]:
    grouped: dict[str, list[dict]] = defaultdict(list)
    for item in items:
        grouped[item["class"]].append(item)
    out = {}
    for cls, members in sorted(grouped.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        shown = []
        for m in members:
            note = {k: v for k, v in m.items() if k != "class"}
            if note not in shown:
                shown.append(note)
            if len(shown) == examples:
                break
        out[cls] = {"count": len(members), "examples": shown}
    return out


def summary(counts: Counts) -> dict:
    return {
        "n_sentences": counts.n_sentences,
        "n_gold": counts.n_gold,
        "n_pred": counts.n_pred,
        "value": prf(counts.value, counts.n_gold, counts.n_pred),
        "value+unit": prf(counts.value_unit, counts.n_gold, counts.n_pred),
        "value_1to1": prf(counts.value_1to1, counts.n_gold, counts.n_pred),
    }


def published_check(repo: RepoReader, set_name: str) -> str:
    """Compare the constants above with the repository's own result table, if present."""
    path = f"data/evaluation_output/{set_name}-model.csv"
    if not repo.exists(path):
        return "no csv in repository"
    rows = [line.split("\t") for line in repo.read_text(path).splitlines()[1:] if line.strip()]
    table = {(r[4], r[5]): float(r[3]) for r in rows if len(r) >= 6}
    for ours, csv_name in _CSV_NAMES.items():
        value_f1, unit_f1 = PUBLISHED[set_name][ours]
        if table.get((csv_name, "value")) != value_f1 or table.get((csv_name, "value+unit")) != (
            unit_f1
        ):
            return f"MISMATCH for {ours}: csv has {table.get((csv_name, 'value'))}"
    return "matches data/evaluation_output csv"


def score_units(records: list[dict], tagger: Callable[[str, str], list[Quantity]]) -> dict:
    """Unit disambiguation: the first predicted unit that is one of the classes is the answer."""
    classes = {r["unit"] for r in records}
    right = 0
    misses = []
    answered = 0
    for rec in records:
        found = [q.unit for q in tagger(rec["text"], "units")]
        answer = next((u for u in found if u in classes), None)
        answered += answer is not None
        if answer == rec["unit"]:
            right += 1
        else:
            cls = "no unit of the classes found" if answer is None else "wrong unit"
            misses.append(
                {
                    "class": f"{cls}: {rec['surface_form']} = {rec['unit']}",
                    "surface": rec["surface_form"],
                    "ours": answer or (found[0] if found else "-"),
                }
            )
    grouped = Counter(m["class"].split(":")[0] for m in misses)
    return {
        "n": len(records),
        "answered": answered,
        "micro_F1": round(100 * right / len(records), 1) if records else 0.0,
        "misses_by_kind": dict(grouped),
        "misses_by_surface": {k: v["count"] for k, v in by_class(misses).items()},
    }


def run(repo_path: str, compare: str | None = None) -> list[dict]:
    from lake.silver.extract import EXTRACTOR_VERSION

    repo = RepoReader(repo_path, forbidden=HELD_OUT)
    listed = repo.list("data/formatted_test_set")  # NewsQuant is filtered out inside list()
    systems: dict[str, tuple[Callable[[str, str], list[Quantity]], bool]] = {
        "claimhouse": (claim_quantities, False)
    }
    if compare == "quantulum3":
        systems["quantulum3"] = (quantulum_quantities, True)
    results = []
    for name in SETS:
        path = SET_PATH.format(name=name)
        if path not in listed:
            results.append({"set": name, "error": f"{path} not in repository"})
            continue
        records = json.loads(repo.read_text(path))
        entry: dict = {"set": name, "extractor_version": EXTRACTOR_VERSION}
        for system, (tagger, average) in systems.items():
            counts = score_set(records, name, tagger, average_ranges=average)
            entry[system] = summary(counts)
            entry[system]["value_misses"] = by_class(counts.misses)
            entry[system]["unit_mismatches"] = by_class(counts.unit_mismatches)
        entry["n"] = entry["claimhouse"]["n_gold"]
        entry["published"] = {
            system: {"value_F1": v, "value+unit_F1": u}
            for system, (v, u) in PUBLISHED[name].items()
        }
        entry["published_check"] = published_check(repo, name)
        results.append(entry)
    if repo.exists(UNIT_SET_PATH):
        records = json.loads(repo.read_text(UNIT_SET_PATH))
        entry = {"set": "units", "n": len(records)}
        for system, (tagger, _) in systems.items():
            entry[system] = score_units(records, tagger)
        results.append(entry)
    return results


def _print_text(results: list[dict]) -> None:
    for entry in results:
        print(f"== {entry['set']} (n={entry.get('n')})")
        for system in ("claimhouse", "quantulum3"):
            if system not in entry:
                continue
            s = entry[system]
            if entry["set"] == "units":
                print(f"  {system:11s} micro F1 {s['micro_F1']}  answered {s['answered']}/{s['n']}")
                continue
            v, vu, one = s["value"], s["value+unit"], s["value_1to1"]
            print(
                f"  {system:11s} value P {v['P']} R {v['R']} F1 {v['F1']} | value+unit F1 "
                f"{vu['F1']} | 1-to-1 value F1 {one['F1']} | gold {s['n_gold']} pred {s['n_pred']}"
            )
        if "published" in entry:
            pub = ", ".join(
                f"{k} value F1 {p['value_F1']} / value+unit {p['value+unit_F1']}"
                for k, p in entry["published"].items()
            )
            print(f"  published: {pub} ({entry['published_check']})")
        s = entry.get("claimhouse", {})
        for title, key in (
            ("value misses", "value_misses"),
            ("unit mismatches", "unit_mismatches"),
        ):
            if s.get(key):
                print(f"  claimhouse {title} by class:")
                for cls, info in s[key].items():
                    shown = "; ".join(
                        f"{e.get('surface')!r} ({e.get('gold')}"
                        + (f"/{e['ours']}" if "ours" in e else "")
                        + ")"
                        for e in info["examples"]
                    )
                    print(f"    {info['count']:4d}  {cls}: {shown}")
        if entry["set"] == "units":
            for system in ("claimhouse", "quantulum3"):
                if system in entry:
                    print(f"  {system} misses: {entry[system]['misses_by_kind']}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--repo", required=True, help="fetched CQE_Evaluation (git dir or checkout)"
    )
    parser.add_argument("--json", action="store_true", help="one JSON object per set")
    parser.add_argument("--compare", choices=["quantulum3"], help="score another system too")
    args = parser.parse_args(argv)
    results = run(args.repo, args.compare)
    if args.json:
        for entry in results:
            print(json.dumps(entry, ensure_ascii=False))
    else:
        _print_text(results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
