"""The link graph of a board: every way each same-kind pair can ever be linked, without ortools.

The CP-SAT solver (:mod:`levelgen.linkup.solvers.cpsat`) builds its models from this; it is pure and
is tested on its own.

Supports.  A path of at most 3 turns is fixed by its end cells and the lines of its middle
segments: 0 turns is a row or column, 1 turn one of two corners, 2 turns a middle column or row
(ring included: ``-1 .. W`` and ``-1 .. H``), 3 turns a column and a row.  Enumerating these for
every same-kind pair and keeping the inclusion-minimal sets of tiles they cross gives every way a
pair can ever be linked: by occupancy invariance a path is legal exactly when its interior cells
are free, and emptied cells stay empty.  A walk that crosses itself is skipped; with at most 3
turns such a walk contains a simple one through a subset of its cells with fewer turns, which is
enumerated.  With 4 turns or more the corner lists multiply (``(W + 2)^(turns - 1)`` per pair),
so the supports are found by a walk search instead (``_walk_supports``): from each tile, every
walk of at most ``max_turns`` turns through non-wall cells (the ring when it is allowed),
labelled with the set of tiles it crosses; a label is dropped when the same cell and heading
was reached crossing a subset of its tiles with no more turns (every continuation of it is
open to that one too, with a subset of tiles and no more turns), so the inclusion-minimal sets
of every walk to a partner are found.  A walk crossing itself is still a legal path under the
rules (a link test only asks for a walk of at most ``max_turns`` turns through free cells), so
nothing is skipped.  Boards whose walks have too many incomparable labels are given up
(``TooManyWalks``).

Optimistic rounds.  Round by round, let a tile leave with *any* tile of its kind once a support
of theirs is clear; every real removal order removes tiles no earlier than this (induction on
the rounds), so a tile it never removes can never go, and the rounds are lower bounds used to
fix variables and rank tiles for the sweeps.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import pairwise, product

from ..core.board import Board, Layout, iter_bits
from ..core.geometry import Pos
from ..core.rules import Rules

__all__ = [
    "MAX_MODELLED_TURNS",
    "LinkGraph",
    "Stopped",
    "TooManyWalks",
    "build_link_graph",
    "poll",
]

#: The most turns the model handles (all the rules allow).
MAX_MODELLED_TURNS = 8

#: Up to this many turns the supports come from corner lists, beyond from the walk search.
MAX_CORNER_TURNS = 3

#: Labels the walk search may keep from one tile before it gives up (``TooManyWalks``).
WALK_LABEL_LIMIT = 50_000


@dataclass(frozen=True, slots=True)
class LinkGraph:
    """Everything the models need to know about a board, computed without ortools.

    ``tiles[i]`` / ``kinds[i]``: position and kind of tile ``i`` (row order).  ``pairs[p]``:
    tile indices ``(i, j)``, ``i < j``, of one kind with at least one support.  ``supports[p]``:
    its inclusion-minimal supports as masks over tile indices (bit ``i`` is tile ``i``; ``0``
    means linkable now).  ``earliest[i]``: the optimistic earliest round of tile ``i`` (1 =
    linkable now), None when the relaxation never removes it.  ``rank[i]``: its place in a
    sweep.  Derived: ``pairs_of_tile``, ``pair_rank`` and ``split[p]``, the supports of ``p`` as
    ``(lower, higher)`` masks of tiles ranked below the pair and the others."""

    board: Board
    rules: Rules
    tiles: tuple[Pos, ...]
    kinds: tuple[int, ...]
    pairs: tuple[tuple[int, int], ...]
    supports: tuple[tuple[int, ...], ...]
    earliest: tuple[int | None, ...]
    rank: tuple[int, ...]
    pairs_of_tile: tuple[tuple[int, ...], ...] = field(init=False)
    pair_rank: tuple[int, ...] = field(init=False)
    split: tuple[tuple[tuple[int, int], ...], ...] = field(init=False)
    sweep_order: tuple[int, ...] = field(init=False)

    def __post_init__(self) -> None:
        by_tile: list[list[int]] = [[] for _ in self.tiles]
        for p, (i, j) in enumerate(self.pairs):
            by_tile[i].append(p)
            by_tile[j].append(p)
        below = [0] * (len(self.tiles) + 1)  # below[r]: tiles of rank < r
        by_rank = sorted(range(len(self.tiles)), key=lambda t: self.rank[t])
        for r, t in enumerate(by_rank):
            below[r + 1] = below[r] | (1 << t)
        pair_rank = tuple(min(self.rank[i], self.rank[j]) for i, j in self.pairs)
        split = tuple(
            tuple((q & below[pr], q & ~below[pr]) for q in qs)
            for qs, pr in zip(self.supports, pair_rank, strict=True)
        )
        order = tuple(sorted(range(len(self.pairs)), key=lambda p: (pair_rank[p], p)))
        object.__setattr__(self, "pairs_of_tile", tuple(tuple(ps) for ps in by_tile))
        object.__setattr__(self, "pair_rank", pair_rank)
        object.__setattr__(self, "split", split)
        object.__setattr__(self, "sweep_order", order)

    def pair_mask(self, p: int) -> int:
        i, j = self.pairs[p]
        return (1 << i) | (1 << j)

    def is_forced(self, p: int) -> bool:
        """True when pair ``p`` is the only possible partner choice of both its tiles."""
        i, j = self.pairs[p]
        return len(self.pairs_of_tile[i]) == 1 and len(self.pairs_of_tile[j]) == 1

    def can_go(self, p: int, gone_now: int, gone_before: int) -> bool:
        """Whether pair ``p`` may leave in a sweep, given the tiles gone so far in it and those
        gone before it."""
        return any(lo & gone_now == lo and hi & gone_before == hi for lo, hi in self.split[p])

    def eager_rounds(self, pairing: Sequence[int]) -> tuple[list[list[int]], int]:
        """The eager rounds of ``pairing`` (pair indices, each tile in exactly one): each round
        removes every matched pair with a support cleared by the earlier rounds.  Returns the
        rounds and the mask of tiles left when they stall (0 when the board is cleared)."""
        left = 0
        for p in pairing:
            left |= self.pair_mask(p)
        todo = list(pairing)
        rounds: list[list[int]] = []
        while todo:
            gone = ~left
            now = [p for p in todo if any(q & gone == q for q in self.supports[p])]
            if not now:
                break
            rounds.append(now)
            for p in now:
                left &= ~self.pair_mask(p)
            done = set(now)
            todo = [p for p in todo if p not in done]
        return rounds, left

    def eager_sweeps(self, pairing: Sequence[int]) -> tuple[list[list[int]], int]:
        """The eager sweeps of ``pairing`` (pair indices, each tile in exactly one), as the
        ``progress`` model schedules them: each sweep removes, in sweep order, every matched
        pair that may leave.  Returns the sweeps and the mask of tiles left when they stall (0
        when the board is cleared)."""
        position = {p: n for n, p in enumerate(self.sweep_order)}
        todo = sorted(pairing, key=position.__getitem__)
        left = 0
        for p in todo:
            left |= self.pair_mask(p)
        sweeps: list[list[int]] = []
        while todo:
            before = left
            now = []
            for p in todo:
                if self.can_go(p, ~left, ~before):
                    left &= ~self.pair_mask(p)
                    now.append(p)
            if not now:
                break
            sweeps.append(now)
            done = set(now)
            todo = [p for p in todo if p not in done]
        return sweeps, left

    def greedy_sweeps(self) -> tuple[list[list[int]], int]:
        """The warm start: sweeps taking, in sweep order, every pair whose tiles are both still
        there and which may leave.  Returns the sweeps (pair indices) and the mask of tiles left
        when they stall (0 when the board is cleared)."""
        left = (1 << len(self.tiles)) - 1
        sweeps: list[list[int]] = []
        while left:
            before = left
            now = []
            for p in self.sweep_order:
                both = self.pair_mask(p)
                if left & both == both and self.can_go(p, ~left, ~before):
                    left &= ~both
                    now.append(p)
            if not now:
                break
            sweeps.append(now)
        return sweeps, left

    def first_sweeps(self) -> tuple[int | None, ...]:
        """A lower bound on the sweep in which each tile can leave, in every schedule: sweeps of
        the relaxation where a tile may leave with any tile of its kind.  None where it never
        does (the same tiles as for ``earliest``)."""
        first: list[int | None] = [None] * len(self.tiles)
        possible = 0
        s = 0
        while True:
            s += 1
            before = possible
            for p in self.sweep_order:
                i, j = self.pairs[p]
                if first[i] is not None and first[j] is not None:
                    continue
                if self.can_go(p, possible, before):
                    for t in (i, j):
                        if first[t] is None:
                            first[t] = s
                    possible |= self.pair_mask(p)
            if possible == before:
                return tuple(first)


def _segment_mask(lay: Layout, col_masks: list[int], p: Pos, q: Pos) -> int:
    """Bits of the cells of the straight segment ``p .. q`` (both ends included)."""
    if p.y == q.y:
        lo, hi = (p.x, q.x) if p.x <= q.x else (q.x, p.x)
        return ((1 << (hi - lo + 1)) - 1) << lay.bit(lo, p.y)
    lo, hi = (p.y, q.y) if p.y <= q.y else (q.y, p.y)
    stride = lay.stride
    rows = ((1 << ((hi - lo + 1) * stride)) - 1) << ((lo + 1) * stride)
    return col_masks[p.x + 1] & rows


def _corner_lists(a: Pos, b: Pos, max_turns: int, cols: range, rows: range) -> Iterator[list[Pos]]:
    """Every corner list ``[a, c1, ..., b]`` of a walk of at most ``max_turns`` turns whose
    segments alternate between rows and columns, none of length zero.  The lines of the middle
    segments range over ``cols`` / ``rows``."""
    if a.y == b.y or a.x == b.x:
        yield [a, b]
    for turns in range(1, max_turns + 1):
        for first_horizontal in (True, False):
            # Segment k (0 .. turns) is horizontal when k is even for a walk starting
            # horizontally; its line is a row then, else a column.
            def horizontal(k: int, first: bool = first_horizontal) -> bool:
                return first == (k % 2 == 0)

            free = [rows if horizontal(k) else cols for k in range(1, turns)]
            for middle in product(*free):
                lines = [a.y if first_horizontal else a.x, *middle]
                lines.append(b.y if horizontal(turns) else b.x)
                points = [a]
                for k in range(1, turns + 1):
                    if horizontal(k - 1):  # the corner joins row lines[k-1] and column lines[k]
                        points.append(Pos(lines[k], lines[k - 1]))
                    else:
                        points.append(Pos(lines[k - 1], lines[k]))
                points.append(b)
                if all(points[k] != points[k + 1] for k in range(len(points) - 1)):
                    yield points


def _walk_supports(
    a_bit: int,
    targets: dict[int, int],
    passable: int,
    tile_of_bit: dict[int, int],
    max_turns: int,
    stride: int,
    should_stop: Callable[[], bool] | None,
) -> dict[int, set[int]]:
    """The supports (masks over tile indices, not all minimal) of the walks of at most
    ``max_turns`` turns from the tile at ``a_bit`` to each tile of ``targets`` (bit -> tile
    index), keyed by that index; see the module docstring.  ``passable``: the cells a walk may
    enter (free cells and tiles).  ``TooManyWalks`` past ``WALK_LABEL_LIMIT`` labels."""
    steps = (1, -1, stride, -stride)
    passable &= ~(1 << a_bit)
    found: dict[int, set[int]] = {}
    # labels[(cell, heading)]: the (support, turns) kept there, none below another.
    labels: dict[tuple[int, int], list[tuple[int, int]]] = {}
    queue: deque[tuple[int, int, int, int]] = deque((a_bit + steps[d], d, 0, 0) for d in range(4))
    kept = 0
    while queue:
        cell, d, turns, support = queue.popleft()
        if cell < 0 or not passable >> cell & 1:
            continue
        j = targets.get(cell)
        if j is not None:
            found.setdefault(j, set()).add(support)
        tile = tile_of_bit.get(cell)
        if tile is not None:
            support |= 1 << tile
        here = labels.setdefault((cell, d), [])
        if any(s & support == s and t <= turns for s, t in here):
            continue
        here[:] = [(s, t) for s, t in here if not (support & s == support and turns <= t)]
        here.append((support, turns))
        kept += 1
        if kept % 4096 == 0:
            poll(should_stop)
            if kept > WALK_LABEL_LIMIT:
                raise TooManyWalks
        queue.append((cell + steps[d], d, turns, support))
        if turns < max_turns:
            # A turn of 90 degrees; turning back would only cross the same cells again.
            for e in (2, 3) if d < 2 else (0, 1):
                queue.append((cell + steps[e], e, turns + 1, support))
    return found


def _minimal_masks(masks: set[int]) -> tuple[int, ...]:
    """The inclusion-minimal masks of ``masks``, smallest first, then by value."""
    kept: list[int] = []
    for m in sorted(masks, key=lambda m: (m.bit_count(), m)):
        if all(k & m != k for k in kept):
            kept.append(m)
    return tuple(kept)


class Stopped(Exception):
    """The budget ran out while the link graph or a model was being built."""


class TooManyWalks(Exception):
    """The walk search from a tile kept more than ``WALK_LABEL_LIMIT`` labels."""


def poll(should_stop: Callable[[], bool] | None) -> None:
    """Raise ``Stopped`` when ``should_stop`` says so (builders call it now and then)."""
    if should_stop is not None and should_stop():
        raise Stopped


def build_link_graph(
    board: Board, rules: Rules, should_stop: Callable[[], bool] | None = None
) -> LinkGraph:
    """The supports, optimistic earliest rounds and sweep ranks of ``board`` (see the module
    docstring).  ``ValueError`` when ``rules.max_turns`` exceeds ``MAX_MODELLED_TURNS``;
    ``Stopped`` when ``should_stop`` (polled every 16 pairs, or tiles) returns True;
    ``TooManyWalks`` when the walk search (more than ``MAX_CORNER_TURNS`` turns) gives up."""
    if rules.max_turns > MAX_MODELLED_TURNS:
        raise ValueError(
            f"paths of {rules.max_turns} turns are not modelled (at most {MAX_MODELLED_TURNS})"
        )
    lay = board.layout
    w, h = board.width, board.height
    tiles = tuple(board.tiles())
    kinds = tuple(board[p] for p in tiles)
    tile_of_bit = {lay.bit(p.x, p.y): i for i, p in enumerate(tiles)}
    forbidden = board.wall_mask() | (0 if rules.outside else lay.ring_mask)
    occupied = board.occupied_mask()
    col_masks = []
    for x in range(-1, w + 1):
        col = 0
        for y in range(-1, h + 1):
            col |= 1 << lay.bit(x, y)
        col_masks.append(col)
    cols = range(-1, w + 1) if rules.outside else range(w)
    rows = range(-1, h + 1) if rules.outside else range(h)
    by_kind: dict[int, list[int]] = {}
    for i, k in enumerate(kinds):
        by_kind.setdefault(k, []).append(i)
    pairs: list[tuple[int, int]] = []
    supports: list[tuple[int, ...]] = []
    if rules.max_turns > MAX_CORNER_TURNS:
        passable = board.free_mask(rules.outside) | occupied
        for members in by_kind.values():
            for n, i in enumerate(members):
                poll(should_stop)
                a = tiles[i]
                later = {lay.bit(tiles[j].x, tiles[j].y): j for j in members[n + 1 :]}
                found_all = _walk_supports(
                    lay.bit(a.x, a.y),
                    later,
                    passable,
                    tile_of_bit,
                    rules.max_turns,
                    lay.stride,
                    should_stop,
                )
                for j in members[n + 1 :]:
                    if j in found_all:
                        pairs.append((i, j))
                        supports.append(_minimal_masks(found_all[j]))
    else:
        for members in by_kind.values():
            for n, i in enumerate(members):
                for m, j in enumerate(members[n + 1 :]):
                    if m % 16 == 0:
                        poll(should_stop)
                    a, b = tiles[i], tiles[j]
                    ends = (1 << lay.bit(a.x, a.y)) | (1 << lay.bit(b.x, b.y))
                    found: set[int] = set()
                    for points in _corner_lists(a, b, rules.max_turns, cols, rows):
                        mask = 0
                        length = 0
                        for p, q in pairwise(points):
                            mask |= _segment_mask(lay, col_masks, p, q)
                            length += abs(p.x - q.x) + abs(p.y - q.y)
                        if mask.bit_count() != length + 1:
                            continue  # the walk crosses itself (or runs through an end)
                        inner = mask & ~ends
                        if inner & forbidden:
                            continue
                        support = 0
                        for bit in iter_bits(inner & occupied):
                            support |= 1 << tile_of_bit[bit]
                        found.add(support)
                    if found:
                        pairs.append((i, j))
                        supports.append(_minimal_masks(found))
    earliest = _optimistic_rounds(len(tiles), pairs, supports)
    never = len(tiles) + 1
    by_rank = sorted(range(len(tiles)), key=lambda t: (earliest[t] or never, t))
    rank = [0] * len(tiles)
    for r, t in enumerate(by_rank):
        rank[t] = r
    return LinkGraph(
        board, rules, tiles, kinds, tuple(pairs), tuple(supports), earliest, tuple(rank)
    )


def _optimistic_rounds(
    n_tiles: int, pairs: Sequence[tuple[int, int]], supports: Sequence[Sequence[int]]
) -> tuple[int | None, ...]:
    """Round by round, let every pair go once one of its supports lies among the tiles already
    removable (any partner, no pairing): a lower bound on the round of every tile in every
    schedule, None for the tiles it never removes."""
    earliest: list[int | None] = [None] * n_tiles
    gone = 0
    todo = list(range(len(pairs)))
    s = 0
    while todo:
        s += 1
        now = [p for p in todo if any(m & gone == m for m in supports[p])]
        if not now:
            break
        for p in now:
            for t in pairs[p]:
                if earliest[t] is None:
                    earliest[t] = s
                gone |= 1 << t
        todo = [p for p in todo if any(earliest[t] is None for t in pairs[p])]
    return tuple(earliest)
