"""Deterministic synthetic news corpus with ground truth (claims, facts, non-claims).

Use ``from synthetic.generate import generate`` or
``python -m synthetic.generate --articles N --events M --seed S --out DIR``.
"""
