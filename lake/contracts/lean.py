"""claimhouse's own Great Expectations expectations and metric, registered on import.

GE's UnexpectedRowsExpectation runs its query twice: a count, and a fetch of up to 200 rows
that it returns only in the COMPLETE result format. claimhouse validates with SUMMARY and
samples a broken rule's rows itself (lake.contracts.run), so every rule paid a second Spark
query for rows it threw away: at 10,000 articles, gold's rules that join silver.claims read it
twice. UnexpectedRowsCountExpectation depends on the count alone.

A row rule (a predicate on one row) needs no query of its own at all: its count of broken
rows is an aggregate, which GE's Spark engine computes in one `agg` over the batch together
with the table's other aggregates (row count, not-null and in-set counts). Both expectations'
results, renderers and Data Docs pages are UnexpectedRowsExpectation's.
"""

from __future__ import annotations

from typing import Any, ClassVar

from great_expectations.core.metric_domain_types import MetricDomainTypes
from great_expectations.core.metric_function_types import MetricPartialFunctionTypes
from great_expectations.execution_engine import SparkDFExecutionEngine
from great_expectations.expectations import UnexpectedRowsExpectation
from great_expectations.expectations.metrics.metric_provider import metric_partial
from great_expectations.expectations.metrics.table_metric_provider import TableMetricProvider

from lake.contracts.compile import broken_count

PREDICATE_METRIC = "claimhouse.predicate.unexpected_count"


class UnexpectedRowsCountExpectation(UnexpectedRowsExpectation):
    """Expect `unexpected_rows_query` to return no rows, counting them without fetching any."""

    # the one metric this expectation depends on: the count of unexpected rows
    metric_dependencies: ClassVar[tuple[str, ...]] = ("unexpected_rows_query.row_count",)

    def _validate(
        self,
        metrics: dict,
        runtime_configuration: dict | None = None,
        execution_engine: Any = None,
    ) -> dict:
        (metric,) = self.metric_dependencies
        count = metrics[metric]
        return {"success": count == 0, "result": {"observed_value": count}}


class PredicateUnexpectedCount(TableMetricProvider):
    """Rows of the batch where `predicate` is not true (NULL counts as broken), as an
    aggregate GE bundles with the batch's others."""

    metric_name = PREDICATE_METRIC
    value_keys = ("predicate",)

    @metric_partial(
        engine=SparkDFExecutionEngine,
        partial_fn_type=MetricPartialFunctionTypes.AGGREGATE_FN,
        domain_type=MetricDomainTypes.TABLE,
    )
    def _spark(
        cls,
        execution_engine: SparkDFExecutionEngine,
        metric_domain_kwargs: dict,
        metric_value_kwargs: dict,
        metrics: dict,
        runtime_configuration: dict,
    ):
        return broken_count(metric_value_kwargs["predicate"]), metric_domain_kwargs, {}


class PredicateRowsCountExpectation(UnexpectedRowsCountExpectation):
    """Expect no row of the batch to break `predicate`; `unexpected_rows_query` is the same
    rule as a query, shown in Data Docs and usable in any SQL client."""

    predicate: str
    metric_dependencies: ClassVar[tuple[str, ...]] = (PREDICATE_METRIC,)
    success_keys: ClassVar[tuple[str, ...]] = ("unexpected_rows_query", "predicate")
