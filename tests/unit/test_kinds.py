"""The claim kinds are listed once, in lake.silver.kinds: every other list of them is generated
from the registry or held to it here (docs/add-a-claim-kind.md)."""

from __future__ import annotations

import inspect
import json
import pkgutil
from pathlib import Path

import pytest
import yaml

from lake.config import load_settings
from lake.contracts.spec import load_contracts
from lake.gold.build import dbt_args
from lake.silver import kinds
from lake.silver import lexicon as lx
from lake.silver.extract import extract_claims
from lake.silver.kinds.base import Kind
from lake.silver.measure import UNNAMED

REPO = Path(__file__).resolve().parents[2]
_MODULES = sorted(
    m.name for m in pkgutil.iter_modules(kinds.__path__) if m.name not in kinds.NOT_KINDS
)


def test_every_kind_module_is_registered_once():
    assert len(set(kinds.NAMES)) == len(kinds.NAMES)
    registered = {k.name: k for k in kinds.KINDS}
    for name in _MODULES:
        module = __import__(f"lake.silver.kinds.{name}", fromlist=["KIND"])
        assert isinstance(module.KIND, Kind), name
        assert registered.get(module.KIND.name) is module.KIND, f"{name} is not in KINDS"
        assert module.KIND.name == name, "a kind's module is named after it"
    assert sorted(kinds.NAMES) == _MODULES


@pytest.mark.parametrize("kind", kinds.KINDS, ids=lambda k: k.name)
def test_each_kind_declares_a_finder_run_by_the_extractor_and_a_key(kind):
    assert kind.finder in kinds.FINDERS
    assert callable(kind.find()) and callable(kind.key())
    assert kind.summary and kind.examples


@pytest.mark.parametrize("kind", kinds.KINDS, ids=lambda k: k.name)
def test_each_kinds_examples_come_out_as_that_kind(kind):
    for sentence, text in kind.examples:
        found = {(c.kind, c.claim_text) for c in extract_claims("example", sentence)}
        assert (kind.name, text) in found, (sentence, found)


def test_the_finders_read_the_words_from_the_kinds_modules():
    # lake.silver.lexicon re-exports them: one table, not a copy.
    for kind in kinds.KINDS:
        for name, table in kind.words.items():
            if hasattr(lx, name):
                assert getattr(lx, name) is table, (kind.name, name)


def test_contract_allowed_values_are_the_registry():
    # The ODCS YAML stays literal (datacontract-cli lints it too): held here.
    contracts = load_contracts(REPO / "expectations" / "contracts")
    listed = {
        table: tuple(spec.columns["kind"].allowed_values)
        for table, spec in contracts.items()
        if "kind" in spec.columns and spec.columns["kind"].allowed_values is not None
    }
    assert listed == {"silver.claims": kinds.NAMES}, (
        "copy kinds.NAMES into expectations/contracts/silver.claims.yml, column kind's validValues"
    )


def test_dbt_project_defaults_are_the_registry():
    # dbt_project.yml's vars serve a dbt command run from a shell; claimhouse passes the
    # registry's (dbt_args).
    declared = yaml.safe_load((REPO / "dbt_project" / "dbt_project.yml").read_text())["vars"]
    generated = kinds.dbt_vars()
    stale = sorted(name for name in generated if declared.get(name) != generated[name])
    assert not stale, f"copy kinds.dbt_vars() {stale} into dbt_project/dbt_project.yml's vars"


def test_dbt_args_pass_the_registry_as_vars(tmp_path):
    settings = load_settings(warehouse=tmp_path)
    args = dbt_args("build", settings)
    assert json.loads(args[args.index("--vars") + 1]) == kinds.dbt_vars()


def test_a_kind_with_a_gold_unit_declares_its_units():
    # Gold scales by the kind's own units (dbt var unit_scales): no SQL names a kind's units.
    scales = kinds.dbt_vars()["unit_scales"]
    for kind in kinds.KINDS:
        assert (kind.gold_unit is None) == (kind.name not in scales), kind.name
        assert kind.gold_unit is None or kind.gold_unit in scales[kind.name], kind.name
        assert all(scale > 0 for scale in kind.units.values()), kind.name
    named = {f"'{unit}'" for kind in kinds.KINDS for unit in kind.units}
    for path in (REPO / "dbt_project").rglob("*.sql"):
        if "target" not in path.parts:
            assert not [u for u in named if u in path.read_text()], path
    # The extractor's unnamed durations and ages are among the measure_keys gold leaves
    # unreconciled.
    assert UNNAMED == kinds.UNRECONCILED_MEASURES
    assert {"duration:unnamed", "age:unnamed"} <= set(UNNAMED)


def test_the_dbt_models_name_no_kind_list_of_their_own():
    # A list of every kind belongs to var('kinds'); a model may still name the kinds it treats
    # apart (kind = 'date').
    every = ", ".join(f"'{name}'" for name in kinds.NAMES)
    for path in (REPO / "dbt_project").rglob("*"):
        if path.suffix in (".sql", ".yml") and "target" not in path.parts:
            text = path.read_text()
            if path.name != "dbt_project.yml":
                assert every not in text, path
                assert " | ".join(kinds.NAMES) not in text, path


def test_the_scorers_and_the_synthetic_corpus_know_only_registered_kinds():
    from evaluation.basil.score import COMPATIBLE_KINDS
    from synthetic import vocabulary

    # BASIL's labels have kinds of their own ("measure"); each maps onto the extractor's.
    assert set().union(*COMPATIBLE_KINDS.values()) <= set(kinds.NAMES)
    written = {spec.kind for domain in vocabulary.DOMAINS for spec in domain.measures}
    assert written == set(kinds.NAMES), "synthetic/vocabulary.py: a MeasureSpec of each kind"


def test_the_extractor_runs_the_finders_in_the_registry_s_order():
    # A span an earlier finder took is not read by a later one: kinds.FINDERS states the order
    # extract_claims calls them in.
    source = inspect.getsource(extract_claims)
    called = [name.partition(":")[2] for name in kinds.FINDERS]
    at = [source.find(f"{name}(") for name in called]
    assert -1 not in at and at == sorted(at), dict(zip(called, at, strict=True))
