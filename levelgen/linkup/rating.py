"""Rating a Link-up level: its difficulty block measured by the seeded players.

The block is the one :func:`levelgen.linkup.difficulty.play.measure_difficulty` gives (the
score of :mod:`levelgen.linkup.difficulty.score`, on the scale of
:mod:`levelgen.formats.difficulty`), measured along the level's solution after the solution
was replayed.  A level without a solution must be solved first; sliding tiles and layers have
no play model yet, and a position file is no level: each is refused in one line naming where.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from ..formats.problems import Problem
from ..puzzles import DocumentError

if TYPE_CHECKING:
    from .core.level import Level

__all__ = ["rate_level"]


def rate_level(level: Level, *, seed: int) -> Level:
    """``level`` with ``metrics.difficulty`` measured from ``seed`` (its other metrics
    measured along the solution when the file had none): by the seeded players of
    :mod:`.difficulty.play`, or for a variant (sliding tiles, stacked layers) by those of
    :mod:`.difficulty.variant_play`.  :class:`DocumentError` (not a format error) for a level
    without a solution or one whose solution does not replay."""
    from .core.variant_support import is_variant
    from .difficulty import solution_metrics
    from .difficulty.play import measure_difficulty
    from .verify import replay

    if level.solution is None:
        raise DocumentError(
            [Problem("/solution", "no solution to measure: solve the level first")],
            is_format=False,
        )
    problems = replay(level.board, level.rules, level.solution)
    if problems:
        raise DocumentError(problems, is_format=False)
    metrics = level.metrics or solution_metrics(level.board, level.rules, level.solution)
    if is_variant(level.board, level.rules):
        from .difficulty.variant_play import measure_variant_difficulty

        block = measure_variant_difficulty(level.board, level.rules, level.solution, seed=seed)
    else:
        block = measure_difficulty(level.board, level.rules, level.solution, seed=seed)
    return dataclasses.replace(level, metrics=dataclasses.replace(metrics, difficulty=block))
