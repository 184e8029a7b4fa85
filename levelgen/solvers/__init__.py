"""Solvers: decide whether a board can be cleared, with a removal sequence or a proof.

``solve`` is the one entry point.  ``method="search"`` runs the exact search solver,
``"cpsat"`` the CP-SAT model (ortools is imported only then), ``"exhaustive"`` the plain
baseline the benchmark compares against, and ``"auto"`` (the default) the search solver on
half of the time limit, then CP-SAT on the rest when the search was undecided.  Every
``SOLVED`` result is replayed by :func:`levelgen.verify.replay` before it is returned; a solver
whose sequence does not replay is a bug and raises ``AssertionError``.  Variant boards
(stacked layers, or a sliding rule) go to :mod:`levelgen.solvers.variant_search`: ``cpsat``
answers ``UNKNOWN`` for them (no model), and ``auto`` is the search alone.
"""

from __future__ import annotations

from ..board import Board
from ..rules import Rules
from ..verify import replay
from .base import Budget, SolveResult, SolveStats, SolveStatus

__all__ = ["METHODS", "Budget", "SolveResult", "SolveStats", "SolveStatus", "solve"]

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
    if board.upper or rules.slide != "none":
        result = _variant(board, rules, budget, method)
    elif method == "exhaustive":
        from .exhaustive import solve_exhaustive

        result = solve_exhaustive(board, rules, budget)
    elif method == "cpsat":
        from .cpsat import solve_cpsat

        result = solve_cpsat(board, rules, budget)
    elif method == "search":
        from .search import solve_search

        result = solve_search(board, rules, budget)
    else:
        result = _auto(board, rules, budget)
    if result.status is SolveStatus.SOLVED:
        problems = replay(board, rules, result.moves or ())
        if problems:
            raise AssertionError(
                f"{result.method} solver returned a sequence that does not replay: {problems[0]}"
            )
    return result


def _auto(board: Board, rules: Rules, budget: Budget) -> SolveResult:
    """The portfolio: the search solver first, CP-SAT when the search is undecided.

    With a time limit and a clock, the search may use half of the limit and CP-SAT what is
    left of it; ``max_nodes`` is given to each in full (it is a per-solver work measure)."""
    from .search import solve_search

    clock, limit, outer = budget.clock, budget.time_limit, budget.should_stop
    if clock is None or limit is None:
        result = solve_search(board, rules, budget)
        rest = budget
    else:
        start = clock()
        half = limit / 2

        def search_should_stop() -> bool:
            return bool(outer and outer()) or clock() - start > half

        result = solve_search(
            board, rules, Budget(budget.max_nodes, search_should_stop, clock, half)
        )
        left = max(limit - (clock() - start), 0.0)
        rest = Budget(budget.max_nodes, outer, clock, left)
    if result.status is not SolveStatus.UNKNOWN:
        return result
    from .cpsat import solve_cpsat

    return solve_cpsat(board, rules, rest)


def _variant(board: Board, rules: Rules, budget: Budget, method: str) -> SolveResult:
    """Variant boards (sliding, layers): the search of :mod:`.variant_search`; CP-SAT has no
    model of them, so ``cpsat`` answers ``UNKNOWN`` and ``auto`` is the search alone.
    ``ValueError`` for layers combined with sliding."""
    from ..layers import check_variant
    from .variant_search import solve_variant, unsupported_result

    check_variant(board, rules)
    if method == "cpsat":
        return unsupported_result(rules)
    return solve_variant(
        board, rules, budget, method="exhaustive" if method == "exhaustive" else "search"
    )
