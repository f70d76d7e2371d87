"""The one registry of layer units, in the order they run: `claimhouse run`'s sequence
(lake.pipeline) and Dagster's assets (orchestration.definitions) are both this tuple. Each unit
declares what it reads, publishes, shows and validates (lake.layer.Unit)."""

from __future__ import annotations

from lake.bronze import ingest as bronze
from lake.gold import build as gold
from lake.layer import Unit
from lake.silver import publish as silver_claims
from lake.silver import publish_stories as silver_stories

UNITS: tuple[Unit, ...] = (bronze.UNIT, silver_claims.UNIT, silver_stories.UNIT, gold.UNIT)
