"""The same work in one plain Python process (no Spark, no Delta); prints one JSON object.

    .venv/bin/python benchmarks/baseline.py --articles 1000 10000

For each N: the same synthetic corpus as benchmarks/pipeline.py (same generator, seed and
event count), then in one process: read and parse every file with bronze's parser (dedup by
content), extract claims with silver's extractor, reconcile them into facts with the rules of
lake.silver.stories (story grouping, re-done here with Python loops) and of
dbt_project/models (intervals, support by independent source, ranking, value groups, status),
and write articles, claims and facts as JSON Lines. No contracts (their rules are Spark SQL;
they stop malformed rows, which the extractor does not write), no table history, no recovery:
the floor claimhouse's overheads are measured against.

Compare `total_s` with pipeline.py's at the same N for the claimhouse / baseline ratio; the
fact and status counts must equal gold's (a check that the baseline does the same work).
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import math
import platform
import re
import resource
import shutil
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from datetime import UTC, date, datetime
from pathlib import Path

import yaml

from evaluation.facts import score_corpus
from lake.bronze.parse import parse_file
from lake.schemas import FRAME_PARTS
from lake.silver import kinds
from lake.silver import stories as S
from lake.silver.extract import extract_claims
from synthetic.generate import generate

_EPOCH = date(1970, 1, 1)
# Gold's settings, read from their homes: the dbt project's vars, and what it is passed about
# the claim kinds from their registry (lake.gold.build.dbt_args: --vars).
_VARS = {
    **yaml.safe_load(
        (Path(__file__).resolve().parent.parent / "dbt_project" / "dbt_project.yml").read_text()
    )["vars"],
    **kinds.dbt_vars(),
}
OPEN_BOUND_FACTOR = float(_VARS["open_bound_factor"])
MAGNITUDE_GAP = float(_VARS["magnitude_gap"])
UNRECONCILED_MEASURES = set(_VARS["unreconciled_measures"])
UNIT_AXIS_KINDS = set(_VARS["unit_axis_kinds"])
SYNONYM_MIN_STORIES = int(_VARS["synonym_min_stories"])
SOLITARY_MEASURES = set(_VARS["solitary_measures"])
NAMED_ONLY_MEASURES = set(_VARS["named_only_measures"])
SMALL_COUNT = float(_VARS["small_count"])
UNIT_SCALES = {
    kind: {unit: float(scale) for unit, scale in units.items()}
    for kind, units in _VARS["unit_scales"].items()
}
GOLD_UNITS = dict(_VARS["gold_units"])
_INF = float("inf")
# int_claims_bounded.sql's precision_tier: stated values, then bounds and ranges (1), then
# vague amounts.
_PRECISION_TIER = {"exact": 0, "approximate": 0, "almost": 0, "vague": 2}


def _day(text: str | None) -> int | None:
    try:
        return (date.fromisoformat(text) - _EPOCH).days if text else None
    except ValueError:  # "--05-20": no year
        return None


def _day_of_year(text: str | None) -> int | None:
    try:
        return date.fromisoformat(f"2000-{text[-5:]}").timetuple().tm_yday if text else None
    except ValueError:
        return None


def _staged(c: dict) -> dict:
    """stg_silver__claims.sql (macros/time_units.sql): bounds of a kind with a gold unit in
    it (durations in days, ages in years...), by the kind's own units."""
    gold_unit = GOLD_UNITS.get(c["kind"])
    units = UNIT_SCALES.get(c["kind"], {})
    if gold_unit is None or c["unit"] not in units:
        return {**c, "value_scale": 1.0}
    scale = units[c["unit"]]
    if units[gold_unit] != 1:
        scale /= units[gold_unit]
    scaled = {k: None if c[k] is None else c[k] * scale for k in ("lower", "upper")}
    return {**c, **scaled, "value_scale": scale}


def _interval(c: dict) -> dict:
    """int_claims_bounded.sql for one claim."""
    c = _staged(c)
    if c["kind"] == "date":
        lo, hi = _day(c["date_start"]), _day(c["date_end"])
        md_lo, md_hi = _day_of_year(c["date_start"]), _day_of_year(c["date_end"])
        informative = md_lo is not None
        width = md_hi - md_lo if informative and md_hi is not None else None
    else:
        lower, upper = c["lower"], c["upper"]
        lo = lower if lower is not None else (min(0.0, upper) if upper is not None else None)
        hi = upper if upper is not None else (_INF if lower is not None else None)
        md_lo = md_hi = None
        informative = lo is not None and hi is not None
        width = hi - lo if informative else None
    outlet = c["cited_outlet"] or c["reporting_outlet"]
    source = outlet.strip().lower().removeprefix("the ").lstrip() if outlet else None
    frame = c.get("frame") or {}
    return {
        **c,
        **{f"{part}_key": (frame.get(part) or {}).get("key") for part in FRAME_PARTS},
        "frame_definite": bool(frame.get("definite")),
        "year_known": c["kind"] == "date"
        and bool(c["date_start"])
        and not c["date_start"].startswith("--"),
        "lo": lo,
        "hi": hi,
        "md_lo": md_lo,
        "md_hi": md_hi,
        "source_key": source or f"article:{c['article_id']}",
        "informative": informative,
        "width": width,
        "tier": _PRECISION_TIER.get(c["qualifier"], 1) if informative else None,
    }


def _overlap(a: dict, b: dict) -> bool:
    if a["kind"] == "date" and not (a["year_known"] and b["year_known"]):
        return a["md_lo"] <= b["md_hi"] and b["md_lo"] <= a["md_hi"]
    return a["lo"] <= b["hi"] and b["lo"] <= a["hi"]


def _window_pairs(by_bucket: dict[int | None, list]) -> Iterator[tuple[tuple, tuple]]:
    """Each pair of one term's postings ((article_id, w), a < b) that may fall in the window:
    same or neighbouring bucket, or either one undated."""
    undated = by_bucket.get(None, [])
    for bucket, posting in by_bucket.items():
        if bucket is None:
            continue
        pairs = itertools.chain(
            itertools.combinations(posting, 2),
            itertools.product(posting, by_bucket.get(bucket + 1, ())),
            itertools.product(undated, posting),
        )
        for x, y in pairs:
            yield (x, y) if x[0] < y[0] else (y, x)
    for x, y in itertools.combinations(undated, 2):
        yield (x, y) if x[0] < y[0] else (y, x)


def group_stories(articles: dict[str, dict]) -> dict[str, str]:
    """lake.silver.stories in plain Python: article_id -> story_id."""
    n = len(articles)
    terms = {
        a: S.article_terms(f"{art['title'] or ''}\n{art['body']}") for a, art in articles.items()
    }
    df: Counter = Counter()
    common: set[str] = set()
    for found in terms.values():
        df.update(found.keys())
        common.update(t for t, (_, lower) in found.items() if lower)
    cap = max(S.MIN_DF_CAP, int(n * S.MAX_DF_SHARE))
    vectors, names = {}, {}
    for a, found in terms.items():
        names[a] = {t for t, (proper, _) in found.items() if proper and t not in common}
        vectors[a] = {
            t: (math.log((1 + n + S.PSEUDO_ARTICLES) / (1 + df[t])) + 1)
            * (S.PROPER_NAME_WEIGHT if t in names[a] else 1.0)
            for t in found
            if df[t] <= cap
        }
    norms = {a: math.sqrt(sum(w * w for w in v.values())) for a, v in vectors.items()}
    day = {
        a: (art["published_at"].date() - _EPOCH).days if art["published_at"] else None
        for a, art in articles.items()
    }
    # term -> bucket of WINDOW_DAYS days (None: undated) -> postings, as in _window_dots.
    postings: dict[str, dict[int | None, list]] = defaultdict(lambda: defaultdict(list))
    for a, vector in vectors.items():
        bucket = None if day[a] is None else day[a] // S.WINDOW_DAYS
        for t, w in vector.items():
            if df[t] >= 2:
                postings[t][bucket].append((a, w))
    dots: Counter = Counter()
    for by_bucket in postings.values():
        for (a, wa), (b, wb) in _window_pairs(by_bucket):
            if day[a] is None or day[b] is None or abs(day[a] - day[b]) <= S.WINDOW_DAYS:
                dots[(a, b)] += wa * wb
    # Name evidence counts articles in the date window: the bucket and the two beside it.
    name_terms = set().union(*names.values()) if names else set()
    per_bucket: Counter = Counter()
    df_bucket: dict[int, Counter] = defaultdict(Counter)
    for a, found in terms.items():
        bucket = None if day[a] is None else day[a] // S.WINDOW_DAYS
        if bucket is not None:
            per_bucket[bucket] += 1
            df_bucket[bucket].update(t for t in found if t in name_terms)

    def window(term: str, a: str) -> tuple[int, int]:
        if day[a] is None:
            return df[term], n
        b = day[a] // S.WINDOW_DAYS
        return (
            sum(df_bucket[b + k][term] for k in (-1, 0, 1)),
            sum(per_bucket[b + k] for k in (-1, 0, 1)),
        )

    links = []
    for (a, b), dot in dots.items():
        similarity = dot / (norms[a] * norms[b])
        if similarity < S.LINK_THRESHOLD:
            continue
        evidence = 0.0
        for t in names[a] & names[b]:
            (df_a, n_a), (df_b, n_b) = window(t, a), window(t, b)
            evidence += math.log((max(n_a, n_b) + S.PSEUDO_ARTICLES) / max(df_a, df_b))
        if similarity * evidence >= S.MIN_LINK_SCORE:
            links.append((a, b, similarity))
    return S.average_linkage(articles, links, S.LINK_THRESHOLD)


def _reconcile_group(group: list[dict]) -> dict:
    """reconcile_claims (dbt macro) for one measure or fact: consensus, anchors, status."""
    informative = [c for c in group if c["informative"]]
    for c in informative:
        peers = [d for d in informative if _overlap(c, d)]
        c["sources"] = len({d["source_key"] for d in peers})
        c["support_articles"] = len({d["article_id"] for d in peers})
    informative.sort(
        key=lambda c: (
            c["tier"],
            -c["sources"],
            c["width"],
            -c["lo"] if c["hi"] == _INF else 0,  # of two open lower bounds the higher
            -c["support_articles"],
            c["claim_id"],
        )
    )
    consensus = informative[0] if informative else None
    # a source that states the consensus too contradicts no one with its other value
    supporting = {d["source_key"] for d in informative if _overlap(d, consensus)}
    disagreeing = [
        c
        for c in informative[1:]
        if not _overlap(c, consensus) and c["source_key"] not in supporting
    ]
    anchors = informative[:1] + [
        c
        for i, c in enumerate(disagreeing)
        if not any(_overlap(c, better) for better in disagreeing[:i])
    ]
    return {"group": group, "consensus": consensus, "anchors": anchors}


def _told_apart(a: list[dict], b: list[dict]) -> bool:
    """Some article states disagreeing values under both measures, or names them apart: dates
    under both (one day can be two events'), unless one named actor's, or one sentence figures
    under both ("25 field office directors and 25 special agents")."""
    by_article = defaultdict(list)
    for c in a:
        if c["informative"]:
            by_article[c["article_id"]].append(c)
    return any(
        not _overlap(c, d)
        or c["measure_key"] != d["measure_key"]
        and (
            c["kind"] in ("date", "time")
            and not (c["subject_key"] is not None and c["subject_key"] == d["subject_key"])
            or c["sentence_index"] == d["sentence_index"]
        )
        for d in b
        if d["informative"]
        for c in by_article.get(d["article_id"], [])
    )


def _nested_keys(a: str, b: str) -> bool:
    """macros/measures.sql nested_keys: one noun, one key's words all among the other's; a
    key that names nothing (solitary) nests in none."""
    if a in SOLITARY_MEASURES or b in SOLITARY_MEASURES:
        return False
    wa, wb = a.split(" "), b.split(" ")
    return wa[-1] == wb[-1] and (set(wa) <= set(wb) or set(wb) <= set(wa))


def merge_measures(measures: dict[tuple, dict]) -> dict[tuple, tuple]:
    """int_measures_merged.sql: measure key -> the measure key of its fact."""
    partitions = defaultdict(list)
    closed = {}
    for key, m in measures.items():
        consensus = m["consensus"]
        if consensus is None or consensus["qualifier"] == "vague":
            continue
        if consensus["kind"] != "date" and consensus["hi"] == _INF:
            consensus = {**consensus, "hi": max(consensus["lo"], 0.0) * OPEN_BOUND_FACTOR}
        elif (
            consensus["kind"] != "date"
            and consensus["qualifier"] == "up_to"
            and consensus["hi"] > 0
        ):
            consensus = {**consensus, "lo": consensus["hi"] / OPEN_BOUND_FACTOR}
        closed[key] = consensus
        story_id, kind, measure_key, per, _, _ = key
        partitions[(story_id, kind, per, "/subset" in measure_key)].append(key)
    rank, candidates = {}, defaultdict(list)
    for keys in partitions.values():
        keys.sort(
            key=lambda k: (
                -len({c["article_id"] for c in measures[k]["group"]}),
                k[2],
                _measure_id(k),
            )
        )
        for i, a in enumerate(keys):
            rank[a] = i
            candidates[a] = [
                b
                for b in keys[:i]
                if _overlap(closed[a], closed[b])
                and _compatible(measures[a]["group"], measures[b]["group"])
                # dates are one fact's only when they state one day (or month, or year)
                # exactly: one week holds many events' days
                and (a[1] not in ("date", "time") or _same_span(closed[a], closed[b]))
                # a small number names no quantity by itself: "two" turkeys and "two" daughters;
                # "two police officers" and "two U.S. Capitol Police officers" name one
                and (_nested_keys(a[2], b[2]) or a[1] not in ("count", "rate") or _large(closed[a]))
                and not _told_apart(measures[a]["group"], measures[b]["group"])
            ]
    # Only into a measure that merges into nothing itself: no chains.
    into = {a: next((b for b in bs if not candidates[b]), None) for a, bs in candidates.items()}
    members = defaultdict(list)
    for a, b in into.items():
        if b is not None:
            members[b].append(a)
    merged = {key: key for key in measures}
    for root, keys in members.items():
        for a in keys:
            # Not beside a better-ranked member that some article tells apart from it.
            if not any(
                rank[c] < rank[a] and _told_apart(measures[a]["group"], measures[c]["group"])
                for c in keys
            ):
                merged[a] = root
    # Synonyms learned from the corpus: two measure_keys of one kind and per whose measures
    # merged (values agree) in more than half the stories where both appear, and in at least
    # SYNONYM_MIN_STORIES. A root whose key is a synonym of exactly one better-ranked root's,
    # which no article tells apart from it, joins that fact even though the values disagree:
    # it is the fact's minority, a conflict.
    roots = defaultdict(list)
    for key in closed:
        if merged[key] == key:
            story_id, kind, measure_key, per, _, _ = key
            roots[(story_id, kind, per, "/subset" in measure_key)].append(key)
    merged_in, present_in = Counter(), Counter()
    for (_story, kind, per, _), keys in partitions.items():
        names = sorted({k[2] for k in keys})
        for i, a in enumerate(names):
            for b in names[i + 1 :]:
                present_in[(kind, per, a, b)] += 1
        joined = {tuple(sorted((k[2], merged[k][2]))) for k in keys if merged[k][2] != k[2]}
        for a, b in joined:
            merged_in[(kind, per, a, b)] += 1
    synonyms = {
        pair
        for pair, n in merged_in.items()
        if n >= SYNONYM_MIN_STORIES and 2 * n > present_in[pair]
    }
    synonym_into = {}
    for partition, keys in roots.items():
        for b in keys:
            better = [
                a
                for a in keys
                if rank[a] < rank[b]
                and (partition[1], partition[2], *sorted((a[2], b[2]))) in synonyms
                and not _told_apart(measures[a]["group"], measures[b]["group"])
            ]
            if len(better) == 1:
                synonym_into[b] = better[0]
    # No chains: a root that joins another takes nothing in.
    synonym_into = {b: a for b, a in synonym_into.items() if a not in synonym_into}
    for key, fact in merged.items():
        merged[key] = synonym_into.get(fact, fact)
    roots = {
        partition: [k for k in keys if k not in synonym_into] for partition, keys in roots.items()
    }
    for key, m in measures.items():
        consensus = m["consensus"]
        if consensus is None or consensus["qualifier"] != "vague":
            continue
        story_id, kind, measure_key, per, _, _ = key
        fits = [
            r
            for r in roots.get((story_id, kind, per, "/subset" in measure_key), [])
            if _overlap(consensus, closed[r])
            and not _told_apart(m["group"], measures[r]["group"])
            # "this week" fits every day of the week's events: a vague date joins its own event's
            # fact only, and only where it states that fact's span
            and (kind not in ("date", "time") or r[2] == measure_key)
            and (kind != "date" or _same_span(consensus, closed[r]))
        ]
        if len(fits) > 1:  # of several, the one a learned synonym names
            fits = [r for r in fits if (kind, per, *sorted((measure_key, r[2]))) in synonyms]
        if len(fits) == 1:
            merged[key] = fits[0]
    # Vague dates of one event that fit no fact: the measures of one key and span join the
    # best-ranked of them (more articles, then the smaller id) when their frames name at most
    # one subject and one scope (an unnamed "2016 campaign" beside Trump's and Clinton's is
    # neither's), each unless an article tells it apart from that one.
    left = defaultdict(list)
    for key, m in measures.items():
        consensus = m["consensus"]
        if (
            key[1] == "date"
            and consensus is not None
            and consensus["qualifier"] == "vague"
            and merged[key] == key
            and key[2] not in NAMED_ONLY_MEASURES | SOLITARY_MEASURES
        ):
            left[(key[0], key[1], key[3], "/subset" in key[2])].append(key)
    into_root = {}
    for keys in left.values():
        for key in keys:
            span = measures[key]["consensus"]
            group = [
                k for k in keys if k[2] == key[2] and _same_span(measures[k]["consensus"], span)
            ]
            frames = [measures[k]["group"][0] for k in group]
            if len({c["subject_group"] for c in frames} - {""}) > 1:
                continue
            if len({c["scope_group"] for c in frames} - {""}) > 1:
                continue
            root = min(
                group,
                key=lambda k: (
                    -len({c["article_id"] for c in measures[k]["group"]}),
                    _measure_id(k),
                ),
            )
            if root != key and not _told_apart(measures[key]["group"], measures[root]["group"]):
                into_root[key] = root
    merged.update(into_root)
    return merged


def _bands(by_key: dict[tuple, list[dict]]) -> dict[tuple, list[dict]]:
    """int_claims_bounded.sql's magnitude bands: (story, kind, key, per, frame group, band)
    -> claims."""
    banded: dict[tuple, list[dict]] = defaultdict(list)
    for key, group in by_key.items():
        nulls_first = sorted(
            group,
            key=lambda c: (c["lo"] is not None, c["lo"] or 0, c["hi"] is not None, c["hi"] or 0,
                           c["claim_id"]),
        )  # fmt: skip
        band, top = 0, None
        for c in nulls_first:
            if (
                c["kind"] not in ("date", "time")
                and c["informative"]
                and top is not None
                and top > 0
                and c["lo"] > MAGNITUDE_GAP * top
            ):
                band += 1
            if c["kind"] not in ("date", "time") and c["informative"]:
                top = c["hi"] if top is None else max(top, c["hi"])
            banded[(*key, band)].append(c)
    return banded


def _measure_id(key: tuple) -> str:
    """The measure's id as int_claims_bounded.sql hashes it (band 0 leaves it out)."""
    story_id, kind, measure_key, per, frame_group, band = key
    parts = (
        [story_id, kind, measure_key, per]
        + ([frame_group] if frame_group else [])
        + ([str(band)] if band else [])
    )
    return hashlib.sha256("|".join(parts).encode()).hexdigest()[:16]


def _value_signature(c: dict) -> str:
    """A claim's stated value, for splitting claims whose frames cannot tell a differing value
    from a different quantity (int_claims_bounded.sql's value_split)."""
    if c["kind"] == "date":
        return f"{c['date_start'] or ''}/{c['date_end'] or ''}"
    return f"{c['value_text'] or ''}/{c['qualifier']}"


def _frame_groups(by_key: dict[tuple, list[dict]]) -> dict[tuple, list[dict]]:
    """int_claims_bounded.sql's frame groups: within (story, kind, measure_key, per), a claim
    whose subject (scope) is unstated takes the one subject (scope) its measure's claims state.
    A claim whose frame cannot tell a differing value from another quantity (not definite, or
    its subject or scope unstated where its measure's claims state several) joins them only
    where its value agrees with a definite claim's; otherwise its value sets it apart."""
    grouped: dict[tuple, list[dict]] = defaultdict(list)
    for key, group in by_key.items():
        values_in_sentence = defaultdict(set)
        for c in group:
            values_in_sentence[(c["article_id"], c["sentence_index"])].add(_value_signature(c))
        subjects = {c["subject_key"] for c in group if c["subject_key"]}
        scopes = {c["scope_key"] for c in group if c["scope_key"]}
        for c in group:
            c["subject_group"] = c["subject_key"] or (
                next(iter(subjects)) if len(subjects) == 1 else ""
            )
            c["scope_group"] = c["scope_key"] or (next(iter(scopes)) if len(scopes) == 1 else "")
            # a claim that takes its measure's subject (scope) rather than stating it may
            # corroborate, never contradict: its frame does not say it is that subject's
            # two values of one measure in one sentence are two sides ("49 percent to 44
            # percent", "tonight or tomorrow"), never one quantity told two ways
            sides = len(values_in_sentence[(c["article_id"], c["sentence_index"])]) > 1
            c["definite"] = bool(
                c["frame_definite"]
                and not sides
                and (c["subject_key"] or not subjects)
                # a place is often left out by one outlet and named by another; a time is not
                and (c["scope_key"] or not any(map(_is_time_scope, scopes)))
            )
        definite = defaultdict(list)
        for c in group:
            if c["definite"] and c["informative"]:
                definite[(c["subject_group"], c["scope_group"])].append(c)
        for c in group:
            peers = definite[(c["subject_group"], c["scope_group"])]
            joins = (
                c["definite"]
                or (c["kind"] == "date" and not c["informative"])  # no day: cannot disagree
                or (c["informative"] and any(_overlap(c, d) for d in peers))
            )
            alone = c["measure_key"] in SOLITARY_MEASURES or (
                c["measure_key"] in NAMED_ONLY_MEASURES and not c["subject_key"]
            )
            c["value_split"] = c["claim_id"] if alone else ("" if joins else _value_signature(c))
            frame_group = "|".join((c["subject_group"], c["scope_group"], c["value_split"]))
            grouped[(*key, "" if frame_group == "||" else frame_group)].append(c)
    return grouped


def _same_span(a: dict, b: dict) -> bool:
    """macros/measures.sql same_span, with SQL's equality: a missing month and day (a clock
    time has none) equals nothing, so two event keys' times never merge."""
    if a["year_known"] and b["year_known"]:
        return (a["lo"], a["hi"]) == (b["lo"], b["hi"])
    days = (a["md_lo"], a["md_hi"], b["md_lo"], b["md_hi"])
    return None not in days and (a["md_lo"], a["md_hi"]) == (b["md_lo"], b["md_hi"])


def _is_time_scope(key: str) -> bool:
    """A scope that is a date ("last year", "in 2019"), keyed by its first day."""
    return bool(re.match(r"^[0-9]{4}", key))


def _large(c: dict) -> bool:
    """A count big enough to say which quantity it is by its value (var small_count)."""
    return max(abs(c["lo"]), abs(c["hi"])) >= SMALL_COUNT


def _compatible(a: list[dict], b: list[dict]) -> bool:
    """Two measures may be one quantity: their subjects and scopes agree where both state one."""
    sa, sb = a[0]["subject_group"], b[0]["subject_group"]
    ca, cb = a[0]["scope_group"], b[0]["scope_group"]
    return (not sa or not sb or sa == sb) and (not ca or not cb or ca == cb)


# var measure_labels: Java's "$1" is Python's "\1".
_MEASURE_LABEL_RULES = [
    (pattern, re.sub(r"\$(\d)", r"\\\1", replacement))
    for pattern, replacement in _VARS["measure_labels"]
]


def _measure_label(key: str) -> str:
    """macros/intervals.sql's measure_label."""
    for pattern, replacement in _MEASURE_LABEL_RULES:
        key = re.sub(pattern, replacement, key)
    return key


def fact_label(kind: str, measure_key: str, frame: dict | None, per: str | None) -> str:
    """macros/readable.sql's fact_label: the consensus claim's frame label."""
    label = (frame or {}).get("label")
    if label is not None:
        return label + (f" per {per}" if per else "")
    if re.search(r"(^|[:/ ])unknowns?($|/)", measure_key):
        return kind
    return _measure_label(measure_key)


def _matched_parts(a: dict, b: dict) -> tuple[list[str], float]:
    """fact_conflicts.sql's matched_parts and match_confidence of two anchor claims."""
    parts = [p for p in ("subject", "property", "event", "scope") if a[f"{p}_key"] is not None
             and a[f"{p}_key"] == b[f"{p}_key"]]  # fmt: skip
    if a["role_key"] is not None and a["role_key"] == b["role_key"]:
        parts.append("role")
    stated = sum(
        a[f"{p}_key"] is not None or b[f"{p}_key"] is not None
        for p in ("subject", "property", "event", "scope", "role")
    )
    return parts, round(len(parts) / max(stated, 1), 3)


def _axis(c: dict) -> str:
    """macros/measures.sql measure_axis: what the value is per, and for money its currency."""
    per = c["per"] or ""
    return f"{per}|{c['unit'] or ''}" if c["kind"] in UNIT_AXIS_KINDS else per


def reconcile(
    claims: list[dict], story: dict[str, str]
) -> tuple[list[dict], list[dict], list[dict]]:
    """dbt_project/models: measures per (story, kind, measure_key, per, magnitude band)
    reconciled, merged into facts (int_measures_merged), facts reconciled (facts.sql,
    fact_evidence.sql, fact_conflicts.sql). Returns facts, evidence and conflicts, with gold's
    fact ids."""
    by_key: dict[tuple, list[dict]] = defaultdict(list)
    for c in claims:
        if c["measure_key"] in UNRECONCILED_MEASURES:
            continue
        key = (story[c["article_id"]], c["kind"], c["measure_key"], _axis(c))
        by_key[key].append(_interval(c))
    by_measure = _bands(_frame_groups(by_key))
    measures = {key: _reconcile_group(group) for key, group in by_measure.items()}
    into = merge_measures(measures)
    by_fact: dict[tuple, list[dict]] = defaultdict(list)
    for key, group in by_measure.items():
        by_fact[into[key]].extend(group)
    facts, evidence, conflicts = [], [], []
    for (story_id, kind, measure_key, axis, frame_group, band), group in by_fact.items():
        fact_id = _measure_id((story_id, kind, measure_key, axis, frame_group, band))
        per = axis.split("|", 1)[0]
        r = _reconcile_group(group)
        consensus, anchors = r["consensus"], r["anchors"]
        if len({a["source_key"] for a in anchors}) >= 2:
            status = "conflicting"
        elif consensus and consensus["sources"] >= 2:
            status = "corroborated"
        else:
            status = "single_source"
        lower = upper = None
        if consensus is not None and kind != "date":
            agreeing = [c for c in group if c["informative"] and _overlap(c, consensus)]
            lower, upper = max(c["lo"] for c in agreeing), min(c["hi"] for c in agreeing)
            if lower > upper:
                lower, upper = consensus["lo"], consensus["hi"]
            upper = None if upper == _INF else upper
        values = [c["value"] * c["value_scale"] for c in group if c["value"] is not None]
        frame = consensus.get("frame") if consensus else None
        facts.append(
            {
                "fact_id": fact_id,
                "story_id": story_id,
                "kind": kind,
                "measure_key": measure_key,
                "label": fact_label(kind, measure_key, frame, per or None),
                **{
                    part: ((frame or {}).get(part) or {}).get("key" if part == "role" else "text")
                    for part in FRAME_PARTS
                },
                "measure_keys": sorted({c["measure_key"] for c in group}),
                "per": per or None,
                "consensus_value": (
                    consensus["value"] * consensus["value_scale"]
                    if consensus and consensus["value"] is not None
                    else None
                ),
                "consensus_text": consensus["value_text"] if consensus else None,
                "consensus_lower": lower,
                "consensus_upper": upper,
                "value_min": min(values) if values else None,
                "value_max": max(values) if values else None,
                "status": status,
                "article_count": len({c["article_id"] for c in group}),
                "articles": sorted({c["article_id"] for c in group}),
                "independent_source_count": len({c["source_key"] for c in group}),
                "claim_count": len(group),
            }
        )
        # reconcile_claims' agrees: the claim's interval overlaps the consensus; null when it
        # bounds nothing.
        evidence += [
            {
                "fact_id": fact_id,
                "claim_id": c["claim_id"],
                "agrees": _overlap(c, consensus) if c["informative"] and consensus else None,
            }
            for c in group
        ]
        informative = [c for c in group if c["informative"]]
        conflicts += [
            {
                "fact_id": fact_id,
                "value_a": a["value_text"],
                "value_b": b["value_text"],
                "matched_parts": _matched_parts(a, b)[0],
                "match_confidence": _matched_parts(a, b)[1],
                # fact_conflicts.sql: a side's articles agree with it and not with the other.
                "articles_a": sorted(
                    {c["article_id"] for c in informative if _overlap(c, a) and not _overlap(c, b)}
                ),
                "articles_b": sorted(
                    {c["article_id"] for c in informative if _overlap(c, b) and not _overlap(c, a)}
                ),
            }
            for a, b in itertools.combinations(anchors, 2)
            # a conflict is between sources: one article giving two values ("tonight or
            # tomorrow", a figure it corrects) contradicts no one
            if a["source_key"] != b["source_key"]
        ]
    return facts, evidence, conflicts


def _write_jsonl(path: Path, rows: list[dict]) -> None:
    with path.open("w", encoding="utf-8") as out:
        for row in rows:
            out.write(json.dumps(row, default=str) + "\n")


def measure(n: int, workdir: Path, seed: int) -> dict:
    corpus = workdir / f"corpus{n}"
    generate(n, max(1, n // 10), seed, corpus)
    files = sorted(p for p in (corpus / "articles").rglob("*.txt"))
    text_bytes = sum(p.stat().st_size for p in files)
    out = workdir / f"out{n}"
    out.mkdir()
    stages = {}

    started = time.perf_counter()
    articles: dict[str, dict] = {}
    rejects = 0
    for path in files:
        sidecar = path.with_suffix(".json")
        parsed = parse_file(
            str(path),
            path.read_bytes(),
            sidecar.name if sidecar.exists() else None,
            sidecar.read_bytes() if sidecar.exists() else None,
        )
        if parsed.article_id is None:
            rejects += 1
        else:
            articles.setdefault(parsed.article_id, {"source_uri": str(path), **vars(parsed)})
    _write_jsonl(out / "articles.jsonl", list(articles.values()))
    stages["bronze"] = time.perf_counter() - started

    started = time.perf_counter()
    claims = [
        claim.as_row()
        for a in articles.values()
        for claim in extract_claims(a["article_id"], a["body"], a["published_at"], a["outlet"])
    ]
    _write_jsonl(out / "claims.jsonl", claims)
    stages["silver"] = time.perf_counter() - started

    started = time.perf_counter()
    story = group_stories(articles)
    _write_jsonl(
        out / "stories.jsonl", [{"article_id": a, "story_id": s} for a, s in story.items()]
    )
    stages["stories"] = time.perf_counter() - started

    started = time.perf_counter()
    facts, evidence, conflicts = reconcile(claims, story)
    _write_jsonl(out / "facts.jsonl", facts)
    _write_jsonl(out / "fact_evidence.jsonl", evidence)
    _write_jsonl(out / "fact_conflicts.jsonl", conflicts)
    stages["gold"] = time.perf_counter() - started
    keys = {a: Path(art["source_uri"]).stem for a, art in articles.items()}
    scores = score_corpus(facts, conflicts, evidence, claims, corpus, keys)

    total = sum(stages.values())
    return {
        "articles": n,
        "text_mb": round(text_bytes / 2**20, 2),
        "stage_s": {k: round(v, 2) for k, v in stages.items()},
        "total_s": round(total, 2),
        "articles_per_s": round(n / total, 2),
        "rows": {
            "articles": len(articles),
            "rejects": rejects,
            "claims": len(claims),
            "stories": len(set(story.values())),
            "facts": len(facts),
            "conflict_pairs": len(conflicts),
        },
        "accuracy": {k: v for k, v in scores.items() if k != "true_facts"},
        "facts_by_status": dict(sorted(Counter(f["status"] for f in facts).items())),
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--articles", type=int, nargs="+", default=[1000])
    parser.add_argument("--seed", type=int, default=23)
    args = parser.parse_args()
    workdir = Path(tempfile.mkdtemp(prefix="claimhouse-baseline-"))
    try:
        runs = [measure(n, workdir, args.seed) for n in args.articles]
        print(
            json.dumps(
                {
                    "benchmark": "baseline",
                    "date": datetime.now(UTC).strftime("%Y-%m-%d"),
                    "machine": f"{platform.machine()}, 1 process",
                    "seed": args.seed,
                    "runs": runs,
                }
            )
        )
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
