"""Checking a level against what it claims, trusting nothing it says.

:func:`certificate_problems` replays the certificate move by move and recomputes every figure
that is cheap to recompute: the solution must keep the blank on the board and end at the goal;
``metrics.optimal_length`` must be its length, ``metrics.lower_bound`` the bound of
:func:`levelgen.sliding.heuristics.lower_bound`, ``metrics.band`` the band of that length, the
``id`` the content id, and a difficulty block must be its measures' score and that score's
band.  :func:`verify_level` adds, with ``prove``, a new optimal solve (the
optimal length and the count of optimal solutions proved again), and solves a level that has
no certificate.  The verdicts are :class:`levelgen.puzzles.Verdict`: ``ok``, ``invalid`` with
JSON-pointer problems, or for a level without a certificate ``solvable`` / ``unsolvable`` /
``unknown``.  A certificate that replays while optimality could not be proved within the budget
is ``unknown`` too.
"""

from __future__ import annotations

from typing import Any

from ..formats.difficulty import DifficultyBlock, block_problems
from ..puzzles import Budget, Problem, Verdict
from .heuristics import lower_bound
from .level import SlidingLevel, content_id
from .rules import Frame, MoveError, apply_moves
from .solver import TableSource, count_optimal, solve
from .spec import band_of

__all__ = ["certificate_problems", "verify_level"]


def certificate_problems(level: SlidingLevel) -> list[Problem]:
    """What is wrong with the level's certificate and stated figures (empty when nothing):
    see the module docstring."""
    problems: list[Problem] = []
    expected = content_id(level.start, level.goal)
    if level.level_id is not None and level.level_id != expected:
        problems.append(Problem("/id", f"does not match the content; expected {expected}"))
    if level.solution is not None:
        try:
            end = apply_moves(level.start, level.solution)
        except MoveError as exc:
            off = f"move {exc.index} ({exc.move!r}) takes the blank off the board"
            problems.append(Problem("/solution", off))
        else:
            if end != level.goal:
                problems.append(
                    Problem(
                        "/solution",
                        f"does not reach the goal: after its {len(level.solution)} moves"
                        f" {_misplaced(end, level.goal)} cells differ from the goal",
                    )
                )
    m = level.metrics
    if m is not None:
        if level.solution is not None and m.optimal_length != len(level.solution):
            problems.append(
                Problem(
                    "/metrics/optimal_length",
                    f"states {m.optimal_length} but the solution has {len(level.solution)} moves",
                )
            )
        bound = lower_bound(level.start, level.goal)
        if m.lower_bound != bound:
            problems.append(
                Problem("/metrics/lower_bound", f"states {m.lower_bound}; the bound is {bound}")
            )
        if bound > m.optimal_length:
            problems.append(
                Problem(
                    "/metrics/optimal_length",
                    f"states {m.optimal_length}, below the proved lower bound {bound}",
                )
            )
        band = band_of(m.optimal_length, level.width, level.height, level.numbered)
        if m.band != band:
            problems.append(
                Problem("/metrics/band", f"states {m.band!r}; {m.optimal_length} moves is {band!r}")
            )
        if m.difficulty is not None:
            problems += _difficulty_problems(level, m.optimal_length, m.difficulty)
        if m.optimal_solutions is not None and m.optimal_solutions > m.solutions_cap:
            problems.append(
                Problem(
                    "/metrics/optimal_solutions",
                    f"states {m.optimal_solutions}, over its cap of {m.solutions_cap}",
                )
            )
    return problems


def _difficulty_problems(
    level: SlidingLevel, optimal: int, block: DifficultyBlock
) -> list[Problem]:
    """Where the difficulty block contradicts itself or the stated optimal length (the
    player's tries are not played again: the score is recomputed from the stated measures)."""
    from .rating import score_of

    out = []
    stated = block.measures.get("optimal_length")
    if stated is not None and stated != optimal:
        out.append(
            Problem(
                "/metrics/difficulty/measures/optimal_length",
                f"states {stated:g} but the optimal length is {optimal}",
            )
        )
    try:
        recomputed = score_of(block.measures, level.width, level.height, level.numbered)
    except KeyError:
        recomputed = None
    return out + block_problems(block, recomputed)


def _misplaced(a: Frame, b: Frame) -> int:
    return sum(1 for x, y in zip(a.cells, b.cells, strict=True) if x != y)


def _details(level: SlidingLevel) -> dict[str, Any]:
    return {
        "game": "sliding-puzzle",
        "size": level.size_text,
        "kind": level.kind,
        "id": content_id(level.start, level.goal),
        "solution_length": None if level.solution is None else len(level.solution),
        "lower_bound": lower_bound(level.start, level.goal),
    }


def verify_level(
    level: SlidingLevel,
    *,
    prove: bool,
    budget: Budget,
    tables: TableSource | None = None,
) -> Verdict:
    """The verdict on ``level`` (see the module docstring).  ``details``: ``game``, ``size``,
    ``kind``, ``id``, ``solution_length``, ``lower_bound``, ``optimal_length`` (stated, or
    found), ``proved_optimal``, ``optimal_solutions``, and with a solve ``method`` and
    ``nodes``."""
    details = _details(level)
    problems = certificate_problems(level)
    what = f"{level.size_text} {level.kind}"
    m = level.metrics
    details["optimal_length"] = None if m is None else m.optimal_length
    details["optimal_solutions"] = None if m is None else m.optimal_solutions
    details["proved_optimal"] = False
    if problems:
        return Verdict("invalid", f"invalid: {problems[0]}", tuple(problems), details)
    if level.solution is None:
        return _solve_verdict(level, budget, tables, details)
    length = len(level.solution)
    if not prove:
        claim = "stated optimal" if m is not None else "no optimality claimed"
        return Verdict(
            "ok", f"ok: solution replayed ({what}, {length} moves, {claim})", (), details
        )
    cap = m.solutions_cap if m is not None and m.optimal_solutions is not None else 1
    found = solve(level.start, level.goal, budget, count_cap=cap, tables=tables)
    details["method"] = found.method
    details["nodes"] = found.nodes
    if found.status != "solved" or found.length is None:
        details["lower_bound_proved"] = found.lower_bound
        return Verdict(
            "unknown",
            f"unknown: solution replayed ({length} moves) but not proved optimal within the"
            f" budget (at least {found.lower_bound})",
            (),
            details,
        )
    details["optimal_length"] = found.length
    if found.length < length:
        if m is None:
            return Verdict(
                "ok",
                f"ok: solution replayed ({what}, {length} moves; the optimum is {found.length})",
                (),
                details,
            )
        problem = Problem(
            "/metrics/optimal_length",
            f"states {m.optimal_length} moves, but {found.length} moves solve the level",
        )
        return Verdict("invalid", f"invalid: {problem}", (problem,), details)
    details["proved_optimal"] = True
    if m is not None and m.optimal_solutions is not None:
        count = found.count
        if count is None:
            count = count_optimal(level.start, level.goal, length, cap, budget, tables=tables)
        details["optimal_solutions"] = count
        if count is None:
            return Verdict(
                "unknown",
                f"unknown: optimal ({length} moves) but the optimal solutions were not counted"
                " within the budget",
                (),
                details,
            )
        if count != m.optimal_solutions:
            problem = Problem(
                "/metrics/optimal_solutions",
                f"states {m.optimal_solutions}; there are {_count_text(count, cap)}",
            )
            return Verdict("invalid", f"invalid: {problem}", (problem,), details)
    return Verdict(
        "ok", f"ok: solution replayed and proved optimal ({what}, {length} moves)", (), details
    )


def _count_text(count: int, cap: int) -> str:
    return f"at least {cap}" if count >= cap else str(count)


def _solve_verdict(
    level: SlidingLevel, budget: Budget, tables: TableSource | None, details: dict[str, Any]
) -> Verdict:
    """The verdict on a level without a certificate: solve it."""
    found = solve(level.start, level.goal, budget, tables=tables)
    details["method"] = found.method
    details["nodes"] = found.nodes
    details["lower_bound_proved"] = found.lower_bound
    if found.status == "unsolvable":
        details["invariant"] = found.invariant
        return Verdict("unsolvable", f"unsolvable: {found.reason}", (), details)
    if found.status == "solved":
        details["optimal_length"] = found.length
        details["proved_optimal"] = True
        m = level.metrics
        if m is not None and m.optimal_length != found.length:
            problem = Problem(
                "/metrics/optimal_length",
                f"states {m.optimal_length}, but the optimal length is {found.length}",
            )
            return Verdict("invalid", f"invalid: {problem}", (problem,), details)
        return Verdict(
            "solvable",
            f"solvable: no certificate; optimal in {found.length} moves",
            (),
            details,
        )
    return Verdict("unknown", f"unknown: {found.reason}", (), details)
