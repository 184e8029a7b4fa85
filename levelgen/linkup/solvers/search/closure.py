"""Safe moves of the search solver: whether a whole group can be removed now.

When every remaining tile of a group can leave now through moves inside the group (pairs that
are not forbidden), the search removes them all without branching;
:mod:`levelgen.linkup.solvers.search` argues why that never loses a solution.  This module finds
such a sequence of moves.  Groups of up to ``EXACT_CLEAR_LIMIT`` tiles are searched exhaustively;
for larger ones one greedy attempt is made (a sequence found is still valid; not finding one only
means no shortcut).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from ...core.board import iter_bits

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
    return _clear(iter(linked), mask, free, forbid, link, mask.bit_count() <= EXACT_CLEAR_LIMIT)


def _clear(
    first: Iterator[Pair],
    mask: int,
    free: int,
    forbid: dict[int, int],
    link: Link,
    exact: bool,
) -> list[Pair] | None:
    """A depth-first search (iterative: a group may hold the whole board) for moves clearing
    ``mask``, the first move taken from ``first``.  With ``exact`` every order is tried, in
    candidate order; without, the first candidate is taken at every step and a dead end gives
    None (one greedy attempt)."""
    moves: list[Pair] = []
    # frames[i]: the untried moves of the i-th state on the path, its tiles and free cells;
    # moves[i] led from frames[i] to frames[i + 1].
    frames: list[tuple[Iterator[Pair], int, int]] = [(first, mask, free)]
    while frames:
        candidates, rest, open_ = frames[-1]
        pair = next(candidates, None)
        if pair is None:
            if not exact:
                return None
            frames.pop()
            if frames:
                moves.pop()
            continue
        bits = 1 << pair[0] | 1 << pair[1]
        moves.append(pair)
        if rest == bits:
            return moves
        rest ^= bits
        open_ |= bits
        frames.append((_candidates(rest, open_, forbid, link), rest, open_))
    return None


def _candidates(mask: int, free: int, forbid: dict[int, int], link: Link) -> Iterator[Pair]:
    """The moves inside ``mask`` that are legal now, lazily (each link test only when asked)."""
    for a in iter_bits(mask):
        # Links are symmetric: each pair with a lower tile was tried from that tile.
        higher = mask & ~forbid[a] & -(2 << a)
        if higher:
            for b in iter_bits(link(a, free, higher)):
                yield a, b
