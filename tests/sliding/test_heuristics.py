"""Each lower bound alone: never above the true distance (a plain breadth-first search) on
random small boards, numbered and colour, and exact on small known cases."""

from __future__ import annotations

import itertools
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from levelgen.sliding import bfs
from levelgen.sliding.heuristics import (
    assignment_cost,
    crossing_count,
    linear_conflicts,
    lower_bound,
    manhattan,
)
from levelgen.sliding.rules import Frame

from .strategies import puzzles


@settings(max_examples=150, deadline=None)
@given(puzzles(max_cells=12))
def test_every_bound_is_admissible(case: tuple[Frame, Frame]) -> None:
    start, goal = case
    d = bfs.plain_distance(bytes(start.cells), bytes(goal.cells), start.width, start.height)
    assert d is not None
    assert manhattan(start, goal) <= d
    assert manhattan(start, goal) + linear_conflicts(start, goal) <= d
    assert crossing_count(start, goal) <= d
    assert lower_bound(start, goal) <= d


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 6), st.integers(2, 5))
def test_assignment_cost_is_the_cheapest_matching(seed: int, n: int, width: int) -> None:
    rng = random.Random(seed)
    cells = rng.sample(range(width * 6), 2 * n)
    a, b = cells[:n], cells[n:]

    def cost(p: int, q: int) -> int:
        return abs(p % width - q % width) + abs(p // width - q // width)

    brute = min(
        sum(cost(p, q) for p, q in zip(a, perm, strict=True)) for perm in itertools.permutations(b)
    )
    assert assignment_cost(a, b, width) == brute


def test_a_single_tile_crosses_as_far_as_it_is() -> None:
    goal = Frame.from_rows([[1, 2, 3], [4, 5, 6], [7, 8, 0]])
    start = Frame.from_rows([[8, 2, 3], [4, 5, 6], [7, 1, 0]])
    assert crossing_count(start, goal) == manhattan(start, goal) == 6


def test_linear_conflicts_count_reversed_pairs() -> None:
    goal = Frame.from_rows([[1, 2, 3], [4, 5, 6], [7, 8, 0]])
    start = Frame.from_rows([[3, 2, 1], [4, 5, 6], [7, 8, 0]])
    assert linear_conflicts(start, goal) == 4  # 3 2 1: all but one of the three leave the row
    assert lower_bound(start, goal) == manhattan(start, goal) + 4


def test_colour_bound_counts_the_cheapest_assignment() -> None:
    goal = Frame.from_rows([[1, 2], [2, 1], [0, 1]])
    start = Frame.from_rows([[2, 1], [1, 2], [0, 1]])
    assert lower_bound(start, goal) == 4
    assert crossing_count(start, goal) == 0  # the one-axis relaxation sees no crossing here
