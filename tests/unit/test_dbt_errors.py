"""A failed dbt model's message as claimhouse prints it: the rule and the row, never a JVM
stack or a query plan. The inputs are messages dbt-spark gave on this stack (Spark 4.1, Delta
4.4; from `_dbt/logs/dbt.log`), cut after their first Java frames."""

from __future__ import annotations

from lake.gold.build import dbt_error

# Delta refused a row of gold_build.facts (tests/integration/test_gold.py's no_bad_run).
CONSTRAINT = (
    "Runtime Error in model facts (models/marts/facts.sql)\n"
    "  An error occurred while calling o66.sql.\n"
    "  : org.apache.spark.sql.delta.schema.DeltaInvariantViolationException: "
    "[DELTA_VIOLATE_CONSTRAINT_WITH_VALUES] CHECK constraint no_bad_run (NOT (run_id = 'bad')) "
    "violated by row with values:\n"
    "   - run_id : bad\n"
    "  \tat org.apache.spark.sql.delta.schema.DeltaInvariantViolationException$"
    ".getConstraintViolationWithValuesException(InvariantViolationException.scala:78)\n"
    "  \tat org.apache.spark.sql.delta.schema.DeltaInvariantViolationException$"
    ".apply(InvariantViolationException.scala:106)\n"
)

# An ALTER that failed analysis: the message, then the analyzed plan.
ANALYSIS = (
    "Runtime Error in model facts (models/marts/facts.sql)\n"
    "  Runtime Error\n"
    "    Cannot change nullable column to non-nullable: fact_id.; line 3 pos 10;\n"
    "    AlterColumns \n"
    "    +- ResolvedTable org.apache.spark.sql.delta.catalog.DeltaCatalog@111dab58, "
    "gold_build.facts, DeltaTableV2(org.apache.spark.sql.classic.SparkSession@3be9f320\n"
    "    Catalog: spark_catalog\n"
    "    Database: gold_build\n"
)


def test_a_broken_constraint_is_its_rule_and_row_and_where_the_rule_lives():
    assert dbt_error(CONSTRAINT).splitlines() == [
        "CHECK constraint no_bad_run (NOT (run_id = 'bad')) violated by row with values:",
        " - run_id : bad",
        "  a row the model built breaks the Delta constraint no_bad_run "
        "(dbt_project/models/marts/_marts.yml): fix the model or its input",
    ]


def test_other_errors_stop_before_the_java_stack_and_the_plan():
    assert dbt_error(ANALYSIS).splitlines() == [
        "Runtime Error in model facts (models/marts/facts.sql)",
        "  Runtime Error",
        "    Cannot change nullable column to non-nullable: fact_id.; line 3 pos 10;",
    ]
    unmatched = dbt_error(CONSTRAINT.replace("CHECK constraint", "check"))
    assert unmatched.splitlines()[-1] == "   - run_id : bad"
    assert "\tat " not in unmatched
    assert dbt_error(None) == ""
