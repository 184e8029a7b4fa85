"""Geometry, rules and board values."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from levelgen.linkup.core.board import EMPTY, WALL, Board, bit_list, iter_bits
from levelgen.linkup.core.geometry import Direction, Pos, Size, format_size, parse_size
from levelgen.linkup.core.moves import apply_move, legal_moves
from levelgen.linkup.core.paths import path_from_corners
from levelgen.linkup.core.rules import Rules


def test_parse_and_format_size() -> None:
    assert parse_size("12x8") == Size(12, 8)
    assert format_size(parse_size("18X10")) == "18x10"
    for bad in ("12by8", "0x4", "12x", "x8", "65x2", "-1x3", ""):
        with pytest.raises(ValueError):
            parse_size(bad)


def test_rules_validation() -> None:
    assert Rules() == Rules(2, True)
    for bad in ({"max_turns": -1}, {"max_turns": 99}, {"max_turns": True}, {"outside": 1}):
        with pytest.raises(ValueError):
            Rules(**bad)  # type: ignore[arg-type]


def test_board_text_round_trip_and_cells() -> None:
    board = Board.from_rows(["AB.", "#BA"])
    assert board.to_rows() == ["AB.", "#BA"]
    assert (board.width, board.height) == (3, 2)
    assert board[Pos(2, 0)] == EMPTY and board[Pos(0, 1)] == WALL
    assert board.kind_counts() == {10: 2, 11: 2}
    assert board.tiles() == [Pos(0, 0), Pos(1, 0), Pos(1, 1), Pos(2, 1)]
    with pytest.raises(ValueError, match="row 1 has 1 cells, expected 2"):
        Board.from_rows(["12", "1"])
    with pytest.raises(ValueError):
        Board.from_rows(["1?"])
    with pytest.raises(ValueError, match="out of range"):
        Board(65, 1, (0,) * 65)
    with pytest.raises(ValueError, match="holds -2"):
        Board(2, 1, (1, -2))
    with pytest.raises(IndexError):
        _ = board[Pos(3, 0)]


def test_layout_bits_round_trip_including_ring() -> None:
    lay = Board.from_rows(["....", "...."]).layout
    for y in range(-1, 3):
        for x in range(-1, 5):
            assert lay.pos(lay.bit(x, y)) == Pos(x, y)
    assert bin(lay.ring_mask).count("1") == 2 * (4 + 2) + 2 * 2
    assert bin(lay.inside_mask).count("1") == 8
    assert lay.inside_mask & lay.ring_mask == 0


def test_directions_and_paths() -> None:
    assert Direction.RIGHT.step(Pos(1, 1), 2) == Pos(3, 1)
    assert Direction.UP.is_horizontal is False
    path = path_from_corners([Pos(0, 0), Pos(0, 2), Pos(3, 2)])
    assert (path.turns, path.length) == (1, 5)
    assert path.cells()[:3] == [Pos(0, 0), Pos(0, 1), Pos(0, 2)]
    assert path.reversed().a == Pos(3, 2)
    for bad in ([Pos(0, 0)], [Pos(0, 0), Pos(1, 1)], [Pos(0, 0), Pos(0, 1), Pos(0, 2)]):
        with pytest.raises(ValueError):
            path_from_corners(bad)


def test_legal_moves_and_apply() -> None:
    assert legal_moves(Board.from_rows(["12", "21"]), Rules(outside=False)) == []
    board = Board.from_rows(["1.2", "2.1"])
    moves = legal_moves(board, Rules(outside=False))
    assert [(m.a, m.b, m.kind) for m in moves] == [
        (Pos(0, 0), Pos(2, 1), 1),
        (Pos(2, 0), Pos(0, 1), 2),
    ]
    assert all(m.path.turns == 2 for m in moves)
    after = apply_move(board, moves[0])
    assert after.tile_count() == 2 and after[Pos(0, 0)] == EMPTY


@given(st.integers(min_value=0, max_value=2**700))
def test_bit_list_is_iter_bits(mask: int) -> None:
    assert bit_list(mask) == list(iter_bits(mask))
    assert sum(1 << b for b in bit_list(mask)) == mask
