"""Link-up's ``shuffle`` operation of the family table: a solvable re-deal of a position."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...formats.budget import Budget
from ...formats.words import plural
from ...puzzles import ShuffleAnswer, SpecError
from .position import Position

__all__ = ["MAX_MIN_MOVES", "shuffle_answer"]

#: The most legal moves a shuffle may be asked to leave (a 64x64 board's cells).
MAX_MIN_MOVES = 64 * 64


def shuffle_answer(
    position: Position, *, seed: int, budget: Budget, options: Mapping[str, Any]
) -> ShuffleAnswer:
    """The remaining tiles of ``position`` re-dealt over the same cells from ``seed`` so that
    the board can be cleared (its solution proves it; the answer's document is that level);
    ``options``: ``min_moves``, the legal moves the deal must offer (default 1)."""
    from ..core.variant_state import is_variant, state_of
    from .answers import shuffle_to_data
    from .shuffle import shuffle
    from .variants import variant_shuffle

    unknown = sorted(set(options) - {"min_moves"})
    if unknown:
        raise SpecError(unknown[0], "not an option of linkup's shuffle (its options: min_moves)")
    min_moves = options.get("min_moves", 1)
    if isinstance(min_moves, bool) or not isinstance(min_moves, int):
        raise SpecError("min_moves", f"expected a whole number in 0..{MAX_MIN_MOVES}")
    if not 0 <= min_moves <= MAX_MIN_MOVES:
        raise SpecError("min_moves", f"expected a whole number in 0..{MAX_MIN_MOVES}")
    board, rules = position.board, position.rules
    variant = is_variant(board, rules)
    shuffler = variant_shuffle if variant else shuffle
    result = shuffler(board, rules, seed, min_moves=min_moves, budget=budget)
    details = shuffle_to_data(result)
    if result.status != "shuffled":
        return ShuffleAnswer(
            result.status, f"shuffle {result.status}: {result.reason}", None, details
        )
    tiles = state_of(board, rules).tile_count() if variant else board.tile_count()
    same = "; the only arrangement of these tiles" if result.same_as_input else ""
    text = (
        f"shuffled {plural(tiles, 'tile')} (seed {seed}):"
        f" {plural(result.legal_moves, 'legal move')},"
        f" a solution of {plural(len(result.solution), 'step')}{same}"
    )
    return ShuffleAnswer("shuffled", text, result.level(), details)
