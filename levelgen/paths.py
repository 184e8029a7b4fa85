"""Exact best paths between two tiles, and the board-level reachability queries.

A *best* path has the fewest turns, then the fewest unit steps.  Among best paths of equal turns
and length the one returned is the one whose list of corner points (endpoints included, in order
from ``a`` to ``b``) is lexicographically smallest, each point compared as ``(x, y)``.

How ``find_link`` finds it.  The bitboard levels of :mod:`levelgen.reach` taken *from b* give,
for every free cell ``c`` and turn budget ``r``, whether ``b`` can be reached from ``c`` with at
most ``r`` turns starting along a given axis (a path from ``b`` reaching ``c`` with its last step
along an axis, walked backwards).  They also give ``t*``, the fewest turns of any path.  A depth
first walk from ``a`` then enumerates exactly the corner sequences of ``t*`` turns: a cell of a
straight ray may be the next corner only if ``b`` is still reachable from it in the turns left,
so no dead branch is ever followed.  Every complete sequence is a legal path with ``t*`` turns;
the shortest (then lexicographically smallest) wins.  A per-cell BFS that keeps the first route
reaching a cell would get ``t*`` right but not always the length: that is the trap this avoids.
"""

from __future__ import annotations

from dataclasses import dataclass

from .board import Board, Layout
from .geometry import Pos
from .reach import hits_by_level, levels, linkable_mask
from .rules import Rules

__all__ = [
    "Path",
    "find_link",
    "find_path",
    "is_linkable",
    "linkable_positions",
    "path_from_corners",
    "path_problem",
]


@dataclass(frozen=True, slots=True)
class Path:
    """A linking path: its corner points from ``a`` to ``b`` (endpoints included), the number of
    turns (``len(corners) - 2``) and its length in unit steps."""

    corners: tuple[Pos, ...]
    turns: int
    length: int

    @property
    def a(self) -> Pos:
        return self.corners[0]

    @property
    def b(self) -> Pos:
        return self.corners[-1]

    def cells(self) -> list[Pos]:
        """Every cell of the path, endpoints included, in order."""
        out = [self.corners[0]]
        for p, q in zip(self.corners, self.corners[1:], strict=False):
            dx = (q.x > p.x) - (q.x < p.x)
            dy = (q.y > p.y) - (q.y < p.y)
            x, y = p
            while (x, y) != (q.x, q.y):
                x, y = x + dx, y + dy
                out.append(Pos(x, y))
        return out

    def reversed(self) -> Path:
        return Path(tuple(reversed(self.corners)), self.turns, self.length)


def path_from_corners(corners: tuple[Pos, ...] | list[Pos]) -> Path:
    """Build a ``Path`` from corner points; ``ValueError`` if two consecutive points are not on
    one row or column, coincide, or if a corner does not turn."""
    pts = tuple(Pos(*p) for p in corners)
    if len(pts) < 2:
        raise ValueError("a path needs at least its two endpoints")
    length = 0
    prev_axis: int | None = None
    for i, (p, q) in enumerate(zip(pts, pts[1:], strict=False)):
        if p == q:
            raise ValueError(f"points {i} and {i + 1} coincide at {p}")
        if p.x != q.x and p.y != q.y:
            raise ValueError(f"points {i} {p} and {i + 1} {q} are not on one row or column")
        axis = 0 if p.y == q.y else 1
        if axis == prev_axis:
            raise ValueError(f"point {i} {p} is not a turn: the path goes straight through it")
        prev_axis = axis
        length += abs(p.x - q.x) + abs(p.y - q.y)
    return Path(pts, len(pts) - 2, length)


def _best_corner_bits(
    lay: Layout, free: int, a_bit: int, b_bit: int, max_turns: int
) -> tuple[list[int], int] | None:
    """The best path from bit ``a_bit`` to bit ``b_bit`` as (corner bits, length), or None."""
    stride = lay.stride
    src_b = 1 << b_bit
    src_a = 1 << a_bit
    hs, vs = levels(src_b, free, max_turns, stride)
    best_t = -1
    for t in range(max_turns + 1):
        if hits_by_level(src_b, hs, vs, t, stride) & src_a:
            best_t = t
            break
    if best_t < 0:
        return None
    steps = ((1, True), (-1, True), (stride, False), (-stride, False))
    by, bx = divmod(b_bit, stride)
    best: list[tuple[int, tuple[Pos, ...], list[int]]] = []
    best_len = [1 << 30]
    trail = [a_bit]

    def walk(at: int, length: int, r: int, prev_horizontal: bool | None) -> None:
        for step, horizontal in steps:
            if horizontal is prev_horizontal:
                continue
            c = at + step
            n = length + 1
            if r == 0:
                while c >= 0 and (free >> c) & 1:
                    c += step
                    n += 1
                if c == b_bit and n <= best_len[0]:
                    corners = [*trail, b_bit]
                    key = tuple(lay.pos(i) for i in corners)
                    if n < best_len[0]:
                        best_len[0] = n
                        best.clear()
                    best.append((n, key, corners))
                continue
            # A corner here must still reach b with r-1 turns starting along the other axis.
            ok = vs[r - 1] if horizontal else hs[r - 1]
            while c >= 0 and (free >> c) & 1:
                if (ok >> c) & 1:
                    cy, cx = divmod(c, stride)
                    if n + abs(cx - bx) + abs(cy - by) <= best_len[0]:
                        trail.append(c)
                        walk(c, n, r - 1, horizontal)
                        trail.pop()
                c += step
                n += 1

    walk(a_bit, 0, best_t, None)
    if not best:  # pragma: no cover - the levels promised a path
        raise AssertionError("reachability levels and path walk disagree")
    n, _key, corners = min(best, key=lambda item: (item[0], item[1]))
    return corners, n


def find_link(layout: Layout, free: int, a: Pos, b: Pos, rules: Rules) -> Path | None:
    """Positions-only best path between two distinct cells ``a`` and ``b`` of the board, given
    the mask of ``free`` cells (kinds ignored: used by generators).  None when no path of at
    most ``rules.max_turns`` turns exists or ``a == b``."""
    if a == b:
        return None
    found = _best_corner_bits(
        layout, free, layout.bit(a.x, a.y), layout.bit(b.x, b.y), rules.max_turns
    )
    if found is None:
        return None
    corners, length = found
    return Path(tuple(layout.pos(c) for c in corners), len(corners) - 2, length)


def find_path(board: Board, a: Pos, b: Pos, rules: Rules) -> Path | None:
    """The best path linking tiles ``a`` and ``b`` on ``board``, or None when they are not two
    distinct tiles of the same kind or no legal path exists.  ``IndexError`` when a position is
    outside the board."""
    a, b = Pos(*a), Pos(*b)
    ka, kb = board[a], board[b]
    if a == b or ka < 1 or ka != kb:
        return None
    return find_link(board.layout, board.free_mask(rules.outside), a, b, rules)


def is_linkable(board: Board, a: Pos, b: Pos, rules: Rules) -> bool:
    """True when tiles ``a`` and ``b`` are distinct, of one kind, and joined by a legal path."""
    a, b = Pos(*a), Pos(*b)
    ka = board[a]
    if a == b or ka < 1 or ka != board[b]:
        return False
    lay = board.layout
    hit = linkable_mask(
        1 << lay.bit(a.x, a.y),
        board.free_mask(rules.outside),
        1 << lay.bit(b.x, b.y),
        rules.max_turns,
        lay.stride,
    )
    return hit != 0


def linkable_positions(board: Board, a: Pos, rules: Rules, *, same_kind: bool = True) -> list[Pos]:
    """The tiles linkable from tile ``a`` (of its kind, or any kind with ``same_kind=False``),
    in row order; empty when ``a`` is not a tile."""
    a = Pos(*a)
    kind = board[a]
    if kind < 1:
        return []
    lay = board.layout
    targets = board.kind_masks()[kind] if same_kind else board.occupied_mask()
    hit = linkable_mask(
        1 << lay.bit(a.x, a.y), board.free_mask(rules.outside), targets, rules.max_turns, lay.stride
    )
    return lay.positions(hit)


def path_problem(board: Board, path: Path, rules: Rules) -> str | None:
    """Why ``path`` is not a legal link on ``board`` now, or None when it is legal.

    Checks (without any path finder): endpoints are two distinct tiles of one kind, corners stay
    on the board or (with ``outside``) its ring, the turn count is within the rules, and every
    interior cell is empty (walls and tiles block; ring cells are empty)."""
    a, b = path.a, path.b
    for name, p in (("first", a), ("last", b)):
        if not board.is_inside(p):
            return f"{name} point {p} is not on the board"
    if a == b:
        return f"both ends are the same cell {a}"
    if board[a] < 1:
        return f"first point {a} holds no tile"
    if board[b] < 1:
        return f"last point {b} holds no tile"
    if board[a] != board[b]:
        return f"the ends hold different kinds ({board[a]} at {a}, {board[b]} at {b})"
    if path.turns > rules.max_turns:
        return f"the path turns {path.turns} times; the rules allow {rules.max_turns}"
    lay = board.layout
    for c in path.cells()[1:-1]:
        if board.is_inside(c):
            if board[c] != 0:
                what = "a wall" if board[c] < 0 else f"a tile of kind {board[c]}"
                return f"the path crosses {c}, which holds {what}"
        elif not lay.is_on_padded(c.x, c.y):
            return f"the path leaves the board and its ring at {c}"
        elif not rules.outside:
            return f"the path uses the ring cell {c} but the rules do not allow outside paths"
    return None
