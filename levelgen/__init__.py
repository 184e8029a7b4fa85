"""levelgen: levels for puzzle games, made and checked with replayable proofs.

The family API: :func:`family` finds a puzzle family by name (``linkup``, ``sliding-puzzle``,
``snakes-ladders`` or one a package registers), :func:`families` lists them; each is a table of
operations (:class:`levelgen.puzzles.Family`).

The Link-up API keeps its names here: the core values (``Board``, ``Rules``, ``Pos``, ``Path``,
``Move``, ``Level``), the exact path finder (``find_path``), replay (``replay``) and the solver
entry point (``solve``).  They load on first use, so a program that uses another family never
imports Link-up.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .formats.version import VERSION as __version__
from .puzzles import Family, families, family, family_of

if TYPE_CHECKING:
    from .linkup.core.board import EMPTY, WALL, Board
    from .linkup.core.geometry import Pos, Size, format_size, parse_size
    from .linkup.core.level import GeneratorInfo, Level, Metrics
    from .linkup.core.moves import Move, apply_move, legal_moves
    from .linkup.core.paths import Path, find_path, is_linkable, linkable_positions
    from .linkup.core.rules import Rules
    from .linkup.solvers import solve
    from .linkup.verify import Problem, replay

#: Where each Link-up name of the package's face is defined.
_LINKUP = {
    **dict.fromkeys(("EMPTY", "WALL", "Board"), "linkup.core.board"),
    **dict.fromkeys(("Pos", "Size", "format_size", "parse_size"), "linkup.core.geometry"),
    **dict.fromkeys(("GeneratorInfo", "Level", "Metrics"), "linkup.core.level"),
    **dict.fromkeys(("Move", "apply_move", "legal_moves"), "linkup.core.moves"),
    **dict.fromkeys(
        ("Path", "find_path", "is_linkable", "linkable_positions"), "linkup.core.paths"
    ),
    "Rules": "linkup.core.rules",
    "solve": "linkup.solvers",
    **dict.fromkeys(("Problem", "replay"), "linkup.verify"),
}

__all__ = [
    "EMPTY",
    "WALL",
    "Board",
    "Family",
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
    "families",
    "family",
    "family_of",
    "find_path",
    "format_size",
    "is_linkable",
    "legal_moves",
    "linkable_positions",
    "parse_size",
    "replay",
    "solve",
]


if not TYPE_CHECKING:  # mypy sees the names through the imports above, and only those

    def __getattr__(name: str) -> Any:
        """A Link-up name of the face, imported the first time it is asked for."""
        module = _LINKUP.get(name)
        if module is None:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f".{module}", __name__), name)
        globals()[name] = value
        return value
