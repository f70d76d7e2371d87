"""The `claimhouse` command: exit codes, messages and output formats."""

from __future__ import annotations

import json
import socket
import time
from pathlib import Path

import pytest
from pyspark.sql import functions as F
from typer.testing import CliRunner

from claimhouse.cli import app
from lake.bronze.ingest import ingest
from lake.storage import Lake

from ..conftest import SEEDS, claimhouse, contracts_with_strict_attribution

runner = CliRunner()


# Argument errors are caught before Spark starts: these run in well under a second each.
def test_help_lists_commands():
    done = claimhouse("--help")
    assert done.returncode == 0
    for command in ("run", "sql", "history", "serve-sql", "generate", "engine"):
        assert command in done.stdout


def test_unknown_option_is_a_usage_error():
    done = claimhouse("run", "--bogus")
    assert done.returncode == 2
    assert "No such option: --bogus" in done.stderr


def test_missing_input_folder(tmp_path):
    done = claimhouse("run", "--input", str(tmp_path / "nope"), "--warehouse", str(tmp_path))
    assert done.returncode == 2
    assert f"input folder {tmp_path / 'nope'} does not exist: pass --input DIR" in " ".join(
        done.stderr.split()
    )
    assert "Traceback" not in done.stderr


def test_an_input_that_is_a_file_is_named_as_such(tmp_path):
    (tmp_path / "a.txt").write_text("Officials said 40 people came.")
    done = claimhouse("run", "--input", str(tmp_path / "a.txt"), "--warehouse", str(tmp_path))
    assert done.returncode == 2
    assert done.stderr.strip() == (
        f"error: input {tmp_path / 'a.txt'} is a file, not a folder: pass the folder that "
        "holds the articles with --input DIR"
    )


def test_a_master_url_spark_cannot_use_is_one_line_before_java_starts(tmp_path):
    done = claimhouse("run", "--master", "bogus://x", "--warehouse", str(tmp_path / "wh"))
    assert done.returncode == 2
    assert done.stderr.strip() == (
        "error: --master 'bogus://x' is not a Spark master URL: local[*], local[N] or "
        "spark://host:7077: fix it"
    )
    assert not (tmp_path / "wh").exists()


def test_a_warehouse_that_is_a_file_is_named_as_such(tmp_path):
    (tmp_path / "lake").write_text("")
    done = claimhouse("sql", "SELECT 1", "--warehouse", str(tmp_path / "lake"))
    assert done.returncode == 2
    assert " ".join(done.stderr.split()) == (
        f"error: the warehouse {tmp_path / 'lake'} is a file, not a folder: pass a folder (it "
        "is created if missing) with --warehouse DIR or CLAIMHOUSE_WAREHOUSE"
    )


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_an_unreachable_sql_endpoint_is_one_line_and_an_environment_error():
    port = _closed_port()
    done = claimhouse(
        "sql",
        "SELECT 1",
        "--server",
        f"127.0.0.1:{port}",
        "--user",
        "ana",
        env_extra={"CLAIMHOUSE_SQL_PASSWORD": "secret"},
    )
    assert done.returncode == 3
    assert done.stderr.strip() == (
        f"error: cannot connect to 127.0.0.1:{port}: Could not connect to any of "
        f"[('127.0.0.1', {port})]. Is serve-sql running?"
    )


def test_an_unreachable_spark_master_is_one_line_in_seconds(tmp_path):
    port = _closed_port()
    started = time.monotonic()
    done = claimhouse(
        "sql", "SELECT 1", "--master", f"spark://127.0.0.1:{port}", "--warehouse", str(tmp_path)
    )
    assert done.returncode == 3
    assert done.stderr.strip() == (
        f"error: cannot reach the Spark master spark://127.0.0.1:{port} "
        f"(127.0.0.1:{port}: Connection refused): start it, or pass --master local[*]"
    )
    assert time.monotonic() - started < 15


def test_no_password_and_no_terminal_to_ask_on_is_a_usage_error():
    done = claimhouse("sql", "SELECT 1", "--server", "127.0.0.1:10000", "--user", "ana")
    assert done.returncode == 2
    assert done.stderr.strip() == (
        "error: no password for 'ana' and no terminal to ask for it on: set CLAIMHOUSE_SQL_PASSWORD"
    )


def test_history_needs_a_qualified_name():
    done = claimhouse("history", "articles")
    assert done.returncode == 2
    assert "table names are '<layer>.<table>'" in done.stderr


@pytest.fixture(scope="module")
def populated(spark, tmp_path_factory):
    """One ingested warehouse shared by the read-only CLI tests below."""
    from lake.storage import Lake

    warehouse = tmp_path_factory.mktemp("cli") / "warehouse"
    ingest(spark, Lake(spark, warehouse), SEEDS, "r1", 5 * 1024 * 1024, validate=False)
    return warehouse


# In-process: the CLI reuses the test session's Spark (get_spark returns the active one).
def test_sql_json_output(populated):
    result = runner.invoke(
        app,
        [
            "sql",
            "SELECT source_uri, outlet FROM bronze.articles WHERE outlet IS NOT NULL "
            "ORDER BY source_uri",
            "--format",
            "json",
            "--warehouse",
            str(populated),
        ],
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == [
        {"source_uri": "000_60622ccef9644d1f.txt", "outlet": "Daily Beast"},
        {"source_uri": "002_51ff2334b7afe473.txt", "outlet": "Latin Times"},
    ]


def test_sql_csv_output_and_limit(populated):
    query = "SELECT char_count FROM bronze.articles ORDER BY char_count"
    result = runner.invoke(
        app, ["sql", query, "--format", "csv", "--limit", "2", "--warehouse", str(populated)]
    )
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == ["char_count", "2652", "2726"]
    assert "showing the first 2 rows" in result.stderr


def test_sql_unknown_table(populated):
    result = runner.invoke(app, ["sql", "SELECT * FROM gold.nope", "--warehouse", str(populated)])
    assert result.exit_code == 2
    assert "TABLE_OR_VIEW_NOT_FOUND" in result.stderr
    assert "bronze.articles, bronze.ingest_log, bronze.rejects" in result.stderr


def test_sql_syntax_error(populated):
    result = runner.invoke(app, ["sql", "SELEC 1", "--warehouse", str(populated)])
    assert result.exit_code == 2
    assert result.stderr.startswith("error: SQL syntax:")


def test_history_json(populated):
    result = runner.invoke(
        app, ["history", "bronze.articles", "--format", "json", "--warehouse", str(populated)]
    )
    assert result.exit_code == 0, result.output
    history = json.loads(result.stdout)
    assert [(h["version"], h["operation"], h["rows_written"]) for h in history] == [
        (0, "CREATE TABLE", None),
        (1, "MERGE", "5"),
    ]


def test_history_of_missing_table(populated):
    result = runner.invoke(app, ["history", "gold.facts", "--warehouse", str(populated)])
    assert result.exit_code == 2  # usage: a table that is not there
    assert "no Delta table gold.facts" in result.stderr


@pytest.mark.slow
def test_run_end_to_end_twice(spark, cli_run, hosted_engine):
    """The real console script in its own JVM: exit code 0, counts printed. The rerun is the
    same command with the warm engine up (served by this test's Spark session, which never saw
    the warehouse: everything it knows comes from disk): it runs there and prints here."""
    warehouse, first = cli_run
    folder, server = hosted_engine
    args = ("run", "--input", str(SEEDS), "--warehouse", str(warehouse))
    assert first.returncode == 0, first.stderr
    assert "Using incubator modules" not in first.stderr
    text = " ".join(first.stdout.split())
    assert (
        "bronze: 5 files seen = 5 new articles + 0 unchanged + 0 duplicates + 0 rejected "
        "+ 0 sidecars; 5 read" in text
    )
    assert "silver: 5 articles grouped into 1 stories, 5 rows changed" in text
    assert "bronze.articles │ 5 │ 1" in text
    assert (
        f"dagster: 13 materializations and 51 check results recorded in {warehouse / '_dagster'}"
        in text
    )
    # The rerun as cron or CI would log it: one JSON object per line on stdout.
    served = server.served
    second = claimhouse(
        *args, "--log-format", "json", env_extra={"CLAIMHOUSE_ENGINE_DIR": str(folder)}
    )
    assert second.returncode == 0, second.stderr[-3000:]
    assert server.served == served + 1
    events = [json.loads(line) for line in second.stdout.splitlines()]
    assert [e["event"] for e in events[:2]] == ["start", "step"]
    layers = [(e["layer"], e["message"]) for e in events if e["event"] == "layer"]
    assert [layer for layer, _ in layers] == ["bronze", "silver", "silver", "gold", "dagster"]
    assert "= 0 new articles + 5 unchanged" in layers[0][1]
    assert "sidecars; 0 read" in layers[0][1]
    assert layers[2][1] == "silver: stories unchanged (no new article)"
    # Nothing new reached silver: dbt does not run, gold keeps its Delta version.
    assert layers[3][1] == "gold: unchanged (built from these silver and bronze versions already)"
    # Only bronze ran (it logs every file it saw): its two assets and eight checks.
    assert layers[4][1] == (
        f"dagster: 2 materializations and 8 check results recorded in {warehouse / '_dagster'} "
        "(`claimhouse ui` shows them)"
    )
    (done,) = [e for e in events if e["event"] == "done"]
    assert done["tables"]["gold.facts"] == {"rows": 30, "delta_version": 0}
    # The layers' rows as the cold run printed them, the same from the engine.
    printed = {
        cells[0]: int(cells[1].replace(",", ""))
        for line in first.stdout.splitlines()
        if line.startswith("│") and (cells := [c.strip() for c in line.strip("│").split("│")])
    }
    for name in ("bronze.articles", "silver.claims", "silver.article_stories", "gold.facts"):
        assert done["tables"][name]["rows"] == printed[name], name
    assert done["run_id"] == events[0]["run_id"] and done["seconds"] > 0
    assert (warehouse / "bronze" / "articles" / "_delta_log").is_dir()
    # Metastore, Derby and scratch files stay inside the warehouse, not the working directory.
    assert not (Path.cwd() / "derby.log").exists()
    assert not (Path.cwd() / "spark-warehouse").exists()


def test_dagster_shows_what_claimhouse_run_built(spark, cli_run):
    """The instance `claimhouse ui` opens holds the run's materializations (rows and Delta
    version of each table) and its checks' results, as if Dagster had run it."""
    import dagster as dg

    warehouse, first = cli_run
    run_id = first.stdout.split()[2]  # "claimhouse run <id> into ..."
    lake = Lake(spark, warehouse)
    # Every run ingests (a rerun logs each file unchanged), so bronze's latest run may be a
    # later one; silver and gold were built by the first.
    bronze_run = (
        lake.read("audit.layer_runs").where("unit = 'bronze'").orderBy(F.desc("finished_at"))
    ).first()["run_id"]
    with dg.DagsterInstance.from_config(str(warehouse / "_dagster")) as instance:
        assert instance.get_runs() == []  # runless: no Dagster run pretends to have happened

        def latest(*path: str, run: str = run_id) -> dict:
            event = instance.get_latest_materialization_event(dg.AssetKey(list(path)))
            assert event is not None, path
            found = event.asset_materialization
            assert found.tags["claimhouse/run_id"] == run
            return {k: v.value for k, v in found.metadata.items()}

        articles = latest("bronze", "articles", run=bronze_run)
        assert articles["dagster/row_count"] == 5 and articles["delta_version"] == 1
        assert articles["claimhouse_run_id"] == bronze_run
        assert articles["unit_status"] == "published"
        assert latest("silver", "claims")["dagster/row_count"] == lake.count("silver.claims")
        facts = latest("gold", "facts")
        assert facts["dagster/row_count"] == 30 and facts["table"] == "gold_build.facts"
        # dbt's intermediate models too: every asset of the graph shows the run.
        assert latest("gold_intermediate", "claims_reconciled")["dagster/row_count"] == 46

        def check(name: str, *path: str):
            key = dg.AssetCheckKey(dg.AssetKey(list(path)), name)
            (record,) = instance.event_log_storage.get_asset_check_execution_history(key, limit=1)
            return record.event.dagster_event.event_specific_data

        evidence = check("fact_has_evidence", "gold", "facts")  # a contract rule
        assert evidence.passed and evidence.metadata["rows_checked"].value == 30
        assert check("unique_facts_fact_id", "gold", "facts").passed  # a dbt test
        assert check("attribution_present", "silver", "claims").passed
        assert check("file_accounted_for", "bronze", "articles").passed


@pytest.mark.slow
def test_a_broken_fail_rule_exits_1_before_gold_naming_table_rule_and_rows(
    spark, tmp_path, monkeypatch
):
    contracts = contracts_with_strict_attribution(tmp_path, "fail")
    monkeypatch.setenv("CLAIMHOUSE_CONTRACTS", str(contracts))
    warehouse = tmp_path / "wh"
    result = runner.invoke(app, ["run", "--input", str(SEEDS), "--warehouse", str(warehouse)])
    assert result.exit_code == 1, result.output
    message = " ".join(result.stderr.split())
    assert "silver.claims: rule attribution_present (severity fail) is broken by" in message
    assert "nothing downstream of silver.claims was built" in message
    assert "Sample: [{" in message and str(contracts / "silver.claims.yml") in message
    assert (warehouse / "bronze" / "articles" / "_delta_log").is_dir()
    assert not (warehouse / "gold_build").exists() and not (warehouse / "gold_release").exists()


def test_a_folder_without_a_readable_article_warns_and_builds_nothing_after_bronze(spark, tmp_path):
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "empty.txt").write_text("")
    warehouse = tmp_path / "wh"
    done = runner.invoke(
        app, ["run", "--input", str(tmp_path / "in"), "--warehouse", str(warehouse)]
    )
    assert done.exit_code == 4, done.output
    assert "1 rejected" in done.stdout
    assert " ".join(done.stderr.split()).endswith(
        f"warning: {tmp_path / 'in'} gave no readable article (1 file seen; bronze.rejects says "
        "why each was rejected); the lake holds none either, so nothing after bronze was "
        "built. Put .txt, .md or .html articles there and run again."
    )
    assert Lake(spark, warehouse).count("bronze.rejects") == 1
    assert not (warehouse / "silver").exists() and not (warehouse / "gold_build").exists()


def test_generate_writes_a_corpus_with_ground_truth(tmp_path):
    done = claimhouse(
        "generate", "--articles", "12", "--events", "3", "--seed", "5", "--out", str(tmp_path)
    )
    assert done.returncode == 0, done.stderr
    assert len(list((tmp_path / "articles").rglob("*.txt"))) == 12
    assert len(list((tmp_path / "articles").rglob("*.json"))) == 12
    assert (tmp_path / "truth" / "claims.jsonl").stat().st_size > 0
    assert f"claimhouse run --input {tmp_path / 'articles'}" in " ".join(done.stdout.split())
