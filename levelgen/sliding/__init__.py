"""Sliding-tile puzzles (game ``sliding-puzzle``): numbered and colour boards from 2x2 to 8x8.

The family's face: :data:`FAMILY` is the table of operations the edges use
(:class:`levelgen.puzzles.Family`); the names below are the library's for programs that work
with sliding puzzles directly.  Inside: ``rules`` (frames, moves, which goals can be reached,
with the proof), ``heuristics`` (lower bounds), ``bfs`` and ``idastar`` with ``pdb`` (the
searches; ``_native.c`` their compiled twins), ``solver`` (which method, the budget),
``generate``, ``verify``, ``schema`` (the file), ``draw``, ``player`` and ``bench``.
"""

from __future__ import annotations

from .bench import run_all as run_benchmarks
from .game import SlidingPuzzleFamily
from .generate import create_level
from .level import GeneratorInfo, Metrics, SlidingLevel, content_id
from .rules import Frame, apply_moves, reachability
from .schema import dump_level, level_json_schema, parse_level
from .solver import SolveResult, solve
from .spec import CreateSpec, bands_for, parse_spec
from .verify import verify_level

__all__ = [
    "FAMILY",
    "CreateSpec",
    "Frame",
    "GeneratorInfo",
    "Metrics",
    "SlidingLevel",
    "SlidingPuzzleFamily",
    "SolveResult",
    "apply_moves",
    "bands_for",
    "content_id",
    "create_level",
    "dump_level",
    "level_json_schema",
    "parse_level",
    "parse_spec",
    "reachability",
    "run_benchmarks",
    "solve",
    "verify_level",
]

#: The sliding-puzzle family (registered under the entry-point group ``levelgen.families``).
FAMILY = SlidingPuzzleFamily()
