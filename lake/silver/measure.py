"""measure_key: a normalized name for WHAT a claim measures, so gold can group claims.

Rules, in order (the terms used are stored with the claim as measure_terms):
1. dates: "date:" + the event they date: the nearest event noun in the sentence ("meeting")
   that is not part of a source ("a person briefed on the talks", "in an interview with",
   an outlet's name), else "data" for a data source's date ("data from early May"), else the
   action of the verb that governs the date ("detained ... on May 28" -> arrests), else
   "event": one key for every article's dates that name nothing, so the articles of a story
   agree (the article's most mentioned event noun, used before, differed between articles).
2. percents: "percent:" + the head noun of what follows "of/for" ("10% of arrest numbers" ->
   arrests), placeholder heads (numbers, figures) replaced by the noun before them.
3. money: what the amount is for: the noun after "in/for/on" ("$25 million in refunds",
   "spending $360,000 a week on overtime"), else the noun before "of/worth/at" ("a penalty of
   $151,000", "a bond measure worth $1.3 billion" -> bond), else "costs" after "cost(s)",
   else "funding" after approved / allocated / pledged ("lawmakers approved $17 million": not
   the lawmakers), else the head of the clause's subject ("the projected gap has grown to $9.3
   billion").
4. durations and ages: "duration:" + the noun a duration modifies ("a 35-day shutdown"), else
   the event it spans, found as a date's ("four years of war" -> war), else the subject of
   its clause ("the ceasefire held for 72 hours" -> ceasefire); the time between two events
   adds which side it lies on ("a week after the meeting" -> duration:meeting/after).
   "age:" + the person's name ("Jane Roe, 46" -> roe) or noun ("a 42-year-old man" -> man).
   Neither found:
   "duration:unnamed" / "age:unnamed", which gold does not reconcile (two unrelated periods of
   one story are not a conflict).
5. ratios: "ratio:" + the counted noun ("triple the number of daily arrests" -> arrests).
6. counts and rates: an action noun counts that action ("3,000 arrests" -> arrests); a generic
   people noun takes the action of the verb that governs it ("detaining 3,000 migrants",
   "arrest 3,000 people" -> arrests); otherwise the head noun with the proper-noun modifier
   that names whose it is ("3,000 ICE agents" -> "ice agents"; "21,000 National Guard troops"
   -> "national guard troops").
A count introduced by "including", "of whom"... is a part of another: "/subset" is added.
Then "/per_<period>" for rates.
"""

from __future__ import annotations

import functools
import re

from lake.silver import lexicon as lx
from lake.silver.attribution import trie_pattern
from lake.silver.cues import may_hold
from lake.silver.kinds import UNRECONCILED_MEASURES
from lake.silver.quantities import is_name_word

_VERB_WINDOW = re.compile(r"([\w’'-]+)")
# Inflections an action verb's stem takes ("arrest" -> arrested, arresting, arrests, arrest;
# "evacuat" -> evacuated, evacuation): "sentinel" and "sentenced" do not start the verb "sent".
_INFLECTION = re.compile(
    r"(?:e|es|s|ed|d|led|ing|ling|ion|ions|ation|ations|al|als|ies|y|e?ments?|ees?)?"
)


# Pure, and asked of the same few thousand words again and again (each date's and count's
# last seven words): the stems are tried once per word.
@functools.lru_cache(maxsize=8192)
def action_of(word: str) -> str | None:
    """The action a verb form names ("detained" -> arrests), or None. Stems that are also
    common nouns ("fire": the fire, fire crews) count only in their verb forms."""
    word = word.lower()
    if word in lx.ACTION_VERB_FORMS:
        return lx.ACTION_VERB_FORMS[word]
    for stem, concept in lx.ACTION_VERBS.items():
        if " " not in stem and word.startswith(stem) and _INFLECTION.fullmatch(word[len(stem) :]):
            return concept
    return None


def last_words(text: str, count: int, reach: int = 120) -> list[re.Match[str]]:
    """The last `count` words (_VERB_WINDOW runs) of the text, as a scan of all of it finds
    them, from a scan of its tail: a run found from `start` is a whole run unless it begins
    right at `start`, where it may be the end of a longer one."""
    while True:
        start = max(0, len(text) - reach)
        found = list(_VERB_WINDOW.finditer(text, start))
        if start == 0:
            return found[-count:]
        if found and found[0].start() == start:
            del found[0]
        if len(found) >= count:
            return found[-count:]
        reach *= 4


_PHRASE_ACTIONS = [(stem, concept) for stem, concept in lx.ACTION_VERBS.items() if " " in stem]


def _governing_action(before: str) -> str | None:
    """The action verb within the last few words before a number, if any. A capitalised word
    inside the sentence is a name ("the Daily Sentinel", "Fire Chief"), not a verb."""
    found = last_words(before, 7)
    for m in reversed(found):
        if is_name_word(before, m.start()):
            continue
        if concept := action_of(m.group(0)):
            return concept
    text = " ".join(m.group(0).lower() for m in found)
    for stem, concept in _PHRASE_ACTIONS:
        if stem in text:
            return concept
    return None


_AFTER_VERB = re.compile(
    r"^\s*(?:(?:have|has|had|were|was|are|is|will|would)\s+)?(?:(?:been|being|be)\s+)?"
    r"(?:\w+ly\s+)?(?:(?:confirmed|reported|feared|presumed|believed|found)\s+)?"
    r"(?P<ordered>(?:ordered|told|urged|forced|warned)\s+to\s+)?(?P<verb>[a-z]+)\b",
    re.IGNORECASE,
)


def _following_action(after: str) -> str | None:
    """The action verb right after a people noun: "four people have died" -> deaths."""
    m = _AFTER_VERB.match(after)
    if not m:
        return None
    if m.group("ordered") and m.group("verb").lower() in ("leave", "evacuate", "flee"):
        return "evacuations"  # "ordered to leave their homes" is an evacuation order
    concept = action_of(m.group("verb"))
    return None if concept in ("deployments", "dismissals") else concept


def _modifier(head_tokens: list[str]) -> str | None:
    """The proper-noun words before the head: 'ICE agents' -> 'ice'; and "temporary" for
    people hired for a while or in someone's place ("replacement workers", "temp staff"),
    who are not the permanent ones counted beside them."""
    words = [t for t in head_tokens[:-1] if not t.startswith("(")]
    proper = [w for w in words if w[:1].isupper() and w.lower() not in lx.SOFT_MODIFIERS]
    temporary = any(w.lower() in lx.TEMPORARY_MODIFIERS for w in words)
    return " ".join((["temporary"] if temporary else []) + proper).lower() or None


_WORD = r"[a-z][a-z'’-]*"
# "$25 million in refunds and compensation", "$360,000 each week on overtime"
_MONEY_FOR_AFTER = re.compile(
    r"^(?:\s+(?:a|an|per|each|every)\s+(?:day|week|month|year)"
    r"|\s+(?:daily|weekly|monthly|annually|yearly))?"
    rf"\s+(?:in|for|on)\s+(?:the\s+|a\s+|an\s+|its\s+|their\s+)?(?P<np>(?:{_WORD}\s+){{0,2}}{_WORD})",
    re.IGNORECASE,
)
# "a penalty of", "a bond measure worth", "repair costs at", "savings totaling"
_MONEY_NOUN_BEFORE = re.compile(
    rf"(?P<np>(?:{_WORD}\s+)?{_WORD})"
    r"\s+(?:of|worth|at|totaling|totalling|valued at|estimated at)\s+$",
    re.IGNORECASE,
)
# The subject of the clause holding the amount: "the projected gap has grown to", "the
# proposal totals", "each eligible family would get", "the stock slid", "early voting was".
_CLAUSE_VERB = rf"(?:{'|'.join(sorted(lx.CLAUSE_VERBS))}|[a-z]+ed|[a-z]+s)"
# A subject's words: never the speech verb or "that" of a reporting clause before it.
_NP_WORD = rf"(?!(?:said|says|told|tells|that|shows?|showed|reported|according)\b){_WORD}"
_CLAUSE_START = re.compile(r"[,;:—“\"(]\s*|\b(?:that|said|says|shows?|showed)\s+", re.I)
_CLAUSE_SUBJECT = re.compile(
    r"(?:(?:the|a|an|each|every|its|their|some|all)\s+)?"
    rf"(?P<np>(?:{_NP_WORD}\s+){{0,6}}?{_NP_WORD})\s+{_CLAUSE_VERB}\b[^,;:]*$",
    re.IGNORECASE,
)


def _clause_subject(text_before: str) -> str | None:
    """The head of the subject of the innermost clause that holds the number: "a memo shows
    early voting was" -> voting, not memo."""
    starts = [0] + [m.end() for m in _CLAUSE_START.finditer(text_before)]
    for start in reversed(starts):
        if (m := _CLAUSE_SUBJECT.match(text_before, start)) and (head := _np_head(m.group("np"))):
            return head
    return None


_MONEY_COST_BEFORE = re.compile(
    r"\bcost(?:s|ing)?\s+(?:(?:the|a|an)\s+)?(?:\w+\s+)?$", re.IGNORECASE
)


_MONEY_GRANTED_BEFORE = re.compile(
    r"\b(?:approved|approves|approve|allocated|allocates|earmarked|appropriated|pledged|pledges|"
    r"granted|authorized|authorised|awarded|budgeted)\s+(?:(?:an?\s+)?(?:additional|extra|"
    r"another|further|new)\s+)?$",
    re.IGNORECASE,
)


_ATTACHED = frozenset(lx.ATTACHED_UNITS.values())


def _np_head(np: str) -> str | None:
    """The head of a short noun phrase: the last word before a stopword, placeholder heads
    ("measure", "package") replaced by the word before them."""
    words: list[str] = []
    tokens = np.lower().split()
    while tokens and tokens[0] in lx.NP_STOPWORDS:
        tokens.pop(0)
    for word in tokens:
        if word in lx.NP_STOPWORDS:
            break
        words.append(word)
    while len(words) > 1 and words[-1] in lx.MONEY_PLACEHOLDER_HEADS:
        words.pop()
    if not words or words[-1] in lx.NP_STOPWORDS or words[-1] in lx.MONEY_PLACEHOLDER_HEADS:
        return None
    return words[-1]


def money_subject(text_before: str, text_after: str) -> tuple[str, str] | None:
    """(noun, rule) for what an amount of money is for, or None."""
    if (m := _MONEY_FOR_AFTER.match(text_after)) and (head := _np_head(m.group("np"))):
        return head, "money-for"
    if (m := _MONEY_NOUN_BEFORE.search(text_before)) and (head := _np_head(m.group("np"))):
        return head, "money-of"
    if _MONEY_COST_BEFORE.search(text_before):
        return "costs", "money-cost"
    if _MONEY_GRANTED_BEFORE.search(text_before):
        # "lawmakers approved $17 million to fight the outbreak": the lawmakers are who gave
        # it; an amount approved, allocated or pledged is funding.
        return "funding", "money-granted"
    if head := _clause_subject(text_before):
        return head, "money-subject"
    return None


def share_subject(kind: str, text_before: str) -> tuple[str, str] | None:
    """(noun, rule) for what a percent or ratio with no "of NP" after it is of: the noun
    before "of" ("raises of 12 percent" -> raises), else the clause subject ("enrollment has
    fallen 13%", "early voting was triple the level" -> voting)."""
    m = _MONEY_NOUN_BEFORE.search(text_before) if kind == "percent" else None
    if m and (head := _np_head(m.group("np"))):
        return head, "share-of:" + head
    if head := _clause_subject(text_before):
        return head, "share-subject:" + head
    return None


_STANCE = re.compile(
    r"\b(?:"
    + "|".join(sorted((re.escape(v) for v in lx.STANCE_VERBS), key=len, reverse=True))
    + r")\b",
    re.IGNORECASE,
)


def stance(text_before: str) -> str | None:
    """Which side of a negotiation a figure is: "demanded" when its clause asks for it ("the
    union is demanding raises of 12%", "workers want a 9% raise"), "offered" when it offers
    it ("management put forward 4%"). The nearest such verb must govern the figure: at most
    six words between them, no punctuation and no "that"; "seek to" / "want to" aim at an
    action, they ask nothing of the other side."""
    verbs = list(_STANCE.finditer(text_before))
    if not verbs:
        return None
    gap = text_before[verbs[-1].end() :]
    if len(gap.split()) > 6 or re.search(r"[,;:.!?“”\"]|\bthat\b", gap):
        return None
    side = lx.STANCE_VERBS[verbs[-1].group(0).lower()]
    if side == "demanded" and re.match(r"\s+to\b", gap):
        return None  # "seek to arrest 3,000 people", "want to hire 40": an aim, not a demand
    return side


# A margin of victory: "won by 179 votes", "the race was decided by 2,000 votes", "the
# winner's margin was 190 votes", "a margin of 40 seats".
_MARGIN = re.compile(
    r"(?:\b(?:won|wins|win|decided|lost|led|leads|leading|trailed|trails|trailing|defeated|"
    r"beat|beaten|edged)\b[^,;:.]{0,40}?\bby|\bmargin\s+(?:of|was|is|stood\s+at))\s*$",
    re.IGNORECASE,
)
# Things turned down: "rejected 300 applications", "set aside 700 ballots", "12 charges were
# thrown out".
_REJECTING = (
    r"(?:rejected|rejects|reject|rejecting|set\s+aside|sets\s+aside|setting\s+aside|threw\s+out|"
    r"thrown\s+out|throws\s+out|tossed|disqualified|invalidated|discarded|denied|denies|"
    r"refused|turned\s+down|turned\s+away)"
)
_REJECTED_BEFORE = re.compile(rf"\b{_REJECTING}\s+(?:(?:the|some|another|about)\s+)?$", re.I)
_REJECTED_AFTER = re.compile(
    rf"^\s*(?:(?:were|was|have\s+been|had\s+been|has\s+been|are|is|will\s+be)\s+)"
    rf"(?:\w+ly\s+)?{_REJECTING}\b",
    re.IGNORECASE,
)
# A subject rising to, or standing at, the amount that follows: "demand peaked at",
# "electricity use climbed to", "the reservoir stood at".
_LEVEL = re.compile(
    r"(?:^|[,;:—“\"(]\s*|\b(?:that|said|says|shows?|showed)\s+)"
    r"(?:(?i:the|a|an|its|their)\s+)?(?P<np>(?:[A-Za-z][\w-]*\s+){0,3}?[A-Za-z][\w-]*)\s+"
    r"(?:(?:has|had|have)\s+)?(?:peaked|climbed|rose|risen|reached|hit|topped|stood|stands|"
    r"jumped|surged|soared|fell|fallen|dropped|declined|grew|grown)\b(?:\s+(?:to|at))?\s*$"
)


def _level_subject(text_before: str) -> str | None:
    m = _LEVEL.search(text_before)
    return _np_head(m.group("np")) if m else None


# The subject of the clause is a (death) toll: "the toll rose to", "the death toll from the
# storm has climbed to", "the toll stood at".
_TOLL = re.compile(
    r"\b(?:death\s+)?toll\b(?:\s+(?:from|in|of)\s+(?:the\s+)?[\w-]+(?:\s+[\w-]+)?)?"
    r"\s+(?:(?:has|had|have)\s+)?(?:now\s+|officially\s+)?"
    r"(?:rose|risen|climbed|reached|stood|stands|hit|jumped|grew|grown|is|was|increased|"
    r"surged|passed|topped)\b(?:\s+(?:to|at))?\s*$",
    re.IGNORECASE,
)


def quantity_key(
    kind: str,
    unit: str | None,
    head_tokens: list[str],
    subject: str | None,
    per: str | None,
    text_before: str,
    text_after: str = "",
    span_before: str | None = None,
) -> tuple[str, list[str]]:
    """span_before: the text before the claim's span (qualifier excluded); text_before ends at
    the number."""
    terms: list[str] = []
    money = (
        money_subject(text_before if span_before is None else span_before, text_after)
        if kind == "money" and not unit
        else None
    )
    if money:
        noun, rule = money
        terms.append(f"{rule}:{noun}")
        key = noun
    elif kind == "percent" or kind == "ratio":
        if not subject:
            subject, rule = share_subject(
                kind, text_before if span_before is None else span_before
            ) or (None, None)
            if rule:
                terms.append(rule)
        words = re.findall(r"[\w’'-]+", (subject or "").lower())
        words = [w for w in words if w not in ("the", "a", "an") and w not in lx.SOFT_MODIFIERS]
        if words and words[-1] in lx.PLACEHOLDER_HEADS and len(words) > 1:
            words = words[:-1]
        noun = words[-1] if words else "unknown"
        noun = noun if noun.endswith("s") else noun + "s"
        noun = lx.ACTION_NOUNS.get(noun, noun)
        terms.append(f"{kind}-of:{noun}")
        key = f"{kind}:{noun}"
    else:
        head = unit or "unknown"
        action = lx.ACTION_NOUNS.get(head)
        if action:
            terms.append(f"action-noun:{head}")
            key = action
        elif (head in lx.GENERIC_PEOPLE or head == "unknown") and _TOLL.search(
            span_before or text_before
        ):
            # "the toll rose to 12 people", "the death toll stood at 40": a toll counts deaths
            terms += ["toll", f"noun:{head}"]
            key = "deaths"
        elif head in lx.GENERIC_PEOPLE and (
            verb := _governing_action(text_before) or _following_action(text_after)
        ):
            terms += [f"verb:{verb}", f"noun:{head}"]
            key = verb
        elif _MARGIN.search(span_before if span_before is not None else text_before):
            # "the race was decided by 179 votes": the winning margin, not the votes cast
            terms += ["margin", f"noun:{head}"]
            key = f"margin:{head}"
        elif head != "unknown" and (
            _REJECTED_BEFORE.search(span_before if span_before is not None else text_before)
            or _REJECTED_AFTER.match(text_after)
        ):
            # "5,100 ballots were rejected", "workers set aside 700 ballots": the ones turned
            # down, not all of them
            terms += ["rejected", f"noun:{head}"]
            key = f"rejected {head}"
        elif (
            head in _ATTACHED
            and subject
            and (noun := _np_head(subject))
            and lx.ATTACHED_UNITS.get(noun, noun) != head
        ):
            # "a 10-mile stretch", "a 2,000-pound bomb": miles of the stretch, pounds of the
            # bomb; another stretch of the story is another measure
            terms += [f"unit:{head}", f"measures:{noun}"]
            key = f"{head}:{noun}"
        elif head in lx.MEASURE_UNITS and (
            subject := _level_subject(span_before if span_before is not None else text_before)
        ):
            # "demand peaked at 9,000 megawatts": the demand, in megawatts
            terms += [f"unit:{head}", f"level-of:{subject}"]
            key = f"{head}:{subject}"
        else:
            modifier = _modifier(head_tokens)
            if modifier and modifier in lx.MILITARY_UNITS and head == "members":
                head = "troops"
            if modifier in lx.MODIFIER_SYNONYMS:
                modifier = lx.MODIFIER_SYNONYMS[modifier]  # "Guard troops": the National Guard
            terms.append(f"noun:{head}")
            if modifier:
                terms.append(f"modifier:{modifier}")
            key = f"{modifier} {head}" if modifier else head
    if side := stance(text_before if span_before is None else span_before):
        terms.append(f"stance:{side}")
        key += f"/{side}"
    if kind not in ("percent", "ratio") and _SUBSET_BEFORE.search(text_before):
        # "3,000 agents, including 1,800 from HSI": a part of another count, not a rival.
        terms.append("subset")
        key += "/subset"
    if per:
        terms.append(f"per:{per}")
        key += f"/per_{per}"
    return key, terms


_SUBSET_BEFORE = re.compile(
    r"[,;(—–]\s*(?:including|among them|among whom|of whom|of which|of them|of those)"
    r"(?:\s+(?:some|about|around|nearly|almost|roughly|at least|more than|up to))?\s*$",
    re.IGNORECASE,
)

# "government data from early May", "figures as of June 1": the date stamps a data source.
_DATA_SOURCE_BEFORE = re.compile(
    r"\b(?:data|figures|statistics|numbers|counts?|census|survey|poll)\s+"
    r"(?:from|as of|for|released(?: on| in)?|published(?: on| in)?|dated)\s+(?:the\s+)?$",
    re.IGNORECASE,
)


# Where a source spoke, not what happened: "in an interview with the Post", "at a news
# conference". A date right after the frame ("in an interview on Tuesday") dates the statement.
_FRAME_NOUNS = (
    "interview",
    "briefing",
    "speech",
    "statement",
    "news conference",
    "press conference",
)
_SOURCING_FRAME = re.compile(
    r"\b(?:in|during|at)\s+(?:a|an|the|his|her|their|its)\s+(?:[a-z-]+\s+)?"
    rf"(?P<noun>{'|'.join(_FRAME_NOUNS)})\b"
    r"(?P<date_gap>\s+(?:on|last|this|earlier)\b)?",
    re.IGNORECASE,
)
# An event noun as a whole run of ASCII letters, in any ASCII case: what a loop over every
# run of [A-Za-z] testing its lowercase against EVENT_NOUNS finds, in one scan.
_EVENT_NOUN = re.compile(
    rf"(?<![A-Za-z])(?:{trie_pattern(sorted(lx.EVENT_NOUNS))})(?![A-Za-z])",
    re.IGNORECASE | re.ASCII,
)


# A sentence's dates and times each ask for its event nouns.
@functools.lru_cache(maxsize=256)
def event_nouns(sentence: str) -> tuple[tuple[int, int, str], ...]:
    """(start, end, noun) of each event noun in the sentence, in order."""
    return tuple((m.start(), m.end(), m.group(0).lower()) for m in _EVENT_NOUN.finditer(sentence))


def date_key(
    sentence: str,
    start: int,
    end: int,
    sources: list[tuple[int, int]] = (),
) -> tuple[str, list]:
    """sources: spans of the sentence that name a claim's source ("a person briefed on the
    talks", "A briefing document", "Summit News Network"); an event noun there is not what
    the date dates."""
    skip = list(sources)
    framed = may_hold(sentence, sentence.lower(), _FRAME_NOUNS)
    for m in _SOURCING_FRAME.finditer(sentence) if framed else ():
        if m.group("date_gap") and m.end() <= start <= m.end() + 2:
            return "date:statement", ["sourcing-frame"]
        skip.append((m.start(), m.end()))
    best, best_distance = None, None
    for noun_start, noun_end, word in event_nouns(sentence):
        if any(b <= noun_start < e for b, e in skip):
            continue
        distance = start - noun_end if noun_end <= start else noun_start - end
        if best_distance is None or abs(distance) < best_distance:
            best, best_distance = lx.EVENT_SYNONYMS.get(word, word), abs(distance)
    if best:
        return f"date:{best}", [f"event-noun:{best}"]
    before = sentence[:start]
    if _DATA_SOURCE_BEFORE.search(before):
        return "date:data", ["data-as-of"]
    if action := _governing_action(before):
        # "ICE detained 1,600 immigrants on May 28" dates the detentions, not the article's event.
        return f"date:{action}", [f"verb:{action}"]
    return "date:event", ["no-event"]


def time_key(
    sentence: str, start: int, end: int, sources: list[tuple[int, int]] = ()
) -> tuple[str, list]:
    """A clock time times the same event a date would date: "time:explosion"."""
    key, terms = date_key(sentence, start, end, sources)
    return "time:" + key.removeprefix("date:"), terms


# The measure_keys that stay in silver but make no fact (the kinds declare them).
UNNAMED = UNRECONCILED_MEASURES


def duration_key(
    kind: str,
    subject: str | None,
    sentence: str,
    start: int,
    end: int,
    sources: list[tuple[int, int]] = (),
) -> tuple[str, list[str]]:
    """kind: "duration" or "age"; subject: the name or noun the extractor tied to it."""
    if subject:
        noun = subject.split()[-1].lower()
        if kind == "duration":
            # "four days of hearings" and "a four-day hearing": one event's length.
            if noun.endswith("s") and not noun.endswith(("ss", "is", "us")):
                noun = noun[:-1]
            noun = lx.ACTION_NOUNS.get(noun, lx.ACTION_NOUNS.get(noun + "s", noun))
        return f"{kind}:{noun}", [f"{kind}-of:{noun}"]
    if kind == "age":
        return "age:unnamed", ["nothing-named"]
    # "a week after the meeting", "a day earlier", "a week in advance": the time between two
    # events, not the length of one.
    offset = _OFFSET_AFTER.match(sentence[end:])
    suffix = f"/{_OFFSETS[offset.group(1).lower().split()[0]]}" if offset else ""
    key, terms = date_key(sentence, start, end, sources)
    if key not in ("date:event", "date:statement"):
        return "duration:" + key.split(":", 1)[1] + suffix, terms
    if not offset and (head := _clause_subject(sentence[:start])):
        return f"duration:{head}", [f"duration-subject:{head}"]
    return "duration:unnamed", ["nothing-named"]


_OFFSETS = {
    "after": "after",
    "later": "after",
    "since": "after",
    "into": "after",
    "before": "before",
    "earlier": "before",
    "in": "before",
    "ahead": "before",
    "prior": "before",
}
_OFFSET_AFTER = re.compile(
    r"^\s+(after|later|since|into|before|earlier|in\s+advance|ahead\s+of|prior\s+to)\b", re.I
)
