"""count: how many of something ("300 people", "dozens of homes", "10 miles").

Found by the quantity finder (lake.silver.quantities), the one regex pass that also finds
percents, money and ratios; a count with a period after it ("3,000 a day") becomes a rate
(kinds.rate). Its words are the number words every quantity shares (lake.silver.lexicon).
"""

from __future__ import annotations

from lake.silver.kinds.base import Kind

KIND = Kind(
    name="count",
    summary="how many of something, with its unit where one is stated",
    finder="lake.silver.quantities:find_quantities",
    measure_key="lake.silver.measure:quantity_key",
    # "unknown": a count whose noun was not found names no quantity, so each such claim is a
    # fact of its own, which joins another only by a value large enough to name one (var
    # small_count): "234" votes in three outlets, not "0" nays twice in one.
    solitary_keys=("unknown",),
    examples=(("Police arrested 300 protesters on Friday.", "300 protesters"),),
)
