"""Sliding tiles: where the tiles go after every removal under ``Rules.slide``.

This module is the one definition of the sliding rules; everything else (replay, solvers,
generator, rendering) calls :func:`slide_cells`.  Cells are a row-major list of ``width *
height`` values: ``WALL`` (-1) never moves and blocks, ``EMPTY`` (0) is free (holes are just
empty cells: tiles may slide into them), and any value >= 1 is a tile that moves.  Tiles never
enter the ring; they stop at the board edge, at walls and at other tiles.

The rules, one function per family:

* ``down`` / ``up`` / ``left`` / ``right`` (:func:`_slide_segments`): every tile moves that
  way as far as it can, keeping its order, within its column (``down``, ``up``) or its row
  (``left``, ``right``).  Walls cut a column or row into segments; each segment's tiles pack
  against its end in that direction.
* ``center`` / ``apart`` (also :func:`_slide_segments`): each row is cut into a left half,
  columns ``0 .. ceil(W / 2) - 1``, and a right half, the rest; for an odd width the middle
  column belongs to the *left* half.  ``center``: the left half's tiles pack rightwards
  against the middle, the right half's leftwards against it; ``apart``: the left half's tiles
  pack against the left edge, the right half's against the right edge.  Walls cut halves into
  segments as above; tiles never cross from one half into the other.
* ``up-left`` / ``up-right`` / ``down-left`` / ``down-right`` (:func:`_slide_corner`): rounds of
  one-cell steps until a round moves nothing.  A round visits the tiles in rows from the
  corner's row side (bottom row first for ``down-*``, top row first for ``up-*``) and in each
  row from the corner's column side (left first for ``*-left``); each tile visited takes one
  step: diagonally when that cell is free (an empty board cell), else vertically when that
  cell is free, else horizontally when that one is, else it stays.  Every step lowers
  ``(distance to the corner's row) + (distance to the corner's column)``, so rounds end.

Worked examples (``.`` empty, ``#`` wall, letters are tiles)::

    down              up-left (A steps left, B diagonally, C up;
    A.    ..          ..A     BA.      then nothing moves)
    .B -> AB          .B. ->  C..
    B#    B#          C..     ...
    center (W = 5: the middle column is in the left half)   apart
    A...B  ->  ..AB.                                        .A.B.  ->  A...B

>>> from levelgen.linkup.core.board import Board
>>> b = Board.from_rows(["1.", ".2", "2#"])
>>> Board(2, 3, tuple(slide_cells(list(b.cells), 2, 3, "down"))).to_rows()
['..', '12', '2#']
>>> b = Board.from_rows(["1...2", ".1.2."])
>>> Board(5, 2, tuple(slide_cells(list(b.cells), 5, 2, "center"))).to_rows()
['..12.', '..12.']
>>> Board(5, 2, tuple(slide_cells(list(b.cells), 5, 2, "apart"))).to_rows()
['1...2', '1...2']
>>> b = Board.from_rows(["..1", ".2.", "3.."])
>>> Board(3, 3, tuple(slide_cells(list(b.cells), 3, 3, "up-left"))).to_rows()
['21.', '3..', '...']

Occupancy invariance with identities (the fact generation relies on).  Claim: for any map
``f`` from tile values to tile values, ``slide_cells(f(c)) == f(slide_cells(c))`` (``f``
applied to every tile cell, walls and empties kept).  Proof: the functions below read a cell
only to test ``> 0`` (a tile), ``== EMPTY`` (free) or neither (a wall); they never compare two
tile values or branch on one.  Their control flow, and so the permutation of cells they apply,
is a function of the occupancy alone, and tile values are only carried along by that
permutation.  Now number the tiles with distinct identities and play a sequence of removals:
the positions of each identity after every step depend only on the initial occupancy and on
which identities were removed at each step (in order), never on kinds; and whether a step is
legal depends only on the occupancy at that moment (fact 1 of :mod:`levelgen.linkup.core.rules`) and
on the two removed tiles having one kind.  So a removal order found on identities, with the tiles
unlabelled, stays legal for every kind assignment that gives the two tiles of each removed pair
one kind: apply ``f = kind of identity`` to every state of the sequence.  For the line and half
rules the final positions do not even depend on the order of removals within a segment; for the
corner rules they do (tiles of different rows and columns interact), which is why the proof is
about sequences, not sets.
"""

from __future__ import annotations

from functools import lru_cache

from .board import EMPTY, WALL
from .rules import SLIDES

__all__ = ["SLIDE_DIRECTIONS", "slide_after_removal", "slide_cells", "slide_moves_nothing"]

#: The sliding rules that move tiles (``Rules.slide`` other than ``"none"``).
SLIDE_DIRECTIONS: tuple[str, ...] = tuple(name for name in SLIDES if name != "none")

_CORNERS = {"up-left": (-1, -1), "up-right": (1, -1), "down-left": (-1, 1), "down-right": (1, 1)}


def slide_cells(cells: list[int], width: int, height: int, direction: str) -> list[int]:
    """The cells after every tile has slid under ``direction`` (see the module docstring); a
    new list, ``cells`` is left as it is.  ``"none"`` returns a copy.  ``ValueError`` for an
    unknown direction."""
    if direction == "none":
        return list(cells)
    if direction in _CORNERS:
        dx, dy = _CORNERS[direction]
        return _slide_corner(cells, width, height, dx, dy)
    if direction not in SLIDE_DIRECTIONS:
        raise ValueError(f"unknown slide direction {direction!r}")
    walls = tuple(i for i, v in enumerate(cells) if v == WALL)
    return _slide_segments(cells, _segments(width, height, direction, walls))


def slide_after_removal(
    cells: list[int],
    width: int,
    height: int,
    direction: str,
    removed: tuple[int, ...],
    walls: tuple[int, ...] | None = None,
) -> tuple[list[int], tuple[int, ...] | None]:
    """:func:`slide_cells` for cells that were at rest before the cells ``removed`` (indices)
    were emptied, and the indices that may have changed (None: any).  Under the line and half
    rules a segment without a removed cell was at rest and stays so, so only the segments
    through removed cells are packed again; the corner rules slide everything.  ``walls``: the
    indices of the walls, when the caller knows them."""
    if direction in _CORNERS or direction == "none":
        return slide_cells(cells, width, height, direction), None
    if walls is None:
        walls = tuple(i for i, v in enumerate(cells) if v == WALL)
    segment_of = _segment_index(width, height, direction, walls)
    touched = tuple({segment_of[i] for i in removed if i in segment_of})
    out = _slide_segments(cells, touched)
    return out, tuple(i for seg in touched for i in seg)


def slide_moves_nothing(cells: list[int], width: int, height: int, direction: str) -> bool:
    """True when no tile would move (the cells are at rest under ``direction``)."""
    return slide_cells(cells, width, height, direction) == list(cells)


# ----- lines and halves ------------------------------------------------------------------------


def _slide_segments(cells: list[int], segments: tuple[tuple[int, ...], ...]) -> list[int]:
    """Pack the tiles of each segment (cell indices listed from the end tiles pack against)
    against its first cell, keeping their order."""
    out = list(cells)
    for seg in segments:
        tiles = [cells[i] for i in seg if cells[i] > 0]
        n = len(tiles)
        if n == len(seg):
            continue
        for k, i in enumerate(seg):
            out[i] = tiles[k] if k < n else EMPTY
    return out


@lru_cache(maxsize=1024)
def _segments(
    width: int, height: int, direction: str, walls: tuple[int, ...]
) -> tuple[tuple[int, ...], ...]:
    """The wall-free runs of cells tiles pack along, each listed from its packing end."""
    wall = set(walls)
    lines: list[list[int]] = []
    if direction in ("down", "up"):
        for x in range(width):
            col = [y * width + x for y in range(height)]
            lines.append(col[::-1] if direction == "down" else col)
    elif direction in ("left", "right"):
        for y in range(height):
            row = [y * width + x for x in range(width)]
            lines.append(row if direction == "left" else row[::-1])
    else:  # center, apart: the middle column of an odd width belongs to the left half
        split = (width + 1) // 2
        for y in range(height):
            left = [y * width + x for x in range(split)]
            right = [y * width + x for x in range(split, width)]
            if direction == "center":
                lines += [left[::-1], right]
            else:
                lines += [left, right[::-1]]
    segments: list[tuple[int, ...]] = []
    for line in lines:
        run: list[int] = []
        for i in line:
            if i in wall:
                if len(run) > 1:
                    segments.append(tuple(run))
                run = []
            else:
                run.append(i)
        if len(run) > 1:
            segments.append(tuple(run))
    return tuple(segments)


# ----- corners ---------------------------------------------------------------------------------


def _slide_corner(cells: list[int], width: int, height: int, dx: int, dy: int) -> list[int]:
    """Rounds of one-cell steps toward the corner ``(dx, dy)`` (see the module docstring)."""
    out = list(cells)
    rows = range(height - 1, -1, -1) if dy > 0 else range(height)
    cols = list(range(width - 1, -1, -1) if dx > 0 else range(width))
    order = [y * width + x for y in rows for x in cols]
    ny_ok = [0 <= y + dy < height for y in range(height)]
    nx_ok = [0 <= x + dx < width for x in range(width)]
    diag, vert, horiz = dy * width + dx, dy * width, dx
    moved = True
    while moved:
        moved = False
        for i in order:
            v = out[i]
            if v <= 0:
                continue
            y, x = divmod(i, width)
            vy, hx = ny_ok[y], nx_ok[x]
            if vy and hx and out[i + diag] == EMPTY:
                j = i + diag
            elif vy and out[i + vert] == EMPTY:
                j = i + vert
            elif hx and out[i + horiz] == EMPTY:
                j = i + horiz
            else:
                continue
            out[j] = v
            out[i] = EMPTY
            moved = True
    return out


@lru_cache(maxsize=1024)
def _segment_index(
    width: int, height: int, direction: str, walls: tuple[int, ...]
) -> dict[int, tuple[int, ...]]:
    """For each cell of a segment (see :func:`_segments`), its segment."""
    return {i: seg for seg in _segments(width, height, direction, walls) for i in seg}
