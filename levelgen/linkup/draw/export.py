"""Link-up levels for engine exports (:meth:`levelgen.puzzles.Family.export_grid`).

Tile layers: ``board``, then ``layer 1``, ... for a board of stacked layers (gid 0 where a
stack is lower).  The tileset holds the wall (class ``wall``, ``kind`` -1) and kinds
``1..K`` (class ``tile``, ``kind`` k), K the level's largest kind: a cell's gid is 0 for a
hole, 1 for a wall and ``k + 1`` for kind ``k``.  The map's properties: ``max_turns``,
``outside``, and ``slide`` and ``layers`` for the variants.  The flat grid (CSV, JSON) holds
the cells as numbers (a kind >= 1, 0 a hole, -1 a wall) with the rules; a sliding or stacked
level has none (the Tiled map holds it).
"""

from __future__ import annotations

from ...formats.grid import ExportGrid, ExportLayer, ExportTile, Property
from ...formats.problems import Problem
from ...formats.scene import Scene
from ..core.board import EMPTY, WALL
from ..core.level import Level
from ..core.variant_support import variant_problem
from ..schema.quick import content_id
from .svg import cell_shapes

__all__ = ["TILE_SIZE", "export_grid", "gid_of"]

TILE_SIZE = 32
LEGEND = "a kind >= 1, 0 a hole, -1 a wall"


def gid_of(value: int) -> int:
    """The gid of a cell value: 0 for a hole, 1 for a wall, ``k + 1`` for kind ``k``."""
    if value == EMPTY:
        return 0
    return 1 if value == WALL else value + 1


def _tile(value: int) -> ExportTile:
    picture = Scene(TILE_SIZE, TILE_SIZE, tuple(cell_shapes(value, 0, 0, TILE_SIZE)))
    if value == WALL:
        return ExportTile("wall", {"kind": WALL}, picture)
    return ExportTile("tile", {"kind": value}, picture)


def export_grid(level: Level) -> ExportGrid:
    """The level's layers, tileset (the wall and kinds 1 to its largest), properties and
    flat grid (see the module docstring)."""
    board, rules = level.board, level.rules
    top = max(1, max(max(cells) for cells in (board.cells, *board.upper)))
    properties: dict[str, Property] = {"max_turns": rules.max_turns, "outside": rules.outside}
    if rules.slide != "none":
        properties["slide"] = rules.slide
    if board.upper:
        properties["layers"] = len(board.upper) + 1
    layers = tuple(
        ExportLayer("board" if i == 0 else f"layer {i}", tuple(gid_of(v) for v in cells))
        for i, cells in enumerate((board.cells, *board.upper))
    )
    found = variant_problem(board, rules, "a flat grid")
    grid = None if found else tuple(tuple(row) for row in board.grid())
    return ExportGrid(
        width=board.width,
        height=board.height,
        layers=layers,
        tiles=tuple(_tile(v) for v in (WALL, *range(1, top + 1))),
        grid=grid,
        legend=LEGEND,
        properties=properties,
        fields={"rules": {"max_turns": rules.max_turns, "outside": rules.outside}},
        id=content_id(board, rules),
        tile_size=TILE_SIZE,
        no_grid=Problem(*found) if found else None,
    )
