"""Suggest a fix (levelgen.linkup.design.fix): the fewest swaps, proved, and honest about what
was ruled out; cross-checked against a plain breadth-first search with the exhaustive solver."""

from __future__ import annotations

import random
from itertools import combinations

from hypothesis import assume, given
from hypothesis import strategies as st

from levelgen.formats.budget import Budget
from levelgen.linkup.core.board import Board
from levelgen.linkup.core.rules import Rules
from levelgen.linkup.design.fix import apply_swaps, find_fix
from levelgen.linkup.generate.playout import deal, random_removal_order
from levelgen.linkup.solvers import SolveStatus, solve
from levelgen.linkup.verify import replay
from tests.strategies import SEARCH_PROPERTY, small_boards

TIGHT = Rules(max_turns=0, outside=False)
#: Two crossed pairs: nothing links without a turn; one swap makes two straight pairs.
CROSSED = Board.from_grid([[1, 2], [2, 1]])


def test_a_crossed_board_is_fixed_by_one_swap_with_fewer_ruled_out() -> None:
    result = find_fix(CROSSED, TIGHT, Budget())
    assert result.status == "fixed" and len(result.swaps) == 1
    assert result.fewer_ruled_out  # the board itself was proved unsolvable
    assert result.board == apply_swaps(CROSSED, result.swaps)
    assert replay(result.board, TIGHT, result.solution) == []
    assert "every board of fewer swaps was proved unsolvable" in result.reason


def test_a_solvable_board_needs_no_swap() -> None:
    board = Board.from_grid([[1, 2], [1, 2]])
    result = find_fix(board, TIGHT, Budget())
    assert result.status == "solvable" and result.swaps == () and result.board == board
    assert replay(board, TIGHT, result.solution) == []


def test_an_odd_kind_cannot_be_fixed_by_swaps() -> None:
    result = find_fix(Board.from_grid([[1, 2], [2, 2]]), TIGHT, Budget())
    assert result.status == "invalid" and "kind 1 has 1 tile," in result.reason


def test_no_swap_allowed_is_not_found_and_says_what_was_proved() -> None:
    result = find_fix(CROSSED, TIGHT, Budget(), max_swaps=0)
    assert result.status == "not-found" and not result.fewer_ruled_out
    assert "proved unsolvable" in result.reason


def test_a_spent_budget_is_not_found_never_a_fix() -> None:
    result = find_fix(CROSSED, TIGHT, Budget(should_stop=lambda: True))
    assert result.status == "not-found" and result.board is None


def test_a_board_that_needs_two_swaps() -> None:
    # Three kinds around a cycle: no single swap gives a straight pair of every kind.
    board = Board.from_grid([[1, 2, 3], [2, 3, 1]])
    result = find_fix(board, TIGHT, Budget())
    assert result.status == "fixed" and len(result.swaps) == _fewest_swaps(board, TIGHT, 3)
    assert result.fewer_ruled_out == (len(result.swaps) > 0)
    assert replay(result.board, TIGHT, result.solution) == []  # type: ignore[arg-type]


def test_the_same_board_gets_the_same_fix() -> None:
    board = Board.from_grid([[1, 2, 3], [2, 3, 1]])
    assert find_fix(board, TIGHT, Budget()) == find_fix(board, TIGHT, Budget())


def _solvable(board: Board, rules: Rules) -> bool:
    found = solve(board, rules, method="exhaustive")
    assert found.status is not SolveStatus.UNKNOWN
    return found.status is SolveStatus.SOLVED


def _fewest_swaps(board: Board, rules: Rules, most: int) -> int | None:
    """The reference: every arrangement of 0, 1, 2, ... swaps, each decided exhaustively."""
    level = {board.cells}
    seen = set(level)
    tiles = board.tiles()
    for depth in range(most + 1):
        if any(_solvable(Board(board.width, board.height, c), rules) for c in level):
            return depth
        following = set()
        for cells in level:
            current = Board(board.width, board.height, cells)
            for a, b in combinations(tiles, 2):
                if current[a] != current[b]:
                    new = apply_swaps(current, [(a, b)]).cells
                    if new not in seen:
                        seen.add(new)
                        following.add(new)
        level = following
    return None


@SEARCH_PROPERTY
@given(board=small_boards(max_tiles=8, max_width=4), turns=st.integers(0, 2), ring=st.booleans())
def test_fewest_swaps_match_a_plain_breadth_first_search(
    board: Board, turns: int, ring: bool
) -> None:
    assume(all(n % 2 == 0 for n in board.kind_counts().values()) and board.tile_count())
    rules = Rules(max_turns=turns, outside=ring)
    result = find_fix(board, rules, Budget(), max_swaps=2)
    expected = _fewest_swaps(board, rules, 2)
    if expected is None:
        assert result.status == "not-found"
        return
    assert len(result.swaps) == expected
    assert result.status == ("solvable" if expected == 0 else "fixed")
    assert result.fewer_ruled_out  # small boards: every board was decided
    assert result.board is not None and replay(result.board, rules, result.solution) == []


@SEARCH_PROPERTY
@given(
    seed=st.integers(0, 2**32 - 1),
    width=st.integers(2, 6),
    height=st.integers(2, 4),
    turns=st.integers(0, 2),
    ring=st.booleans(),
)
def test_a_solved_level_broken_by_a_swap_is_fixed_by_one(
    seed: int, width: int, height: int, turns: int, ring: bool
) -> None:
    rng = random.Random(seed)
    rules = Rules(max_turns=turns, outside=ring)
    template = Board(
        width,
        height,
        (1,) * (width * height - (width * height) % 2) + (0,) * ((width * height) % 2),
    )
    order = random_removal_order(template, rules, rng)
    assume(order is not None)
    assert order is not None
    kinds = [rng.randint(1, 3) for _ in order]
    solved, _ = deal(template, rules, order, kinds)
    tiles = solved.tiles()
    a, b = rng.sample(tiles, 2)
    assume(solved[a] != solved[b])
    broken = apply_swaps(solved, [(a, b)])
    assume(solve(broken, rules, method="exhaustive").status is SolveStatus.UNSOLVABLE)
    result = find_fix(broken, rules, Budget())
    assert result.status == "fixed" and len(result.swaps) == 1 and result.fewer_ruled_out
    assert result.board is not None and replay(result.board, rules, result.solution) == []
    assert sorted(result.board.kind_counts().items()) == sorted(broken.kind_counts().items())


def test_a_12x8_level_broken_by_a_swap() -> None:
    from levelgen.linkup.family import FAMILY

    spec = FAMILY.parse_spec({"size": "12x8", "copies": 2})
    level = FAMILY.create(spec, 0).level
    assert level is not None
    rng = random.Random(0)
    while True:  # the first random swap that the solver proves unsolvable (a few tries)
        a, b = rng.sample(level.board.tiles(), 2)
        broken = apply_swaps(level.board, [(a, b)])
        if solve(broken, level.rules, method="search").status is SolveStatus.UNSOLVABLE:
            break
    result = find_fix(broken, level.rules, Budget())
    assert result.status == "fixed" and len(result.swaps) == 1 and result.fewer_ruled_out
    assert result.board is not None and replay(result.board, level.rules, result.solution) == []


def test_when_the_breadth_first_share_runs_out_a_dive_finds_a_fix() -> None:
    board = Board.from_grid([[1, 2, 3], [2, 3, 1]])
    ticks = iter(range(10**6))

    def clock() -> float:  # each reading one second later: the breadth-first share ends at once
        return float(next(ticks))

    result = find_fix(board, TIGHT, Budget(clock=clock, time_limit=4.0))
    assert result.status == "fixed" and len(result.swaps) == 2
    assert not result.fewer_ruled_out and "fewer swaps were not ruled out" in result.reason
    assert result.board is not None and replay(result.board, TIGHT, result.solution) == []
