"""Nogoods of the search solver: explanations of dead states, kept to prune later states.

An explanation (:mod:`levelgen.linkup.solvers.search.explain`) says that *every* state in which its
facts hold is dead, so one found in one run also kills states of later runs, and states of
this run that the dead-state memo does not know because they differ in tiles or decisions
the explanation does not name.  The search asks the store before it runs the relaxation at a
node; a hit costs one lookup instead of a relaxed run, and its explanation drives the
backjumping like any other.

The lookup is bit-parallel: nogood ``i`` is bit ``i`` of a mask, and each tile keeps the mask
of the nogoods that need it gone and of those that need it present.  The nogoods some present
tile must be gone for, or some gone tile present for, are ruled out by one OR per tile; only
the few left are checked pair by pair.  Memory stays bounded: past ``limit`` nogoods the older
half is dropped (forgetting a nogood only costs finding it again).
"""

from __future__ import annotations

from functools import reduce
from operator import or_

from ...core.board import bit_list
from .explain import Expl, holds

__all__ = ["NOGOOD_LIMIT", "NogoodStore"]

#: Nogoods kept at most (the older half is dropped when there are more).
NOGOOD_LIMIT = 4_000


class NogoodStore:
    """Explanations of dead states over the tiles ``tiles`` (a mask), to look up by state."""

    def __init__(self, tiles: int, limit: int = NOGOOD_LIMIT) -> None:
        self.tiles = tiles
        self.limit = limit
        self.items: list[Expl] = []
        self.need_gone = dict.fromkeys(bit_list(tiles), 0)
        self.need_present = dict.fromkeys(bit_list(tiles), 0)
        self.evictions = 0

    def __len__(self) -> int:
        return len(self.items)

    def add(self, expl: Expl) -> None:
        if len(self.items) >= self.limit:
            keep = self.items[len(self.items) // 2 :]
            self.items = []
            self.need_gone = dict.fromkeys(self.need_gone, 0)
            self.need_present = dict.fromkeys(self.need_present, 0)
            self.evictions += 1
            for old in keep:
                self._index(old)
        self._index(expl)

    def _index(self, expl: Expl) -> None:
        bit = 1 << len(self.items)
        self.items.append(expl)
        need_gone, need_present = self.need_gone, self.need_present
        for x in bit_list(expl.gone):
            need_gone[x] |= bit
        for x in bit_list(expl.present):
            need_present[x] |= bit

    def find(self, occ: int, gid: dict[int, int], forbid: dict[int, int]) -> Expl | None:
        """A stored explanation whose facts all hold in the state (tiles ``occ``, groups
        ``gid``, forbidden pairs ``forbid``), or None."""
        items = self.items
        if not items:
            return None
        ruled_out = reduce(or_, map(self.need_gone.__getitem__, bit_list(occ)), 0)
        ruled_out = reduce(
            or_, map(self.need_present.__getitem__, bit_list(self.tiles & ~occ)), ruled_out
        )
        left = ~ruled_out & ((1 << len(items)) - 1)
        for i in bit_list(left):
            if holds(items[i], occ, gid, forbid):
                return items[i]
        return None
