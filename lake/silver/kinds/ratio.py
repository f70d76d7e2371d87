"""ratio: a multiple or a share not written as a percent ("doubled", "three times as many",
"two-thirds of voters", "one in five").

Found by the quantity finder (lake.silver.quantities).
"""

from __future__ import annotations

from lake.silver.kinds.base import Kind

MULTIPLIERS = {
    "double": 2.0,
    "doubled": 2.0,
    "doubling": 2.0,
    "twice": 2.0,
    "triple": 3.0,
    "tripled": 3.0,
    "tripling": 3.0,
    "threefold": 3.0,
    "quadruple": 4.0,
    "quadrupled": 4.0,
    "fourfold": 4.0,
    "fivefold": 5.0,
    "tenfold": 10.0,
    "half": 0.5,
}

# Words before a fraction word that make it a part of a sequence, not a share: "the second
# half of the year", "the first quarter of 2020".
NOT_A_SHARE_BEFORE = {"the", "first", "second", "third", "fourth", "last", "final", "other"}

KIND = Kind(
    name="ratio",
    summary="a multiple (unit: times) or a share (0.667 for two-thirds)",
    finder="lake.silver.quantities:find_quantities",
    measure_key="lake.silver.measure:quantity_key",
    words={"MULTIPLIERS": MULTIPLIERS, "NOT_A_SHARE_BEFORE": NOT_A_SHARE_BEFORE},
    examples=(("Arrests have doubled since January.", "doubled"),),
)
