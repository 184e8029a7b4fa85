"""Symmetric removal orders: every step removes a pair together with its mirror images.

The layout (a template board) must be symmetric under the symmetry asked
(:mod:`levelgen.linkup.generate.symmetry`).  Each step draws a pair that links now and whose
*orbit* (the pair and its images under the symmetry's maps) is clean: the images are the pair
itself or share no cell with it or with each other.  It then removes every pair of the orbit,
one after the other.  The position before the step is symmetric, so each image links as the
pair does; removing tiles never blocks a path (monotonicity), so each still links when its turn
comes, and the position after the step is symmetric again.

As in :mod:`levelgen.linkup.generate.playout`, pairs whose tiles are not direct neighbours are
preferred (a board dealt on the order then looks shuffled), tiles already found to link only to
their neighbours wait until a removal opens a path to them, and a dead end puts back the last
steps (more after each dead end that gets no deeper) and draws again.  Pure: randomness comes
only from the ``random.Random`` passed in.
"""

from __future__ import annotations

import random

from ..core.board import Board, iter_bits
from ..core.geometry import Pos
from ..core.reach import linkable_mask
from ..core.rules import Rules
from .symmetry import cell_maps

__all__ = ["symmetric_removal_order"]

#: Steps put back after the first dead end at a new depth; doubled after each further one.
REWIND_STEPS = 8

Pair = tuple[int, int]


def symmetric_removal_order(
    template: Board, rules: Rules, symmetry: str, rng: random.Random, *, max_attempts: int = 200
) -> list[list[tuple[Pos, Pos]]] | None:
    """A removal order of every tile slot of ``template`` as a list of orbits, each the pairs
    removed in one step (a pair, then its images: left-right, top-bottom, turned for ``both``),
    or None when the playout met ``max_attempts`` dead ends without clearing the board."""
    lay = template.layout
    maps: list[dict[int, int]] = []
    for g in cell_maps(template.width, template.height, symmetry):
        table = {}
        for y in range(template.height):
            for x in range(template.width):
                table[lay.bit(x, y)] = lay.bit(*g(x, y))
        maps.append(table)
    playout = _Playout(template.occupied_mask(), template.free_mask(rules.outside), rules, maps)
    playout.stride = lay.stride
    deepest, rewind = 0, REWIND_STEPS
    for _ in range(max_attempts):
        if playout.run(rng):
            return [[(lay.pos(a), lay.pos(b)) for a, b in step] for step in playout.steps]
        depth = len(playout.steps)
        if depth > deepest:
            deepest, rewind = depth, REWIND_STEPS
        else:
            rewind *= 2
        if rewind >= depth:
            deepest, rewind = 0, REWIND_STEPS
            playout.rewind(depth)
        else:
            playout.rewind(rewind)
    return None


def _neighbours(mask: int, stride: int) -> int:
    return (mask << 1) | (mask >> 1) | (mask << stride) | (mask >> stride)


class _Playout:
    """A symmetric playout on bit indices: ``occ`` the tiles left, ``free`` the cells a path
    may cross, ``steps`` the orbits removed so far."""

    def __init__(self, occ: int, free: int, rules: Rules, maps: list[dict[int, int]]) -> None:
        self.occ, self.free, self.k = occ, free, rules.max_turns
        self.maps = maps
        self.stride = 0
        self.steps: list[list[Pair]] = []

    def orbit(self, a: int, b: int) -> list[Pair] | None:
        """The pair and its distinct images (in the order of the maps), or None when two of
        them share a cell."""
        pairs = [(a, b)]
        seen = {frozenset((a, b))}
        cells = {a, b}
        for table in self.maps:
            ga, gb = table[a], table[b]
            key = frozenset((ga, gb))
            if key in seen:
                continue
            if ga in cells or gb in cells:
                return None
            seen.add(key)
            cells.update(key)
            pairs.append((ga, gb))
        return pairs

    def rewind(self, steps: int) -> None:
        for _ in range(min(steps, len(self.steps))):
            for a, b in self.steps.pop():
                pair = (1 << a) | (1 << b)
                self.occ |= pair
                self.free &= ~pair

    def _partner(self, a: int, hit: int, rng: random.Random) -> list[Pair] | None:
        """The orbit of ``a`` with a partner drawn uniformly from ``hit`` among those whose
        orbit is clean, or None."""
        candidates = list(iter_bits(hit))
        while candidates:
            i = rng.randrange(len(candidates))
            b = candidates[i]
            candidates[i] = candidates[-1]
            candidates.pop()
            orbit = self.orbit(a, b)
            if orbit is not None:
                return orbit
        return None

    def run(self, rng: random.Random) -> bool:
        """Remove orbits until the board is clear (True) or a dead end (False)."""
        occ, free, k, stride = self.occ, self.free, self.k, self.stride
        unknown = list(iter_bits(occ))
        waiting = 0  # tested tiles without a clean link beyond their neighbours
        try:
            while occ:
                chosen = None
                while unknown and chosen is None:
                    i = rng.randrange(len(unknown))
                    x = unknown[i]
                    unknown[i] = unknown[-1]
                    unknown.pop()
                    if not occ >> x & 1:
                        continue
                    src = 1 << x
                    beyond = linkable_mask(src, free, occ ^ src, k, stride)
                    beyond &= ~_neighbours(src, stride)
                    chosen = self._partner(x, beyond, rng) if beyond else None
                    if chosen is None:
                        waiting |= src
                if chosen is None:
                    near = [
                        x for x in iter_bits(waiting & occ) if _neighbours(1 << x, stride) & occ
                    ]
                    while near and chosen is None:
                        i = rng.randrange(len(near))
                        x = near[i]
                        near[i] = near[-1]
                        near.pop()
                        chosen = self._partner(x, _neighbours(1 << x, stride) & occ, rng)
                    if chosen is None:
                        return False
                removed = 0
                for a, b in chosen:
                    removed |= (1 << a) | (1 << b)
                occ &= ~removed
                free |= removed
                self.steps.append(chosen)
                waiting &= occ
                if waiting and occ:
                    revived = linkable_mask(removed, free, waiting, k, stride)
                    waiting &= ~revived
                    unknown.extend(iter_bits(revived))
            return True
        finally:
            self.occ, self.free = occ, free
