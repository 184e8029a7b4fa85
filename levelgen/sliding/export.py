"""Sliding-puzzle levels for engine exports (:meth:`levelgen.puzzles.Family.export_grid`).

Tile layers: ``start`` (the frame a player starts from: a position's frame now) and ``goal``
(hidden: the frame to reach).  A cell's gid is its tile's label, 0 for the blank (no tile).  The
tileset holds a numbered puzzle's tiles ``1..N-1`` (class ``tile``, property ``number``) or a
colour puzzle's colours (class ``colour``, properties ``label``, ``colour`` as ``#RRGGBB`` and
``letter``), drawn as ``render`` draws them.  The map's properties: ``game``, ``kind``
(numbered or colour) and ``optimal_length`` when the level states it.  The flat grid (CSV,
JSON) is the start frame's labels, 0 the blank; the JSON grid adds the goal's rows and, for a
colour puzzle, each label's colour.
"""

from __future__ import annotations

from ..formats.grid import ExportGrid, ExportLayer, ExportTile, Property
from ..formats.scene import Scene
from .draw import label_glyph, tile_colour, tile_shape
from .level import SlidingLevel
from .rules import BLANK
from .schema import GAME

__all__ = ["TILE_SIZE", "export_grid"]

TILE_SIZE = 32


def _tile(label: int, numbered: bool) -> ExportTile:
    picture = Scene(TILE_SIZE, TILE_SIZE, (tile_shape(label, 0, 0, TILE_SIZE, numbered),))
    if numbered:
        return ExportTile("tile", {"number": label}, picture)
    properties: dict[str, Property] = {
        "label": label,
        "colour": tile_colour(label),
        "letter": label_glyph(label, False),
    }
    return ExportTile("colour", properties, picture)


def export_grid(level: SlidingLevel) -> ExportGrid:
    """The level's layers, tileset, properties and flat grid (see the module docstring)."""
    start, goal, numbered = level.frame_now(), level.goal, level.numbered
    top = max(goal.cells)
    properties: dict[str, Property] = {"game": GAME, "kind": level.kind}
    if level.metrics is not None:
        properties["optimal_length"] = level.metrics.optimal_length
    fields: dict[str, object] = {"game": GAME, "kind": level.kind}
    fields["goal"] = goal.rows()
    if not numbered:
        fields["colours"] = {str(k): tile_colour(k) for k in range(1, top + 1)}
    legend = (
        "each cell its tile's number, 0 the blank"
        if numbered
        else "each cell its tile's colour label (the JSON grid's colours), 0 the blank"
    )
    return ExportGrid(
        width=level.width,
        height=level.height,
        layers=(
            ExportLayer("start", tuple(start.cells)),
            ExportLayer("goal", tuple(goal.cells), visible=False),
        ),
        tiles=tuple(_tile(k, numbered) for k in range(1, top + 1) if k != BLANK),
        grid=tuple(tuple(row) for row in start.rows()),
        legend=legend,
        properties=properties,
        fields=fields,
        id=level.content_id,
        tile_size=TILE_SIZE,
    )
