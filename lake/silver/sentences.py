"""Split an article body into paragraphs and sentences, keeping character offsets."""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Sentence:
    index: int  # position in the article, from 0
    paragraph: int  # line number of the paragraph it belongs to, from 0
    start: int  # offset of its first character in the body
    text: str

    @property
    def end(self) -> int:
        return self.start + len(self.text)


# Abbreviations that never end a sentence (titles, "No.", months)...
_NEVER_FINAL = {
    "mr",
    "mrs",
    "ms",
    "dr",
    "st",
    "gen",
    "sen",
    "rep",
    "gov",
    "lt",
    "col",
    "sgt",
    "capt",
    "no",
    "vs",
    "jan",
    "feb",
    "mar",
    "apr",
    "aug",
    "sept",
    "sep",
    "oct",
    "nov",
    "dec",
    "prof",
    "jr",
    "sr",
    "ft",
    "mt",
    "pres",
    "rev",
    "maj",
    "adm",
    "cmdr",
}
# ...and ones that end a sentence only when a typical sentence opener follows.
_MAYBE_FINAL = {"u.s", "u.k", "d.c", "a.m", "p.m", "inc", "corp", "co", "ltd", "e.g", "i.e", "etc"}
_OPENERS = {
    "the",
    "a",
    "an",
    "it",
    "he",
    "she",
    "they",
    "we",
    "i",
    "this",
    "that",
    "these",
    "those",
    "in",
    "on",
    "but",
    "and",
    "at",
    "as",
    "after",
    "before",
    "when",
    "while",
    "there",
    "his",
    "her",
    "their",
    "its",
    "our",
    "since",
    "for",
    "if",
    "some",
    "many",
    "officials",
    "meanwhile",
}
# A sentence longer than this is cut at its last space before the cap: real sentences are far
# shorter, and each mention looks at its sentence, so unpunctuated text must not make one
# sentence of megabytes (extraction time would grow with its square).
MAX_SENTENCE_CHARS = 1_000
_BOUNDARY = re.compile(r"[.!?…]+[\"”’')\]]*\s+(?=[\"“‘(\[]?[A-Z0-9])")
_LAST_WORD = re.compile(r"([A-Za-z][A-Za-z.]*)\.[\"”’')\]]*$")


def _is_boundary(text: str, match: re.Match[str]) -> bool:
    # Bounded windows: a line with thousands of candidate boundaries stays linear.
    before = text[max(0, match.start() - 60) : match.start() + 1]
    word_match = _LAST_WORD.search(before)
    if word_match is None:
        return True
    word = word_match.group(1).lower()
    if word in _NEVER_FINAL:
        return False
    if word in _MAYBE_FINAL or (len(word) == 1 and word.isalpha()):
        following = text[match.end() : match.end() + 40].split(" ", 1)[0].strip('"“‘(').lower()
        return following in _OPENERS
    return True


def split_sentences(body: str) -> list[Sentence]:
    """Sentences of every non-empty line; a line is a paragraph in these articles."""
    sentences: list[Sentence] = []
    offset = 0
    for paragraph, line in enumerate(body.split("\n")):
        if not line or line.isspace():  # the blank lines between paragraphs hold no sentence
            offset += len(line) + 1
            continue
        start = 0
        for match in _BOUNDARY.finditer(line):
            if not _is_boundary(line, match):
                continue
            end = match.end()
            _append(sentences, paragraph, offset + start, line[start:end])
            start = end
        _append(sentences, paragraph, offset + start, line[start:])
        offset += len(line) + 1
    return sentences


def _append(sentences: list[Sentence], paragraph: int, start: int, text: str) -> None:
    while len(text) > MAX_SENTENCE_CHARS:
        cut = text.rfind(" ", 0, MAX_SENTENCE_CHARS) + 1 or MAX_SENTENCE_CHARS
        _append_one(sentences, paragraph, start, text[:cut])
        start, text = start + cut, text[cut:]
    _append_one(sentences, paragraph, start, text)


def _append_one(sentences: list[Sentence], paragraph: int, start: int, text: str) -> None:
    stripped = text.rstrip()
    lead = len(stripped) - len(stripped.lstrip())
    stripped = stripped.lstrip()
    if stripped:
        sentences.append(Sentence(len(sentences), paragraph, start + lead, stripped))
