"""Tiled JSON maps (``.tmj``) with their tileset (``.tsj`` and a PNG image), as read by the
Tiled map editor and the importers of Phaser, Godot, Defold and Unity, for a level of any
family that exports (:meth:`levelgen.puzzles.Family.export_grid`).

The map is orthogonal with the family's tile layers (Link-up: ``board``, then one per stacked
layer; a sliding puzzle: ``start`` and the hidden ``goal``; snakes and ladders: ``squares``) and
its object layers (snakes and ladders: ``jumps``, a polyline per jump).  A layer's ``data`` holds
a global tile id (gid) per cell in row order: ``0`` for no tile, ``t`` for the tileset's tile
``t - 1`` (the tileset starts at ``firstgid`` 1).  Each tile of the tileset has its family's
class (``wall``, ``tile``, ``square``, ...) and properties (``kind``, ``number``,
``square``), so a game never needs the numbering.  The map's properties carry the level's
``id`` (the key to its certificate), the family's own (rules, game) and the name of the level
file it came from when known.  The tileset image holds each tile's picture (drawn by the
renderer, :mod:`levelgen.render.png`) in rows of :data:`TILESET_COLUMNS`.

A pack's maps share one tileset: the tiles of all its levels, each class and properties once
(:func:`shared_tiles`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..formats.grid import ExportGrid, ExportObjectLayer, ExportTile, Property
from ..formats.scene import Group, Rect, Scene, Shape

__all__ = [
    "TILESET_COLUMNS",
    "TILE_SIZE",
    "map_data",
    "shared_tiles",
    "tileset_data",
    "tileset_png",
]

TILE_SIZE = 32
TILESET_COLUMNS = 8
TILED_VERSION = "1.10"


def _type(value: Property) -> str:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    return "float" if isinstance(value, float) else "string"


def _prop(name: str, kind: str, value: object) -> dict[str, Any]:
    return {"name": name, "type": kind, "value": value}


def _props(properties: Mapping[str, Property]) -> list[dict[str, Any]]:
    return [_prop(name, _type(value), value) for name, value in properties.items()]


def _objects(layers: Sequence[ExportObjectLayer], first_id: int, tile: int) -> list[Any]:
    """The object layers, their objects numbered from 1, points from cells to pixels."""
    found, number = [], 1
    for i, layer in enumerate(layers):
        objects = []
        for item in layer.objects:
            (x0, y0), *_ = item.points
            points = [
                {"x": round((x - x0) * tile, 3), "y": round((y - y0) * tile, 3)}
                for x, y in item.points
            ]
            objects.append(
                {
                    "id": number,
                    "name": item.name,
                    "type": item.klass,
                    "x": round(x0 * tile, 3),
                    "y": round(y0 * tile, 3),
                    "width": 0,
                    "height": 0,
                    "rotation": 0,
                    "visible": True,
                    "polyline": points,
                    "properties": _props(item.properties),
                }
            )
            number += 1
        found.append(
            {
                "id": first_id + i,
                "name": layer.name,
                "type": "objectgroup",
                "draworder": "topdown",
                "x": 0,
                "y": 0,
                "opacity": 1,
                "visible": True,
                "objects": objects,
            }
        )
    return found


def map_data(
    grid: ExportGrid,
    *,
    tileset: str,
    level_file: str | None = None,
    gids: Sequence[int] | None = None,
) -> dict[str, Any]:
    """The Tiled map of ``grid`` whose tileset is the file ``tileset`` (a path relative to the
    map); ``gids``: the gid of each of the grid's tiles in a shared tileset (by default
    its own: tile ``t - 1`` is gid ``t``)."""
    properties = [_prop("id", "string", grid.id)] if grid.id else []
    properties += _props(grid.properties)
    if level_file is not None:
        properties.append(_prop("level_file", "file", level_file))

    def gid(cell: int) -> int:
        return cell if gids is None or cell == 0 else gids[cell - 1]

    layers: list[Any] = [
        {
            "id": i + 1,
            "name": layer.name,
            "type": "tilelayer",
            "x": 0,
            "y": 0,
            "width": grid.width,
            "height": grid.height,
            "opacity": 1,
            "visible": layer.visible,
            "data": [gid(c) for c in layer.cells],
        }
        for i, layer in enumerate(grid.layers)
    ]
    layers += _objects(grid.objects, len(layers) + 1, grid.tile_size)
    objects = sum(len(layer.objects) for layer in grid.objects)
    return {
        "type": "map",
        "version": TILED_VERSION,
        "orientation": "orthogonal",
        "renderorder": "right-down",
        "infinite": False,
        "width": grid.width,
        "height": grid.height,
        "tilewidth": grid.tile_size,
        "tileheight": grid.tile_size,
        "nextlayerid": len(layers) + 1,
        "nextobjectid": objects + 1,
        "compressionlevel": -1,
        "properties": properties,
        "layers": layers,
        "tilesets": [{"firstgid": 1, "source": tileset}],
    }


def _key(tile: ExportTile) -> tuple[str, tuple[tuple[str, str, Property], ...]]:
    return tile.klass, tuple((k, _type(v), v) for k, v in tile.properties.items())


def shared_tiles(grids: Sequence[ExportGrid]) -> tuple[list[ExportTile], list[list[int]]]:
    """One tileset for several levels: their tiles in order of first use, each class and
    properties once, and for each grid the gid of each of its tiles in that tileset."""
    tiles: list[ExportTile] = []
    index: dict[object, int] = {}
    gids = []
    for grid in grids:
        mine = []
        for tile in grid.tiles:
            key = _key(tile)
            if key not in index:
                index[key] = len(tiles)
                tiles.append(tile)
            mine.append(index[key] + 1)
        gids.append(mine)
    return tiles, gids


def _image_size(count: int, tile_size: int) -> tuple[int, int, int]:
    columns = min(TILESET_COLUMNS, count)
    rows = -(-count // columns)
    return columns, columns * tile_size, rows * tile_size


def tileset_data(
    tiles: Sequence[ExportTile], *, image: str, tile_size: int = TILE_SIZE
) -> dict[str, Any]:
    """The tileset of ``tiles`` whose image is the file ``image``."""
    columns, width, height = _image_size(len(tiles), tile_size)
    return {
        "type": "tileset",
        "version": TILED_VERSION,
        "name": "levelgen",
        "tilewidth": tile_size,
        "tileheight": tile_size,
        "tilecount": len(tiles),
        "columns": columns,
        "margin": 0,
        "spacing": 0,
        "image": image,
        "imagewidth": width,
        "imageheight": height,
        "tiles": [
            {"id": i, "type": tile.klass, "properties": _props(tile.properties)}
            for i, tile in enumerate(tiles)
        ],
    }


def tileset_png(tiles: Sequence[ExportTile], *, tile_size: int = TILE_SIZE) -> bytes:
    """The tileset image: each tile's picture in turn, in rows, transparent nowhere (a white
    ground)."""
    from ..render.png import scene_to_png

    columns, width, height = _image_size(len(tiles), tile_size)
    items: list[Shape] = []
    for i, tile in enumerate(tiles):
        px, py = (i % columns) * tile_size, (i // columns) * tile_size
        picture = tile.picture
        if picture.background.upper() != "#FFFFFF":
            items.append(Rect(px, py, tile_size, tile_size, picture.background))
        items.append(Group(picture.items, dx=px, dy=py))
    return scene_to_png(Scene(width, height, tuple(items)))
