"""Maintained libraries beside our rules, on the same public labelled text, in one sitting.

    .venv/bin/pip install -e '.[compare]'   # pinned; ./scripts/setup leaves them out
    .venv/bin/python -m evaluation.libraries --basil <launchnlp/BASIL> \\
        --tempeval <qiangning/StructTempRel-EMNLP17> [--json]

Each library is measured where it would replace one of our rules, and kept only where it wins
(docs/accuracy-history.md has the figures and the decisions):

* sentences: pysbd in place of ``lake.silver.sentences.split_sentences`` inside the extractor,
  so everything downstream is ours: BASIL recall, precision and value accuracy, TempEval-3
  relaxed and value F1, and the splitter's own speed;
* dates: dateparser resolving each gold date span (the TIMEX3's or the BASIL label's own text,
  the article's creation or publication day as ``RELATIVE_BASE``, dates from the past
  preferred) against our value for the same span where the extractor found it, by class;
  dateparser is given the span, ours had to find it;
* word numbers: text2num's ``alpha2digit`` on each BASIL numeric fact written in words, against
  the value of our claim on it.

quantulum3 against our units is ``python -m evaluation.cqe --compare quantulum3``.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from contextlib import contextmanager
from datetime import datetime

from evaluation import tempeval
from evaluation.basil.labels import LABELS_DIR, load_all, read_bodies
from evaluation.basil.rebuild import load_articles, write_articles
from evaluation.basil.score import build, score
from lake.silver import extract, sentences

# ----------------------------------------------------------------------------- sentences


def pysbd_splitter() -> Callable[[str], list[sentences.Sentence]]:
    """pysbd's sentences of every line, shaped as ours (a line is a paragraph; the same cap on
    a sentence's length)."""
    import pysbd

    segmenter = pysbd.Segmenter(language="en", clean=False, char_span=True)

    def split(body: str) -> list[sentences.Sentence]:
        found: list[sentences.Sentence] = []
        offset = 0
        for paragraph, line in enumerate(body.split("\n")):
            if line.strip():
                for span in segmenter.segment(line):
                    sentences._append(found, paragraph, offset + span.start, span.sent)
            offset += len(line) + 1
        return found

    return split


@contextmanager
def splitter_in_place(split: Callable[[str], list[sentences.Sentence]]):
    """The extractor reads its sentences from `split` while inside."""
    original = extract.split_sentences
    extract.split_sentences = split
    try:
        yield
    finally:
        extract.split_sentences = original


def splitter_speed(split: Callable, bodies: list[str], rounds: int = 3) -> float:
    """MB of text per second, best of `rounds`."""
    size = sum(len(b.encode("utf-8")) for b in bodies) / 1e6
    best = float("inf")
    for _ in range(rounds):
        started = time.perf_counter()
        for body in bodies:
            split(body)
        best = min(best, time.perf_counter() - started)
    return round(size / best, 3)


def basil_figures(events, bodies) -> dict:
    summary = build(score(events, bodies))["overall"]
    keep = ("recall", "precision", "value_accuracy", "dates_right_day")
    return {k: summary.get(k) for k in keep}


def tempeval_figures(docs) -> dict:
    result = tempeval.score(docs)
    return {
        "relaxed_F1": result["relaxed"]["F1"],
        "strict_F1": result["strict"]["F1"],
        "value_F1": result["value_F1"],
    }


# --------------------------------------------------------------------------------- dates


def dateparser_value(text: str, base: datetime) -> str | None:
    """dateparser's reading of `text` as a TIMEX3 value, at the granularity it reports."""
    from dateparser.date import DateDataParser

    parser = DateDataParser(
        languages=["en"],
        settings={
            "RELATIVE_BASE": base,
            "PREFER_DATES_FROM": "past",
            "RETURN_TIME_AS_PERIOD": True,
        },
    )
    data = parser.get_date_data(text)
    if data is None or data.date_obj is None:
        return None
    d, period = data.date_obj, data.period
    if period == "year":
        return f"{d:%Y}"
    if period == "month":
        return f"{d:%Y-%m}"
    if period == "week":
        year, week, _ = d.isocalendar()
        return f"{year}-W{week:02d}"
    if period == "time":
        return f"{d:%Y-%m-%dT%H:%M}"
    return f"{d:%Y-%m-%d}"


def dates_side_by_side(docs) -> dict:
    """Per gold DATE/TIME timex class: gold count; ours found and right; dateparser right on
    the spans we found and on every gold span."""
    table: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for doc in docs:
        if doc.dct is None:
            continue
        base = datetime(doc.dct.year, doc.dct.month, doc.dct.day, 12)
        gold = [t for t in doc.timexes if t.type in tempeval.GOLD_TYPES]
        ours = dict(
            (id(g), p) for g, p in tempeval.relaxed_pairs(gold, tempeval.claim_predictions(doc))
        )
        for g in gold:
            row = table[tempeval.timex_class(g.text, g.value, g.type)]
            theirs = dateparser_value(g.text, base) == g.value
            row["gold"] += 1
            row["dateparser_right"] += theirs
            if id(g) in ours:
                row["ours_found"] += 1
                row["ours_right"] += ours[id(g)].value == g.value
                row["dateparser_right_where_ours_found"] += theirs
    total: dict[str, int] = defaultdict(int)
    for row in table.values():
        for k, v in row.items():
            total[k] += v
    return {"all": dict(total), "by_class": {k: dict(v) for k, v in sorted(table.items())}}


def basil_days_side_by_side(events, bodies) -> dict:
    """Day-granularity BASIL date facts: ours resolved to the labelled day (where found)
    against dateparser on the label's own text with the publication day as base."""
    out: dict[str, int] = defaultdict(int)
    published = {(e.event, a.stem): a.published_at for e in events for a in e.articles}
    stems = {id(f): (e.event, a.stem) for e in events for a in e.articles for f in a.facts}
    for r in score(events, bodies).facts:
        f = r.fact
        if f.kind != "date" or f.granularity != "day" or f.is_range:
            continue
        base = datetime.fromisoformat(published[stems[id(f)]][:10]).replace(hour=12)
        out["facts"] += 1
        out["dateparser_right"] += dateparser_value(f.text, base) == str(f.value)
        if r.right_day is not None:
            out["ours_found"] += 1
            out["ours_right"] += r.right_day
    return dict(out)


# -------------------------------------------------------------------------- word numbers

_NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")


def text2num_value(text: str) -> float | None:
    from text_to_num import alpha2digit

    # threshold 0: "two" too (by default it leaves numbers below 3 as words)
    digits = alpha2digit(text, "en", threshold=0)
    m = _NUMBER.search(digits)
    return float(m.group().replace(",", "")) if m else None


def word_numbers_side_by_side(events, bodies) -> dict:
    results = [r for r in score(events, bodies).facts if r.fact.has_word_number]
    out = {"facts": len(results), "ours_found": 0, "ours_right": 0, "text2num_right": 0}
    misses: list[dict] = []
    for r in results:
        f = r.fact
        want = f.lower if f.is_range else f.value
        theirs = text2num_value(f.text)
        right = isinstance(want, int | float) and theirs is not None and abs(theirs - want) < 1e-6
        out["text2num_right"] += right
        out["ours_found"] += r.found
        out["ours_right"] += bool(r.value_ok)
        if right != bool(r.value_ok):
            misses.append(
                {"text": f.text, "label": want, "text2num": theirs, "ours_ok": r.value_ok}
            )
    out["disagreements"] = misses[:20]
    return out


# ---------------------------------------------------------------------------------- main


def run(basil_repo: str | None, tempeval_repo: str | None) -> dict:
    result: dict = {}
    split = pysbd_splitter()
    if basil_repo:
        events = load_all(LABELS_DIR)
        stems = [a.stem for e in events for a in e.articles]
        with tempfile.TemporaryDirectory(prefix="basil-") as tmp:
            write_articles(load_articles(basil_repo, sorted({e.event for e in events})), tmp)
            bodies = read_bodies(tmp, stems)
        ours = basil_figures(events, bodies)
        with splitter_in_place(split):
            theirs = basil_figures(events, bodies)
        texts = list(bodies.values())
        result["sentences_basil"] = {"ours": ours, "pysbd": theirs}
        result["sentences_speed_mb_s"] = {
            "ours": splitter_speed(sentences.split_sentences, texts),
            "pysbd": splitter_speed(split, texts),
        }
        result["word_numbers_basil"] = word_numbers_side_by_side(events, bodies)
        result["days_basil"] = basil_days_side_by_side(events, bodies)
    if tempeval_repo:
        docs = tempeval.load(tempeval_repo)
        ours = tempeval_figures(docs)
        with splitter_in_place(split):
            theirs = tempeval_figures(docs)
        result["sentences_tempeval"] = {"ours": ours, "pysbd": theirs}
        result["dates_tempeval"] = dates_side_by_side(docs)
    return result


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--basil", help="fetched launchnlp/BASIL (bare git dir or checkout)")
    ap.add_argument("--tempeval", help="fetched qiangning/StructTempRel-EMNLP17")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    if not (args.basil or args.tempeval):
        ap.error("give --basil and/or --tempeval")
    result = run(args.basil, args.tempeval)
    print(json.dumps(result, indent=None if args.json else 2, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
