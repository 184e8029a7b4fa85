"""Safe moves of the search solver: whether a whole group can be removed now.

When every remaining tile of a group can leave now through moves inside the group (pairs that
are not forbidden), the search removes them all without branching; :mod:`levelgen.solvers.search`
argues why that never loses a solution.  This module finds such a sequence of moves.  Groups of
up to ``EXACT_CLEAR_LIMIT`` tiles are searched exhaustively; for larger ones one greedy attempt
is made (a sequence found is still valid; not finding one only means no shortcut).
"""

from __future__ import annotations

from collections.abc import Callable

from ..board import iter_bits

__all__ = ["EXACT_CLEAR_LIMIT", "clear_group"]

#: Groups up to this many tiles are tested for "can all go now" exhaustively.
EXACT_CLEAR_LIMIT = 8

Pair = tuple[int, int]
#: ``link(tile, free, targets)``: the cells of ``targets`` linkable from ``tile`` through ``free``.
Link = Callable[[int, int, int], int]


def clear_group(
    mask: int, free: int, links: dict[int, int], forbid: dict[int, int], link: Link
) -> list[Pair] | None:
    """Moves removing every tile of the group ``mask`` now, in order, or None when none is
    found.  ``links[t]`` holds (at least) the tiles ``t`` is linkable to now; ``forbid[t]`` the
    tiles it may not pair with."""
    linked = []
    for a in iter_bits(mask):
        mates = links[a] & mask & ~forbid[a] & -(2 << a)
        if mates:
            linked += [(a, b) for b in iter_bits(mates)]
    if not linked:
        return None
    if mask.bit_count() == 2:
        return linked
    exact = mask.bit_count() <= EXACT_CLEAR_LIMIT
    for a, b in linked:
        seq = _first_then_rest(a, b, mask, free, forbid, link, exact)
        if seq is not None or not exact:
            return seq
    return None


def _clear_rest(
    mask: int, free: int, forbid: dict[int, int], link: Link, exact: bool
) -> list[Pair] | None:
    if not mask:
        return []
    for a in iter_bits(mask):
        # Links are symmetric: each pair with a lower tile was tried from that tile.
        higher = mask & ~forbid[a] & -(2 << a)
        if not higher:
            continue
        for b in iter_bits(link(a, free, higher)):
            seq = _first_then_rest(a, b, mask, free, forbid, link, exact)
            if seq is not None or not exact:
                return seq
    return None


def _first_then_rest(
    a: int, b: int, mask: int, free: int, forbid: dict[int, int], link: Link, exact: bool
) -> list[Pair] | None:
    """The move ``(a, b)`` followed by moves clearing the rest of ``mask``, or None."""
    pair = 1 << a | 1 << b
    rest = _clear_rest(mask ^ pair, free | pair, forbid, link, exact)
    return None if rest is None else [(a, b), *rest]
