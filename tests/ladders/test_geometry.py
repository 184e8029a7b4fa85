"""Crossings of jumps: the integer test against a plain reference in fractions, on small grids
where touching, collinear and shared-end cases are common; and the figures of Milton
Bradley's board."""

from __future__ import annotations

import math
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from levelgen.ladders.bench import CHUTES_AND_LADDERS
from levelgen.ladders.geometry import (
    board_crossings,
    centre,
    crossing_pairs,
    jump_length,
    segments_cross,
    within_length,
)
from levelgen.ladders.rules import Board

Point = tuple[int, int]


def _meeting(p1: Point, p2: Point, q1: Point, q2: Point) -> set[tuple[Fraction, Fraction]] | None:
    """The points the two closed segments share: a set of one point, of two (the ends of a
    shared stretch), empty, or None for two copies of a single point."""
    (ax, ay), (bx, by), (cx, cy), (dx, dy) = p1, p2, q1, q2
    rx, ry, sx, sy = bx - ax, by - ay, dx - cx, dy - cy
    denominator = rx * sy - ry * sx
    if denominator != 0:  # one crossing point of the two lines, by Cramer's rule
        t = Fraction((cx - ax) * sy - (cy - ay) * sx, denominator)
        u = Fraction((cx - ax) * ry - (cy - ay) * rx, denominator)
        if 0 <= t <= 1 and 0 <= u <= 1:
            return {(ax + t * rx, ay + t * ry)}
        return set()
    if (cx - ax) * ry - (cy - ay) * rx != 0:
        return set()  # parallel lines apart
    # One line: the stretch the segments share, as a parameter range along p.
    length = rx * rx + ry * ry
    ts = [Fraction((x - ax) * rx + (y - ay) * ry, length) for x, y in (q1, q2)]
    low, high = max(Fraction(0), min(ts)), min(Fraction(1), max(ts))
    if low > high:
        return set()
    return {(ax + t * rx, ay + t * ry) for t in (low, high)}


def _reference(p1: Point, p2: Point, q1: Point, q2: Point) -> bool:
    """Cross: the segments share a point other than an end point common to both."""
    if {p1, p2} == {q1, q2}:
        return True
    shared = {(Fraction(x), Fraction(y)) for x, y in {p1, p2} & {q1, q2}}
    met = _meeting(p1, p2, q1, q2)
    assert met is not None
    if len(met) == 2:
        return True  # a shared stretch of positive length
    return bool(met - shared)


small = st.tuples(st.integers(0, 4), st.integers(0, 4))


@settings(max_examples=3000, deadline=None)
@given(p1=small, p2=small, q1=small, q2=small)
def test_crossing_against_the_reference(p1: Point, p2: Point, q1: Point, q2: Point) -> None:
    if p1 == p2 or q1 == q2:
        return  # a jump always joins two squares
    want = _reference(p1, p2, q1, q2)
    assert segments_cross(p1, p2, q1, q2) == want
    # The same answer whichever way round either segment is given, and in either order.
    assert segments_cross(p2, p1, q1, q2) == want
    assert segments_cross(q1, q2, p1, p2) == want
    assert segments_cross(q2, q1, p2, p1) == want


def test_crossing_cases() -> None:
    assert segments_cross((0, 0), (4, 4), (0, 4), (4, 0))  # an X
    assert not segments_cross((0, 0), (4, 0), (0, 2), (4, 2))  # parallel
    assert not segments_cross((0, 0), (2, 2), (2, 2), (4, 0))  # a shared end
    assert segments_cross((0, 0), (4, 0), (2, 0), (2, 3))  # a T: an end on the other's body
    assert segments_cross((0, 0), (4, 0), (2, 0), (6, 0))  # on one line, overlapping
    assert not segments_cross((0, 0), (2, 0), (2, 0), (6, 0))  # on one line, end to end
    assert segments_cross((0, 0), (4, 0), (0, 0), (2, 0))  # folded back along the other
    assert not segments_cross((0, 0), (2, 0), (3, 0), (6, 0))  # on one line, apart


def test_centres_rows_and_pairs() -> None:
    assert centre(1, 10, 10) == (1, 19)  # bottom left
    assert centre(11, 10, 10) == (19, 17)  # row 2 runs right to left
    assert centre(100, 10, 10) == (1, 1)
    assert jump_length(1, 21, 10, 10) == 2.0  # straight up two rows
    assert jump_length(56, 53, 10, 10) == 3.0  # three squares along one row
    assert jump_length(28, 84, 10, 10) == math.hypot(4, 6)
    assert within_length(28, 84, 10, 10, 8) and not within_length(28, 84, 10, 10, 7)
    for a in (1, 17, 55):
        for b in (3, 40, 99):
            for limit in (1, 3, 5, 9):
                assert within_length(a, b, 10, 10, limit) == (jump_length(a, b, 10, 10) <= limit)
    segments = [((0, 0), (4, 4)), ((0, 4), (4, 0)), ((6, 0), (6, 4))]
    assert crossing_pairs(segments) == [(0, 1)]


def test_milton_bradley_crossings() -> None:
    # Its ladders never cross; 8 ladder-chute and 2 chute-chute pairs do, 5 of them made by
    # its two jumps longer than 5 rows (28 -> 84, 7.2 rows; 87 -> 24, 6.7 rows).
    assert board_crossings(CHUTES_AND_LADDERS) == (0, 8, 2)
    short = Board(
        10,
        10,
        tuple(j for j in CHUTES_AND_LADDERS.ladders if within_length(*j, 10, 10, 5)),
        tuple(j for j in CHUTES_AND_LADDERS.snakes if within_length(*j, 10, 10, 5)),
    )
    assert len(short.ladders) + len(short.snakes) == 17
    assert board_crossings(short) == (0, 4, 1)
