"""The BASIL development set's plumbing: rebuild layout, label loader/locator, matching.

Every article and label here is invented for the test; none is BASIL text.
"""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest

from evaluation.basil import labels as lb
from evaluation.basil import rebuild as rb
from evaluation.basil import score as sc

BODY = (
    "Harbor Town Ferry Adds Routes\n\n"
    "The ferry company said on Tuesday that it hired 40 new deckhands and spent "
    "$2.5 million on two boats.\n\n"
    "Service starts in June, a spokeswoman said. The two boats seat 300 people."
)

LABEL_YAML = """
event: 00000000-0000-4000-8000-000000000001
articles:
  - outlet: fox
    file: 00000000-0000-4000-8000-000000000001_fox.txt
    published_at: 2024-05-16
    facts:
      - text: Tuesday
        context: said on Tuesday that
        kind: date
        value: 2024-05-14
        counted: date of the announcement
        attribution: null
        granularity: day
        resolution: relative
      - text: "40"
        context: hired 40 new deckhands
        kind: count
        value: 40
        counted: deckhands hired
        attribution: The ferry company
      - text: $2.5 million
        context: spent $2.5 million on
        kind: money
        value: 2500000
        unit: USD
        counted: spending on boats
      - text: two
        context: on two boats
        kind: count
        value: 2
        counted: boats bought
      - text: June
        context: starts in June,
        kind: date
        value: 2024-06
        counted: date service starts
        granularity: month
        resolution: stated
      - text: "300"
        context: seat 300 people
        kind: count
        value: 300
        counted: seats per boat
conflicts:
  - counted: deckhands hired
    values: {fox: "40", nyt: "about 40"}
"""


def claim(start, end, kind="count", value=None, date_start=None, date_end=None, **kw):
    base = dict(
        char_start=start,
        char_end=end,
        claim_text=BODY[start:end],
        kind=kind,
        value=value,
        lower=kw.pop("lower", value),
        upper=kw.pop("upper", value),
        qualifier=kw.pop("qualifier", "exact"),
        date_start=date_start,
        date_end=date_end,
        sentence="",
    )
    base.update(kw)
    return SimpleNamespace(**base)


def span(text, after=0):
    start = BODY.index(text, after)
    return start, start + len(text)


@pytest.fixture
def event(tmp_path):
    path = tmp_path / "00000000-0000-4000-8000-000000000001.yaml"
    path.write_text(LABEL_YAML, encoding="utf-8")
    return lb.load_event(path)


# --- rebuild ---------------------------------------------------------------------------------


def test_article_text_joins_sentences_and_paragraphs():
    text = rb.article_text(
        "  A  Title ", [["First  sentence. ", "Second one."], [], ["", "Next\nparagraph."]]
    )
    assert text == "A Title\n\nFirst sentence. Second one.\n\nNext paragraph."
    assert text == rb.normalize_body(text)


def test_held_out_events_are_refused_by_id_and_date():
    held = next(iter(rb.HELD_OUT_EVENTS))
    assert rb.is_held_out(held)
    assert rb.is_held_out("some-other-event", "2019-02-15")
    assert not rb.is_held_out("some-other-event", "2019-02-16")


def _write_article(root, year, event, n, source, date, title="T", paragraphs=(("S.",),)):
    folder = root / "articles" / str(year)
    folder.mkdir(parents=True, exist_ok=True)
    data = {
        "title": title,
        "date": date,
        "source": source,
        "triplet-uuid": event,
        "url": "http://example.org/a",
        "body-paragraphs": [list(p) for p in paragraphs],
    }
    (folder / f"{event}_{n}.json").write_text(json.dumps(data), encoding="utf-8")


def test_rebuild_writes_texts_and_sidecars_and_never_reads_held_out(tmp_path):
    repo = tmp_path / "basil"
    ev = "11111111-1111-4111-8111-111111111111"
    _write_article(repo, 2020, ev, 1, "FOX", "2020-03-04", "Ferry news", [["One.", "Two."]])
    _write_article(repo, 2020, ev, 2, "nyt", "2020-03-05")
    held = next(iter(rb.HELD_OUT_EVENTS))
    folder = repo / "articles" / "2013"
    folder.mkdir(parents=True)
    (folder / f"{held}_1.json").write_text("not json: must never be opened", encoding="utf-8")
    # an event on a held-out date is skipped even under an unknown id
    _write_article(repo, 2015, "22222222-2222-4222-8222-222222222222", 1, "hpo", "2015-07-31")

    articles = rb.load_articles(repo)
    assert [(a.event_id, a.outlet_key) for a in articles] == [(ev, "fox"), (ev, "nyt")]
    out = tmp_path / "out"
    rb.write_articles(articles, out)
    assert (out / f"{ev}_fox.txt").read_text(encoding="utf-8") == "Ferry news\n\nOne. Two.\n"
    meta = json.loads((out / f"{ev}_fox.json").read_text(encoding="utf-8"))
    assert meta == {
        "outlet": "Fox News",
        "title": "Ferry news",
        "published_at": "2020-03-04",
        "url": "http://example.org/a",
    }
    with pytest.raises(PermissionError):
        rb.load_articles(repo, [held])


# --- labels ----------------------------------------------------------------------------------


def test_load_event_keeps_dates_as_iso_text(event):
    article = event.articles[0]
    assert article.published_at == "2024-05-16"
    tuesday, june = article.facts[0], article.facts[4]
    assert tuesday.value == "2024-05-14" and tuesday.date_range() == ("2024-05-14", "2024-05-14")
    assert june.value == "2024-06" and june.date_range() == ("2024-06-01", "2024-06-30")
    assert event.conflicts[0]["values"]["nyt"] == "about 40"


def test_year_value_and_bounds_give_whole_year():
    fact = lb.Fact(text="x", context="x y", kind="date", lower="2000", upper="2006")
    assert fact.date_range() == ("2000-01-01", "2006-12-31")


def test_locate_places_text_inside_unique_context(event):
    article = event.articles[0]
    assert lb.locate_all(article, BODY) == []
    two_boats = article.facts[3]
    assert (two_boats.start, two_boats.end) == span("two", BODY.index("on two boats"))
    assert BODY[two_boats.start : two_boats.end] == "two"


def test_locate_rejects_ambiguous_context_and_text():
    repeated = lb.Fact(text="two", context="two boats", kind="count", value=2)
    with pytest.raises(lb.LabelError, match="occurs 2 times"):
        lb.locate(repeated, BODY)
    missing = lb.Fact(text="3", context="three boats", kind="count", value=3)
    with pytest.raises(lb.LabelError, match="occurs 0 times"):
        lb.locate(missing, BODY)
    double = lb.Fact(text="o", context="on two boats", kind="count", value=2)
    with pytest.raises(lb.LabelError, match="in context"):
        lb.locate(double, BODY)


def test_bad_labels_are_refused(tmp_path):
    path = tmp_path / "e.yaml"
    path.write_text(
        "event: e\narticles:\n  - outlet: fox\n    facts:\n"
        "      - {text: June, context: in June, kind: date, value: June 2024,"
        " granularity: month, resolution: stated}\n",
        encoding="utf-8",
    )
    with pytest.raises(lb.LabelError, match="not ISO"):
        lb.load_event(path)
    path.write_text(
        "event: e\narticles:\n  - outlet: cnn\n    facts: []\n",
        encoding="utf-8",
    )
    with pytest.raises(lb.LabelError, match="outlet"):
        lb.load_event(path)


def test_check_event_reports_conflict_value_missing_from_text(event):
    bodies = {event.articles[0].stem: BODY}
    problems = lb.check_event(event, bodies)
    assert problems == []  # nyt has no text here, so its value is not checked
    event.conflicts[0]["values"]["fox"] = "41"
    assert any("41" in p for p in lb.check_event(event, bodies))


def test_word_number_and_range_classes():
    words = lb.Fact(text="two", context="on two boats", kind="count", value=2)
    rng = lb.Fact(
        text="5 to 7", context="from 5 to 7", kind="count", lower=5, upper=7, qualifier="range"
    )
    assert words.has_word_number and not rng.has_word_number
    assert rng.is_range and not words.is_range


# --- matching --------------------------------------------------------------------------------


def test_match_article_counts_found_missed_and_false_claims(event):
    article = event.articles[0]
    lb.locate_all(article, BODY)
    claims = [
        claim(*span("Tuesday"), kind="date", date_start="2024-05-07", date_end="2024-05-07"),
        claim(*span("40 new deckhands"), value=40.0),
        claim(*span("$2.5 million"), kind="money", value=2_500_000.0),
        claim(*span("June"), kind="date", date_start="2024-06-01", date_end="2024-06-30"),
        claim(*span("300 people"), value=30.0),
        claim(*span("spokeswoman"), value=1.0),  # overlaps no labelled fact
    ]
    results, unmatched = sc.match_article(event.event, article, BODY, claims)
    by_text = {r.fact.text: r for r in results}
    assert [c.claim_text for c in unmatched] == ["spokeswoman"]
    assert not by_text["two"].found  # the first "two boats" was never claimed
    assert by_text["40"].found and by_text["40"].value_ok
    assert by_text["$2.5 million"].value_ok
    assert by_text["Tuesday"].found and by_text["Tuesday"].right_day is False
    assert by_text["June"].value_ok and by_text["June"].right_day is None  # month granularity
    assert by_text["300"].value_ok is False

    summary = sc.summarize(results, len(claims), len(unmatched))
    assert summary["facts"] == 6 and summary["found"] == 5
    assert summary["precision"] == pytest.approx(5 / 6)
    assert summary["dates_right_day"] == 0.0
    classes = sc.by_class(results)
    assert classes["word number"] == {
        "facts": 1,
        "found": 0,
        "recall": 0.0,
        "value_accuracy": None,
    }


def test_best_claim_prefers_compatible_kind(event):
    article = event.articles[0]
    lb.locate_all(article, BODY)
    tuesday = span("Tuesday")
    claims = [
        claim(tuesday[0], tuesday[1], kind="count", value=2.0),
        claim(*tuesday, kind="date", date_start="2024-05-14", date_end="2024-05-14"),
    ]
    results, _ = sc.match_article(event.event, article, BODY, claims)
    result = next(r for r in results if r.fact.text == "Tuesday")
    assert result.best.kind == "date" and result.right_day and result.kind_ok


def test_vague_and_ratio_values():
    dozens = lb.Fact(
        text="dozens", context="c", kind="count", lower=24, upper=119, qualifier="vague"
    )
    assert sc.value_matches(dozens, claim(0, 1, value=None, lower=24.0, upper=99.0))
    ratio = lb.Fact(text="1-in-3", context="c", kind="ratio", value=0.3333)
    assert sc.value_matches(ratio, claim(0, 1, kind="ratio", value=0.333))
    assert not sc.value_matches(ratio, claim(0, 1, value=1.0))


def test_score_runs_the_extractor_on_an_invented_article(event):
    report = sc.score([event], {event.articles[0].stem: BODY})
    data = sc.build(report)
    assert data["label_problems"] == []
    assert data["overall"]["facts"] == 6
    assert 0 <= data["overall"]["recall"] <= 1
    assert sc.render(data).startswith("BASIL development set: 1 events")
