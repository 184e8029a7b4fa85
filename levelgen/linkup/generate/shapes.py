"""Named shapes: the layouts ``levelgen create --shape NAME`` takes and ``levelgen shapes`` lists.

Each shape is a layout file (``o`` a tile cell, ``.`` a hole, one line per row) in the
repository's ``levels/shapes/``; the package carries a copy of that folder
(``levelgen/linkup/generate/shapes/``, package data, so an installed levelgen finds them; a
test keeps the two the same byte for byte).  Every shape is symmetric: :func:`shape_info` says
which symmetry it has (``both``, ``mirror`` or ``rotate``), and its tile count is a multiple of
4 so that the default 4 copies give every kind 4 tiles.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import resources

from .generator import parse_layout
from .symmetry import board_symmetry

__all__ = ["ShapeInfo", "UnknownShape", "shape_info", "shape_names", "shape_text"]


class UnknownShape(ValueError):
    """No shape of that name: the message lists the shapes."""


@dataclass(frozen=True, slots=True)
class ShapeInfo:
    """A shape: its name, size, tile count and the symmetry its layout has."""

    name: str
    width: int
    height: int
    tiles: int
    symmetry: str


def _folder() -> resources.abc.Traversable:
    return resources.files(__package__ or "levelgen.linkup.generate") / "shapes"


@cache
def shape_names() -> tuple[str, ...]:
    """The names of the shapes, sorted."""
    return tuple(
        sorted(f.name.removesuffix(".txt") for f in _folder().iterdir() if f.name.endswith(".txt"))
    )


def shape_text(name: str) -> str:
    """The layout text of shape ``name``; ``UnknownShape`` when there is none."""
    if name not in shape_names():
        raise UnknownShape(f"{name!r} is not a shape (shapes: {', '.join(shape_names())})")
    return (_folder() / f"{name}.txt").read_text(encoding="utf-8")


def shape_info(name: str) -> ShapeInfo:
    """What ``levelgen shapes`` shows of shape ``name``."""
    board = parse_layout(shape_text(name))
    symmetry = board_symmetry(board, kinds=False)
    return ShapeInfo(name, board.width, board.height, board.tile_count(), symmetry)
