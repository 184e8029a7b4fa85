"""Solvers: decide whether a board can be cleared, with a removal sequence or a proof.

``solve`` is the one entry point.  ``method="search"`` runs the exact search solver,
``"cpsat"`` the CP-SAT model (ortools is imported only then), and ``"auto"`` (the default) the
search solver within its node budget, then CP-SAT when the search was undecided.  Every
``SOLVED`` result is replayed by :func:`levelgen.verify.replay` before it is returned; a solver
whose sequence does not replay is a bug and raises ``AssertionError``.
"""

from __future__ import annotations

from typing import Literal

from ..board import Board
from ..rules import Rules
from ..verify import replay
from .base import Budget, SolveResult, SolveStats, SolveStatus

__all__ = ["METHODS", "Budget", "SolveResult", "SolveStats", "SolveStatus", "solve"]

Method = Literal["auto", "search", "cpsat"]
METHODS: tuple[str, ...] = ("auto", "search", "cpsat", "exhaustive")


def solve(
    board: Board,
    rules: Rules | None = None,
    *,
    budget: Budget | None = None,
    method: str = "auto",
) -> SolveResult:
    """Decide ``board`` under ``rules`` (default ``Rules()``) within ``budget``.

    Returns a ``SolveResult``; ``ValueError`` for an unknown method."""
    rules = rules or Rules()
    budget = budget or Budget()
    if method not in METHODS:
        raise ValueError(f"unknown method {method!r}; choose one of {', '.join(METHODS)}")
    result: SolveResult
    if method == "exhaustive":
        from .exhaustive import solve_exhaustive

        result = solve_exhaustive(board, rules, budget)
    elif method == "cpsat":
        from .cpsat import solve_cpsat

        result = solve_cpsat(board, rules, budget)
    else:
        from .search import solve_search

        result = solve_search(board, rules, budget)
        if method == "auto" and result.status is SolveStatus.UNKNOWN:
            from .cpsat import solve_cpsat

            result = solve_cpsat(board, rules, budget)
    if result.status is SolveStatus.SOLVED:
        problems = replay(board, rules, result.moves or ())
        if problems:
            raise AssertionError(
                f"{result.method} solver returned a sequence that does not replay: {problems[0]}"
            )
    return result
