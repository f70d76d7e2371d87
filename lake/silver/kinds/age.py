"""age: how old someone or something is ("Jane Roe, 46,", "the 42-year-old", "aged 42").

Found by the duration finder (lake.silver.durations). An age is in years, or in the unit
stated ("an 18-month-old": 18 months); gold compares ages in years (gold_unit), through the
duration's table of units (kinds.duration.DAYS_PER_UNIT).
"""

from __future__ import annotations

from lake.silver.kinds.base import Kind
from lake.silver.kinds.duration import DAYS_PER_UNIT

# The oldest age read: "Jane Roe, 460," is no age.
MAX_AGE = 120

KIND = Kind(
    name="age",
    summary="how old someone is, in its stated unit (gold: years)",
    finder="lake.silver.durations:find_durations",
    measure_key="lake.silver.measure:duration_key",
    words={"MAX_AGE": MAX_AGE},
    gold_unit="years",
    units=DAYS_PER_UNIT,
    unreconciled_keys=("age:unnamed",),
    examples=(("The driver, aged 42, was not hurt.", "42"),),
)
