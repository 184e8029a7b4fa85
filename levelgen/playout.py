"""Random removal orders on positions only: the heart of generation by occupancy.

By occupancy invariance (see :mod:`levelgen.reach`) whether two cells can be linked depends only
on which cells are occupied, so a removal order found here, on tile *slots* without kinds, stays
valid for any assignment of kinds that gives the two cells of each removed pair the same kind;
:func:`deal` puts such an assignment on the board and writes the order as moves.

Pure: randomness comes only from the ``random.Random`` passed in.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from .board import Board, iter_bits
from .geometry import Pos
from .moves import Move
from .paths import find_link
from .reach import linkable_mask
from .rules import Rules

__all__ = ["deal", "random_removal_order"]

#: Steps between two checkpoints of a playout.
CHECKPOINT_STEPS = 32
#: Dead ends a checkpoint absorbs before the playout rewinds to the one before it.
REWINDS_PER_CHECKPOINT = 4
#: Dead ends one playout absorbs by rewinding before it gives up.
MAX_REWINDS = 200


def random_removal_order(
    template: Board, rules: Rules, rng: random.Random, *, max_attempts: int = 50
) -> list[tuple[Pos, Pos]] | None:
    """A random order removing every tile slot of ``template`` two at a time, each pair linked
    under ``rules`` at its moment (kinds ignored), or None when ``max_attempts`` random playouts
    all reached a dead end (tiles left, none linkable) or the slot count is odd.

    Each step removes a tile drawn uniformly from the tiles that link to a tile other than a
    direct neighbour, with a partner drawn uniformly from those links; only when no tile has
    such a link does the step fall back to neighbours (a tile drawn uniformly among the tiles
    next to another tile, a partner uniformly among those next to it).  Were partners drawn
    among all links, most pairs would be neighbours (an inner tile of a full board links to
    nothing else) and a board dealt on the order would be full of twins: on 12x8 with 4
    copies about 17 same-kind neighbour pairs, against about 5.5 on a shuffled board and 3.5
    with the preference.  The playouts draw from ``rng`` one after the other, so the result
    depends only on the template, the rules and the state of ``rng``."""
    lay = template.layout
    stride, k = lay.stride, rules.max_turns
    start_occ = template.occupied_mask()
    base_free = template.free_mask(rules.outside)
    bits = list(iter_bits(start_occ))
    if len(bits) % 2:
        return None
    for _ in range(max_attempts):
        order = _playout(bits, start_occ, base_free, k, stride, rng)
        if order is not None:
            return [(lay.pos(a), lay.pos(b)) for a, b in order]
    return None


def _neighbours(mask: int, stride: int) -> int:
    """The cells next to those of ``mask`` (left, right, above, below)."""
    return (mask << 1) | (mask >> 1) | (mask << stride) | (mask >> stride)


def _playout(
    bits: list[int], occ: int, free: int, k: int, stride: int, rng: random.Random
) -> list[tuple[int, int]] | None:
    """One playout from the tiles ``bits`` (occupancy ``occ``, free cells ``free``): the pairs
    of bit indices in removal order, or None at a dead end.

    Why it is fast and still uniform.  A tile is tested once and then set aside, in
    ``stuck_mask`` when it links to nothing and in ``near_mask`` when it links to neighbours
    only, instead of being tested again at every later step.  A link that was not there must
    run across a cell emptied since, so after each removal the set-aside tiles that a path
    from the two emptied cells reaches (``linkable_mask`` from both cells at once: reach is
    bit-parallel over its seeds) go back among the ``unknown`` ones.  Every tile with a link
    beyond its neighbours is therefore in ``unknown``, and drawing from ``unknown`` without
    replacement until such a tile turns up draws uniformly among them.  A tile of
    ``near_mask`` links exactly to its occupied neighbours until it goes back."""
    unknown = bits[:]
    stuck_mask = near_mask = 0
    order: list[tuple[int, int]] = []
    left = len(bits)
    # Checkpoints of the whole state every CHECKPOINT_STEPS steps; a dead end rewinds to the
    # last one (to the one before it after REWINDS_PER_CHECKPOINT dead ends there) instead of
    # throwing the playout away: on large boards with few turns most playouts meet a dead end
    # late, and a restart from scratch repeats thousands of steps that were fine.
    checkpoints: list[tuple[list[int], int, int, int, int, int]] = []
    rewinds: list[int] = []
    budget = MAX_REWINDS
    while left:
        if len(order) % CHECKPOINT_STEPS == 0 and (
            not checkpoints or checkpoints[-1][5] != len(order)
        ):
            checkpoints.append((unknown[:], stuck_mask, near_mask, occ, free, len(order)))
            rewinds.append(0)
        far = 0
        while unknown and not far:
            i = rng.randrange(len(unknown))
            a = unknown[i]
            unknown[i] = unknown[-1]
            unknown.pop()
            src = 1 << a
            hit = linkable_mask(src, free, occ ^ src, k, stride)
            far = hit & ~_neighbours(src, stride)
            if far:
                hit = far
            elif hit:
                near_mask |= src
            else:
                stuck_mask |= src
        if not far:
            # No tile links beyond its neighbours: remove two neighbours.
            movable = [x for x in iter_bits(near_mask) if _neighbours(1 << x, stride) & occ]
            if not movable:
                while checkpoints and rewinds[-1] >= REWINDS_PER_CHECKPOINT:
                    checkpoints.pop()
                    rewinds.pop()
                if not checkpoints or budget == 0:
                    return None
                budget -= 1
                rewinds[-1] += 1
                saved, stuck_mask, near_mask, occ, free, steps = checkpoints[-1]
                unknown = saved[:]
                del order[steps:]
                left = len(bits) - 2 * steps
                continue
            a = movable[rng.randrange(len(movable))]
            src = 1 << a
            hit = _neighbours(src, stride) & occ
        for _ in range(rng.randrange(hit.bit_count())):
            hit &= hit - 1
        b = (hit & -hit).bit_length() - 1
        if far:
            unknown.remove(b)  # it links beyond its neighbours too, so it was not set aside
        else:
            near_mask &= ~(src | 1 << b)
        pair = src | (1 << b)
        occ ^= pair
        free |= pair
        order.append((a, b))
        left -= 2
        waiting = stuck_mask | near_mask
        if waiting and left:
            revived = linkable_mask(pair, free, waiting, k, stride)
            if revived:
                stuck_mask &= ~revived
                near_mask &= ~revived
                unknown.extend(iter_bits(revived))
    return order


def deal(
    template: Board, rules: Rules, order: Sequence[tuple[Pos, Pos]], pair_kinds: Sequence[int]
) -> tuple[Board, tuple[Move, ...]]:
    """The board with ``pair_kinds[i]`` on both cells of ``order[i]`` (other cells as in the
    template), and the order as moves with exact best paths.  ``ValueError`` when a step is not
    linked at its moment (``order`` is not a removal order of the template)."""
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
        free |= (1 << lay.bit(a.x, a.y)) | (1 << lay.bit(b.x, b.y))
    return board, tuple(moves)
