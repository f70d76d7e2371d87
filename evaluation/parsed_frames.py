"""Rule frames beside parse frames: fact identity on the labelled BASIL events, each way.

    .venv/bin/python -m evaluation.parsed_frames --repo /path/to/BASIL --model MODEL_DIR \
        [--site /path/to/other-venv/site-packages] [--parts subject property event]
        [--events ID ...] [--json] [--diffs N]

MODEL_DIR is a spaCy pipeline with a tagger (Penn tags) and a UD dependency parser, e.g. one
trained on UD English EWT with ``spacy train``. spaCy is no claimhouse dependency: ``--site``
appends the site-packages of a venv that has it to ``sys.path``.

The parse replaces three readings of ``lake.silver.frames.frame_of`` and keeps the rest of the
rule frame (scope, role): the subject (a possessor of the figure's noun, the noun an age is
in apposition to, else the nsubj of the figure's verb), the property's modifiers (the left
compound/amod subtree of the counted noun; for money the noun it is in/for/on, of, or the
verb's subject) and a date's event (the noun or verb the date's token depends on). Keys are
the rules' own (``_name_key``, ``_words_key``, ``event_key``); subjects keep the rules'
policy of keys for names only. Both runs score as ``evaluation.basil.facts`` does.
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import json
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import lake.silver.extract as extract
from evaluation.basil import facts
from evaluation.basil.labels import LABELS_DIR, load_all, read_bodies
from evaluation.basil.rebuild import load_articles, write_articles
from lake.silver import frames as F
from lake.silver import lexicon as lx

NAME_DEPS = frozenset(["compound", "flat", "flat:foreign", "amod", "nmod:poss", "case", "fixed"])
MODIFIER_DEPS = frozenset(["compound", "amod", "nmod:unmarked", "nmod:npmod", "flat", "conj", "cc"])
SUBJECT_DEPS = ("nsubj", "nsubj:pass")
FOR_CASES = ("in", "for", "on")
RELATIVE = frozenset(["who", "which", "that", "whom"])
PART_NAMES = ("subject", "property", "event")


class Parsed:
    """A sentence's parse: the spaCy doc and the rules' token view of the same tokens."""

    def __init__(self, doc) -> None:
        self.doc = doc
        self.toks = tuple(F._Tok(t.text, t.idx, t.idx + len(t)) for t in doc)

    def part(self, tokens: list, key: str | None) -> F.Part:
        a, b = min(t.i for t in tokens), max(t.i for t in tokens) + 1
        return F._part(self.doc.text, self.toks, a, b, key)

    def name(self, head) -> F.Part:
        """A subject's noun phrase: the head with its name words and possessor, determiners
        left out, no further than punctuation on either side; keyed by the rules' name key."""
        words = {t.i for t in _descend(head, NAME_DEPS) if t.tag_ not in ("DT", "PDT")}
        a = b = head.i
        while a - 1 in words and not self.doc[a - 1].is_punct:
            a -= 1
        while b + 1 in words and not self.doc[b + 1].is_punct:
            b += 1
        return F._part(self.doc.text, self.toks, a, b + 1, F._name_key(self.toks, a, b + 1))


def _descend(head, deps: frozenset[str]) -> list:
    out = [head]
    for c in head.children:
        if c.dep_ in deps:
            out += _descend(c, deps)
    return out


def _noun(t) -> bool:
    return t.tag_.startswith("NN") or t.tag_ in ("PRP", "CD", "$")


def _verb_of(t):
    """The verb a token's clause hangs from, or None."""
    while t.head.i != t.i and not t.tag_.startswith("VB"):
        t = t.head
    return t if t.tag_.startswith("VB") else None


def _subject_of(p: Parsed, verb, fig) -> F.Part | None:
    """The verb's nsubj, or that of the verb it is conjoined to or the complement of; a
    relative pronoun stands for the noun its clause modifies. Never the figure itself."""
    while verb is not None:
        subj = next((c for c in verb.children if c.dep_ in SUBJECT_DEPS), None)
        if subj is not None and fig.start <= subj.i < fig.end:
            return None
        if subj is not None:
            if subj.lower_ in RELATIVE and verb.dep_ == "acl:relcl" and _noun(verb.head):
                subj = verb.head
            return p.name(subj)
        verb = verb.head if verb.dep_ in ("conj", "xcomp") and verb.head.i != verb.i else None
    return None


def _possessor(p: Parsed, noun, fig) -> F.Part | None:
    poss = next((c for c in noun.children if c.dep_ == "nmod:poss"), None)
    if poss is None or fig.start <= poss.i < fig.end:  # "Tuesday's caucus" is no one's
        return None
    if poss.tag_ == "PRP$":
        return p.part([poss], None)
    return p.name(poss)


def _modified(p: Parsed, head, figure: set[int], soft: bool, extend: bool = False) -> F.Part:
    """A noun with the modifiers before it (the figure, determiners and possessors left out);
    with `extend`, the text reaches over an "of/in" phrase after it, the key does not."""
    inside = {t.i for c in head.lefts if c.dep_ in MODIFIER_DEPS for t in c.subtree} - figure
    a = head.i
    while a - 1 in inside and not p.doc[a - 1].is_punct:  # no further than punctuation
        a -= 1
    words = list(p.doc[a : head.i + 1])
    key = F._words_key([t.text for t in words], soft)
    span = list(words)
    if extend:
        nmod = next((c for c in head.rights if c.dep_ == "nmod" and _case(c) in ("of", "in")), None)
        if nmod is not None:
            span.append(nmod)
    return p.part(span, key)


def _case(t) -> str | None:
    return next((c.lower_ for c in t.children if c.dep_ == "case"), None)


def _property(p: Parsed, kind: str, fig, counted, rule: F.Part | None) -> F.Part | None:
    span = counted and p.doc.char_span(*counted, alignment_mode="expand")
    figure = {t.i for t in fig} - {t.i for t in span or ()}  # the number's own tokens
    if kind in ("count", "percent", "rate") and rule is not None and counted is not None:
        if not span:
            return rule
        head = span.root
        if head.lower_ in lx.EMPTY_HEADS:
            return rule
        return _modified(p, head, figure, soft=False, extend=True)
    if kind != "money" or rule is None:
        return rule
    root = fig.root
    for_what = [  # "$2.1 million in federal taxes", not "in March"
        c
        for c in root.rights
        if c.dep_.startswith("nmod") and _case(c) in FOR_CASES and c.lower_ not in lx.MONTHS
    ]
    if for_what:
        return _modified(p, for_what[0], figure, soft=True)
    if root.dep_.startswith("nmod") and _case(root) in ("of", "at") and _noun(root.head):
        return _modified(p, root.head, figure, soft=True)  # "a penalty of $151,000"
    verb = _verb_of(root)
    if verb is not None and verb.i < fig.start:  # "revenue rose to $4 billion"
        subj = next((c for c in verb.children if c.dep_ in SUBJECT_DEPS), None)
        if subj is not None and subj.tag_ not in ("PRP", "WP", "WDT"):
            return _modified(p, subj, figure, soft=True)
    return rule


def _date_event(p: Parsed, fig) -> tuple[F.Part, bool] | None:
    """The event a date's token depends on, and whether it depends on it directly: the noun it
    premodifies ("the 2016 election", "Tuesday's caucus") or follows ("the meeting on May
    20"), else its clause's verb, or an event noun that is that verb's subject ("the explosion
    happened at")."""
    root = fig.root
    head = root.head
    if head.i == root.i:
        return None
    if head.tag_.startswith("NN") and head.lower_ not in F._WEAK_HEADS:
        premod = root.i < head.i
        if premod or head.lower_ in F._EVENT_NOUNS:
            year = premod and F._YEAR_NAME.match(fig.text)
            return p.part([head], F.event_key(head.lower_)), not year
    verb = _verb_of(head)
    if verb is None:
        return None
    subj = next((c for c in verb.children if c.dep_ in SUBJECT_DEPS), None)
    if subj is not None and subj.lower_ in F._EVENT_NOUNS:
        return p.part([subj], F.event_key(subj.lower_)), head.i == verb.i
    if verb.lower_ in F._COPULAS:
        return None
    return p.part([verb], F._verb_key(p.toks, verb.i)), head.i == verb.i


def parse_frame_of(nlp, diffs: list[dict], parts=PART_NAMES) -> Callable[..., F.Frame]:
    """frame_of with the parse's subject, property and date event (those of them in `parts`);
    each part whose key differs from the rules' is added to `diffs`."""

    @functools.lru_cache(maxsize=4096)
    def parse(sentence: str) -> Parsed:
        return Parsed(nlp(sentence))

    def frame_of(sentence, kind, start, end, counted=None, dates=(), sources=(), unit=None):
        rule = F.frame_of(sentence, kind, start, end, counted, dates, sources, unit)
        p = parse(sentence)
        fig = p.doc.char_span(start, end, alignment_mode="expand")
        if fig is None:
            return rule
        event, definite, verb = rule.event, rule.definite, _verb_of(fig.root)
        prop = _property(p, kind, fig, counted, rule.property)
        if kind in ("date", "time") and (found := _date_event(p, fig)) is not None:
            event, direct = found
            definite = event.key != "statement" and direct
            verb = next((t for t in p.doc if t.idx == event.start and t.tag_[:2] == "VB"), None)
        head = fig.root.head if fig.root.dep_ == "nummod" else fig.root
        subject = None
        age_of = fig.root.head  # "Malia, 16"
        if kind == "age" and age_of.i < fig.start and fig.root.dep_ in ("appos", "amod"):
            subject = p.name(age_of)
        subject = subject or _possessor(p, head, fig)
        if subject is None and kind in ("date", "time") and event is not None and verb is None:
            noun = next((t for t in p.doc if t.idx == event.start), None)
            subject = _possessor(p, noun, fig) if noun is not None else None  # "Steele's call"
        if subject is None and verb is not None and kind in ("date", "time", "money", "percent"):
            subject = _subject_of(p, verb, fig)
            if subject is not None and prop is not None and prop.end == subject.end:
                subj = next(t for t in p.doc if t.idx + len(t) == subject.end)
                subject = _possessor(p, subj, fig)  # "the company's revenue rose to"
        read = {"subject": subject, "property": prop, "event": event}
        new = dataclasses.replace(rule, **{name: read[name] for name in parts})
        if kind not in ("date", "time"):
            named = new.subject is not None and new.subject.key is not None
            prop, event = new.property, new.event
            definite = prop is not None and prop.key is not None and (named or event is not None)
        elif "event" not in parts:
            definite = rule.definite
        new = dataclasses.replace(new, definite=definite)
        for name in PART_NAMES:
            a, b = getattr(rule, name), getattr(new, name)
            if (a and a.key) != (b and b.key):
                diffs.append(
                    {"sentence": sentence, "figure": sentence[start:end], "kind": kind,
                     "part": name, "rules": a and a.as_row(), "parse": b and b.as_row()}
                )  # fmt: skip
        return new

    return frame_of


def run(repo: str, events: list, frame_of: Callable | None) -> tuple[dict, float]:
    """The facts report on `events` with `frame_of` patched into silver (None: the rules) and
    the seconds silver's extractor took on their articles."""
    stems = [a.stem for e in events for a in e.articles]
    seconds = [0.0]
    rule_extract, rule_frame_of = extract.extract_claims, extract.frame_of

    def timed(*args, **kw):
        t0 = time.perf_counter()
        try:
            return rule_extract(*args, **kw)
        finally:
            seconds[0] += time.perf_counter() - t0

    extract.extract_claims = timed
    extract.frame_of = frame_of or rule_frame_of
    try:
        with tempfile.TemporaryDirectory(prefix="parsed-frames-") as tmp:
            texts = Path(tmp) / "texts"
            write_articles(load_articles(repo, sorted({e.event for e in events})), texts)
            bodies = read_bodies(texts, stems)
            gold = facts.build_in_process(texts, stems)
            data = facts.report([facts.score_event(e, bodies, gold) for e in events])
    finally:
        extract.extract_claims, extract.frame_of = rule_extract, rule_frame_of
    return data, seconds[0]


ROWS = [
    ("fact_purity", "purity"),
    ("multi_claim_fact_purity", "multi-claim purity"),
    ("corroboration_recall", "corroboration recall"),
    ("conflict_precision", "conflict precision"),
    ("conflict_recall", "conflict recall"),
    ("claim_recall", "claim recall"),
]


def render(rules: dict, parsed: dict, seconds: tuple[float, float], diffs: list[dict]) -> str:
    lines = [f"{'':22} {'rules':>8} {'parse':>8}"]
    for key, label in ROWS:
        a, b = rules["overall"][key], parsed["overall"][key]
        lines.append(f"{label:22} {facts._fmt(a):>8} {facts._fmt(b):>8}")
    lines.append(f"{'extraction seconds':22} {seconds[0]:8.2f} {seconds[1]:8.2f}")
    counts = Counter(d["part"] for d in diffs)
    lines.append("frames whose key differs: " + ", ".join(f"{p} {counts[p]}" for p in PART_NAMES))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Fact identity with rule frames and parse frames.")
    ap.add_argument("--repo", required=True, help="fetched launchnlp/BASIL")
    ap.add_argument("--model", required=True, help="a spaCy pipeline directory")
    ap.add_argument("--site", help="site-packages of a venv holding spaCy")
    ap.add_argument("--json", action="store_true", help="both reports and the differing parts")
    ap.add_argument("--diffs", type=int, default=0, help="print this many differing parts")
    ap.add_argument("--parts", nargs="+", choices=PART_NAMES, default=PART_NAMES)
    ap.add_argument("--events", nargs="*", help="only these event ids")
    args = ap.parse_args(argv)
    if args.site:
        sys.path.append(args.site)
    import spacy

    nlp = spacy.load(args.model)
    # both runs read one copy of the labels and of the baseline's gold rules
    wanted = set(args.events or ())
    events = [e for e in load_all(LABELS_DIR) if e.fact_ids() and (not wanted or e.event in wanted)]
    facts._baseline = functools.cache(facts._baseline)
    diffs: list[dict] = []
    rules, rule_s = run(args.repo, events, None)
    parsed, parse_s = run(args.repo, events, parse_frame_of(nlp, diffs, args.parts))
    if args.json:
        out = {"rules": rules, "parse": parsed, "seconds": [rule_s, parse_s], "diffs": diffs}
        print(json.dumps(out, indent=2, ensure_ascii=False))
        return 0
    print(render(rules, parsed, (rule_s, parse_s), diffs))
    for d in diffs[: args.diffs]:
        rule, parse = (d[k] and f"{d[k]['text']!r}={d[k]['key']}" for k in ("rules", "parse"))
        print(f"\n{d['kind']} {d['figure']!r} {d['part']}: rules {rule} | parse {parse}")
        print(f"  {d['sentence']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
