"""Link-up's shuffle through the family table: a position's tiles re-dealt into a solvable
position, answered as ``levelgen shuffle --json`` prints it (:func:`.answers.shuffle_to_data`),
with the table's three-way status (``ok`` shuffled, ``unsolvable`` impossible, ``unknown``
no deal found within the attempts or the budget).  Options: ``min_moves``, the legal moves the
new board must offer (0..4096, default 1)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...formats.budget import Budget
from ...puzzles import HintAnswer, SpecError
from .answers import shuffle_to_data
from .position import Position

__all__ = ["MAX_MIN_MOVES", "shuffle_answer"]

#: The most legal moves a shuffle may be asked to leave (a 64x64 board's cells).
MAX_MIN_MOVES = 64 * 64


def shuffle_answer(
    position: Position, seed: int, budget: Budget, options: Mapping[str, Any]
) -> HintAnswer:
    """The shuffle of ``position`` from ``seed``; :class:`SpecError` names a bad option."""
    from ..core.variant_state import is_variant
    from .shuffle import shuffle
    from .variants import variant_shuffle

    for name in options:
        if name != "min_moves":
            raise SpecError(name, "not an option of linkup's shuffle (its options: min_moves)")
    min_moves = options.get("min_moves", 1)
    if isinstance(min_moves, bool) or not isinstance(min_moves, int):
        raise SpecError("min_moves", f"expected a whole number in 0..{MAX_MIN_MOVES}")
    if not 0 <= min_moves <= MAX_MIN_MOVES:
        raise SpecError("min_moves", f"expected a whole number in 0..{MAX_MIN_MOVES}")
    shuffler = variant_shuffle if is_variant(position.board, position.rules) else shuffle
    result = shuffler(position.board, position.rules, seed, min_moves=min_moves, budget=budget)
    status = {"shuffled": "ok", "impossible": "unsolvable"}.get(result.status, "unknown")
    text = f"shuffle {result.status}" + (f": {result.reason}" if result.reason else "")
    return HintAnswer(status, text, shuffle_to_data(result))
