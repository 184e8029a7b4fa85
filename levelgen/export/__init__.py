"""Exports for game engines: Tiled JSON maps with their tileset (``tiled``), and bare grids as
CSV or JSON (``grid``) for engines without a Tiled importer.  Pure functions from a level to
file contents; the command line writes them."""

from __future__ import annotations

from .grid import grid_csv, grid_json
from .tiled import TILE_SIZE, gid_of, map_data, tileset_data, tileset_png

__all__ = [
    "TILE_SIZE",
    "gid_of",
    "grid_csv",
    "grid_json",
    "map_data",
    "tileset_data",
    "tileset_png",
]
