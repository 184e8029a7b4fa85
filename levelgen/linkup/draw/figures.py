"""Drawing helpers for the built-in tile pictures (:mod:`levelgen.linkup.draw.icons`): parts
of a figure in its 100 x 100 box (:class:`levelgen.formats.scene.Part`) and the outlines of
common shapes (arcs, regular polygons, stars, leaves, hearts) as points.  Pure: coordinates
are rounded to a tenth, so the same call gives the same figure."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

from ...formats.scene import INK, Part

__all__ = ["arc", "blob", "heart", "lens", "line", "ngon", "oval", "poly", "star"]

K = INK

Pt = tuple[float, float]


def _r(v: float) -> float:
    return round(v, 1)


def poly(fill: str, pts: Iterable[Pt], outline: bool = True) -> Part:
    return Part("poly", tuple((_r(x), _r(y)) for x, y in pts), fill, outline=outline)


def oval(fill: str, cx: float, cy: float, rx: float, ry: float | None = None) -> Part:
    return Part("oval", ((cx, cy), (rx, rx if ry is None else ry)), fill, outline=fill != K)


def line(fill: str, width: float, pts: Iterable[Pt]) -> Part:
    return Part("line", tuple((_r(x), _r(y)) for x, y in pts), fill, width=width)


def arc(cx: float, cy: float, rx: float, ry: float, a0: float, a1: float, n: int = 16) -> list[Pt]:
    """Points on an ellipse from angle ``a0`` to ``a1`` (degrees; y grows downward)."""
    out = []
    for i in range(n + 1):
        a = math.radians(a0 + (a1 - a0) * i / n)
        out.append((cx + rx * math.cos(a), cy + ry * math.sin(a)))
    return out


def ngon(cx: float, cy: float, r: float, n: int, turn: float = -90) -> list[Pt]:
    return arc(cx, cy, r, r, turn, turn + 360, n)[:-1]


def star(cx: float, cy: float, r1: float, r2: float, n: int) -> list[Pt]:
    out = []
    for i in range(2 * n):
        a = math.radians(-90 + 180 * i / n)
        r = r1 if i % 2 == 0 else r2
        out.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return out


def lens(x0: float, y0: float, x1: float, y1: float, width: float, n: int = 10) -> list[Pt]:
    """A leaf shape from ``(x0, y0)`` to ``(x1, y1)``, ``width`` across at its middle."""
    dx, dy = x1 - x0, y1 - y0
    length = math.hypot(dx, dy)
    nx, ny = -dy / length, dx / length
    side = []
    for i in range(n + 1):
        t = i / n
        off = width / 2 * math.sin(math.pi * t)
        side.append((x0 + dx * t + nx * off, y0 + dy * t + ny * off))
    back = []
    for i in range(n - 1, 0, -1):
        t = i / n
        off = width / 2 * math.sin(math.pi * t)
        back.append((x0 + dx * t - nx * off, y0 + dy * t - ny * off))
    return side + back


def blob(fill: str, circles: Sequence[tuple[float, float, float]]) -> list[Part]:
    """Overlapping discs drawn as one shape: an ink disc under each, then the fills."""
    under = [Part("oval", ((x, y), (r + 1.75, r + 1.75)), K, outline=False) for x, y, r in circles]
    over = [
        Part("oval", ((x, y), (r - 1.75, r - 1.75)), fill, outline=False) for x, y, r in circles
    ]
    return under + over


def heart(cx: float, cy: float, s: float, down: bool = False) -> list[Pt]:
    """A heart (``down``: upside down, a spade's blade)."""
    flip = -1 if down else 1
    out = []
    for i in range(32):
        t = 2 * math.pi * i / 32
        x = 16 * math.sin(t) ** 3
        y = 13 * math.cos(t) - 5 * math.cos(2 * t) - 2 * math.cos(3 * t) - math.cos(4 * t)
        out.append((cx + x * s, cy - flip * y * s))
    return out
