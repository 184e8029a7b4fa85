"""Difficulty of Link-up variants (sliding tiles, stacked layers) on the one scale.

The seeded players of :mod:`levelgen.linkup.difficulty.play` play the classic game only, so a
variant level is measured by players of its own moves (positions of the moment, top tiles;
:mod:`levelgen.linkup.core.variant_state`), giving the measures :func:`score_of` scores:

- ``trap_rate``: the chance that a random player's move loses the game, estimated from
  :data:`RUNS` seeded random play-outs: with ``w`` the share won and ``n`` the moves a game
  has, ``1 - w ** (1 / n)`` (a per-move risk that, taken ``n`` times, wins ``w`` of the
  games; ``w`` counts at least half a game, so a level no random player clears stays finite);
- ``greedy_win_rate``: 1 when a greedy player clears the board (it takes the most natural
  legal move: fewest turns, then the shortest path, then reading order), else 0;
- ``choice``: the mean number of legal moves before each step of the level's solution;
- ``tiles``, ``kinds`` and ``pair_distance`` (the mean distance, in cells, between the two
  tiles of each solution step) as for the classic game.

Same level, solution and seed: the same numbers.  Pure: no I/O, no global random.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..core.board import Board
from ..core.level import Difficulty
from ..core.moves import Move
from ..core.rules import Rules
from ..core.variant_state import VariantState, state_of

__all__ = ["RUNS", "measure_variant_difficulty"]

#: Seeded random play-outs per level.
RUNS = 16


def measure_variant_difficulty(
    board: Board, rules: Rules, solution: Sequence[Move], *, seed: int = 0
) -> Difficulty:
    """The :class:`~levelgen.linkup.core.level.Difficulty` of a variant level with its valid
    ``solution`` (see the module docstring)."""
    from .score import band_of, score_of

    start = state_of(board, rules)
    tiles = start.tile_count()
    kinds = len(set(_kinds(board)))
    steps = max(1, tiles // 2)
    choices = []
    state = start.copy()
    for move in solution:
        choices.append(state.move_count())
        state.remove_pair(move.a, move.b)
    wins = sum(
        _random_game(start, random.Random(f"linkup-variant:{seed}:{run}")) for run in range(RUNS)
    )
    share = max(0.5, wins) / RUNS
    distance = [abs(m.a.x - m.b.x) + abs(m.a.y - m.b.y) for m in solution]
    measures = {
        "trap_rate": round(1.0 - share ** (1.0 / steps), 4),
        "random_win_rate": round(wins / RUNS, 4),
        "greedy_win_rate": 1.0 if _greedy_game(start) else 0.0,
        "choice": round(sum(choices) / max(1, len(choices)), 4),
        "tiles": float(tiles),
        "kinds": float(kinds),
        "pair_distance": round(sum(distance) / max(1, len(distance)), 4),
    }
    score = score_of(measures)
    return Difficulty(score, band_of(score), measures)


def _kinds(board: Board) -> list[int]:
    return [value for layer in (board.cells, *board.upper) for value in layer if value >= 1]


def _random_game(start: VariantState, rng: random.Random) -> bool:
    """Whether a player taking a random legal move each turn clears the board."""
    state = start.copy()
    pos = state.layout.pos
    while state.tile_count():
        pairs = sorted(state.legal_pairs())
        if not pairs:
            return False
        a, b = pairs[rng.randrange(len(pairs))]
        state.remove_pair(pos(a), pos(b))
    return True


def _greedy_game(start: VariantState) -> bool:
    """Whether a player taking the most natural legal move each turn clears the board."""
    state = start.copy()
    pos = state.layout.pos
    while state.tile_count():
        best: tuple[int, int, int, int] | None = None
        for a_bit, b_bit in sorted(state.legal_pairs()):
            path = state.find_path(pos(a_bit), pos(b_bit))
            if path is not None:
                key = (path.turns, path.length, a_bit, b_bit)
                best = key if best is None or key < best else best
        if best is None:
            return False
        state.remove_pair(pos(best[2]), pos(best[3]))
    return True
