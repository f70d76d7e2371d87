"""Dagster's definitions by area; each module's `defs(env)` returns the area's Definitions:
layers (bronze and silver units as assets), gold (the dbt project's models and gold's contract
checks), automation (the full job and the input sensor), validation (the daily contract check)
and maintenance (table maintenance on a schedule)."""
