"""The solver contract: one result type for every solver, with a three-way status.

``UNSOLVABLE`` is returned only with a proof (an exhaustive search, a sound pruning argument, or
CP-SAT infeasibility of a model that admits every solution); running out of budget is
``UNKNOWN``.  Every ``SOLVED`` result carries its moves with exact best paths, and
:func:`levelgen.linkup.solvers.solve` replays them with :mod:`levelgen.linkup.verify` before
returning.

Budgets are deterministic (a node count); a wall-clock limit can only come from the edges, as a
``should_stop`` callable, and the clock used for statistics is injected the same way, so the
core never reads the time itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Protocol

from ...puzzles import Budget
from ..core.board import Board
from ..core.geometry import Pos
from ..core.moves import Move
from ..core.rules import Rules

__all__ = ["Budget", "SolveResult", "SolveStats", "SolveStatus", "Solver"]


class SolveStatus(Enum):
    SOLVED = "solved"
    UNSOLVABLE = "unsolvable"
    UNKNOWN = "unknown"


@dataclass(slots=True)
class SolveStats:
    """What a solver did: nodes expanded, seconds elapsed (0 when no clock was given), and named
    counters (pruning counts, memo hits, model size, ...)."""

    nodes: int = 0
    elapsed: float = 0.0
    counters: dict[str, int | float] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class SolveResult:
    """The answer of a solver.

    ``moves``: the removal sequence when ``SOLVED``.  ``reason``: a sentence explaining an
    ``UNSOLVABLE`` or ``UNKNOWN`` status.  ``deadlock``: for ``UNSOLVABLE``, tiles that can never
    be cleared (the deadlock core), when the solver found such a set.  ``method``: which solver
    answered."""

    status: SolveStatus
    moves: tuple[Move, ...] | None = None
    stats: SolveStats = field(default_factory=SolveStats)
    reason: str = ""
    deadlock: tuple[Pos, ...] = ()
    method: str = ""


class Solver(Protocol):
    def __call__(self, board: Board, rules: Rules, budget: Budget) -> SolveResult: ...
