"""Exact best paths between two tiles, and the board-level reachability queries.

A *best* path has the fewest turns, then the fewest unit steps.  Among best paths of equal turns
and length the one returned is the one whose list of corner points (endpoints included, in order
from ``a`` to ``b``) is lexicographically smallest, each point compared as ``(x, y)``.

How ``find_link`` finds it.  Paths of up to two turns (nearly all the game's) are found directly
(:func:`_direct`): the straight segment, the two corners of an L, or for two turns the cells
where free straight runs from ``a`` and from ``b`` line up across a free segment; each test is a
few operations on int masks.  For more turns, the bitboard levels of
:mod:`levelgen.linkup.core.reach` taken *from b* give, for every free cell ``c`` and turn budget
``r``, whether ``b`` can be reached from ``c`` with at most ``r`` turns starting along a given axis
(a path from ``b`` reaching ``c`` with its last step along an axis, walked backwards).  They also
give ``t*``, the fewest turns of any path.  A depth first walk from ``a`` then enumerates exactly
the corner sequences of ``t*`` turns: a cell of a straight ray may be the next corner only if ``b``
is still reachable from it in the turns left, so no dead branch is ever followed.  Every complete
sequence is a legal path with ``t*`` turns; the shortest (then lexicographically smallest) wins.  A
per-cell BFS that keeps the first route reaching a cell would get ``t*`` right but not always the
length: that is the trap this avoids.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import lru_cache

from .board import Board, Layout
from .geometry import Pos
from .reach import hits_by_level, linkable_mask, native, ray_h, ray_v
from .rules import Rules

__all__ = [
    "Path",
    "best_link_measure",
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
        for p, q in itertools.pairwise(self.corners):
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
    for i, (p, q) in enumerate(itertools.pairwise(pts)):
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


@lru_cache(maxsize=256)
def _column_unit(stride: int, rows: int) -> int:
    """One bit in column 0 of each of ``rows`` padded rows: shifted left by ``x``, the mask of
    padded column ``x``."""
    unit = 0
    for r in range(rows):
        unit |= 1 << (r * stride)
    return unit


def _direct(
    free: int, a_bit: int, b_bit: int, max_turns: int, stride: int, unit: int
) -> tuple[list[int], int] | None:
    """The best path of at most ``min(max_turns, 2)`` turns from bit ``a_bit`` to bit ``b_bit``
    as (corner bits, length), or None when there is none: the same answer as the walk over
    the levels (:func:`_by_levels`), found from the few corner places such paths can have.

    A straight path is the segment between the ends; a path of one turn turns at ``(bx, ay)``
    or ``(ax, by)``; a path of two turns leaves ``a`` along one axis to a corner ``c`` of a
    free straight run from ``a``, and enters ``b`` along the same axis from the matching cell
    of a free straight run from ``b``, the segment between them free.  The cells strictly
    between two cells of one row or column are a mask (a bit range, for a column cut from
    the column's mask ``unit << x``), so each test is a few operations on ints.  Its compiled
    twin ``levelgen.linkup.core._native.direct_path`` (the same answer, compared in
    ``tests/test_native.py``) walks the runs instead."""
    lo, hi = (a_bit, b_bit) if a_bit < b_bit else (b_bit, a_bit)
    ay, ax = divmod(a_bit, stride)
    by, bx = divmod(b_bit, stride)
    # (``m & free == m`` tests that the cells of ``m`` are free: a complement, ``m & ~free``,
    # costs about three plain operations on the ints of a large board.)
    if ay == by:
        span = (1 << hi) - (2 << lo)
        if span & free == span:
            return [a_bit, b_bit], hi - lo
    elif ax == bx:
        span = (unit << ax) & ((1 << hi) - (2 << lo))
        if span & free == span:
            return [a_bit, b_bit], (hi - lo) // stride
    if max_turns == 0:
        return None
    if ay != by and ax != bx:
        # The corners (bx, ay) and (ax, by), in (x, y) order: the first that works wins.
        first, second = ay * stride + bx, by * stride + ax
        if (bx, ay) > (ax, by):
            first, second = second, first
        for c in (first, second):
            if (
                free >> c & 1
                and (span := _between(a_bit, c, stride, unit)) & free == span
                and (span := _between(c, b_bit, stride, unit)) & free == span
            ):
                return [a_bit, c, b_bit], abs(ax - bx) + abs(ay - by)
    if max_turns == 1:
        return None
    best_len = 1 << 30
    ties: list[list[int]] = []
    src_a, src_b = 1 << a_bit, 1 << b_bit
    if ay != by:  # horizontal first: a -> (cx, ay) -> (cx, by) -> b
        rb = ray_h(src_b, free)
        shift = (ay - by) * stride
        cand = ray_h(src_a, free) & (rb << shift if shift > 0 else rb >> -shift)
        while cand:
            c = cand.bit_length() - 1
            cand ^= 1 << c
            d = c - shift
            if (span := _between(c, d, stride, unit)) & free == span:
                cx = c % stride
                length = abs(ax - cx) + abs(ay - by) + abs(cx - bx)
                if length < best_len:
                    best_len, ties = length, [[a_bit, c, d, b_bit]]
                elif length == best_len:
                    ties.append([a_bit, c, d, b_bit])
    if ax != bx:  # vertical first: a -> (ax, cy) -> (bx, cy) -> b
        rb = ray_v(src_b, free, stride)
        shift = ax - bx
        cand = ray_v(src_a, free, stride) & (rb << shift if shift > 0 else rb >> -shift)
        while cand:
            c = cand.bit_length() - 1
            cand ^= 1 << c
            d = c - shift
            if (span := _between(c, d, stride, unit)) & free == span:
                cy = c // stride
                length = abs(ay - cy) + abs(ax - bx) + abs(cy - by)
                if length < best_len:
                    best_len, ties = length, [[a_bit, c, d, b_bit]]
                elif length == best_len:
                    ties.append([a_bit, c, d, b_bit])
    if not ties:
        return None
    if len(ties) == 1:
        return ties[0], best_len
    # Ties on length: the lexicographically smallest corner list, points compared as (x, y).
    return min(ties, key=lambda bits: [(q % stride, q // stride) for q in bits]), best_len


def _between(p: int, q: int, stride: int, unit: int) -> int:
    """The cells strictly between cells ``p`` and ``q`` of one row or column (bit indices)."""
    lo, hi = (p, q) if p < q else (q, p)
    span = (1 << hi) - (2 << lo)
    if hi - lo < stride:  # one row
        return span
    return (unit << (lo % stride)) & span


def _best_corner_bits(
    lay: Layout, free: int, a_bit: int, b_bit: int, max_turns: int
) -> tuple[list[int], int] | None:
    """The best path from bit ``a_bit`` to bit ``b_bit`` as (corner bits, length), or None:
    :func:`_direct` for paths of up to two turns (nearly all of them), the walk over the levels
    for more."""
    stride = lay.stride
    if native is not None:  # the compiled twin of _direct (see levelgen.linkup.core.reach.NATIVE)
        found: tuple[list[int], int] | None = native.direct_path(
            free, a_bit, b_bit, max_turns, stride
        )
    else:
        found = _direct(free, a_bit, b_bit, max_turns, stride, _column_unit(stride, lay.height + 2))
    if found is not None or max_turns <= 2:
        return found
    return _by_levels(lay, free, a_bit, b_bit, max_turns)


@lru_cache(maxsize=4096)
def _remembered_corners(
    lay: Layout, free: int, a_bit: int, b_bit: int, max_turns: int
) -> tuple[tuple[int, ...], int] | None:
    """:func:`_best_corner_bits`, remembered, for :func:`find_link` and
    :func:`best_link_measure`: every solution is built (a path per step) and then replayed by
    the verifier (:func:`levelgen.linkup.verify.replay`, which asks the same questions in the same
    positions), so the second asking costs a look-up instead of a path search (about 25 us a
    step at 64x64, and a walk of up to a millisecond for three or more turns).  Pure (the
    answer depends on the arguments only), bounded, and read only (corners as a tuple).  The
    repair solver's many one-off questions (:func:`link_cells`) do not go through it."""
    found = _best_corner_bits(lay, free, a_bit, b_bit, max_turns)
    return None if found is None else (tuple(found[0]), found[1])


def _by_levels(
    lay: Layout, free: int, a_bit: int, b_bit: int, max_turns: int
) -> tuple[list[int], int] | None:
    """The best path from bit ``a_bit`` to bit ``b_bit`` as (corner bits, length), or None."""
    stride = lay.stride
    src_b = 1 << b_bit
    src_a = 1 << a_bit
    # The levels from b, only as far as the fewest turns that reach a.
    hs, vs = [ray_h(src_b, free)], [ray_v(src_b, free, stride)]
    best_t = 0
    while not hits_by_level(src_b, hs, vs, best_t, stride) & src_a:
        if best_t == max_turns:
            return None
        h, v = hs[-1], vs[-1]
        hs.append(h | ray_h(v, free))
        vs.append(v | ray_v(h, free, stride))
        best_t += 1
    by, bx = divmod(b_bit, stride)
    if best_t <= 2:
        return _few_turns(free, a_bit, b_bit, best_t, hs, vs, stride)
    steps = ((1, True), (-1, True), (stride, False), (-stride, False))
    best: list[list[int]] = []
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
                    if n < best_len[0]:
                        best_len[0] = n
                        best.clear()
                    best.append([*trail, b_bit])
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
    if len(best) == 1:
        return best[0], best_len[0]
    # Ties on length: the lexicographically smallest corner list, points compared as (x, y).
    return min(best, key=lambda bits: [(c % stride, c // stride) for c in bits]), best_len[0]


def _few_turns(
    free: int, a_bit: int, b_bit: int, turns: int, hs: list[int], vs: list[int], stride: int
) -> tuple[list[int], int]:
    """The best path of ``turns`` <= 2 turns (the fewest possible) as (corner bits, length).

    With at most two turns every path is fixed by its first corner ``c``, which lies on a
    straight ray from ``a`` and from which ``b`` is reached with one turn fewer starting along
    the other axis: the level masks ``vs[t - 1]`` / ``hs[t - 1]`` from ``b`` say which cells
    qualify, so the candidates are a few bits, not a walk.  A horizontal first segment to
    ``c = (cx, ay)`` continues with corner ``(cx, by)`` (two turns); a vertical one to
    ``(ax, cy)`` with ``(bx, cy)``."""
    ay, ax = divmod(a_bit, stride)
    by, bx = divmod(b_bit, stride)
    if turns < 2:  # the straight segment, or an L whose length does not depend on the corner
        length = abs(ax - bx) + abs(ay - by)
        if turns == 0:
            return [a_bit, b_bit], length
    src_a = 1 << a_bit
    best_len = 1 << 30
    ties: list[list[int]] = []
    for horizontal in (True, False):
        if horizontal:
            cand = ray_h(src_a, free) & vs[turns - 1]
        else:
            cand = ray_v(src_a, free, stride) & hs[turns - 1]
        while cand:
            low = cand & -cand
            cand ^= low
            c = low.bit_length() - 1
            if turns == 1:
                corners = [a_bit, c, b_bit]
            else:
                cy, cx = divmod(c, stride)
                if horizontal:
                    corners = [a_bit, c, by * stride + cx, b_bit]
                    length = abs(ax - cx) + abs(ay - by) + abs(cx - bx)
                else:
                    corners = [a_bit, c, cy * stride + bx, b_bit]
                    length = abs(ay - cy) + abs(ax - bx) + abs(cy - by)
            if length < best_len:
                best_len = length
                ties = [corners]
            elif length == best_len:
                ties.append(corners)
    if not ties:  # pragma: no cover - the levels promised a path
        raise AssertionError("reachability levels and first corners disagree")
    if len(ties) == 1:
        return ties[0], best_len
    # Ties on length: the lexicographically smallest corner list, points compared as (x, y).
    return min(ties, key=lambda bits: [(q % stride, q // stride) for q in bits]), best_len


def find_link(layout: Layout, free: int, a: Pos, b: Pos, rules: Rules) -> Path | None:
    """Positions-only best path between two distinct cells ``a`` and ``b`` of the board, given
    the mask of ``free`` cells (kinds ignored: used by generators).  None when no path of at
    most ``rules.max_turns`` turns exists or ``a == b``."""
    if a == b:
        return None
    found = _remembered_corners(
        layout, free, layout.bit(a.x, a.y), layout.bit(b.x, b.y), rules.max_turns
    )
    if found is None:
        return None
    corners, length = found
    stride = layout.stride
    points = tuple([Pos(c % stride - 1, c // stride - 1) for c in corners])
    return Path(points, len(corners) - 2, length)


def best_link_measure(
    layout: Layout, free: int, a: Pos, b: Pos, rules: Rules
) -> tuple[int, int] | None:
    """``(turns, length)`` of :func:`find_link`'s path, without building it (the verifier's
    best-path check needs no more); None when there is no path."""
    if a == b:
        return None
    found = _remembered_corners(
        layout, free, layout.bit(a.x, a.y), layout.bit(b.x, b.y), rules.max_turns
    )
    return None if found is None else (len(found[0]) - 2, found[1])


def link_cells(layout: Layout, free: int, a_bit: int, b_bit: int, max_turns: int) -> int | None:
    """The cells a best path from bit ``a_bit`` to bit ``b_bit`` runs through (its corners and
    the cells between them, the two ends left out) as a mask, or None when there is no path:
    the link holds again whenever those cells are all free."""
    found = _best_corner_bits(layout, free, a_bit, b_bit, max_turns)
    if found is None:
        return None
    corners = found[0]
    stride = layout.stride
    unit = _column_unit(stride, layout.height + 2)
    cells = 0
    for p, q in itertools.pairwise(corners):
        cells |= _between(p, q, stride, unit) | 1 << q
    return cells ^ (cells & (1 << b_bit))


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
