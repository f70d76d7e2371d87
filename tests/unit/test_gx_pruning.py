"""GE's store keeps each table's newest validation results, with their Data Docs pages."""

from __future__ import annotations

from pathlib import Path

from lake.contracts.run import prune_results

TIMES = [
    "20261128T230000.000001Z",
    "20261129T010000.5Z",
    "20261129T045727.1Z",
    "20261129T050348.7Z",
]


def _result(root: Path, table: str, run: str, time: str) -> tuple[Path, Path]:
    parts = table.split(".")
    json_path = root.joinpath("uncommitted", "validations", *parts, run, time, f"lake-{table}.json")
    html_path = root.joinpath(
        "uncommitted",
        "data_docs",
        "local_site",
        "validations",
        *parts,
        run,
        time,
        f"lake-{table}.html",
    )
    for path in (json_path, html_path):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("{}")
    return json_path, html_path


def test_the_newest_results_of_a_table_stay_and_the_rest_go_with_their_pages(tmp_path):
    # Run names do not sort by time (a run id's random tail); the run time does.
    runs = ["r-zz", "r-aa", "r-mm", "r-bb"]
    made = [_result(tmp_path, "gold.facts", run, t) for run, t in zip(runs, TIMES, strict=True)]
    other = _result(tmp_path, "bronze.articles", "r-aa", TIMES[0])

    assert prune_results(tmp_path, "gold.facts", keep=2) == 2

    kept = [all(p.exists() for p in pair) for pair in made]
    assert kept == [False, False, True, True]
    assert not any(p.parent.parent.exists() for pair in made[:2] for p in pair)
    assert all(p.exists() for p in other)
    assert prune_results(tmp_path, "gold.facts", keep=2) == 0


def test_two_results_of_one_run_share_its_folder(tmp_path):
    older = _result(tmp_path, "silver.claims", "r-1", TIMES[0])
    newer = _result(tmp_path, "silver.claims", "r-1", TIMES[1])
    assert prune_results(tmp_path, "silver.claims", keep=1) == 1
    assert not older[0].exists() and newer[0].exists() and newer[0].parent.parent.exists()
