"""Replay a removal sequence move by move; never calls a solver and never trusts one.

Each problem is reported with a JSON pointer into the level file (``/solution/17/path``) and a
reason a person can act on.  The checks, in order, for each step: both cells on the board and
distinct, both hold tiles of the stated kind, the stated path is a legal link at that moment
(checked cell by cell, without any path finder), and it is a *best* path (its turns and length
equal those of the exact best path).  At the end the board must hold no tile.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .board import Board
from .moves import Move
from .paths import find_path, path_problem
from .rules import Rules

__all__ = ["Problem", "replay"]


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with a level: where (a JSON pointer) and why."""

    pointer: str
    message: str

    def __str__(self) -> str:
        return f"{self.pointer or '/'}: {self.message}"


def replay(board: Board, rules: Rules, moves: Sequence[Move]) -> list[Problem]:
    """Problems found replaying ``moves`` on ``board`` (empty list: the solution is valid).

    Replay stops at the first illegal step, since later steps would be judged on a wrong
    board."""
    for i, move in enumerate(moves):
        here = f"/solution/{i}"
        for name, p in (("a", move.a), ("b", move.b)):
            if not board.is_inside(p):
                return [Problem(f"{here}/{name}", f"cell {p} is not on the board")]
        if move.a == move.b:
            return [Problem(here, f"both cells are {move.a}")]
        for name, p in (("a", move.a), ("b", move.b)):
            value = board[p]
            if value < 1:
                what = "is empty" if value == 0 else "is a wall"
                return [Problem(f"{here}/{name}", f"cell {p} {what} at step {i}")]
        ka, kb = board[move.a], board[move.b]
        if ka != kb:
            return [
                Problem(here, f"cells {move.a} and {move.b} hold different kinds {ka} and {kb}")
            ]
        if move.kind != ka:
            return [Problem(f"{here}/kind", f"kind is {move.kind} but the cells hold kind {ka}")]
        path = move.path
        if {path.a, path.b} != {move.a, move.b}:
            return [
                Problem(
                    f"{here}/path", f"path runs {path.a} to {path.b}, not between the step's cells"
                )
            ]
        reason = path_problem(board, path, rules)
        if reason is not None:
            return [Problem(f"{here}/path", reason)]
        best = find_path(board, move.a, move.b, rules)
        if best is None:  # pragma: no cover - a legal path exists, so a best one does
            raise AssertionError("a legal path exists but the best-path finder found none")
        if (path.turns, path.length) != (best.turns, best.length):
            return [
                Problem(
                    f"{here}/path",
                    f"not a best path: {path.turns} turns and {path.length} steps, but a path"
                    f" with {best.turns} turns and {best.length} steps exists",
                )
            ]
        board = board.without(move.a, move.b)
    left = board.tile_count()
    if left:
        return [
            Problem(
                "/solution", f"after the last step {left} tiles remain, first at {board.tiles()[0]}"
            )
        ]
    return []
