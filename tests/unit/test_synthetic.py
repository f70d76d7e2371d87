"""The synthetic corpus generator: determinism, exact spans, consistent truth, full coverage."""

from __future__ import annotations

import json
import math
import re
from collections import defaultdict
from datetime import date, time
from pathlib import Path

import pytest

from lake.bronze.parse import normalize_body, parse_file
from lake.schemas import ATTRIBUTION_KINDS, QUALIFIERS
from lake.schemas import FACT_STATUSES as STATUSES
from lake.silver.kinds import NAMES as KINDS
from lake.silver.kinds.length import METERS_PER_UNIT
from lake.silver.kinds.mass import KILOGRAMS_PER_UNIT
from synthetic import vocabulary as V
from synthetic.generate import generate, main

# Anything an extractor could read as a number or a date.
_NUMBERISH = re.compile(
    r"\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|"
    r"forty|fifty|hundreds?|thousands?|millions?|billions?|dozens?|half|double|twice|triple|"
    r"quadruple|percent)\b",
    re.IGNORECASE,
)
_CALENDAR = re.compile(
    r"\b(?:January|February|March|April|May|June|July|August|September|October|November|"
    r"December|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)\b"
    r"|\b(?:Jan|Feb|Aug|Sept|Oct|Nov|Dec)\."
)


def _read_jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _files(root: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()
    }


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> dict:
    out = tmp_path_factory.mktemp("synthetic")
    summary = generate(articles=200, events=20, seed=26, out=out)
    articles = out / "articles"
    bodies = {p.stem: p.read_text(encoding="utf-8") for p in sorted(articles.glob("*/*.txt"))}
    sidecars = {p.stem: json.loads(p.read_text()) for p in sorted(articles.glob("*/*.json"))}
    return {
        "out": out,
        "summary": summary,
        "bodies": bodies,
        "sidecars": sidecars,
        "claims": _read_jsonl(out / "truth" / "claims.jsonl"),
        "facts": _read_jsonl(out / "truth" / "facts.jsonl"),
        "nonclaims": _read_jsonl(out / "truth" / "nonclaims.jsonl"),
    }


def test_same_seed_same_bytes_other_seed_differs(tmp_path: Path):
    generate(articles=60, events=8, seed=5, out=tmp_path / "a")
    generate(articles=60, events=8, seed=5, out=tmp_path / "b")
    generate(articles=60, events=8, seed=6, out=tmp_path / "c")
    a, b, c = (_files(tmp_path / name) for name in "abc")
    assert a == b
    assert len(a) > 120
    assert a != c


def test_counts_and_layout(corpus):
    summary = corpus["summary"]
    assert summary.articles == len(corpus["bodies"]) == len(corpus["sidecars"]) == 200
    assert summary.events == 20
    assert summary.claims == len(corpus["claims"])
    assert summary.facts == len(corpus["facts"])
    assert summary.nonclaims == len(corpus["nonclaims"])
    for path in (corpus["out"] / "articles").glob("*/*.txt"):
        assert path.with_suffix(".json").exists()


def test_bodies_are_normalized_wire_copy(corpus):
    for key, body in corpus["bodies"].items():
        assert normalize_body(body) == body, key
        assert 150 <= len(body.split()) <= 600, (key, len(body.split()))
        assert body.count("\n\n") >= 3, key


def test_bronze_ingests_body_and_sidecar_unchanged(corpus):
    out = corpus["out"]
    path = sorted((out / "articles").glob("*/*.txt"))[0]
    sidecar = path.with_suffix(".json")
    parsed = parse_file(str(path), path.read_bytes(), sidecar.name, sidecar.read_bytes())
    assert parsed.reason is None
    assert parsed.body == corpus["bodies"][path.stem]
    assert parsed.outlet == corpus["sidecars"][path.stem]["outlet"]
    assert parsed.published_at is not None


def test_every_claim_span_matches_its_text(corpus):
    bodies = corpus["bodies"]
    for claim in corpus["claims"]:
        body = bodies[claim["article_key"]]
        assert Path(claim["article_file"]).stem == claim["article_key"]
        assert body[claim["char_start"] : claim["char_end"]] == claim["claim_text"], claim
        assert claim["claim_text"] == claim["claim_text"].strip()
        if claim["attribution"] is not None:
            assert claim["attribution"] in body, claim
        assert claim["reporting_outlet"] == corpus["sidecars"][claim["article_key"]]["outlet"]
    for nc in corpus["nonclaims"]:
        assert bodies[nc["article_key"]][nc["char_start"] : nc["char_end"]] == nc["text"], nc


def test_claim_fields_follow_conventions(corpus):
    for claim in corpus["claims"]:
        kind, qualifier = claim["kind"], claim["qualifier"]
        assert kind in KINDS and qualifier in QUALIFIERS
        assert claim["attribution_kind"] in ATTRIBUTION_KINDS
        assert (claim["attribution"] is None) == (claim["attribution_kind"] == "unattributed")
        if claim["attribution_kind"] == "media_outlet":
            assert claim["cited_outlet"] is not None
        assert claim["cited_outlet"] != claim["reporting_outlet"]
        if kind == "date":
            assert claim["value"] is None and claim["unit"] is None
            date.fromisoformat(claim["value_text"] if qualifier == "exact" else claim["lower"])
        elif kind == "time":  # minutes after midnight UTC; value_text the local time
            assert 0 <= claim["value"] < 1440 and claim["unit"] == "UTC"
            local = time.fromisoformat(claim["value_text"])
            offset = local.utcoffset().total_seconds() // 60
            assert (local.hour * 60 + local.minute - offset) % 1440 == claim["value"]
            if qualifier == "approximate":
                assert (claim["lower"], claim["upper"]) == (
                    claim["value"] - 15,
                    claim["value"] + 15,
                )
        elif qualifier == "vague":
            assert claim["value"] is None and claim["lower"] is not None
        elif qualifier == "range":
            assert claim["value"] is None and claim["lower"] < claim["upper"]
            low, high = claim["value_text"].split("-")
            assert (float(low), float(high)) == (claim["lower"], claim["upper"])
        else:
            assert claim["value"] is not None
            assert float(claim["value_text"]) == claim["value"]
        if kind == "rate":
            assert claim["per"] in ("day", "week", "month", "year")
        if kind == "length":  # a unit gold scales to meters, written after the figure
            assert claim["unit"] in METERS_PER_UNIT
            assert claim["claim_text"].endswith(f" {claim['unit']}"), claim
        if kind == "mass":  # a unit gold scales to kilograms, written after the figure
            assert claim["unit"] in KILOGRAMS_PER_UNIT
            assert claim["claim_text"].endswith(f" {claim['unit']}"), claim
        if qualifier == "up_to":
            assert claim["upper"] == claim["value"] and claim["lower"] is None
        if qualifier in ("at_least", "more_than"):
            assert claim["lower"] == claim["value"] and claim["upper"] is None


_WRITTEN_NUMBER = re.compile(r"(\d[\d,]*(?:\.\d+)?)(\s+(?:million|billion))?")


def test_numbers_written_in_digits_read_as_the_labelled_value(corpus):
    checked = 0
    for claim in corpus["claims"]:
        if claim["kind"] in ("date", "time") or claim["qualifier"] in ("vague", "range"):
            continue
        found = _WRITTEN_NUMBER.search(claim["claim_text"])
        if found is None:  # written in words ("a dozen", "three times")
            continue
        scale = {None: 1, " million": 1e6, " billion": 1e9}[(found.group(2) or "").lower() or None]
        written = float(found.group(1).replace(",", "")) * scale
        assert written == pytest.approx(claim["value"]), claim
        checked += 1
    assert checked > len(corpus["claims"]) / 2


def test_every_number_in_the_text_is_labelled(corpus):
    covered: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for item in corpus["claims"] + corpus["nonclaims"]:
        covered[item["article_key"]].append((item["char_start"], item["char_end"]))
    for key, body in corpus["bodies"].items():
        spans = sorted(covered[key])
        for (_, end), (start, _) in zip(spans, spans[1:], strict=False):
            assert end <= start, (key, spans)  # claims and non-claims never overlap
        for pattern in (_NUMBERISH, _CALENDAR):
            for match in pattern.finditer(body):
                assert any(s <= match.start() < e for s, e in spans), (
                    key,
                    body[max(0, match.start() - 40) : match.end() + 40],
                )


def _interval(claim: dict) -> tuple[float, float, bool]:
    qualifier = claim["qualifier"]
    if claim["kind"] == "date":
        if qualifier == "vague":
            return (
                date.fromisoformat(claim["lower"]).toordinal(),
                date.fromisoformat(claim["upper"]).toordinal(),
                False,
            )
        day = date.fromisoformat(claim["value_text"]).toordinal()
        return day, day, False
    v = claim["value"]
    return {
        "exact": (v, v, False),
        "approximate": (0.9 * (v or 0), 1.1 * (v or 0), False),
        "at_least": (v, math.inf, False),
        "more_than": (v, math.inf, True),
        "up_to": (0.0, v, False),
        "almost": (0.9 * (v or 0), v, False),
        "vague": (claim["lower"], claim["upper"], False),
        "range": (claim["lower"], claim["upper"], False),
    }[qualifier]


def _contains(interval: tuple[float, float, bool], x: float) -> bool:
    lo, hi, strict = interval
    return (lo < x if strict else lo <= x) and x <= hi


def _number(value) -> float:
    return date.fromisoformat(value).toordinal() if isinstance(value, str) else value


def test_facts_agree_with_claims_and_the_status_rule(corpus):
    by_measure: dict[str, list[dict]] = defaultdict(list)
    for claim in corpus["claims"]:
        by_measure[claim["measure"]].append(claim)
    facts = corpus["facts"]
    assert {f["measure"] for f in facts} == set(by_measure)
    out = corpus["out"] / "articles"
    for fact in facts:
        for key in fact["supporting_articles"] + fact["contradicting_articles"]:
            assert (out / fact["event"] / f"{key}.txt").exists()
        true_value = _number(fact["true_value"])
        conflict = fact["conflict_value"]
        support: dict[str, set[str]] = defaultdict(set)  # source -> articles
        against: dict[str, set[str]] = defaultdict(set)
        for claim in by_measure[fact["measure"]]:
            interval = _interval(claim)
            agrees = _contains(interval, true_value)
            disagrees = conflict is not None and _contains(interval, _number(conflict))
            assert agrees != disagrees, (fact, claim)
            assert claim["stance"] == ("supporting" if agrees else "contradicting")
            source = claim["cited_outlet"] or claim["reporting_outlet"]
            (support if agrees else against)[source].add(claim["article_key"])
        if support and against:
            status = "conflicting"
        elif len(support) >= 2:
            status = "corroborated"
        else:
            status = "single_source"
        assert fact["expected_status"] == status, fact
        assert fact["independent_sources"] == len(support) + len(against)
        assert not set(support) & set(against)
        assert sorted(set().union(*support.values())) == sorted(fact["supporting_articles"])
        assert sorted(set().union(*against.values(), set())) == sorted(
            fact["contradicting_articles"]
        )
        if status == "conflicting":
            assert len(against) < len(support)  # the planted value is the minority
        else:
            assert conflict is None and not fact["contradicting_articles"]


def test_corpus_covers_every_label(corpus):
    claims = corpus["claims"]
    assert {c["qualifier"] for c in claims} == set(QUALIFIERS)
    assert {c["attribution_kind"] for c in claims} == set(ATTRIBUTION_KINDS)
    assert {c["kind"] for c in claims} == set(KINDS)
    assert {f["expected_status"] for f in corpus["facts"]} == set(STATUSES)
    assert {c["per"] for c in claims} >= {"day", "week", "year", None}
    # Re-reports of another outlet's figure, with and without a media_outlet attribution.
    cited = [c for c in claims if c["cited_outlet"]]
    assert {c["attribution_kind"] for c in cited} >= {"media_outlet", "named_person"}
    assert len({s["outlet"] for s in corpus["sidecars"].values()}) >= 20
    assert {n["type"] for n in corpus["nonclaims"]} >= {
        "brand",
        "ordinal",
        "year",
        "address",
        "phone",
        "page",
        "model",
        "source_count",
    }
    # Vague and precise statements of the same fact agree.
    mixed = defaultdict(set)
    for c in claims:
        if c["stance"] == "supporting":
            mixed[c["measure"]].add(c["qualifier"] == "vague")
    assert any(len(flags) == 2 for flags in mixed.values())


def test_filler_text_has_no_numbers():
    texts = [*V.BACKGROUND, *V.CONTEXT, *V.QUOTES, *V.CLOSINGS, *V.FURNITURE]
    for domain in V.DOMAINS:
        texts += [*domain.background, *domain.quotes, *domain.titles, *domain.agencies]
        texts += [*domain.names, *domain.event_forms, *(r for _, r in domain.roles)]
        for measure in domain.measures:
            texts += list(measure.clauses)
    for text in texts:
        assert not _NUMBERISH.search(text), text
        assert not _CALENDAR.search(text), text


def test_cli_prints_one_json_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    assert main(["--articles", "12", "--events", "3", "--seed", "2", "--out", str(tmp_path)]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 1
    summary = json.loads(lines[0])
    assert summary["articles"] == 12 and summary["articles_per_second"] > 0
    assert (tmp_path / "truth" / "manifest.json").exists()


def test_larger_corpora_span_more_years_at_the_same_pace():
    from synthetic.generate import event_years

    assert event_years(5) == event_years(1000) == (2024, 2025)
    assert event_years(1001) == (2023, 2024, 2025)
    assert event_years(10_000) == tuple(range(2006, 2026))


def test_events_sharing_a_name_or_company_are_weeks_apart(tmp_path: Path):
    # 400 events in two years: with a handful of names per domain this reused each name every
    # few weeks for different events.
    from datetime import date as day

    from synthetic.generate import NAME_GAP_DAYS

    generate(articles=400, events=400, seed=3, out=tmp_path)
    events = [json.loads(line) for line in (tmp_path / "truth" / "events.jsonl").open()]
    by_name: dict[str, list[day]] = {}
    for e in events:
        by_name.setdefault(e["name"], []).append(day.fromisoformat(e["anchor_date"]))
    closest = min(
        (b - a).days
        for anchors in by_name.values()
        for a, b in zip(sorted(anchors), sorted(anchors)[1:], strict=False)
    )
    assert len(by_name) > 300
    assert closest > NAME_GAP_DAYS


def test_an_events_trap_quantities_come_together(tmp_path: Path):
    """A domain's traps (two quantities one noun or unit would merge: gusts and sustained
    winds in mph, federal and state relief funds, landfall and the emergency's dates) are
    planted in pairs, so the scale corpus holds both wherever it holds one."""
    generate(articles=400, events=40, seed=5, out=tmp_path)
    events = [json.loads(line) for line in (tmp_path / "truth" / "events.jsonl").open()]
    traps = {d.key: d.traps for d in V.DOMAINS}
    planted = 0
    for event in events:
        keys = {m.split(":", 1)[1] for m in event["measures"]}
        for a, b in traps[event["domain"]]:
            assert (a in keys) == (b in keys), (event["event"], a, b)
            planted += a in keys
    assert planted > 0
