"""Date detection and normalization of the claim extractor on TempEval-3 TBAQ-cleaned (training).

Data: qiangning/StructTempRel-EMNLP17, ``data/TempEval3/Training/TBAQ-cleaned/{TimeBank,AQUAINT}``
(TimeML .tml), read at run time from a fetched copy (bare git dir or checkout). Only that
folder is listed; ``data/TempEval3/Evaluation/`` (the platinum test set) is held out and the
reader refuses any path in it.

Per document: the creation time (the TIMEX3 with functionInDocument="CREATION_TIME") is the
publication date; the text inside <TEXT> with every tag removed and the XML entities
unescaped is what the extractor reads, and each TIMEX3's offsets are taken in that text.
Gold: the TIMEX3s of type DATE and TIME (DURATION and SET are left out: our date claims are
points and ranges on the calendar). Predictions: our claims of kind "date".

Scores, after TempEval-3 (UzZaman et al., 2013):
* strict: a prediction matches a gold timex with exactly the same span;
* relaxed: any character overlap; one prediction to one gold timex (largest overlap first);
* value accuracy: over relaxed matches, our value turned into TIMEX3 form equals the gold
  value string; value F1 = relaxed F1 x value accuracy (TempEval-3's attribute F1).

Our date_start/date_end in TIMEX3 form: one day -> 1998-02-13; a whole month -> 1998-02; a
part of one month ("early March", 1998-03-01/1998-03-10) -> 1998-03 too, because TimeML
writes "early" in a separate mod attribute, not in the value; a whole year -> 1998; a
Monday-to-Sunday week -> 1998-W07; a whole quarter -> 1998-Q1; without a year (--05-20) ->
XXXX-05-20; anything else keeps the range, which no TIMEX3 value equals.

Deviations: the official scorer works on tokens; we compare character spans, so a timex
that differs from ours only by surrounding punctuation still matches strictly only if the
characters agree. The official task scores every TIMEX3 type; we score DATE and TIME only.

Run: ``.venv/bin/python -m evaluation.tempeval --repo <dir> [--json]``.
"""

from __future__ import annotations

import argparse
import calendar
import html
import json
import re
import sys
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta

from evaluation._repo import RepoReader

TRAINING = "data/TempEval3/Training/TBAQ-cleaned"
HELD_OUT = ("TempEval3/Evaluation",)
CORPORA = ("TimeBank", "AQUAINT")
GOLD_TYPES = ("DATE", "TIME")

# TempEval-3 Task A, English, on the platinum TEST set (UzZaman et al., 2013, SemEval-2013
# Task 1, results table for time expressions). Not the documents we score here.
PUBLISHED = {
    "HeidelTime (best run)": {
        "strict": {"P": 83.85, "R": 78.99, "F1": 81.34},
        "relaxed": {"P": 93.08, "R": 87.68, "F1": 90.30},
        "value_F1": 77.61,
        "type_F1": 82.09,
    },
    "SUTime": {
        "strict": {"P": 78.72, "R": 80.43, "F1": 79.57},
        "relaxed": {"P": 89.36, "R": 91.30, "F1": 90.32},
        "value_F1": 67.38,
        "type_F1": 80.29,
    },
}


@dataclass
class Timex:
    tid: str
    type: str
    value: str
    start: int
    end: int
    text: str


@dataclass
class Document:
    doc_id: str
    text: str
    dct: date | None
    timexes: list[Timex] = field(default_factory=list)


_TAG = re.compile(r"<(/?)([A-Za-z0-9_]+)((?:\s+[\w:.-]+\s*=\s*\"[^\"]*\")*)\s*(/?)>")
_ATTR = re.compile(r"([\w:.-]+)\s*=\s*\"([^\"]*)\"")


def _attrs(raw: str) -> dict[str, str]:
    return {k: html.unescape(v) for k, v in _ATTR.findall(raw)}


def parse_timeml(xml: str, doc_id: str) -> Document:
    """The plain text of <TEXT> (tags removed, entities unescaped), its TIMEX3s with offsets in
    that text, and the creation date."""
    dct = None
    for m in _TAG.finditer(xml):
        if m.group(2) == "TIMEX3" and not m.group(1):
            a = _attrs(m.group(3))
            if a.get("functionInDocument") == "CREATION_TIME" and re.match(
                r"\d{4}-\d\d-\d\d", a.get("value", "")
            ):
                dct = date.fromisoformat(a["value"][:10])
                break
    begin = xml.find("<TEXT>")
    end = xml.find("</TEXT>")
    body = xml[begin + len("<TEXT>") : end] if begin >= 0 and end > begin else ""
    parts: list[str] = []
    length = 0
    open_timexes: list[tuple[dict[str, str], int]] = []
    timexes: list[Timex] = []
    pos = 0
    for m in _TAG.finditer(body):
        chunk = html.unescape(body[pos : m.start()])
        parts.append(chunk)
        length += len(chunk)
        pos = m.end()
        if m.group(2) != "TIMEX3":
            continue
        if m.group(1):  # closing tag
            if open_timexes:
                a, start = open_timexes.pop()
                timexes.append(
                    Timex(
                        a.get("tid", ""), a.get("type", ""), a.get("value", ""), start, length, ""
                    )
                )
        elif not m.group(4):
            open_timexes.append((_attrs(m.group(3)), length))
    parts.append(html.unescape(body[pos:]))
    text = "".join(parts)
    for t in timexes:
        t.text = text[t.start : t.end]
    timexes.sort(key=lambda t: t.start)
    return Document(doc_id, text, dct, timexes)


# ---------------------------------------------------------------------------- normalization


def _last_day(year: int, month: int) -> int:
    return calendar.monthrange(year, month)[1]


_SEASON_CODES = {3: "SP", 6: "SU", 9: "FA", 12: "WI"}


def to_timex_value(date_start: str | None, date_end: str | None) -> str | None:
    """Our claim's date or range in TIMEX3 value form, at the granularity the range spans."""
    if not date_start:
        return None
    date_end = date_end or date_start
    if date_start.startswith("--") or date_end.startswith("--"):
        # no year: the TIMEX3 form writes the unknown year as XXXX
        s, e = date_start[2:], date_end[2:]
        if s == e:
            return f"XXXX-{s}"
        if s[:2] == e[:2]:
            return f"XXXX-{s[:2]}"
        return f"XXXX-{s}/XXXX-{e}"
    start, finish = date.fromisoformat(date_start[:10]), date.fromisoformat(date_end[:10])
    if start == finish:
        return start.isoformat()
    if start.weekday() == 0 and finish - start == timedelta(days=6):
        year, week, _ = start.isocalendar()
        return f"{year:04d}-W{week:02d}"
    if (start.year, start.month) == (finish.year, finish.month):
        return f"{start.year:04d}-{start.month:02d}"  # whole month, or early/mid/late (mod)
    if start == date(start.year, 1, 1) and finish == date(start.year, 12, 31):
        return f"{start.year:04d}"
    if start.year % 10 == 0 and (start, finish) == (
        date(start.year, 1, 1),
        date(start.year + 9, 12, 31),
    ):
        return f"{start.year // 10:03d}X"  # a decade, as TimeBank writes it
    if (
        start.year == finish.year
        and start.day == 1
        and start.month in (1, 4, 7, 10)
        and finish.month == start.month + 2
        and finish.day == _last_day(finish.year, finish.month)
    ):
        return f"{start.year:04d}-Q{(start.month - 1) // 3 + 1}"
    months = finish.year * 12 + finish.month - (start.year * 12 + start.month)
    if (
        start.day == 1
        and start.month in _SEASON_CODES
        and months == 2
        and finish.day == _last_day(finish.year, finish.month)
    ):
        return f"{start.year:04d}-{_SEASON_CODES[start.month]}"  # a season (winter from December)
    return f"{start.isoformat()}/{finish.isoformat()}"


# ---------------------------------------------------------------------------- matching


@dataclass
class Prediction:
    start: int
    end: int
    text: str
    value: str | None


def strict_matches(gold: list[Timex], pred: list[Prediction]) -> int:
    spans = {(g.start, g.end) for g in gold}
    return sum((p.start, p.end) in spans for p in pred)


def relaxed_pairs(gold: list[Timex], pred: list[Prediction]) -> list[tuple[Timex, Prediction]]:
    """One-to-one pairs of overlapping gold and predicted spans, largest overlap first."""
    candidates = []
    for gi, g in enumerate(gold):
        for pi, p in enumerate(pred):
            overlap = min(g.end, p.end) - max(g.start, p.start)
            if overlap > 0:
                candidates.append((-overlap, gi, pi))
    used_g: set[int] = set()
    used_p: set[int] = set()
    pairs = []
    for _, gi, pi in sorted(candidates):
        if gi in used_g or pi in used_p:
            continue
        used_g.add(gi)
        used_p.add(pi)
        pairs.append((gold[gi], pred[pi]))
    return pairs


def prf(tp: int, n_gold: int, n_pred: int) -> dict[str, float]:
    p = tp / n_pred if n_pred else 0.0
    r = tp / n_gold if n_gold else 0.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    return {"P": round(100 * p, 2), "R": round(100 * r, 2), "F1": round(100 * f, 2)}


# ---------------------------------------------------------------------------- miss classes

_WEEKDAYS = r"monday|tuesday|wednesday|thursday|friday|saturday|sunday"
_MONTHS = (
    r"january|february|march|april|may|june|july|august|september|october|november|december|"
    r"jan\.|feb\.|mar\.|apr\.|jun\.|jul\.|aug\.|sept?\.|oct\.|nov\.|dec\."
)
_HOLIDAYS = (
    r"\b(?:thanksgiving|christmas|easter|new year'?s|hanukkah|ramadan|passover|halloween|"
    r"(?:independence|labor|memorial|veterans|election) day)\b"
)
_PARTS = r"morning|afternoon|evening|night|tonight|overnight|midnight|noon|dawn"
_SEASONS = r"spring|summer|fall|autumn|winter|quarter|half|season"
_RELATIVE = (
    r"\b(?:last|this|next|past|coming|previous|earlier|later|ago|current|recent|following|"
    r"prior|same|that)\b"
)
_PERIODS = r"\b(?:week|month|year|decade|century|weekend|days?|times?)s?\b"


def timex_class(surface: str, value: str, kind: str) -> str:
    """The kind of date expression a gold timex is, from its words first, then its value."""
    t = surface.lower()
    if value in ("PAST_REF", "PRESENT_REF", "FUTURE_REF"):
        return "vague reference (now, recently, the future)"
    if re.search(r"\d:\d\d|\ba\.m\.|\bp\.m\.|o'clock|\d\s*(?:am|pm)\b", t) or re.search(
        r"T\d\d", value
    ):
        return "time of day"
    if re.search(r"\b(?:yesterday|today|tomorrow|tonight)\b", t):
        return "relative day (yesterday/today/tomorrow)"
    if re.search(rf"\b(?:{_WEEKDAYS})\b", t):
        return "weekday"
    if re.search(_HOLIDAYS, t):
        return "holiday (Thanksgiving, Easter week)"
    if re.search(rf"\b(?:{_SEASONS}|{_PARTS})\b", t):
        return "season / quarter / part of day"
    if re.search(_RELATIVE, t) and re.search(_PERIODS, t):
        return "relative period (last week, a year ago)"
    if re.search(rf"(?:^|\b)(?:{_MONTHS})", t):
        if re.search(r"\b\d{1,2}(?:st|nd|rd|th)?\b", t):
            return "full explicit date (month and day)"
        if re.search(r"\b\d{4}\b", t):
            return "month and year"
        return "month without year"
    if re.search(r"\b\d{1,2}/\d{1,2}(?:/\d{2,4})?\b", t):
        return "full explicit date (numeric)"
    if re.search(r"\b\d{2,4}'?s\b|\bcentury\b|\bdecade\b", t) or re.fullmatch(r"\d{1,3}X*", value):
        return "decade / century"
    if re.search(r"\b(?:1[89]|20)\d\d\b", t):
        return "year only (1998, fiscal 1998)"
    if re.search(_PERIODS, t):
        return "bare period noun (the days before, that week)"
    if re.search(r"-(?:Q\d|QX|H\d|SU|FA|WI|SP)$|T(?:MO|AF|EV|NI)$", value):
        return "season / quarter / part of day"
    return "other (ordinals, adverbs)"


# ---------------------------------------------------------------------------- scoring


# What may stand between a time and the date it is on, as one TIMEX3: "9 a.m. Tuesday",
# "Tuesday at 9 a.m.", "4 a.m. EDT, Thursday".
_TIME_DATE_GAP = re.compile(r"\s*(?:,|on|at)?\s*")


_ISO_DAY = re.compile(r"\d{4}-\d\d-\d\d")


def claim_predictions(doc: Document) -> list[Prediction]:
    """Our date claims, and our time claims: a time next to a date claim is one TIMEX3 with
    it (value 2000-04-06T04:00, the local time as stated); a time alone has no day, so no
    value to compare."""
    from lake.silver.extract import extract_claims

    published = datetime(doc.dct.year, doc.dct.month, doc.dct.day) if doc.dct else None
    claims = extract_claims(doc.doc_id, doc.text, published_at=published)
    dates = [c for c in claims if c.kind == "date"]
    joined: set[str] = set()
    predictions = []
    for t in (c for c in claims if c.kind == "time"):
        day = next(
            (
                d
                for d in dates
                if d.claim_id not in joined
                and _TIME_DATE_GAP.fullmatch(
                    doc.text[min(t.char_end, d.char_end) : max(t.char_start, d.char_start)]
                )
            ),
            None,
        )
        if day is None:
            predictions.append(Prediction(t.char_start, t.char_end, t.claim_text, None))
            continue
        joined.add(day.claim_id)
        # The day as written: beside a zoned time its claim spans the UTC days it covers.
        stated = _ISO_DAY.fullmatch(day.value_text or "")
        on = day.value_text if stated else to_timex_value(day.date_start, day.date_end)
        value = f"{on}T{t.value_text[:5]}" if on is not None and len(on) == 10 else None
        start, end = min(t.char_start, day.char_start), max(t.char_end, day.char_end)
        predictions.append(Prediction(start, end, doc.text[start:end], value))
    predictions += [
        Prediction(c.char_start, c.char_end, c.claim_text, to_timex_value(c.date_start, c.date_end))
        for c in dates
        if c.claim_id not in joined
    ]
    return sorted(predictions, key=lambda p: p.start)


def score(docs: list[Document]) -> dict:
    n_gold = n_pred = strict = relaxed = value_ok = 0
    missed: list[dict] = []
    wrong: list[dict] = []
    spurious: list[dict] = []
    by_gold_class: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])  # gold, found, right
    for doc in docs:
        gold = [t for t in doc.timexes if t.type in GOLD_TYPES]
        pred = claim_predictions(doc)
        n_gold += len(gold)
        n_pred += len(pred)
        strict += strict_matches(gold, pred)
        pairs = relaxed_pairs(gold, pred)
        relaxed += len(pairs)
        matched = {id(g): p for g, p in pairs}
        for g in gold:
            cls = timex_class(g.text, g.value, g.type)
            by_gold_class[cls][0] += 1
            p = matched.get(id(g))
            if p is None:
                missed.append({"class": cls, "surface": g.text, "gold": g.value})
                continue
            by_gold_class[cls][1] += 1
            if p.value == g.value:
                value_ok += 1
                by_gold_class[cls][2] += 1
            else:
                wrong.append({"class": cls, "surface": g.text, "gold": g.value, "ours": p.value})
        paired = {id(p) for _, p in pairs}
        for p in pred:
            if id(p) in paired:
                continue
            hit = next(
                (t for t in doc.timexes if t.start < p.end and p.start < t.end),
                None,
            )
            where = f"overlaps gold {hit.type}" if hit else "no gold timex there"
            spurious.append({"class": where, "surface": p.text, "ours": p.value})
    relaxed_scores = prf(relaxed, n_gold, n_pred)
    accuracy = value_ok / relaxed if relaxed else 0.0
    return {
        "documents": len(docs),
        "n_gold_date_time": n_gold,
        "n_pred_dates": n_pred,
        "strict": prf(strict, n_gold, n_pred),
        "relaxed": relaxed_scores,
        "value_accuracy_over_matched": round(100 * accuracy, 2),
        "value_F1": round(relaxed_scores["F1"] * accuracy, 2),
        "value": prf(value_ok, n_gold, n_pred),
        "counts": {"strict": strict, "relaxed": relaxed, "value_correct": value_ok},
        "gold_by_class": {
            cls: {"gold": g, "found": f, "value_right": r}
            for cls, (g, f, r) in sorted(by_gold_class.items(), key=lambda kv: -kv[1][0])
        },
        "missed_by_class": by_class(missed),
        "wrong_value_by_class": by_class(wrong),
        "false_positives_by_class": by_class(spurious),
    }


def by_class(items: list[dict], examples: int = 3) -> dict[str, dict]:
    grouped: dict[str, list[dict]] = defaultdict(list)
    for item in items:
        grouped[item["class"]].append(item)
    out = {}
    for cls, members in sorted(grouped.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        shown: list[dict] = []
        seen: set[str] = set()
        for m in members:
            if m["surface"].lower() in seen:
                continue
            seen.add(m["surface"].lower())
            shown.append({k: v for k, v in m.items() if k != "class"})
            if len(shown) == examples:
                break
        out[cls] = {"count": len(members), "examples": shown}
    return out


def load(repo_path: str) -> list[Document]:
    repo = RepoReader(repo_path, forbidden=HELD_OUT)
    docs = []
    for path in repo.list(TRAINING):
        # TimeBank and AQUAINT only: testpipeline/ holds a byte-identical copy of a TimeBank file
        if not path.endswith(".tml") or path.split("/")[-2] not in CORPORA:
            continue
        doc_id = path.rsplit("/", 1)[-1][: -len(".tml")]
        docs.append(parse_timeml(repo.read_text(path), doc_id))
    return docs


def run(repo_path: str) -> dict:
    docs = load(repo_path)
    from lake.silver.extract import EXTRACTOR_VERSION

    result = {
        "set": "TempEval-3 TBAQ-cleaned (training: TimeBank + AQUAINT)",
        "extractor_version": EXTRACTOR_VERSION,
    }
    result.update(score(docs))
    result["published_TE3_platinum_test"] = PUBLISHED
    result["note"] = (
        "Published figures are TempEval-3 Task A on the platinum test set over all TIMEX3 "
        "types; ours are on the TBAQ-cleaned training documents, DATE and TIME only: not the "
        "same documents, not directly comparable."
    )
    return result


def _print_text(r: dict) -> None:
    print(f"== {r['set']}: {r['documents']} documents")
    print(
        f"   gold DATE+TIME {r['n_gold_date_time']}, our date and time claims {r['n_pred_dates']}"
    )
    for key in ("strict", "relaxed", "value"):
        s = r[key]
        print(f"   {key:8s} P {s['P']:6.2f}  R {s['R']:6.2f}  F1 {s['F1']:6.2f}")
    print(
        f"   value accuracy over matched {r['value_accuracy_over_matched']}, "
        f"value F1 (relaxed F1 x accuracy) {r['value_F1']}"
    )
    for name, p in r["published_TE3_platinum_test"].items():
        print(
            f"   published {name}: strict F1 {p['strict']['F1']}, relaxed F1 "
            f"{p['relaxed']['F1']}, value F1 {p['value_F1']} (TE3 platinum test set)"
        )
    print("   gold by class (gold / found / value right):")
    for cls, c in r["gold_by_class"].items():
        print(f"     {c['gold']:5d} {c['found']:5d} {c['value_right']:5d}  {cls}")
    for title, key in (
        ("missed (not detected)", "missed_by_class"),
        ("detected, wrong value", "wrong_value_by_class"),
        ("false positives", "false_positives_by_class"),
    ):
        print(f"   {title} by class:")
        for cls, info in r[key].items():
            shown = "; ".join(
                repr(e["surface"])
                + (f" {e.get('ours')}≠{e['gold']}" if "ours" in e and "gold" in e else "")
                + (f" ({e['gold']})" if "ours" not in e else "")
                + (f" ({e['ours']})" if "gold" not in e else "")
                for e in info["examples"]
            )
            print(f"     {info['count']:5d}  {cls}: {shown}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repo", required=True, help="fetched StructTempRel-EMNLP17 (git dir)")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    args = parser.parse_args(argv)
    result = run(args.repo)
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
    else:
        _print_text(result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
