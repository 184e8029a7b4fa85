"""The order in which moves look natural to a person, shared by the hint (which offers the
most natural safe move) and the difficulty measures' greedy player (the most natural move,
without the safety check)."""

from __future__ import annotations

from .geometry import Pos
from .moves import Move
from .paths import Path

__all__ = ["natural_key", "natural_rank"]


def natural_key(move: Move) -> tuple[int, int, int, int, int, int]:
    """The order in which moves look natural to a person: fewest turns, then the shortest
    path, then the first tile in reading order (row, then column), then the second."""
    return natural_rank(move.a, move.b, move.path)


def natural_rank(a: Pos, b: Pos, path: Path) -> tuple[int, int, int, int, int, int]:
    """:func:`natural_key` of the move joining ``a`` and ``b`` along its best ``path`` (for
    callers that have no :class:`Move`, such as the difficulty measures' greedy player)."""
    if (b.y, b.x) < (a.y, a.x):
        a, b = b, a
    return (path.turns, path.length, a.y, a.x, b.y, b.x)
