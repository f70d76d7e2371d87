"""One Settings: every option declared once in lake.config, read at call time, documented in
the README from the same declaration, and the Spark settings dbt's profile repeats agree."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

from lake.config import (
    OPTIONS,
    SQL_PASSWORD_VARIABLE,
    SettingsError,
    load_settings,
    settings_table,
)
from lake.spark import spark_conf

REPO = Path(__file__).resolve().parents[2]
# Read by dbt_project/profiles.yml only: dbt's target and the endpoint of its thrift target.
DBT_PROFILE_VARIABLES = {"CLAIMHOUSE_DBT_TARGET", "CLAIMHOUSE_SQL_HOST", "CLAIMHOUSE_SQL_PORT"}
# Set by claimhouse for the dbt it runs (lake.gold.build), never by users.
PASSED_TO_DBT = {
    "CLAIMHOUSE_LOG4J",
    "CLAIMHOUSE_COMMIT_METADATA",
    "CLAIMHOUSE_BUILD",
    "CLAIMHOUSE_LOCAL_DIR",
}


def test_the_readme_settings_table_is_the_declared_one():
    assert settings_table() in (REPO / "docs" / "settings.md").read_text()


def test_every_claimhouse_variable_in_the_code_is_a_declared_setting():
    declared = {o.variable for o in OPTIONS}
    used = set()
    for folder in ("lake", "orchestration", "dbt_project"):
        for path in (REPO / folder).rglob("*"):
            if path.suffix in (".py", ".yml", ".sql"):
                used |= set(re.findall(r"CLAIMHOUSE_[A-Z0-9_]*[A-Z0-9]", path.read_text()))
    secrets = {SQL_PASSWORD_VARIABLE}
    assert used - declared - DBT_PROFILE_VARIABLES - PASSED_TO_DBT - secrets == set()


def test_only_lake_config_reads_claimhouse_variables():
    readers = [
        str(path.relative_to(REPO))
        for folder in ("lake", "orchestration")
        for path in (REPO / folder).rglob("*.py")
        if re.search(r"environ(\.get)?\(?\[?\s*[\"']CLAIMHOUSE_", path.read_text())
    ]
    assert readers == []


def test_arguments_win_over_variables_which_win_over_defaults(tmp_path):
    environ = {"CLAIMHOUSE_WAREHOUSE": str(tmp_path / "env"), "CLAIMHOUSE_SETTLE_S": "7"}
    settings = load_settings(environ=environ)
    assert (settings.warehouse, settings.settle_s) == (tmp_path / "env", 7.0)
    assert settings.spark_master == "local[*]" and settings.catalog == "in-memory"
    chosen = load_settings(warehouse=tmp_path / "arg", environ=environ, settle_s=1.5)
    assert (chosen.warehouse, chosen.settle_s) == (tmp_path / "arg", 1.5)


@pytest.mark.parametrize(
    ("variable", "value", "message"),
    [
        ("CLAIMHOUSE_CATALOG", "derby", "is not one of in-memory, hive"),
        ("CLAIMHOUSE_DRIVER_MEMORY", "lots", "is not a JVM memory size such as 4g or 512m"),
        ("CLAIMHOUSE_SHUFFLE_PARTITIONS", "0", "is not a whole number of at least 1"),
        ("CLAIMHOUSE_SPARK_UI", "maybe", "is not 1 or 0"),
        ("CLAIMHOUSE_ENV", "staging", "is not one of local, ci, prod"),
        (
            "CLAIMHOUSE_SPARK_MASTER",
            "bogus://x",
            "is not a Spark master URL: local[*], local[N] or spark://host:7077",
        ),
    ],
)
def test_a_bad_variable_is_named_with_what_it_takes(variable, value, message):
    with pytest.raises(SettingsError) as caught:
        load_settings(environ={variable: value})
    assert str(caught.value) == f"{variable}={value!r} {message}: fix or unset it"


def test_the_spark_settings_dbt_starts_with_are_claimhouse_s(tmp_path):
    """dbt run from a shell starts its own Spark from profiles.yml: the settings that decide
    what a run computes and where it keeps things must be the ones claimhouse's sessions use."""
    profile = yaml.safe_load((REPO / "dbt_project" / "profiles.yml").read_text())
    dbt = profile["claimhouse"]["outputs"]["local"]["server_side_parameters"]
    ours = spark_conf(load_settings(warehouse=tmp_path, environ={}))
    shared = (
        "spark.sql.extensions",
        "spark.sql.catalog.spark_catalog",
        "spark.sql.session.timeZone",
        "spark.databricks.delta.snapshotPartitions",
        "spark.sql.codegen.cache.maxEntries",
        "spark.hadoop.hive.hmshandler.retry.attempts",
        "spark.ui.showConsoleProgress",
    )
    settable = {
        "spark.driver.memory": "CLAIMHOUSE_DRIVER_MEMORY",
        "spark.sql.shuffle.partitions": "CLAIMHOUSE_SHUFFLE_PARTITIONS",
    }
    # The same setting, with claimhouse's default when its variable is unset.
    expected = {
        k: f"{{{{ env_var('{settable[k]}', '{ours[k]}') }}}}" if k in settable else ours[k]
        for k in (*shared, *settable)
    }
    assert {k: dbt[k] for k in expected} == expected
    assert dbt["spark.ui.enabled"] == ours["spark.ui.enabled"] == "false"
    # The JVM's own flags (its collector): path-free, so the same text in both.
    jvm_flags = [o for o in ours["spark.driver.extraJavaOptions"].split() if o.startswith("-XX:")]
    assert jvm_flags == ["-XX:+UseParallelGC"]
    assert [o for o in dbt["spark.driver.extraJavaOptions"].split() if o.startswith("-XX:")] == (
        jvm_flags
    )


def test_a_build_s_values_reach_dbt_s_artifacts_only_while_it_runs(tmp_path):
    """dbt copies DBT_ENV_CUSTOM_ENV_* variables into its artifacts' metadata, read once per
    process: a build's own values while it runs, none of them in a later dbt call."""
    from dbt_common.events.functions import get_metadata_vars

    from lake.gold.build import BUILD_VARIABLE, _dbt_environment, build_values

    settings = load_settings(warehouse=tmp_path, environ={})
    name = BUILD_VARIABLE.removeprefix("DBT_ENV_CUSTOM_ENV_")
    with _dbt_environment(settings, build=build_values("r1")):
        assert get_metadata_vars()[name] == '{"run_id": "r1"}'
    assert name not in get_metadata_vars()
    with _dbt_environment(settings, build=build_values("r2", {"silver.claims": 3})):
        assert json.loads(get_metadata_vars()[name])["run_id"] == "r2"


@pytest.mark.parametrize(
    "master",
    ["local", "local[2]", "local[*]", "local[4,2]", "spark://10.0.0.5:7077", "spark://a:1,b:2"]
    + ["k8s://https://10.0.0.1:443", "yarn", "local-cluster[2,1,1024]"],
)
def test_every_form_of_spark_master_url_is_taken(master):
    assert load_settings(spark_master=master, environ={}).spark_master == master


@pytest.mark.parametrize("master", ["bogus://x", "local[x]", "spark://", "spark:/h:7077", ""])
def test_an_argument_that_cannot_be_used_is_named_by_its_option(master):
    with pytest.raises(SettingsError) as caught:
        load_settings(spark_master=master, environ={})
    assert str(caught.value) == (
        f"--master {master!r} is not a Spark master URL: local[*], local[N] or "
        "spark://host:7077: fix it"
    )


def test_a_warehouse_that_is_a_file_is_named_as_such(tmp_path):
    (tmp_path / "lake").write_text("")
    for given in (
        {"warehouse": tmp_path / "lake"},
        {"environ": {"CLAIMHOUSE_WAREHOUSE": str(tmp_path / "lake")}},
    ):
        with pytest.raises(SettingsError) as caught:
            load_settings(**{"environ": {}, **given})
        assert str(caught.value) == (
            f"the warehouse {tmp_path / 'lake'} is a file, not a folder: pass a folder (it is "
            "created if missing) with --warehouse DIR or CLAIMHOUSE_WAREHOUSE"
        )
