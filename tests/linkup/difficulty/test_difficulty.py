"""Move counts and metrics: the incremental counter against a recount from scratch of every
state, and small boards with answers worked out by hand."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from levelgen.linkup.core.board import Board
from levelgen.linkup.core.geometry import Pos
from levelgen.linkup.core.level import Metrics
from levelgen.linkup.core.moves import Move, legal_moves
from levelgen.linkup.core.paths import find_path
from levelgen.linkup.core.rules import Rules
from levelgen.linkup.difficulty import count_moves, solution_metrics, solution_move_counts
from levelgen.linkup.generate.playout import random_removal_order


def moves_along(board: Board, rules: Rules, order: list[tuple[Pos, Pos]]) -> list[Move]:
    """The moves removing the pairs of ``order`` one after the other, with their best paths."""
    moves = []
    for a, b in order:
        path = find_path(board, a, b, rules)
        assert path is not None
        moves.append(Move(path.a, path.b, board[path.a], path))
        board = board.without(path.a, path.b)
    return moves


def dealt_board(
    width: int, height: int, rules: Rules, seed: int, copies: int
) -> tuple[Board, list[Move]] | None:
    """A full board with kinds dealt onto a random order (``copies`` tiles per kind)."""
    rng = random.Random(seed)
    template = Board(width, height, (1,) * (width * height))
    order = random_removal_order(template, rules, rng)
    if order is None:
        return None
    kinds = [1 + i // (copies // 2) for i in range(len(order))]
    rng.shuffle(kinds)
    cells = list(template.cells)
    for (a, b), kind in zip(order, kinds, strict=True):
        cells[a.y * width + a.x] = cells[b.y * width + b.x] = kind
    board = Board(width, height, tuple(cells))
    return board, moves_along(board, rules, order)


def recount(board: Board, rules: Rules, moves: list[Move]) -> list[int]:
    """Legal moves before each step, by listing them all (paths included) on each state."""
    counts = []
    for move in moves:
        counts.append(len(legal_moves(board, rules)))
        board = board.without(move.a, move.b)
    return counts


@settings(derandomize=True, deadline=None, max_examples=200)
@given(
    width=st.integers(2, 10),
    height=st.integers(1, 8),
    max_turns=st.integers(0, 3),
    outside=st.booleans(),
    copies=st.sampled_from([2, 4, 6]),
    seed=st.integers(0, 2**32),
)
def test_incremental_counts_match_a_recount(
    width: int, height: int, max_turns: int, outside: bool, copies: int, seed: int
) -> None:
    if width * height % 2:
        width += 1
    rules = Rules(max_turns=max_turns, outside=outside)
    made = dealt_board(width, height, rules, seed, copies)
    if made is None:
        return
    board, moves = made
    assert solution_move_counts(board, rules, moves) == recount(board, rules, moves)


@settings(derandomize=True, deadline=None, max_examples=150)
@given(
    rows=st.lists(st.text("1122.#", min_size=6, max_size=6), min_size=1, max_size=5),
    max_turns=st.integers(0, 3),
    outside=st.booleans(),
    seed=st.integers(0, 2**32),
)
def test_counts_with_holes_walls_and_odd_kinds(
    rows: list[str], max_turns: int, outside: bool, seed: int
) -> None:
    """Boards that need not be solvable: count along any legal prefix (greedy random play)."""
    board = Board.from_rows(rows)
    rules = Rules(max_turns=max_turns, outside=outside)
    rng = random.Random(seed)
    moves = []
    state = board
    while True:
        legal = legal_moves(state, rules)
        if not legal:
            break
        move = legal[rng.randrange(len(legal))]
        moves.append(move)
        state = state.without(move.a, move.b)
    assert solution_move_counts(board, rules, moves) == recount(board, rules, moves)
    if moves:
        assert solution_move_counts(board, rules, moves)[0] == count_moves(board, rules)


def test_large_board() -> None:
    rules = Rules()
    made = dealt_board(24, 14, rules, 3, 4)
    assert made is not None
    board, moves = made
    fast = solution_move_counts(board, rules, moves)
    state = board
    for i, move in enumerate(moves):
        if i % 20 == 0:
            assert fast[i] == count_moves(state, rules)
        state = state.without(move.a, move.b)


def test_hand_worked_metrics() -> None:
    # "1221": the 2s touch (0 turns); the 1s link round the ring above (2 turns).
    board = Board.from_rows(["1221"])
    rules = Rules()
    moves = moves_along(board, rules, [(board.tiles()[1], board.tiles()[2])])
    moves += moves_along(
        board.without(*board.tiles()[1:3]), rules, [(board.tiles()[0], board.tiles()[3])]
    )
    assert count_moves(board, rules) == 2
    metrics = solution_metrics(board, rules, moves)
    assert metrics == Metrics(start_moves=2, mean_moves=1.5, turn_histogram=(2, 0, 0))


def test_hand_worked_without_outside() -> None:
    # Without the ring the 1s are blocked by the 2s until those go; then a straight line.
    board = Board.from_rows(["1221", "3..3"])
    rules = Rules(max_turns=1, outside=False)
    assert count_moves(board, rules) == 2  # the 2s, and the 3s along the bottom row
    tiles = board.tiles()
    twos, ones, threes = (tiles[1], tiles[2]), (tiles[0], tiles[3]), (tiles[4], tiles[5])
    moves = moves_along(board, rules, [twos, ones, threes])
    assert solution_move_counts(board, rules, moves) == [2, 2, 1]
    assert solution_metrics(board, rules, moves).turn_histogram == (3, 0)


def test_no_moves() -> None:
    board = Board.from_rows(["12", "21"])
    assert solution_move_counts(board, Rules(), []) == []
    assert solution_metrics(board, Rules(), []) == Metrics(0, 0.0, (0, 0, 0))
