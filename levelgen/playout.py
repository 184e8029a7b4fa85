"""Random removal orders on positions only: the heart of generation by occupancy.

By occupancy invariance (see :mod:`levelgen.reach`) whether two cells can be linked depends only
on which cells are occupied, so a removal order found here, on tile *slots* without kinds, stays
valid for any assignment of kinds that gives the two cells of each removed pair the same kind.

Pure: randomness comes only from the ``random.Random`` passed in.
"""

from __future__ import annotations

import random

from .board import Board, iter_bits
from .geometry import Pos
from .reach import linkable_mask
from .rules import Rules

__all__ = ["random_removal_order"]


def random_removal_order(
    template: Board, rules: Rules, rng: random.Random, *, max_attempts: int = 50
) -> list[tuple[Pos, Pos]] | None:
    """A random order removing every tile slot of ``template`` two at a time, each pair linked
    under ``rules`` at its moment (kinds ignored), or None when ``max_attempts`` random playouts
    all reached a dead end (tiles left, none linkable).

    Each step picks tiles in random order and removes the first one that links to something,
    with a partner drawn uniformly from the cells it links to."""
    lay = template.layout
    stride, k = lay.stride, rules.max_turns
    start_occ = template.occupied_mask()
    base_free = template.free_mask(rules.outside)
    bits = list(iter_bits(start_occ))
    if len(bits) % 2:
        return None
    for _ in range(max_attempts):
        occ, free = start_occ, base_free
        alive = bits[:]
        order: list[tuple[int, int]] = []
        while alive:
            rng.shuffle(alive)
            for i, a in enumerate(alive):
                src = 1 << a
                hit = linkable_mask(src, free, occ & ~src, k, stride)
                if hit:
                    partners = list(iter_bits(hit))
                    b = partners[rng.randrange(len(partners))]
                    pair = src | (1 << b)
                    occ ^= pair
                    free |= pair
                    alive[i] = alive[-1]
                    alive.pop()
                    alive.remove(b)
                    order.append((a, b))
                    break
            else:
                break
        if not alive:
            return [(lay.pos(a), lay.pos(b)) for a, b in order]
    return None
