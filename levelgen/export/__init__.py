"""Exports for game engines: Tiled JSON maps with their tileset (``tiled``), and bare grids as
CSV or JSON (``grid``) for engines without a Tiled importer.  Pure functions from a family's
:class:`~levelgen.formats.grid.ExportGrid` to file contents; the command line writes them."""

from __future__ import annotations

from .grid import NoGridError, grid_csv, grid_json
from .tiled import TILE_SIZE, map_data, shared_tiles, tileset_data, tileset_png

__all__ = [
    "TILE_SIZE",
    "NoGridError",
    "grid_csv",
    "grid_json",
    "map_data",
    "shared_tiles",
    "tileset_data",
    "tileset_png",
]
