"""Replay a removal sequence move by move; never calls a solver and never trusts one.

Each problem is reported with a JSON pointer into the level file (``/solution/17/path``) and a
reason a person can act on.  The checks, in order, for each step: both cells on the board and
distinct, both hold tiles of the stated kind, the stated path runs from ``a`` to ``b`` and is a
legal link at that moment (checked cell by cell, without any path finder), and it is a *best*
path (its turns and length equal those of the exact best path).  At the end the board must hold
no tile.  (Stated metrics are checked by :func:`levelgen.linkup.difficulty.metrics_problems`.)
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from ...formats.words import remain
from ..core.board import Board
from ..core.geometry import Pos
from ..core.moves import Move
from ..core.paths import Path, best_link_measure, path_problem
from ..core.rules import Rules
from .steps import Problem, not_best_problem, step_problem

__all__ = ["Problem", "replay", "step_problem"]


def replay(board: Board, rules: Rules, moves: Sequence[Move]) -> list[Problem]:
    """Problems found replaying ``moves`` on ``board`` (empty list: the solution is valid).

    Replay stops at the first illegal step, since later steps would be judged on a wrong
    board.  The state is a list of cells and the mask of free cells, changed in place: no
    board is rebuilt per step (a board is built only to explain an illegal path).

    Variant boards (layers, or a sliding rule) are replayed by
    :func:`levelgen.linkup.verify.variants.replay_variant`."""
    if board.upper or rules.slide != "none":
        from .variants import replay_variant

        return replay_variant(board, rules, moves)
    width, height = board.width, board.height
    lay = board.layout
    stride = lay.stride
    cells = list(board.cells)
    free = board.free_mask(rules.outside)
    for i, move in enumerate(moves):
        here = f"/solution/{i}"
        a, b = move.a, move.b
        problem = step_problem(i, move, width, height, lambda p: cells[p.y * width + p.x])
        if problem is not None:
            return [problem]
        path = move.path
        if not _is_clear(path, free, rules.max_turns, width, height, stride):
            reason = path_problem(Board(width, height, tuple(cells)), path, rules)
            if reason is None:  # pragma: no cover - the two checks agree
                raise AssertionError(f"path {path.corners} judged both legal and illegal")
            return [Problem(f"{here}/path", reason)]
        best = best_link_measure(lay, free, a, b, rules)
        if best is None:  # pragma: no cover - a legal path exists, so a best one does
            raise AssertionError("a legal path exists but the best-path finder found none")
        if (path.turns, path.length) != best:
            return [not_best_problem(i, path.turns, path.length, best)]
        cells[a.y * width + a.x] = cells[b.y * width + b.x] = 0
        free |= (1 << lay.bit(a.x, a.y)) | (1 << lay.bit(b.x, b.y))
    left = [i for i, v in enumerate(cells) if v >= 1]
    if left:
        y, x = divmod(left[0], width)
        return [
            Problem(
                "/solution",
                f"after the last step {remain(len(left), 'tile')}, first at {Pos(x, y)}",
            )
        ]
    return []


def _is_clear(path: Path, free: int, max_turns: int, width: int, height: int, stride: int) -> bool:
    """True when ``path`` turns at most ``max_turns`` times and every interior cell is free
    (``free`` holds the ring exactly when the rules allow outside paths).  The ends of ``path``
    must be cells of the board (the caller checks that first)."""
    if path.turns > max_turns:
        return False
    # Fast form: the cells of each straight segment as one mask.  Corners on the board or the
    # ring keep every segment there; a path that visits a cell twice takes the slow form below.
    cells = 0
    for p in path.corners:
        if not (-1 <= p.x <= width and -1 <= p.y <= height):
            return False
    for p, q in itertools.pairwise(path.corners):
        lo = (p.y + 1) * stride + p.x + 1
        hi = (q.y + 1) * stride + q.x + 1
        if lo > hi:
            lo, hi = hi, lo
        if p.y == q.y:
            cells |= (1 << (hi + 1)) - (1 << lo)
        else:
            for c in range(lo, hi + 1, stride):
                cells |= 1 << c
    if cells.bit_count() == path.length + 1:
        a, b = path.corners[0], path.corners[-1]
        ends = 1 << ((a.y + 1) * stride + a.x + 1) | 1 << ((b.y + 1) * stride + b.x + 1)
        return not cells & ~ends & ~free
    return all(free >> ((cell.y + 1) * stride + cell.x + 1) & 1 for cell in path.cells()[1:-1])
