"""Where a run's time goes, from its Spark event log: jobs, SQL statements and driver-only time.

Run claimhouse with CLAIMHOUSE_SPARK_EVENT_LOG=DIR (Spark then writes one event log per
session into DIR), then:

    .venv/bin/python benchmarks/spark_profile.py DIR [--top 15]

It reads the newest log in DIR (all its parts when Spark rolled it), or the log given, and
prints one JSON object:
  - app_seconds: the session's life; first_job_seconds: from its start to its first job (the
    JVM, the imports, the first table's creation);
  - spark_jobs, sql_statements (top-level SQL executions; Delta's nested ones count in their
    parent), and the seconds in which at least one of them ran (job_busy_seconds,
    sql_busy_seconds, overlapping statements counted once);
  - driver_only_seconds: app_seconds minus sql_busy_seconds, when no statement ran (Python,
    dbt's parsing and compilation, Great Expectations' set-up, the JVM's start);
  - by_caller: statements and their summed seconds per caller (dbt, great_expectations, the
    claimhouse module that issued it, or the Delta / Spark operation), slowest first;
  - slowest: the `--top` slowest statements with when they started.
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

_SQL_START = "org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionStart"
_SQL_END = "org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionEnd"
_CALL_SITE = re.compile(r" at (\S+):\d+")
_PLAN_ROOT = re.compile(r"== Physical Plan ==\n(?:Execute )?(\w+)")
_LAKE_TABLE = re.compile(r"\b((?:bronze|silver|audit|gold\w*)\.[a-z]\w*)")


_PART = re.compile(r"^events_(\d+)_")
_COMPRESSED = (".zstd", ".lz4", ".snappy", ".lzf")


def newest_log(path: Path) -> list[Path]:
    """The parts of the newest event log under a folder (or of the log given), in order.

    Spark 4 rolls a log over every 128 MB (spark.eventLog.rolling.*): an application's log is
    then a folder `eventlog_v2_<app>` of `events_<n>_<app>` parts, read one after another; a
    log that does not roll is one file."""
    if path.is_file():
        return [path]
    if path.name.startswith("eventlog_v2_"):
        return _parts(path)
    logs = [
        p
        for p in path.iterdir()
        if (p.is_file() and not p.name.startswith(".")) or p.name.startswith("eventlog_v2_")
    ]
    if not logs:
        raise SystemExit(
            f"no Spark event log under {path}: "
            f"run claimhouse with CLAIMHOUSE_SPARK_EVENT_LOG={path}"
        )
    newest = max(logs, key=_last_written)
    return _parts(newest) if newest.is_dir() else _plain([newest])


def _last_written(log: Path) -> float:
    if log.is_file():
        return log.stat().st_mtime
    return max((p.stat().st_mtime for p in log.iterdir()), default=log.stat().st_mtime)


def _parts(folder: Path) -> list[Path]:
    numbered = [(_PART.match(p.name), p) for p in folder.iterdir() if p.is_file()]
    parts = [p for _, p in sorted((int(m.group(1)), p) for m, p in numbered if m)]
    if not parts:
        raise SystemExit(f"{folder} holds no events_<n>_ part: not a Spark event log")
    return _plain(parts)


def _plain(parts: list[Path]) -> list[Path]:
    for part in parts:
        if part.suffix in _COMPRESSED:
            raise SystemExit(
                f"{part} is compressed: claimhouse writes plain logs "
                "(spark.eventLog.compress=false)"
            )
    return parts


def caller(description: str) -> str:
    """Who issued a statement: dbt, great_expectations, a claimhouse module, or the operation."""
    site = _CALL_SITE.search(description)
    path = site.group(1) if site else ""
    if "/dbt/" in path:
        return "dbt"
    if "/great_expectations/" in path:
        return "great_expectations"
    if "/lake/" in path:
        return "lake/" + path.split("/lake/", 1)[1]
    operation = description.split(" at ")[0].split(":")[0].strip() or "(no description)"
    # A JVM call site names Delta's or Spark's class ("toDataset$ at DeltaMergeBuilder.scala");
    # "<unknown>" is a call from Python whose frame Spark did not record.
    where = Path(path).name if path and path != "<unknown>" else "python"
    return f"{operation} ({where})" if site else operation


def _what(plan: str) -> str:
    """A statement's physical plan root and the first lake table it names
    ("AtomicReplaceTableAsSelect gold_intermediate.measure_consensus")."""
    root = _PLAN_ROOT.search(plan)
    table = _LAKE_TABLE.search(plan[:4000])
    return " ".join(x.group(1) for x in (root, table) if x)


def _lines(parts: list[Path]):
    for part in parts:
        with part.open(encoding="utf-8") as lines:
            yield from lines


def _busy_seconds(intervals: list[tuple[int, int]]) -> float:
    """Milliseconds covered by at least one interval, in seconds."""
    total, end = 0, None
    for start, stop in sorted(intervals):
        if end is None or start > end:
            total += stop - start
            end = stop
        elif stop > end:
            total += stop - end
            end = stop
    return total / 1000


def profile(log: Path | list[Path], top: int = 15) -> dict:
    """Summarize one event log (JSON lines, as Spark writes it uncompressed): a file, or the
    parts of a rolled log in order (newest_log)."""
    parts = [log] if isinstance(log, Path) else log
    app_start = app_end = last = None
    jobs: dict[int, list] = {}
    statements: dict[int, list] = {}
    for line in _lines(parts):
        event = json.loads(line)
        kind = event["Event"]
        stamp = event.get("Timestamp") or event.get("time") or event.get("Completion Time")
        if stamp is not None:
            last = max(last or stamp, stamp)
        if kind == "SparkListenerApplicationStart":
            app_start = event["Timestamp"]
        elif kind == "SparkListenerApplicationEnd":
            app_end = event["Timestamp"]
        elif kind == "SparkListenerJobStart":
            jobs[event["Job ID"]] = [event["Submission Time"], None]
            last = max(last or 0, event["Submission Time"])
        elif kind == "SparkListenerJobEnd" and event["Job ID"] in jobs:
            jobs[event["Job ID"]][1] = event["Completion Time"]
        elif kind == _SQL_START:
            root = event.get("rootExecutionId", event["executionId"])
            if root in (None, -1, event["executionId"]):
                statements[event["executionId"]] = [
                    event["time"],
                    None,
                    event["description"],
                    _what(event.get("physicalPlanDescription") or ""),
                ]
        elif kind == _SQL_END and event["executionId"] in statements:
            statements[event["executionId"]][1] = event["time"]
    if app_start is None:
        raise SystemExit(f"{parts[0]} has no SparkListenerApplicationStart: not a Spark event log")
    end = app_end or last
    done_jobs = [(s, e) for s, e in jobs.values() if e is not None]
    done = [(s, e, d, what) for s, e, d, what in statements.values() if e is not None]
    sql_busy = _busy_seconds([(s, e) for s, e, _, _ in done])
    by_caller: dict[str, list] = {}
    for s, e, d, _ in done:
        row = by_caller.setdefault(caller(d), [0, 0.0])
        row[0] += 1
        row[1] += (e - s) / 1000
    slowest = sorted(done, key=lambda x: x[0] - x[1])[:top]
    return {
        "event_log": str(parts[0] if len(parts) == 1 else parts[0].parent),
        "app_seconds": round((end - app_start) / 1000, 1),
        "first_job_seconds": (
            round((min(s for s, _ in done_jobs) - app_start) / 1000, 1) if done_jobs else None
        ),
        "spark_jobs": len(jobs),
        "sql_statements": len(statements),
        "job_busy_seconds": round(_busy_seconds(done_jobs), 1),
        "sql_busy_seconds": round(sql_busy, 1),
        "driver_only_seconds": round((end - app_start) / 1000 - sql_busy, 1),
        "by_caller": [
            {"caller": name, "statements": n, "seconds": round(seconds, 1)}
            for name, (n, seconds) in sorted(by_caller.items(), key=lambda kv: -kv[1][1])
        ],
        "slowest": [
            {
                "start_seconds": round((s - app_start) / 1000, 1),
                "seconds": round((e - s) / 1000, 2),
                "statement": d.splitlines()[0][:120] if d else "",
                "plan": what,
            }
            for s, e, d, what in slowest
        ],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("event_log", type=Path, help="CLAIMHOUSE_SPARK_EVENT_LOG's folder or a log")
    parser.add_argument("--top", type=int, default=15, help="slowest statements to list")
    args = parser.parse_args()
    print(json.dumps(profile(newest_log(args.event_log), args.top), indent=2))


if __name__ == "__main__":
    main()
