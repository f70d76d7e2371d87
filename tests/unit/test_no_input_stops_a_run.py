"""No single input can stop a run: the parsers and the extractor turn what breaks them into a
reject or a logged error, never an exception; extraction stays linear in the text's length."""

from __future__ import annotations

import time

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lake.bronze.parse import parse_file
from lake.silver.extract import ExtractionTimeout, extract_claims
from lake.silver.publish import Budget, article_rows
from lake.silver.sentences import MAX_SENTENCE_CHARS, split_sentences

BODY = b"Officials said 40 people were hurt.\n"


def test_a_number_of_hundreds_of_digits_is_no_claim_and_no_error():
    claims = extract_claims("a", "The budget was " + "9" * 400 + " dollars, up from $3 million.")
    assert [(c.claim_text, c.value) for c in claims] == [("$3 million", 3_000_000.0)]


def test_a_published_line_at_the_calendar_edge_leaves_the_date_unknown():
    parsed = parse_file("a.txt", b"Published: 9999-12-31T23:59:59-14:00\n\nOfficials said 40.")
    assert parsed.reason is None
    assert parsed.published_at is None


def test_a_sidecar_nested_a_thousand_levels_deep_rejects_its_article_with_the_reason():
    parsed = parse_file("a.txt", BODY, "a.json", b"[" * 5000 + b"]" * 5000)
    assert parsed.body is None
    assert parsed.reason == "sidecar a.json is nested too deeply to be metadata: fix or remove it"


def test_a_sidecar_with_a_five_thousand_digit_integer_rejects_its_article():
    parsed = parse_file("a.txt", BODY, "a.json", b'{"outlet": ' + b"9" * 5000 + b"}")
    assert parsed.body is None
    assert parsed.reason.startswith("sidecar a.json is not usable JSON (Exceeds the limit")


def test_a_sidecar_holding_a_lone_surrogate_is_rejected_before_arrow_sees_it():
    parsed = parse_file("a.txt", BODY, "a.json", b'{"outlet": "The \\ud800 Times"}')
    assert parsed.body is None
    assert parsed.reason == (
        "sidecar a.json: outlet holds an unpaired surrogate escape (such as \\ud800), "
        "which is not text: fix the value"
    )


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(raw=st.binary(max_size=600), sidecar=st.one_of(st.none(), st.binary(max_size=200)))
def test_parse_file_never_raises_on_arbitrary_bytes(raw, sidecar):
    parsed = parse_file("a.txt", raw, "a.json", sidecar)
    assert (parsed.reason is None) == (parsed.body is not None)
    if parsed.body is not None:
        assert parsed.body.encode("utf-8")  # every field Arrow will serialize is real text
        for field in (parsed.outlet, parsed.title, parsed.url):
            assert field is None or field.encode("utf-8")


_NEWSY = st.lists(
    st.sampled_from(
        [
            "about",
            "3,000",
            "$4.5 million",
            "12%",
            "on Tuesday",
            "May 20",
            "2024",
            "said",
            "according to",
            "officials",
            "Reuters",
            "more than",
            "up to",
            "twenty-one",
            "a dozen",
            "people",
            ".",
            ",",
            "“",
            "”",
            "\n",
            "(",
            ")",
            "-",
            "1",
            "99999999999999999999",
        ]
    ),
    max_size=80,
).map(" ".join)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.one_of(st.text(max_size=400), _NEWSY))
def test_extract_claims_never_raises_and_every_span_lies_inside_the_text(text):
    for c in extract_claims("a", text):
        assert 0 <= c.char_start < c.char_end <= len(text)
        assert text[c.char_start : c.char_end] == c.claim_text
        assert c.sentence in text


def test_a_sentence_without_punctuation_is_cut_into_bounded_pieces_at_spaces():
    text = " ".join(["word"] * 2000)  # 9,999 characters, no full stop
    pieces = split_sentences(text)
    assert all(len(s.text) <= MAX_SENTENCE_CHARS for s in pieces)
    assert [text[s.start : s.end] for s in pieces] == [s.text for s in pieces]
    assert " ".join(s.text for s in pieces) == text


def _seconds(text: str) -> float:
    started = time.perf_counter()
    extract_claims("a", text)
    return time.perf_counter() - started


def test_extraction_time_grows_linearly_with_a_run_of_numbers():
    """Each mention looks at a bounded window, so 8x the text costs about 8x the time (it
    cost 64x when every mention re-scanned its whole sentence)."""
    small, large = _seconds("1 " * 1_000), _seconds("1 " * 8_000)
    assert large < 8 * small * 2.5


def test_an_article_past_its_deadline_raises_between_sentences():
    try:
        extract_claims("a", "About 40 people came. " * 2_000, deadline=time.monotonic() - 1)
    except ExtractionTimeout as timeout:
        assert str(timeout) == (
            "extraction ran past its time budget at sentence 1 of 2000 (character 0 of 44000)"
        )
    else:
        raise AssertionError("no ExtractionTimeout")


def test_an_article_over_its_budget_becomes_one_row_naming_the_error():
    rows = article_rows("art-1", "About 40 people came. " * 2_000, None, None, Budget(0.0))
    assert [{k: v for k, v in r.items() if v is not None} for r in rows] == [
        {
            "article_id": "art-1",
            "extraction_error": "extraction ran past its time budget at sentence 1 of 2000 "
            "(character 0 of 44000) (0.0 s for 44,000 characters)",
        }
    ]


def test_an_article_within_its_budget_gives_its_claims_with_their_rules():
    rows = article_rows("art-1", "About 40 people came.", None, None, Budget(5.0))
    assert [(r["claim_text"], r["value"], r["rules_broken"]) for r in rows] == [
        ("About 40 people", 40.0, [])
    ]


def test_an_article_over_its_claim_budget_has_every_claim_quarantined_with_the_count():
    body = "About 40 people came. Some 12 cars stayed. Nearly 9 buses left."
    within = article_rows("art-1", body, None, None, Budget(5.0, claims=3))
    assert [r["rules_broken"] for r in within] == [[], [], []]
    rows = article_rows("art-1", body, None, None, Budget(5.0, claims=2))
    assert [(r["claim_text"], r["rules_broken"]) for r in rows] == [
        (
            text,
            [
                "claims_per_article: the article has 3 claims, over the budget of 2 "
                "(CLAIMHOUSE_MAX_CLAIMS_PER_ARTICLE); none is reconciled"
            ],
        )
        for text in ("About 40 people", "Some 12 cars", "Nearly 9 buses")
    ]
