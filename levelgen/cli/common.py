"""The command line's shared pieces: the typer app, exit codes, options and the helpers that
read, check and write level files for every command.

Exit codes: 0 ok / solvable, 1 level well-formed but invalid or unsolvable, 2 usage error,
3 unreadable or schema-invalid input, 4 undecided within the budget.

Every input problem ends in a message naming the file, the place (a JSON pointer) and the
reason, and one of these exit codes; a traceback means a bug.  Level files are written
atomically (never half a file).  The heavy modules (pydantic models, solvers, the generator)
are imported inside the commands, so ``levelgen verify`` stays quick and never loads ortools
unless a solver needs it.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterable
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NoReturn

import typer

from ..bench import bench_app

if TYPE_CHECKING:
    from ..board import Board
    from ..level import Level
    from ..rules import Rules
    from ..schema import LevelFile
    from ..solvers import Budget
    from ..verify import Problem


EXIT_OK, EXIT_INVALID, EXIT_USAGE, EXIT_UNREADABLE, EXIT_UNDECIDED = 0, 1, 2, 3, 4

EXIT_CODES_HELP = (
    "Exit codes: 0 ok or solvable; 1 level well-formed but invalid or unsolvable; 2 usage error;"
    " 3 unreadable or schema-invalid input; 4 undecided within the budget."
)

app = typer.Typer(
    name="levelgen",
    help="Generate and verify Link-up (Onet, Shisen-Sho) levels with proofs of solvability.\n\n"
    + EXIT_CODES_HELP,
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,  # plain one-line errors: easy to read in logs and to grep
)
app.add_typer(bench_app, name="bench")

#: The checked-in schema, beside the package in a source checkout.
SCHEMA_NAME = Path("schemas", "level.v1.schema.json")
#: The layout file cap: a 64x64 layout is about 4 KiB.
MAX_LAYOUT_BYTES = 64 * 1024


class Method(StrEnum):
    """Which solver decides a level that has no solution."""

    auto = "auto"
    search = "search"
    cpsat = "cpsat"


OutputOption = Annotated[
    str,
    typer.Option(
        "-o",
        "--output",
        help="Where to write the level ('-': standard output).",
        metavar="FILE",
    ),
]
MethodOption = Annotated[
    Method,
    typer.Option(
        help="Solver for levels without a solution: search (exact search), cpsat (CP-SAT),"
        " or auto (search, then CP-SAT if undecided)."
    ),
]
TimeLimitOption = Annotated[
    float,
    typer.Option(
        "--time-limit",
        min=0.0,
        help="Seconds the solver may take before answering undecided.",
        metavar="SECONDS",
    ),
]


def fail(code: int, message: str) -> NoReturn:
    """Print ``message`` on standard error and exit with ``code``."""
    typer.echo(message, err=True)
    raise typer.Exit(code)


def stderr_is_terminal() -> bool:
    return sys.stderr.isatty()


def budget(time_limit: float) -> Budget:
    """A wall-clock budget of ``time_limit`` seconds (the clock is read here, at the edge)."""
    from ..solvers import Budget

    deadline = time.monotonic() + time_limit
    return Budget(
        should_stop=lambda: time.monotonic() > deadline,
        clock=time.monotonic,
        time_limit=time_limit,
    )


def problem_line(source: str, problem: Problem) -> str:
    """``FILE: /pointer: reason`` (``FILE: reason`` for the whole file)."""
    where = f"{problem.pointer}: " if problem.pointer else ""
    return f"{source}: {where}{problem.message}"


#: Problems printed per file at most (a file can hold thousands of unknown keys).
MAX_PROBLEM_LINES = 50


def problem_lines(source: str, problems: Iterable[Problem]) -> list[str]:
    """One line per problem, at most ``MAX_PROBLEM_LINES`` and a line saying how many more."""
    problems = list(problems)
    lines = [problem_line(source, p) for p in problems[:MAX_PROBLEM_LINES]]
    if len(problems) > MAX_PROBLEM_LINES:
        lines.append(f"{source}: ... and {len(problems) - MAX_PROBLEM_LINES} more problems")
    return lines


def show_problems(source: str, problems: Iterable[Problem]) -> None:
    for line in problem_lines(source, problems):
        typer.echo(line, err=True)


def load(source: str) -> LevelFile:
    """The level file ``source`` or exit 3 with its problems."""
    from ..storage import ReadError, read_level

    try:
        return read_level(source)
    except ReadError as exc:
        show_problems(source, exc.problems)
        raise typer.Exit(EXIT_UNREADABLE) from None


def core(source: str, file: LevelFile, *, strict: bool = True) -> Level:
    """The core level of ``file`` or exit 1 with what is wrong with it: a solution path that
    is not straight lines, and when ``strict`` an odd kind or a stale id."""
    from ..schema import LevelFormatError, level_problems

    problems = level_problems(file) if strict else []
    try:
        level = file.to_core()
    except LevelFormatError as exc:
        problems.extend(exc.problems)
    if problems:
        show_problems(source, problems)
        raise typer.Exit(EXIT_INVALID)
    return level


def write(level: Level, output: str) -> None:
    from ..storage import WriteError, write_level

    try:
        write_level(level, output)
    except WriteError as exc:
        fail(EXIT_UNREADABLE, f"levelgen: {exc}")


def refuse_variant(source: str, board: Board, rules: Rules, feature: str) -> None:
    """Exit 3 with ``FILE: /rules/slide: ...`` (or ``/board/layers``) when ``feature`` does
    not support the variant of this board and rules (see :mod:`levelgen.variant_support`)."""
    from ..variant_support import variant_problem

    found = variant_problem(board, rules, feature)
    if found is not None:
        fail(EXIT_UNREADABLE, f"{source}: {found[0]}: {found[1]}")
