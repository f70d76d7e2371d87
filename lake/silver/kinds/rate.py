"""rate: a count per period ("3,000 a day", "$10 an hour" is money per hour).

Found by the quantity finder (lake.silver.quantities): a count followed by a period word or
written with a period adverb turns into a rate; claims carry the period in `per`.
"""

from __future__ import annotations

from lake.silver.kinds.base import Kind

RATE_PERIODS = {
    "day": "day",
    "week": "week",
    "month": "month",
    "year": "year",
    "hour": "hour",
    "quarter": "quarter",
    "annum": "year",
}

RATE_ADVERBS = {
    "daily": "day",
    "weekly": "week",
    "monthly": "month",
    "annually": "year",
    "yearly": "year",
    "hourly": "hour",
    "quarterly": "quarter",
}

KIND = Kind(
    name="rate",
    summary="a count per period (per: day, week, month, year, hour, quarter)",
    finder="lake.silver.quantities:find_quantities",
    measure_key="lake.silver.measure:quantity_key",
    words={"RATE_PERIODS": RATE_PERIODS, "RATE_ADVERBS": RATE_ADVERBS},
    examples=(("The border patrol caught 3,000 migrants a day last month.", "3,000 migrants"),),
)
