"""How hard a snakes-and-ladders board is for a player: its difficulty block on the one scale.

A player of snakes and ladders makes no choice: what a board asks of them is patience, and
what they feel is how long a game lasts and how often it drags.  Two exact measures (one token
from square 0, :mod:`levelgen.ladders.exact` and :mod:`levelgen.ladders.distribution`) make
the score (:mod:`levelgen.formats.difficulty`):

- the *expected length* against the board's range: the band windows of
  :func:`levelgen.ladders.spec.band_window` (multiples of ``L0 = 2N / (faces + 1)``, the rolls
  a token needs at the mean roll) are laid onto the scale's bands, which gives the **band** and
  ``expected_position``, where the expected length lies in its window (0..1);
- the *spread*: ``chance_within``, the chance a game ends within ``target_rolls``
  (:func:`target_rolls`: ``ceil(1.4 * L0)``, the top of the medium window, a game of ordinary
  length).  A board whose games often drag past it is harder to sit through.

``score = place_in_band(band, EXPECTED_WEIGHT * expected_position + SPREAD_WEIGHT * (1 -
chance_within))``: the expected length decides the band (the band ``create --difficulty``
steers into), the spread places the board within it.  Exact, so no seed is needed; every
figure is in ``measures`` and :func:`score_of` recomputes the score from them.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace
from fractions import Fraction
from typing import TYPE_CHECKING

from ..formats.difficulty import DifficultyBlock, place_in_band, scale_score
from ..formats.problems import Problem
from ..puzzles import DocumentError
from .distribution import chance_within
from .exact import nearest_float
from .spec import BANDS, band_window, base_length

if TYPE_CHECKING:
    from .analysis import Solved
    from .files import Level

__all__ = [
    "EXPECTED_WEIGHT",
    "SPREAD_WEIGHT",
    "expected_edges",
    "level_difficulty",
    "rate_level",
    "rate_solved",
    "score_of",
    "target_rolls",
]

EXPECTED_WEIGHT = 0.6
SPREAD_WEIGHT = 0.4
#: The target is this many times ``L0``: the top of the medium window.
TARGET_FACTOR = Fraction(7, 5)


def target_rolls(squares: int, faces: int) -> int:
    """The rolls of a game of ordinary length: ``ceil(1.4 * L0)`` (40 on 10x10, six faces)."""
    return math.ceil(TARGET_FACTOR * base_length(squares, faces))


def expected_edges(squares: int, faces: int) -> tuple[float, ...]:
    """The five edges of :func:`levelgen.formats.difficulty.scale_score` in expected rolls:
    the bottom of the easy window and the top of each band's window."""
    low = float(band_window(BANDS[0], squares, faces)[0])
    return (low, *(float(band_window(band, squares, faces)[1]) for band in BANDS))


def score_of(measures: Mapping[str, float], squares: int, faces: int) -> float:
    """The score of ``measures`` (``expected`` and ``chance_within``) on a board of
    ``squares`` squares with a die of ``faces`` faces; ``KeyError`` names a missing measure."""
    band, position = scale_score(float(measures["expected"]), expected_edges(squares, faces))
    t = EXPECTED_WEIGHT * min(1.0, max(0.0, position))
    t += SPREAD_WEIGHT * (1.0 - float(measures["chance_within"]))
    return place_in_band(band, t)


def rate_solved(solved: Solved, squares: int, faces: int) -> DifficultyBlock:
    """The difficulty block of a solved board whose game always ends (square 0 settled)."""
    assert solved.start is not None, "square 0 is settled"
    expected = nearest_float(solved.start.rolls)
    target = target_rolls(squares, faces)
    within = chance_within(solved.chain, solved.settled, 0, target)
    _, position = scale_score(expected, expected_edges(squares, faces))
    measures = {
        "expected": expected,
        "base_length": round(float(base_length(squares, faces)), 4),
        "expected_position": round(min(1.0, max(0.0, position)), 4),
        "target_rolls": float(target),
        "chance_within": round(within, 4),
    }
    return DifficultyBlock.of(score_of(measures, squares, faces), measures)


def rate_level(level: Level) -> Level:
    """``level`` with its difficulty block, measured on its board (the file's analysis is not
    trusted for it); :class:`DocumentError` (not a format error) at ``/board`` for a board
    whose game may never end."""
    from .analysis import solve_board

    solved = solve_board(level.board, level.rules)
    if solved.start is None:
        raise DocumentError(
            [Problem("/board", "the game may never end from square 0: no difficulty to rate")],
            is_format=False,
        )
    block = rate_solved(solved, level.board.squares, level.rules.faces)
    return replace(level, difficulty=block)


def level_difficulty(level: Level) -> tuple[float, str]:
    """The level's score and band: its block's when it has one, else rated; ``(100.0,
    "expert")`` for a board whose game may never end."""
    if level.difficulty is not None:
        return level.difficulty.score, level.difficulty.band
    try:
        block = rate_level(level).difficulty
    except DocumentError:
        return 100.0, BANDS[-1]
    assert block is not None
    return block.score, block.band
