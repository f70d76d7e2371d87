"""claimhouse's one Great Expectations expectation of its own, registered on import.

GE's UnexpectedRowsExpectation runs its query twice: a count, and a fetch of up to 200 rows
that it returns only in the COMPLETE result format. claimhouse validates with SUMMARY and
samples a broken rule's rows itself (lake.contracts.run), so every rule paid a second Spark
query for rows it threw away: at 10,000 articles, gold's rules that join silver.claims read it
twice. This subclass depends on the count alone; its results, renderers and Data Docs pages are
its parent's.
"""

from __future__ import annotations

from typing import Any, ClassVar

from great_expectations.expectations import UnexpectedRowsExpectation


class UnexpectedRowsCountExpectation(UnexpectedRowsExpectation):
    """Expect `unexpected_rows_query` to return no rows, counting them without fetching any."""

    metric_dependencies: ClassVar[tuple[str, ...]] = ("unexpected_rows_query.row_count",)

    def _validate(
        self,
        metrics: dict,
        runtime_configuration: dict | None = None,
        execution_engine: Any = None,
    ) -> dict:
        count = metrics["unexpected_rows_query.row_count"]
        return {"success": count == 0, "result": {"observed_value": count}}
