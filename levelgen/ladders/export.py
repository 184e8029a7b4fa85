"""Snakes-and-ladders levels for engine exports (:meth:`levelgen.puzzles.Family.export_grid`).

The tile layer ``squares`` holds a tile per square, numbered boustrophedon from the bottom left
as ``render`` draws them: a cell's gid is its square's number.  The tileset holds squares
``1..N`` (class ``square``, the last ``goal``; property ``square``), each with its number, shaded
in a checkerboard by its parity.  The object layer ``jumps`` holds a polyline per ladder
(class ``ladder``) and snake (class ``snake``) from the centre of its start square to the
centre of its end square, with properties ``start`` and ``end`` (squares).  The map's
properties: ``game``, ``faces``, ``overshoot``.  The flat grid (CSV, JSON) is the square
numbers; the JSON grid adds the rules and the ladders and snakes as ``[start, end]`` pairs.
"""

from __future__ import annotations

from ..formats.grid import (
    ExportGrid,
    ExportLayer,
    ExportObject,
    ExportObjectLayer,
    ExportTile,
    Property,
)
from ..formats.scene import Rect, Scene, Text
from .draw import GOAL, SHADES
from .files import GAME, Level, content_id, rules_data
from .rules import square_cell

__all__ = ["TILE_SIZE", "export_grid"]

TILE_SIZE = 32
LEGEND = "each cell its square's number (1 at the bottom left, rows alternating in direction)"


def _tile(square: int, last: int) -> ExportTile:
    size = max(9, TILE_SIZE // 4)
    fill = GOAL if square == last else SHADES[(square + 1) % 2]
    picture = Scene(
        TILE_SIZE,
        TILE_SIZE,
        (
            Rect(0, 0, TILE_SIZE, TILE_SIZE, fill, "#BBBBBB", 1),
            Text(3, size // 2 + 3, str(square), size, anchor="start"),
        ),
    )
    return ExportTile("goal" if square == last else "square", {"square": square}, picture)


def export_grid(level: Level) -> ExportGrid:
    """The level's layers, tileset, jumps, properties and flat grid (see the module
    docstring)."""
    board, rules = level.board, level.rules
    width, height, last = board.width, board.height, board.squares
    cells = [0] * last
    for square in range(1, last + 1):
        x, y = square_cell(square, width, height)
        cells[y * width + x] = square

    def centre(square: int) -> tuple[float, float]:
        x, y = square_cell(square, width, height)
        return x + 0.5, y + 0.5

    jumps = tuple(
        ExportObject(f"{klass} {a}-{b}", klass, (centre(a), centre(b)), {"start": a, "end": b})
        for klass, pairs in (("ladder", board.ladders), ("snake", board.snakes))
        for a, b in pairs
    )
    properties: dict[str, Property] = {
        "game": GAME,
        "faces": rules.faces,
        "overshoot": rules.overshoot,
    }
    return ExportGrid(
        width=width,
        height=height,
        layers=(ExportLayer("squares", tuple(cells)),),
        tiles=tuple(_tile(square, last) for square in range(1, last + 1)),
        grid=tuple(tuple(cells[y * width : (y + 1) * width]) for y in range(height)),
        legend=LEGEND,
        properties=properties,
        objects=(ExportObjectLayer("jumps", jumps),),
        fields={
            "game": GAME,
            "rules": rules_data(rules),
            "ladders": [list(j) for j in board.ladders],
            "snakes": [list(j) for j in board.snakes],
        },
        id=content_id(board, rules),
        tile_size=TILE_SIZE,
    )
