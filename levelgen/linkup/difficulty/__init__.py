"""Measured difficulty: facts about a level observed along its solution.

Pure: only counts legal moves on states.  ``count_moves`` counts one state from scratch;
``solution_move_counts`` counts every state along a solution incrementally, which is what the
generator needs (a 24x14 level has 168 states).  Richer measures (dead-end rate of random play,
forced moves) belong here too.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..core.board import Board
from ..core.level import Difficulty, Metrics
from ..core.live import LiveLinks
from ..core.moves import Move, legal_pairs
from ..core.rules import Rules
from ..verify import Problem

__all__ = [
    "LiveLinks",
    "count_moves",
    "difficulty_problems",
    "metrics_problems",
    "solution_metrics",
    "solution_move_counts",
]


def count_moves(board: Board, rules: Rules) -> int:
    """The number of legal moves (linkable same-kind pairs) on ``board`` now."""
    lay = board.layout
    return len(
        legal_pairs(
            board.kind_masks().values(), board.free_mask(rules.outside), rules.max_turns, lay.stride
        )
    )


def solution_move_counts(board: Board, rules: Rules, moves: Sequence[Move]) -> list[int]:
    """The number of legal moves on each state along ``moves``, before each step (so one count
    per move, the first being ``count_moves(board, rules)``).

    ``moves`` must be a valid solution (or prefix of one) of ``board``: this does not check
    legality, it only counts, with :class:`levelgen.linkup.core.live.LiveLinks` (the live move list
    of the play engine too; importable from here as before)."""
    live = LiveLinks(board, rules)
    stride = live.stride
    counts = []
    for move in moves:
        counts.append(live.count)
        live.remove((move.a.y + 1) * stride + move.a.x + 1, (move.b.y + 1) * stride + move.b.x + 1)
    return counts


def solution_metrics(board: Board, rules: Rules, moves: Sequence[Move]) -> Metrics:
    """Moves available at the start, their mean along ``moves`` (before each step), and the
    turn histogram of the solution's paths.  ``moves`` must be a valid solution."""
    if board.upper or rules.slide != "none":  # variants: levelgen.linkup.verify.variants
        from ..verify.variants import variant_metrics

        return variant_metrics(board, rules, moves)
    counts = solution_move_counts(board, rules, moves)
    hist = [0] * (rules.max_turns + 1)
    for move in moves:
        hist[move.path.turns] += 1
    start = counts[0] if counts else 0
    mean = round(sum(counts) / len(counts), 4) if counts else 0.0
    return Metrics(start_moves=start, mean_moves=mean, turn_histogram=tuple(hist))


def metrics_problems(
    board: Board, rules: Rules, moves: Sequence[Move], stated: Metrics
) -> list[Problem]:
    """Where the ``stated`` metrics of a level differ from those measured along its solution
    ``moves`` (which must be valid): one problem per field, pointing into ``/metrics``.
    ``extra`` measurements are not checked (they may come from other tools)."""
    measured = solution_metrics(board, rules, moves)
    out: list[tuple[str, object, object]] = []
    if stated.start_moves != measured.start_moves:
        out.append(("start_moves", stated.start_moves, measured.start_moves))
    if abs(stated.mean_moves - measured.mean_moves) > 0.5e-4:
        out.append(("mean_moves", stated.mean_moves, measured.mean_moves))
    if tuple(stated.turn_histogram) != measured.turn_histogram:
        out.append(("turn_histogram", list(stated.turn_histogram), list(measured.turn_histogram)))
    problems = [
        Problem(f"/metrics/{name}", f"states {said} but the solution gives {real}")
        for name, said, real in out
    ]
    if stated.difficulty is not None:
        problems.extend(difficulty_problems(stated.difficulty))
    return problems


def difficulty_problems(stated: Difficulty) -> list[Problem]:
    """Where a stated difficulty contradicts itself: a score that its stated measures do not
    give, or a band that is not the score's.  (The measures themselves come from seeded play
    and are not measured again here: that would cost as much as making the level.)"""
    from .score import SCORED, band_of, score_of

    out = []
    if all(name in stated.measures for name in SCORED):
        score = score_of(stated.measures)
        if abs(score - stated.score) > 0.05:
            out.append(
                Problem(
                    "/metrics/difficulty/score",
                    f"states {stated.score} but its measures give {score}",
                )
            )
    band = band_of(stated.score)
    if stated.band != band:
        out.append(
            Problem(
                "/metrics/difficulty/band",
                f"states {stated.band!r} but a score of {stated.score} is {band!r}",
            )
        )
    return out
