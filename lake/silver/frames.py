"""A claim's frame: whose number it is, what it measures, the event it belongs to, its scope
and its role, each as the words of the sentence it came from (offsets into the sentence) and a
normalized key gold compares. A part not found is None.

The rules read the clause that holds the figure, shallowly (no parser: word classes from the
lexicon and word shapes):
- event: for a date or time, the event noun it modifies ("the 2016 election", "Tuesday's
  caucus", "the meeting on May 20"), else the verb of its clause ("pleaded guilty on Friday",
  "On Friday, the department released"); for a number, the verb it is the object or subject
  of ("released about 3,000 emails", "six bodies were found");
- subject: a possessor before the figure or the counted noun ("ICE's 25 directors", "her
  speeches"), a person an age is of ("Malia, 16"), else the subject of the clause's verb
  ("Flynn pleaded guilty", "Mr. Steele, a former governor, was elected");
- property: what a number measures, with its modifiers ("field office directors", "federal
  taxes", "share of Republican primary voters"); dates and times measure when their event was;
- scope: another date of the clause ("revenue of $3.1 billion in 2019") or a place or condition
  after the figure ("found in the wreckage", "ad buy in Florida");
- role: a part of a total ("including", "of them"), a target ("a goal of"), an estimate, a
  projection or a record.
"""

from __future__ import annotations

import bisect
import functools
import itertools
import operator
import re
from dataclasses import dataclass
from operator import or_

import snowballstemmer

from lake.schemas import FRAME_PARTS
from lake.silver import lexicon as lx
from lake.silver.measure import action_of


@dataclass(frozen=True)
class Part:
    text: str
    start: int  # offset into the sentence
    end: int
    key: str | None

    def as_row(self) -> dict:
        return {"text": self.text, "start": self.start, "end": self.end, "key": self.key}


@dataclass(frozen=True)
class Frame:
    subject: Part | None = None
    property: Part | None = None
    event: Part | None = None
    scope: Part | None = None
    role: Part | None = None
    # The frame names its quantity well enough that a differing value is a disagreement, not
    # another quantity.
    definite: bool = False
    # The quantity in words, a fact's name (_label); None when the frame names nothing.
    label: str | None = None

    def as_row(self) -> dict:
        row: dict = {
            name: None if (p := getattr(self, name)) is None else p.as_row() for name in FRAME_PARTS
        }
        row["definite"] = self.definite
        row["label"] = self.label
        return row


def _possessive_less(text: str) -> str:
    return re.sub(r"[’']s$", "", text)


def _participle(word: str) -> bool:
    """A past participle ("found", "injured", "requested"): a label reads with it."""
    w = word.lower()
    return (len(w) > 3 and w.endswith("ed") or w in _IRREGULAR_FORMS) and w not in _AUX


_STEMMER = snowballstemmer.stemmer("english")


@functools.lru_cache(maxsize=16384)
def stem(word: str) -> str:
    return _STEMMER.stemWord(word.lower().replace("’", "'"))


# Tokens: words (with inner apostrophes, hyphens and dots: "U.S.", "Peña", "don't"), numbers,
# and single punctuation marks. Written to match without backtracking (possessive runs, and a
# lookahead that passes over spaces at once): the same tokens as
# r"[^\W\d_](?:[\w'’.-]*\w)?|\d[\d,.:]*\d|\d|[^\w\s]" (tests/unit/test_frames.py).
_TOKEN = re.compile(r"(?=\S)(?:[^\W\d_]\w*+(?:['’.-]+\w+)*+|\d++(?:[,.:]+\d+)*+|[^\w\s])")
_FIRST = operator.itemgetter(0)

DETERMINERS = frozenset(
    [
        "a",
        "an",
        "the",
        "this",
        "that",
        "these",
        "those",
        "his",
        "her",
        "its",
        "their",
        "our",
        "my",
        "your",
        "some",
        "any",
        "each",
        "every",
        "all",
        "both",
        "no",
        "another",
    ]
)
POSSESSIVE_PRONOUNS = frozenset(["his", "her", "its", "their", "our", "my", "your"])
PRONOUNS = frozenset(["he", "she", "it", "they", "we", "i", "you", "who", "which", "that", "this"])
PREPOSITIONS = lx.PREPOSITIONS
CONJUNCTIONS = frozenset(["and", "or", "but", "nor", "so", "yet"])
SUBORDINATORS = frozenset(
    [
        "who",
        "whom",
        "whose",
        "which",
        "that",
        "when",
        "while",
        "where",
        "because",
        "although",
        "though",
        "as",
        "if",
        "unless",
        "whether",
        "after",
        "before",
        "since",
        "until",
    ]
)
ADVERBS = frozenset(
    [
        "also",
        "not",
        "never",
        "already",
        "still",
        "just",
        "only",
        "even",
        "then",
        "now",
        "again",
        "recently",
        "reportedly",
        "allegedly",
        "previously",
        "later",
        "earlier",
        "ever",
        "once",
        "first",
        "finally",
        "quickly",
        "officially",
        "formally",
        "publicly",
        "privately",
        "repeatedly",
        "apparently",
    ]
)
_HONORIFICS = frozenset(
    ["mr", "mrs", "ms", "dr", "sen", "rep", "gov", "gen", "lt", "col", "sgt", "president"]
)
# Words that look like regular verbs by their shape and are not.
_NOT_VERBS = frozenset(
    [
        "need",
        "indeed",
        "hundred",
        "red",
        "bed",
        "seed",
        "speed",
        "feed",
        "breed",
        "creed",
        "shed",
        "led",
        "united",
        "limited",
        "interested",
        "concerned",
        "supposed",
        "alleged",
        "so-called",
        "proposed",
        "detailed",
        "advanced",
        "according",
        "including",
        "regarding",
        "concerning",
        "following",
        "during",
        "excluding",
        "pending",
        "notwithstanding",
        # -ing nouns
        "nothing",
        "something",
        "anything",
        "everything",
        "morning",
        "evening",
        "spring",
        "string",
        "building",
        "ceiling",
        "wedding",
        "funding",
        "spending",
        "training",
        "housing",
        "clothing",
        "earnings",
        "savings",
        "proceedings",
        "findings",
    ]
)
# Verbs that date a statement or a report, not the event reported.
_SPEECH = frozenset(stem(v) for v in lx.SPEECH_VERBS if " " not in v)
_EVENT_NOUNS = frozenset(lx.EVENT_NOUNS)
# Nouns that head a "date of" phrase without naming an event themselves.
_WEAK_HEADS = frozenset(
    [
        "time",
        "times",
        "day",
        "days",
        "year",
        "years",
        "month",
        "months",
        "week",
        "weeks",
        "morning",
        "afternoon",
        "evening",
        "night",
        "tonight",
        "overnight",
    ]
)


class _Tokens:
    """A sentence's tokens as parallel lists, built once per sentence and shared by the frames
    of its claims: offsets, text, lower case, whether a word, whether it reads as a verb (a
    token's verb reading depends on its neighbours only), and the indexes where a verb group
    can start (a verb or an auxiliary)."""

    __slots__ = ("text", "start", "end", "low", "word", "verb", "groups", "n")

    def __init__(self, sentence: str) -> None:
        # map() over C methods: no Python call per token
        matches = list(_TOKEN.finditer(sentence))
        self.text = text = list(map(re.Match.group, matches))
        self.start = list(map(re.Match.start, matches))
        self.end = list(map(re.Match.end, matches))
        self.low = low = list(map(str.lower, text))
        self.word = list(map(str.isalpha, map(_FIRST, text)))
        self.n = n = len(text)
        # Only a verb form, a word after a modal or "to", or an "-ed", "-ing" or "-s" word can
        # read as a verb: the rules run on those alone.
        maybe = list(map(_may_be_verb, low))
        for i in itertools.compress(range(1, n), map(_MODALS_AND_TO.__contains__, low)):
            maybe[i] = True
        self.verb = verb = [False] * n
        for i in itertools.compress(range(n), maybe):
            verb[i] = _reads_as_verb(self, i)
        opens_group = map(or_, verb, map(_AUX.__contains__, low))
        self.groups = list(itertools.compress(range(n), opens_group))


@functools.lru_cache(maxsize=65536)
def _may_be_verb(word: str) -> bool:
    return word in _VERB_FORMS or word.endswith(("ed", "ing", "s"))


@functools.lru_cache(maxsize=512)
def _tokens(sentence: str) -> _Tokens:
    return _Tokens(sentence)


def _is_name(toks: _Tokens, i: int) -> bool:
    """A capitalised word that is not the sentence's first word (or is, but is no function
    word)."""
    if not toks.text[i][:1].isupper():
        return False
    return i != 0 or toks.low[i] not in _FUNCTION_WORDS


_FUNCTION_WORDS = DETERMINERS | PRONOUNS | PREPOSITIONS | CONJUNCTIONS
_BARE_DETERMINERS = DETERMINERS - POSSESSIVE_PRONOUNS
_IRREGULAR_FORMS = frozenset(f for f, base in lx.IRREGULAR_VERBS.items() if f != base) - {
    "born",
    "left",
    "bound",
    "lain",
}


def _reads_as_verb(toks: _Tokens, i: int) -> bool:
    text, low, word = toks.text, toks.low, toks.word
    w = low[i]
    if not word[i] or text[i][:1].isupper() and i > 0:
        return False
    if w in _NOT_VERBS or w in DETERMINERS or w in PREPOSITIONS or w in CONJUNCTIONS:
        return False
    if w in lx.CLAUSE_VERBS or w in _IRREGULAR_FORMS:
        return True
    prev = low[i - 1] if i > 0 else ""
    if w in _NUMBER_WORDS:
        return False
    if prev in _MODALS or prev == "to" and i > 1 and word[i - 2]:
        # "will decide", "plans to decide": a base form after a modal or an infinitive's "to"
        return w not in PRONOUNS and w not in ADVERBS and not w.isdigit()
    if len(w) > 4 and w.endswith("ed"):
        # "the posted limit", "a detailed plan": a participle before its noun
        return prev not in DETERMINERS and prev not in POSSESSIVE_PRONOUNS
    if len(w) > 5 and w.endswith("ing"):
        # "-ing" after a determiner is a noun ("the hearing", "a meeting")
        return not (i > 0 and (prev in DETERMINERS or prev in POSSESSIVE_PRONOUNS))
    if w.endswith("s") and len(w) > 3 and i > 0:
        # a present tense after a subject ("Trump says", "the report shows"), or after "and"
        # joining it to a verb before ("started Wednesday and runs through Nov. 5")
        p = i - 1
        nxt = low[i + 1] if i + 1 < toks.n else None
        nxt_word = nxt is not None and word[i + 1]
        after_subject = prev in PRONOUNS or (_is_name(toks, p) and word[p])
        if not after_subject and i > 1 and low[i - 2] in DETERMINERS and word[p]:
            # "the plant closes on May 9": a noun after its determiner, then the verb
            after_subject = prev not in PREPOSITIONS and prev not in DETERMINERS
            if after_subject:
                # "the plant closes on May 9", "the proposal totals $758 million"
                return nxt is not None and (
                    nxt in PREPOSITIONS or nxt in ADVERBS or nxt in DETERMINERS or not nxt_word
                )
        if after_subject:
            return nxt is None or nxt in DETERMINERS or not nxt_word
        return (
            prev in ("and", "but", "or")
            and nxt is not None
            and (nxt in PREPOSITIONS or nxt in DETERMINERS or nxt in ADVERBS)
        )
    return False


_NUMBER_WORDS = frozenset([*lx.UNITS, *lx.TENS, *lx.SCALES, "hundred", "dozen"])
_MODALS = frozenset(["will", "would", "could", "can", "may", "might", "should", "must", "shall"])
_AUX = frozenset(lx.AUXILIARIES) | frozenset(
    [
        "be",
        "been",
        "being",
        "do",
        "does",
        "did",
        "am",
        "'s",
        "isn't",
        "wasn't",
        "weren't",
        "hasn't",
        "haven't",
        "won't",
    ]
)
_VERB_FORMS = frozenset(lx.CLAUSE_VERBS) | _IRREGULAR_FORMS
_MODALS_AND_TO = _MODALS | {"to"}
# Words a noun phrase does not run back past.
_ENDS_PHRASE = PREPOSITIONS | CONJUNCTIONS | SUBORDINATORS | DETERMINERS
_HARD_BOUNDARY = frozenset(';:—–()[]“”"')
_SOFT_BOUNDARY = frozenset(",")


def _clause(toks: _Tokens, start: int, end: int) -> tuple[int, int]:
    """Token index range [lo, hi) of the clause holding sentence span [start, end): bounded by
    hard punctuation, by a subordinating word that opens a clause, and by ", and"/", but"."""
    text, low, n = toks.text, toks.low, toks.n
    first = _index_at(toks, start)
    last = bisect.bisect_left(toks.start, end) - 1
    last = first if last < 0 else last
    lo = first
    while lo > 0:
        t = text[lo - 1]
        if t == ")":
            opened = _parenthetical_start(toks, lo)
            if opened is not None:
                lo = opened  # "Schumer (D-N.Y.) said": an aside, not a clause's edge
                continue
        if t in _HARD_BOUNDARY:
            break
        w = low[lo - 1]
        if w in _OPENS_CLAUSE_LEFT:
            lo -= 1
            break
        if w in CONJUNCTIONS and lo >= 2 and text[lo - 2] == ",":
            break
        if w == "that":
            break  # "reported earlier this week that the margin was": the reporting is apart
        lo -= 1
    hi = last + 1
    while hi < n:
        t = text[hi]
        w = low[hi]
        if t in _HARD_BOUNDARY or w in _OPENS_CLAUSE_RIGHT:
            break
        if w in _OPENS_LATER_CLAUSE and hi > last + 1:
            break
        if t == "," and hi + 1 < n and low[hi + 1] in CONJUNCTIONS:
            break
        hi += 1
    return lo, hi


_OPENS_CLAUSE_LEFT = frozenset(
    ["who", "which", "whose", "whom", "while", "because", "although", "when"]
)
_OPENS_CLAUSE_RIGHT = frozenset(["who", "which", "whose", "whom", "while"])
_OPENS_LATER_CLAUSE = frozenset(["because", "although", "when", "but"])


def _parenthetical_start(toks: _Tokens, end: int, most: int = 8) -> int | None:
    """Index of the "(" of a short aside ending right before token `end` ("(D-N.Y.)")."""
    text = toks.text
    if end == 0 or text[end - 1] != ")":
        return None
    for k in range(end - 2, max(end - 2 - most, -1), -1):
        if text[k] == "(":
            return k if k > 0 else None
        if text[k] in _HARD_BOUNDARY:
            return None
    return None


@functools.lru_cache(maxsize=16384)
def event_key(word: str) -> str:
    """One key for an event however it is named: a verb or noun of an event class ("met",
    "meeting", "talks" -> meeting), the event noun a verb shares its stem with ("elected" ->
    election), else the word's stem ("hacked" -> hack)."""
    # a compound is one word with or without its hyphen ("fund-raiser", "fundraiser")
    word = word.lower().replace("-", "")
    word = lx.EVENT_SYNONYMS.get(word, lx.IRREGULAR_VERBS.get(word, word))
    return _event_class(word) or _EVENT_NOUN_OF_STEM.get(stem(word)) or stem(word)


def _verb_key(toks: _Tokens, i: int) -> str:
    return _verb_key_of(toks.low[i])


@functools.lru_cache(maxsize=16384)  # a word's key is the same in every sentence
def _verb_key_of(low: str) -> str:
    word = lx.IRREGULAR_VERBS.get(low, low)
    if event := _event_class(word):
        return event
    # the measure rules' actions ("detained" -> arrests), their inflections only: "sentenced"
    # does not start the verb "sent"
    return action_of(low) or event_key(word)


_CLASS_STEMS = {stem(v): e for v, e in lx.EVENT_CLASSES.items()}
_CLASS_KEYS = frozenset(lx.EVENT_CLASSES.values())
_EVENT_NOUN_OF_STEM = {
    stem(n): lx.EVENT_SYNONYMS.get(n, n) for n in sorted(lx.EVENT_NOUNS, key=len, reverse=True)
}


def _event_class(word: str) -> str | None:
    """The event class of a verb form ("defended" -> statement), by its stem."""
    return lx.EVENT_CLASSES.get(word) or _CLASS_STEMS.get(stem(word))


def _content_verb(toks: _Tokens, i: int) -> int | None:
    """The main verb of the verb group at i: past auxiliaries and adverbs ("has not been
    hacked" -> hacked)."""
    low, n = toks.low, toks.n
    j = i
    while j < n and (low[j] in _AUX or low[j] in ADVERBS):
        j += 1
    if j < n and toks.verb[j] and low[j] not in _AUX:
        return j
    if low[i] in _COPULAS:
        return i  # "the posted limit is 45 mph": the copula is the clause's verb
    return i if low[i] not in _AUX else None


_COPULAS = frozenset(["is", "are", "was", "were"])


def _verbs(toks: _Tokens, lo: int, hi: int) -> list[int]:
    """The content verbs of the verb groups in [lo, hi), read left to right from lo."""
    out = []
    groups = toks.groups  # where a group can start: the tokens between are passed over
    k = bisect.bisect_left(groups, lo)
    while k < len(groups) and (i := groups[k]) < hi:
        v = _content_verb(toks, i)
        if v is not None and v < hi:
            out.append(v)
            k = bisect.bisect_left(groups, v + 1, k)
        else:
            k += 1
    return out


def _part(sentence: str, toks: _Tokens, a: int, b: int, key: str | None) -> Part:
    start, end = toks.start[a], toks.end[b - 1]
    return Part(sentence[start:end], start, end, key)


def _noun_phrase_before(toks: _Tokens, i: int, lo: int) -> tuple[int, int] | None:
    """The noun phrase ending right before token i (auxiliaries and adverbs passed over),
    within [lo, i): its token range, determiners left out. An appositive between commas before
    the verb is passed over ("Mr. Steele, a former governor, was elected"), and a relative
    pronoun stands for the phrase before its comma ("Flynn, who pleaded guilty")."""
    text, low = toks.text, toks.low
    j = i
    while j > lo and (
        low[j - 1] in _AUX
        or low[j - 1] in ADVERBS
        # "had to apologize", "is to testify"
        or (low[j - 1] == "to" and j - 1 > lo and low[j - 2] in _AUX)
    ):
        j -= 1
    opened = _parenthetical_start(toks, j)
    if opened is not None and opened > lo:
        j = opened  # "Sen. Chuck Schumer (D-N.Y.) said": the phrase before the aside
    # "-ed" after a comma is as often the main verb after an appositive ("Michael T. Flynn,
    # Mr. Trump's first national security adviser, pleaded guilty") as a participle
    participle = low[i].endswith("ing") and low[i] not in lx.CLAUSE_VERBS
    if participle and j > 0 and text[j - 1] == "," and j == i:
        # "Bernie Sanders of Vermont, campaigning in San Francisco on Sunday, told": the
        # participle's subject is the phrase before its comma
        j -= 1
        lo = 0
        k = _phrase_start(toks, j, lo)
        if k > 1 and low[k - 1] == "of" and toks.word[k - 2]:
            k = _phrase_start(toks, k - 1, lo)
        return (k, j) if k < j else None
    if j > 0 and low[j - 1] in ("who", "which", "that"):
        j -= 1
        if j > 0 and text[j - 1] == ",":
            j -= 1
        lo = 0
    elif j > lo and text[j - 1] == ",":
        k = j - 1
        while k > lo and text[k - 1] != ",":
            k -= 1
        if k > lo:
            j = k - 1
    end = j
    k = _phrase_start(toks, end, lo)
    if k == end:
        return None
    # "the posted limit on the bridge": a phrase after a preposition belongs to the one before
    d = k - 1 if k - 1 > lo and low[k - 1] in DETERMINERS else k
    if d - 1 > lo and low[d - 1] in ("on", "of", "in", "at", "for") and toks.start[d - 1]:
        head = _phrase_start(toks, d - 1, lo)
        if head < d - 1 and toks.word[head]:
            k = head
    return k, end


def _phrase_start(toks: _Tokens, end: int, lo: int) -> int:
    """First token of the run of noun-phrase words ending before token `end`."""
    low, word, verb = toks.low, toks.word, toks.verb
    k = end
    while k > lo:
        w = low[k - 1]
        if not word[k - 1] or w in _ENDS_PHRASE or verb[k - 1]:
            break
        k -= 1
        if w in PRONOUNS:
            break
    return k


def _name_key(toks: _Tokens, a: int, b: int) -> str | None:
    """A person's or body's key: the last capitalised word of the phrase ("President Donald
    Trump" -> trump, "the Clintons" -> clinton); None when no name is written."""
    text, low = toks.text, toks.low
    words = [t for t in range(a, b) if toks.word[t] and low[t] not in DETERMINERS]
    # "Speaker John A. Boehner of Ohio": the name is before "of", the rest says where from
    of = next((k for k, t in enumerate(words) if low[t] == "of" and k > 0), None)
    # "representatives of the American Bar Association": no name before "of", so the body
    # after it is whose
    for part in (words[:of], words[of + 1 :]) if of is not None else (words,):
        names = [
            t
            for t in part
            if text[t][:1].isupper()
            and low[t].rstrip(".") not in _HONORIFICS
            # "He", "It": a pronoun names no one; "Mexican-born", "Republican-controlled",
            # "R-Texas": a modifier or a party and state, not a name
            and low[t] not in PRONOUNS
            and not _MODIFIER_OR_PARTY.fullmatch(text[t])
            # a sentence's first word is capitalised whatever it is ("Crews had", "Early
            # estimates"): a name beside another capitalised word ("Liz Cheney"), or alone
            # before its verb when no plural ("Flynn pleaded", not "Officials said")
            and not (t == 0 and not _first_word_is_name(toks))
        ]
        if names:
            return _bare(low[names[-1]].rstrip("."))
    # "he", "her", "the staffer", "the director": whose is not named here (two outlets'
    # descriptions of one person differ), so it neither matches nor tells apart
    return None


_MODIFIER_OR_PARTY = re.compile(r"[A-Z][a-z]+-[a-z]+|[RDI]-[A-Z][\w.]*")


def _first_word_is_name(toks: _Tokens) -> bool:
    if toks.n < 2:
        return False
    if toks.text[1][:1].isupper():
        return True
    w = toks.low[0]
    plural = w.endswith("s") and not w.endswith(("ss", "us", "is"))
    return not plural and (toks.verb[1] or toks.low[1] in _AUX)


def _bare(word: str) -> str:
    """A name or noun without its possessive ending or plural: "Clintons", "ICE's" -> clinton,
    ice."""
    word = word.replace("’", "'").removesuffix("'s").removesuffix("'")
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


def _subject_before(sentence: str, toks: _Tokens, verb: int, lo: int) -> Part | None:
    np = _noun_phrase_before(toks, verb, lo)
    if np is None:
        return None
    a, b = np
    return _part(sentence, toks, a, b, _name_key(toks, a, b))


def _only_time_of_day(toks: _Tokens, i: int, j: int) -> bool:
    """Tokens [i, j) are only words that head no event ("night", "morning", "week")."""
    return all(toks.low[k] in _WEAK_HEADS for k in range(i, j))


def _before_preposition(toks: _Tokens, i: int, lo: int) -> int:
    """Token i, or the preposition or time adverb right before it ("on Wednesday", "late
    Monday")."""
    return i - 1 if i > lo and toks.low[i - 1] in ("on", "in", "at", "by", "late", "early") else i


def _index_at(toks: _Tokens, offset: int) -> int:
    """The first token ending after `offset` (tokens are in order)."""
    return bisect.bisect_right(toks.end, offset)


def _possessor(sentence: str, toks: _Tokens, i: int, lo: int) -> Part | None:
    """The owner named right before token i: "ICE's 25", "Romney's share", "her speeches"."""
    low = toks.low
    j = i
    while j > lo and low[j - 1] in _BARE_DETERMINERS:
        j -= 1
    if j > lo and low[j - 1] in POSSESSIVE_PRONOUNS:
        return _part(sentence, toks, j - 1, j, None)
    if j > lo and low[j - 1].endswith(("’s", "'s", "s’", "s'")) and toks.word[j - 1]:
        k = j - 1
        while k > lo and _is_name(toks, k - 1):
            k -= 1
        return _part(sentence, toks, k, j, _name_key(toks, k, j))
    return None


def _nearest(candidates: list[int], a: int, b: int, prefer_before: bool = True) -> int | None:
    """The candidate token index nearest to the span [a, b) of token indexes; of two equally
    near, the one before it when prefer_before."""
    best, best_d = None, None
    for c in candidates:
        d = a - c if c < a else c - b + 1
        d2 = (d, 0 if (c < a) == prefer_before else 1)
        if best_d is None or d2 < best_d:
            best, best_d = c, d2
    return best


def _event_noun_after(toks: _Tokens, b: int, hi: int) -> int | None:
    """The head noun a date premodifies: "2016 election", "Friday news dump"."""
    low, word, verb = toks.low, toks.word, toks.verb
    k = b
    if k < hi and low[k] in ("’s", "'s"):
        k += 1
    for j in range(k, min(hi, k + 4)):
        w = low[j]
        if w in _EVENT_NOUNS:
            return j  # "the May 21 meeting at ICE", "Tuesday's caucus"
        if not word[j] or w in PREPOSITIONS or w in CONJUNCTIONS or verb[j]:
            break
        if j + 1 >= hi or not word[j + 1] or low[j + 1] in PREPOSITIONS or verb[j + 1]:
            return j
    return None


def _premodifies(toks: _Tokens, a: int, b: int, text: str) -> bool:
    """Is the date a modifier of a following noun? "the 2016 election", "Tuesday's caucus",
    "a Friday news dump", "Trump’s 2016 campaign"."""
    if b < toks.n and toks.low[b] in ("’s", "'s"):
        return True
    if text.endswith(("’s", "'s")):
        return True
    # after a determiner, or a possessive: "Trump’s 2016 presidential campaign"
    return a > 0 and (toks.low[a - 1] in DETERMINERS or toks.low[a - 1].endswith(("’s", "'s")))


_YEAR_NAME = re.compile(r"^(?:\d{4}|(?:this|last|next) year)(?:[’']s)?$", re.IGNORECASE)
# A verb this many tokens from its date, or nearer, with no punctuation between, is the date's
# ("Flynn stepped down in February", "released about 3,000 of her emails on Friday").
_NEAR = 6


def _event_of_date(
    sentence: str,
    toks: _Tokens,
    a: int,
    b: int,
    lo: int,
    hi: int,
    sources: list[tuple[int, int]] = (),
) -> tuple[Part | None, int | None, bool]:
    """(the event a date dates, the token of its verb when a verb names it, whether the date
    is tied to that event closely enough to name it: a date after its event noun ("the meeting
    on May 20") or before it ("the May 21 meeting", but not a year that names which of a
    recurring event it is: "the 2016 election", "the 2020 race"), or near its verb with no
    punctuation between)."""
    low = toks.low
    text = sentence[toks.start[a] : toks.end[b - 1]]
    premodifies = _premodifies(toks, a, b, text)
    if premodifies or _YEAR_NAME.match(text):
        head = _event_noun_after(toks, b, hi)
        # a year before an event noun names it with no determiner: "to 2016 election rival",
        # "Trump's 2016 presidential campaign"
        if (
            head is not None
            and low[head] not in _WEAK_HEADS
            and (premodifies or low[head] in _EVENT_NOUNS)
        ):
            part = _part(sentence, toks, head, head + 1, event_key(low[head]))
            return part, None, not _YEAR_NAME.match(text)
    # "the meeting on May 20", "a vote in March": an event noun before the date's preposition
    if a >= 2 and low[a - 1] in ("on", "in", "at", "during", "for") and low[a - 2] in _EVENT_NOUNS:
        return _part(sentence, toks, a - 2, a - 1, event_key(low[a - 2])), None, True
    v = _governing_verb(toks, a, b, lo, hi)
    if v is not None:
        # "The explosion happened at 10:15", "Certification is due on March 21": an event noun
        # heading the verb's subject names the event better than its verb
        np = _noun_phrase_before(toks, v, lo) if v < a or v >= b else None
        if np is not None and low[np[1] - 1] in _EVENT_NOUNS:
            head = np[1] - 1
            return _part(sentence, toks, head, head + 1, event_key(low[head])), None, True
        if low[v] in _COPULAS:
            v = None  # "is", "was" name no event
    if v is None:
        nouns = [
            i
            for i in range(lo, hi)
            if low[i] in _EVENT_NOUNS
            and not a <= i < b
            # "according to a person briefed on the talks": the source's words date nothing
            and not any(s <= toks.start[i] < e for s, e in sources)
        ]
        n = _nearest(nouns, a, b)
        if n is not None:
            return _part(sentence, toks, n, n + 1, event_key(low[n])), None, False
        return None, None, False
    if a > 0 and low[a - 1] in ("through", "until", "till", "thru"):
        return _part(sentence, toks, v, v + 1, _verb_key(toks, v)), v, False  # a period's end
    first, stop = (v + 1, a) if v < a else (b, v)  # the tokens between the verb and the date
    if v > a and first < stop and toks.text[first] == ",":
        first += 1  # "On Friday, Liz Cheney issued"
    near = stop - first <= _NEAR and all(
        toks.word[k] or toks.text[k] in "’'" for k in range(first, stop)
    )
    return _part(sentence, toks, v, v + 1, _verb_key(toks, v)), v, near


def _is_speech(toks: _Tokens, i: int) -> bool:
    return _is_speech_word(toks.low[i])


@functools.lru_cache(maxsize=16384)
def _is_speech_word(low: str) -> bool:
    return _event_class(lx.IRREGULAR_VERBS.get(low, low)) == "statement"


def _governing_verb(
    toks: _Tokens, a: int, b: int, lo: int, hi: int, speech: bool = True
) -> int | None:
    """The verb a figure or date at tokens [a, b) belongs to: the nearest before it in its
    clause ("pleaded guilty on Friday to giving" -> pleaded), unless the figure opens its
    clause ("On Friday, the department released", "Six bodies were found"), then the first
    after it. Without `speech`, a verb of saying is passed over: a number is the reported
    clause's ("the Joint Command said 850 troops will deploy", "35 percent, Atlas Newswire
    reported"), never the speaking's; a date may be the speaking's ("said Monday")."""
    verbs = [i for i in _verbs(toks, lo, hi) if not a <= i < b]
    if not speech:
        verbs = [i for i in verbs if not _is_speech(toks, i)]
    before = [i for i in verbs if i < a]
    if before:
        low, word = toks.low, toks.word
        opens = all(low[k] in _OPENERS or not word[k] for k in range(lo, a))
        if not opens:
            return before[-1]
    after = [i for i in verbs if i >= b]
    if after:
        return after[0]
    return before[-1] if before else None


# Words that may stand before a figure that opens its clause ("On Friday", "In all").
_OPENERS = PREPOSITIONS | DETERMINERS | ADVERBS


_ROLE_CUES = (
    (
        "part",
        re.compile(
            r"(?:\b(?:including|among them|among whom|of whom|of which|of them|of those)"
            r"(?:\s+(?:some|about|around|nearly|almost|roughly|at least|more than|up to))?\s*$)",
            re.I,
        ),
    ),
    (
        "target",
        re.compile(
            r"\b(?:a|an|the|its|their|his|her)\s+(?:\w+\s+)?(?:goal|target|quota|aim)\s+of\s+$"
            r"|\b(?:aims?|aimed|plans?|planned|hopes?|hoped|wants?|wanted|seeks?|sought|"
            r"vows?|vowed|pledged?|promised?)\s+to\s+(?:\w+\s+){1,2}$"
            r"|\b(?:demand(?:s|ed|ing)?|call(?:s|ed|ing)?\s+for)\s+(?:\w+\s+)?$",
            re.I,
        ),
    ),
    ("estimate", re.compile(r"\b(?:an?\s+)?estimated\s+$|\bestimates?\b[^,;]{0,40}$", re.I)),
    (
        "projection",
        re.compile(
            r"\b(?:projected|forecast|expected|predicted|projects|projection of)\b[^,;.]{0,30}$",
            re.I,
        ),
    ),
    ("record", re.compile(r"\b(?:a\s+)?record(?:-high|-low)?\s+(?:\w+\s+)?(?:of\s+)?$", re.I)),
)
_PART_AFTER = re.compile(r"\s*(?:more|others?)?\s*of\s+(?:them|those|whom|which)\b", re.I)


# A word every match of a cue holds (lower case). Searched for first: most figures have no
# cue before them, and five regex searches cost more than these substring tests.
_CUE_WORDS = (
    "including",
    "among",
    "whom",
    "which",
    "them",
    "those",
    "goal",
    "target",
    "quota",
    "aim",
    "plan",
    "hope",
    "want",
    "seek",
    "sought",
    "vow",
    "pledge",
    "promise",
    "demand",
    "call",
    "estimate",
    "project",
    "forecast",
    "expect",
    "predict",
    "record",
)
# The letters re.IGNORECASE matches to an ASCII letter that str.lower() does not lower to it
# ("İ", "ı", "ſ", the Kelvin sign): where one is, every cue is tried.
_FOLDS_TO_ASCII = ("\u0130", "\u0131", "\u017f", "\u212a")


def _role(sentence: str, start: int, end: int) -> Part | None:
    before = sentence[max(0, start - 60) : start]
    offset = max(0, start - 60)
    low = before.lower()
    if (
        any(map(low.__contains__, _CUE_WORDS))
        or not before.isascii()
        and any(map(before.__contains__, _FOLDS_TO_ASCII))
    ):
        for role, cue in _ROLE_CUES:
            m = cue.search(before)
            if m:
                text = m.group(0).strip()
                at = offset + m.start() + (len(m.group(0)) - len(m.group(0).lstrip()))
                return Part(text, at, at + len(text), role)
    m = _PART_AFTER.match(sentence, end)
    if m:
        text = m.group(0).strip()
        at = end + (len(m.group(0)) - len(m.group(0).lstrip()))
        return Part(text, at, at + len(text), "part")
    return None


def _words_key(words: list[str], soft: bool = False) -> str | None:
    """A phrase's words in lower case, determiners and conjunctions left out, its head in its
    usual name ("soldiers" -> troops), and modifiers that do not change what is counted
    ("federal agents" are agents) left out unless `soft` keeps them ("federal taxes" are not
    all taxes)."""
    keep = [
        w.lower().replace("’", "'")
        for w in words
        if w.lower() not in DETERMINERS
        and (soft or w.lower() not in lx.SOFT_MODIFIERS)
        and w.lower() not in CONJUNCTIONS
        and w[:1].isalpha()
    ]
    if keep:
        keep[-1] = lx.HEAD_SYNONYMS.get(keep[-1], keep[-1])
    return " ".join(keep) or None


def _np_after(toks: _Tokens, j: int, hi: int, most: int = 3) -> int:
    """End of the short noun phrase starting at token j (determiners skipped by the caller):
    up to `most` words, stopping at a preposition, conjunction, verb or punctuation."""
    low, word, verb = toks.low, toks.word, toks.verb
    k = j
    while k < hi and k - j < most and word[k] and low[k] not in PREPOSITIONS and not verb[k]:
        if low[k] in CONJUNCTIONS:
            # "state and local taxes": a conjunction between modifiers, not after the head
            if k == j or k + 2 >= hi or not word[k + 1] or not word[k + 2]:
                break
            most += 2
        k += 1
    return k


def _skip_determiners(toks: _Tokens, j: int, hi: int) -> int:
    low = toks.low
    while j < hi and (low[j] in DETERMINERS or low[j] in POSSESSIVE_PRONOUNS):
        j += 1
    return j


def _property(
    sentence: str,
    toks: _Tokens,
    kind: str,
    counted: tuple[int, int] | None,
    a: int,
    b: int,
    lo: int,
    hi: int,
    verb: int | None,
    unit: str | None = None,
) -> Part | None:
    """What a number measures. A count's counted noun phrase as the quantity finder delimited
    it (its modifiers included), extended by one "of/in" phrase that names more of what it is
    ("people in ICE custody", "share of Republican primary voters"). For an amount of money,
    or a count that is only a unit ("45 mph"), what it is of: the phrase after "in/for/on"
    ("$2.1 million in federal taxes"), the noun before "of/worth/at" ("a penalty of $151,000"),
    else the subject of its clause ("the posted limit is 45 mph", "her speeches earned")."""
    # "45 mph": a unit glued to its number, no counted noun
    unit_only = counted is None and kind == "count" and unit is not None and is_unit(unit)
    if counted is not None:
        ca = _index_at(toks, counted[0])
        cb = _index_at(toks, counted[1] - 1) + 1
        unit_only = cb - ca == 1 and is_unit(toks.low[ca])
        if ca < cb and not unit_only:
            cb2 = cb
            if cb < hi and toks.low[cb] in ("of", "in") and kind in ("count", "percent", "rate"):
                j = _skip_determiners(toks, cb + 1, hi)
                k = _np_after(toks, j, hi)
                if k > j:
                    cb2 = k
            words = [w for w, word in zip(toks.text[ca:cb], toks.word[ca:cb], strict=True) if word]
            if all(w.lower().endswith("ly") for w in words) or (
                cb2 == cb and toks.low[cb - 1] in lx.EMPTY_HEADS
            ):
                return None  # "23 currently held", "3 times": no noun says what is counted
            # the key is the counted noun phrase's; an "of/in" phrase after it only reads
            return _part(sentence, toks, ca, cb2, _words_key(words))
    if kind not in ("money", "percent", "ratio") and not unit_only:
        return None
    # "200lbs of flour", "3 gallons of water": what the unit measures
    j = b + (b < hi and toks.text[b] == ".")
    if unit_only and j < hi and toks.low[j] == "of":
        k0 = _skip_determiners(toks, j + 1, hi)
        k = _np_after(toks, k0, hi)
        if k > k0:
            return _part(sentence, toks, k0, k, _words_key(toks.text[k0:k]))
    # "$25 million in refunds", "$360,000 a week on overtime"
    j = b
    if (
        j + 1 < hi
        and toks.low[j] in ("a", "an", "per", "each", "every")
        and toks.low[j + 1] in (lx.RATE_PERIODS)
    ):
        j += 2
    if kind == "money" and j < hi and toks.low[j] in ("in", "for", "on"):
        k0 = _skip_determiners(toks, j + 1, hi)
        k = _np_after(toks, k0, hi)
        if k > k0 and toks.low[k0] not in lx.MONTHS:
            return _part(sentence, toks, k0, k, _words_key(toks.text[k0:k], True))
    # "a penalty of $151,000", "a bond measure worth $1.3 billion"
    if a >= 2 and toks.low[a - 1] in ("of", "worth", "at", "totaling", "totalling"):
        np = _noun_phrase_before(toks, a - 1, lo)
        if np:
            words = toks.text[slice(*np)]
            return _part(sentence, toks, np[0], np[1], _words_key(words, True))
    # the clause's subject: "revenue rose to $4 billion", "the posted limit on the bridge is"
    if verb is not None and verb < a:
        np = _noun_phrase_before(toks, verb, lo)
        if np is not None:
            x, y = np
            while x < y and toks.low[x].endswith(("’s", "'s")):
                x += 1  # "the company's revenue": whose is the subject, not the property
            named = any(toks.text[k][:1].isupper() for k in range(x, y) if k != 0)
            if named and kind in ("percent", "ratio"):
                return None  # "Sarah Palin earned 10 percent": whose share, not what of
            if x < y and not (y - x == 1 and toks.low[x] in PRONOUNS):
                return _part(sentence, toks, x, y, _words_key(toks.text[x:y], True))
    return None


_ATTACHED_UNITS = frozenset(lx.ATTACHED_UNITS) | frozenset(lx.ATTACHED_UNITS.values())


def is_unit(word: str) -> bool:
    """A unit of measure ("acres", "mph", "miles per hour"), not a counted noun."""
    w = word.lower()
    return w in lx.MEASURE_UNITS or w in _ATTACHED_UNITS or w.removesuffix("s") in _ATTACHED_UNITS


def _scope(
    sentence: str,
    toks: _Tokens,
    b: int,
    hi: int,
    lo: int,
    a: int,
    dates: list[tuple[int, int, str]],
    own: tuple[int, int],
) -> Part | None:
    """Another date of the clause (its key: the date's first day), else a place or condition
    phrase right after the figure: "in the wreckage", "on the embankment", "before braking"."""
    lo_off, hi_off = toks.start[lo] if lo < toks.n else 0, toks.end[hi - 1] if hi else 0
    in_clause = [
        d
        for d in dates
        if lo_off <= d[0] and d[1] <= hi_off and not (d[0] < own[1] and own[0] < d[1])
    ]
    if in_clause:
        d = min(in_clause, key=lambda d: abs(d[0] - own[0]))
        return Part(sentence[d[0] : d[1]], d[0], d[1], d[2])
    j = b
    while j < hi and (toks.low[j] in _AUX or toks.low[j] in ADVERBS or toks.verb[j]):
        j += 1
    if j < hi and toks.low[j] in ("in", "on", "at", "inside", "outside", "near", "before", "after"):
        k = j + 1
        while k < hi and toks.low[k] in DETERMINERS:
            k += 1
        m = k
        while (
            m < hi
            and m - k < 3
            and toks.word[m]
            and toks.low[m] not in PREPOSITIONS
            and (toks.low[m] not in CONJUNCTIONS)
            and not toks.verb[m]
        ):
            m += 1
        if m > k:
            key = f"{toks.low[j]} " + (_words_key(toks.text[k:m]) or "")
            return _part(sentence, toks, j, m, key.strip())
    return None


def _place_between(sentence: str, toks: _Tokens, i: int, a: int) -> Part | None:
    """A named place between a date's verb and the date: "campaigning in San Francisco on
    Sunday", "spoke at the Capitol on Friday"."""
    for j in range(i + 1, a - 1):
        if toks.low[j] not in ("in", "at"):
            continue
        k = _skip_determiners(toks, j + 1, a)
        m = k
        while m < a and toks.word[m] and toks.text[m][:1].isupper():
            m += 1
        if m > k:
            key = f"{toks.low[j]} " + " ".join(toks.low[k:m])
            return _part(sentence, toks, j, m, key)
    return None


def frame_of(
    sentence: str,
    kind: str,
    start: int,
    end: int,
    counted: tuple[int, int] | None = None,
    dates: list[tuple[int, int, str]] = (),
    sources: list[tuple[int, int]] = (),
    unit: str | None = None,
) -> Frame:
    """sentence: the claim's sentence; [start, end): the claim's span in it; counted: the span
    of the counted noun phrase the quantity finder found; dates: (start, end, first day) of the
    sentence's date claims; sources: spans that name a claim's source; unit: the unit the
    quantity finder read."""
    toks = _tokens(sentence)
    if not toks.n:
        return Frame()
    a = _index_at(toks, start)
    b = _index_at(toks, end - 1) + 1
    lo, hi = _clause(toks, start, end)
    lo = min(lo, a)
    hi = max(hi, b)
    subject = event = prop = None
    verb = None
    if kind in ("date", "time"):
        event, verb, near = _event_of_date(sentence, toks, a, b, lo, hi, list(sources))
    else:
        verb = _governing_verb(toks, a, b, lo, hi, speech=False)
        prop = _property(sentence, toks, kind, counted, a, b, lo, hi, verb, unit)
        if verb is not None:
            event = _part(sentence, toks, verb, verb + 1, _verb_key(toks, verb))
    if kind == "age" and a >= 2 and toks.text[a - 1] == ",":
        # "Malia, 16", "Jane Roe, 46,": the name before the comma
        np = _noun_phrase_before(toks, a - 1, max(0, a - 6))
        if np:
            subject = _part(sentence, toks, np[0], np[1], _name_key(toks, *np))
    if subject is None:
        subject = _possessor(sentence, toks, a, lo)
    # The agent of the clause's verb is whose a date's event, an amount of money or a share is
    # ("Flynn pleaded guilty on Friday", "Obama spent $2 million", "Romney leads with 21
    # percent"); a count's agent is who did something with it ("Homeland Security requested
    # 21,000 troops"), not whose the count is: only a possessor names that.
    if subject is None and verb is not None and kind in ("date", "time", "money", "percent"):
        subject = _subject_before(sentence, toks, verb, lo if verb < a else b)
        if kind in ("date", "time") and a < verb and _only_time_of_day(toks, b, verb):
            # "Trump on Wednesday night visited": the date stands between its event's verb and
            # that verb's subject, and "night" is no one's
            subject = _subject_before(sentence, toks, _before_preposition(toks, a, lo), lo)
        if subject is not None and prop is not None and prop.end == subject.end:
            # the clause's subject is what the amount measures ("the company's revenue rose
            # to", "her speeches earned"): whose is its possessor, if it names one
            before = subject.text[: prop.start - subject.start]
            owner = before.strip()
            at = subject.start + len(before) - len(before.lstrip())
            subject = None
            if owner:
                j, k = _index_at(toks, at), _index_at(toks, at + len(owner) - 1) + 1
                subject = _part(sentence, toks, j, k, _name_key(toks, j, k))
    if subject is not None and subject.start < end and start < subject.end:
        # "made an appearance last Sunday, urging Obama": the claim is no one's subject
        subject = None
    # a date's scope is never another date of its sentence ("Earlier Friday, she revealed ...
    # since declaring in July")
    others = [] if kind in ("date", "time") else list(dates)
    after = max(b, _index_at(toks, prop.end - 1) + 1) if prop and prop.start >= end else b
    scope = _scope(sentence, toks, after, hi, lo, a, others, (start, end))
    if scope is None and kind in ("date", "time") and verb is not None and verb < a:
        scope = _place_between(sentence, toks, verb, a)
    named = subject is not None and subject.key is not None
    if kind in ("date", "time"):
        # one speaker speaks on many days: two dates of statements agree or are two statements
        # a date's event tied to it closely; statements are many, one speaker's included
        definite = event is not None and event.key != "statement" and near
        if definite and verb is not None and event.key in _CLASS_KEYS and not named:
            # "unveiled", "launched", "issued" on one day or another are many events' verbs;
            # only a named actor's is one event
            definite = False
    else:
        definite = prop is not None and prop.key is not None and (named or event is not None)
    label = _label(kind, subject, prop, event, scope, verb is None)
    return Frame(subject, prop, event, scope, _role(sentence, start, end), definite, label)


def _label(
    kind: str,
    subject: Part | None,
    prop: Part | None,
    event: Part | None,
    scope: Part | None,
    event_is_noun: bool,
) -> str | None:
    """The quantity in words: what is measured (for a date, the event it dates), the event a
    number belongs to where a participle names it, the scope, whose: "bodies found in the
    wreckage", "field office directors, ICE", "date Flynn pleaded", "date of the meeting"."""
    whose = _possessive_less(subject.text) if subject else None
    named = subject is not None and subject.key is not None
    if kind in ("date", "time"):
        if event is None:
            return None
        if event_is_noun:
            return f"{kind} of the {event.text.lower()}" + (f", {whose}" if named else "")
        return f"{kind} {whose} {event.text}" if named else f"{kind} {event.text}"
    if kind == "age":
        # whose age it is is all it says: "Malia, 16" is the age of Malia
        return f"age of {whose}" if whose else None
    if prop is None:
        return None
    words = [prop.text]
    if event is not None and _participle(event.text) and event.start > prop.start:
        words.append(event.text)
    if scope is not None and scope.text not in prop.text:
        words.append(scope.text)
    return " ".join(words) + (f", {whose}" if whose else "")
