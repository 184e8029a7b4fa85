"""Hypothesis strategies shared by the tests (random boards of every shape and density), and a
benchmark board several tests use."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from levelgen.linkup.bench.common import random_board
from levelgen.linkup.core.board import EMPTY, WALL, Board
from levelgen.linkup.core.rules import Rules


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


#: Property tests whose examples are whole searches: 40 examples, the same ones every run, no
#: deadline and no complaint about slow or large examples.
SEARCH_PROPERTY = settings(
    derandomize=True,
    deadline=None,
    max_examples=40,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

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


#: bench-12x8-01 of shared/bench: solvable with outside off after a few dozen search nodes;
#: the greedy warm start of CP-SAT stalls on it.
BENCH_12x8_01 = [
    [19, 9, 4, 13, 14, 15, 9, 17, 9, 14, 10, 15],
    [20, 21, 23, 6, 21, 13, 12, 19, 11, 24, 22, 17],
    [2, 19, 10, 12, 1, 22, 3, 23, 3, 3, 16, 1],
    [11, 6, 18, 5, 4, 19, 2, 8, 2, 24, 7, 8],
    [17, 23, 5, 21, 22, 18, 22, 20, 8, 24, 7, 2],
    [20, 5, 20, 9, 16, 1, 10, 16, 5, 7, 23, 6],
    [3, 12, 14, 15, 11, 6, 10, 13, 14, 16, 1, 17],
    [24, 4, 21, 15, 8, 11, 18, 18, 7, 13, 4, 12],
]


#: A random full 18x10 board made like those of shared/bench (4 copies of 45 kinds, shuffled
#: with SplitMix64 from seed 8810531, not one of the benchmark's seeds).  With the ring it is
#: unsolvable and every pairing stalls early (real play never removes more than 15 pairs):
#: the search branches on many unrelated early moves, which backjumping skips.
STALLS_18x10 = [
    [43, 38, 9, 35, 33, 23, 28, 45, 29, 34, 43, 41, 28, 43, 24, 38, 17, 8],
    [13, 42, 37, 7, 19, 2, 25, 7, 10, 26, 24, 14, 40, 18, 28, 24, 2, 8],
    [20, 2, 34, 11, 12, 7, 42, 19, 1, 5, 27, 35, 29, 29, 21, 15, 42, 9],
    [44, 3, 32, 34, 44, 40, 30, 5, 38, 4, 30, 36, 9, 31, 6, 6, 10, 9],
    [43, 15, 12, 17, 32, 5, 18, 34, 17, 1, 17, 11, 45, 12, 36, 39, 5, 11],
    [37, 4, 38, 41, 16, 10, 31, 44, 30, 4, 41, 39, 8, 37, 33, 6, 16, 16],
    [1, 20, 33, 19, 25, 23, 32, 27, 13, 26, 35, 22, 23, 15, 21, 4, 18, 22],
    [26, 13, 37, 8, 27, 45, 6, 14, 32, 19, 39, 14, 11, 3, 44, 1, 26, 35],
    [16, 21, 40, 18, 25, 15, 31, 21, 7, 13, 45, 27, 28, 20, 14, 24, 39, 42],
    [30, 20, 33, 23, 36, 41, 22, 3, 25, 29, 12, 22, 31, 36, 2, 40, 10, 3],
]
