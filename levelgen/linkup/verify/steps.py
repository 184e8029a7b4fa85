"""The checks of a solution step
that come before its path: shared by the classic replay (:mod:`levelgen.linkup.verify`) and the
variants' replay (:mod:`levelgen.linkup.verify.variants`), which therefore import nothing from each
other but the dispatch at ``verify.replay``'s entry."""

from __future__ import annotations

from collections.abc import Callable

from ...formats.words import plural
from ...puzzles import Problem
from ..core.geometry import Pos
from ..core.moves import Move

__all__ = ["Problem", "not_best_problem", "step_problem"]


def step_problem(
    i: int, move: Move, width: int, height: int, kind_at: Callable[[Pos], int]
) -> Problem | None:
    """What is wrong with step ``i`` before its path is checked against the board (None:
    nothing): both cells on the board and distinct, both tiles (``kind_at``: the kind of a
    cell's playing tile, 0 empty, -1 a wall) of the stated kind, the path written from ``a``
    to ``b``.  Shared by the classic replay and the variants' replay."""
    here = f"/solution/{i}"
    a, b = move.a, move.b
    for name, p in (("a", a), ("b", b)):
        if not (0 <= p.x < width and 0 <= p.y < height):
            return Problem(f"{here}/{name}", f"cell {p} is not on the board")
    if a == b:
        return Problem(here, f"both cells are {a}")
    ka, kb = kind_at(a), kind_at(b)
    for name, p, value in (("a", a, ka), ("b", b, kb)):
        if value < 1:
            what = "is empty" if value == 0 else "is a wall"
            return Problem(f"{here}/{name}", f"cell {p} {what} at step {i}")
    if ka != kb:
        return Problem(here, f"cells {a} and {b} hold different kinds {ka} and {kb}")
    if move.kind != ka:
        return Problem(f"{here}/kind", f"kind is {move.kind} but the cells hold kind {ka}")
    path = move.path
    if (path.a, path.b) != (a, b):
        if (path.b, path.a) == (a, b):
            wrong_end = f"path runs from b {b} to a {a}: write it from a to b"
        else:
            wrong_end = f"path runs {path.a} to {path.b}, not between the step's cells"
        return Problem(f"{here}/path", wrong_end)
    return None


def not_best_problem(i: int, turns: int, length: int, best: tuple[int, int]) -> Problem:
    """Step ``i``'s legal path of ``turns`` turns and ``length`` steps is not a best one
    (``best``: the turns and steps of one)."""

    def measure(turns: int, length: int) -> str:
        return f"{plural(turns, 'turn')} and {plural(length, 'step')}"

    return Problem(
        f"/solution/{i}/path",
        f"not a best path: {measure(turns, length)}, but a path with {measure(*best)} exists",
    )
