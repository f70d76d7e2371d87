"""Runs on new input: the full job, and a sensor on the input folder that starts it."""

import hashlib
import time

import dagster as dg

from lake.bronze.ingest import input_problem, list_local, list_object_store, unsettled_files
from lake.config import Settings
from lake.objectstore import RemotePath, S3Client, S3Config
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


def input_fingerprint(settings: Settings) -> tuple[str, int, int]:
    """sha256 over (name, size, modification time) of every entry bronze ingest would see in
    the input folder (lake.bronze.ingest.list_local, or list_object_store for `s3a://`), the
    number of entries, and how many of them are not settled yet (modified within settle_s
    seconds: still being written, perhaps)."""
    folder = settings.input_dir
    if isinstance(folder, RemotePath):
        files = list_object_store(S3Client(S3Config.of(settings)), folder)
    else:
        files = list_local(folder)
    digest = hashlib.sha256()
    for f in files:
        digest.update(f"{f.source_uri}\0{f.size_bytes}\0{f.modified_at}\0{f.problem}\n".encode())
    unsettled = unsettled_files(files, time.time() - settings.settle_s)
    return digest.hexdigest(), len(files), len(unsettled)


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
        settings = lake.settings()
        input_dir = settings.input_dir
        problem = input_problem(settings)
        if problem:
            return dg.SkipReason(problem)
        fingerprint, files, unsettled = input_fingerprint(settings)
        if unsettled:
            # The cursor stays: once the files settle, the next tick sees the change.
            many = unsettled > 1
            return dg.SkipReason(
                f"{unsettled} file{'s' if many else ''} in {input_dir} "
                f"{'are' if many else 'is'} still being written; waiting for "
                f"{'them' if many else 'it'} to be unchanged for {settings.settle_s:g} s"
            )
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


def defs(env: Environment) -> dg.Definitions:
    job = build_full_job()
    return dg.Definitions(jobs=[job], sensors=[build_input_sensor(job, env)])
