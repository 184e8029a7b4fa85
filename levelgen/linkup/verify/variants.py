"""Replay a removal sequence on a variant board (sliding tiles or stacked layers).

The same checks as :func:`levelgen.linkup.verify.replay`, in the same order and with the same JSON
pointers, on the state of :mod:`levelgen.linkup.core.variant_state`: both cells on the board and
distinct, both hold (top) tiles of the stated kind, the path runs from ``a`` to ``b``, is legal at
that moment (checked cell by cell, no path finder: for layers every interior cell's stack is no
higher than the path's height) and is a *best* path; then the two tiles go and, under a sliding
rule, every tile slides.  A step's ``a``, ``b`` and path are in the positions of that moment,
after the slides of the earlier steps.  At the end no tile may remain.  Never calls a solver.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...formats.words import remain
from ..core.board import Board
from ..core.geometry import Pos
from ..core.layers_analysis import stacked_move_counts
from ..core.level import Metrics
from ..core.moves import Move
from ..core.rules import Rules
from ..core.variant_state import state_of
from .steps import Problem, not_best_problem, step_problem

__all__ = ["replay_variant", "variant_metrics", "variant_move_counts"]


def replay_variant(board: Board, rules: Rules, moves: Sequence[Move]) -> list[Problem]:
    """Problems found replaying ``moves`` on the variant ``board`` (empty: valid).  Stops at
    the first illegal step."""
    try:
        state = state_of(board, rules)
    except ValueError as exc:
        return [Problem("/rules/slide", str(exc))]
    width, height = board.width, board.height
    for i, move in enumerate(moves):
        here = f"/solution/{i}"
        a, b = move.a, move.b
        problem = step_problem(i, move, width, height, state.top)
        if problem is not None:
            return [problem]
        path = move.path
        reason = state.path_problem(path)
        if reason is not None:
            return [Problem(f"{here}/path", reason)]
        best = state.find_path(a, b)
        if best is None:  # pragma: no cover - a legal path exists, so a best one does
            raise AssertionError("a legal path exists but the best-path finder found none")
        if (path.turns, path.length) != (best.turns, best.length):
            return [not_best_problem(i, path.turns, path.length, (best.turns, best.length))]
        state.remove_pair(a, b)
    left = state.tile_count()
    if left:
        first = next(
            Pos(i % width, i // width)
            for i in range(width * height)
            if state.top(Pos(i % width, i // width)) >= 1
        )
        return [
            Problem("/solution", f"after the last step {remain(left, 'tile')}, first at {first}")
        ]
    return []


def variant_move_counts(board: Board, rules: Rules, moves: Sequence[Move]) -> list[int]:
    """The number of legal moves before each step of the valid solution ``moves`` (each state
    counted from scratch under sliding, where no link survives a removal for sure;
    incrementally for layers, see :func:`levelgen.linkup.core.layers.stacked_move_counts`)."""
    if board.upper:
        return stacked_move_counts(board, rules, [(m.a, m.b) for m in moves])
    state = state_of(board, rules)
    counts = []
    for move in moves:
        counts.append(state.move_count())
        state.remove_pair(move.a, move.b)
    return counts


def variant_metrics(
    board: Board, rules: Rules, moves: Sequence[Move], counts: Sequence[int] | None = None
) -> Metrics:
    """:func:`levelgen.linkup.difficulty.solution_metrics` for a variant board: moves at the start,
    their mean along ``moves`` (before each step) and the turn histogram of the paths.
    ``counts``: the move counts of :func:`variant_move_counts`, when the caller has them."""
    if counts is None:
        counts = variant_move_counts(board, rules, moves)
    hist = [0] * (rules.max_turns + 1)
    for move in moves:
        hist[move.path.turns] += 1
    start = counts[0] if counts else 0
    mean = round(sum(counts) / len(counts), 4) if counts else 0.0
    return Metrics(start_moves=start, mean_moves=mean, turn_histogram=tuple(hist))
