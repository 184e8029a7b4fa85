"""The stranding guard of random playouts: keep a playout from leaving a tile with no partner.

``reach[t]`` is the set of tiles that tile ``t`` could ever link to: its links on the board
with every other tile removed (links are symmetric, so ``u`` is in ``reach[t]`` exactly when
``t`` is in ``reach[u]``).  Removing tiles never adds to it, so a tile whose ``reach`` holds no
tile left is *stranded* for good: no removal order can clear the board any more.  Likewise two
tiles whose only possible partner is the same third tile.  And a tile with one possible
partner left is *forced*: every way to clear the board removes the two together, so removing
them as soon as they link is safe (by monotonicity the other removals stay legal).

The guard pays when the sets are small (``max_turns`` 0: a row and a column; or walls
everywhere); with any turn and the ring a tile reaches nearly the whole board, stranding is
rare, and :meth:`StrandGuard.build` declines (the mean set holds more than one tile in
``GUARD_SHARE`` of the board's).

How it stays cheap.  ``count[t] = |reach[t] & occ|`` is kept for every tile at once in
bit-sliced form: ``planes[i]`` holds the tiles whose count has bit ``i`` set, so "decrement
the count of every tile of a mask" is a borrow rippling through a dozen big-int operations,
and the tiles with a count of at most 3 (the only ones a removal can strand) or exactly 1
(forced) are masks read off the planes.  A removal and its undo are exact inverses.

Pure: no randomness here, no I/O.
"""

from __future__ import annotations

from ..core.board import iter_bits
from ..core.reach import linkable_mask

__all__ = ["GUARD_SHARE", "StrandGuard"]

#: The guard is used when a tile could ever link to one tile in this many, or fewer, on
#: average (64x64 with ``max_turns`` 0: 126 of 4096; with 1 turn and the ring: all of them).
GUARD_SHARE = 4


class StrandGuard:
    """Reach sets and bit-sliced partner counts of the tiles of a playout (see the module
    docstring).  Build it with :meth:`build`; report every removal with :meth:`removed` and
    every undo (in reverse order) with :meth:`restored`."""

    def __init__(self, reach: dict[int, int], occ: int) -> None:
        self.reach = reach
        width = max((r & occ).bit_count() for r in reach.values()).bit_length() if reach else 0
        width = max(width, 2)
        self.planes = [0] * width
        for t, r in reach.items():
            n = (r & occ).bit_count()
            for i in range(width):
                if n >> i & 1:
                    self.planes[i] |= 1 << t
        self._derive()

    @classmethod
    def build(cls, occ: int, free: int, max_turns: int, stride: int) -> StrandGuard | None:
        """The guard of the tiles ``occ`` (``free``: the cells a path may cross now), or None
        when the reach sets are too large for it to pay."""
        open_cells = free | occ
        reach: dict[int, int] = {}
        total = 0
        tiles = occ.bit_count()
        limit = tiles * (tiles // GUARD_SHARE)
        for t in iter_bits(occ):
            src = 1 << t
            reach[t] = mask = linkable_mask(src, open_cells, occ ^ src, max_turns, stride)
            total += mask.bit_count()
            if total > limit:
                return None
        return cls(reach, occ)

    def _derive(self) -> None:
        high = 0
        for p in self.planes[2:]:
            high |= p
        #: Tiles with a count of at most 3, and of exactly 1 (mask with ``occ`` to use).
        self.low = ~high
        self.single = self.planes[0] & ~high & ~(self.planes[1] if len(self.planes) > 1 else 0)

    def _add(self, mask: int, step: int) -> None:
        planes = self.planes
        for i, p in enumerate(planes):
            if not mask:
                break
            planes[i] = p ^ mask
            mask &= p if step > 0 else ~p

    def removed(self, a: int, b: int, after: int) -> None:
        """Tiles ``a`` and ``b`` were removed, leaving ``after``."""
        self._add(self.reach[a] & after, -1)
        self._add(self.reach[b] & after, -1)
        self._derive()

    def restored(self, a: int, b: int, after: int) -> None:
        """The removal of ``a`` and ``b`` that left ``after`` is undone."""
        self._add(self.reach[b] & after, +1)
        self._add(self.reach[a] & after, +1)
        self._derive()

    def strands(self, a: int, b: int, occ: int) -> bool:
        """Whether removing ``a`` and ``b`` from ``occ`` strands a tile: leaves one with no
        possible partner, or two whose only possible partner is the same tile."""
        reach = self.reach
        after = occ & ~((1 << a) | (1 << b))
        low = self.low & after
        for t in iter_bits((reach[a] | reach[b]) & low):
            r = reach[t] & after
            if not r:
                return True
            if not r & (r - 1):
                for v in iter_bits(reach[r.bit_length() - 1] & low & ~(1 << t)):
                    if reach[v] & after == r:
                        return True
        return False

    def forced_pair(
        self, occ: int, free: int, max_turns: int, stride: int
    ) -> tuple[int, int] | None:
        """The first forced tile (in bit order) that links now to its one possible partner,
        with that partner; None when there is none."""
        reach = self.reach
        for t in iter_bits(self.single & occ):
            r = reach[t] & occ
            if linkable_mask(1 << t, free, r, max_turns, stride):
                return t, r.bit_length() - 1
        return None
