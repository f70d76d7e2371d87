"""The data-quality dashboard: one self-contained HTML page over the lake's tables.

Everything on the page is aggregated in Spark and only the small results reach the driver;
plotly.js is embedded once, so the file opens anywhere without a server or network.
"""

from __future__ import annotations

import html
import json
import os
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from pyspark.sql import SparkSession
from pyspark.sql import functions as F

from lake.bronze.ingest import reason_kind
from lake.storage import Lake

# What a person reads; gold_build, gold_release and dbt's staging/intermediate tables are
# the machinery behind gold's views.
SHOWN_LAYERS = ("bronze", "silver", "gold", "audit")
CONFLICTS_SHOWN = 200
FAILURES_SHOWN = 50
STATUS_COLORS = {"corroborated": "#2e7d32", "single_source": "#9e9e9e", "conflicting": "#c62828"}


@dataclass(frozen=True)
class DashboardData:
    """What the page shows, already aggregated (small lists of dicts)."""

    generated_at: str
    warehouse: str
    tables: list[dict]  # table, rows, version
    pass_rates: list[dict]  # run_id, table_name, started, rules, passed
    quarantined_by_rule: list[dict]  # rule, rows
    quarantined_by_run: list[dict]  # run_id, rows
    rejects_by_reason: list[dict]  # reason (without particulars), files, example, latest
    facts_by_status: list[dict]  # status, facts
    # label, value_a/b, outlets_a/b, attributions_a/b, matched_parts, match_confidence
    conflicts: list[dict]
    failures: list[dict]  # latest run's broken rules per table
    data_docs: str | None  # Data Docs index, relative to the page


def collect(spark: SparkSession, lake: Lake, out: Path) -> DashboardData:
    """Read the lake's audit, quarantine and gold tables into the dashboard's aggregates."""
    tables = [
        {"table": name, "rows": lake.count(name), "version": lake.version(name)}
        for name in lake.tables()
        if name.split(".")[0] in SHOWN_LAYERS
    ]
    docs = lake.local_root / "_gx" / "uncommitted" / "data_docs" / "local_site" / "index.html"
    return DashboardData(
        generated_at=datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S UTC"),
        warehouse=str(lake.root),
        tables=tables,
        pass_rates=_pass_rates(lake),
        quarantined_by_rule=_quarantined_by_rule(lake),
        quarantined_by_run=_quarantined_by_run(lake),
        rejects_by_reason=_rejects_by_reason(lake),
        facts_by_status=_facts_by_status(lake),
        conflicts=_conflicts(lake),
        failures=_latest_failures(lake),
        data_docs=os.path.relpath(docs, out.parent) if docs.exists() else None,
    )


def _rows(df) -> list[dict]:
    return [r.asDict(recursive=True) for r in df.collect()]


def _with_run_start(results):
    """Each result row with its run's first evaluation time, so runs plot in order."""
    starts = results.groupBy("run_id").agg(F.min("evaluated_at").alias("started"))
    return results.join(starts, "run_id")


def _pass_rates(lake: Lake) -> list[dict]:
    if not lake.exists("audit.dq_results"):
        return []
    per_run = (
        _with_run_start(lake.read("audit.dq_results"))
        .groupBy("run_id", "started", "table_name")
        .agg(
            F.count("*").alias("rules"),
            F.sum(F.col("passed").cast("int")).alias("passed"),
        )
        .orderBy("started", "table_name")
    )
    return _rows(per_run)


def _quarantined_by_rule(lake: Lake) -> list[dict]:
    if not lake.exists("silver.claims_quarantine"):
        return []
    by_rule = (
        lake.read("silver.claims_quarantine")
        .select(F.explode("rules_broken").alias("broken"))
        .select(F.split("broken", ":").getItem(0).alias("rule"))
        .groupBy("rule")
        .agg(F.count("*").alias("rows"))
        .orderBy(F.desc("rows"), "rule")
    )
    return _rows(by_rule)


def _quarantined_by_run(lake: Lake) -> list[dict]:
    if not lake.exists("audit.dq_results"):
        return []
    by_run = (
        _with_run_start(lake.read("audit.dq_results"))
        .where(F.col("severity") == "quarantine")
        .groupBy("run_id", "started", "table_name")
        .agg(F.sum(F.coalesce("unexpected_count", F.lit(0))).alias("rows"))
        .orderBy("started", "table_name")
    )
    return _rows(by_run)


def _rejects_by_reason(lake: Lake) -> list[dict]:
    if not lake.exists("bronze.rejects"):
        return []
    by_reason = (
        lake.read("bronze.rejects")
        .groupBy(reason_kind(F.col("reason")).alias("reason"))
        .agg(
            F.count("*").alias("files"),
            F.max_by("source_uri", "rejected_at").alias("example"),
            F.max_by("reason", "rejected_at").alias("latest"),
        )
        .orderBy(F.desc("files"), "reason")
    )
    return _rows(by_reason)


def _facts_by_status(lake: Lake) -> list[dict]:
    if not lake.exists("gold.facts"):
        return []
    return _rows(lake.read("gold.facts").groupBy("status").agg(F.count("*").alias("facts")))


def _conflicts(lake: Lake) -> list[dict]:
    if not (lake.exists("gold.fact_conflicts") and lake.exists("gold.facts")):
        return []
    # As gold tells it: the outlet, else "site (site)", "title (title)" or "file (file)".
    outlets = (
        lake.read("gold.fact_evidence")
        .select(
            "article_id",
            F.when(F.col("reported_by_source") == "outlet", F.col("reported_by"))
            .otherwise(F.format_string("%s (%s)", "reported_by", "reported_by_source"))
            .alias("outlet"),
        )
        .distinct()
    )

    def side(column: str, alias: str):
        exploded = lake.read("gold.fact_conflicts").select(
            "conflict_id", F.explode(column).alias("article_id")
        )
        return (
            exploded.join(outlets, "article_id", "left")
            .groupBy("conflict_id")
            .agg(F.array_sort(F.collect_set(F.coalesce("outlet", "article_id"))).alias(alias))
        )

    facts = lake.read("gold.facts").select("fact_id", "label", "article_count")
    conflicts = (
        lake.read("gold.fact_conflicts")
        .join(facts, "fact_id")
        .join(side("articles_a", "outlets_a"), "conflict_id", "left")
        .join(side("articles_b", "outlets_b"), "conflict_id", "left")
        .select(
            "label",
            # As a person reads them: "May 20 (year not stated)", not --05-20.
            F.col("value_a_readable").alias("value_a"),
            F.col("value_b_readable").alias("value_b"),
            "outlets_a",
            "outlets_b",
            "attributions_a",
            "attributions_b",
            # why the two values were taken for one quantity
            "matched_parts",
            "match_confidence",
            "article_count",
        )
        .orderBy(F.desc("article_count"), "label", "value_a", "value_b")
        .limit(CONFLICTS_SHOWN)
    )
    return _rows(conflicts)


def _matched(conflict: dict) -> str:
    """The frame parts both sides state alike, and how sure the match is: "event, subject
    (1.0)"."""
    parts = conflict.get("matched_parts") or []
    confidence = conflict.get("match_confidence")
    return ", ".join(parts) + (f" ({confidence:.2f})" if confidence is not None else "")


def _latest_failures(lake: Lake) -> list[dict]:
    if not lake.exists("audit.dq_results"):
        return []
    results = lake.read("audit.dq_results")
    latest = results.groupBy("table_name").agg(F.max("evaluated_at").alias("evaluated_at"))
    broken = (
        results.join(latest, ["table_name", "evaluated_at"])
        .where(~F.col("passed"))
        .select(
            "table_name",
            "rule",
            "severity",
            "unexpected_count",
            "element_count",
            "unexpected_sample",
            "run_id",
        )
        .orderBy("table_name", "rule")
        .limit(FAILURES_SHOWN)
    )
    return _rows(broken)


# --- rendering -------------------------------------------------------------------------------


def _figures(data: DashboardData) -> list[tuple[str, str]]:
    """(title, plotly HTML fragment) for each plot; the first fragment carries plotly.js."""
    import plotly.graph_objects as go

    def run_label(point: dict) -> str:
        return f"{point['started']:%m-%d %H:%M} {point['run_id'][-6:]}"

    run_axis = {"type": "category", "title": "run (start, id)"}
    figures = []
    # One cell per table and run (rules passed / rules): a grid, so tables at 100% do not
    # hide one another as lines would.
    tables = sorted({r["table_name"] for r in data.pass_rates})
    runs = sorted({(r["started"], r["run_id"]) for r in data.pass_rates})
    cell = {(r["table_name"], r["run_id"]): r for r in data.pass_rates}
    rows = [[cell.get((t, run_id)) for _, run_id in runs] for t in tables]
    percent = [[None if c is None else 100.0 * c["passed"] / c["rules"] for c in r] for r in rows]
    counts = [["" if c is None else f"{c['passed']}/{c['rules']}" for c in r] for r in rows]
    rates = go.Figure(
        go.Heatmap(
            x=[run_label({"started": s, "run_id": r}) for s, r in runs],
            y=tables,
            z=percent,
            text=counts,
            texttemplate="%{text}",
            colorscale=[[0, "#c62828"], [0.9, "#f9a825"], [1, "#2e7d32"]],
            zmin=0,
            zmax=100,
            colorbar={"title": "% passed"},
            hovertemplate="%{y}<br>run %{x}<br>%{text} rules passed<extra></extra>",
        )
    )
    rates.update_layout(xaxis=run_axis, yaxis={"automargin": True})
    figures.append(("Contract rules passed per table and run", rates))

    statuses = sorted(data.facts_by_status, key=lambda r: list(STATUS_COLORS).index(r["status"]))
    facts = go.Figure(
        go.Bar(
            x=[r["status"] for r in statuses],
            y=[r["facts"] for r in statuses],
            marker_color=[STATUS_COLORS[r["status"]] for r in statuses],
            text=[r["facts"] for r in statuses],
            textposition="auto",
        )
    )
    facts.update_layout(yaxis={"title": "facts"})
    figures.append(("Facts by status", facts))

    quarantine = go.Figure()
    for table in sorted({r["table_name"] for r in data.quarantined_by_run}):
        points = [r for r in data.quarantined_by_run if r["table_name"] == table]
        quarantine.add_trace(
            go.Bar(x=[run_label(p) for p in points], y=[p["rows"] for p in points], name=table)
        )
    quarantine.update_layout(
        yaxis={"title": "rows breaking quarantine rules", "rangemode": "tozero"},
        xaxis=run_axis,
        barmode="stack",
    )
    if any(r["rows"] for r in data.quarantined_by_run):
        figures.append(("Rows quarantined per run", quarantine))
    else:
        figures.append(("Rows quarantined per run", "no row has been quarantined in any run"))

    fragments = []
    for index, (title, figure) in enumerate(figures):
        if isinstance(figure, str):  # nothing to plot: say so instead of an empty chart
            fragments.append((title, f"<p class='muted nodata'>{html.escape(figure)}</p>"))
            continue
        figure.update_layout(height=340, margin={"l": 60, "r": 20, "t": 20, "b": 40})
        fragment = figure.to_html(
            full_html=False,
            include_plotlyjs=index == 0,
            # No floating toolbar over the plot; hover still shows each point.
            config={"displayModeBar": False},
        )
        fragments.append((title, fragment))
    return fragments


def _e(value) -> str:
    if value is None:
        return "<span class=muted>—</span>"
    if isinstance(value, list):
        return "<br>".join(html.escape(str(v)) for v in value) or "<span class=muted>—</span>"
    return html.escape(str(value))


def _table(table_id: str, headers: list[str], rows: list[list], empty: str) -> str:
    if not rows:
        return f"<p class=muted id={table_id}>{html.escape(empty)}</p>"
    head = "".join(f"<th>{html.escape(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>" for row in rows)
    return f"<table id={table_id}><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _sample(raw: str | None) -> str:
    """Pretty JSON, whole: samples are already capped when recorded (rows and string length)."""
    if not raw:
        return ""
    try:
        text = json.dumps(json.loads(raw), indent=1, default=str, ensure_ascii=False)
    except ValueError:
        text = raw
    return f"<pre>{html.escape(text)}</pre>"


def render(data: DashboardData) -> str:
    """The whole page as one HTML string."""
    plots = "".join(
        f"<section><h2>{html.escape(title)}</h2>{fragment}</section>"
        for title, fragment in _figures(data)
    )
    tables = _table(
        "tables",
        ["table", "rows", "Delta version"],
        [[_e(t["table"]), _e(t["rows"]), _e(t["version"])] for t in data.tables],
        "no tables yet: run `claimhouse run` first",
    )
    conflicts = _table(
        "conflicts",
        ["fact", "value A", "reported by (A)", "attributed to (A)", "value B", "reported by (B)"]
        + ["attributed to (B)", "matched on"],
        [
            [
                f"<b>{_e(c['label'])}</b>",
                f"<b>{_e(c['value_a'])}</b>",
                _e(c["outlets_a"]),
                _e(c["attributions_a"]),
                f"<b>{_e(c['value_b'])}</b>",
                _e(c["outlets_b"]),
                _e(c["attributions_b"]),
                _e(_matched(c)),
            ]
            for c in data.conflicts
        ],
        "no conflicting facts",
    )
    failures = _table(
        "failures",
        ["table", "rule", "severity", "rows broken", "of rows", "run", "sample rows"],
        [
            [
                _e(f["table_name"]),
                f"<code>{_e(f['rule'])}</code>",
                f"<span class='sev {html.escape(f['severity'])}'>{_e(f['severity'])}</span>",
                _e(f["unexpected_count"]),
                _e(f["element_count"]),
                _e(f["run_id"]),
                _sample(f["unexpected_sample"]),
            ]
            for f in data.failures
        ],
        "every rule passed in each table's latest validation",
    )
    rejects = _table(
        "rejects",
        ["reason", "files", "latest file", "latest reason in full"],
        [
            [_e(r["reason"]), _e(r["files"]), f"<code>{_e(r['example'])}</code>", _e(r["latest"])]
            for r in data.rejects_by_reason
        ],
        "no input file has been rejected",
    )
    by_rule = _table(
        "by_rule",
        ["rule", "claims quarantined"],
        [[f"<code>{_e(r['rule'])}</code>", _e(r["rows"])] for r in data.quarantined_by_rule],
        "no claims in quarantine",
    )
    docs = (
        f'<a href="{html.escape(data.data_docs)}">Great Expectations Data Docs</a>'
        if data.data_docs
        else "<span class=muted>no Data Docs yet (run `claimhouse validate`)</span>"
    )
    total_facts = sum(r["facts"] for r in data.facts_by_status)
    return _PAGE.format(
        generated_at=html.escape(data.generated_at),
        warehouse=html.escape(data.warehouse),
        total_facts=total_facts,
        conflict_count=len(data.conflicts),
        failure_count=len(data.failures),
        docs=docs,
        plots=plots,
        tables=tables,
        conflicts=conflicts,
        failures=failures,
        by_rule=by_rule,
        rejects=rejects,
    )


def write_dashboard(spark: SparkSession, lake: Lake, out: Path) -> Path:
    """Write the dashboard for `lake` to `out` (an .html file); returns its absolute path."""
    out = out.resolve()
    out.parent.mkdir(parents=True, exist_ok=True)
    page = render(collect(spark, lake, out))
    out.write_text(page, encoding="utf-8")
    return out


_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<title>claimhouse data quality</title>
<style>
body {{ font-family: system-ui, sans-serif; margin: 24px; color: #222; max-width: 1400px; }}
h1 {{ margin-bottom: 0; }} h2 {{ margin-top: 32px; border-bottom: 1px solid #ddd; }}
.muted {{ color: #888; }}
table {{ border-collapse: collapse; width: 100%; font-size: 14px; }}
th, td {{ border: 1px solid #ddd; padding: 4px 8px; vertical-align: top; text-align: left; }}
th {{ background: #f5f5f5; }}
pre {{ margin: 0; max-height: 220px; overflow: auto; font-size: 12px;
       white-space: pre-wrap; word-break: break-word; }}
.sev {{ padding: 1px 6px; border-radius: 3px; color: white; }}
.sev.fail {{ background: #c62828; }} .sev.quarantine {{ background: #ef6c00; }}
.sev.warn {{ background: #f9a825; color: #222; }}
.cards {{ display: flex; gap: 16px; margin: 16px 0; }}
.card {{ border: 1px solid #ddd; border-radius: 6px; padding: 8px 16px; }}
.card b {{ font-size: 24px; display: block; }}
.grid {{ display: grid; grid-template-columns: 1fr 1fr; gap: 0 24px; }}
</style></head>
<body>
<h1>claimhouse data quality</h1>
<p class=muted>warehouse {warehouse} · generated {generated_at} · {docs}</p>
<div class=cards>
  <div class=card><b>{total_facts}</b>facts</div>
  <div class=card><b>{conflict_count}</b>conflicts</div>
  <div class=card><b>{failure_count}</b>rules broken in the latest validation</div>
</div>
<div class=grid>{plots}</div>
<section><h2>Conflicts: both sides, who reports them and who they are attributed to</h2>
{conflicts}</section>
<section><h2>Rules broken in each table's latest validation</h2>{failures}</section>
<section><h2>Claims in quarantine by rule</h2>{by_rule}</section>
<section><h2>Input files rejected by bronze, by reason</h2>{rejects}</section>
<section><h2>Tables</h2>{tables}</section>
</body></html>
"""
