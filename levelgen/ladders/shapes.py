"""The shapes of snakes and ladders on a drawn board, shared by the picture
(:mod:`levelgen.ladders.draw`) and the browser player (:mod:`levelgen.ladders.player`).

A snake is two cubic Bézier curves from the centre of its head square to the centre of its
tail square, a gentle S: the first bends to one side of the straight line, the second to the
other, and they meet at the midpoint with one tangent (so the curve is smooth there).  The
bend is ``max(cell / 6, min(length / 5, cell / 2))`` to a side, and of the S and its mirror,
each at that bend and at 0.6 and 1.4 times it, the one whose body covers the fewest square
numbers (drawn in each square's top-left corner) is taken, the first of the candidates on a
tie.  The body is drawn in pieces that narrow towards the tail, each piece a part of the
curves (split by de Casteljau's construction); the head is a disc with two eyes looking
away from the body.  A ladder is two rails a third of a cell apart with rungs about half a
cell apart.

Integer pixels for the scene, like every picture; pure and deterministic.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .rules import square_cell

__all__ = [
    "Cubic",
    "SnakeShape",
    "flatten",
    "ladder_lines",
    "number_box",
    "snake_shape",
    "split",
]

FPoint = tuple[float, float]
#: A cubic Bézier curve: its start, two control points and its end.
Cubic = tuple[FPoint, FPoint, FPoint, FPoint]

#: The body's pieces as ``(from, to, width as a share of the full width)`` along the curve
#: (0 the head, 1 the tail).
TAPER = ((0.0, 0.55, 1.0), (0.55, 0.8, 0.8), (0.8, 0.93, 0.6), (0.93, 1.0, 0.4))
_BENDS = (1.0, 0.6, 1.4)


@dataclass(frozen=True, slots=True)
class SnakeShape:
    """A snake as drawn: ``curves`` (the S, head to tail), ``pieces`` (each its part of the
    curves and its width in pixels), the head's centre and radius, and its eyes' centres."""

    curves: tuple[Cubic, Cubic]
    pieces: tuple[tuple[tuple[Cubic, ...], float], ...]
    head: FPoint
    head_radius: float
    eyes: tuple[FPoint, FPoint]
    eye_radius: float


def number_box(
    square: int, width: int, height: int, cell: float, margin: float
) -> tuple[float, float, float, float]:
    """The box ``(x0, y0, x1, y1)`` the number of ``square`` takes in its top-left corner."""
    x, y = square_cell(square, width, height)
    left, top = margin + x * cell, margin + y * cell
    size = max(9.0, cell / 4)
    return left + 2, top + 2, left + 4 + 0.62 * size * len(str(square)), top + 4 + size


def _at(curve: Cubic, t: float) -> FPoint:
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = curve
    u = 1 - t
    a, b, c, d = u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t
    return a * x0 + b * x1 + c * x2 + d * x3, a * y0 + b * y1 + c * y2 + d * y3


def split(curve: Cubic, t: float) -> tuple[Cubic, Cubic]:
    """The curve cut at ``t`` into two cubic curves (de Casteljau)."""
    p0, p1, p2, p3 = curve

    def mix(p: FPoint, q: FPoint) -> FPoint:
        return p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t

    a, b, c = mix(p0, p1), mix(p1, p2), mix(p2, p3)
    d, e = mix(a, b), mix(b, c)
    f = mix(d, e)
    return (p0, a, d, f), (f, e, c, p3)


def _part(curve: Cubic, t0: float, t1: float) -> Cubic:
    """The part of ``curve`` from ``t0`` to ``t1``."""
    if t1 < 1:
        curve = split(curve, t1)[0]
    if t0 > 0:
        curve = split(curve, t0 / t1)[1]
    return curve


def _piece(curves: tuple[Cubic, Cubic], s0: float, s1: float) -> tuple[Cubic, ...]:
    """The part of the S from ``s0`` to ``s1`` (0..1 along both curves, 0.5 where they meet)."""
    out = []
    for i, curve in enumerate(curves):
        low, high = max(s0, i / 2), min(s1, (i + 1) / 2)
        if high > low:
            out.append(_part(curve, 2 * low - i, 2 * high - i))
    return tuple(out)


def flatten(curves: tuple[Cubic, ...], step: float) -> tuple[tuple[int, int], ...]:
    """Points along the curves about ``step`` pixels apart, rounded to whole pixels."""
    points: list[tuple[int, int]] = []
    for curve in curves:
        p0, p1, p2, p3 = curve
        rough = math.dist(p0, p1) + math.dist(p1, p2) + math.dist(p2, p3)
        count = max(2, math.ceil(rough / max(1.0, step)))
        for k in range(0 if not points else 1, count + 1):
            x, y = _at(curve, k / count)
            point = (round(x), round(y))
            if not points or points[-1] != point:
                points.append(point)
    if len(points) == 1:
        points.append(points[0])
    return tuple(points)


def _s_curves(head: FPoint, tail: FPoint, bend: float) -> tuple[Cubic, Cubic]:
    (x0, y0), (x1, y1) = head, tail
    length = math.hypot(x1 - x0, y1 - y0) or 1.0
    nx, ny = -(y1 - y0) / length * bend, (x1 - x0) / length * bend
    dx, dy = (x1 - x0) / 6, (y1 - y0) / 6
    mid = ((x0 + x1) / 2, (y0 + y1) / 2)
    first = (head, (x0 + dx + nx, y0 + dy + ny), (mid[0] - dx + nx, mid[1] - dy + ny), mid)
    second = (mid, (mid[0] + dx - nx, mid[1] + dy - ny), (x1 - dx - nx, y1 - dy - ny), tail)
    return first, second


def _covered(
    curves: tuple[Cubic, Cubic], boxes: dict[tuple[int, int], tuple[float, ...]], reach: float
) -> int:
    """How many sample points of the body lie on a square number (``reach``: half the body)."""
    hits = 0
    for curve in curves:
        for k in range(1, 25):
            x, y = _at(curve, k / 25)
            for box in boxes.values():
                if box[0] - reach <= x <= box[2] + reach and box[1] - reach <= y <= box[3] + reach:
                    hits += 1
                    break
    return hits


def snake_shape(
    head_square: int,
    tail_square: int,
    width: int,
    height: int,
    cell: float,
    margin: float,
) -> SnakeShape:
    """The snake from ``head_square`` down to ``tail_square`` (see the module docstring)."""

    def middle(square: int) -> FPoint:
        x, y = square_cell(square, width, height)
        return margin + x * cell + cell / 2, margin + y * cell + cell / 2

    head, tail = middle(head_square), middle(tail_square)
    length = math.dist(head, tail)
    body = max(3.0, cell / 8)
    bend = max(cell / 6, min(length / 5, cell / 2))
    # The numbers of the squares the snake's box spans, the only ones it can cover.
    (hx, hy), (tx, ty) = (
        square_cell(head_square, width, height),
        square_cell(tail_square, width, height),
    )
    boxes: dict[tuple[int, int], tuple[float, ...]] = {}
    for x in range(min(hx, tx) - 1, max(hx, tx) + 2):
        for y in range(min(hy, ty) - 1, max(hy, ty) + 2):
            if 0 <= x < width and 0 <= y < height:
                row = height - 1 - y
                square = row * width + (x + 1 if row % 2 == 0 else width - x)
                boxes[(x, y)] = number_box(square, width, height, cell, margin)
    best: tuple[int, int, tuple[Cubic, Cubic]] | None = None
    order = 0
    for factor in _BENDS:
        for side in (1.0, -1.0):
            curves = _s_curves(head, tail, side * bend * factor)
            score = _covered(curves, boxes, body / 2)
            if best is None or (score, order) < best[:2]:
                best = (score, order, curves)
            order += 1
    assert best is not None
    curves = best[2]
    pieces = tuple((_piece(curves, s0, s1), body * share) for s0, s1, share in TAPER)
    # The head looks away from the body: along the curve's tangent at the head, reversed.
    (x0, y0), (x1, y1) = curves[0][0], curves[0][1]
    run = math.hypot(x1 - x0, y1 - y0) or 1.0
    fx, fy = (x0 - x1) / run, (y0 - y1) / run
    radius = max(4.0, cell / 6)
    side_x, side_y = -fy * radius * 0.45, fx * radius * 0.45
    ahead_x, ahead_y = fx * radius * 0.3, fy * radius * 0.3
    eyes = (
        (x0 + ahead_x + side_x, y0 + ahead_y + side_y),
        (x0 + ahead_x - side_x, y0 + ahead_y - side_y),
    )
    return SnakeShape(curves, pieces, head, radius, eyes, max(1.5, radius / 4))


def ladder_lines(
    foot: FPoint, top: FPoint, cell: float
) -> tuple[tuple[FPoint, FPoint], tuple[FPoint, FPoint], tuple[tuple[FPoint, FPoint], ...]]:
    """A ladder's two rails and its rungs, each a segment ``(from, to)``."""
    (x0, y0), (x1, y1) = foot, top
    length = math.hypot(x1 - x0, y1 - y0) or 1.0
    ox, oy = -(y1 - y0) / length * cell / 6, (x1 - x0) / length * cell / 6
    rails = (((x0 + ox, y0 + oy), (x1 + ox, y1 + oy)), ((x0 - ox, y0 - oy), (x1 - ox, y1 - oy)))
    rungs = max(2, round(length / (cell / 2)))
    steps = []
    for i in range(1, rungs):
        fx, fy = x0 + (x1 - x0) * i / rungs, y0 + (y1 - y0) * i / rungs
        steps.append(((fx + ox, fy + oy), (fx - ox, fy - oy)))
    return rails[0], rails[1], tuple(steps)
