"""The shipped contracts pass `datacontract lint`, the reference tool of the Open Data Contract
Standard (datacontract-cli), with no error and no warning.

datacontract-cli cannot share .venv (it needs typer<0.28 and open-data-contract-standard>=3.2;
requirements.lock pins typer 0.29.2 and open-data-contract-standard 3.1.2), so ./scripts/setup
installs it into .venv-tools from requirements-tools.lock, and the tool's own Python API
(`DataContract(...).lint()`, what `datacontract lint` calls) runs there, in one process for
every file. Its lint validates the file against the bundled ODCS JSON schema of the file's
apiVersion and parses it with the standard's pydantic model; an unknown key is only a
warning there (until its January 2027 release), so a warning fails this test too.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from lake.config import REPO_ROOT
from lake.contracts.spec import CONTRACTS_DIR

TOOLS_PYTHON = REPO_ROOT / ".venv-tools" / "bin" / "python"

LINT = """
import json, sys
from datacontract.data_contract import DataContract

results = {}
for path in sys.argv[2:]:
    run = DataContract(data_contract_file=path, all_errors=True).lint()
    results[path] = {
        "result": run.result.value,
        "checks": [
            {"result": c.result.value, "name": c.name, "reason": c.reason} for c in run.checks
        ],
    }
with open(sys.argv[1], "w", encoding="utf-8") as out:
    json.dump(results, out)
"""


def _lint(paths: list[Path], tmp_path: Path) -> dict[str, dict]:
    """`datacontract lint --all-errors` of each file: {path: {result, checks}}."""
    assert TOOLS_PYTHON.exists(), (
        f"no {TOOLS_PYTHON}: ./scripts/setup installs datacontract-cli there"
    )
    out = tmp_path / "lint.json"
    done = subprocess.run(
        [str(TOOLS_PYTHON), "-c", LINT, str(out), *map(str, paths)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0 and out.exists(), (
        f"datacontract-cli did not run (exit {done.returncode}):\n{done.stderr[-3000:]}"
    )
    return json.loads(out.read_text(encoding="utf-8"))


def _problems(result: dict) -> list[str]:
    return [
        f"{c['result']}: {c['name']}" + (f": {c['reason']}" if c["reason"] else "")
        for c in result["checks"]
        if c["result"] != "passed"
    ]


def test_every_shipped_contract_passes_datacontract_lint_with_no_warning(tmp_path):
    paths = sorted([*CONTRACTS_DIR.glob("*.yml"), *CONTRACTS_DIR.glob("*.yaml")])
    assert paths, f"no contracts in {CONTRACTS_DIR}"
    results = _lint(paths, tmp_path)
    assert sorted(results) == sorted(map(str, paths))
    failures = {
        path: _problems(result)
        for path, result in results.items()
        if result["result"] != "passed" or _problems(result)
    }
    assert not failures, "datacontract lint does not pass every contract:\n" + "\n".join(
        f"{Path(path).relative_to(REPO_ROOT)} ({results[path]['result']}):\n  "
        + "\n  ".join(problems or ["(no check says why)"])
        for path, problems in failures.items()
    )
    for path, result in results.items():  # it did validate against the ODCS schema
        assert any(
            c["name"].startswith("Data contract is valid against ODCS v3.")
            for c in result["checks"]
        ), path


MINIMAL = """\
apiVersion: v3.1.0
kind: DataContract
id: tests-silver-things
name: silver.things
version: 1.0.0
status: active
schema:
- name: things
  physicalName: silver.things
  properties:
  - name: thing_id
    required: true
    unique: true
"""


def test_datacontract_lint_reports_what_this_test_relies_on(tmp_path):
    """A schema error fails a file; an unknown key is a warning, which the test above counts."""
    valid = tmp_path / "valid.yml"
    valid.write_text(MINIMAL)
    wrong_type = tmp_path / "wrong_type.yml"
    wrong_type.write_text(MINIMAL.replace("required: true", 'required: "yes"'))
    typo = tmp_path / "typo.yml"
    typo.write_text(MINIMAL.replace("unique: true", "uniqe: true"))
    results = _lint([valid, wrong_type, typo], tmp_path)

    assert results[str(valid)]["result"] == "passed" and not _problems(results[str(valid)])
    broken = results[str(wrong_type)]
    assert broken["result"] == "failed"
    assert any("'yes' is not of type 'boolean'" in p for p in _problems(broken)), broken
    warned = results[str(typo)]
    assert any("uniqe" in p for p in _problems(warned)), warned
