"""The rules: frames and moves, and the reachability theorem of :mod:`levelgen.sliding.rules`
checked against a breadth-first search on every board of at most nine cells."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from levelgen.sliding import bfs
from levelgen.sliding.rules import (
    Frame,
    MoveError,
    apply_moves,
    blank_distance,
    format_size,
    is_numbered,
    parse_moves,
    parse_size,
    permutation_parity,
    reachability,
)

BOARDS = [(2, 2), (2, 3), (3, 2), (2, 4), (4, 2), (3, 3)]


@pytest.mark.parametrize(("width", "height"), BOARDS)
def test_parity_rule_is_bfs_reachability_on_numbered_boards(width: int, height: int) -> None:
    """Every numbered frame of the board: reachable from the goal by BFS iff the invariant
    holds (and :func:`reachability` says so: on every frame of the boards of up to eight
    cells, on every 17th of the 3x3 board's), and BFS reaches exactly half of all frames."""
    n = width * height
    goal = Frame(width, height, (*range(1, n), 0))
    reached = bfs.distances_from(bytes(goal.cells), width, height)
    total = 0
    for cells in itertools.permutations(range(n)):
        frame = Frame(width, height, cells)
        total += 1
        found = bytes(cells) in reached
        assert (permutation_parity(frame, goal) == blank_distance(frame, goal) % 2) == found
        if n <= 8 or total % 17 == 0:
            assert reachability(frame, goal).reachable == found, cells
    assert len(reached) * 2 == total


COLOUR_LABELS = [
    (2, 2, [0, 1, 1, 2]),
    (2, 2, [0, 1, 1, 1]),
    (2, 3, [0, 1, 1, 2, 2, 3]),
    (3, 2, [0, 1, 2, 2, 2, 2]),
    (2, 4, [0, 1, 1, 2, 3, 4, 5, 6]),
    (3, 3, [0, 1, 1, 1, 1, 2, 2, 2, 2]),
    (3, 3, [0, 1, 2, 3, 4, 5, 6, 7, 7]),
]


@pytest.mark.parametrize(("width", "height", "labels"), COLOUR_LABELS)
def test_a_repeated_label_reaches_every_arrangement(
    width: int, height: int, labels: list[int]
) -> None:
    goal = Frame(width, height, tuple(labels))
    reached = bfs.distances_from(bytes(goal.cells), width, height)
    arrangements = set(itertools.permutations(labels))
    assert {bytes(a) for a in arrangements} == set(reached)
    for cells in list(arrangements)[:50]:
        verdict = reachability(Frame(width, height, cells), goal)
        assert verdict.reachable
        assert verdict.details["invariant"] == "repeated-label"


def test_two_by_two_reaches_twelve_frames_in_a_cycle() -> None:
    goal = Frame(2, 2, (1, 2, 3, 0))
    reached = bfs.distances_from(bytes(goal.cells), 2, 2)
    assert len(reached) == 12
    assert max(reached.values()) == 6
    assert Counter(reached.values()) == {0: 1, 1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 1}


def test_the_fifteen_fourteen_swap_is_unsolvable_with_its_reason() -> None:
    goal = Frame(4, 4, (*range(1, 16), 0))
    swapped = Frame(4, 4, (*range(1, 14), 15, 14, 0))
    verdict = reachability(swapped, goal)
    assert not verdict.reachable
    assert verdict.details == {
        "invariant": "parity",
        "permutation_parity": "odd",
        "blank_distance": 0,
        "blank_distance_parity": "even",
    }
    assert "odd" in verdict.reason and "never" in verdict.reason


def test_permutation_parity_and_blank_distance() -> None:
    goal = Frame(3, 3, (1, 2, 3, 4, 5, 6, 7, 8, 0))
    one = goal.move("U")
    assert permutation_parity(one, goal) == 1
    assert blank_distance(one, goal) == 1
    assert permutation_parity(goal, goal) == 0


def test_moves_and_frames() -> None:
    frame = Frame.from_rows([[1, 2], [3, 0]])
    assert frame.blank == 3
    assert [d for d, _ in frame.neighbours()] == ["U", "L"]
    assert frame.move("U").rows() == [[1, 0], [3, 2]]
    assert apply_moves(frame, "ULDR") == Frame.from_rows([[3, 1], [2, 0]])
    with pytest.raises(MoveError) as err:
        apply_moves(frame, "UR")
    assert err.value.index == 1 and err.value.move == "R"
    with pytest.raises(MoveError):
        parse_moves("UX")
    with pytest.raises(ValueError):
        frame.move("D")
    assert is_numbered(frame) and not is_numbered(Frame.from_rows([[1, 1], [2, 0]]))
    assert frame.format() == "1 2\n3 ."


@pytest.mark.parametrize(
    "rows",
    [
        [[1, 2], [3, 4]],  # no blank
        [[0, 0], [1, 2]],  # two blanks
        [[1, 2, 0], [3, 4]],  # ragged
        [[1, 0]],  # one row
        [[0, 99], [1, 2]],  # label too large
        [[0, -1], [1, 2]],  # negative
    ],
)
def test_bad_rows_are_refused(rows: list[list[int]]) -> None:
    with pytest.raises(ValueError):
        Frame.from_rows(rows)


def test_sizes() -> None:
    assert parse_size("4x3") == (4, 3)
    assert parse_size(" 8X8 ") == (8, 8)
    assert format_size(5, 3) == "5x3"
    for bad in ("1x4", "9x2", "4", "4x4x4", "ax4", "", "-2x3"):
        with pytest.raises(ValueError):
            parse_size(bad)
