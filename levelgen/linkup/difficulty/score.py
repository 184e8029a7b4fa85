"""The difficulty score: the measures of play combined into one number 0..100 and four bands.

The score reads only the measures of :mod:`levelgen.linkup.difficulty.play` (so a file's stated
score can be recomputed from its stated measures), each turned into a *pressure* between 0 and 1:

- ``trap``: ``trap_rate / TRAP_SCALE``, capped at 1: how often an honest-looking move loses;
- ``greedy``: ``1 - greedy_win_rate``: whether playing the obvious move is enough;
- ``scarcity``: how few moves there are to choose from: ``x = choice / sqrt(tiles)`` (legal
  moves per state grow with the board's side, not its area) mapped on a log scale from
  ``CHOICE_EASY`` (pressure 0) down to ``CHOICE_HARD`` (pressure 1);
- ``search``: half the share of pairs that are a kind of their own (``kinds / (tiles / 2)``:
  more kinds to tell apart) and half the mean distance of solution partners per
  ``sqrt(tiles)``, capped at 1 (partners far apart are harder to spot).

``score = 100 * sum(WEIGHTS[name] * pressure[name])``, rounded to 0.1.  Losing matters most
(trap and greedy carry 0.6 of the weight), then how much there is to look at.  The random
player's win rate is measured too but deliberately left out of the score: it is the
independent check the tests and the benchmark hold the score against.

Bands: ``easy`` below ``BAND_EDGES[0]``, ``medium`` below ``BAND_EDGES[1]``, ``hard`` below
``BAND_EDGES[2]``, ``expert`` from there to 100.  The edges are the quartiles (12.4, 23.2,
48.3, rounded) of the scores of a reference population measured with this module's settings:
every rung of the steering ladder of :mod:`levelgen.linkup.generate.steer` on full 8x6, 12x8 and
18x10 boards, ring on and off, 4 seeds per rung (207 levels; 9 wall-heavy requests had no removal
order).  The scale constants come from the same population: ``TRAP_SCALE`` is its 90th
percentile of trap rates (0.029), ``CHOICE_HARD`` and ``CHOICE_EASY`` its 5th and 95th
percentiles of ``x`` (0.50 and 4.3).  (Measured again when the greedy player took the hint's
rule: the quartiles moved from 12.4, 23.2, 44.9 to 12.4, 23.2, 48.3; the
scale constants do not depend on the greedy player.)  So a quarter of that population is
easy, a quarter expert; the ladder reaches every band on every one of those sizes and rules.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from ...formats.difficulty import BAND_EDGES, BANDS, Band, band_bounds, band_of

__all__ = [
    "BANDS",
    "BAND_EDGES",
    "WEIGHTS",
    "Band",
    "band_bounds",
    "band_of",
    "pressures",
    "score_of",
]

#: The bands and their edges are the one scale of every family
#: (:mod:`levelgen.formats.difficulty`); the edges are this population's quartiles.

WEIGHTS: dict[str, float] = {"trap": 0.40, "greedy": 0.20, "scarcity": 0.25, "search": 0.15}
TRAP_SCALE = 0.03
CHOICE_EASY = 4.3
CHOICE_HARD = 0.5

#: The measures the score reads.
SCORED = ("trap_rate", "greedy_win_rate", "choice", "tiles", "kinds", "pair_distance")


def _clamp(x: float) -> float:
    return 0.0 if x < 0 else 1.0 if x > 1 else x


def pressures(measures: Mapping[str, float]) -> dict[str, float]:
    """The four pressures 0..1 of the module docstring; ``KeyError`` names a missing measure."""
    tiles = max(1.0, float(measures["tiles"]))
    root = math.sqrt(tiles)
    x = max(1e-9, float(measures["choice"]) / root)
    scarcity = (math.log(CHOICE_EASY) - math.log(x)) / (
        math.log(CHOICE_EASY) - math.log(CHOICE_HARD)
    )
    kinds_share = float(measures["kinds"]) / (tiles / 2)
    return {
        "trap": _clamp(float(measures["trap_rate"]) / TRAP_SCALE),
        "greedy": _clamp(1.0 - float(measures["greedy_win_rate"])),
        "scarcity": _clamp(scarcity),
        "search": _clamp(0.5 * _clamp(kinds_share) + 0.5 * float(measures["pair_distance"]) / root),
    }


def score_of(measures: Mapping[str, float]) -> float:
    """The difficulty score 0..100 of ``measures`` (rounded to 0.1)."""
    p = pressures(measures)
    return round(100 * sum(WEIGHTS[name] * p[name] for name in WEIGHTS), 1)


def ramp_bands(lo: int, hi: int, count: int) -> list[Band]:
    """The band of each of ``count`` levels ramping from band ``lo`` to ``hi`` (indices into
    :data:`BANDS`): equal blocks, in order."""
    span = hi - lo + 1
    return [BANDS[lo + i * span // count] for i in range(count)]
