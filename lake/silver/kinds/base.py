"""What one claim kind declares (lake.silver.kinds lists them)."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Kind:
    """One claim kind: silver.claims.kind's value and everything specific to it.

    name: the value of silver.claims.kind and gold.facts.kind.
    summary: one line on what a claim of this kind states.
    finder: "module:function" of the finder that emits it, over one sentence. Several kinds
        share a finder (one regex pass finds a count, a percent or an amount of money), so this
        is a reference, resolved on use: the finders import the kinds' words, not the reverse.
    measure_key: "module:function" that names what a claim of this kind measures.
    words: the vocabulary only this kind reads (name -> table); the finders import these tables
        from the kind's module (lake.silver.lexicon re-exports the ones it used to hold).
    gold_unit: the unit gold compares values of this kind in, whatever unit the article stated
        (a duration in days, an age in years); one of `units`. None keeps the stated unit.
    units: what one of each unit a claim of this kind may state is, in any one base unit of
        the kind's own ({"days": 1, "weeks": 7, ...}): gold scales a claim's bounds by its
        unit's entry over gold_unit's (dbt var unit_scales, macros/time_units.sql), so a kind
        with units of its own needs no SQL.
    unit_on_axis: claims of this kind in different units never reconcile ("$20 million" and
        "€20 million" are two amounts): dbt's measure_axis adds the unit (var unit_axis_kinds).
    unreconciled_keys: measure_keys of this kind that stay in silver but make no fact.
    solitary_keys: measure_keys naming no event or no quantity: each claim is a fact of its own,
        and the key nests in no other (macros/measures.sql: nested_keys).
    named_only_keys: measure_keys that reconcile only when the claim names who spoke.
    examples: sentences and the claim text the finder must emit as this kind
        (tests/unit/test_kinds.py runs them).
    reads: for a kind the shared quantity finder emits by reading its mentions again (a count
        of miles is a length): that reading, (sentence, mentions) -> mentions, run by the
        finder over each sentence's mentions in the registry's order.
    frame_as: for a kind whose own rule names its measure from its frame: the (kind, unit)
        the frame is read as (a length as a count of its unit). Its `measure_key` then takes
        (frame, claim_text, the sentence's text after the claim).
    restates: with frame_as: (the text between two claims of this kind in one sentence) ->
        whether the second restates the first ("12 miles (19 kilometers)"), and so takes its
        measure.
    """

    name: str
    summary: str
    finder: str
    measure_key: str
    words: Mapping[str, Any] = field(default_factory=dict)
    gold_unit: str | None = None
    units: Mapping[str, float] = field(default_factory=dict)
    unit_on_axis: bool = False
    unreconciled_keys: tuple[str, ...] = ()
    solitary_keys: tuple[str, ...] = ()
    named_only_keys: tuple[str, ...] = ()
    examples: tuple[tuple[str, str], ...] = ()
    reads: Callable[[str, list[Any]], list[Any]] | None = None
    frame_as: tuple[str, str] | None = None
    restates: Callable[[str], bool] | None = None

    def find(self) -> Callable[..., list]:
        """The finder function itself."""
        return _resolve(self.finder)

    def key(self) -> Callable[..., tuple[str, list[str]]]:
        """The measure_key function itself."""
        return _resolve(self.measure_key)


def _resolve(reference: str) -> Callable[..., Any]:
    module, _, name = reference.partition(":")
    return getattr(importlib.import_module(module), name)
