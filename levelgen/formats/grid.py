"""What engine exports are made of, for every family: tile layers over a grid and a tileset.

A family's :meth:`levelgen.puzzles.Family.export_grid` gives an :class:`ExportGrid`; the export
edge (:mod:`levelgen.export`) writes it as a Tiled map and tileset, or as a bare CSV or JSON grid,
without knowing the game.  Tiles are told apart by their class and properties: two levels of a
family whose tiles have the same class and properties share that tile (and its picture) in a
pack's one tileset.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .problems import Problem
from .scene import Scene

__all__ = [
    "ExportGrid",
    "ExportLayer",
    "ExportObject",
    "ExportObjectLayer",
    "ExportTile",
    "Property",
]

#: A map or tile property value (Tiled's bool, int, float and string types).
Property = bool | int | float | str


@dataclass(frozen=True, slots=True)
class ExportTile:
    """One tile of the tileset: its class (``wall``, ``tile``, ...), its properties (``kind``)
    and its picture, one cell drawn as a scene of the grid's ``tile_size`` square."""

    klass: str
    properties: Mapping[str, Property]
    picture: Scene


@dataclass(frozen=True, slots=True)
class ExportLayer:
    """A tile layer: its name and a tile per cell in row order (0: none; ``t``: the tileset's
    tile ``t - 1``); a hidden layer (``visible`` false) is data for the game, not drawn."""

    name: str
    cells: tuple[int, ...]
    visible: bool = True


@dataclass(frozen=True, slots=True)
class ExportObject:
    """A polyline over the map (a snake, a ladder): its name, class, points in cells (``(0.5,
    0.5)`` the centre of the top left cell) and properties."""

    name: str
    klass: str
    points: tuple[tuple[float, float], ...]
    properties: Mapping[str, Property] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ExportObjectLayer:
    """An object layer: its name and objects, drawn above the tile layers."""

    name: str
    objects: tuple[ExportObject, ...]


@dataclass(frozen=True, slots=True)
class ExportGrid:
    """A level for engines: its size, tile layers (and object layers) over a tileset whose
    tiles are ``tile_size`` pixels square, and the map's properties (the level's id, its
    rules), in the order written.

    ``grid`` is the plain grid of numbers a CSV or JSON export writes (one row per board
    row), ``legend`` says in one line what those numbers mean, and ``fields`` are the JSON
    grid's own values (the rules, the goal, the jumps), written between its size and its
    grid.  A level no flat grid can hold has ``grid`` None and ``no_grid`` saying where and
    why (a Link-up board of stacked layers); the Tiled map still holds it."""

    width: int
    height: int
    layers: tuple[ExportLayer, ...]
    tiles: tuple[ExportTile, ...]
    grid: tuple[tuple[int, ...], ...] | None
    legend: str
    properties: Mapping[str, Property] = field(default_factory=dict)
    objects: tuple[ExportObjectLayer, ...] = ()
    fields: Mapping[str, Any] = field(default_factory=dict)
    id: str = ""
    tile_size: int = 32
    no_grid: Problem | None = None
