"""The one difficulty scale every family's levels are rated on.

A level's difficulty block (``metrics.difficulty`` of its file) is::

    {"score": 0..100 (one decimal), "band": "easy" | "medium" | "hard" | "expert",
     "measures": {"name": number, ...}}

``score`` says how hard the level is for a player, measured against the player model of its
family (Link-up: seeded players of :mod:`levelgen.linkup.difficulty`; the sliding puzzle:
:mod:`levelgen.sliding.rating`; snakes and ladders: :mod:`levelgen.ladders.rating`);
``measures`` are the figures the score is made of, so that a reader can recompute it.
``band`` is always :func:`band_of` the score: ``easy`` below :data:`BAND_EDGES` [0],
``medium`` below [1], ``hard`` below [2], ``expert`` from there to 100.  The edges are
Link-up's quartiles of its reference population (see :mod:`levelgen.linkup.difficulty.score`);
the other families place their own bands onto them (:func:`scale_score`), so that a band
means the same part of the scale in every game.

Pure: no I/O, no randomness.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any, Literal

from .problems import Problem

__all__ = [
    "BANDS",
    "BAND_EDGES",
    "SCORE_MAX",
    "Band",
    "DifficultyBlock",
    "band_bounds",
    "band_of",
    "block_problems",
    "place_in_band",
    "scale_score",
]

Band = Literal["easy", "medium", "hard", "expert"]
BANDS: tuple[Band, ...] = ("easy", "medium", "hard", "expert")

#: Upper edges of easy, medium and hard on the 0..100 scale.
BAND_EDGES: tuple[float, float, float] = (12.5, 23.0, 48.0)
SCORE_MAX = 100.0


def band_of(score: float) -> Band:
    """The band of ``score``."""
    for band, edge in zip(BANDS, BAND_EDGES, strict=False):
        if score < edge:
            return band
    return "expert"


def band_bounds(band: str) -> tuple[float, float]:
    """``(low, high)``: the scores of ``band`` are ``low <= score < high`` (``high`` 100.1 for
    expert, so that 100 is in).  ``ValueError`` for a name that is no band."""
    i = BANDS.index(band)
    low = 0.0 if i == 0 else BAND_EDGES[i - 1]
    high = BAND_EDGES[i] if i < len(BAND_EDGES) else SCORE_MAX + 0.1
    return low, high


def _round(score: float) -> float:
    return round(min(SCORE_MAX, max(0.0, score)), 1)


def place_in_band(band: str, position: float) -> float:
    """The score at ``position`` (0..1, clamped) of ``band``'s part of the scale, rounded to
    0.1 and kept inside the band (the top of a band below expert is its edge less 0.1)."""
    low, high = band_bounds(band)
    top = SCORE_MAX if band == BANDS[-1] else high - 0.1
    t = 0.0 if math.isnan(position) else min(1.0, max(0.0, position))
    return _round(min(top, low + t * (top - low)))


def scale_score(value: float, edges: Sequence[float]) -> tuple[Band, float]:
    """A family's own measure placed on the scale: ``edges`` are five increasing values, the
    bottom of easy, the tops of easy, medium and hard, and the top of expert, in the family's
    unit (optimal moves, expected rolls).  Returns the band ``value`` falls in (below the
    bottom: easy; above the top: expert) and its position 0..1 within that band (linear
    between the band's two edges)."""
    if len(edges) != 5 or any(b <= a for a, b in pairwise(edges)):
        raise ValueError(f"expected five increasing edges, got {list(edges)}")
    for i, band in enumerate(BANDS):
        lo, hi = edges[i], edges[i + 1]
        if value < hi or i == len(BANDS) - 1:
            return band, (value - lo) / (hi - lo)
    raise AssertionError("unreachable")  # pragma: no cover


@dataclass(frozen=True, slots=True)
class DifficultyBlock:
    """A difficulty block: ``score`` (0..100, one decimal), its ``band`` and the ``measures``
    it is made of."""

    score: float
    band: str
    measures: Mapping[str, float] = field(default_factory=dict)

    @classmethod
    def of(cls, score: float, measures: Mapping[str, float]) -> DifficultyBlock:
        """The block of ``score`` (rounded to 0.1 within 0..100) with its band."""
        rounded = _round(score)
        return cls(rounded, band_of(rounded), dict(measures))

    def to_data(self) -> dict[str, Any]:
        """The block as JSON data (measures sorted by name)."""
        return {
            "score": self.score,
            "band": self.band,
            "measures": {k: self.measures[k] for k in sorted(self.measures)},
        }


def block_problems(
    block: DifficultyBlock, recomputed: float | None, pointer: str = "/metrics/difficulty"
) -> list[Problem]:
    """Where a stated block contradicts itself: a band that is not its score's, or a score
    that its measures do not give (``recomputed``: the score of its measures, None when they
    cannot be scored)."""
    out = []
    if recomputed is not None and abs(recomputed - block.score) > 0.05:
        out.append(
            Problem(f"{pointer}/score", f"states {block.score} but its measures give {recomputed}")
        )
    band = band_of(block.score)
    if block.band != band:
        out.append(
            Problem(
                f"{pointer}/band",
                f"states {block.band!r} but a score of {block.score} is {band!r}",
            )
        )
    return out
