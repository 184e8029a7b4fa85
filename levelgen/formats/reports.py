"""What the edges print and answer for any family: problem lines, verdicts and exit codes,
and the wall-clock budget of a request (the clock is read here, at the edge, never in a
family).

The command line and the service report a family's :class:`levelgen.puzzles.Verdict` the same
way: ``FILE: /pointer: reason`` lines, then ``FILE: text``; as JSON, one object per file with
its status, exit code, message and problems, and the family's own figures beside them.  Exit
codes: 0 ok or solvable, 1 invalid or unsolvable, 2 refused (an option the file's game does not
have), 3 unreadable or not a file of its format, 4 undecided within the budget.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping
from typing import Any

from .budget import Budget
from .problems import Problem

__all__ = [
    "EXIT_INVALID",
    "EXIT_OK",
    "EXIT_UNDECIDED",
    "EXIT_UNREADABLE",
    "EXIT_USAGE",
    "MAX_PROBLEM_LINES",
    "SEVERITY",
    "hint_data",
    "problem_line",
    "problem_lines",
    "status_code",
    "verdict_data",
    "verdict_lines",
    "wall_clock_budget",
]

EXIT_OK, EXIT_INVALID, EXIT_USAGE, EXIT_UNREADABLE, EXIT_UNDECIDED = 0, 1, 2, 3, 4
#: Which exit code wins when several files are verified: the most serious last.
SEVERITY = (EXIT_OK, EXIT_UNDECIDED, EXIT_INVALID, EXIT_USAGE, EXIT_UNREADABLE)
#: Problems printed per file at most (a file can hold thousands of unknown keys).
MAX_PROBLEM_LINES = 50

_CODES = {
    "ok": EXIT_OK,
    "solvable": EXIT_OK,
    "solved": EXIT_OK,
    "invalid": EXIT_INVALID,
    "unsolvable": EXIT_INVALID,
    "undecided": EXIT_UNDECIDED,
    "unknown": EXIT_UNDECIDED,
    "refused": EXIT_USAGE,  # an option (or operation) the file's game does not have
    "unreadable": EXIT_UNREADABLE,
    "schema-invalid": EXIT_UNREADABLE,
}


def status_code(status: str) -> int:
    """The exit code of a verdict's status (an unknown status is a bug: ``KeyError``)."""
    return _CODES[status]


def problem_line(source: str, problem: Problem) -> str:
    """``FILE: /pointer: reason`` (``FILE: reason`` for the whole file)."""
    where = f"{problem.pointer}: " if problem.pointer else ""
    return f"{source}: {where}{problem.message}"


def problem_lines(source: str, problems: Iterable[Problem]) -> list[str]:
    """One line per problem, at most ``MAX_PROBLEM_LINES`` and a line saying how many more."""
    problems = list(problems)
    lines = [problem_line(source, p) for p in problems[:MAX_PROBLEM_LINES]]
    if len(problems) > MAX_PROBLEM_LINES:
        lines.append(f"{source}: ... and {len(problems) - MAX_PROBLEM_LINES} more problems")
    return lines


def verdict_lines(source: str, text: str, problems: Iterable[Problem]) -> list[str]:
    """A verdict for a person: its problem lines, then ``FILE: text``."""
    out = problem_lines(source, problems)
    if text:
        out.append(f"{source}: {text}")
    return out


def verdict_data(
    source: str,
    status: str,
    text: str,
    problems: Iterable[Problem],
    details: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """A verdict as JSON: file, status, exit code, the message (the verdict's text, else the
    problem lines), the problems, ``deadlock`` (the deadlock core of a Link-up board proved
    unsolvable, empty otherwise: every report has had it), and the family's own figures
    (``details``) after them."""
    problems = list(problems)
    return {
        "file": source,
        "status": status,
        "exit_code": status_code(status),
        "message": text or "\n".join(verdict_lines(source, text, problems)),
        "problems": [{"pointer": p.pointer, "reason": p.message} for p in problems],
        "deadlock": [],
        **(details or {}),
    }


def wall_clock_budget(seconds: float) -> Budget:
    """A budget that runs out ``seconds`` after now (monotonic clock)."""
    deadline = time.monotonic() + seconds
    return Budget(
        should_stop=lambda: time.monotonic() > deadline, clock=time.monotonic, time_limit=seconds
    )


def hint_data(status: str, text: str, details: Mapping[str, Any]) -> dict[str, Any]:
    """A hint as JSON (``hint --json`` and ``POST /v1/hint``): the family's figures, after
    ``status`` and ``message`` unless the figures carry a status of their own (Link-up's)."""
    if "status" in details:
        return dict(details)
    return {"status": status, "message": text, **details}
