"""Hypothesis strategies of the sliding-puzzle tests: small boards, numbered and colour, with a
start that may or may not reach the goal."""

from __future__ import annotations

import random

from hypothesis import strategies as st

from levelgen.sliding.rules import Frame

#: Boards whose whole space a plain breadth-first search covers in well under a second.
SMALL_SIZES = [(2, 2), (2, 3), (3, 2), (2, 4), (4, 2), (3, 3), (2, 5), (5, 2), (3, 4), (4, 3)]


def labels_for(cells: int, colors: int | None) -> list[int]:
    """The blank and the tiles of a board of ``cells`` cells: numbered 1.. (``colors`` None)
    or ``colors`` colours as even in number as can be."""
    if colors is None:
        return list(range(cells))
    return [0] + [1 + i % colors for i in range(cells - 1)]


@st.composite
def puzzles(
    draw: st.DrawFn,
    *,
    max_cells: int = 9,
    numbered_cells: int = 9,
    reachable: bool = True,
    colour_only: bool = False,
) -> tuple[Frame, Frame]:
    """``(start, goal)`` on a board of at most ``max_cells`` cells (numbered: at most
    ``numbered_cells``, whose spaces grow fast), numbered or colour; the start is a random walk
    from the goal when ``reachable``, else any arrangement."""
    sizes = [s for s in SMALL_SIZES if s[0] * s[1] <= max_cells]
    width, height = draw(st.sampled_from(sizes))
    n = width * height
    kinds: list[int | None] = [2, 3] if colour_only or n > numbered_cells else [None, 2, 3]
    colors = draw(st.sampled_from(kinds))
    if colors is not None and colors > n - 2:
        colors = 2
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    cells = labels_for(n, colors)
    rng.shuffle(cells)
    goal = Frame(width, height, tuple(cells))
    if reachable:
        start = goal
        for _ in range(draw(st.integers(0, 60))):
            start = start.move(rng.choice([d for d, _ in start.neighbours()]))
    else:
        other = list(cells)
        rng.shuffle(other)
        start = Frame(width, height, tuple(other))
    return start, goal
