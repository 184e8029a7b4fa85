"""A level: a board, its rules, and (when known) a certified removal sequence and metrics.

This is the core value that generators produce and files carry; :mod:`levelgen.linkup.schema` maps
it to and from the JSON level file.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .board import Board
from .moves import Move
from .rules import Rules

__all__ = ["GENERATOR_SHUFFLE", "Difficulty", "GeneratorInfo", "Level", "Metrics"]

#: ``generator.name`` of a shuffled level (:mod:`levelgen.linkup.play.shuffle`): its seed and
#: ``min_moves`` made it.
GENERATOR_SHUFFLE = "levelgen-shuffle"


@dataclass(frozen=True, slots=True)
class Difficulty:
    """How hard the level plays: ``score`` 0..100, its ``band`` (easy, medium, hard, expert)
    and the named ``measures`` of play it comes from (see
    :mod:`levelgen.linkup.difficulty.score`)."""

    score: float
    band: str
    measures: dict[str, float] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Metrics:
    """Measured facts about a level and its solution.

    ``start_moves``: legal moves at the start.  ``mean_moves``: mean number of legal moves over
    the states along the solution (before each step).  ``turn_histogram``: how many solution
    paths have 0, 1, 2, ... turns (index = turns).  ``extra``: further named measurements.
    ``difficulty``: the measured difficulty, when it was measured."""

    start_moves: int
    mean_moves: float
    turn_histogram: tuple[int, ...]
    extra: dict[str, float] = field(default_factory=dict)
    difficulty: Difficulty | None = None


@dataclass(frozen=True, slots=True)
class GeneratorInfo:
    """Provenance: which generator made the level, its version, seed (None when the maker
    used none, as ``levelgen solve``) and parameters."""

    name: str
    version: str
    seed: int | None
    parameters: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Level:
    """A board with its rules; ``solution`` is a removal sequence that empties it (or None when
    not known), ``metrics`` the measurements of that solution."""

    board: Board
    rules: Rules
    solution: tuple[Move, ...] | None = None
    metrics: Metrics | None = None
    generator: GeneratorInfo | None = None
