"""Dagster code location for claimhouse: thin assets over `lake/`, assembled in definitions.py.

Load it with `dagster definitions validate -m orchestration.definitions` (or `dagster dev -m ...`)
from the repository root. Nothing here holds business logic: ingest, extraction and dbt are
lake's; this package names them as assets, records metadata and schedules runs.
"""
