"""Measured difficulty: facts about a level observed along its solution.

Pure: only counts legal moves on states.  Richer measures (dead-end rate of random play, forced
moves) belong here too.
"""

from __future__ import annotations

from collections.abc import Sequence

from .board import Board
from .level import Metrics
from .moves import Move, legal_pairs
from .rules import Rules

__all__ = ["count_moves", "solution_metrics"]


def count_moves(board: Board, rules: Rules) -> int:
    """The number of legal moves (linkable same-kind pairs) on ``board`` now."""
    lay = board.layout
    return len(
        legal_pairs(
            board.kind_masks().values(), board.free_mask(rules.outside), rules.max_turns, lay.stride
        )
    )


def solution_metrics(board: Board, rules: Rules, moves: Sequence[Move]) -> Metrics:
    """Moves available at the start, their mean along ``moves`` (before each step), and the
    turn histogram of the solution's paths.  ``moves`` must be a valid solution."""
    counts = []
    hist = [0] * (rules.max_turns + 1)
    for move in moves:
        counts.append(count_moves(board, rules))
        hist[move.path.turns] += 1
        board = board.without(move.a, move.b)
    start = counts[0] if counts else 0
    mean = round(sum(counts) / len(counts), 4) if counts else 0.0
    return Metrics(start_moves=start, mean_moves=mean, turn_histogram=tuple(hist))
