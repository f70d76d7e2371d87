"""percent: a share written as a percentage ("12%", "12 percent", "3 percentage points").

Found by the quantity finder (lake.silver.quantities): PERCENT_SIGN after a figure makes it a
percent; the value is the stated number (12, not 0.12), the unit "percent".
"""

from __future__ import annotations

from lake.silver.kinds.base import Kind

# The sign or word after a figure that makes it a percent (a regex fragment, group `pct`).
PERCENT_SIGN = r"(?:\s?(?P<pct>%|percent\b|per\s?cent\b|percentage points?\b))?"

KIND = Kind(
    name="percent",
    summary="a percentage, in percent (12 for 12%)",
    finder="lake.silver.quantities:find_quantities",
    measure_key="lake.silver.measure:quantity_key",
    words={"PERCENT_SIGN": PERCENT_SIGN},
    examples=(("Turnout fell 12 percent from 2016.", "12 percent"),),
)
