"""measure_key: a normalized name for WHAT a claim measures, so gold can group claims.

Rules, in order (the terms used are stored with the claim as measure_terms):
1. dates: "date:" + the event they date: the nearest event noun in the sentence ("meeting"),
   else "data" for a data source's date ("data from early May"), else the action of the verb
   that governs the date ("detained ... on May 28" -> arrests), else the article's most
   mentioned event noun, else "event".
2. percents: "percent:" + the head noun of what follows "of/for" ("10% of arrest numbers" ->
   arrests), placeholder heads (numbers, figures) replaced by the noun before them.
3. ratios: "ratio:" + the counted noun ("triple the number of daily arrests" -> arrests).
4. counts and rates: an action noun counts that action ("3,000 arrests" -> arrests); a generic
   people noun takes the action of the verb that governs it ("detaining 3,000 migrants",
   "arrest 3,000 people" -> arrests); otherwise the head noun with the proper-noun modifier
   that names whose it is ("3,000 ICE agents" -> "ice agents"; "21,000 National Guard troops"
   -> "national guard troops").
A count introduced by "including", "of whom"... is a part of another: "/subset" is added.
Then "/per_<period>" for rates.
"""

from __future__ import annotations

import re
from collections import Counter

from lake.silver import lexicon as lx

_VERB_WINDOW = re.compile(r"([\w’'-]+)")


def _governing_action(before: str) -> str | None:
    """The action verb within the last few words before a number, if any."""
    words = _VERB_WINDOW.findall(before.lower())[-7:]
    for word in reversed(words):
        for stem, concept in lx.ACTION_VERBS.items():
            if " " not in stem and word.startswith(stem):
                return concept
    text = " ".join(words)
    for stem, concept in lx.ACTION_VERBS.items():
        if " " in stem and stem in text:
            return concept
    return None


def _modifier(head_tokens: list[str]) -> str | None:
    """The proper-noun words before the head: 'ICE agents' -> 'ice'."""
    words = [t for t in head_tokens[:-1] if not t.startswith("(")]
    proper = [w for w in words if w[:1].isupper() and w.lower() not in lx.SOFT_MODIFIERS]
    return " ".join(proper).lower() or None


def quantity_key(
    kind: str,
    unit: str | None,
    head_tokens: list[str],
    subject: str | None,
    per: str | None,
    text_before: str,
) -> tuple[str, list[str]]:
    terms: list[str] = []
    if kind == "percent" or kind == "ratio":
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
        elif head in lx.GENERIC_PEOPLE and (verb := _governing_action(text_before)):
            terms += [f"verb:{verb}", f"noun:{head}"]
            key = verb
        else:
            modifier = _modifier(head_tokens)
            if modifier and modifier in lx.MILITARY_UNITS and head == "members":
                head = "troops"
            terms.append(f"noun:{head}")
            if modifier:
                terms.append(f"modifier:{modifier}")
            key = f"{modifier} {head}" if modifier else head
        if _SUBSET_BEFORE.search(text_before):
            # "3,000 agents, including 1,800 from HSI": a part of another count, not a rival.
            terms.append("subset")
            key += "/subset"
    if per:
        terms.append(f"per:{per}")
        key += f"/per_{per}"
    return key, terms


def article_event(sentences: list[str]) -> str | None:
    """The event noun an article mentions most: the default for dates with no event nearby."""
    counts = Counter()
    for sentence in sentences:
        for word in re.findall(r"[a-z]+", sentence.lower()):
            if word in lx.EVENT_NOUNS:
                counts[lx.EVENT_SYNONYMS.get(word, word)] += 1
    return counts.most_common(1)[0][0] if counts else None


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


def date_key(sentence: str, start: int, end: int, default_event: str | None) -> tuple[str, list]:
    best, best_distance = None, None
    for m in re.finditer(r"[A-Za-z]+", sentence):
        word = m.group(0).lower()
        if word in lx.EVENT_NOUNS:
            distance = start - m.end() if m.end() <= start else m.start() - end
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
    if default_event:
        return f"date:{default_event}", [f"article-event:{default_event}"]
    return "date:event", ["no-event"]
