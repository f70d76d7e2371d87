"""The lake as a Dagster resource: settings, this process's SparkSession and a Lake."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import dagster as dg
from pydantic import Field

from lake.config import Settings, load_settings
from lake.layer import RunContext, open_run
from lake.lock import warehouse_lock
from lake.spark import get_spark
from orchestration.environment import Environment


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
    def open(
        self, context: dg.OpExecutionContext, quiet: bool = False, full_refresh: bool = False
    ) -> Iterator[RunContext]:
        """For one step of the run: the warehouse's writer lock, this process's SparkSession
        (started on first use, reused by later steps of the run) and a RunContext whose Delta
        commits name the run, as `claimhouse run` opens them. Dagster's log hears the units'
        progress unless `quiet`; `full_refresh` rebuilds gold whole (`claimhouse run
        --full-refresh`).

        A run terminated from the UI (marked canceling: orchestration.launcher) starts no
        further step, and the step whose Spark jobs were cancelled under it ends the run
        Canceled, not Failed."""
        run_id = context.run.run_id
        _stop_if_terminated(context, "before this step started")
        settings = self.settings()
        say = (lambda message: None) if quiet else context.log.info
        try:
            with warehouse_lock(
                settings.warehouse, run_id, settings.lock_timeout_s, settings=settings
            ):
                spark = get_spark(settings)
                with open_run(spark, settings, run_id, say, say, full_refresh) as ctx:
                    yield ctx
        except Exception as exc:
            _stop_if_terminated(context, f"while this step ran ({type(exc).__name__})")
            raise


def _stop_if_terminated(context: dg.OpExecutionContext, when: str) -> None:
    run = context.instance.get_run_by_id(context.run.run_id)
    if run is not None and run.status == dg.DagsterRunStatus.CANCELING:
        raise dg.DagsterExecutionInterruptedError(f"The run was terminated {when}.")


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
