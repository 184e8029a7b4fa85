"""Snakes and ladders (game ``snakes-ladders``): boards generated to a target game length, with
an exact analysis of the game as an absorbing Markov chain.

``FAMILY`` is the family's table of operations (:class:`levelgen.puzzles.Family`); the edges
use it and the names below, never a deeper module.  The parts: :mod:`.rules` (board, die,
overshoot, validity), :mod:`.chain` (rolls, reach, traps, fewest rolls), :mod:`.exact` (the
exact expectations, through FLINT), :mod:`.distribution` (the length distribution and games of
several players), :mod:`.analysis` (the certificate), :mod:`.files` (the level file),
:mod:`.spec`, :mod:`.generate` and :mod:`.steer` (create), :mod:`.verify` (verify, solve,
hint), :mod:`.show`, :mod:`.draw` and :mod:`.player` (the pictures and the page),
:mod:`.editor` (the browser editor's part),
:mod:`.bench` (the benchmarks: :func:`run_benchmarks` runs them all).
"""

from __future__ import annotations

from .bench import run_all as run_benchmarks
from .files import GAME, SCHEMA_URI, Level, content_id, level_json_schema
from .game import LaddersFamily
from .rules import OVERSHOOTS, Board, Rules
from .spec import BANDS, LaddersSpec, band_window

__all__ = [
    "BANDS",
    "FAMILY",
    "GAME",
    "OVERSHOOTS",
    "SCHEMA_URI",
    "Board",
    "LaddersFamily",
    "LaddersSpec",
    "Level",
    "Rules",
    "band_window",
    "content_id",
    "level_json_schema",
    "run_benchmarks",
]

#: The family object the registry finds (``levelgen.ladders:FAMILY``).
FAMILY = LaddersFamily()
