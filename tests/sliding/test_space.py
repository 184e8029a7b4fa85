"""Whole-space distance tables (:mod:`levelgen.sliding.space`): the ranking is a bijection onto
the reachable frames, the compiled search gives the Python reference's bytes, both agree with a
plain breadth-first search over frames (:func:`levelgen.sliding.bfs.distances_from`) on every
frame of small boards, numbered and colour, and the tables' answers (least optimal solution,
count of optimal solutions, layers) agree with the solver.  The 3x4 table (239,500,800 frames)
is built only by the benchmark."""

from __future__ import annotations

import os
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from levelgen.sliding import bfs, space
from levelgen.sliding.generate import numbered_goal
from levelgen.sliding.rules import Frame
from levelgen.sliding.solver import count_optimal, solve

SHAPES = [(2, 2), (3, 2), (2, 3), (4, 2), (2, 4)]


def _goals() -> st.SearchStrategy[Frame]:
    """Goals of boards of at most 8 cells: numbered or colour, any blank cell."""

    @st.composite
    def make(draw: st.DrawFn) -> Frame:
        width, height = draw(st.sampled_from(SHAPES))
        n = width * height
        kinds = draw(st.integers(1, n - 1))
        labels = [0] + [1 + i % kinds for i in range(n - 1)]
        if kinds == n - 1:
            labels = list(range(n))
        return Frame(width, height, tuple(draw(st.permutations(labels))))

    return make()


@settings(max_examples=40, deadline=None)
@given(_goals())
def test_tables_match_a_plain_breadth_first_search(goal: Frame) -> None:
    layout = space.layout_of(goal)
    reference = space.python_build(layout)
    if space.space_native is not None:
        assert space.space_native.build(layout.width, layout.height, layout.goal) == reference
    distances = bfs.distances_from(bytes(goal.cells), goal.width, goal.height)
    assert len(distances) == layout.size == len(reference)
    assert space.UNSEEN not in reference
    table = space.DistanceTable(goal, layout, reference)
    for cells, d in distances.items():
        frame = Frame(goal.width, goal.height, tuple(cells))
        index = layout.index(layout.turn(frame))
        assert reference[index] == d
        assert layout.cells_at(index) == layout.turn(frame)
    assert table.largest == max(distances.values())


@pytest.mark.parametrize(("width", "height", "largest"), [(3, 2, 21), (4, 2, 36), (3, 3, 31)])
def test_the_largest_distances(width: int, height: int, largest: int) -> None:
    goal = numbered_goal(width, height)
    table = space.table_for(goal)
    assert table.largest == largest
    assert sum(table.layers()) == space.frame_count(goal)
    turned = Frame(height, width, tuple(numbered_goal(height, width).cells))
    assert space.table_for(turned).layers() == table.layers()


def test_table_answers_agree_with_the_solver() -> None:
    goal = numbered_goal(3, 3)
    table = space.table_for(goal)
    rng = random.Random(4)
    for depth in (1, 17, 29, 31):
        frame = table.pick(depth, rng.randrange(table.layers()[depth]))
        found = solve(frame, goal)
        assert found.length == depth == table.distance(frame)
        assert table.least_path(frame) == found.path
        assert table.count_optimal(frame, 1000) == count_optimal(frame, goal, depth, 1000)
    assert len(table.frames_at(31)) == 2


def test_colour_tables_are_over_the_colour_space() -> None:
    goal = Frame(3, 3, (1, 2, 1, 2, 0, 2, 1, 2, 1))
    table = space.table_for(goal)
    distances = bfs.distances_from(bytes(goal.cells), 3, 3)
    assert table.largest == max(distances.values())
    frame = table.pick(table.largest, 0)
    assert solve(frame, goal).length == table.largest


def test_the_compiled_search_is_built() -> None:
    """``levelgen.sliding._space`` is optional; ``LEVELGEN_REQUIRE_NATIVE=1`` (CI) requires it."""
    if space.space_native is None:
        if os.environ.get("LEVELGEN_REQUIRE_NATIVE") == "1":
            pytest.fail("the compiled whole-space search is required but missing")
        pytest.skip("levelgen.sliding._space not built (no C compiler at install)")
    goal = numbered_goal(3, 3)
    layout = space.layout_of(goal)
    assert space.space_native.build(3, 3, layout.goal) == space.python_build(layout)
    assert space.space_native.histogram(b"\x00\x01\x01\xff")[:2] == [1, 2]
