"""A slow, obviously correct reference for best paths, used only to cross-check the fast code.

It shares nothing with :mod:`levelgen.linkup.core.reach` or :mod:`levelgen.linkup.core.paths` except
``Board`` and ``Rules``: a Dijkstra over states ``(cell, direction)`` on explicit coordinates, with
cost ``(turns, steps)`` compared lexicographically.  Reversing onto the previous cell is never
allowed (it would revisit a cell, so it is never part of a best path).
"""

from __future__ import annotations

import heapq

from .board import Board
from .geometry import Pos
from .rules import Rules

__all__ = ["reference_all", "reference_best", "reference_linkable"]

_DIRS = ((0, -1), (1, 0), (0, 1), (-1, 0))


def _is_free(board: Board, x: int, y: int, outside: bool) -> bool:
    if 0 <= x < board.width and 0 <= y < board.height:
        return board.cells[y * board.width + x] == 0
    if outside:
        return -1 <= x <= board.width and -1 <= y <= board.height
    return False


def reference_best(board: Board, a: Pos, b: Pos, rules: Rules) -> tuple[int, int] | None:
    """``(turns, length)`` of a best path between cells ``a`` and ``b`` whose interior cells are
    all free, ignoring kinds (positions only); None when there is none or ``a == b``."""
    if a == b:
        return None
    heap: list[tuple[int, int, int, int, int]] = []
    seen: dict[tuple[int, int, int], tuple[int, int]] = {}
    for d, (dx, dy) in enumerate(_DIRS):
        heapq.heappush(heap, (0, 1, a.x + dx, a.y + dy, d))
    while heap:
        turns, steps, x, y, d = heapq.heappop(heap)
        if (x, y) == (b.x, b.y):
            return turns, steps
        if not _is_free(board, x, y, rules.outside):
            continue
        key = (x, y, d)
        if key in seen:
            continue
        seen[key] = (turns, steps)
        for nd, (dx, dy) in enumerate(_DIRS):
            if nd == (d + 2) % 4:
                continue
            nt = turns + (nd != d)
            if nt > rules.max_turns:
                continue
            heapq.heappush(heap, (nt, steps + 1, x + dx, y + dy, nd))
    return None


def reference_all(board: Board, a: Pos, rules: Rules) -> dict[Pos, tuple[int, int]]:
    """For every occupied cell reachable from cell ``a`` (kinds ignored), the ``(turns, length)``
    of a best path to it: one Dijkstra from ``a`` over ``(cell, direction)`` states."""
    heap: list[tuple[int, int, int, int, int]] = []
    seen: set[tuple[int, int, int]] = set()
    best: dict[Pos, tuple[int, int]] = {}
    for d, (dx, dy) in enumerate(_DIRS):
        heapq.heappush(heap, (0, 1, a.x + dx, a.y + dy, d))
    while heap:
        turns, steps, x, y, d = heapq.heappop(heap)
        if not _is_free(board, x, y, rules.outside):
            if (
                0 <= x < board.width
                and 0 <= y < board.height
                and board.cells[y * board.width + x] >= 1
            ):
                best.setdefault(Pos(x, y), (turns, steps))
            continue
        if (x, y, d) in seen:
            continue
        seen.add((x, y, d))
        for nd, (dx, dy) in enumerate(_DIRS):
            nt = turns + (nd != d)
            if nd != (d + 2) % 4 and nt <= rules.max_turns:
                heapq.heappush(heap, (nt, steps + 1, x + dx, y + dy, nd))
    best.pop(a, None)
    return best


def reference_linkable(board: Board, a: Pos, rules: Rules, *, same_kind: bool = True) -> list[Pos]:
    """Tiles linkable from tile ``a`` by the reference search, in row order."""
    kind = board[a]
    out = []
    for p in board.tiles():
        if p == a or (same_kind and board[p] != kind):
            continue
        if reference_best(board, a, p, rules) is not None:
            out.append(p)
    return sorted(out, key=lambda p: (p.y, p.x))
