"""The JSON answers of ``verify`` and ``solve`` for a level that is already parsed.

``verify_report`` gives exactly what ``levelgen verify --json`` prints for one file (the
report with ``exit_code`` and one verdict in ``files``, named ``request``), using the command
line's own verdicts, so that the two edges cannot drift apart.  ``solve_answer`` gives the
solved level, or the verdict that says why there is none (``unsolvable`` with the deadlock
core, ``undecided`` when the time ran out): verdicts, not errors.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..linkup.schema import LevelFile

__all__ = ["REQUEST_NAME", "solve_answer", "verify_report"]

#: The ``file`` name of the verdict of a request body.
REQUEST_NAME = "request"


def verify_report(file: LevelFile, method: str, time_limit: float) -> dict[str, Any]:
    """The ``verify --json`` report of ``file``: structure, replay, or the solver's verdict."""
    from ..cli.common import EXIT_INVALID, EXIT_OK, Method, Verdict
    from ..cli.verify import _solve_verdict
    from ..linkup.difficulty import metrics_problems
    from ..linkup.schema import LevelFormatError, level_problems
    from ..linkup.verify import replay
    from ..render import format_summary

    problems = level_problems(file)
    verdict: Verdict
    try:
        level = file.to_core()
    except LevelFormatError as exc:
        level = None
        found = [*problems, *exc.problems]
        verdict = Verdict(REQUEST_NAME, "invalid", EXIT_INVALID, problems=found)
    if level is None:
        pass
    elif level.solution is not None:
        problems.extend(replay(level.board, level.rules, level.solution))
        if not problems and level.metrics is not None:
            problems = metrics_problems(level.board, level.rules, level.solution, level.metrics)
        if problems:
            verdict = Verdict(REQUEST_NAME, "invalid", EXIT_INVALID, problems=problems)
        else:
            summary = format_summary(level)
            verdict = Verdict(REQUEST_NAME, "ok", EXIT_OK, f"ok: solution replayed ({summary})")
    elif problems:
        verdict = Verdict(REQUEST_NAME, "invalid", EXIT_INVALID, problems=problems)
    else:
        # One process per request (the pool has one per CPU): the repair race in lockstep.
        verdict = _solve_verdict(REQUEST_NAME, level, Method(method), time_limit, 1)
    return {"exit_code": verdict.code, "files": [verdict.to_data()]}


def solve_answer(file: LevelFile, method: str, time_limit: float) -> dict[str, Any]:
    """``{"status": "solved", "level": {...}}`` with the solution and metrics, or the verdict
    (``invalid``, ``unsolvable``, ``undecided``) with ``level`` null, ``message`` and
    ``deadlock``; ``exit_code`` as ``levelgen solve`` would exit."""
    from ..cli.common import EXIT_INVALID, EXIT_OK, EXIT_UNDECIDED, budget
    from ..linkup.core.level import Level
    from ..linkup.difficulty import solution_metrics
    from ..linkup.schema import LevelFile, LevelFormatError, level_problems
    from ..linkup.solvers import SolveStatus, solve

    answer: dict[str, Any] = {
        "status": "",
        "exit_code": 0,
        "message": "",
        "problems": [],
        "deadlock": [],
        "level": None,
    }
    problems = level_problems(file)
    try:
        level = file.to_core()
    except LevelFormatError as exc:
        problems.extend(exc.problems)
    if problems:
        answer.update(
            status="invalid",
            exit_code=EXIT_INVALID,
            message="the level is invalid",
            problems=[{"pointer": p.pointer, "reason": p.message} for p in problems],
        )
        return answer
    result = solve(level.board, level.rules, budget=budget(time_limit), method=method)
    if result.status is SolveStatus.UNSOLVABLE:
        answer.update(
            status="unsolvable",
            exit_code=EXIT_INVALID,
            message=f"unsolvable: {result.reason or 'no removal order clears the board'}",
            deadlock=[[p.x, p.y] for p in result.deadlock],
        )
        return answer
    if result.status is SolveStatus.UNKNOWN:
        reason = f": {result.reason}" if result.reason else ""
        answer.update(
            status="undecided",
            exit_code=EXIT_UNDECIDED,
            message=f"undecided within {time_limit:g} s{reason}",
        )
        return answer
    moves = result.moves or ()
    solved = Level(
        level.board,
        level.rules,
        moves,
        solution_metrics(level.board, level.rules, moves),
        level.generator,
    )
    answer.update(
        status="solved",
        exit_code=EXIT_OK,
        message=f"solved: a solution of {len(moves)} steps",
        level=LevelFile.from_core(solved).to_data(),
    )
    return answer
