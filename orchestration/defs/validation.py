"""The daily validation: every contract against the tables as they are, as `claimhouse validate`.

A job of one op rather than asset checks: the contract checks on the assets report what each
pipeline step enforced, while this re-checks the whole lake without writing a table (the
results still land in audit.dq_results).
"""

import dagster as dg

from lake.contracts.enforce import validate_current
from orchestration.environment import Environment, daily_schedule
from orchestration.resources import LakeResource

VALIDATE_JOB = "claimhouse_validate"


@dg.op(description="Every contract in expectations/contracts/ against the current tables.")
def validate_contracts(context: dg.OpExecutionContext, lake: LakeResource) -> dict:
    with lake.open(context, quiet=True) as h:
        checked = validate_current(h.spark, h.lake, h.run_id)
    rows, fatal = ["| table | rule | severity | rows broken |", "|---|---|---|---|"], []
    summary = {}
    for item in checked:
        if item.report is None:
            rows.append(f"| {item.table} | - | - | table missing |")
            continue
        broken = item.report.failed()
        summary[item.table] = {"rules": len(item.report.results), "broken": len(broken)}
        for r in broken:
            rows.append(f"| {item.table} | {r.rule} | {r.severity} | {r.unexpected_count} |")
            if r.severity == "fail":
                fatal.append(f"{item.table}: {r.rule} ({r.unexpected_count} rows)")
    context.add_output_metadata(
        {"broken_rules": dg.MetadataValue.md("\n".join(rows)), "tables": len(checked)}
    )
    if fatal:
        raise dg.Failure(
            description=f"{len(fatal)} rule(s) of severity fail are broken: {'; '.join(fatal)}. "
            "Rows and samples are in audit.dq_results for this run.",
        )
    return summary


def build_validate_job() -> dg.JobDefinition:
    @dg.job(name=VALIDATE_JOB, executor_def=dg.in_process_executor)
    def claimhouse_validate():
        """Validate every table against its contract (nothing is written but the results)."""
        validate_contracts()

    return claimhouse_validate


def build_daily_schedule(job, env: Environment) -> dg.ScheduleDefinition:
    return daily_schedule(
        "claimhouse_daily",
        job,
        5,
        "Every contract against the current tables once a day (05:00 UTC).",
        env,
    )


def defs(env: Environment) -> dg.Definitions:
    job = build_validate_job()
    return dg.Definitions(jobs=[job], schedules=[build_daily_schedule(job, env)])
