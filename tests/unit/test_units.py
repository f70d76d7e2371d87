"""lake.units is the one registry of layer units: what each reads comes from a unit before it,
what it shows is a table it publishes, and every contract it names exists. Dagster's assets
are generated from it (tests/orchestration/test_definitions.py shows them)."""

from __future__ import annotations

from pathlib import Path

import yaml

from lake.contracts.spec import CONTRACTS_DIR, load_contracts
from lake.gold import build as gold
from lake.schemas import GOLD_RELEASE, GOLD_TABLES, TABLES
from lake.units import UNITS

REPO = Path(__file__).resolve().parents[2]


def test_each_unit_reads_what_a_unit_before_it_publishes():
    published: set[str] = set()
    for unit in UNITS:
        assert set(unit.inputs) <= published, unit.name
        published |= set(unit.outputs)
    assert [u.name for u in UNITS] == ["bronze", "silver.claims", "silver.stories", "gold"]


def test_what_a_unit_shows_is_a_table_it_publishes_with_its_preview():
    for unit in UNITS:
        assert unit.shown, unit.name
        if unit is gold.UNIT:  # the release's views over the tables dbt builds
            assert unit.shown == GOLD_TABLES
            continue
        assert set(unit.shown) <= set(unit.outputs), unit.name
        for table in unit.shown:
            columns = set(TABLES[table].schema.fieldNames())
            assert TABLES[table].preview and set(TABLES[table].preview) <= columns, table


def test_every_shipped_contract_is_validated_by_exactly_one_unit():
    shipped = load_contracts(CONTRACTS_DIR)
    named = [table for unit in UNITS for table in unit.contracts]
    assert sorted(named) == sorted(shipped)  # each contract once: no table goes unvalidated


def test_dbt_builds_gold_where_the_release_reads_it_and_names_the_layer_readers_use():
    """dbt_project.yml's marts: built in gold_build, published as gold.* (the asset keys
    orchestration.defs.gold derives from their meta), as lake.schemas.GOLD_RELEASE says."""
    project = yaml.safe_load((REPO / "dbt_project" / "dbt_project.yml").read_text())
    marts = project["models"]["claimhouse"]["marts"]
    assert marts["+schema"] == GOLD_RELEASE.build_layer
    assert marts["+meta"] == {"claimhouse": {"published_in": GOLD_RELEASE.layer}}
