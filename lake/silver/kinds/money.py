"""money: an amount of a currency ("$2 million", "€20 million", "USD 200").

Found by the quantity finder (lake.silver.quantities); the unit is the ISO 4217 currency
code. Gold reconciles amounts of one currency only: dbt's measure_axis macro adds the unit to
money's axis (unit_on_axis).
"""

from __future__ import annotations

from lake.silver.kinds.base import Kind

# ISO 4217 codes written beside a figure ("USD 200", "EUR1.2 billion", "115 USD"), upper case only.
CURRENCY_CODES = (
    "USD", "EUR", "GBP", "JPY", "CNY", "CHF", "CAD", "AUD", "NZD", "INR", "HKD", "SGD", "KRW",
    "RUB", "BRL", "MXN", "SEK", "NOK", "DKK", "ZAR", "TRY",
)  # fmt: skip
# A scale letter before a currency code, as financial reports write it: "MUSD 30", "120 MEUR",
# "KSEK 500" (case-sensitive: "musd" is not a code).
CURRENCY_CODE_SCALES = {"M": 1_000_000, "K": 1_000}
CURRENCY_SYMBOLS = {
    "$": "USD",
    "元": "CNY",
    "US$": "USD",
    "€": "EUR",
    "£": "GBP",
    "¥": "JPY",
    **{code: code for code in CURRENCY_CODES},
}
CURRENCY_WORDS = {
    **{code.lower(): code for code in CURRENCY_CODES},
    "dollars": "USD",
    "dollar": "USD",
    "euros": "EUR",
    "euro": "EUR",
    "pounds": "GBP",
    "yen": "JPY",
    "rupees": "INR",
    "yuan": "CNY",
}
# Currencies whose hundredth has a name: "3 dollars 50 cents" is 3.50, "15 euros 50" 15.50.
CENT_CURRENCIES = frozenset(
    ["USD", "EUR", "GBP", "CAD", "AUD", "NZD", "HKD", "SGD", "CHF", "INR", "ZAR", "MXN", "BRL"]
)
SUBUNIT_WORDS = frozenset(["cent", "cents", "pence", "penny", "pennies", "p"])

# Heads that say "an amount" rather than what the money is for: "a bond measure worth $1.3
# billion" is the bond; "a relief package of $2 million" is the relief.
MONEY_PLACEHOLDER_HEADS = {"measure", "package", "amount", "sum", "figure", "deal", "plan", "bill"}

KIND = Kind(
    name="money",
    summary="an amount of money; unit: the ISO 4217 currency code",
    finder="lake.silver.quantities:find_quantities",
    measure_key="lake.silver.measure:quantity_key",
    words={
        "CURRENCY_CODES": CURRENCY_CODES,
        "CURRENCY_CODE_SCALES": CURRENCY_CODE_SCALES,
        "CURRENCY_SYMBOLS": CURRENCY_SYMBOLS,
        "CURRENCY_WORDS": CURRENCY_WORDS,
        "CENT_CURRENCIES": CENT_CURRENCIES,
        "SUBUNIT_WORDS": SUBUNIT_WORDS,
        "MONEY_PLACEHOLDER_HEADS": MONEY_PLACEHOLDER_HEADS,
    },
    unit_on_axis=True,
    examples=(("The city spent $2 million on the repairs.", "$2 million"),),
)
