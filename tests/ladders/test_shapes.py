"""The drawn shapes: de Casteljau's split against the curve itself, a smooth S from head to
tail, a body that narrows, a bend that covers no more numbers than the other candidates,
and ladders' rails and rungs."""

from __future__ import annotations

import math

import pytest

from levelgen.ladders.shapes import (
    TAPER,
    _at,
    _covered,
    _s_curves,
    ladder_lines,
    number_box,
    snake_shape,
    split,
)


def test_split_keeps_the_curve() -> None:
    curve = ((0.0, 0.0), (10.0, 30.0), (40.0, -5.0), (50.0, 20.0))
    for t in (0.2, 0.5, 0.85):
        left, right = split(curve, t)
        for u in (0.0, 0.3, 0.7, 1.0):
            assert _at(left, u) == pytest.approx(_at(curve, t * u))
            assert _at(right, u) == pytest.approx(_at(curve, t + (1 - t) * u))


def test_the_s_is_smooth_and_joins_head_to_tail() -> None:
    first, second = _s_curves((10.0, 10.0), (110.0, 210.0), 20.0)
    assert first[0] == (10.0, 10.0) and second[3] == (110.0, 210.0) and first[3] == second[0]
    # One tangent where the curves meet; they bend to opposite sides of the straight line.
    out = (first[3][0] - first[2][0], first[3][1] - first[2][1])
    into = (second[1][0] - second[0][0], second[1][1] - second[0][1])
    assert out == pytest.approx(into)
    line = (100.0, 200.0)

    def side(p: tuple[float, float]) -> float:
        return line[0] * (p[1] - 10.0) - line[1] * (p[0] - 10.0)

    assert side(_at(first, 0.5)) * side(_at(second, 0.5)) < 0


def test_snake_shape() -> None:
    shape = snake_shape(87, 24, 10, 10, 48, 10)
    assert len(shape.pieces) == len(TAPER)
    widths = [w for _, w in shape.pieces]
    assert widths == sorted(widths, reverse=True)
    first = shape.pieces[0][0][0]
    last = shape.pieces[-1][0][-1]
    assert first[0] == pytest.approx(shape.head)
    # 24 is the fourth square of the third row (left to right): column 3, row 7 from the top.
    assert last[3] == pytest.approx((10 + 3 * 48 + 24, 10 + 7 * 48 + 24))
    for eye in shape.eyes:
        assert math.dist(eye, shape.head) < shape.head_radius


def test_the_bend_chosen_covers_the_fewest_numbers() -> None:
    cell, margin = 48.0, 10.0
    boxes = {}
    for square in range(1, 101):
        box = number_box(square, 10, 10, cell, margin)
        boxes[(round(box[0]), round(box[1]))] = box
    reach = max(3.0, cell / 8) / 2
    for head, tail in ((87, 24), (47, 26), (62, 19), (16, 6), (95, 75)):
        shape = snake_shape(head, tail, 10, 10, cell, margin)
        start, end = shape.curves[0][0], shape.curves[1][3]
        bend = max(cell / 6, min(math.dist(start, end) / 5, cell / 2))
        candidates = [
            _covered(_s_curves(start, end, side * bend * k), boxes, reach)
            for k in (1.0, 0.6, 1.4)
            for side in (1.0, -1.0)
        ]
        assert _covered(shape.curves, boxes, reach) == min(candidates)
        assert shape.pieces[0][0][0][0] == start


def test_ladder_lines() -> None:
    left, right, rungs = ladder_lines((0.0, 100.0), (0.0, 0.0), 48)
    assert left == ((8.0, 100.0), (8.0, 0.0)) or left == ((-8.0, 100.0), (-8.0, 0.0))
    assert abs(left[0][0] - right[0][0]) == pytest.approx(16.0)
    assert len(rungs) == 3  # about half a cell apart: 100 / 24 rounds to 4 spaces
