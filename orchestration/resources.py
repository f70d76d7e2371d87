"""The lake as a Dagster resource: settings, this process's SparkSession and a Lake."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import dagster as dg
from pydantic import Field
from pyspark.sql import SparkSession

from lake.config import Settings, load_settings
from lake.lock import warehouse_lock
from lake.spark import get_spark
from lake.storage import Lake
from orchestration.environment import Environment

# Delta writes this into every commit's userMetadata (DESCRIBE HISTORY), as `claimhouse run` does.
_COMMIT_METADATA = "spark.databricks.delta.commitInfo.userMetadata"


@dataclass(frozen=True)
class LakeHandle:
    settings: Settings
    spark: SparkSession
    lake: Lake
    run_id: str


class LakeResource(dg.ConfigurableResource):
    """Where the lake lives. Unset fields fall back to CLAIMHOUSE_* variables, then to the
    checkout's warehouse/ and seeds/ (lake.config.load_settings, read at run time)."""

    warehouse: str | None = Field(default=None, description="Warehouse root folder.")
    input_dir: str | None = Field(default=None, description="Folder of raw articles (bronze).")
    spark_master: str | None = Field(default=None, description="Spark master URL.")

    def settings(self) -> Settings:
        return load_settings(
            warehouse=self.warehouse, input_dir=self.input_dir, spark_master=self.spark_master
        )

    @contextmanager
    def open(self, run_id: str) -> Iterator[LakeHandle]:
        """The process's SparkSession (started on first use, reused after: get_spark returns the
        active one) and a Lake; Delta commits made inside name the run. The session is not
        stopped here: later steps of the same run reuse it."""
        settings = self.settings()
        with warehouse_lock(settings.warehouse, run_id, settings.lock_timeout_s):
            spark = get_spark(settings)
            previous = spark.conf.get(_COMMIT_METADATA, None)
            spark.conf.set(_COMMIT_METADATA, f"claimhouse run {run_id}")
            try:
                yield LakeHandle(settings, spark, Lake(spark, settings.warehouse), run_id)
            finally:
                if previous is None:
                    spark.conf.unset(_COMMIT_METADATA)
                else:
                    spark.conf.set(_COMMIT_METADATA, previous)


def resources_for(env: Environment) -> dict[str, dg.ConfigurableResource]:
    """Resources by environment. In prod the warehouse and input must be named explicitly
    (EnvVar fails the run when unset) so a deployment never writes into a checkout's warehouse/."""
    if env.name == "prod":
        lake = LakeResource(
            warehouse=dg.EnvVar("CLAIMHOUSE_WAREHOUSE"),
            input_dir=dg.EnvVar("CLAIMHOUSE_INPUT"),
        )
    else:
        lake = LakeResource()
    return {"lake": lake}
