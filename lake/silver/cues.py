"""Cheap tests of what a sentence holds, run before the patterns that need it: most sentences
hold none of it, and a substring test is far cheaper than a pattern's scan."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable

_DIGIT = re.compile(r"\d")


def holds_digit(text: str) -> bool:
    """Whether the text holds a digit (`\\d`): the patterns of figures and clock times need one."""
    return first_digit(text) >= 0


# Each finder asks it of the same sentence.
@functools.lru_cache(maxsize=64)
def first_digit(text: str) -> int:
    """Where the text's first digit (`\\d`) is, or -1: a figure's match starts at most its
    sign and currency before it, and the figure patterns are scanned from there."""
    m = _DIGIT.search(text)
    return -1 if m is None else m.start()


# Letters re.IGNORECASE matches to ASCII ones that str.lower() does not turn into them (it
# turns the Kelvin sign into "k").
_FOLDS_TO_ASCII = re.compile("[ſıİ]")


def may_hold(sentence: str, lowered: str, words: Iterable[str]) -> bool:
    """Whether a case-insensitive pattern that needs one of `words` could match."""
    for word in words:  # a plain loop: any() over a generator costs more than the tests
        if word in lowered:
            return True
    return may_fold(sentence)


def may_fold(text: str) -> bool:
    """Whether the text holds a letter that re.IGNORECASE matches to an ASCII one that
    str.lower() does not turn into it."""
    return not text.isascii() and _folds(text)


@functools.lru_cache(maxsize=64)
def _folds(sentence: str) -> bool:
    return _FOLDS_TO_ASCII.search(sentence) is not None


def holds_any(text: str, words: Iterable[str]) -> bool:
    """Whether the text holds one of `words` as written: the test for a case-sensitive
    pattern that needs one."""
    for word in words:  # noqa: SIM110 (a plain loop, as in may_hold)
        if word in text:
            return True
    return False


def search_end(pattern: re.Pattern[str], text: str, reach: int) -> re.Match[str] | None:
    """pattern.search(text) for a pattern whose every match is at most `reach` characters
    ending in non-whitespace, then whitespace to the end of the text (`\\s*$`): only the
    tail is searched."""
    return pattern.search(text, max(0, len(text.rstrip()) - reach))


def led(pattern: re.Pattern[str], first: str | None) -> re.Pattern[str]:
    """The pattern behind a lookahead for `first`, the body of a character class that holds
    every character its matches can start with: the engine then rejects other positions at
    once instead of trying each branch at them. None: the pattern as it is."""
    if first is None:
        return pattern
    return re.compile(f"(?=[{first}])(?:{pattern.pattern})", pattern.flags)


def initials(*groups: Iterable[str]) -> str:
    """The body of a character class of the first characters of the words, for `led`."""
    return "".join(re.escape(c) for c in sorted({word[0] for words in groups for word in words}))


def fewest(words: Iterable[str]) -> tuple[str, ...]:
    """The words less each that holds another: a text holds one of these exactly when it
    holds one of the words, and may_hold / holds_any test fewer."""
    words = list(dict.fromkeys(words))
    return tuple(w for w in words if not any(v != w and v in w for v in words))
