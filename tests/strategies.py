"""Hypothesis strategies shared by the tests: random boards of every shape and density."""

from __future__ import annotations

import random

from hypothesis import strategies as st

from levelgen.bench.common import random_board
from levelgen.board import EMPTY, WALL, Board
from levelgen.rules import Rules


@st.composite
def boards(draw: st.DrawFn, max_width: int = 24, max_height: int = 14, max_kinds: int = 4) -> Board:
    """Random boards 1x2 .. max_width x max_height, any density, with walls and holes."""
    width = draw(st.integers(1, max_width))
    height = draw(st.integers(2 if width == 1 else 1, max_height))
    density = draw(st.sampled_from([0.1, 0.3, 0.5, 0.7, 0.9, 1.0]))
    wall_rate = draw(st.sampled_from([0.0, 0.0, 0.05, 0.15]))
    kinds = draw(st.integers(1, max_kinds))
    seed = draw(st.integers(0, 2**32 - 1))
    return random_board(random.Random(seed), width, height, density, wall_rate, kinds)


rules_st = st.builds(Rules, max_turns=st.integers(0, 3), outside=st.booleans())


@st.composite
def small_boards(draw: st.DrawFn, max_tiles: int = 12, max_width: int = 5) -> Board:
    """Boards up to ``max_width`` x 4 with walls and holes, every kind 2 or 4 times (sometimes
    6), at most ``max_tiles`` tiles so that exhaustive searches stay small."""
    width = draw(st.integers(1, max_width))
    height = draw(st.integers(2 if width == 1 else 1, 4))
    n = width * height
    walls = draw(st.integers(0, n // 4))
    room = min(n - walls, max_tiles)
    counts: list[int] = []
    while True:
        c = draw(st.sampled_from([2, 2, 4, 4, 6]))
        if sum(counts) + c > room:
            break
        counts.append(c)
        if draw(st.integers(0, 5)) == 0:
            break
    cells = [kind for kind, c in enumerate(counts, 1) for _ in range(c)]
    cells += [WALL] * walls
    cells += [EMPTY] * (n - len(cells))
    random.Random(draw(st.integers(0, 2**32 - 1))).shuffle(cells)
    return Board(width, height, tuple(cells))
