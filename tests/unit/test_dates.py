"""Resolving a date written without its year, on sentences written for these tests."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from lake.silver.dates import find_dates


@pytest.mark.parametrize(
    "sentence, published, value",
    [
        # the weekday names the year: Sept. 3 is a Wednesday in 2025, a Tuesday in 2024
        ("Voting closes on Wednesday, Sept. 3.", "2025-07-28", "2025-09-03"),
        ("Voting closed on Tuesday, Sept. 3.", "2025-07-28", "2024-09-03"),
        # a clause about the future does not date months before publication
        ("The new rules will apply from April 1.", "2024-02-24", "2024-04-01"),
        ("The board is scheduled to vote on June 30.", "2024-03-02", "2024-06-30"),
        ("Crews must finish by early July.", "2024-04-10", "2024-07-01/2024-07-10"),
        # without one, the latest such day not long after publication
        ("The plant closed on April 1.", "2024-02-24", "2023-04-01"),
        ("The plant will close on Feb. 20.", "2024-02-24", "2024-02-20"),
    ],
)
def test_a_date_without_its_year(sentence, published, value):
    when = datetime.fromisoformat(published).replace(tzinfo=UTC)
    (mention,) = find_dates(sentence, when)
    assert mention.value_text == value
