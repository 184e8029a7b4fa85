"""The breadth-first searches: the bidirectional search against the plain one, its count of
optimal solutions against counting paths over the distance table, and its solution against the
least optimal solution found by brute force."""

from __future__ import annotations

from hypothesis import given, settings

from levelgen.sliding import bfs
from levelgen.sliding.rules import DIRECTIONS, Frame

from .strategies import puzzles


def _optimal_paths(start: Frame, goal: Frame) -> list[str]:
    """Every optimal solution, in the order U D L R, through the distance table of the goal."""
    dist = bfs.distances_from(bytes(goal.cells), goal.width, goal.height)
    out: list[str] = []

    def walk(frame: Frame, path: str) -> None:
        here = dist[bytes(frame.cells)]
        if here == 0:
            out.append(path)
            return
        for d in DIRECTIONS:
            if frame.can_move(d):
                nxt = frame.move(d)
                if dist.get(bytes(nxt.cells)) == here - 1:
                    walk(nxt, path + d)

    walk(start, "")
    return out


@settings(max_examples=120, deadline=None)
@given(puzzles(max_cells=9, numbered_cells=8))
def test_bidirectional_agrees_with_plain_search_and_brute_force(case: tuple[Frame, Frame]) -> None:
    start, goal = case
    w, h = start.width, start.height
    plain = bfs.plain_distance(bytes(start.cells), bytes(goal.cells), w, h)
    found = bfs.bidirectional_search(bytes(start.cells), bytes(goal.cells), w, h, count_cap=10**9)
    paths = _optimal_paths(start, goal)
    assert found.length == plain == len(paths[0])
    assert found.path == paths[0] == min(paths, key=lambda p: [DIRECTIONS.index(c) for c in p])
    assert found.count == len(paths)
    capped = bfs.bidirectional_search(bytes(start.cells), bytes(goal.cells), w, h, count_cap=2)
    assert capped.count == min(2, len(paths))


def test_unreachable_goals_are_none_for_the_plain_search() -> None:
    goal = Frame(3, 3, (1, 2, 3, 4, 5, 6, 7, 8, 0))
    swapped = Frame(3, 3, (2, 1, 3, 4, 5, 6, 7, 8, 0))
    assert bfs.plain_distance(bytes(swapped.cells), bytes(goal.cells), 3, 3) is None


def test_a_node_limit_stops_with_a_proved_bound() -> None:
    goal = Frame(3, 3, (1, 2, 3, 4, 5, 6, 7, 8, 0))
    start = Frame(3, 3, (8, 6, 7, 2, 5, 4, 3, 0, 1))  # 31 moves, the farthest
    found = bfs.bidirectional_search(bytes(start.cells), bytes(goal.cells), 3, 3, node_limit=500)
    assert found.stopped and found.path is None
    assert 0 < found.lower_bound <= 31
    stop = bfs.bidirectional_search(
        bytes(start.cells), bytes(goal.cells), 3, 3, should_stop=lambda: True
    )
    assert stop.stopped
