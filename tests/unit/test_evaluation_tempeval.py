"""The TempEval-3 scorer's TimeML reading, normalization and matching, on hand-written input."""

from __future__ import annotations

from datetime import date

import pytest

from evaluation.tempeval import (
    Prediction,
    Timex,
    parse_timeml,
    relaxed_pairs,
    score,
    strict_matches,
    timex_class,
    to_timex_value,
)

SNIPPET = (
    '<DCT><TIMEX3 tid="t0" type="DATE" value="2001-03-14" functionInDocument="CREATION_TIME"/>'
    "</DCT>\n"
    '<TEXT>Smith &amp; Co said <TIMEX3 tid="t1" type="DATE" value="2001-03-13">yesterday</TIMEX3>'
    ' it <EVENT eid="e1">grew</EVENT>.\nIt opened in <TIMEX3 tid="t2" type="DATE" value="1990">'
    '1990</TIMEX3> and ran for <TIMEX3 tid="t3" type="DURATION" value="P2Y">two years</TIMEX3>.'
    "</TEXT>"
)


def test_text_offsets_and_creation_time():
    doc = parse_timeml(SNIPPET, "d1")
    assert doc.dct == date(2001, 3, 14)
    assert doc.text.startswith("Smith & Co said yesterday")  # entity unescaped, tags gone
    assert [(t.type, t.value, t.text) for t in doc.timexes] == [
        ("DATE", "2001-03-13", "yesterday"),
        ("DATE", "1990", "1990"),
        ("DURATION", "P2Y", "two years"),
    ]
    assert all(doc.text[t.start : t.end] == t.text for t in doc.timexes)


@pytest.mark.parametrize(
    "start, end, expected",
    [
        ("2001-03-13", "2001-03-13", "2001-03-13"),
        ("2001-03-01", "2001-03-31", "2001-03"),
        ("2001-03-01", "2001-03-10", "2001-03"),  # "early March": TimeML puts early in mod
        ("2000-01-01", "2000-12-31", "2000"),
        ("1990-01-01", "1999-12-31", "199X"),  # a decade
        ("2001-03-05", "2001-03-11", "2001-W10"),  # Monday to Sunday
        ("2001-04-01", "2001-06-30", "2001-Q2"),
        ("--05-20", "--05-20", "XXXX-05-20"),
        ("--05-01", "--05-31", "XXXX-05"),
        ("2001-03-20", "2001-04-10", "2001-03-20/2001-04-10"),
        (None, None, None),
    ],
)
def test_claim_dates_in_timex_form(start, end, expected):
    assert to_timex_value(start, end) == expected


def test_strict_and_relaxed_matching():
    gold = [Timex("t1", "DATE", "2001-03-13", 10, 19, ""), Timex("t2", "DATE", "1990", 30, 34, "")]
    pred = [
        Prediction(10, 19, "", None),
        Prediction(28, 32, "", None),
        Prediction(50, 55, "", None),
    ]
    assert strict_matches(gold, pred) == 1
    assert [(g.tid, p.start) for g, p in relaxed_pairs(gold, pred)] == [("t1", 10), ("t2", 28)]


def test_one_prediction_matches_one_gold_timex():
    gold = [Timex("a", "DATE", "", 0, 5, ""), Timex("b", "DATE", "", 6, 12, "")]
    pred = [Prediction(0, 12, "", None)]
    assert len(relaxed_pairs(gold, pred)) == 1


@pytest.mark.parametrize(
    "surface, value, expected",
    [
        ("yesterday", "2001-03-13", "relative day"),
        ("Friday", "2001-03-09", "weekday"),
        ("last week", "2001-W09", "relative period"),
        ("March", "2001-03", "month without year"),
        ("March 9", "2001-03-09", "full explicit date"),
        ("the third quarter", "2001-Q3", "season / quarter"),
        ("1990", "1990", "year only"),
        ("now", "PRESENT_REF", "vague reference"),
        ("10 a.m.", "2001-03-13T10:00", "time of day"),
    ],
)
def test_timex_classes(surface, value, expected):
    assert timex_class(surface, value, "DATE").startswith(expected)


def test_scoring_a_written_document():
    result = score([parse_timeml(SNIPPET, "d1")])
    assert result["n_gold_date_time"] == 2  # the DURATION is not gold here
    assert result["counts"]["relaxed"] == 2  # "yesterday" and the year
    assert result["counts"]["value_correct"] == 2  # 1998-02-12 and 1990
    assert result["missed_by_class"] == {}


def test_a_time_next_to_a_date_is_one_timex_and_a_time_alone_has_no_value():
    from evaluation.tempeval import claim_predictions

    doc = parse_timeml(
        '<DCT><TIMEX3 tid="t0" type="DATE" value="2000-04-07" functionInDocument="CREATION_TIME"/>'
        "</DCT>\n<TEXT>The blast came at 4 a.m. EDT Thursday. Police arrived at 9:15 p.m.</TEXT>",
        "d2",
    )
    assert [(p.text, p.value) for p in claim_predictions(doc)] == [
        ("4 a.m. EDT Thursday", "2000-04-06T04:00"),
        ("9:15 p.m.", None),
    ]
