"""What engine exports are made of, for every family: tile layers over a grid and a tileset.

A family's :meth:`levelgen.puzzles.Family.export_grid` gives an :class:`ExportGrid`; the export
edge (:mod:`levelgen.export`) writes it as a Tiled map and tileset, or as a bare CSV or JSON grid,
without knowing the game.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from .scene import Scene

__all__ = ["ExportGrid", "ExportLayer", "ExportTile", "Property"]

#: A map or tile property value (Tiled's bool, int, float and string types).
Property = bool | int | float | str


@dataclass(frozen=True, slots=True)
class ExportTile:
    """One tile of the tileset: its class (``wall``, ``tile``, ...), its properties (``kind``)
    and its picture, one cell drawn as a scene."""

    klass: str
    properties: Mapping[str, Property]
    picture: Scene


@dataclass(frozen=True, slots=True)
class ExportLayer:
    """A tile layer: its name and a tile per cell in row order (0: none; ``t``: the tileset's
    tile ``t - 1``)."""

    name: str
    cells: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class ExportGrid:
    """A level for engines: its size, tile layers and tileset, the plain grid of numbers a CSV
    or JSON export writes (one row per board row) with the legend of those numbers, and the
    map's properties (the level's id, its rules)."""

    width: int
    height: int
    layers: tuple[ExportLayer, ...]
    tiles: tuple[ExportTile, ...]
    grid: tuple[tuple[int, ...], ...]
    legend: str
    properties: Mapping[str, Property] = field(default_factory=dict)
