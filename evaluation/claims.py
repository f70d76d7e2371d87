"""Score extracted claims against hand labels: precision, recall, attribution accuracy.

    python -m evaluation.claims tests/fixtures/seed_claims.yaml seeds/
    python -m evaluation.claims --corpus DIR     # a synthetic corpus (held-out)

A prediction matches a label of the same article when their spans overlap and their values
agree (numbers equal; dates with the same value_text when the label has one; vague amounts
by span alone). Each label matches at most one prediction.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import yaml

from lake.bronze.parse import normalize_body
from lake.silver.extract import extract_claims


def _overlap(a_start: int, a_end: int, b_start: int, b_end: int) -> bool:
    return a_start < b_end and b_start < a_end


def _values_agree(pred: dict, label: dict) -> bool:
    if label.get("value") is not None:
        return pred.get("value") is not None and abs(pred["value"] - label["value"]) < 1e-6
    if label.get("kind") == "date":
        if pred.get("kind") != "date":
            return False
        # A date range may be written "--05" or "--05-11/--05-20": compare its bounds.
        if label.get("lower") or label.get("upper"):
            return (pred.get("date_start"), pred.get("date_end")) == (
                label.get("lower"),
                label.get("upper"),
            )
        return not label.get("value_text") or pred.get("value_text") == label["value_text"]
    if label.get("qualifier") == "range":
        return (pred.get("lower"), pred.get("upper")) == (label.get("lower"), label.get("upper"))
    return pred.get("value") is None


def score(predicted: dict[str, list[dict]], labels: dict[str, list[dict]]) -> dict:
    """predicted/labels: article name -> claims with char_start, char_end, value, kind..."""
    matched, attribution_ok, misses, extras = 0, 0, [], []
    n_pred = sum(len(v) for v in predicted.values())
    n_label = sum(len(v) for v in labels.values())
    for article, gold in labels.items():
        free = list(predicted.get(article, []))
        for label in gold:
            start = label["start"]
            end = start + len(label["text"])
            hit = next(
                (
                    p
                    for p in free
                    if _overlap(p["char_start"], p["char_end"], start, end)
                    and _values_agree(p, label)
                ),
                None,
            )
            if hit is None:
                misses.append(
                    f"{article}: {label['text']!r} ({label['kind']}, {label.get('value')})"
                )
                continue
            free.remove(hit)
            matched += 1
            if hit["attribution_kind"] == label.get("attribution_kind"):
                attribution_ok += 1
            else:
                misses.append(
                    f"{article}: {label['text']!r} attribution {hit['attribution_kind']} "
                    f"!= {label.get('attribution_kind')}"
                )
        extras += [f"{article}: {p['claim_text']!r} ({p['kind']}, {p['value']})" for p in free]
    for article in set(predicted) - set(labels):
        extras += [f"{article}: {p['claim_text']!r}" for p in predicted[article]]
    precision = matched / n_pred if n_pred else 0.0
    recall = matched / n_label if n_label else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {
        "labels": n_label,
        "predicted": n_pred,
        "matched": matched,
        "precision": round(precision, 3),
        "recall": round(recall, 3),
        "f1": round(f1, 3),
        "attribution_accuracy": round(attribution_ok / matched, 3) if matched else 0.0,
        "misses": misses,
        "extras": extras,
    }


def score_folder(labels_path: Path, articles_dir: Path) -> dict:
    labels = yaml.safe_load(labels_path.read_text(encoding="utf-8"))["articles"]
    predicted = {}
    for name in labels:
        body = normalize_body((articles_dir / name).read_text(encoding="utf-8"))
        predicted[name] = [c.as_row() for c in extract_claims(name, body)]
    return score(predicted, labels)


def score_sentences(jsonl_path: Path) -> dict:
    """Value precision/recall of numbers (not dates) on labelled sentences, one per line:
    {"sentence": ..., "mentions": [{"text", "start", "value", "kind"}]}."""
    labels, predicted = {}, {}
    for n, line in enumerate(jsonl_path.read_text(encoding="utf-8").splitlines()):
        case = json.loads(line)
        if "sentence" not in case:
            continue  # the header line
        key = f"{n}: {case['sentence'][:60]}"
        labels[key] = [{**m, "attribution_kind": None} for m in case["mentions"]]
        claims = extract_claims(str(n), case["sentence"])
        predicted[key] = [c.as_row() for c in claims if c.kind != "date"]
    result = score(predicted, labels)
    result.pop("attribution_accuracy")
    result["misses"] = [m for m in result["misses"] if " attribution " not in m]
    return result


def load_truth(corpus_dir: Path) -> dict[str, list[dict]]:
    """A synthetic corpus's planted claims (truth/claims.jsonl) by article file, as labels.
    A vague date ("mid-May" = "2025-05") matches by span alone."""
    truth: dict[str, list[dict]] = {}
    for line in (corpus_dir / "truth" / "claims.jsonl").read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        vague_date = row["kind"] == "date" and len(row["value_text"] or "") < 10
        truth.setdefault(row["article_file"], []).append(
            {
                "start": row["char_start"],
                "text": row["claim_text"],
                "kind": row["kind"],
                "value": row["value"],
                "value_text": None if vague_date else row["value_text"],
                "attribution_kind": row["attribution_kind"],
            }
        )
    return truth


def score_corpus(corpus_dir: Path, limit: int | None = None) -> dict:
    """Score against a synthetic corpus's ground truth (synthetic: truth/claims.jsonl).

    The corpus's vocabulary was written apart from the extractor's lexicon, so this is a
    held-out measure. A vague date ("mid-May" = "2025-05") matches by span alone.
    """
    from datetime import datetime

    truth = load_truth(corpus_dir)
    files = sorted((corpus_dir / "articles").rglob("*.txt"))[:limit]
    predicted, labels = {}, {}
    for path in files:
        name = path.relative_to(corpus_dir / "articles").as_posix()
        sidecar = json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))
        published = datetime.fromisoformat(sidecar["published_at"].replace("Z", "+00:00"))
        body = normalize_body(path.read_text(encoding="utf-8"))
        claims = extract_claims(name, body, published, sidecar.get("outlet"))
        predicted[name] = [c.as_row() for c in claims]
        labels[name] = truth.get(name, [])
    result = score(predicted, labels)
    result["articles"] = len(files)
    result["misses"] = result["misses"][:40]
    result["extras"] = result["extras"][:40]
    return result


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m evaluation.claims",
        description="Score the extractor against hand labels or a synthetic corpus; prints JSON.",
    )
    parser.add_argument(
        "labels",
        nargs="?",
        default="tests/fixtures/seed_claims.yaml",
        help="YAML labels, or a .jsonl file of labelled sentences",
    )
    parser.add_argument("folder", nargs="?", default="seeds", help="the labelled articles")
    parser.add_argument("--corpus", type=Path, help="a `claimhouse generate` folder instead")
    args = parser.parse_args(argv)
    if args.corpus:
        result = score_corpus(args.corpus)
    elif args.labels.endswith(".jsonl"):
        result = score_sentences(Path(args.labels))
    else:
        result = score_folder(Path(args.labels), Path(args.folder))
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
