"""The extractor's shortcuts skip work only where it could find nothing: each premise is held
here, so a shortcut never changes a claim."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

from lake.silver import attribution, cues, dates, durations, measure, quantities, sentences, times
from lake.silver import lexicon as lx
from lake.silver.extract import extract_claims

# Letters that fold to ASCII ones under re.IGNORECASE ("ſ" is "s", the Kelvin sign is "k").
_FOLDING = "ſ\u212aİı"
_FOLDS = str.maketrans({"s": "ſ", "k": "\u212a", "i": "ı"})
_WORDS = [
    *sorted(lx.KNOWN_OUTLETS),
    *(name[0].translate(_FOLDS) + name[1:] for name in sorted(lx.KNOWN_OUTLETS)),
    *(s.capitalize() for s in lx.OUTLET_SUFFIXES),
    "the",
    "The",
    "Daily",
    "said",
    *("dozen", "hundreds", "million", "half", "one", "minus", "noon", "midnight", "a.m."),
    "$",
    "%",
    "p.m.",
    "GMT",
    "km",
    "-",
    ",",
    ".",
    "’",
]


def _texts(alphabet: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    piece = st.one_of(st.sampled_from(_WORDS), st.text(alphabet, min_size=1, max_size=6))
    return st.lists(piece, max_size=25).map(" ".join)


def _mixed(
    words: Sequence[str],
    alphabet: str,
    *,
    forms: tuple[Callable[[str], str], ...] = (str.upper,),
    extra: tuple[st.SearchStrategy[str], ...] = (),
    max_word: int = 8,
    max_size: int = 10,
    join: Callable[[list[str]], str] = " ".join,
) -> st.SearchStrategy[str]:
    """Texts of `words` as written, in each of `forms` and with their letters folded, among
    `extra` pieces and short runs of `alphabet` or the folding letters."""
    vocab = st.sampled_from(list(words))
    pieces = st.one_of(
        vocab,
        *(vocab.map(form) for form in forms),
        vocab.map(lambda w: w.translate(_FOLDS)),
        *extra,
        st.text(st.sampled_from(alphabet + _FOLDING), max_size=max_word),
    )
    return st.lists(pieces, max_size=max_size).map(join)


def test_every_known_outlet_name_starts_with_a_letter():
    """_OUTLET's lookahead skips positions that do not start with a letter."""
    assert all(re.match(r"[a-z]", name) for name in lx.KNOWN_OUTLETS)


# The outlet pattern as first written: no lookahead, each name and suffix tried in turn.
_PLAIN_OUTLET = re.compile(
    r"(?i:\b(?:the\s+)?)(?P<name>(?i:"
    + "|".join(re.escape(n) for n in attribution._OUTLET_NAMES if len(n) > 3)
    + r")|(?:[A-Z][\w&.’'-]*\s+){0,3}(?:"
    + "|".join(s.capitalize() for s in lx.OUTLET_SUFFIXES)
    + r"))\b",
)


@settings(max_examples=400, deadline=None)
@given(_texts(st.sampled_from(f"abcdefsktiABCSKTI{_FOLDING}0123456789 .,-'’&")))
def test_the_outlet_patterns_lookahead_and_tries_change_no_match(text):
    assert [(m.span(), m.group("name")) for m in attribution._OUTLET.finditer(text)] == [
        (m.span(), m.group("name")) for m in _PLAIN_OUTLET.finditer(text)
    ]


def test_a_trie_pattern_matches_as_its_words_longest_first():
    words = ["fox", "fox news", "fox newsroom", "f", "new", "news", "newswire", "a.b"]
    trie = re.compile(rf"(?:{attribution.trie_pattern(words)})")
    flat = re.compile(
        "(?:" + "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True)) + ")"
    )
    text = "fox newsroom fox news fox f new newswire news a.b axb"
    assert [m.span() for m in trie.finditer(text)] == [m.span() for m in flat.finditer(text)]
    for end in (r"\b", r"\s"):  # backtracking into a shorter word, as the flat one does
        assert [m.span() for m in re.finditer(trie.pattern + end, text)] == [
            m.span() for m in re.finditer(flat.pattern + end, text)
        ]


@settings(max_examples=400, deadline=None)
@given(_texts(st.characters(blacklist_categories=("Nd", "Cs"))))
def test_the_figure_and_clock_patterns_need_a_digit(text):
    """_raw_mentions and find_times try these only on sentences holding a digit (`\\d`)."""
    assert not cues.holds_digit(text)
    for pattern in (
        quantities._DIGITS,
        quantities._ATTACHED_UNIT,
        times._TWELVE,
        times._TWENTY_FOUR,
        quantities._DIGIT_RANGE,
    ):
        assert pattern.search(text) is None, pattern.pattern[:40]


def test_a_claim_takes_its_source_from_a_sentence_with_no_figure():
    """Cues are found only for the sentences a claim asks about: here the one before it."""
    body = (
        "The mayor said the storm was the worst in decades. Crews cleared 40 roads on Tuesday."
        "\n\nThe storm hit the harbor. Officials counted 12 closed schools, according to the "
        "county."
    )
    got = [
        (c.claim_text, c.sentence_index, c.attribution, c.attribution_kind)
        for c in extract_claims("a", body)
    ]
    assert got == [
        ("40 roads", 1, "The mayor", "organization"),
        ("Tuesday", 1, "The mayor", "organization"),
        ("12 closed schools", 3, "the county", "anonymous_sources"),
    ]


_WORDED = [
    *(f"{w} of" for w in lx.VAGUE_AMOUNTS),
    *(f"{f} {s}" for f in lx.VAGUE_FACTORS for s in lx.VAGUE_SCALES),
    *(f"{w} of" for w in lx.FRACTION_WORDS),
    *(f"{w} {s}" for w in lx.FRACTION_WORDS for s in quantities._SCALE_NAMES),
    "thousand",
    "trillion",
    "Hundreds Of",
    "two-thirds",
    "of",
    "and a half",
]


@settings(max_examples=600, deadline=None)
@given(
    _mixed(
        _WORDED,
        "aefhilnorstuvwxAHIST -",
        extra=(st.sampled_from(quantities._SCALE_NAMES),),
        max_size=12,
    )
)
def test_the_worded_amount_patterns_need_their_words(text):
    """_raw_mentions tries each worded pattern only where `may_hold` finds a word it needs."""
    lowered = text.lower()
    for pattern, words in (
        (quantities._VAGUE, quantities._VAGUE_CUES),
        (quantities._VAGUE_SCALED, quantities._VAGUE_FACTOR_WORDS),
        (quantities._SCALED_FRACTION, quantities._SCALE_NAMES),
        (quantities._SCALED_FRACTION, quantities._SHARE_CUES),
        (quantities._SHARE, quantities._SHARE_CUES),
    ):
        if not quantities.may_hold(text, lowered, words):
            assert pattern.search(text) is None, (pattern.pattern[:40], text)
    if "of" not in lowered:
        assert quantities._SHARE.search(text) is None
    if quantities._FRACTION_BEFORE_SCALE.search(text) is None:
        assert quantities._SCALED_FRACTION.search(text) is None, text


@settings(max_examples=400, deadline=None)
@given(_mixed(times._NOON_WORDS, "dghimnotAIN -:.", max_size=8))
def test_the_noon_pattern_needs_its_words(text):
    """find_times tries _NOON only where `may_hold` finds noon, midday or midnight."""
    if not quantities.may_hold(text, text.lower(), times._NOON_WORDS):
        assert times._NOON.search(text) is None, text


_CUE_WORDS = ["According to", "according to", "As reported by", "reported by", "citing", "said"]


@settings(max_examples=400, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.sampled_from([*_CUE_WORDS, "In an interview with", "the", "Daily Sentinel", ","]),
            st.sampled_from(_CUE_WORDS).map(str.upper),
            st.text(st.sampled_from(f'AaCcIiTtNnRrDdy ,.—“"{_FOLDING}'), max_size=8),
        ),
        max_size=10,
    ).map(" ".join)
)
def test_the_explicit_cue_patterns_need_their_words_as_written(text):
    """find_attributions tries each explicit cue's pattern only where its words are."""
    for pattern, words in (
        (attribution._ACCORDING_LEADING, "ccording to"),
        (attribution._ACCORDING, "ccording to"),
        (attribution._REPORTED_BY_LEADING, "reported by"),
        (attribution._CITING, "citing"),
        (attribution._INTERVIEW_WITH, "interview"),
    ):
        if words not in text:
            assert pattern.search(text) is None, (pattern.pattern[:40], text)


def test_a_claims_row_is_what_dataclasses_asdict_gives_with_its_own_list():
    """Claim.as_row copies by hand: every field, and the list (its one mutable field)."""
    claims = extract_claims(
        "a",
        "Officials said 40 people were hurt on Tuesday, according to the county. "
        "Dozens of homes burned and about $2 million in damage was reported.",
    )
    assert len(claims) == 4
    for claim in claims:
        row = claim.as_row()
        assert row == dataclasses.asdict(claim)
        assert row["measure_terms"] is not claim.measure_terms
    mutable = [
        f.name
        for f in dataclasses.fields(claims[0])
        if any(kind in str(f.type) for kind in ("list", "dict", "set"))
    ]
    assert mutable == ["measure_terms"]


@settings(max_examples=600, deadline=None)
@given(
    _mixed(
        quantities.NUMBER_WORDS,
        "adefhilnorstuvwxyzAEIOST -",
        extra=(st.sampled_from(["a", "and", "-", "hundred", "thousand"]),),
    )
)
def test_a_number_in_words_needs_a_number_word(text):
    """_raw_mentions looks for numbers in words only where `may_hold` finds a number word."""
    lowered = text.lower()
    if not quantities.may_hold(text, lowered, quantities.NUMBER_CUES):
        assert quantities._WORD_NUMBER.search(lowered) is None, text
        assert quantities._WORD_NUMBER_ANY_CASE.search(text) is None, text
        if not cues.holds_digit(text):
            assert quantities._WHOLE.search(text) is None, text  # the whole of "one in three"


def _event_nouns_by_word(text: str) -> list[tuple[int, int, str]]:
    return [
        (m.start(), m.end(), m.group(0).lower())
        for m in re.finditer(r"[A-Za-z]+", text)
        if m.group(0).lower() in lx.EVENT_NOUNS
    ]


_EVENTS = sorted(lx.EVENT_NOUNS)


@settings(max_examples=600, deadline=None)
@given(
    _mixed(
        _EVENTS,
        "aeiklmnrstgAEKS0-'’ .,éß",
        forms=(str.upper, str.capitalize),
        max_word=6,
        max_size=12,
        join=lambda words: "".join(words) if len(words) % 3 == 0 else " ".join(words),
    )
)
def test_the_event_noun_pattern_finds_the_words_a_loop_over_every_word_finds(text):
    """date_key finds event nouns with one pattern, not a test of every word."""
    assert all(re.fullmatch(r"[a-z]+", noun) for noun in lx.EVENT_NOUNS)
    assert [
        (m.start(), m.end(), m.group(0).lower()) for m in measure._EVENT_NOUN.finditer(text)
    ] == _event_nouns_by_word(text)


@settings(max_examples=400, deadline=None)
@given(
    _mixed(
        measure._FRAME_NOUNS,
        "abcefgiknoprstvwIS -",
        extra=(st.sampled_from(["in an", "during the", "at a", "In his", "on", "last"]),),
    )
)
def test_the_sourcing_frame_needs_its_noun(text):
    """date_key tries _SOURCING_FRAME only where `may_hold` finds one of its nouns."""
    if not quantities.may_hold(text, text.lower(), measure._FRAME_NOUNS):
        assert measure._SOURCING_FRAME.search(text) is None, text


_DATE_WORDS = [
    *(m.capitalize() for m in lx.MONTHS),
    *(f"{m.capitalize()}." for m in lx.MONTHS),
    *(d.capitalize() for d in lx.WEEKDAYS),
    *(*dates._RELDAYS, *dates._THIS_PARTS, *dates._LAST_PARTS),
    *("this", "last", "next", "early", "late", "the", "of", "from", "between", "and", "to", "in"),
    *(
        "last week",
        "month",
        "year",
        "the weekend",
        "2 days ago",
        "spring",
        "last quarter",
        "Q3 2019",
    ),
    *("1", "12", "2019", "1990s", "2020-05-14", "-", "–", ",", "th"),
]


@settings(max_examples=800, deadline=None)
@given(
    _mixed(
        _DATE_WORDS,
        "aedhimnorstuyADJMST0129 -.,",
        forms=(str.upper, str.lower),
        max_word=6,
        max_size=12,
    )
)
def test_each_date_pattern_needs_its_cue(text):
    """find_dates runs a pattern only on a sentence that holds its kind's cue."""
    cued = dates._cues(text, text.lower())
    for kind, pattern in dates._PATTERNS:
        if not cued[dates._CUE_OF[kind]]:
            assert pattern.search(text) is None, (kind, text)


@settings(max_examples=400, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.sampled_from(lx.SPEECH_VERBS),
            st.sampled_from(lx.SPEECH_VERBS).map(str.capitalize),
            st.sampled_from(["also", "reportedly", "officials", ",", "—"]),
            st.text(st.sampled_from("adeilnorstwyADST ,."), max_size=8),
        ),
        max_size=10,
    ).map(" ".join)
)
def test_the_speech_verb_pattern_needs_a_verb_as_written(text):
    """find_attributions tries _VERB only where one of the speech verbs is."""
    if not any(verb in text for verb in attribution._SPEECH_CUES):
        assert attribution._VERB.search(text) is None, text


_NUMBERISH = [*attribution._NUMBER_BEFORE_WORDS, "7", "42", "and", "the", "confirmed"]


@settings(max_examples=600, deadline=None)
@given(
    _mixed(
        _NUMBERISH,
        "aefinorstvx1 \t\n\u2003\u00a0,-",
        max_word=6,
        max_size=12,
        join="".join,
    ),
)
def test_a_number_before_is_found_from_the_tail(text):
    """number_before searches only the last characters of the text."""
    for end in range(len(text) + 1):
        before = text[:end]
        assert attribution.number_before(before) == bool(
            attribution._NUMBER_BEFORE.search(before)
        ), before


_LABELLED = [*quantities._LABELS, "No.", "PAGE", "p", "no", "7", "the", "#1"]


@settings(max_examples=400, deadline=None)
@given(
    _mixed(_LABELLED, "abegilnoprtu.# \t\n\u2003", forms=(), max_word=6, join="".join),
)
def test_a_number_label_is_found_from_the_tail(text):
    """find_quantities searches for a label ("No.", "page") only in the last characters."""
    reach = max(map(len, quantities._LABELS))
    for end in range(len(text) + 1):
        before = text[:end]
        assert bool(quantities.search_end(quantities._NUMBER_LABEL, before, reach)) == bool(
            quantities._NUMBER_LABEL.search(before)
        ), before


@settings(max_examples=400, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.sampled_from(["that", "and", "but", "when", "so", "officials", "said"]),
            st.sampled_from(list(attribution._CLAUSE_MARKS)),
            st.text(st.sampled_from("abdehintsTA ,;(\n"), max_size=6),
        ),
        max_size=14,
    ).map(" ".join)
)
def test_a_clause_starts_after_its_last_mark_and_cut_word(text):
    """clause_start scans for cut words only after the last punctuation mark."""
    start = max(text.rfind(c) for c in attribution._CLAUSE_MARKS) + 1
    for w in attribution._CUT_WORDS.finditer(text):
        if w.end() > start:
            start = w.end()
    assert attribution.clause_start(text) == start


@settings(max_examples=400, deadline=None)
@given(
    st.text(st.sampled_from("ab’'-_1 ,.é\n"), max_size=60),
    st.integers(min_value=1, max_value=9),
    st.integers(min_value=1, max_value=12),
)
def test_the_last_words_are_found_from_the_tail(text, count, reach):
    """_governing_action reads only the tail of the text before a number."""
    assert [m.span() for m in measure.last_words(text, count, reach)] == [
        m.span() for m in list(measure._VERB_WINDOW.finditer(text))[-count:]
    ]


@settings(max_examples=400, deadline=None)
@given(
    _mixed(
        quantities.NUMBER_WORDS,
        "adehmnorstuwyY -",
        forms=(),
        extra=(st.sampled_from(["a", "year", "days", "months", "old"]),),
    )
)
def test_a_stated_period_needs_a_digit_or_a_number_word(text):
    """find_durations tries _STATED only where a digit or a number word is."""
    if not cues.holds_digit(text) and not quantities.may_hold(
        text, text.lower(), quantities.NUMBER_CUES
    ):
        assert durations._STATED.search(text) is None, text


def _first_items(items, flags) -> tuple[list, bool]:
    """What the parsed pattern `items` can consume first, as (op, value) pairs, and whether it
    can match empty. Zero-width items (\\b, lookarounds) consume nothing."""
    from re import _constants as c

    firsts: list = []
    for op, av in items:
        if op in (c.AT, c.ASSERT, c.ASSERT_NOT):
            continue
        if op is c.LITERAL:
            return [*firsts, (op, av)], False
        if op is c.IN:
            return [*firsts, *av], False
        if op is c.SUBPATTERN:
            assert not av[1] and not av[2], "inline flags"
            inner, empty = _first_items(av[3], flags)
        elif op is c.BRANCH:
            inner, empty = [], False
            for alternative in av[1]:
                more, can_be_empty = _first_items(alternative, flags)
                inner += more
                empty = empty or can_be_empty
        elif op in (c.MAX_REPEAT, c.MIN_REPEAT):
            inner, empty = _first_items(av[2], flags)
            empty = empty or av[0] == 0
        else:
            raise AssertionError(f"not handled: {op}")
        firsts += inner
        if not empty:
            return firsts, False
    return firsts, True


def _led_patterns() -> list[tuple[str, re.Pattern[str]]]:
    found = [(f"dates {kind}", pattern) for kind, pattern in dates._PATTERNS]
    for module in (attribution, dates, durations, measure, quantities, times):
        found += [
            (f"{module.__name__}.{name}", value)
            for name, value in vars(module).items()
            if isinstance(value, re.Pattern)
        ]
    return [(name, p) for name, p in found if p.pattern.startswith("(?=[")]


def test_a_patterns_lead_holds_every_character_its_matches_can_start_with():
    """A pattern behind `led`'s lookahead matches as it does alone: every character the
    pattern can consume first is in the lookahead's class."""
    from re import _constants as c
    from re import _parser

    led = _led_patterns()
    assert len(led) >= 25
    for name, pattern in led:
        first, plain = pattern.pattern.removeprefix("(?=[").split("])(?:", 1)
        assert pattern.pattern == f"(?=[{first}])(?:{plain[:-1]})", name
        lead = re.compile(f"[{first}]", pattern.flags)
        items, empty = _first_items(_parser.parse(plain[:-1], pattern.flags), pattern.flags)
        assert not empty, name
        for op, av in items:
            if op is c.LITERAL:
                assert lead.match(chr(av)), (name, chr(av))
            elif op is c.RANGE:
                assert all(lead.match(chr(x)) for x in range(av[0], av[1] + 1)), (name, av)
            elif op is c.CATEGORY:
                assert av is c.CATEGORY_DIGIT and r"\d" in first, (name, av)
            else:
                raise AssertionError((name, op))


@settings(max_examples=600, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.one_of(
                st.sampled_from(_WORDS),
                st.sampled_from(["New", "York", "Wall", "Street", "The", "the", "Newsweek"]),
                st.text(st.sampled_from(f"abesNTw&.’'-{_FOLDING}"), min_size=1, max_size=6),
            ),
            st.sampled_from([" ", "  ", "\n", " \n", "\n\n", "", ", ", "\t"]),
        ),
        max_size=25,
    ).map(lambda pairs: "".join(word + gap for word, gap in pairs))
)
def test_outlet_matches_are_the_outlet_patterns_matches(text):
    """outlet_positions scans only around the names and suffixes a text holds."""
    assert [(m.span(), m.group("name")) for m in attribution.outlet_matches(text)] == [
        (m.span(), m.group("name")) for m in attribution._OUTLET.finditer(text)
    ]


@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.text(st.sampled_from("abn"), min_size=1, max_size=4), min_size=1, max_size=8),
    st.text(st.sampled_from("abn "), max_size=20),
)
def test_the_fewest_words_are_held_where_the_words_are(words, text):
    """The gates test fewest(words): a text holds one of them exactly when it holds a word."""
    from lake.silver.cues import fewest, holds_any

    assert holds_any(text, fewest(words)) == holds_any(text, words)


_FIGURED = ["minus", "-", "−", "US$", "$", "€", "MUSD", "KEUR", "USD", "5", "12", "3.5", "9:30"]
# The longest a match can hold before its first digit, and less.
_FIGURED += ["minus  MUSD 5", "minus KEUR 12", "− MUSD5", "US$ 5-7", "US$5–7", "€ 10-12"]


@settings(max_examples=600, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.one_of(
                st.sampled_from(_FIGURED),
                st.text(st.sampled_from("0123456789,.-–/:$%amp MUSDkg°"), min_size=1, max_size=5),
            ),
            st.sampled_from(["", " ", "  ", "\t"]),
        ),
        max_size=12,
    ).map(lambda pairs: "".join(word + gap for word, gap in pairs))
)
def test_the_figure_patterns_match_nothing_before_their_reach_of_the_first_digit(text):
    """_raw_mentions and find_times scan the figure and clock patterns from the first digit,
    less the sign and currency a match may hold before it."""
    digit = cues.first_digit(text)
    if digit < 0:
        return
    for pattern, reach in (
        (quantities._DIGITS, quantities._SIGN_AND_CURRENCY),
        (quantities._DIGIT_RANGE, quantities._CURRENCY),
        (quantities._ATTACHED_UNIT, 0),
        (times._TWELVE, 0),
        (times._TWENTY_FOUR, 0),
    ):
        assert [m.span() for m in pattern.finditer(text, max(0, digit - reach))] == [
            m.span() for m in pattern.finditer(text)
        ], (pattern.pattern[:40], text)


@settings(max_examples=200, deadline=None)
@given(st.text(st.sampled_from(" \t\r\x0b\x0c\u00a0\u2003\u3000"), max_size=2500))
def test_a_blank_line_holds_no_sentence(line):
    """split_sentences passes over empty and whitespace-only lines."""
    found: list = []
    sentences._append(found, 0, 0, line)
    assert found == []
    assert not list(sentences._BOUNDARY.finditer(line))


def test_the_worded_cues_cover_each_worded_gate():
    """_raw_mentions tries the vague, scaled and fraction gates only where one of
    _WORDED_CUES is: each word those gates test holds one of them."""
    for words in (
        quantities._VAGUE_CUES,
        quantities._VAGUE_FACTOR_WORDS,
        quantities._SCALE_NAMES,
        quantities._SHARE_CUES,
    ):
        for word in words:
            assert any(cue in word for cue in quantities._WORDED_CUES), word
