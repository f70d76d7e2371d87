"""Dagster code location for claimhouse: thin assets over `lake/`, assembled in definitions.py.

From the repository root, `dagster dev`, `dagster definitions validate` and `dagster asset
materialize --select '*'` find it through pyproject.toml's [tool.dagster] block. Nothing here
holds business logic: ingest, extraction and dbt are lake's; this package names them as
assets, records metadata and schedules runs.
"""
