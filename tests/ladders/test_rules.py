"""The rules: landing under each overshoot rule, the boustrophedon numbering, sizes, and each
refusal of an invalid board with its JSON pointer."""

from __future__ import annotations

import pytest

from levelgen.ladders.rules import Board, Rules, board_problems, land, parse_size, square_cell


@pytest.mark.parametrize(
    ("square", "roll", "overshoot", "landed"),
    [
        (10, 3, "exact", 13),
        (98, 2, "exact", 100),
        (98, 5, "exact", 98),
        (98, 5, "bounce", 97),
        (99, 6, "bounce", 95),
        (98, 5, "pass", 100),
        (0, 6, "exact", 6),
    ],
)
def test_land(square: int, roll: int, overshoot: str, landed: int) -> None:
    assert land(square, roll, 100, overshoot) == landed


def test_square_cells_run_boustrophedon_from_the_bottom_left() -> None:
    assert square_cell(1, 10, 10) == (0, 9)
    assert square_cell(10, 10, 10) == (9, 9)
    assert square_cell(11, 10, 10) == (9, 8)
    assert square_cell(20, 10, 10) == (0, 8)
    assert square_cell(100, 10, 10) == (0, 0)
    assert square_cell(96, 16, 6) == (0, 0)  # six rows: the top row runs right to left
    cells = {square_cell(s, 7, 3) for s in range(1, 22)}
    assert len(cells) == 21


def test_parse_size() -> None:
    assert parse_size("10x10") == (10, 10)
    assert parse_size(" 16x6 ") == (16, 6)
    for bad in ("10", "0x5", "33x2", "1x1", "axb", "10x10x1"):
        with pytest.raises(ValueError):
            parse_size(bad)


def _problems(
    ladders: tuple[tuple[int, int], ...] = (),
    snakes: tuple[tuple[int, int], ...] = (),
    faces: int = 6,
) -> list[tuple[str, str]]:
    board = Board(10, 10, ladders, snakes)
    return [(p.pointer, p.message) for p in board_problems(board, Rules(faces))]


@pytest.mark.parametrize(
    ("ladders", "snakes", "pointer", "words"),
    [
        (((0, 10),), (), "/board/ladders/0/0", "from square 0"),
        ((), ((100, 50),), "/board/snakes/0/0", "from square 100"),
        ((), ((40, 0),), "/board/snakes/0/1", "onto square 0"),
        ((), ((20, 35),), "/board/snakes/0", "a snake goes down"),
        (((50, 12),), (), "/board/ladders/0", "a ladder goes up"),
        (((5, 5),), (), "/board/ladders/0", "a ladder goes up"),
        (((5, 20),), ((5, 2),), "/board/snakes/0/0", "already starts the jump at /board/ladders/0"),
        (((5, 20),), ((20, 3),), "/board/snakes/0/0", "no chains"),
        (((5, 120),), (), "/board/ladders/0/1", "off the board (1..100)"),
        ((), ((130, 2),), "/board/snakes/0/0", "off the board"),
    ],
)
def test_each_refusal_has_its_pointer(
    ladders: tuple[tuple[int, int], ...],
    snakes: tuple[tuple[int, int], ...],
    pointer: str,
    words: str,
) -> None:
    found = _problems(ladders, snakes)
    assert any(p == pointer and words in m for p, m in found), found


def test_a_die_larger_than_the_board_is_refused() -> None:
    assert Board(2, 2).squares == 4
    found = [(p.pointer, p.message) for p in board_problems(Board(2, 2), Rules(6))]
    assert found and found[0][0] == "/rules/faces"


def test_valid_boards_have_no_problems() -> None:
    assert _problems(((1, 38), (80, 100)), ((16, 6), (98, 78))) == []
    # two jumps may end on one square: only starts and chains are refused by the rules
    assert _problems(((3, 30),), ((60, 30),)) == []
