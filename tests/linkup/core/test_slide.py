"""The sliding rules (:mod:`levelgen.linkup.core.slide`) against a naive cell-by-cell simulation,
and the identity-tracking invariance the generator relies on."""

from __future__ import annotations

import doctest
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from levelgen.linkup.core import slide
from levelgen.linkup.core.board import EMPTY, WALL, Board
from levelgen.linkup.core.rules import SLIDES, Rules
from levelgen.linkup.core.slide import SLIDE_DIRECTIONS, slide_after_removal, slide_cells

LINES = {"down": (0, 1), "up": (0, -1), "left": (-1, 0), "right": (1, 0)}
CORNERS = {"up-left": (-1, -1), "up-right": (1, -1), "down-left": (-1, 1), "down-right": (1, 1)}


def naive(cells: list[int], width: int, height: int, direction: str) -> list[int]:
    """The rule read literally, one cell step at a time on a dict of coordinates."""
    grid = {(i % width, i // width): v for i, v in enumerate(cells)}
    half = (width + 1) // 2

    def free(x: int, y: int) -> bool:
        return grid.get((x, y), WALL) == EMPTY

    if direction in CORNERS:
        dx, dy = CORNERS[direction]
        moved = True
        while moved:
            moved = False
            rows = sorted(range(height), key=lambda y: -y * dy)
            cols = sorted(range(width), key=lambda x: -x * dx)
            for y in rows:
                for x in cols:
                    if grid[(x, y)] <= 0:
                        continue
                    for tx, ty in ((x + dx, y + dy), (x, y + dy), (x + dx, y)):
                        if free(tx, ty):
                            grid[(tx, ty)], grid[(x, y)] = grid[(x, y)], EMPTY
                            moved = True
                            break
        return [grid[(i % width, i // width)] for i in range(width * height)]

    def step_of(x: int) -> int:
        if direction in ("center", "apart"):
            toward_middle = 1 if x < half else -1
            return toward_middle if direction == "center" else -toward_middle
        return LINES[direction][0]

    def same_half(x: int, tx: int) -> bool:
        return direction not in ("center", "apart") or (x < half) == (tx < half)

    moved = True
    while moved:
        moved = False
        for y in range(height):
            for x in range(width):
                if grid[(x, y)] <= 0:
                    continue
                dy = LINES[direction][1] if direction in LINES else 0
                tx, ty = x + step_of(x), y + dy
                if same_half(x, tx) and free(tx, ty):
                    grid[(tx, ty)], grid[(x, y)] = grid[(x, y)], EMPTY
                    moved = True
    return [grid[(i % width, i // width)] for i in range(width * height)]


@st.composite
def grids(draw: st.DrawFn) -> tuple[list[int], int, int]:
    width = draw(st.integers(1, 7))
    height = draw(st.integers(1, 6))
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    density = draw(st.sampled_from([0.2, 0.5, 0.8]))
    walls = draw(st.sampled_from([0.0, 0.1, 0.25]))
    cells = []
    for _ in range(width * height):
        r = rng.random()
        cells.append(WALL if r < walls else rng.randint(1, 5) if r < walls + density else EMPTY)
    return cells, width, height


def test_doctests() -> None:
    assert doctest.testmod(slide).failed == 0


def test_rules_know_every_direction() -> None:
    assert set(SLIDES) == {"none", *SLIDE_DIRECTIONS}
    with pytest.raises(ValueError, match="slide must be one of"):
        Rules(slide="sideways")


@settings(max_examples=150, deadline=None)
@given(grids(), st.sampled_from(SLIDE_DIRECTIONS))
def test_slide_matches_naive_simulation(grid: tuple[list[int], int, int], direction: str) -> None:
    cells, width, height = grid
    out = slide_cells(cells, width, height, direction)
    assert out == naive(cells, width, height, direction)
    assert sorted(out) == sorted(cells)  # nothing created or lost
    assert [i for i, v in enumerate(out) if v == WALL] == [
        i for i, v in enumerate(cells) if v == WALL
    ]
    assert slide_cells(out, width, height, direction) == out  # at rest


@settings(max_examples=100, deadline=None)
@given(grids(), st.sampled_from(SLIDE_DIRECTIONS), st.integers(0, 2**32 - 1))
def test_identity_invariance(grid: tuple[list[int], int, int], direction: str, seed: int) -> None:
    """slide(f(cells)) == f(slide(cells)) for any map f of tile values (the docstring's proof)."""
    cells, width, height = grid
    rng = random.Random(seed)
    ids = [i + 1 if v >= 1 else v for i, v in enumerate(cells)]
    f = {i: rng.randint(1, 3) for i in range(1, len(cells) + 1)}
    relabel = [f[v] if v >= 1 else v for v in ids]
    slid = slide_cells(ids, width, height, direction)
    assert slide_cells(relabel, width, height, direction) == [f[v] if v >= 1 else v for v in slid]


@settings(max_examples=100, deadline=None)
@given(grids(), st.sampled_from(SLIDE_DIRECTIONS), st.integers(0, 2**32 - 1))
def test_slide_after_removal_matches_full_slide(
    grid: tuple[list[int], int, int], direction: str, seed: int
) -> None:
    cells, width, height = grid
    rest = slide_cells(cells, width, height, direction)
    tiles = [i for i, v in enumerate(rest) if v >= 1]
    if len(tiles) < 2:
        return
    rng = random.Random(seed)
    removed = tuple(rng.sample(tiles, 2))
    for i in removed:
        rest[i] = EMPTY
    fast, changed = slide_after_removal(rest, width, height, direction, removed)
    full = slide_cells(rest, width, height, direction)
    assert fast == full
    if changed is not None:
        assert all(fast[i] == rest[i] for i in range(len(rest)) if i not in changed)


def test_worked_examples() -> None:
    b = Board.from_rows(["1.", ".2", "2#"])
    assert slide_cells(list(b.cells), 2, 3, "down") == list(
        Board.from_rows(["..", "12", "2#"]).cells
    )
    b = Board.from_rows(["12..3"])
    assert slide_cells(list(b.cells), 5, 1, "right") == list(Board.from_rows(["..123"]).cells)
    # Walls cut a row into segments; tiles never cross them.
    b = Board.from_rows([".1#.2"])
    assert slide_cells(list(b.cells), 5, 1, "left") == list(Board.from_rows(["1.#2."]).cells)
    # Odd width: the middle column belongs to the left half.
    b = Board.from_rows(["..1.."])
    assert slide_cells(list(b.cells), 5, 1, "apart") == list(Board.from_rows(["1...."]).cells)
    assert slide_cells(list(b.cells), 5, 1, "center") == list(b.cells)
    b = Board.from_rows(["...4"])
    assert slide_cells(list(b.cells), 4, 1, "center") == list(Board.from_rows(["..4."]).cells)
    # Corner: diagonal first, then vertical, then horizontal.
    b = Board.from_rows(["1..", "...", "..."])
    assert slide_cells(list(b.cells), 3, 3, "down-right") == list(
        Board.from_rows(["...", "...", "..1"]).cells
    )
    b = Board.from_rows([".1", "#."])  # the diagonal is a wall: the vertical step
    assert slide_cells(list(b.cells), 2, 2, "down-left") == list(
        Board.from_rows(["..", "#1"]).cells
    )
    b = Board.from_rows(["1.", "#."])  # nothing free below or to the left: it stays
    assert slide_cells(list(b.cells), 2, 2, "down-left") == list(b.cells)
