"""Geometry of the board: positions, directions and sizes.

Everything here is a small immutable value.  A position is ``Pos(x, y)``: ``x`` is the column
counted from the left, ``y`` the row counted from the top.  Ring cells (the virtual empty frame one
cell wide around a board of ``W x H``) have ``x == -1``, ``x == W``, ``y == -1`` or ``y == H``.
Sizes are written ``WxH`` (``12x8`` is 12 columns wide and 8 rows tall).
"""

from __future__ import annotations

import re
from enum import Enum
from typing import NamedTuple

__all__ = ["MAX_SIDE", "Direction", "Pos", "Size", "format_size", "parse_size"]

#: The largest width or height accepted anywhere (files, CLI, API).
MAX_SIDE = 64


class Pos(NamedTuple):
    """A cell: ``x`` is the column from the left, ``y`` the row from the top."""

    x: int
    y: int

    def __str__(self) -> str:
        return f"[{self.x}, {self.y}]"


class Direction(Enum):
    """The four unit steps, in the tie-break order used for best paths."""

    UP = (0, -1)
    RIGHT = (1, 0)
    DOWN = (0, 1)
    LEFT = (-1, 0)

    @property
    def dx(self) -> int:
        dx: int = self.value[0]
        return dx

    @property
    def dy(self) -> int:
        dy: int = self.value[1]
        return dy

    @property
    def is_horizontal(self) -> bool:
        return self.dy == 0

    def step(self, pos: Pos, n: int = 1) -> Pos:
        """The position ``n`` steps from ``pos`` in this direction."""
        return Pos(pos.x + n * self.dx, pos.y + n * self.dy)


class Size(NamedTuple):
    """A board size: ``width`` columns by ``height`` rows."""

    width: int
    height: int

    def __str__(self) -> str:
        return format_size(self)

    @property
    def cells(self) -> int:
        return self.width * self.height


_SIZE_RE = re.compile(r"\s*([0-9]+)\s*[xX]\s*([0-9]+)\s*")  # ASCII digits only


def parse_size(text: str) -> Size:
    """Parse ``"12x8"`` into ``Size(12, 8)``.

    Raises ``ValueError`` with a message naming the problem when the text is not ``WxH`` with
    ``1 <= W, H <= MAX_SIDE``.

    >>> parse_size("12x8")
    Size(width=12, height=8)
    """
    match = _SIZE_RE.fullmatch(text)
    if match is None:
        raise ValueError(f"size {text!r} is not of the form WxH, for example 12x8")
    width, height = int(match.group(1)), int(match.group(2))
    for name, value in (("width", width), ("height", height)):
        if not 1 <= value <= MAX_SIDE:
            raise ValueError(f"{name} {value} in size {text!r} is out of range 1..{MAX_SIDE}")
    return Size(width, height)


def format_size(size: Size) -> str:
    """Format ``Size(12, 8)`` as ``"12x8"``."""
    return f"{size.width}x{size.height}"
