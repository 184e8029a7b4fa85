"""Counts in messages agree with their nouns: ``levelgen.formats.words`` and a message that uses it
with a count of one (the dead tile of a solver's proof)."""

from __future__ import annotations

from levelgen.formats.words import plural, remain
from levelgen.linkup.core.board import WALL, Board
from levelgen.linkup.core.rules import Rules
from levelgen.linkup.solvers import Budget, SolveStatus
from levelgen.linkup.solvers.search import solve_search


def test_plural_and_remain() -> None:
    assert [plural(n, "tile") for n in (0, 1, 2)] == ["0 tiles", "1 tile", "2 tiles"]
    assert [remain(n, "tile") for n in (1, 2)] == ["1 tile remains", "2 tiles remain"]


def test_one_dead_tile_is_named_in_the_singular() -> None:
    """Kind 2 has four tiles, one walled in at (3, 1): the proof names 1 tile (it said
    '1 tiles')."""
    board = Board.from_grid([[2, 2, 2, WALL, 0], [0, 0, WALL, 2, WALL], [0, 0, 0, WALL, 0]])
    result = solve_search(board, Rules(), Budget())
    assert result.status is SolveStatus.UNSOLVABLE
    assert result.reason is not None
    assert result.reason.startswith("1 tile can never be removed (first at [3, 1])")
