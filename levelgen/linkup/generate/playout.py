"""Random removal orders on positions only: the heart of generation by occupancy.

By occupancy invariance (see :mod:`levelgen.linkup.core.reach`) whether two cells can be linked
depends only on which cells are occupied, so a removal order found here, on tile *slots* without
kinds, stays valid for any assignment of kinds that gives the two cells of each removed pair the
same kind; :func:`deal` puts such an assignment on the board and writes the order as moves.

Pure: randomness comes only from the ``random.Random`` passed in.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ...formats.progress import Progress
from ..core.board import Board, iter_bits
from ..core.geometry import Pos
from ..core.moves import Move
from ..core.paths import find_link
from ..core.reach import linkable_mask
from ..core.rules import Rules
from .playout_guard import StrandGuard

__all__ = ["REWIND_PAIRS", "deal", "random_removal_order"]


#: Pairs put back after the first dead end at a new depth; doubled after each further dead end
#: that does not get deeper (see :func:`random_removal_order`).
REWIND_PAIRS = 16

#: Progress reports of a playout: one every this many pairs.
_REPORT_EVERY = 32


def random_removal_order(
    template: Board,
    rules: Rules,
    rng: random.Random,
    *,
    max_attempts: int = 50,
    progress: Progress | None = None,
) -> list[tuple[Pos, Pos]] | None:
    """A random order removing every tile slot of ``template`` two at a time, each pair linked
    under ``rules`` at its moment (kinds ignored), or None when the slot count is odd or the
    playout met ``max_attempts`` dead ends (tiles left, none linkable) without completing.

    Each step removes a tile drawn uniformly from the tiles that link to a tile other than a
    direct neighbour, with a partner drawn uniformly from those links; only when no tile has
    such a link does the step fall back to neighbours (a tile drawn uniformly among the tiles
    next to another tile, a partner uniformly among those next to it).  Were partners drawn
    among all links, most pairs would be neighbours (an inner tile of a full board links to
    nothing else) and a board dealt on the order would be full of twins: on 12x8 with 4
    copies about 17 same-kind neighbour pairs, against about 5.5 on a shuffled board and 3.5
    with the preference.

    Dead ends are avoided, then repaired.  On a full 64x64 board with ``max_turns`` 0 about
    99 plain playouts in 100 stopped with 2 to 10 tiles left, each far from any other: a tile
    can link only along its row and column, and the last tile of a row and column is lost.
    So (1) when the stranding guard of :mod:`levelgen.linkup.generate.playout_guard` pays, a pair is
    drawn only if its removal leaves every tile some possible partner (a tile whose partners all
    would strand one waits for the next step), and a *forced* pair (a tile with one possible
    partner left, which links to it now) is removed first; (2) at a dead end the playout
    puts back the last ``REWIND_PAIRS`` pairs and draws again from there, each further dead
    end that gets no deeper doubling the pairs put back, up to a fresh start.  That took
    64x64 with ``max_turns`` 0 from 0.4 .. 10 s and more (with failures after 200 restarts)
    to well under a second.  The draws come from ``rng`` one after the other, so the result
    depends only on the template, the rules and the state of ``rng``.  ``progress`` (see
    :mod:`levelgen.formats.progress`) hears ``("removal order", pairs placed, pairs)`` now and
    then."""
    lay = template.layout
    stride, k = lay.stride, rules.max_turns
    start_occ = template.occupied_mask()
    if start_occ.bit_count() % 2:
        return None
    playout = _Playout(start_occ, template.free_mask(rules.outside), k, stride, progress)
    deepest, rewind = 0, REWIND_PAIRS
    for _ in range(max_attempts):
        if playout.run(rng):
            return [(lay.pos(a), lay.pos(b)) for a, b in playout.order]
        depth = len(playout.order)
        if depth > deepest:
            deepest, rewind = depth, REWIND_PAIRS
        else:
            rewind *= 2
        if rewind >= depth:
            deepest, rewind = 0, REWIND_PAIRS  # a fresh start: begin the schedule again
            playout.rewind(depth)
        else:
            playout.rewind(rewind)
    return None


def _neighbours(mask: int, stride: int) -> int:
    """The cells next to those of ``mask`` (left, right, above, below)."""
    return (mask << 1) | (mask >> 1) | (mask << stride) | (mask >> stride)


class _Playout:
    """A playout on bit indices: ``occ`` the tiles left, ``free`` the cells a path may cross,
    ``order`` the pairs removed so far.

    Why :meth:`run` is fast and still uniform.  A tile is tested once and then set aside, in
    ``stuck_mask`` when it links to nothing and in ``near_mask`` when it links to neighbours
    only, instead of being tested again at every later step.  A link that was not there must
    run across a cell emptied since, so after each removal the set-aside tiles that a path
    from the two emptied cells reaches (``linkable_mask`` from both cells at once: reach is
    bit-parallel over its seeds) go back among the ``unknown`` ones.  Every tile with a link
    beyond its neighbours is therefore in ``unknown``, and drawing from ``unknown`` without
    replacement until such a tile turns up draws uniformly among them.  A tile of
    ``near_mask`` links exactly to its occupied neighbours until it goes back.  Each run starts
    with every tile left in ``unknown``, which keeps that true after :meth:`rewind`.

    The stranding guard (:mod:`levelgen.linkup.generate.playout_guard`), when it pays: a pair is
    drawn only if its removal strands no tile (a tile all of whose partners would strand one is set
    aside for the step), and a forced pair that links is removed first.  Only when every choice
    strands a tile is the first tile drawn taken anyway (the dead end that follows is
    rewound)."""

    def __init__(self, occ: int, free: int, k: int, stride: int, progress: Progress | None):
        self.occ, self.free, self.k, self.stride = occ, free, k, stride
        self.pairs = occ.bit_count() // 2
        self.order: list[tuple[int, int]] = []
        self.progress = progress
        self.guard = StrandGuard.build(occ, free, k, stride)

    def rewind(self, pairs: int) -> None:
        """Put back the last ``pairs`` pairs removed (all of them when there are fewer)."""
        for _ in range(min(pairs, len(self.order))):
            a, b = self.order.pop()
            if self.guard is not None:
                self.guard.restored(a, b, self.occ)
            pair = (1 << a) | (1 << b)
            self.occ |= pair
            self.free &= ~pair

    def _partner(self, a: int, hit: int, occ: int, rng: random.Random) -> int:
        """A partner of ``a`` drawn uniformly from ``hit`` among those whose removal with
        ``a`` strands no tile, or -1 when there is none."""
        guard = self.guard
        while hit:
            for _ in range(rng.randrange(hit.bit_count())):
                hit &= hit - 1
            b = (hit & -hit).bit_length() - 1
            if guard is None or not guard.strands(a, b, occ):
                return b
            hit &= ~(1 << b)
        return -1

    def run(self, rng: random.Random) -> bool:
        """Remove pairs until the board is clear (True) or a dead end (False)."""
        occ, free, k, stride = self.occ, self.free, self.k, self.stride
        order, progress, total = self.order, self.progress, self.pairs
        unknown = list(iter_bits(occ))
        stuck_mask = near_mask = 0
        left = len(unknown)
        guard = self.guard
        try:
            while left:
                a = b = -1
                far = False  # whether a and b link beyond neighbours, drawn from unknown
                forced = guard.forced_pair(occ, free, k, stride) if guard is not None else None
                if forced is not None:
                    a, b = forced
                    for x in forced:
                        if (stuck_mask | near_mask) >> x & 1:
                            stuck_mask &= ~(1 << x)
                            near_mask &= ~(1 << x)
                        else:
                            unknown.remove(x)
                # The first tile drawn with a link and its links: taken when every choice
                # strands a tile.  Tiles whose every far partner strands one wait in blocked.
                first: tuple[int, int] | None = None
                blocked: list[int] = []
                while unknown and b < 0:
                    i = rng.randrange(len(unknown))
                    x = unknown[i]
                    unknown[i] = unknown[-1]
                    unknown.pop()
                    src = 1 << x
                    hit = linkable_mask(src, free, occ ^ src, k, stride)
                    beyond = hit & ~_neighbours(src, stride)
                    if not beyond:
                        if hit:
                            near_mask |= src
                        else:
                            stuck_mask |= src
                        continue
                    y = self._partner(x, beyond, occ, rng)
                    if y >= 0:
                        a, b, far = x, y, True
                        break
                    blocked.append(x)
                    if first is None:
                        first = (x, beyond)
                if far:
                    # b links beyond its neighbours too: it waits in unknown or blocked.
                    if b in blocked:
                        blocked.remove(b)
                    else:
                        unknown.remove(b)
                elif b < 0:
                    # No tile links beyond its neighbours without stranding one: remove two
                    # neighbours (every tile is in near_mask, stuck_mask or blocked now).
                    movable = [x for x in iter_bits(near_mask) if _neighbours(1 << x, stride) & occ]
                    while movable and b < 0:
                        i = rng.randrange(len(movable))
                        x = movable[i]
                        movable[i] = movable[-1]
                        movable.pop()
                        hit = _neighbours(1 << x, stride) & occ
                        y = self._partner(x, hit, occ, rng)
                        if y >= 0:
                            a, b = x, y
                        elif first is None:
                            first = (x, hit)
                    if b < 0:
                        if first is None:
                            return False
                        a, hit = first
                        for _ in range(rng.randrange(hit.bit_count())):
                            hit &= hit - 1
                        b = (hit & -hit).bit_length() - 1
                    for x in (a, b):
                        if x in blocked:
                            blocked.remove(x)
                    near_mask &= ~((1 << a) | (1 << b))
                pair = (1 << a) | (1 << b)
                occ ^= pair
                free |= pair
                order.append((a, b))
                left -= 2
                if progress is not None and len(order) % _REPORT_EVERY == 0:
                    progress("removal order", len(order), total)
                unknown.extend(blocked)
                if guard is not None:
                    guard.removed(a, b, occ)
                waiting = stuck_mask | near_mask
                if waiting and left:
                    revived = linkable_mask(pair, free, waiting, k, stride)
                    if revived:
                        stuck_mask &= ~revived
                        near_mask &= ~revived
                        unknown.extend(iter_bits(revived))
            if progress is not None:
                progress("removal order", total, total)
            return True
        finally:
            self.occ, self.free = occ, free


def deal(
    template: Board,
    rules: Rules,
    order: Sequence[tuple[Pos, Pos]],
    pair_kinds: Sequence[int],
    *,
    progress: Progress | None = None,
) -> tuple[Board, tuple[Move, ...]]:
    """The board with ``pair_kinds[i]`` on both cells of ``order[i]`` (other cells as in the
    template), and the order as moves with exact best paths.  ``ValueError`` when a step is not
    linked at its moment (``order`` is not a removal order of the template).  ``progress``
    hears ``("paths", moves done, moves)`` now and then."""
    width = template.width
    cells = list(template.cells)
    for (a, b), kind in zip(order, pair_kinds, strict=True):
        cells[a.y * width + a.x] = cells[b.y * width + b.x] = kind
    board = Board(width, template.height, tuple(cells))
    lay = board.layout
    free = board.free_mask(rules.outside)
    moves = []
    for i, ((a, b), kind) in enumerate(zip(order, pair_kinds, strict=True)):
        if (b.y, b.x) < (a.y, a.x):
            a, b = b, a
        path = find_link(lay, free, a, b, rules)
        if path is None:
            raise ValueError(f"order step {i}: {a} and {b} are not linked at that moment")
        moves.append(Move(a, b, kind, path))
        if progress is not None and (i + 1) % _REPORT_EVERY == 0:
            progress("paths", i + 1, len(order))
        free |= (1 << lay.bit(a.x, a.y)) | (1 << lay.bit(b.x, b.y))
    return board, tuple(moves)
