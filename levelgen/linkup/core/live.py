"""The live move list: the legal pairs of a position kept up to date as pairs are removed.

One structure for every caller that plays moves one after another: the play engine
(:class:`levelgen.linkup.play.game.Game`, with undo) and the difficulty play-outs
(:mod:`levelgen.linkup.difficulty.play`, with copies).  It works on bit indices of the padded layout
(see :class:`levelgen.linkup.core.board.Layout`); it is pure and checks nothing (the callers play
legal pairs only).

How it stays cheap.  ``links[x]`` is the mask of same-kind tiles linkable from tile bit ``x``,
and ``total`` the sum of their sizes (each move counted from both ends).  Removing the pair
``a, b`` only adds free cells, so a link between two remaining tiles never breaks (without
gravity, see :mod:`levelgen.linkup.core.rules`); the links that vanish are those of ``a`` and ``b``,
recorded in ``links[a]`` and ``links[b]``.  A link that appears must run across ``a`` or
``b``, and both of its ends are *open*: not yet linked to every other tile of their kind
(``open_mask``; a tile once closed stays closed while pairs are removed).  Split at a freed
cell ``c`` it crosses, the link is a path from ``c`` to one end starting along axis A with
``t1`` turns and one from ``c`` to the other starting along B with ``t2`` turns, where
``t1 + t2 + (A != B) <= max_turns``; conversely any two such paths make a link of at most that
many turns.  So two fills from each freed cell, one per starting axis
(:func:`levelgen.linkup.core.reach.axis_hits`, the open tiles each reaches with ``0 .. max_turns``
turns), give the new pairs exactly, without a link test: four half fills per move (about two fills
of :func:`levelgen.linkup.core.reach.levels`) and a loop over the few open tiles they reach.

Compiled.  :meth:`LiveLinks.remove` after its undo record and the fill of a new position run
as compiled twins when the optional extension is built (``levelgen/linkup/core/_native.c``, see
:data:`levelgen.linkup.core.reach.NATIVE`): the same steps on arrays of 64-bit words, with
:meth:`LiveLinks.python_remove` and :meth:`LiveLinks.python_fill_links` as their references.

Undo.  Built with ``undo=True``, each removal records what it changed (the links of the two
tiles, the links it added, the open mask and the total), and :meth:`LiveLinks.undo` puts them
back exactly.  The property tests compare the pairs with a fresh
:func:`levelgen.linkup.core.moves.legal_pairs` after every move of random play-outs, and after every
undo with the set seen before.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import lru_cache

from .board import Board, Layout, iter_bits
from .reach import axis_hits, link_hits, native
from .rules import Rules

__all__ = ["LiveLinks"]

#: The compiled twin of :meth:`LiveLinks.python_remove` when the extension is in use (see
#: :data:`levelgen.linkup.core.reach.NATIVE`), else None.
_native_remove_pair: (
    Callable[
        [
            list[int],
            list[int],
            dict[int, int],
            list[int],
            int,
            int,
            int,
            int,
            int,
            int,
            int,
            list[tuple[int, int]] | None,
        ],
        tuple[int, int, int],
    ]
    | None
) = None
#: The compiled twin of :meth:`LiveLinks.python_fill_links`, or None.
_native_fill_links: (
    Callable[
        [list[int], list[int], dict[int, int], int, int, bool, int | None, int, int],
        tuple[int, int],
    ]
    | None
) = None
if native is not None:
    _native_fill_links = native.fill_links
    _native_remove_pair = native.remove_pair

#: One removal as recorded for undo: the two tile bits, their links before, the open mask and
#: total before, and the links added as ``(tile, mask of its new partners)``.
_Record = tuple[int, int, int, int, int, int, list[tuple[int, int]]]


class LiveLinks:
    """The legal moves of a position kept up to date as pairs are removed (see the module
    docstring).  ``LiveLinks(board, rules, undo=True)`` also records each removal for
    :meth:`undo`."""

    __slots__ = (
        "_left",
        "free",
        "journal",
        "k",
        "kind_mask",
        "kind_of",
        "links",
        "open_mask",
        "stride",
        "total",
    )

    def __init__(self, board: Board, rules: Rules, *, undo: bool = False) -> None:
        self._build(
            board.layout, rules.max_turns, board.free_mask(rules.outside), board.kind_masks(), undo
        )

    @classmethod
    def from_masks(
        cls,
        layout: Layout,
        max_turns: int,
        free: int,
        kind_masks: dict[int, int],
        *,
        undo: bool = False,
        linked: int | None = None,
        kind_of: list[int] | None = None,
        tiles: int | None = None,
    ) -> LiveLinks:
        """The live move list of a position given as masks: ``free`` the cells a path may
        cross (ring included when it is on), ``kind_masks`` the tiles of each kind (kinds with
        no tile left may be present with mask 0).  As the constructor, without building a
        :class:`~levelgen.linkup.core.board.Board` (the repair solver rebuilds many positions).

        ``linked``: when given, the caller knows that every legal pair has a tile in this
        mask, and only its tiles are tested.  The repair solver knows it: its position is a
        dead end (no pair at all) with tiles put back, and a tile put back only takes away
        free cells (see :mod:`levelgen.linkup.core.rules`), so every new pair has a tile put back.
        ``kind_of``: the kind of every tile bit of the start (the :attr:`kind_of` of an
        earlier live move list of the same start), shared rather than filled again.
        ``tiles``: with both of those, the tiles of the position, when every kind holds an
        even number of them (pairs removed from a board of even kinds): then only the kinds
        of the tiles of ``linked`` are looked at, not every kind (the others have no link,
        and all their tiles are open)."""
        live = cls.__new__(cls)
        even = tiles if linked is not None and kind_of is not None else None
        live._build(layout, max_turns, free, dict(kind_masks), undo, linked, kind_of, even)
        return live

    def _build(
        self,
        lay: Layout,
        k: int,
        free: int,
        kind_mask: dict[int, int],
        undo: bool,
        linked: int | None = None,
        shared_kind_of: list[int] | None = None,
        even_tiles: int | None = None,
    ) -> None:
        self.stride = stride = lay.stride
        self.k = k
        self.free = free
        size = (lay.height + 2) * stride
        #: The kind of each tile bit of the start (not cleared when the tile leaves).
        self.kind_of = [0] * size if shared_kind_of is None else shared_kind_of
        self.links = [0] * size
        self.kind_mask = kind_mask
        #: The records of the removals since the start, when built with ``undo=True``.
        self.journal: list[_Record] | None = [] if undo else None
        #: ``_left[x]``: the cells of the columns left of column ``x`` of the layout.
        self._left = _left_columns(stride, lay.height + 2)
        self._fill_links(free, -1 if linked is None else linked, shared_kind_of is None, even_tiles)

    def _fill_links(
        self, free: int, linked: int, fill_kinds: bool, even_tiles: int | None = None
    ) -> None:
        """The links of the position, from a fill from each tile of ``linked`` (every legal
        pair has a tile there: all tiles, -1, or see :meth:`from_masks`) toward the tiles of
        its kind not yet tested; ``fill_kinds`` when :attr:`kind_of` is still to be filled;
        ``even_tiles`` as ``tiles`` in :meth:`from_masks`.  :meth:`python_fill_links`, or its
        compiled twin (see :data:`levelgen.linkup.core.reach.NATIVE`)."""
        if _native_fill_links is None:
            self.python_fill_links(free, linked, fill_kinds, even_tiles)
        else:
            self.open_mask, self.total = _native_fill_links(
                self.links,
                self.kind_of,
                self.kind_mask,
                free,
                linked,
                fill_kinds,
                even_tiles,
                self.k,
                self.stride,
            )

    def python_fill_links(
        self, free: int, linked: int, fill_kinds: bool, even_tiles: int | None = None
    ) -> None:
        """The body of :meth:`_fill_links` (:attr:`links` all zero before): the Python
        reference of its compiled twin ``levelgen.linkup.core._native.fill_links``, which does the
        same step for step."""
        stride, k = self.stride, self.k
        kind_of, links = self.kind_of, self.links
        open_mask = total = 0
        kinds: Iterable[tuple[int, int]] = self.kind_mask.items()
        if even_tiles is not None:
            # Only the kinds of the tiles of ``linked``: the tiles of the others are all open
            # (none or two or more of a kind) and have no link (a loop over every kind, about
            # half the time of a repaired position's build at 64x64, spared).
            kind_mask = self.kind_mask
            kinds = [(kind, kind_mask[kind]) for kind in {kind_of[x] for x in iter_bits(linked)}]
            open_mask = even_tiles
            for _, mask in kinds:
                open_mask ^= open_mask & mask
        # The cells with a free neighbour: a path enters its last tile from a free cell, or
        # the two tiles are neighbours, so a tile outside this mask links only to neighbours.
        edge = (free << 1) | (free >> 1) | (free << stride) | (free >> stride)
        for kind, mask in kinds:
            if not mask & linked and not fill_kinds:
                # No tile to test: no links, so every tile with another of its kind is open.
                if mask & (mask - 1):
                    open_mask |= mask
                continue
            done = 0  # the tiles of ``linked`` of this kind already tested
            rest = mask
            while rest:
                low = rest & -rest
                rest ^= low
                x = low.bit_length() - 1
                kind_of[x] = kind
                if not low & linked:
                    continue
                targets = mask ^ (mask & (low | done))
                done |= low
                if not targets:
                    continue
                # A tile with no free neighbour (most of a full board) links only to neighbours,
                # and only to tiles that have one (or are neighbours).
                near = (low << 1) | (low >> 1) | (low << stride) | (low >> stride)
                if low & edge:
                    targets &= edge | near
                    hit = link_hits(low, free, targets, k, stride) if targets else 0
                else:
                    hit = near & targets
                if hit:
                    links[x] |= hit
                    total += 2 * hit.bit_count()
                    while hit:
                        other = hit & -hit
                        hit ^= other
                        links[other.bit_length() - 1] |= low
            rest = mask
            while rest:
                low = rest & -rest
                rest ^= low
                if links[low.bit_length() - 1] != mask ^ low:
                    open_mask |= low
        self.open_mask = open_mask
        self.total = total

    def copy(self) -> LiveLinks:
        """An independent copy (without the undo records: the copy starts its own when the
        original has them)."""
        other = LiveLinks.__new__(LiveLinks)
        other.stride, other.k, other.free = self.stride, self.k, self.free
        other._left = self._left
        other.kind_of = self.kind_of  # never written after construction
        other.links = self.links[:]
        other.kind_mask = dict(self.kind_mask)
        other.open_mask, other.total = self.open_mask, self.total
        other.journal = None if self.journal is None else []
        return other

    @property
    def count(self) -> int:
        """The number of legal moves now."""
        return self.total // 2

    @property
    def tiles(self) -> int:
        """Tiles left."""
        return sum(m.bit_count() for m in self.kind_mask.values())

    def linked(self, a: int, b: int) -> bool:
        """True when the tiles at bits ``a`` and ``b`` are a legal pair now."""
        return bool(self.links[a] >> b & 1)

    def pairs(self) -> list[tuple[int, int]]:
        """Every legal move as ``(a, b)`` bit indices with ``a < b``, in the order of
        :func:`levelgen.linkup.core.moves.legal_pairs` (kinds in board order, then bit order)."""
        out: list[tuple[int, int]] = []
        links = self.links
        for mask in self.kind_mask.values():
            rest = mask
            while rest:
                low = rest & -rest
                rest ^= low
                x = low.bit_length() - 1
                above = links[x] & ~((low << 1) - 1)
                while above:
                    top = above & -above
                    above ^= top
                    out.append((x, top.bit_length() - 1))
        return out

    def remove(self, a: int, b: int) -> None:
        """Remove the legal pair of tile bits ``a`` and ``b`` (one kind)."""
        gained: list[tuple[int, int]] | None = None
        if self.journal is not None:
            gained = []
            self.journal.append(
                (a, b, self.links[a], self.links[b], self.open_mask, self.total, gained)
            )
        if _native_remove_pair is None:
            self.python_remove(a, b, gained)
        else:
            self.free, self.open_mask, self.total = _native_remove_pair(
                self.links,
                self.kind_of,
                self.kind_mask,
                self._left,
                a,
                b,
                self.free,
                self.open_mask,
                self.total,
                self.k,
                self.stride,
                gained,
            )

    def python_remove(self, a: int, b: int, gained: list[tuple[int, int]] | None) -> None:
        """The body of :meth:`remove` after its undo record (``gained`` is the record's list of
        new links, None without undo): the Python reference of its compiled twin
        ``levelgen.linkup.core._native.remove_pair`` (see
        :data:`levelgen.linkup.core.reach.NATIVE`), which does the same step for step."""
        stride, k, links = self.stride, self.k, self.links
        kind_mask, kind_of = self.kind_mask, self.kind_of
        pair = (1 << a) | (1 << b)
        links_a, links_b = links[a], links[b]
        open_mask = self.open_mask
        # The links of a and b vanish, at both of their ends; open tiles of their kind whose
        # only missing partners were a and b close.
        # (Masks are cleared with ``m ^ (m & c)``, not ``m & ~c``: a complement costs about
        # three plain operations on the ints of a large board; bits are taken from the top.)
        total = self.total - links_a.bit_count() - links_b.bit_count()
        rest = links_a | links_b
        rest ^= rest & pair
        links[a] = links[b] = 0
        while rest:
            x = rest.bit_length() - 1
            rest ^= 1 << x
            lost = links[x] & pair
            links[x] ^= lost
            total -= lost.bit_count()
        kind = kind_of[a]
        mask = kind_mask[kind]
        mask = kind_mask[kind] = mask ^ (mask & pair)
        rest = mask & open_mask
        while rest:
            x = rest.bit_length() - 1
            low = 1 << x
            rest ^= low
            if links[x] == mask ^ low:
                open_mask ^= low
        open_mask ^= open_mask & pair
        free = self.free = self.free | pair
        if open_mask:
            # A new link x-y runs across a or b, between open tiles of one kind: split at the
            # first freed cell c it crosses into a path from c to x starting along axis A
            # with t1 turns and one from c to y starting along B with t2 turns, where
            # t1 + t2 + (A != B) <= k (a turn at c when the axes differ).  Conversely such
            # two paths always make a link of at most that many turns (where they overlap,
            # cutting the overlap loses no turn).  So with ``hits[A][t]`` the open tiles of
            # paths from c starting along A with at most t turns, the new partners of x, taken
            # at its fewest turns t1 <= k // 2 along A, are the unlinked tiles of its kind in
            # hits[A][k - t1] | hits[not A][k - 1 - t1]: exact, no link test.  Each new pair
            # is found from its end of fewer turns (from both when they tie; then once).
            half = k // 2
            for c in (a, b):
                src = 1 << c
                by_axis = axis_hits(src, free, open_mask, k, stride)
                column = c % stride
                for axis in (0, 1):
                    hits, other = by_axis[axis], by_axis[1 - axis]
                    for t in range(half + 1):
                        # x at exactly t turns along this axis; partners at t or more along
                        # it (k - t at most), or along the other (k - 1 - t at most).
                        ends = hits[t] & open_mask
                        if t:
                            before = hits[t - 1]
                            ends ^= ends & before
                        if not ends:
                            continue
                        partners = hits[k - t]
                        if t:
                            partners ^= partners & before
                        if k - 1 - t >= t:
                            more = other[k - 1 - t]
                            if t:
                                more ^= more & other[t - 1]
                            partners |= more
                        partners &= open_mask
                        if t == 1 and k == 2:
                            # Both ends one turn away, paths leaving c along one axis: a new
                            # link leaves it in opposite directions (two paths leaving in one
                            # direction join without c: an old link, or a new one found at the
                            # other freed cell, which it crosses).  The tiles one turn away
                            # lie on their path's side of c: left / right (above / below).
                            side = self._left[column] if axis == 0 else (1 << (c - column)) - 1
                            ends &= side
                            partners ^= partners & side
                            if ends.bit_count() > partners.bit_count():
                                ends, partners = partners, ends
                        if not partners:
                            continue
                        while ends:
                            x = ends.bit_length() - 1
                            low = 1 << x
                            ends ^= low
                            mask = kind_mask[kind_of[x]]
                            hit = mask & partners
                            if hit:
                                hit ^= hit & (links[x] | low)
                            if not hit:
                                continue
                            if gained is not None:
                                gained.append((x, hit))
                            new = links[x] = links[x] | hit
                            total += 2 * hit.bit_count()
                            if new == mask ^ low:
                                open_mask ^= open_mask & low
                            while hit:
                                y = hit.bit_length() - 1
                                other_bit = 1 << y
                                hit ^= other_bit
                                new = links[y] = links[y] | low
                                if new == mask ^ other_bit:
                                    open_mask ^= open_mask & other_bit
        self.open_mask = open_mask
        self.total = total

    def last_gained(self) -> list[tuple[int, int]]:
        """The links the last removal added, as ``(tile bit, mask of its new partners)`` (each
        new link from one end); ``ValueError`` when built without ``undo=True``, ``IndexError``
        before any removal.  The repair solver (:mod:`levelgen.linkup.solvers.repair`) follows the
        kinds that can move with it."""
        if self.journal is None:
            raise ValueError("this live move list keeps no undo records (undo=True)")
        return self.journal[-1][6]

    def undo(self) -> tuple[int, int]:
        """Put back the last pair removed; returns its bits ``(a, b)``.  ``IndexError`` when
        nothing was removed, ``ValueError`` when built without ``undo=True``."""
        if self.journal is None:
            raise ValueError("this live move list keeps no undo records (undo=True)")
        if not self.journal:
            raise IndexError("no removal to undo")
        a, b, links_a, links_b, open_mask, total, gained = self.journal.pop()
        links = self.links
        for x, hit in gained:
            links[x] &= ~hit
            low = 1 << x
            while hit:
                other = hit & -hit
                hit ^= other
                links[other.bit_length() - 1] &= ~low
        pair = (1 << a) | (1 << b)
        links[a], links[b] = links_a, links_b
        rest = (links_a | links_b) & ~pair
        while rest:
            low = rest & -rest
            rest ^= low
            y = low.bit_length() - 1
            links[y] |= ((links_a >> y & 1) << a) | ((links_b >> y & 1) << b)
        kind = self.kind_of[a]
        self.kind_mask[kind] |= pair
        self.free &= ~pair
        self.open_mask, self.total = open_mask, total
        return a, b


@lru_cache(maxsize=64)
def _left_columns(stride: int, rows: int) -> list[int]:
    """For each column ``x`` of a padded layout of ``rows`` rows, the cells of the columns left
    of it (built once per layout: every live move list of a board shares it, read only)."""
    first = sum(1 << (r * stride) for r in range(rows))
    return [first * ((1 << x) - 1) for x in range(stride)]
