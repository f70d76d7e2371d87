"""`datacontract test`, the Open Data Contract Standard's reference tool, runs our contracts on
the tables a seeds run published, and agrees with claimhouse: every rule it can evaluate
passes, and a row that breaks a rule fails exactly that rule.

The tool runs in .venv-tools (it cannot share .venv: tests/unit/test_contract_lint.py), so it
reads Parquet exports of the tables (written by Spark here) loaded into a DuckDB database,
named as the contracts' physicalName. Rules in Spark SQL that DuckDB lacks (SPARK_ONLY) are
checked by claimhouse alone; docs/contracts.md lists them.
"""

from __future__ import annotations

import json
import subprocess

import pytest

from lake.config import REPO_ROOT
from lake.contracts.spec import CONTRACTS_DIR, load_contract

pytestmark = pytest.mark.slow

TOOLS_PYTHON = REPO_ROOT / ".venv-tools" / "bin" / "python"

# Every table a contract tests or names in a rule's SQL.
TABLES = (
    "bronze.articles",
    "bronze.rejects",
    "bronze.ingest_log",
    "silver.claims",
    "silver.article_stories",
    "gold.facts",
    "gold.fact_evidence",
    "gold.fact_conflicts",
)

# (table, rule): rules written with Spark SQL functions DuckDB does not have (`size` of an
# array), which the tool reports as errors there.
SPARK_ONLY = {("gold.fact_conflicts", "both_sides_have_articles")}

TEST = """
import json, sys, tempfile
from pathlib import Path

import duckdb, yaml
from datacontract.data_contract import DataContract

exports, scenarios, out = Path(sys.argv[1]), json.loads(sys.argv[2]), Path(sys.argv[3])
results = {}
for scenario, spec in scenarios.items():
    db = exports / f"{scenario}.duckdb"
    con = duckdb.connect(str(db))
    for table in spec["tables"]:
        schema, name = table.split(".")
        con.sql(f'CREATE SCHEMA IF NOT EXISTS "{schema}"')
        con.sql(
            f'CREATE TABLE "{schema}"."{name}" AS '
            f"SELECT * FROM read_parquet('{exports / table}/*.parquet')"
        )
        # the contract's physicalName as one name: the tool looks the table up by it
        con.sql(f'CREATE VIEW "{table}" AS SELECT * FROM "{schema}"."{name}"')
    for statement in spec["break"]:
        con.sql(statement)
    con.close()
    for path in spec["contracts"]:
        doc = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
        doc["servers"] = [{"server": "exports", "type": "duckdb", "database": str(db)}]
        with tempfile.NamedTemporaryFile("w", suffix=".yml", delete=False) as f:
            yaml.safe_dump(doc, f)
        run = DataContract(data_contract_file=f.name, server="exports").test()
        results.setdefault(scenario, {})[doc["name"]] = [
            {
                "result": getattr(c.result, "value", str(c.result)),
                "type": c.type,
                "field": c.field,
                "name": c.name,
                "reason": c.reason,
            }
            for c in run.checks
        ]
out.write_text(json.dumps(results), encoding="utf-8")
"""


def _rule_of(contract, check: dict) -> str:
    """Our rule's name for one of the tool's checks: a quality rule by its description, a
    column check by its column and kind."""
    if check["type"] == "model_quality_sql":
        rules = [*contract.row_rules, *contract.table_rules]
        return next(r.name for r in rules if r.description == check["name"])
    return f"{check['field']}:{check['type']}"


@pytest.fixture(scope="module")
def tool_results(gold, tmp_path_factory) -> dict:
    lake = gold[0]
    exports = tmp_path_factory.mktemp("contract-reference")
    for table in TABLES:
        lake.read(table).coalesce(1).write.parquet(str(exports / table))
    contracts = sorted(str(p) for p in CONTRACTS_DIR.glob("*.yml"))
    # one article_count off by one: gold.facts' article_count_matches_evidence, nothing else
    broken = (
        "UPDATE gold.facts SET article_count = article_count + 1 "
        "WHERE fact_id = (SELECT min(fact_id) FROM gold.facts)"
    )
    scenarios = {
        "published": {"tables": TABLES, "break": [], "contracts": contracts},
        "broken": {
            "tables": TABLES,
            "break": [broken],
            "contracts": [str(CONTRACTS_DIR / "gold.facts.yml")],
        },
    }
    assert TOOLS_PYTHON.exists(), f"no {TOOLS_PYTHON}: ./scripts/setup installs the tool there"
    out = exports / "results.json"
    done = subprocess.run(
        [str(TOOLS_PYTHON), "-c", TEST, str(exports), json.dumps(scenarios), str(out)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0 and out.exists(), (
        f"datacontract-cli did not run (exit {done.returncode}):\n{done.stderr[-3000:]}"
    )
    return json.loads(out.read_text(encoding="utf-8"))


def test_the_reference_tool_passes_every_rule_it_can_evaluate_on_the_published_tables(
    tool_results,
):
    outcome = {}
    for table, checks in tool_results["published"].items():
        contract = load_contract(CONTRACTS_DIR / f"{table}.yml")
        for check in checks:
            outcome[(table, _rule_of(contract, check))] = check["result"]
    failed = {key for key, result in outcome.items() if result != "passed"}
    assert failed == SPARK_ONLY
    # every SQL rule of every contract was run by the tool
    for path in CONTRACTS_DIR.glob("*.yml"):
        contract = load_contract(path)
        for rule in [*contract.row_rules, *contract.table_rules]:
            assert (contract.table, rule.name) in outcome, (contract.table, rule.name)
    # and the column rules too: a required, a unique and an allowed-values check at least
    kinds = {key[1].split(":")[1] for key in outcome if ":" in key[1]}
    assert {"field_required", "field_unique", "field_invalid_values"} <= kinds


def test_the_reference_tool_fails_exactly_the_rule_a_broken_row_breaks(tool_results):
    contract = load_contract(CONTRACTS_DIR / "gold.facts.yml")
    checks = tool_results["broken"]["gold.facts"]
    failed = [_rule_of(contract, c) for c in checks if c["result"] != "passed"]
    assert failed == ["article_count_matches_evidence"]
