"""Pure claim extraction: one article's text in, its claims out. Spark only distributes this."""

from __future__ import annotations

import dataclasses
import hashlib
import re
import time
from dataclasses import dataclass, field, fields
from datetime import datetime

from lake.silver import lexicon as lx
from lake.silver.attribution import Attribution, find_attributions, outlet_positions
from lake.silver.dates import find_dates
from lake.silver.durations import find_durations
from lake.silver.frames import Frame, frame_of, is_unit
from lake.silver.kinds import BY_NAME
from lake.silver.measure import UNNAMED, date_key, duration_key, quantity_key, time_key
from lake.silver.quantities import Quantity, find_quantities
from lake.silver.sentences import Sentence, split_sentences
from lake.silver.times import beside, find_times, utc_span

EXTRACTOR_VERSION = "0.13.2"
# How far before and after a mention its measure is looked for: a bounded window keeps
# extraction linear in the sentence's length.
_CONTEXT = 200


@dataclass
class Claim:
    claim_id: str
    article_id: str
    sentence_index: int
    char_start: int
    char_end: int
    claim_text: str
    sentence: str
    kind: str
    value: float | None
    value_text: str | None
    lower: float | None
    upper: float | None
    qualifier: str
    unit: str | None
    per: str | None
    subject: str | None
    measure_key: str
    measure_terms: list[str] = field(default_factory=list)
    date_start: str | None = None
    date_end: str | None = None
    date_granularity: str | None = None
    date_resolution: str | None = None
    date_reference: str | None = None
    attribution: str | None = None
    attribution_kind: str = "unattributed"
    cited_outlet: str | None = None
    reporting_outlet: str | None = None
    frame: Frame = field(default_factory=Frame)

    def as_row(self) -> dict:
        # dataclasses.asdict copies deeply and generically: a tenth of the Spark path's time.
        # The one mutable field is a list of strings, so a shallow copy of it is as deep.
        row = {name: getattr(self, name) for name in _CLAIM_FIELDS}
        row["measure_terms"] = list(self.measure_terms)
        row["frame"] = self.frame.as_row()
        return row


_CLAIM_FIELDS = tuple(f.name for f in fields(Claim))


def claim_id(article_id: str, start: int, end: int) -> str:
    """Same article and span, same id, in every run."""
    return hashlib.sha256(f"{article_id}:{start}:{end}".encode()).hexdigest()[:32]


def _in_quote(paragraph_text_before: str) -> bool:
    opens = paragraph_text_before.count("“") + paragraph_text_before.count('"') % 2
    closes = paragraph_text_before.count("”")
    return opens > closes


def _pick(cues: list[Attribution], position: int) -> Attribution | None:
    if not cues:
        return None
    # Sourcing stated outright ("according to", "citing") wins over a speaker verb.
    return min(cues, key=lambda c: (not c.explicit, abs(c.cue_start - position)))


class _Cues:
    """Each sentence's attribution cues (find_attributions with the outlets the article named
    up to it), found the first time a claim asks: most sentences state no figure and are never
    asked."""

    def __init__(self, sentences: list[Sentence], known_outlets: list[list[str]]) -> None:
        self._sentences = sentences
        self._known = known_outlets
        self._found: dict[int, list[Attribution]] = {}

    def __getitem__(self, index: int) -> list[Attribution]:
        if index not in self._found:
            self._found[index] = find_attributions(self._sentences[index].text, self._known[index])
        return self._found[index]


class ExtractionTimeout(TimeoutError):
    """An article ran past its time budget; silver logs it and the run goes on."""


def extract_claims(
    article_id: str,
    body: str,
    published_at: datetime | None = None,
    reporting_outlet: str | None = None,
    deadline: float | None = None,
) -> list[Claim]:
    """deadline: a time.monotonic() value; past it, ExtractionTimeout is raised between
    sentences."""
    sentences = split_sentences(body)
    mentions = outlet_positions(body)  # one scan of the body, not one per sentence
    known_by_sentence: list[list[str]] = []
    known_outlets: list[str] = []  # outlets named up to the current sentence, in order
    seen = 0
    for s in sentences:
        while seen < len(mentions) and mentions[seen][0] < s.end:
            if mentions[seen][1] not in known_outlets:
                known_outlets.append(mentions[seen][1])
            seen += 1
        known_by_sentence.append(list(known_outlets))
    cues_by_sentence = _Cues(sentences, known_by_sentence)

    claims: list[Claim] = []
    for s in sentences:
        _check_deadline(deadline, s, len(sentences), len(body))
        dates = find_dates(s.text, published_at)
        times = find_times(s.text, published_at)
        durations = find_durations(s.text)
        quantities = find_quantities(s.text)
        if not (dates or times or durations or quantities):
            continue
        first_of_sentence = len(claims)
        date_spans = [(d.start, d.end) for d in dates]
        sources = [(a.start, a.start + len(a.text)) for a in cues_by_sentence[s.index]]
        outlets = (
            [
                (at - s.start, at - s.start + len(name))
                for at, name in mentions
                if s.start <= at and at + len(name) <= s.end
            ]
            if dates
            else []
        )
        for d in dates:
            key, terms = date_key(s.text, d.start, d.end, sources + outlets)
            claim = _claim(
                article_id,
                body,
                s,
                d.start,
                d.end,
                "date",
                None,
                d.value_text,
                None,
                None,
                d.qualifier,
                None,
                None,
                None,
                key,
                terms,
                d.date_start,
                d.date_end,
            )
            claim.date_granularity, claim.date_resolution = d.granularity, d.resolution
            if d.uses_reference and published_at is not None:
                claim.date_reference = published_at.date().isoformat()
            claims.append(claim)
        taken = list(date_spans)
        day_claims = [c for c in claims[len(claims) - len(dates) :] if _one_day(c)]
        for q in times:
            if any(q.number_start < e and b < q.number_end for b, e in taken):
                continue
            key, terms = time_key(s.text, q.number_start, q.number_end, sources + outlets)
            claims.append(_quantity_claim(article_id, body, s, q, key, terms))
            taken.append((q.start, q.end))
            for c in day_claims:  # "Tuesday at 9:30 p.m. EDT" is Wednesday in UTC
                if q.value is not None and beside(
                    s.text, (c.char_start - s.start, c.char_end - s.start), q
                ):
                    c.date_start, c.date_end = utc_span(c.date_start, q.value_text)
        for q in durations:
            if any(q.number_start < e and b < q.number_end for b, e in taken):
                continue  # "four years ago" is a date
            w0 = max(0, q.start - _CONTEXT)
            key, terms = duration_key(
                q.kind,
                q.subject,
                s.text[w0 : q.end + _CONTEXT],
                q.start - w0,
                q.end - w0,
                [(b - w0, e - w0) for b, e in sources],
            )
            claims.append(_quantity_claim(article_id, body, s, q, key, terms))
            taken.append((q.number_start, q.end))
        for q in quantities:
            if any(q.number_start < e and b < q.number_end for b, e in taken):
                continue
            if q.kind != "ratio" and any(b <= q.number_start < e for b, e in sources):
                continue  # a number inside "according to three sources" describes the source
            key, terms = quantity_key(
                q.kind,
                q.unit,
                q.head_tokens,
                q.subject,
                q.per,
                s.text[max(0, q.number_start - _CONTEXT) : q.number_start],
                s.text[q.end : q.end + _CONTEXT],
                s.text[max(0, q.start - _CONTEXT) : q.start],
            )
            claims.append(_quantity_claim(article_id, body, s, q, key, terms))
        _frame_sentence(claims[first_of_sentence:], s, sources)
    _days_at_their_times(claims)
    paragraphs: dict[int, list[Sentence]] = {}
    for s in sentences:
        paragraphs.setdefault(s.paragraph, []).append(s)
    for c in claims:
        _attribute(c, sentences, cues_by_sentence, body, paragraphs)
        c.reporting_outlet = reporting_outlet
    return sorted(claims, key=lambda c: c.char_start)


def _frame_sentence(claims: list[Claim], s: Sentence, sources: list[tuple[int, int]]) -> None:
    """Each claim's frame, read in its sentence beside the sentence's other dates; a date's or
    a time's measure is the event its frame names."""
    dates = [
        (c.char_start - s.start, c.char_end - s.start, c.date_start)
        for c in claims
        if c.kind == "date" and c.date_start
    ]
    # kind -> the end and key of the sentence's last claim of a kind keyed by its own rule
    before: dict[str, tuple[int, str]] = {}
    for c in claims:
        start, end = c.char_start - s.start, c.char_end - s.start
        counted = None
        if c.subject:
            at = s.text.find(c.subject, start)
            if at < 0:
                at = s.text.rfind(c.subject, 0, start)
            counted = (at, at + len(c.subject)) if at >= 0 else None
        kind = BY_NAME[c.kind]
        if kind.frame_as is not None:
            read_as, unit = kind.frame_as
            c.frame = frame_of(s.text, read_as, start, end, counted, dates, sources, unit)
            after = s.text[end : end + _CONTEXT]
            c.measure_key, c.measure_terms = kind.key()(c.frame, c.claim_text, after)
            last = before.get(c.kind)
            if last and kind.restates is not None and kind.restates(s.text[last[0] : start]):
                c.measure_key, c.measure_terms = last[1], ["restates"]
            before[c.kind] = (end, c.measure_key)
            continue
        c.frame = frame_of(s.text, c.kind, start, end, counted, dates, sources, c.unit)
        if c.kind in ("duration", "age") and c.measure_key not in UNNAMED:
            # its measure names what it is the length or age of ("the deployment", "Roe")
            c.frame = dataclasses.replace(c.frame, definite=True)
        _key_from_frame(c)
        if c.kind in ("date", "time") and c.measure_key not in _UNREAD_DATES:
            event = c.frame.event
            prefix = c.kind + ":"
            c.measure_key = prefix + (event.key if event and event.key else "unnamed")
            c.measure_terms = [f"event:{event.text}" if event else "no-event"]


# The measure_key rules (lake.silver.measure) whose base the frame's property replaces: a plain
# counted noun, and what an amount of money is for; concepts (arrests, deaths...) stay.
_PLAIN_KEY_TERMS = ("noun:", "money-")
# A figure's role as a measure_key suffix: a part of a total is "/subset", as the measure rules
# write it. The other roles (a target, an estimate...) stay in the frame: read in one article
# and not in another, they would split one quantity in two.
_ROLE_SUFFIXES = {"part": "/subset"}


_ACTION_CONCEPTS = frozenset([*lx.ACTION_VERBS.values(), *lx.ACTION_VERB_FORMS.values()])


def _key_from_frame(c: Claim) -> None:
    """A number's measure gains what its frame reads it measures: the common-noun modifiers
    of a plain counted noun ("field office directors", not "directors"), what an amount of
    money is for in full ("state and local taxes", not "state"), and its role."""
    if c.kind in ("date", "time"):
        return
    prop = c.frame.property
    rule = c.measure_terms[0] if c.measure_terms else ""
    base, *suffixes = c.measure_key.split("/")
    if (
        prop
        and prop.key
        and rule.startswith("noun:")
        and c.unit == base
        and is_unit(base)
        and base not in prop.key.split()
    ):
        # "45 mph" on the bridge's limit, "80 mph" of the truck: the unit of what it measures
        base = f"{base}:{prop.key.split(' on ')[0].split(' of ')[0].split(' in ')[0]}"
    elif prop and prop.key and rule.startswith("noun:"):
        words = prop.key.split()
        extra = [
            w
            for w in words[:-1]
            if w not in base.split() and w not in lx.TEMPORARY_MODIFIERS and not w[:1].isdigit()
            and w.islower() and not _is_proper(c.sentence, prop, w)
        ]  # fmt: skip
        if extra and words[-1] == base.split()[-1]:
            base = " ".join([*extra, base])
    elif (
        prop
        and prop.key
        and rule.startswith(("money-for:", "money-of:", "money-subject:"))
        and (base in prop.key.split() or rule.startswith("money-subject:"))
    ):
        base = prop.key
    event = c.frame.event
    if base in lx.GENERIC_PEOPLE and event is not None and event.key in _ACTION_CONCEPTS:
        # "six people, including two officers, were injured": people are counted by what
        # happened to them, where the measure rules name it
        base = event.key
    key = "/".join([base, *suffixes])
    if key != c.measure_key:
        c.measure_key, c.measure_terms = key, [*c.measure_terms, f"frame:{key}"]
    label = c.frame.label
    if base in _ACTION_CONCEPTS and prop and label and label.startswith(prop.text):
        # "detaining 3,000 migrants a day" counts arrests: the label says what its key does
        c.frame = dataclasses.replace(c.frame, label=base + label[len(prop.text) :])
    role = c.frame.role
    suffix = _ROLE_SUFFIXES.get(role.key) if role is not None and role.key else None
    if suffix and suffix not in c.measure_key:
        head, sep, per = c.measure_key.partition("/per_")
        c.measure_key = head + suffix + (sep + per if sep else "")
        c.measure_terms = [*c.measure_terms, f"role:{role.key}"]


def _is_proper(sentence: str, prop, word: str) -> bool:
    """The property's word is capitalised where it stands (a name: "Guard", "ICE")."""
    text = prop.text
    at = text.lower().find(word)
    return at >= 0 and text[at : at + 1].isupper()


# Dates whose measure says what they date without an event: when a source spoke, or the day
# a data source stands for.
_UNREAD_DATES = frozenset({"date:statement", "date:data", "time:statement", "time:data"})


def _days_at_their_times(claims: list[Claim]) -> None:
    """The day of a named event and the one zoned clock time an article gives for it
    ("late Tuesday" ... "at 9:30 p.m. EDT", keys date:earthquake and time:earthquake), in any
    sentence: the day covers the UTC days of that instant. Dates that name no event
    ("date:event") are left alone: their times may be of something else."""
    stated: dict[str, set[str]] = {}
    for c in claims:
        if c.kind == "time" and c.value is not None and c.measure_key not in _UNNAMED_TIMES:
            stated.setdefault(c.measure_key.removeprefix("time:"), set()).add(c.value_text)
    for c in claims:
        event = c.measure_key.removeprefix("date:")
        if c.kind == "date" and _one_day(c) and len(stated.get(event, ())) == 1:
            c.date_start, c.date_end = utc_span(c.date_start, next(iter(stated[event])))


_UNNAMED_TIMES = {"time:event", "time:unnamed", "time:statement"}


def _one_day(c: Claim) -> bool:
    return c.date_start is not None and c.date_start == c.date_end and c.date_start[:2] != "--"


def _check_deadline(deadline: float | None, s: Sentence, sentences: int, chars: int) -> None:
    if deadline is not None and time.monotonic() > deadline:
        raise ExtractionTimeout(
            f"extraction ran past its time budget at sentence {s.index + 1} of {sentences} "
            f"(character {s.start} of {chars})"
        )


def _claim(
    article_id,
    body,
    s: Sentence,
    start,
    end,
    kind,
    value,
    value_text,
    lower,
    upper,
    qualifier,
    unit,
    per,
    subject,
    key,
    terms,
    date_start=None,
    date_end=None,
) -> Claim:
    char_start, char_end = s.start + start, s.start + end
    return Claim(
        claim_id=claim_id(article_id, char_start, char_end),
        article_id=article_id,
        sentence_index=s.index,
        char_start=char_start,
        char_end=char_end,
        claim_text=body[char_start:char_end],
        sentence=s.text,
        kind=kind,
        value=value,
        value_text=value_text,
        lower=lower,
        upper=upper,
        qualifier=qualifier,
        unit=unit,
        per=per,
        subject=subject,
        measure_key=key,
        measure_terms=terms,
        date_start=date_start,
        date_end=date_end,
    )


def _quantity_claim(
    article_id: str, body: str, s: Sentence, q: Quantity, key: str, terms: list[str]
) -> Claim:
    return _claim(
        article_id,
        body,
        s,
        q.start,
        q.end,
        q.kind,
        q.value,
        q.value_text,
        q.lower,
        q.upper,
        q.qualifier,
        # Money's unit is its currency (ISO 4217), when the text names one.
        q.currency if q.kind == "money" and q.currency else q.unit,
        q.per,
        q.subject,
        key,
        terms,
    )


def _attribute(
    c: Claim,
    sentences: list[Sentence],
    cues: _Cues,
    body: str,
    paragraphs: dict[int, list[Sentence]],
):
    s = sentences[c.sentence_index]
    at = c.char_start - s.start
    if c.kind == "date" and _dates_the_statement(s.text, at, cues[c.sentence_index]):
        # "told the outlet on Thursday": when the source spoke, not when the event happened;
        # two such dates agree or are two statements, never a disagreement.
        c.measure_key, c.measure_terms = "date:statement", ["follows-speech-verb"]
        c.frame = dataclasses.replace(c.frame, definite=False)
        return
    # A date inside "according to data from early May" keeps that source; other numbers
    # inside an attribution were dropped as counts of sources.
    own = [
        a
        for a in cues[c.sentence_index]
        if c.kind == "date" or not (a.start <= at < a.start + len(a.text))
    ]
    chosen = _pick(own, c.char_start - s.start)
    if chosen is None:
        same_paragraph = paragraphs[s.paragraph]
        line_start = same_paragraph[0].start
        quoted = _in_quote(body[line_start : s.start]) or s.text.startswith(("“", '"'))
        later = [x for x in same_paragraph if x.index > s.index]
        earlier = [x for x in reversed(same_paragraph) if x.index < s.index]
        order = later + earlier if quoted else earlier[:1] + later[:1]
        for neighbour in order:
            if cues[neighbour.index]:
                chosen = cues[neighbour.index][-1 if neighbour.index < s.index else 0]
                break
    if chosen is not None:
        c.attribution, c.attribution_kind, c.cited_outlet = (
            chosen.text,
            chosen.kind,
            chosen.cited_outlet,
        )


_STATEMENT_GAP = re.compile(r"^[^“”\"]{0,40}$")
# "said the operation began on March 11": a clause of its own (its verb, "that" or a comma)
# between the speech verb and the date; the date is that clause's, not the statement's.
_CLAUSE_IN_GAP = re.compile(
    rf"\bthat\b|,|\b(?:{'|'.join(sorted(lx.CLAUSE_VERBS))}|begins?|[a-z]+ed)\b",
    re.IGNORECASE,
)


def _dates_the_statement(sentence: str, at: int, cues: list[Attribution]) -> bool:
    """A date right after a speech verb ("said on Fox News last week") dates the statement."""
    for cue in cues:
        if cue.explicit or cue.cue_start >= at:
            continue
        verb = re.match(r"\w+(?:\s+\w+)?", sentence[cue.cue_start :])
        gap = sentence[cue.cue_start + (verb.end() if verb else 0) : at]
        if _STATEMENT_GAP.match(gap) and not _CLAUSE_IN_GAP.search(gap):
            return True
    return False
