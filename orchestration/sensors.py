"""The full job, a sensor on the input folder and the daily validation schedule."""

import hashlib
import os
from pathlib import Path

import dagster as dg

from orchestration.environment import Environment
from orchestration.resources import LakeResource

FULL_JOB = "claimhouse_full"
# Runs carrying this tag write the warehouse; orchestration/dagster.yaml lets one run at a time.
WRITER_TAGS = {"claimhouse/writer": "warehouse"}


def build_full_job():
    return dg.define_asset_job(
        FULL_JOB,
        selection=dg.AssetSelection.all(),
        description="Bronze ingest -> silver extraction -> gold dbt build, as `claimhouse run`.",
        # One process, one SparkSession for every step: a JVM per step would cost ~5-7 s each,
        # and the embedded Derby metastore (CLAIMHOUSE_CATALOG=hive) admits a single process.
        executor_def=dg.in_process_executor,
        tags=WRITER_TAGS,
    )


def input_fingerprint(input_dir: Path) -> tuple[str, int]:
    """sha256 over (relative path, size, mtime) of every visible file below input_dir, and the
    number of files. Names starting with '.' are skipped, as bronze ingest skips them."""
    digest = hashlib.sha256()
    count = 0
    for folder, dirs, names in os.walk(input_dir):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(names):
            if name.startswith("."):
                continue
            path = Path(folder) / name
            try:
                stat = path.stat()
            except FileNotFoundError:  # removed while listing
                continue
            rel = path.relative_to(input_dir).as_posix()
            digest.update(f"{rel}\0{stat.st_size}\0{stat.st_mtime_ns}\n".encode())
            count += 1
    return digest.hexdigest(), count


def build_input_sensor(job, env: Environment) -> dg.SensorDefinition:
    @dg.sensor(
        name="input_folder_sensor",
        job=job,
        minimum_interval_seconds=30,
        default_status=(
            dg.DefaultSensorStatus.RUNNING
            if env.automation_running
            else dg.DefaultSensorStatus.STOPPED
        ),
        description="Runs the full job when files in the input folder are added or changed.",
    )
    def input_folder_sensor(context: dg.SensorEvaluationContext, lake: LakeResource):
        input_dir = lake.settings().input_dir
        if not input_dir.is_dir():
            return dg.SkipReason(f"input folder {input_dir} does not exist")
        fingerprint, files = input_fingerprint(input_dir)
        if fingerprint == context.cursor:
            return dg.SensorResult(skip_reason=f"no change in {input_dir}", cursor=fingerprint)
        if files == 0:
            return dg.SensorResult(skip_reason=f"{input_dir} holds no files", cursor=fingerprint)
        return dg.SensorResult(
            run_requests=[
                dg.RunRequest(
                    run_key=fingerprint,
                    tags={"claimhouse/input_dir": str(input_dir), "claimhouse/files": str(files)},
                )
            ],
            cursor=fingerprint,
        )

    return input_folder_sensor


def build_daily_schedule(job, env: Environment) -> dg.ScheduleDefinition:
    return dg.ScheduleDefinition(
        name="claimhouse_daily",
        job=job,
        cron_schedule="0 5 * * *",
        execution_timezone="UTC",
        default_status=(
            dg.DefaultScheduleStatus.RUNNING
            if env.automation_running
            else dg.DefaultScheduleStatus.STOPPED
        ),
        description="Every contract against the current tables once a day (05:00 UTC).",
    )
