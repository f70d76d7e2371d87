"""Who a sentence credits for what it states: cues, the source as written, its kind, outlets."""

from __future__ import annotations

import re
from dataclasses import dataclass

from lake.silver import lexicon as lx
from lake.silver.cues import fewest, holds_any, initials, led, may_fold, search_end

_OUTLET_NAMES = sorted(lx.KNOWN_OUTLETS, key=len, reverse=True)


def trie_pattern(words: list[str]) -> str:
    """The words as one alternation shaped like a trie ("a(?:bc news|xios)|b(?:...)"): the
    engine tests a position's letter once, not once per word. At each branch the longer words
    are tried first, as in a flat alternation sorted longest first, so it matches the same."""
    tree: dict = {}
    for word in words:
        node = tree
        for char in word:
            node = node.setdefault(char, {})
        node[""] = {}  # a word ends here

    def emit(node: dict) -> str:
        branches = [re.escape(c) + emit(rest) for c, rest in sorted(node.items()) if c]
        if "" in node:
            branches.append("")  # ending here is tried after every longer word
        return branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"

    return emit(tree)


# Every match starts a word with a letter ("the", a known name, a capitalised word): the word
# boundary and the lookahead say so first, which lets the engine pass over other positions
# quickly. Known names start with a letter (tests/unit/test_extraction_shortcuts.py). Names and
# suffixes are tries: most of the scan's time was spent trying them one by one at each word.
_LONG_NAMES = [n for n in _OUTLET_NAMES if len(n) > 3]
_SUFFIXES = [s.capitalize() for s in lx.OUTLET_SUFFIXES]
_OUTLET = re.compile(
    r"\b(?=(?i:[a-z]))(?i:(?:the\s+)?)(?P<name>(?i:"
    + trie_pattern(_LONG_NAMES)
    + r")|(?:[A-Z][\w&.’'-]*\s+){0,3}"
    + trie_pattern(_SUFFIXES)
    + r")\b",
)
# What each _OUTLET match ends with: a long name (any case; found in the lowercased text) or
# a suffix as written (a scan that skips positions not starting one at once).
_SUFFIX_AT = re.compile(trie_pattern(_SUFFIXES))
_NAME_REACH = max(map(len, _LONG_NAMES + _SUFFIXES))
# Before its name or suffix a match holds at most "the" and three capitalised words.
_WORDS_BEFORE = 4


def _words_back(text: str, at: int, count: int) -> int:
    """Where the `count`-th whitespace-separated word before `at` starts (0 if fewer)."""
    for _ in range(count):
        while at > 0 and text[at - 1].isspace():
            at -= 1
        while at > 0 and not text[at - 1].isspace():
            at -= 1
    return at


def outlet_matches(text: str) -> list[re.Match[str]]:
    """_OUTLET.finditer(text), scanning only around the names and suffixes in it: from four
    words before each to the longest name after it. A match ends with a name or suffix that
    is found here, or that overlaps one found (and so ends within the reach of it), so no
    match starts or ends outside these regions."""
    lowered = text.lower()
    if len(lowered) != len(text) or may_fold(text):
        return list(_OUTLET.finditer(text))
    found = [m.span() for m in _SUFFIX_AT.finditer(text)]
    for name in _LONG_NAMES:  # every place of each: a substring search is cheaper than a scan
        at = lowered.find(name)
        while at >= 0:
            found.append((at, at + len(name)))
            at = lowered.find(name, at + 1)
    regions: list[list[int]] = []
    for start, end in sorted(found):
        first, last = _words_back(text, start, _WORDS_BEFORE), end + _NAME_REACH
        if regions and first <= regions[-1][1]:
            regions[-1][1] = max(regions[-1][1], last)
        else:
            regions.append([first, last])
    # The scan of a region reads one character past it: \b after a name at its end.
    return [
        m
        for first, last in regions
        for m in _OUTLET.finditer(text, first, min(len(text), last + 1))
    ]


_KNOWN_OUTLET = re.compile(
    r"\b(?:" + "|".join(re.escape(n) for n in _OUTLET_NAMES) + r")\b", re.IGNORECASE
)
_ACCORDING = re.compile(r"\baccording to\s+(?P<src>[^;:()]+?)\s*(?:[.;:!?]*[\"”’]*\s*$|;|:|\s—)")
# "According to an internal memo, 15 aircraft ...": at the head of a clause the source ends at
# the first comma; the rest of the sentence is the claim.
_ACCORDING_LEADING = re.compile(
    r"(?:^|(?<=[—–(“\"])|(?<=[—–(“\"]\s)|\bthat\s+)[Aa]ccording to\s+(?P<src>[^,;:()]+?)\s*,"
)
_CITING = re.compile(r"\bciting\s+(?P<src>[^,;:]+?)\s*(?:[.,;:!?]|$)")
_SPEECH_CUES = fewest(lx.SPEECH_VERBS)
_VERB_ADVERBS = ("also", "reportedly", "previously", "later", "separately", "further")
_VERB = led(
    re.compile(
        rf"\b(?:(?:{'|'.join(_VERB_ADVERBS)})\s+)?"
        r"(?P<verb>" + "|".join(lx.SPEECH_VERBS) + r")\b"
    ),
    initials(_VERB_ADVERBS, lx.SPEECH_VERBS),
)
_INVERTED = re.compile(
    r"[,”\"]\s*(?:said|says|according to)\s+(?P<src>[A-Z][\w.’'-]*(?:\s+[A-Z][\w.’'-]*){0,4})"
)
# Speech verbs that are also plural nouns.
_NOUN_LIKE_VERBS = {"estimates", "claims", "reports", "states", "shows", "notes"}
# "As first reported by the Riverside Examiner, ...": the source ends at the comma.
_REPORTED_BY_LEADING = re.compile(
    r"(?:^|(?<=[—–(“\"])\s*)As (?:first |previously |earlier )?reported by\s+"
    r"(?P<src>[^,;:()]+?)\s*,"
)
# "..., said two people familiar with the plan": unnamed sources after the verb.
_INVERTED_UNNAMED = re.compile(
    r"[,”\"]\s*(?:said|says)\s+(?P<src>(?:a|an|one|two|three|four|five|six|seven|eight|nine|"
    r"ten|several|some|many|multiple|numerous|senior|unnamed|anonymous|people|sources|"
    r"officials)\b[^,.;:“”\"\d]*)(?=[,.;:“”\"]|$)"
)
_CUT_WORDS = re.compile(
    r"\b(?:that|and|but|when|if|as|which|while|because|although|though|after|before|so)\s+",
    re.IGNORECASE,
)
_PASSIVE_BEFORE = re.compile(
    r"\b(?:been|be|being|was|were|is|are)\s+(?:(?:\w+ly|first|also|not)\s+)?$", re.IGNORECASE
)
_NUMBER_BEFORE_WORDS = [*lx.UNITS, *lx.TENS, *lx.SCALES, "dozen"]
_NUMBER_BEFORE = re.compile(
    r"(?:\d|\b(?:" + "|".join(_NUMBER_BEFORE_WORDS) + r"))\s+$",
    re.IGNORECASE,
)
# A match is a digit or one of the words, then the trailing whitespace: it starts at most
# this far before the text's end once that whitespace is stripped.
_NUMBER_BEFORE_REACH = max(map(len, _NUMBER_BEFORE_WORDS))
_INTERVIEW_WITH = re.compile(
    r"\b(?:[Ii]n|[Dd]uring)\s+(?:an?\s+)?(?:\w+\s+)?interview\s+with\s+(?P<outlet>(?:the\s+)?"
    r"[A-Z][^,;:]{0,60})"
)
_PRONOUNS = {"he", "she", "they", "it", "we", "i", "you"}
_OBJECT_OUTLET = re.compile(
    r"^\s*(?:to|on|with)?\s*(?:the\s+)?(?P<name>[A-Z][\w&.’'-]*(?:\s+[A-Z][\w&.’'-]*){0,3})"
)


@dataclass(frozen=True)
class Attribution:
    text: str  # the source as written in the sentence
    start: int  # offset of text in the sentence
    kind: str  # named_person | anonymous_sources | organization | document | media_outlet
    cited_outlet: str | None
    cue_start: int  # where the cue sits in the sentence, to pick the nearest one
    explicit: bool = False  # "according to", "citing": sourcing stated outright


def outlet_positions(text: str) -> list[tuple[int, str]]:
    """(offset, name) of every outlet name in a text, in order."""
    return [
        (m.start("name"), m.group("name").strip())
        for m in outlet_matches(text)
        if m.group("name")[0].isupper()
    ]


def outlets_in(text: str) -> list[str]:
    """Outlet names in a text; a known name must be capitalised there ("Time", not "time")."""
    return [m.group("name").strip() for m in _OUTLET.finditer(text) if m.group("name")[0].isupper()]


_SUFFIXED_OUTLET = re.compile(
    r"(?:[A-Z][\w&.’']*(?:\s+|-)){0,3}(?:"
    + "|".join(s.capitalize() for s in lx.OUTLET_SUFFIXES)
    + r")"
)


def is_outlet(text: str, known: list[str]) -> bool:
    bare = re.sub(r"^the\s+", "", text.strip(), flags=re.I)
    if _KNOWN_OUTLET.fullmatch(bare):
        return True
    if _SUFFIXED_OUTLET.fullmatch(bare):
        return True
    return any(k.lower() == bare.lower() or k.lower().endswith(" " + bare.lower()) for k in known)


def canonical_outlet(name: str, known: list[str]) -> str:
    """'the Examiner' -> 'Washington Examiner' when the article named it in full."""
    bare = re.sub(r"^the\s+", "", name.strip(), flags=re.I).strip(" .,")
    for full in known:
        if full.lower().endswith(" " + bare.lower()) and len(full) > len(bare):
            return full
    return bare


_REPORT_BY = re.compile(
    r"(?i)(?:a|an|the)?\s*(?:report|story|article|investigation|analysis|broadcast)\s+"
    r"(?:by|from|in)\s+(?P<outlet>.+)$"
)
_GENERIC_OUTLET = re.compile(
    r"(?i)^the\s+(?:outlet|newspaper|paper|network|publication|site|broadcaster|magazine)$"
)
_ENDS_WITH_NAME = re.compile(r"\b[A-Z][a-z’'.-]+(?:\s+[A-Z][a-z’'.-]+)+$")
_TITLED_NAME = re.compile(
    r"\b(?:" + "|".join(t.capitalize() for t in lx.PERSON_TITLES) + r")\s+[A-Z][a-z’'.-]+"
    r"(?:\s+[A-Z][a-z’'.-]+)+$"
)
_NOT_A_SOURCE_END = {
    "all",  # "All told, ..."
    "not",
    "to",
    "had",
    "has",
    "have",
    "did",
    "does",
    "was",
    "were",
    "is",
    "are",
    "be",
    "would",
    "could",
    "will",
    "also",
    "of",
    "in",
}


def _organization_words(words: list[str]) -> set[str]:
    """The words of a name that say it is an organization, singular or plural."""
    found = set()
    for w in words:
        w = w.lower().strip(".,")
        for form in (w, w.removesuffix("s"), w.removesuffix("es")):
            if form in lx.ORGANIZATION_WORDS:
                found.add(form)
    return found


def classify(source: str, known_outlets: list[str]) -> str:
    """The kind of a source, from its leading noun phrase."""
    by = _REPORT_BY.match(source.strip())
    if by and is_outlet(by.group("outlet"), known_outlets):
        return "media_outlet"  # "a report by the Daily Sentinel": the outlet reported it
    if is_outlet(source, known_outlets) or (
        _GENERIC_OUTLET.match(source.strip()) and known_outlets
    ):
        return "media_outlet"
    titled = _TITLED_NAME.search(source)
    if titled and not titled.group(0).startswith("The "):
        return "named_person"  # "Police Chief Amara Montoya", "Union President Marcus Blackwood"
    name = _ENDS_WITH_NAME.search(source)
    if (
        name
        # people do not take an article: "the Joint Command"
        and not re.search(r"\bthe\s+$", source[: name.start()], re.IGNORECASE)
        and not name.group(0).startswith("The ")
        and not _organization_words(name.group(0).split())
        # "the Office of Emergency Services": a name after "<Capitalised> of" is an office's
        and not re.search(r"\b[A-Z][\w’'.-]*\s+of\s+(?:the\s+)?$", source[: name.start()])
        and not is_outlet(name.group(0), known_outlets)
    ):
        return "named_person"
    head_np = re.split(
        r"\s+(?:who|which|that|with|from|familiar|by|in|at|on|of|described|close|briefed|"
        r"speaking|knowledgeable|reviewed|obtained|seen|circulated|released|prepared|published|"
        r"shared|provided|cited|sent|filed)\b",
        source,
        maxsplit=1,
    )[0]
    words = re.findall(r"[\w’'.&-]+", head_np)
    if not words:
        return "anonymous_sources"
    head = words[-1].lower().strip(".")
    if head in lx.DOCUMENT_NOUNS:
        return "document"
    lowered = {w.lower().strip(".") for w in words}
    lowered |= _organization_words(words)  # "Services" is a service
    if head in lx.SOURCE_NOUNS and len(words) <= 2 and not words[0].isupper():
        return "anonymous_sources"  # "Officials who spoke on condition of anonymity"
    if words[-1][0].isupper() and not (lowered & lx.ORGANIZATION_WORDS):
        if words[-1].isupper() and len(words[-1]) > 1:
            return "organization"  # an acronym: "ICE", "DHS"
        if words[0].lower() == "the":
            return "organization"  # people do not take an article: "the Joint Command"
        return "named_person"
    if head in lx.SPOKESPEOPLE or lowered & lx.ORGANIZATION_WORDS:
        return "organization"
    if head in lx.SOURCE_NOUNS or lowered & lx.SOURCE_NOUNS:
        return "anonymous_sources"
    return "organization" if words[0][0].isupper() else "anonymous_sources"


_CLAUSE_MARKS = ',;:“”"()—‘'


def clause_start(text: str) -> int:
    """Where the clause that ends the text starts: after its last punctuation mark
    (_CLAUSE_MARKS) and after the last cut word (_CUT_WORDS) past it."""
    start = max(text.rfind(c) for c in _CLAUSE_MARKS) + 1
    # A cut word holds no punctuation: none that ends past the mark starts before it.
    for w in _CUT_WORDS.finditer(text, start):
        if w.end() > start:
            start = w.end()
    return start


def number_before(text: str) -> bool:
    """Whether the text ends in a number and whitespace (_NUMBER_BEFORE), from a search of
    its tail."""
    return search_end(_NUMBER_BEFORE, text, _NUMBER_BEFORE_REACH) is not None


def find_attributions(sentence: str, known_outlets: list[str]) -> list[Attribution]:
    """Attribution cues in one sentence, in order."""
    cues: list[Attribution] = []
    covered: list[tuple[int, int]] = []
    interviewed = "interview" in sentence  # what _INTERVIEW_WITH needs, as written

    def add(src: str, start: int, cue_start: int, extra: str = "", explicit: bool = False):
        src = src.strip().rstrip('.,;:”"’ ')
        if not src or src.lower() in _PRONOUNS or len(src) < 2:
            return
        if src.split()[-1].lower() in _NOT_A_SOURCE_END:
            return
        if re.search(r"\bin\s+response$", src, re.IGNORECASE):
            return  # "In response, officials said ..." (but "people familiar with the response")
        kind = classify(src, known_outlets)
        cited = None
        if kind == "media_outlet" and _GENERIC_OUTLET.match(src):
            cited = known_outlets[-1]  # "the outlet": the last one the article named
        elif kind == "media_outlet":
            by = _REPORT_BY.match(src)  # "a report by the Daily Sentinel": the Daily Sentinel
            cited = canonical_outlet(by.group("outlet") if by else src, known_outlets)
        else:
            names = [n for n in outlets_in(src) + outlets_in(extra) if is_outlet(n, known_outlets)]
            if names:
                cited = canonical_outlet(names[0], known_outlets)
            elif known_outlets and re.match(
                r"\s*(?:to\s+)?the\s+(?:outlet|newspaper|paper|network|publication)\b", extra
            ):
                cited = known_outlets[-1]
        if cited is None and interviewed and (interview := _INTERVIEW_WITH.search(sentence)):
            # "In an interview with the Daily Sentinel, the mayor said ...": the outlet's
            # reporting, as "told the Daily Sentinel" is
            name = outlets_in(interview.group("outlet"))
            if name and is_outlet(name[0], known_outlets):
                cited = canonical_outlet(name[0], known_outlets)
        cues.append(Attribution(src, start, kind, cited, cue_start, explicit))
        covered.append((start, start + len(src)))

    # Each explicit cue's pattern holds its words as written (case-sensitive): most sentences
    # hold none of them, and a substring test is far cheaper than the pattern's scan.
    according = "ccording to" in sentence
    for m in _ACCORDING_LEADING.finditer(sentence) if according else ():
        add(m.group("src"), m.start("src"), m.start(), explicit=True)
    for m in _REPORTED_BY_LEADING.finditer(sentence) if "reported by" in sentence else ():
        add(m.group("src"), m.start("src"), m.start(), explicit=True)
    for m in _ACCORDING.finditer(sentence) if according else ():
        if not any(s <= m.start("src") < e for s, e in covered):
            add(m.group("src"), m.start("src"), m.start(), explicit=True)
    for m in _CITING.finditer(sentence) if "citing" in sentence else ():
        add(m.group("src"), m.start("src"), m.start(), explicit=True)
    for m in _INVERTED.finditer(sentence):
        if not any(s <= m.start("src") < e for s, e in covered):
            add(m.group("src"), m.start("src"), m.start())
    for m in _INVERTED_UNNAMED.finditer(sentence):
        words = set(re.findall(r"[a-z]+", m.group("src").lower()))
        if words & lx.SOURCE_NOUNS and not any(s <= m.start("src") < e for s, e in covered):
            add(m.group("src"), m.start("src"), m.start())
    for m in _VERB.finditer(sentence) if holds_any(sentence, _SPEECH_CUES) else ():
        if any(s <= m.start() < e for s, e in covered):
            continue
        before = sentence[: m.start()]
        if _PASSIVE_BEFORE.search(before):
            continue  # "four residents have been confirmed dead": reported, not reporting
        if m.group("verb").startswith("show") and re.match(
            r"\s+up\b(?!\s+to\b)", sentence[m.end() :]
        ):
            continue  # "200 people showed up": they came, they reported nothing
        if number_before(before):
            continue  # "110 confirmed cases", "two reported deaths": an adjective of the count
        segment_start = clause_start(before)
        src = before[segment_start:]
        if not src.strip() and before.rstrip().endswith(","):
            # "Rosalind Galloway, the Pentagon press secretary, told ...": the subject is
            # the name before the appositive.
            parts = before.rstrip().rstrip(",").split(",")
            subject = re.sub(r"^.*[—–“”\"]", "", parts[-2]) if len(parts) >= 2 else ""
            if _ENDS_WITH_NAME.fullmatch(subject.strip()):
                segment_start = before.rfind(subject)
                src = subject
        words = src.split()
        if not words or len(words) > 14:
            continue
        if (
            len(words) == 1
            and m.group("verb") in _NOUN_LIKE_VERBS
            and words[0].lower() not in lx.SOURCE_NOUNS | lx.DOCUMENT_NOUNS
            and not words[0].isupper()
        ):
            continue  # "Early estimates put the damage at ...": a noun, not a verb
        lead = len(src) - len(src.lstrip())
        add(src, segment_start + lead, m.start(), sentence[m.end() : m.end() + 60])
    # An outlet that "reports, citing X": X is the source, the outlet is who it is credited to.
    outlet_cues = [c for c in cues if c.kind == "media_outlet"]
    citing = [c for c in cues if sentence[c.cue_start :].startswith("citing")]
    if outlet_cues and citing:
        merged = Attribution(
            citing[0].text,
            citing[0].start,
            citing[0].kind,
            outlet_cues[0].cited_outlet,
            citing[0].cue_start,
            True,
        )
        cues = [merged] + [c for c in cues if c not in outlet_cues and c not in citing]
    return sorted(cues, key=lambda c: c.cue_start)
