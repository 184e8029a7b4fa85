"""Where the jumps lie on the picture: square centres, jump lengths, and crossings.

A jump is drawn from the centre of its start square to the centre of its end square in the
boustrophedon layout of :func:`levelgen.ladders.rules.square_cell` (the layout ``render`` and
``play`` draw).  Centres are kept as integers in half cells, ``(2 * column + 1, 2 * row + 1)``,
so that every test below is exact integer arithmetic.

Two jumps *cross* when their straight segments have a point in common other than an end
square they share: they cross properly (each passes from one side of the other to the
other side), or one's end square lies on the other's segment (a snake's head drawn on a
ladder), or they lie on one line and overlap (drawn on top of each other).  Jumps that only
share an end square do not cross.

Pure: values and functions only.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from .rules import Board, square_cell

__all__ = [
    "Point",
    "board_crossings",
    "centre",
    "crossing_pairs",
    "jump_length",
    "segments_cross",
    "within_length",
]

Point = tuple[int, int]


def centre(square: int, width: int, height: int) -> Point:
    """The centre of square 1..N in half cells: ``(2 * column + 1, 2 * row + 1)``, the row
    counted from the top as drawn."""
    x, y = square_cell(square, width, height)
    return 2 * x + 1, 2 * y + 1


def jump_length(start: int, end: int, width: int, height: int) -> float:
    """A jump's length in rows: the straight distance between the centres of its squares, a
    cell's side the unit (2 straight up two rows; 5 from (0, 0) to (3, 4))."""
    (x0, y0), (x1, y1) = centre(start, width, height), centre(end, width, height)
    return math.hypot(x1 - x0, y1 - y0) / 2


def within_length(start: int, end: int, width: int, height: int, limit: int) -> bool:
    """Whether a jump is at most ``limit`` rows long (:func:`jump_length`, in integers)."""
    (x0, y0), (x1, y1) = centre(start, width, height), centre(end, width, height)
    return (x1 - x0) ** 2 + (y1 - y0) ** 2 <= 4 * limit * limit


def _orient(a: Point, b: Point, c: Point) -> int:
    """The sign of the turn a -> b -> c: 1 left, -1 right, 0 on one line."""
    value = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
    return (value > 0) - (value < 0)


def _on_segment(a: Point, b: Point, p: Point) -> bool:
    """Whether ``p``, on the line through ``a`` and ``b``, lies between them (ends included)."""
    return min(a[0], b[0]) <= p[0] <= max(a[0], b[0]) and min(a[1], b[1]) <= p[1] <= max(a[1], b[1])


def segments_cross(p1: Point, p2: Point, q1: Point, q2: Point) -> bool:
    """Whether the segments ``p1 p2`` and ``q1 q2`` cross (see the module docstring): they
    share a point other than an end point common to both.  Two copies of one segment cross."""
    if {p1, p2} == {q1, q2}:
        return True
    d1, d2 = _orient(q1, q2, p1), _orient(q1, q2, p2)
    d3, d4 = _orient(p1, p2, q1), _orient(p1, p2, q2)
    if d1 * d2 < 0 and d3 * d4 < 0:
        return True
    shared = {p1, p2} & {q1, q2}
    # Any other meeting puts an end point of one segment on the other segment.
    touches = (
        (d1 == 0 and _on_segment(q1, q2, p1), p1),
        (d2 == 0 and _on_segment(q1, q2, p2), p2),
        (d3 == 0 and _on_segment(p1, p2, q1), q1),
        (d4 == 0 and _on_segment(p1, p2, q2), q2),
    )
    return any(touch and point not in shared for touch, point in touches)


def crossing_pairs(
    segments: Sequence[tuple[Point, Point]],
) -> list[tuple[int, int]]:
    """The pairs ``(i, j)``, ``i < j``, of segments that cross."""
    return [
        (i, j)
        for i in range(len(segments))
        for j in range(i + 1, len(segments))
        if segments_cross(*segments[i], *segments[j])
    ]


def board_crossings(board: Board) -> tuple[int, int, int]:
    """How many pairs of jumps cross on ``board``: ladder with ladder, ladder with snake, and
    snake with snake."""
    w, h = board.width, board.height
    jumps = [*board.ladders, *board.snakes]
    segments = [(centre(a, w, h), centre(b, w, h)) for a, b in jumps]
    ladders = len(board.ladders)
    counts = [0, 0, 0]
    for i, j in crossing_pairs(segments):
        counts[(i >= ladders) + (j >= ladders)] += 1
    return counts[0], counts[1], counts[2]
