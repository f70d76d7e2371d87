"""Deterministic synthetic news corpus with ground truth (claims, facts, non-claims).

Use ``from lake.synthetic.generate import generate`` or
``python -m lake.synthetic.generate --articles N --events M --seed S --out DIR``.
"""
