"""Tiled JSON maps (``.tmj``) with their tileset (``.tsj`` and a PNG image), as read by the
Tiled map editor and the importers of Phaser, Godot, Defold and Unity.

The map is orthogonal with one tile layer, ``board``, of the board's size.  Its ``data`` holds a
global tile id (gid) per cell in row order: ``0`` for a hole (no tile), ``1`` for a wall and
``k + 1`` for a tile of kind ``k`` (the tileset starts at ``firstgid`` 1; its tile ``0`` is the
wall, tile ``k`` the kind ``k``).  Each tile of the tileset has the class ``wall`` or ``tile``
and an int property ``kind`` (-1 for the wall), so a game never needs the numbering above.
The map's properties carry the level's ``id`` (the content id of its board and rules, the key
to its certificate), ``max_turns`` and ``outside``, and the name of the level file it came
from when known.  The tileset image is drawn by the renderer (:mod:`levelgen.linkup.draw.svg`
shapes, Pillow), tiles in rows of :data:`TILESET_COLUMNS`.
"""

from __future__ import annotations

from typing import Any

from ..formats.scene import Scene, Shape
from ..linkup import EMPTY, WALL, Level, cell_shapes

__all__ = ["TILESET_COLUMNS", "TILE_SIZE", "gid_of", "map_data", "tileset_data", "tileset_png"]

TILE_SIZE = 32
TILESET_COLUMNS = 8
TILED_VERSION = "1.10"


def gid_of(value: int) -> int:
    """The gid of a cell value: 0 for a hole, 1 for a wall, ``k + 1`` for kind ``k``."""
    if value == EMPTY:
        return 0
    return 1 if value == WALL else value + 1


def _prop(name: str, kind: str, value: object) -> dict[str, Any]:
    return {"name": name, "type": kind, "value": value}


def map_data(
    level: Level,
    *,
    tileset: str,
    tile_size: int = TILE_SIZE,
    level_file: str | None = None,
) -> dict[str, Any]:
    """The Tiled map of ``level`` whose tileset is the file ``tileset`` (a path relative to the
    map).  Variants: one tile layer per board layer (``board``, then ``layer 1``, ...; gid 0
    where a stack is lower), and a ``slide`` map property for a sliding rule."""
    from ..linkup import content_id

    board = level.board
    properties = [
        _prop("id", "string", content_id(board, level.rules)),
        _prop("max_turns", "int", level.rules.max_turns),
        _prop("outside", "bool", level.rules.outside),
    ]
    if level.rules.slide != "none":
        properties.append(_prop("slide", "string", level.rules.slide))
    if board.upper:
        properties.append(_prop("layers", "int", len(board.upper) + 1))
    if level_file is not None:
        properties.append(_prop("level_file", "file", level_file))
    layers = [
        {
            "id": i + 1,
            "name": "board" if i == 0 else f"layer {i}",
            "type": "tilelayer",
            "x": 0,
            "y": 0,
            "width": board.width,
            "height": board.height,
            "opacity": 1,
            "visible": True,
            "data": [gid_of(v) for v in cells],
        }
        for i, cells in enumerate((board.cells, *board.upper))
    ]
    return {
        "type": "map",
        "version": TILED_VERSION,
        "orientation": "orthogonal",
        "renderorder": "right-down",
        "infinite": False,
        "width": board.width,
        "height": board.height,
        "tilewidth": tile_size,
        "tileheight": tile_size,
        "nextlayerid": len(layers) + 1,
        "nextobjectid": 1,
        "compressionlevel": -1,
        "properties": properties,
        "layers": layers,
        "tilesets": [{"firstgid": 1, "source": tileset}],
    }


def _image_size(max_kind: int, tile_size: int) -> tuple[int, int, int]:
    count = max_kind + 1
    columns = min(TILESET_COLUMNS, count)
    rows = -(-count // columns)
    return columns, columns * tile_size, rows * tile_size


def tileset_data(max_kind: int, *, image: str, tile_size: int = TILE_SIZE) -> dict[str, Any]:
    """The tileset of a wall and kinds ``1..max_kind`` whose image is the file ``image``."""
    columns, width, height = _image_size(max_kind, tile_size)
    tiles = [{"id": 0, "type": "wall", "properties": [_prop("kind", "int", WALL)]}]
    tiles += [
        {"id": k, "type": "tile", "properties": [_prop("kind", "int", k)]}
        for k in range(1, max_kind + 1)
    ]
    return {
        "type": "tileset",
        "version": TILED_VERSION,
        "name": "levelgen",
        "tilewidth": tile_size,
        "tileheight": tile_size,
        "tilecount": max_kind + 1,
        "columns": columns,
        "margin": 0,
        "spacing": 0,
        "image": image,
        "imagewidth": width,
        "imageheight": height,
        "tiles": tiles,
    }


def tileset_png(max_kind: int, *, tile_size: int = TILE_SIZE) -> bytes:
    """The tileset image: the wall, then kinds ``1..max_kind``, in rows, transparent nowhere
    (a white ground)."""
    from ..render.png import scene_to_png

    columns, width, height = _image_size(max_kind, tile_size)
    items: list[Shape] = []
    for tile, value in enumerate([WALL, *range(1, max_kind + 1)]):
        px, py = (tile % columns) * tile_size, (tile // columns) * tile_size
        items.extend(cell_shapes(value, px, py, tile_size))
    return scene_to_png(Scene(width, height, tuple(items)))
