"""Solvers: decide whether a board can be cleared, with a removal sequence or a proof.

``solve`` is the one entry point.  ``method="search"`` runs the exact search solver,
``"cpsat"`` the CP-SAT model (ortools is imported only then), ``"exhaustive"`` the plain
exhaustive search over occupancies (the baseline the benchmark compares against), and
``"auto"`` (the default) the search solver on half of the time limit, then CP-SAT on the rest
when the search was undecided; on small boards of few kinds with many copies each
(:func:`few_kinds`) the exhaustive search gets most of the time between the two, and on large
boards (more than ``AUTO_CPSAT_MAX_TILES`` tiles) a quick look for a proof at the search's
root, the repair solver (:mod:`levelgen.linkup.solvers.repair`, which finds sequences fast but
proves nothing) and the search share it.  Every
``SOLVED`` result is replayed by :func:`levelgen.linkup.verify.replay` before it is returned (unless
the caller says it replays what it makes of it, ``checked=False``); a solver whose sequence does not
replay is a bug and raises ``AssertionError``.  Variant boards
(stacked layers, or a sliding rule) go to :mod:`levelgen.linkup.solvers.variant_search`: ``cpsat``
answers ``UNKNOWN`` for them (no model), and ``auto`` is the search alone.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import TYPE_CHECKING

from ..core.board import Board
from ..core.rules import Rules
from ..verify import replay
from .base import Budget, SolveResult, SolveStats, SolveStatus

if TYPE_CHECKING:
    from .race import RepairRace, RivalFactory

__all__ = ["METHODS", "Budget", "SolveResult", "SolveStats", "SolveStatus", "few_kinds", "solve"]

METHODS: tuple[str, ...] = ("auto", "search", "cpsat", "exhaustive")


def solve(
    board: Board,
    rules: Rules | None = None,
    *,
    budget: Budget | None = None,
    method: str = "auto",
    checked: bool = True,
    rival: RivalFactory | None = None,
) -> SolveResult:
    """Decide ``board`` under ``rules`` (default ``Rules()``) within ``budget``.

    Returns a ``SolveResult``; ``ValueError`` for an unknown method.  ``checked=False`` skips
    the replay of a ``SOLVED`` sequence: only for callers that replay what they build from it
    themselves before they use it (the hint replays its reordered proof).  ``rival`` makes the
    second run of ``auto``'s repair race on large boards
    (:class:`levelgen.linkup.solvers.race.RepairRace`): by default it runs in this process in
    lockstep; :func:`levelgen.linkup.solvers.rival.process_rival` runs it in another process, with
    the same answer."""
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
        result = _auto(board, rules, budget, rival)
    if checked and result.status is SolveStatus.SOLVED:
        problems = replay(board, rules, result.moves or ())
        if problems:
            raise AssertionError(
                f"{result.method} solver returned a sequence that does not replay: {problems[0]}"
            )
    return result


#: ``auto`` also runs the exhaustive search (which memoises occupancy alone) on boards of at
#: most this many tiles whose kinds have this many copies on average or more: there the
#: search solver's pairings multiply while the reachable occupancies stay few.
FEW_KINDS_MAX_TILES = 48
FEW_KINDS_MIN_COPIES = 6

#: Shares of ``auto``'s time limit: each solver may run until its cumulative share of the limit
#: has passed (time a solver leaves unused goes to the next one); the last takes the rest.
Shares = tuple[tuple[str, float], ...]
AUTO_SHARES: Shares = (("search", 0.5), ("cpsat", 0.5))
AUTO_SHARES_FEW_KINDS: Shares = (("search", 0.1), ("exhaustive", 0.8), ("cpsat", 0.1))
AUTO_SHARES_LARGE: Shares = (("repair", 0.3), ("probe", 0.1), ("repair", 0.5), ("search", 0.1))

#: On a large board the repair solver's first slice also ends after this many repairs (about
#: five seconds at 64x64, so the slice's 30% of the time limit usually ends it first): nearly
#: all generated levels are done by then without paying for the probe (0.2 s at 64x64: with
#: the race's rival in another process it is not hidden, the race's answer waits for the own
#: run's work), and a board the probe can prove dead waits a few seconds for its proof.  The
#: second slice goes on where the first stopped.
AUTO_REPAIR_FIRST = 256

#: Above this many tiles ``auto`` runs no CP-SAT: its link graph alone takes more than 10 s
#: from 32x32 on (and over a gigabyte at 64x64).  There ``auto`` first gives the repair solver
#: (:mod:`levelgen.linkup.solvers.repair`: fast on the large levels we generate, never a proof) a
#: first slice, then asks the search solver's root relaxation for a quick proof (``probe``:
#: the search with no node to spend, so ``UNSOLVABLE`` when the relaxation is stuck at the
#: start, else undecided at once; 0.18 s at 64x64, saved on the levels the first slice
#: solves), then lets the repair solver go on, then the exact search for the rest of the time.
AUTO_CPSAT_MAX_TILES = 500


def few_kinds(board: Board) -> bool:
    """Whether ``auto`` adds the exhaustive search for ``board`` (see ``FEW_KINDS_MAX_TILES``)."""
    tiles = board.tile_count()
    kinds = len(board.kind_masks())
    return 0 < tiles <= FEW_KINDS_MAX_TILES and tiles >= FEW_KINDS_MIN_COPIES * kinds


def _auto(
    board: Board, rules: Rules, budget: Budget, rival: RivalFactory | None = None
) -> SolveResult:
    """The portfolio: the search solver first; on boards of few kinds with many copies each
    (:func:`few_kinds`) the exhaustive search next; CP-SAT last; on boards of more than
    ``AUTO_CPSAT_MAX_TILES`` tiles the repair solver, the probe, the repair solver again (one
    race of two runs, paused and resumed: :class:`levelgen.linkup.solvers.race.RepairRace`, its
    second run made by ``rival``, by default in this process) and the search instead; each
    one only while the ones before it are undecided.

    With a time limit and a clock, each solver runs until its cumulative share of the limit
    (``AUTO_SHARES``) has passed, the last one until the limit; ``max_nodes`` is given to each
    in full (it is a per-solver work measure).  Without a clock each runs on the whole budget
    (the repair solver's first slice still ends after ``AUTO_REPAIR_FIRST`` repairs)."""
    if few_kinds(board):
        shares = AUTO_SHARES_FEW_KINDS
    elif board.tile_count() > AUTO_CPSAT_MAX_TILES:
        shares = AUTO_SHARES_LARGE
    else:
        shares = AUTO_SHARES
    clock, limit, outer = budget.clock, budget.time_limit, budget.should_stop
    start = clock() if clock is not None else 0.0
    used = 0.0
    result = SolveResult(SolveStatus.UNKNOWN)
    nodes = 0
    # Why each solver that ran stayed undecided (the probe's is the search's, left out).
    notes: dict[str, str] = {}
    race: RepairRace | None = None
    try:
        for n, (name, share) in enumerate(shares):
            part = budget
            if clock is not None and limit is not None:
                used += share
                end = limit if n == len(shares) - 1 else limit * used

                def should_stop(end: float = end) -> bool:
                    return bool(outer and outer()) or clock() - start > end

                left = max(end - (clock() - start), 0.0)
                part = Budget(budget.max_nodes, should_stop, clock, left)
            if name == "repair":
                # One race of the repair solver across its slices (its nodes count in all).
                if race is None:
                    from .race import RIVAL_SEED, RepairRace, RepairSession, SessionRival

                    make = rival or SessionRival
                    race = RepairRace(
                        RepairSession(board, rules),
                        make(board, rules, RIVAL_SEED, budget),
                    )
                    result = race.advance(part, pause_after=AUTO_REPAIR_FIRST)
                else:
                    nodes -= race.repairer.repairs
                    result = race.advance(part)
            else:
                result = _solver(name)(board, rules, part)
            # The statistics of the answer cover the whole portfolio: every solver's nodes, and
            # the time since the start (when there is a clock).
            nodes += result.stats.nodes
            result.stats.nodes = nodes
            if clock is not None:
                result.stats.elapsed = clock() - start
            if result.status is not SolveStatus.UNKNOWN:
                return result
            if name != "probe":
                notes[name] = result.reason or "undecided"
        if len(notes) > 1:
            why = "; ".join(f"{name}: {text}" for name, text in notes.items())
            result = dataclasses.replace(result, reason=why)
        return result
    finally:
        if race is not None:
            race.close()


def _solver(name: str) -> Callable[[Board, Rules, Budget], SolveResult]:
    """The solver of ``auto``'s portfolio called ``name``, its module imported only now (a
    hint that the search settles never loads the CP-SAT model's modules)."""
    if name == "search":
        from .search import solve_search

        return solve_search
    if name == "exhaustive":
        from .exhaustive import solve_exhaustive

        return solve_exhaustive
    if name == "probe":
        return _probe
    from .cpsat import solve_cpsat

    return solve_cpsat


def _probe(board: Board, rules: Rules, budget: Budget) -> SolveResult:
    """The search solver with no node to spend: ``UNSOLVABLE`` (with the deadlock core) when
    its relaxation is stuck at the start, ``SOLVED`` when its safe moves clear the board, else
    ``UNKNOWN`` at once."""
    from .search import solve_search

    return solve_search(
        board, rules, Budget(0, budget.should_stop, budget.clock, budget.time_limit)
    )


def _variant(board: Board, rules: Rules, budget: Budget, method: str) -> SolveResult:
    """Variant boards (sliding, layers): the search of :mod:`.variant_search`; CP-SAT has no
    model of them, so ``cpsat`` answers ``UNKNOWN`` and ``auto`` is the search alone.
    ``ValueError`` for layers combined with sliding."""
    from ..core.layers import check_variant
    from .variant_search import solve_variant, unsupported_result

    check_variant(board, rules)
    if method == "cpsat":
        return unsupported_result(rules)
    return solve_variant(
        board, rules, budget, method="exhaustive" if method == "exhaustive" else "search"
    )
