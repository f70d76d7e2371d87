"""A run killed while Great Expectations rewrote its files must not break every later run."""

from __future__ import annotations

import great_expectations as gx
import yaml

from lake.contracts.run import _repair_gx


def test_truncated_ge_files_are_removed_and_the_context_loads_again(tmp_path):
    root = tmp_path / "_gx"
    gx.get_context(mode="file", context_root_dir=str(root))
    (root / "checkpoints").mkdir(exist_ok=True)
    (root / "checkpoints" / "silver.claims.json").write_text('{"name": "silver.cl')
    (root / "checkpoints" / "gold.facts.json").write_text('{"name": "gold.facts"}')
    results = root / "uncommitted" / "validations" / "silver.claims" / "run-1"
    results.mkdir(parents=True)
    (results / "result.json").write_text('{"trunc')
    config = root / "great_expectations.yml"
    config.write_text(config.read_text() + "\nfluent_datasources:\n  lake: {type: spa")

    removed = _repair_gx(root)

    assert sorted(p.relative_to(root).as_posix() for p in removed) == [
        "checkpoints/silver.claims.json",
        "great_expectations.yml",
        "uncommitted/validations/silver.claims/run-1/result.json",
    ]
    assert (root / "checkpoints" / "gold.facts.json").exists()
    context = gx.get_context(mode="file", context_root_dir=str(root))
    context.variables.save()
    assert yaml.safe_load((root / "great_expectations.yml").read_text())["config_version"]
