"""The state of the search solver, changed in place and undone on backtrack: groups, decisions,
links and the safe-move closure.

The soundness of each step is argued in :mod:`levelgen.linkup.solvers.search`; the search itself is
:mod:`levelgen.linkup.solvers.search.engine`.  State lives in plain ints, lists and dicts:

* ``occ`` / ``free``: occupied tiles and the cells a path may cross (board holes, removed
  tiles, and the ring when the rules allow it), padded layout of :mod:`levelgen.linkup.core.board`;
* ``gmask[g]``: the tiles of group ``g`` still present; ``gid[bit]``: the group of a tile;
  groups ``0 .. n_kinds - 1`` are the kinds, later ones are pairs split off by the search;
* ``forbid[bit]``: the tiles of its group the tile may not pair with (decided by the search);
* ``links[bit]``: tiles of its group the tile is linkable to now (read through the group and
  ``forbid``).  Links only appear when tiles are removed, and only for tiles a newly freed cell
  can see, so after a removal only the tiles linkable (positions only) from the removed cells
  are tested again.

Decisions are binary: for a linkable pair ``(t, p)`` of a group of four or more, either ``t``
and ``p`` are partners (split off as a pair, which the closure removes at once), or they are
not (``forbid``).  A group of four with a single pairing left is split accordingly; one with
none left is dead.

For explanations (:mod:`levelgen.linkup.solvers.search.explain`) the state keeps the depth at which
each tile was removed, each group of four split and each pair forbidden, and, while a branch is
being made, its ``Transition`` (``step``): the closure and the forced splits append their
events, each with its reason.

Pure: no I/O, no clock.
"""

from __future__ import annotations

from ...core.board import Board, bit_list, iter_bits
from ...core.reach import linkable_mask
from ...core.rules import Rules
from .closure import clear_group
from .explain import Removal, Split, Transition, explain_no_pairing, pair

__all__ = ["Action", "Key", "Pair", "SearchState"]

Pair = tuple[int, int]
Key = tuple[int, tuple[int, ...], tuple[int, ...]]
#: What a branch did, to undo when its child is left: splits (group, tile, partner) made and
#: the forbidden pair, if any.
Action = tuple[list[tuple[int, int, int]], Pair | None]


class SearchState:
    """The position of one search over one board, with make/unmake and the closure.  The
    counters in ``count`` are shared with the engine built on it."""

    def __init__(self, board: Board, rules: Rules) -> None:
        lay = board.layout
        self.stride = lay.stride
        self.k = rules.max_turns
        self.occ = board.occupied_mask()
        self.free = board.free_mask(rules.outside)
        self.kind_mask: list[int] = []
        self.gmask: list[int] = []
        self.gkind: list[int] = []
        self.gid: dict[int, int] = {}
        for mask in board.kind_masks().values():
            g = len(self.gmask)
            self.kind_mask.append(mask)
            self.gmask.append(mask)
            self.gkind.append(g)
            for b in iter_bits(mask):
                self.gid[b] = g
        self.n_kinds = len(self.gmask)
        self.forbid = dict.fromkeys(self.gid, 0)
        self.forbidden: list[Pair] = []
        self.links: dict[int, int] = {}
        #: ``(tile, links[tile] before)`` for every change of ``links``, undone on leaving a node
        #: (a copy of ``links`` per node would cost memory in the tiles times the depth).
        self.link_log: list[tuple[int, int]] = []
        self.moves: list[Pair] = []
        self.trail: list[tuple[int, int]] = []
        # For explanations: the depth of the node being entered, the transition being made, and
        # the depth at which each tile was removed, split from its group, or each pair forbidden.
        self.level = 0
        self.step: Transition | None = None
        size = max(self.gid, default=0) + 1
        self.removed_at = [0] * size
        self.split_at = [0] * size
        self.banned_at: dict[tuple[int, int], int] = {}
        self.count = dict.fromkeys(
            (
                "link_tests",
                "closure_removed",
                "relax_pruned",
                "relax_replayed",
                "memo_hits",
                "nogood_hits",
                "forced",
                "no_move",
                "branches",
                "restarts",
                "backjumps",
                "levels_skipped",
            ),
            0,
        )

    def _copy_state(self, other: SearchState) -> None:
        """Give ``other`` (a shallow copy of this state) mutable state of its own."""
        other.gmask = list(self.gmask)
        other.gkind = list(self.gkind)
        other.gid = dict(self.gid)
        other.forbid = dict(self.forbid)
        other.forbidden = list(self.forbidden)
        other.links = dict(self.links)
        other.link_log = list(self.link_log)
        other.moves = list(self.moves)
        other.trail = list(self.trail)
        other.removed_at = list(self.removed_at)
        other.split_at = list(self.split_at)
        other.banned_at = dict(self.banned_at)

    def _link(self, tile: int, free: int, targets: int) -> int:
        self.count["link_tests"] += 1
        return linkable_mask(1 << tile, free, targets, self.k, self.stride)

    # ----- the memo key -----------------------------------------------------------------------

    def _key(self) -> Key:
        """The state: occupancy, split-off groups that are not a whole kind's rest, and the
        forbidden pairs still inside one group."""
        occ, gmask, gid = self.occ, self.gmask, self.gid
        kind_mask, gkind = self.kind_mask, self.gkind
        split = sorted(
            m
            for g in range(self.n_kinds, len(gmask))
            if (m := gmask[g]) and m != kind_mask[gkind[g]] & occ
        )
        # A forbidden pair counts while both tiles are in one group, even a group of two (which
        # it makes dead).
        banned = sorted(
            1 << a | 1 << b
            for a, b in self.forbidden
            if occ >> a & 1 and occ >> b & 1 and gid[a] == gid[b]
        )
        return occ, tuple(split), tuple(banned)

    # ----- closure ----------------------------------------------------------------------------

    def _closure(self, dirty: list[int]) -> None:
        """Remove every group that can all go now, until none can (safe moves)."""
        gmask, gid, links = self.gmask, self.gid, self.links
        while dirty:
            removed = 0
            for g in dirty:
                mask = gmask[g]
                if not mask:
                    continue
                seq = clear_group(mask, self.free, links, self.forbid, self._link)
                if seq is None:
                    continue
                self.moves.extend(seq)
                self.trail.append((g, mask))
                gmask[g] = 0
                level = self.level
                for b in iter_bits(mask):
                    self.removed_at[b] = level
                if self.step is not None:
                    self._record_removal(g, mask)
                self.occ ^= mask
                self.free |= mask
                removed |= mask
            if not removed:
                return
            self.count["closure_removed"] += removed.bit_count()
            occ, free = self.occ, self.free
            changed = set()
            # A new link runs through a freed cell, so both its ends are linkable (positions
            # only) from the freed cells: only such pairs need a test.
            seen = linkable_mask(removed, free, occ, self.k, self.stride)
            # Links are symmetric: a pair tested from one end is not tested from the other.
            tested = dict.fromkeys(bit_list(seen), 0)
            for t, known in tested.items():
                g = gid[t]
                bit = 1 << t
                new_mates = gmask[g] & seen & ~links[t] & ~known & ~bit
                if new_mates:
                    new = self._link(t, free, new_mates)
                    for m in iter_bits(new_mates):
                        tested[m] |= bit
                    if new:
                        log = self.link_log
                        log.append((t, links[t]))
                        links[t] |= new
                        for m in iter_bits(new):
                            log.append((m, links[m]))
                            links[m] |= bit
                        changed.add(g)
            dirty = sorted(changed)

    def _record_removal(self, g: int, mask: int) -> None:
        """Note for explanations the closure's removal of group ``g`` (tiles ``mask``, still in
        ``occ``), and why the group was pairing-closed."""
        assert self.step is not None
        rest = self.kind_mask[self.gkind[g]] & ~mask
        apart = frozenset(pair(x, z) for x in iter_bits(mask) for z in iter_bits(rest & self.occ))
        self.step.events.append(Removal(mask, rest & ~self.occ, apart))

    # ----- decisions --------------------------------------------------------------------------

    def _split(self, g: int, tile: int, partner: int) -> int:
        pair = 1 << tile | 1 << partner
        ng = len(self.gmask)
        self.gmask.append(pair)
        self.gkind.append(self.gkind[g])
        self.gmask[g] ^= pair
        self.gid[tile] = self.gid[partner] = ng
        return ng

    def _unsplit(self, g: int, tile: int, partner: int) -> None:
        pair = self.gmask.pop()
        self.gkind.pop()
        self.gmask[g] |= pair
        self.gid[tile] = self.gid[partner] = g

    def _ban(self, g: int, tile: int, partner: int) -> list[tuple[int, int, int]] | None:
        """Forbid ``tile`` and ``partner`` to pair; the splits this forces in a group of four
        (a single pairing left), or None when no pairing is left (the caller undoes)."""
        forbid = self.forbid
        forbid[tile] |= 1 << partner
        forbid[partner] |= 1 << tile
        self.forbidden.append((tile, partner))
        self.banned_at[pair(tile, partner)] = self.level
        mask = self.gmask[g]
        if mask.bit_count() != 4:
            return []
        a, b, c, d = iter_bits(mask)
        left = [
            p
            for p, q in ((b, (c, d)), (c, (b, d)), (d, (b, c)))
            if not forbid[a] >> p & 1 and not forbid[q[0]] >> q[1] & 1
        ]
        if not left:
            return None
        if len(left) > 1:
            return []
        self.count["forced"] += 1
        x = left[0]
        self._split(g, a, x)
        if self.step is not None:
            self._record_split(g, mask, a, x)
        return [(g, a, x)]

    def _record_split(self, g: int, four: int, a: int, x: int) -> None:
        """Note for explanations that the group of four ``four`` was split into ``{a, x}`` and
        the rest, its one pairing left."""
        split_at, level = self.split_at, self.level
        for b in iter_bits(four):
            split_at[b] = level
        rest = four & ~(1 << a | 1 << x)
        made = frozenset(pair(u, v) for u in (a, x) for v in iter_bits(rest))
        reason = explain_no_pairing(four, self.kind_mask[self.gkind[g]], self.occ, self.forbid)
        assert self.step is not None
        self.step.events.append(Split(made, reason.gone, reason.apart, four))

    def _unban(self, tile: int, partner: int) -> None:
        self.forbid[tile] &= ~(1 << partner)
        self.forbid[partner] &= ~(1 << tile)
        self.forbidden.pop()

    def _undo(self, action: Action) -> None:
        splits, banned = action
        for g, tile, partner in reversed(splits):
            self._unsplit(g, tile, partner)
        if banned is not None:
            self._unban(*banned)

    def _restore(self, occ: int, free: int, n_moves: int, n_trail: int, n_links: int) -> None:
        self.occ, self.free = occ, free
        log, links = self.link_log, self.links
        while len(log) > n_links:
            t, old = log.pop()
            links[t] = old
        del self.moves[n_moves:]
        trail, gmask = self.trail, self.gmask
        while len(trail) > n_trail:
            g, mask = trail.pop()
            gmask[g] = mask
