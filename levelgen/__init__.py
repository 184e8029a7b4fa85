"""levelgen: generate and verify Link-up tile-matching levels with replayable proofs.

The public API: the core values (``Board``, ``Rules``, ``Pos``, ``Path``, ``Move``, ``Level``),
the exact path finder (``find_path``), replay (``replay``) and the solver entry point
(``solve``).  See README.md for the architecture.
"""

from __future__ import annotations

__version__ = "0.2.0"

from .board import EMPTY, WALL, Board
from .geometry import Pos, Size, format_size, parse_size
from .level import GeneratorInfo, Level, Metrics
from .moves import Move, apply_move, legal_moves
from .paths import Path, find_path, is_linkable, linkable_positions
from .rules import Rules
from .verify import Problem, replay

__all__ = [
    "EMPTY",
    "WALL",
    "Board",
    "GeneratorInfo",
    "Level",
    "Metrics",
    "Move",
    "Path",
    "Pos",
    "Problem",
    "Rules",
    "Size",
    "__version__",
    "apply_move",
    "find_path",
    "format_size",
    "is_linkable",
    "legal_moves",
    "linkable_positions",
    "parse_size",
    "replay",
]
