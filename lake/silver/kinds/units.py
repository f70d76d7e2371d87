"""The reading every kind of a physical unit shares: a figure with a unit written onto it ("a
3-mile stretch", "a 2,000-pound bomb") or spelled after it ("12 miles", "300 pounds"), read
from the quantity finder's mentions (lake.silver.quantities) as a claim of that kind.

A kind declares what it reads in a `UnitReading`: its units and what one of each is in a base
unit of its own (`scales`), the spellings after a figure that name each (`spellings`), the words
after a figure that name a dimension (`dimensions`: "30 feet high"), and its own guards and
additions (`spelled_ok`, `refine`, `claims`). The rest is the same for every such kind:

* a figure per anything stays what the finder made it ("60 miles per hour", "$3 a pound"): a
  rate, not a measure (`_PER_AFTER`);
* "hundreds of miles" is read, "12 of miles" is not (the "of" only after a vague amount);
* after a determiner the figure modifies the noun after it ("a 3-mile stretch", "a 2,000-pound
  bomb"): that noun is its subject;
* an exact figure's bounds hold its rounding (stated_bounds), so one measure given in two units
  ("12 miles (19 kilometers)") agrees with itself, and the second restates the first
  (restates);
* the measure_key is "<kind>:" + what the claim's frame reads it measures, and the dimension
  its text names; for a kind that reads places (`from_place`), a distance from a place names
  the place ("8 miles south of the White House": "length:from white house").

lake.silver.kinds.length and lake.silver.kinds.mass are such kinds.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from typing import Any

# How far an exact measure's bounds reach from its value: a stated figure is rounded to its
# last stated digit (a round figure to its last non-zero one), and articles give one measure in
# two units each rounded ("12 miles (19 kilometers)"), so it holds within that rounding, at most
# this share of the place (less than half: "12 miles" and "13 miles" stay apart) ...
PLACE_SHARE = 0.4
# ... and at most this share of the value ("1,000 feet" is not 600 to 1,400 feet).
VALUE_SHARE = 0.05

# A measure a speed or other rate divides: "60 miles per hour", "30 miles per gallon", "km/h",
# "$3 per pound".
_PER_AFTER = re.compile(r"\s*(?:/|per\b)", re.IGNORECASE)
# A figure after a determiner modifies the noun after it ("a 3-mile stretch", "a 9 mm
# handgun"); where the quantity finder read none ("a 6-foot-4 forward", "a 12-mile-long
# bridge"), the noun is the next lowercase words up to a function word or a verb.
_DETERMINER_BEFORE = re.compile(
    r"\b(?:a|an|the|its|their|his|her|our|this|that|each|every)\s+$", re.IGNORECASE
)
_NOUN_AFTER = re.compile(r"\s+(?P<np>[a-z][a-z'’-]*(?:\s+[a-z][a-z'’-]*){0,2})")
_VERB_LIKE = re.compile(r"(?:ed|ing|ly)$")
_NOT_A_NOUN = frozenset((
    "a", "an", "and", "are", "as", "at", "by", "for", "from", "in", "into", "is", "of", "on",
    "or", "than", "that", "the", "to", "was", "were", "which", "who", "with",
))  # fmt: skip
# A unit written onto its figure: "3-mile", "1.8m", "20ft"; not a scale's letters ("3 million
# miles": the unit is spelled after the scale).
_ATTACHED = re.compile(r"\S*\d\S*[a-z]", re.IGNORECASE)

# What a kind's own refinement returns: the unit, value and end it reads, and whether the
# finder's subject no longer holds (feet and inches: "a 6-foot-4 forward").
Refined = tuple[str, float | None, int, bool]


class UnitReading:
    """How one kind of a physical unit reads the quantity finder's mentions.

    kind: the kind a mention read becomes ("length").
    scales: each stored unit (plural, US spelling) -> what one is in the kind's base unit.
    spellings: each spelling after a figure (lower case; a space in it matches any spaces) ->
        the unit stored; a unit written onto its figure is read where the finder's unit is one.
    dimensions: a word right after the measure that names its dimension ("30 feet high"), ->
        the dimension's name, or None for the default one ("long").
    spelled_ok: (sentence, the match of the spelled unit) -> whether it is this kind's unit
        (length: a spaced "m" only where a length is meant); None reads every spelling.
    refine: (sentence, mention, unit, value, end, attached) -> Refined: what the kind adds
        after the unit (length: the inches after feet); None adds nothing.
    claims: (sentence, mention) -> whether the kind reads a mention; None reads the finder's
        counts that are not rates.
    from_place: a measure from a place names the place in its key ("8 miles south of ...").
    """

    def __init__(
        self,
        kind: str,
        scales: Mapping[str, float],
        spellings: Mapping[str, str],
        dimensions: Mapping[str, str | None] | None = None,
        spelled_ok: Callable[[str, re.Match[str]], bool] | None = None,
        refine: Callable[[str, Any, str, float | None, int, bool], Refined] | None = None,
        claims: Callable[[str, Any], bool] | None = None,
        from_place: bool = False,
    ) -> None:
        self.kind = kind
        self.scales = scales
        self.spellings = spellings
        self.dimensions = dimensions or {}
        self.spelled_ok = spelled_ok
        self.refine = refine
        self.claims = claims
        self.from_place = from_place
        words = "|".join(
            re.escape(w).replace(r"\ ", r"\s+") for w in sorted(spellings, key=len, reverse=True)
        )
        # The unit spelled after a figure ("12 miles", "about 40 km", "hundreds of miles"); a
        # square or cubic unit is an area or a volume and does not match.
        self.unit_after = re.compile(rf"(?P<of>\s+of)?\s+(?P<unit>{words})(?![\w-])", re.IGNORECASE)
        # The dimension a word after the measure names ("30 feet high", "12-mile-long").
        self.dimension_after = (
            re.compile(rf"[\s-](?P<dim>{'|'.join(self.dimensions)})\b", re.IGNORECASE)
            if self.dimensions
            else None
        )

    def read(self, sentence: str, found: list[Any]) -> list[Any]:
        """The quantity finder's mentions of one sentence, those that state a measure of this
        kind turned into it (in place; mentions a measure took, as the inches of "6 feet 4
        inches", are dropped)."""
        out: list[Any] = []
        for q in found:
            if out and out[-1].kind == self.kind and q.number_start < out[-1].end:
                continue  # the inches of "6 feet 4 inches", read with the feet
            if self.claims(sentence, q) if self.claims else (q.kind == "count" and not q.per):
                self._read(sentence, q)
            out.append(q)
        return out

    def _read(self, sentence: str, q: Any) -> None:
        number = sentence[q.number_start : q.number_end]
        # "3-mile", "1.8m", "20ft": the finder read the unit written onto the figure
        attached = self.spellings.get(q.unit or "") in self.scales and bool(
            _ATTACHED.fullmatch(number)
        )
        # "a 3-mile stretch", "the 7.62mm rifle", "a 9 mm handgun" measure the noun after;
        # "waves reached 20ft" and "5 km away" are plain measures
        modifier = _DETERMINER_BEFORE.search(sentence, max(0, q.start - 8), q.start) is not None
        if attached:
            subject = q.subject if modifier else None
            unit, end = self.spellings[q.unit], q.number_end
        else:
            m = self.unit_after.match(sentence, q.number_end)
            if m is None or (m.group("of") and q.qualifier != "vague"):
                return  # "hundreds of miles" is a length; "12 of miles" is not
            if self.spelled_ok is not None and not self.spelled_ok(sentence, m):
                return
            spelled = re.sub(r"\s+", " ", m.group("unit")).lower()
            unit, end, subject = self.spellings[spelled], m.end(), None
        if _PER_AFTER.match(sentence, end):
            return  # a speed or another rate
        value = q.value
        if self.refine is not None:
            unit, value, end, dropped = self.refine(sentence, q, unit, value, end, attached)
            if dropped:
                subject = None
        dimension = self.dimension_after.match(sentence, end) if self.dimension_after else None
        if dimension:
            end = dimension.end()
        if modifier and (subject is None or subject.lower() in self.dimensions):
            subject = self._noun_after(sentence, end)
        q.kind, q.unit, q.subject, q.end, q.head_tokens = self.kind, unit, subject, end, [unit]
        q.currency = None  # "300 pounds", which the finder read as sterling, weighs (mass)
        if value is not None and value != q.value:
            q.value, q.value_text = value, format_value(value)
        if q.qualifier == "exact" and q.value is not None:
            q.lower, q.upper = stated_bounds(q.value)

    def _noun_after(self, sentence: str, end: int) -> str | None:
        """The noun phrase a measure modifies: "a 6-foot-4 forward scored" -> forward, "an
        80-foot-long living room" -> living room; None where a function word or a verb
        follows."""
        m = _NOUN_AFTER.match(sentence, end)
        words: list[str] = []
        for word in m.group("np").split() if m else ():
            if (
                word in _NOT_A_NOUN
                or word in self.dimensions
                or (words and _VERB_LIKE.search(word))
            ):
                break
            words.append(word)
        return " ".join(words) or None

    def key(self, frame: Any, claim_text: str, after: str = "") -> tuple[str, list[str]]:
        """measure_key and its terms. after: the sentence's text after the claim. With
        from_place, a measure from a place names the place ("8 miles south of the White House":
        "length:from white house"); otherwise "<kind>:" + what the claim's frame reads it
        measures (its property), and the dimension its text names; "<kind>:unnamed" when the
        frame reads none (gold leaves those unreconciled, as unnamed durations)."""
        if self.from_place and (place := _FROM_PLACE.match(after)):
            where = " ".join((place.group("name") or place.group("noun")).lower().split())
            where = where.rstrip(".")
            return f"{self.kind}:from {where}", [f"from:{where}"]
        prop = frame.property
        if prop is None or not prop.key:
            return f"{self.kind}:unnamed", ["nothing-named"]
        terms = [f"{self.kind}-of:{prop.key}"]
        dimension = self.dimension_after.search(claim_text) if self.dimension_after else None
        named = self.dimensions.get(dimension.group("dim").lower()) if dimension else None
        if named:
            terms.append(f"dimension:{named}")
        return f"{self.kind}:{prop.key}" + (f" {named}" if named else ""), terms


def stated_bounds(value: float) -> tuple[float, float]:
    """The bounds an exact measure states: its rounding (PLACE_SHARE, VALUE_SHARE)."""
    reach = min(PLACE_SHARE * _place(value), VALUE_SHARE * abs(value))
    return value - reach, value + reach


def _place(value: float) -> float:
    """The place of a value's last stated digit: 19.3 -> 0.1, 12 -> 1, 300 -> 100."""
    text = format_value(abs(value))
    if "." in text:
        return 10.0 ** -len(text.split(".")[1])
    whole = int(text)
    return 10.0 ** (len(text) - len(text.rstrip("0"))) if whole else 1.0


def format_value(value: float) -> str:
    """A value as a claim's value_text states it: 12, 19.3."""
    return str(int(value)) if math.isfinite(value) and value == int(value) else repr(value)


# A distance from a place: "8 miles south of the White House", "12 km (7.5 miles) from
# Aventura", "5 miles away from the plant"; the place is a name, else a noun ("of the town").
# Plain "of" is what a length is of ("12 miles of the highway"), not where it is measured from.
_COMPASS = r"(?:north|south|east|west)(?:-?(?:east|west))?(?:ward)?"
_FROM_PLACE = re.compile(
    rf"(?:\s*\([^()]{{0,40}}\))?\s+(?:(?:due\s+)?{_COMPASS}\s+of|(?:{_COMPASS}\s+|away\s+)?from|"
    r"outside(?:\s+of)?)\s+(?:the\s+)?"
    r"(?:(?P<name>[A-Z][\w'’.-]*(?:\s+[A-Z][\w'’.-]*){0,3})|(?P<noun>[a-z][a-z-]*)\b)"
)

# A measure given again in another unit, in parentheses right after it: "12 miles (19
# kilometers)", "12 km (about 7.5 miles)", "2.5 kg (5.5 pounds)".
_RESTATED = re.compile(r"\s*[(\[]\s*")


def restates(between: str) -> bool:
    """Does a measure restate the one before it, `between` being the text between the two?"""
    return _RESTATED.fullmatch(between) is not None
