"""The dashboard page from aggregates alone (no Spark): what it says when there is nothing to
plot, and how runs of several tables read."""

from __future__ import annotations

from datetime import datetime

from lake.dashboard import DashboardData, render


def _data(**given) -> DashboardData:
    empty = dict.fromkeys(
        ["tables", "pass_rates", "quarantined_by_rule", "quarantined_by_run"]
        + ["rejects_by_reason", "facts_by_status", "conflicts", "failures"],
        [],
    )
    return DashboardData(
        **{**empty, "generated_at": "now", "warehouse": "/wh", "data_docs": None, **given}
    )


def test_a_lake_that_never_quarantined_says_so_instead_of_an_empty_chart():
    started = datetime(2026, 11, 26, 9, 0)
    runs = [
        {"run_id": "r1", "started": started, "table_name": "silver.claims", "rows": 0},
        {"run_id": "r1", "started": started, "table_name": "bronze.articles", "rows": 0},
    ]
    page = render(_data(quarantined_by_run=runs))
    assert "no row has been quarantined in any run" in page
    assert "no input file has been rejected" in page


def test_pass_rates_of_tables_at_100_percent_are_separate_cells():
    started = datetime(2026, 11, 26, 9, 0)
    rates = [
        {"run_id": f"r{i}", "started": started.replace(minute=i), "table_name": t}
        | {"rules": 10, "passed": 10}
        for i in range(2)
        for t in ("bronze.articles", "silver.claims", "gold.facts")
    ]
    page = render(_data(pass_rates=rates))
    # One heatmap trace (plotly's own template names the type too, without data).
    assert page.count('"zmin":0,"type":"heatmap"') == 1
    # Each table and run has its own cell, labelled with its count (plotly escapes "/").
    assert page.count('"10\\u002f10"') == 6
    assert '{"displayModeBar": false, "responsive": true}' in page  # no toolbar over it
