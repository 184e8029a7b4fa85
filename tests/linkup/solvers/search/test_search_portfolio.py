"""``auto`` and ``exhaustive`` through :func:`levelgen.linkup.solvers.solve`: the few-kinds boards.

Boards of two kinds with many copies each (8x4, 14 tiles of kind 1 and 12 of kind 2, max_turns
1, no ring) are where the search solver's pairings multiply; the exhaustive search, which
memoises occupancy alone, decides them, and ``auto`` runs it on such boards.
"""

from __future__ import annotations

import random

import pytest

from levelgen.linkup.core.board import EMPTY, WALL, Board
from levelgen.linkup.core.rules import Rules
from levelgen.linkup.solvers import METHODS, Budget, SolveStatus, few_kinds, solve

RULES = Rules(max_turns=1, outside=False)


def few_kinds_board(seed: int, walls: bool) -> Board:
    """14 tiles of kind 1 and 12 of kind 2 placed at random on 8x4; the other 6 cells are
    holes, or (``walls``) a random number of them walls."""
    rng = random.Random(seed)
    n_walls = rng.randint(0, 6) if walls else 0
    cells = [1] * 14 + [2] * 12 + [WALL] * n_walls + [EMPTY] * (6 - n_walls)
    rng.shuffle(cells)
    return Board(8, 4, tuple(cells))


def test_exhaustive_is_a_method() -> None:
    assert "exhaustive" in METHODS
    result = solve(Board.from_rows(["AB", "AB"]), Rules(), method="exhaustive")
    assert result.status is SolveStatus.SOLVED and result.method == "exhaustive"
    crossed = solve(Board.from_rows(["AB", "BA"]), RULES, method="exhaustive")
    assert crossed.status is SolveStatus.UNSOLVABLE


def test_few_kinds_picks_small_boards_of_many_copies() -> None:
    assert few_kinds(few_kinds_board(0, walls=False))
    assert not few_kinds(Board.from_rows(["ABCD", "DCBA"]))
    assert not few_kinds(Board.from_grid([[1] * 64 for _ in range(64)]))


@pytest.mark.parametrize("seed", range(12))
def test_auto_decides_random_few_kinds_boards_like_the_exhaustive_search(seed: int) -> None:
    board = few_kinds_board(seed, walls=False)
    auto = solve(board, RULES, budget=Budget(max_nodes=20_000))
    plain = solve(board, RULES, budget=Budget(max_nodes=200_000), method="exhaustive")
    assert auto.status is not SolveStatus.UNKNOWN
    assert auto.status is plain.status


def test_auto_decides_a_few_kinds_board_the_search_cannot() -> None:
    # Seed 3319 of the boards with walls: unsolvable; the exhaustive search tries all 9,787
    # reachable occupancies, the search solver is still undecided after 10,000 nodes.
    board = few_kinds_board(3319, walls=True)
    assert board.to_rows() == ["121#2121", "2#211##2", "#1122121", "#1121122"]
    auto = solve(board, RULES, budget=Budget(max_nodes=10_000))
    assert auto.status is SolveStatus.UNSOLVABLE
    # auto goes on to the next solver only when the one before it is undecided
    assert auto.method == "exhaustive"


def test_auto_undecided_says_why_each_solver_stopped() -> None:
    # Stopped at once: every solver of the portfolio runs and is undecided; the answer names
    # each with its own reason, not only the last one's.
    board = few_kinds_board(3319, walls=True)
    auto = solve(board, RULES, budget=Budget(should_stop=lambda: True))
    assert auto.status is SolveStatus.UNKNOWN
    parts = auto.reason.split("; ")
    assert [part.split(":")[0] for part in parts] == ["search", "exhaustive", "cpsat"]
    assert all(part.split(": ", 1)[1] for part in parts)
