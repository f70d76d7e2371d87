"""Table maintenance on a schedule: the `maintenance` unit (lake.maintenance) for every table,
as `claimhouse maintain`, then Dagster's own retention: runs older than the audit retention
are deleted from the instance with their event logs."""

from datetime import UTC, datetime, timedelta

import dagster as dg

from lake import maintenance
from lake.layer import execute
from orchestration.environment import Environment, daily_schedule
from orchestration.resources import LakeResource

MAINTENANCE_JOB = "claimhouse_maintenance"


@dg.op(description="Compact, vacuum and checkpoint every table; apply the audit retention.")
def maintain_tables(context: dg.OpExecutionContext, lake: LakeResource) -> dict:
    with lake.open(context) as ctx:
        summary = execute(maintenance.UNIT, ctx).summary
        keep_days = ctx.settings.audit_keep_days
    rows = ["| table | files compacted | into | vacuumed | files now |", "|---|---|---|---|---|"]
    rows += [
        f"| {t.table} | {t.compacted_from} | {t.compacted_to} | {t.vacuumed} | {t.files} |"
        for t in summary.tables
    ]
    deleted = forget_old_runs(context.instance, keep_days, keep=context.run.run_id)
    context.add_output_metadata(
        {
            "tables": dg.MetadataValue.md("\n".join(rows)),
            "audit_rows_deleted": sum(summary.audit_deleted.values()),
            "dagster_runs_deleted": deleted,
        }
    )
    context.log.info(
        f"{summary.describe()}; {deleted} Dagster runs older than {keep_days:g} days deleted"
    )
    return summary.metadata()


def forget_old_runs(instance: dg.DagsterInstance, keep_days: float, keep: str) -> int:
    """Delete the instance's finished runs created more than `keep_days` ago, with their
    event logs (`keep`: the run doing it); how many."""
    cutoff = datetime.now(UTC) - timedelta(days=keep_days)
    finished = [
        dg.DagsterRunStatus.SUCCESS,
        dg.DagsterRunStatus.FAILURE,
        dg.DagsterRunStatus.CANCELED,
    ]
    old = instance.get_run_records(filters=dg.RunsFilter(created_before=cutoff, statuses=finished))
    for record in old:
        if record.dagster_run.run_id != keep:
            instance.delete_run(record.dagster_run.run_id)
    return sum(record.dagster_run.run_id != keep for record in old)


def build_maintenance_job() -> dg.JobDefinition:
    @dg.job(name=MAINTENANCE_JOB, executor_def=dg.in_process_executor)
    def claimhouse_maintenance():
        """Compact, vacuum and checkpoint every table; keep the audit and the instance bounded."""
        maintain_tables()

    return claimhouse_maintenance


def build_maintenance_schedule(job: dg.JobDefinition, env: Environment) -> dg.ScheduleDefinition:
    return daily_schedule(
        "claimhouse_maintenance_daily",
        job,
        4,
        "Table maintenance once a day (04:00 UTC): OPTIMIZE, VACUUM, checkpoints, audit and "
        "run retention.",
        env,
    )


def defs(env: Environment) -> dg.Definitions:
    job = build_maintenance_job()
    return dg.Definitions(jobs=[job], schedules=[build_maintenance_schedule(job, env)])
