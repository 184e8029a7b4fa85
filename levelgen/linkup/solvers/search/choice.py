"""Which decision the search solver makes next: the branching orders, and the restart sequence.

A decision is a linkable pair ``(tile, partner)`` inside a group of four or more tiles; the
search first makes them partners, then forbids it (see :mod:`levelgen.linkup.solvers.search`).  Any
choice keeps the search exact; the order only decides how fast it finishes.  Two orders:

* ``choose_in_order`` follows the relaxed run, whose first steps are the tiles that can leave
  soonest: its first tile with a linkable mate, with the mate it linked to in the run.  Best
  for proofs and for most solvable boards.
* ``choose_tightest`` takes the group whose best-linked tile has the fewest linkable mates.
  Helps on solvable boards where following the run goes wrong early.

Both break ties deterministically, or at random with the ``random.Random`` given (seeded by the
caller).  Pure functions over the engine's state.
"""

from __future__ import annotations

import random

from ...core.board import iter_bits
from .relax import Run

__all__ = ["Decision", "choose_in_order", "choose_tightest", "closest_mate", "luby"]

#: (group, tile, partner)
Decision = tuple[int, int, int]


def choose_in_order(
    run: Run,
    gmask: list[int],
    gid: dict[int, int],
    links: dict[int, int],
    forbid: dict[int, int],
    rng: random.Random | None,
    stride: int,
) -> Decision | None:
    """The first tile of ``run`` in a group of four or more with a linkable mate it may pair
    with, and the mate it linked to in the run when that one is linkable now (else
    :func:`closest_mate`); with ``rng``, a random one of the first three such tiles and a random
    linkable mate.  None when there is none."""
    cands: list[Decision] = []
    for t, witness, _, _ in run:
        g = gid[t]
        mask = gmask[g]
        if mask.bit_count() < 4:
            continue
        linked = links[t] & mask & ~forbid[t]
        if not linked:
            continue
        if rng is not None:
            partner = rng.choice(list(iter_bits(linked)))
        elif linked >> witness & 1:
            partner = witness
        else:
            partner = closest_mate(t, linked, mask, stride)
        cands.append((g, t, partner))
        if rng is None or len(cands) >= 3:
            break
    if not cands:
        return None
    return cands[0] if rng is None else rng.choice(cands)


def choose_tightest(
    gmask: list[int],
    links: dict[int, int],
    forbid: dict[int, int],
    rng: random.Random | None,
    stride: int,
) -> Decision | None:
    """The group of four or more whose best-linked tile has the fewest linkable mates (ties:
    lowest group, or random with ``rng``), that tile and its :func:`closest_mate`.  None when
    no such group has a linkable pair."""
    best: tuple[float, int, int, int] | None = None
    for g, mask in enumerate(gmask):
        if mask.bit_count() < 4:
            continue
        top = 0
        tile = -1
        linked = 0
        for a in iter_bits(mask):
            la = links[a] & mask & ~forbid[a]
            n = la.bit_count()
            if n > top:
                top, tile, linked = n, a, la
        if not top:
            continue
        score = top + (rng.random() if rng is not None else 0.0)
        if best is None or score < best[0]:
            best = (score, g, tile, linked)
    if best is None:
        return None
    _, g, tile, linked = best
    return g, tile, closest_mate(tile, linked, gmask[g], stride)


def closest_mate(t: int, linked: int, mask: int, stride: int) -> int:
    """Of the mates in ``linked``, the one whose removal with ``t`` leaves the rest of the group
    ``mask`` in the smallest bounding box (half perimeter; ties: lowest bit)."""

    def spread(p: int) -> tuple[int, int]:
        others = list(iter_bits(mask ^ (1 << t) ^ (1 << p)))
        if not others:
            return (0, p)
        ys = [b // stride for b in others]
        xs = [b % stride for b in others]
        return (max(xs) - min(xs) + max(ys) - min(ys), p)

    return min(iter_bits(linked), key=spread)


def luby(i: int) -> int:
    """The ``i``-th term (from 1) of the Luby sequence 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, ...: the
    restart limits, in units of the base."""
    k = 1
    while (1 << k) - 1 < i:
        k += 1
    while i != (1 << k) - 1:
        i -= (1 << (k - 1)) - 1
        k = 1
        while (1 << k) - 1 < i:
            k += 1
    return 1 << (k - 1)
