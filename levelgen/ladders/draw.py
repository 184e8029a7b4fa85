"""A snakes-and-ladders level as a picture: the numbered board with its ladders and snakes and,
for an analysed level, the plot of its length distribution below it (one scene).

The squares are drawn boustrophedon from the bottom left, numbered in their top-left corner,
the last square tinted.  A ladder is two rails with rungs (green), a snake a gentle S of two
cubic Bézier curves (red, drawn as short straight steps) from its head, a disc with eyes,
narrowing to its tail, bent to the side that covers the fewest square numbers
(:mod:`levelgen.ladders.shapes`).  The plot has one bar per roll ``k``, the chance the
game ends on roll ``k`` (from the written distribution), a line for the chance it has ended
by then, and marks at the median and the 90th percentile.  Integer pixels throughout; the
same level and ``cell_size`` give the same scene.
"""

from __future__ import annotations

from itertools import pairwise

from ..formats.scene import INK, PALETTE, Group, Line, Rect, Scene, Shape, Text
from .files import AnalysisFile, Level
from .rules import square_cell
from .shapes import flatten, ladder_lines, snake_shape

__all__ = ["draw_level"]

LADDER = PALETTE[2]
SNAKE = PALETTE[5]
SNAKE_EDGE = "#7A3500"
GOAL = PALETTE[3]
CURVE = PALETTE[4]
SHADES = ("#FFFFFF", "#F2F2F2")


def _centre(square: int, width: int, height: int, cell: int, margin: int) -> tuple[int, int]:
    x, y = square_cell(square, width, height)
    return margin + x * cell + cell // 2, margin + y * cell + cell // 2


def _ladder(a: tuple[int, int], b: tuple[int, int], cell: int) -> Group:
    left, right, rungs = ladder_lines(a, b, cell)
    rail = max(2, cell // 14)
    items: list[Shape] = [Line(_pixels(*rung), LADDER, max(2, rail - 1)) for rung in rungs]
    items += [Line(_pixels(*left), LADDER, rail), Line(_pixels(*right), LADDER, rail)]
    return Group(tuple(items), attrs=(("class", "ladder"),))


def _pixels(*points: tuple[float, float]) -> tuple[tuple[int, int], ...]:
    return tuple((round(x), round(y)) for x, y in points)


def _snake(head: int, tail: int, width: int, height: int, cell: int, margin: int) -> Group:
    shape = snake_shape(head, tail, width, height, cell, margin)
    step = max(3.0, cell / 5)
    items: list[Shape] = []
    for curves, body in shape.pieces:  # an outline under the body, then the body
        items.append(Line(flatten(curves, step), SNAKE_EDGE, max(2, round(body)) + 2))
    for curves, body in shape.pieces:
        items.append(Line(flatten(curves, step), SNAKE, max(2, round(body))))
    radius = round(shape.head_radius)
    items.append(Line(_pixels(shape.head, shape.head), SNAKE_EDGE, 1, dot=radius + 1))
    items.append(Line(_pixels(shape.head, shape.head), SNAKE, 1, dot=radius))
    eye = max(1, round(shape.eye_radius))
    for x, y in shape.eyes:
        items.append(Line(_pixels((x, y), (x, y)), "#FFFFFF", 1, dot=eye + 1))
        items.append(Line(_pixels((x, y), (x, y)), INK, 1, dot=max(1, eye - 1)))
    return Group(tuple(items), attrs=(("class", "snake"),))


def _plot(analysis: AnalysisFile, x: int, y: int, width: int, height: int, cell: int) -> Group:
    """The length distribution in the box at ``(x, y)``."""
    ended = analysis.distribution
    ends = [ended[0], *(b - a for a, b in pairwise(ended))]
    text = max(10, cell // 4)
    top = y + text * 2
    bottom = y + height - text * 2
    span = bottom - top
    peak = max(ends) or 1.0
    step = width / len(ends)
    items: list[Shape] = [
        Text(
            x,
            y + text // 2 + 2,
            f"Game length: expected {analysis.expected_rolls.value:.2f} rolls, median"
            f" {analysis.median}, mode {analysis.mode}, 90% by {analysis.p90},"
            f" 99% by {analysis.p99}",
            text,
            anchor="start",
        ),
        Line(((x, bottom), (x + width, bottom)), INK, 1),
        Line(((x, top), (x, bottom)), INK, 1),
    ]
    for k, chance in enumerate(ends):
        bar = round(chance / peak * span)
        if bar > 0:
            left = x + round(k * step)
            items.append(
                Rect(
                    left,
                    bottom - bar,
                    max(1, round((k + 1) * step) - round(k * step)),
                    bar,
                    PALETTE[1],
                )
            )
    curve = tuple(
        (x + round((k + 1) * step), bottom - round(e * span)) for k, e in enumerate(ended)
    )
    if len(curve) >= 2:
        items.append(Line(curve, CURVE, 2))
    for label, k in (("median", analysis.median), ("90%", analysis.p90)):
        at = x + round(k * step)
        items.append(Line(((at, top), (at, bottom)), INK, 1))
        items.append(Text(at, top - text // 2, f"{label} {k}", text - 2))
    items.append(Text(x, bottom + text, "1", text - 2, anchor="start"))
    items.append(Text(x + width, bottom + text, f"{len(ends)} rolls", text - 2, anchor="end"))
    items.append(
        Text(
            x + width // 2,
            bottom + text,
            "bars: ends on roll k; line: has ended by roll k",
            text - 2,
        )
    )
    return Group(tuple(items), attrs=(("class", "distribution"),))


def draw_level(level: Level, *, cell_size: int) -> Scene:
    """The level's scene (see the module docstring)."""
    board = level.board
    cell = max(16, cell_size)
    margin = cell // 2
    width, height, n = board.width, board.height, board.squares
    items: list[Shape] = []
    size = max(9, cell // 4)
    for square in range(1, n + 1):
        x, y = square_cell(square, width, height)
        fill = GOAL if square == n else SHADES[(x + y) % 2]
        left, top = margin + x * cell, margin + y * cell
        items.append(Rect(left, top, cell, cell, fill, "#BBBBBB", 1))
        items.append(Text(left + 3, top + size // 2 + 3, str(square), size, anchor="start"))
    for a, b in board.ladders:
        items.append(
            _ladder(
                _centre(a, width, height, cell, margin),
                _centre(b, width, height, cell, margin),
                cell,
            )
        )
    for a, b in board.snakes:
        items.append(_snake(a, b, width, height, cell, margin))
    scene_width = 2 * margin + width * cell
    scene_height = 2 * margin + height * cell
    if level.analysis is not None:
        plot_height = max(4 * cell, 160)
        items.append(_plot(level.analysis, margin, scene_height, width * cell, plot_height, cell))
        scene_height += plot_height + margin
    title = f"Snakes and ladders {width}x{height}"
    return Scene(scene_width, scene_height, tuple(items), title=title)
