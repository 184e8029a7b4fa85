"""Fill the rest (levelgen.linkup.design.fill): every slot gets a kind, painted tiles keep
theirs, counts even, the board solvable with its certificate replayed; slots that cannot be
filled are named."""

from __future__ import annotations

import random

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from levelgen.formats.budget import Budget
from levelgen.linkup.core.board import Board
from levelgen.linkup.core.geometry import Pos
from levelgen.linkup.core.rules import Rules
from levelgen.linkup.design.fill import FillError, default_kinds, fill_slots, placed_kinds
from levelgen.linkup.generate.playout import random_removal_order
from levelgen.linkup.verify import replay
from tests.strategies import SEARCH_PROPERTY

RULES = Rules(max_turns=2, outside=True)


def _check(board: Board, result_board: Board, slots: list[tuple[int, int]]) -> None:
    for p in board.tiles():
        assert result_board[p] == board[p]  # painted tiles keep their kinds
    for x, y in slots:
        assert result_board[Pos(x, y)] >= 1
    assert all(n % 2 == 0 for n in result_board.kind_counts().values())


def test_odd_kinds_are_completed_first_then_pairs_of_the_fewest_kind() -> None:
    board = Board.from_grid([[1, 2, 2, 0, 0, 0, 0]])
    assert placed_kinds(board, 3, None) == [1, 1, 1]
    assert placed_kinds(board, 5, 3) == [1, 3, 3, 1, 1]


def test_default_kinds() -> None:
    empty = Board.from_grid([[0] * 8])
    assert default_kinds(empty, 8) == 2 and default_kinds(empty, 2) == 1
    assert default_kinds(Board.from_grid([[7, 0, 0]]), 2) == 7


def test_a_level_drawn_in_part_is_filled_and_replays() -> None:
    board = Board.from_grid([[1, 0, 0, 0], [0, 2, 0, 0], [0, 0, 0, 0]])
    slots = [(x, y) for y in range(3) for x in range(4) if board[Pos(x, y)] == 0]
    result = fill_slots(board, RULES, slots, seed=3, budget=Budget())
    assert result.status == "filled" and result.board is not None
    _check(board, result.board, slots)
    assert replay(result.board, RULES, result.solution) == []
    assert [p for p, _ in result.placed] == [Pos(x, y) for x, y in slots]
    again = fill_slots(board, RULES, slots, seed=3, budget=Budget())
    assert again == result  # same seed, same fill


def test_slots_that_cannot_make_the_counts_even_are_refused_at_slots() -> None:
    board = Board.from_grid([[1, 2, 0, 0, 0]])
    with pytest.raises(FillError) as caught:
        fill_slots(board, RULES, [(2, 0), (3, 0), (4, 0)], seed=0, budget=Budget())
    assert caught.value.pointer == "/slots" and "odd count" in caught.value.reason
    with pytest.raises(FillError) as caught:
        fill_slots(board, RULES, [(2, 0)], seed=0, budget=Budget())
    assert caught.value.pointer == "/slots"


@pytest.mark.parametrize(
    ("slots", "pointer", "words"),
    [
        ([(2, 0), (0, 0)], "/slots/1", "holds a tile of kind 1"),
        ([(2, 0), (9, 0)], "/slots/1", "outside"),
        ([(2, 0), (2, 0)], "/slots/1", "given twice"),
    ],
)
def test_a_bad_slot_is_named(slots: list[tuple[int, int]], pointer: str, words: str) -> None:
    board = Board.from_grid([[1, 1, 0, 0, 0]])
    with pytest.raises(FillError) as caught:
        fill_slots(board, RULES, slots, seed=0, budget=Budget())
    assert caught.value.pointer == pointer and words in caught.value.reason


def test_a_fill_with_no_way_out_is_not_found() -> None:
    # Two painted tiles of kind 1 walled in apart, no turn allowed: nothing can be cleared.
    board = Board.from_grid([[1, -1, 0, 0], [-1, 1, 0, 0]])
    result = fill_slots(
        board,
        Rules(max_turns=0, outside=False),
        [(2, 0), (3, 0)],
        seed=0,
        budget=Budget(),
        max_attempts=20,
    )
    assert result.status == "not-found" and result.board is None and "20 playouts" in result.reason


def test_a_spent_budget_is_not_found() -> None:
    board = Board.from_grid([[0, 0]])
    result = fill_slots(
        board, RULES, [(0, 0), (1, 0)], seed=0, budget=Budget(should_stop=lambda: True)
    )
    assert result.status == "not-found"


@SEARCH_PROPERTY
@given(
    seed=st.integers(0, 2**32 - 1),
    width=st.integers(2, 6),
    height=st.integers(1, 4),
    turns=st.integers(0, 2),
    ring=st.booleans(),
    blank=st.floats(0.1, 1.0),
)
def test_fills_verify(
    seed: int, width: int, height: int, turns: int, ring: bool, blank: float
) -> None:
    """Any fill found is valid; a board whose slots are all of it (a removal order exists on
    its cells) is always filled."""
    rng = random.Random(seed)
    rules = Rules(max_turns=turns, outside=ring)
    n = width * height - (width * height) % 2
    template = Board(width, height, (1,) * n + (0,) * (width * height - n))
    assume(random_removal_order(template, rules, random.Random(seed)) is not None)
    cells = [rng.randint(1, 3) for _ in range(n)] + [0] * (width * height - n)
    tiles = template.tiles()
    chosen = set(rng.sample(tiles, max(1, int(len(tiles) * blank))))
    board = Board(
        width,
        height,
        tuple(0 if Pos(i % width, i // width) in chosen else v for i, v in enumerate(cells)),
    )
    slots = [(p.x, p.y) for p in tiles if p in chosen]
    try:
        result = fill_slots(board, rules, slots, seed=seed, budget=Budget(), max_attempts=200)
    except FillError as exc:
        assert exc.pointer == "/slots"  # only parity can refuse these slots
        return
    if result.board is not None:
        _check(board, result.board, slots)
        assert replay(result.board, rules, result.solution) == []
    if len(chosen) == len(tiles):
        assert result.status == "filled"


def test_no_slot_is_the_board_as_it_is_when_solvable() -> None:
    board = Board.from_grid([[1, 1, 2, 2]])
    result = fill_slots(board, RULES, [], seed=0, budget=Budget())
    assert result.status == "filled" and result.board == board and result.placed == ()
    assert replay(board, RULES, result.solution) == []
    crossed = Board.from_grid([[1, 2], [2, 1]])
    tight = Rules(max_turns=0, outside=False)
    assert fill_slots(crossed, tight, [], seed=0, budget=Budget()).status == "not-found"
