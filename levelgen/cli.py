"""The ``levelgen`` command line: thin typer commands over the library.

Exit codes: 0 ok / solvable, 1 level well-formed but invalid or unsolvable, 2 usage error,
3 unreadable or schema-invalid input, 4 undecided within the budget.

Every input problem ends in a message naming the file, the place (a JSON pointer) and the
reason, and one of these exit codes; a traceback means a bug.  Level files are written
atomically (never half a file).  The heavy modules (pydantic models, solvers, the generator)
are imported inside the commands, so ``levelgen verify`` stays quick and never loads ortools
unless a solver needs it.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer

from . import __version__
from .bench import bench_app

if TYPE_CHECKING:
    from .level import Level
    from .schema import LevelFile
    from .solvers import Budget
    from .verify import Problem

__all__ = ["EXIT_CODES_HELP", "app", "main"]

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


def _fail(code: int, message: str) -> NoReturn:
    """Print ``message`` on standard error and exit with ``code``."""
    typer.echo(message, err=True)
    raise typer.Exit(code)


def _stderr_is_terminal() -> bool:
    return sys.stderr.isatty()


def _budget(time_limit: float) -> Budget:
    """A wall-clock budget of ``time_limit`` seconds (the clock is read here, at the edge)."""
    from .solvers import Budget

    deadline = time.monotonic() + time_limit
    return Budget(
        should_stop=lambda: time.monotonic() > deadline,
        clock=time.monotonic,
        time_limit=time_limit,
    )


def _problem_line(source: str, problem: Problem) -> str:
    """``FILE: /pointer: reason`` (``FILE: reason`` for the whole file)."""
    where = f"{problem.pointer}: " if problem.pointer else ""
    return f"{source}: {where}{problem.message}"


#: Problems printed per file at most (a file can hold thousands of unknown keys).
MAX_PROBLEM_LINES = 50


def _problem_lines(source: str, problems: Iterable[Problem]) -> list[str]:
    """One line per problem, at most ``MAX_PROBLEM_LINES`` and a line saying how many more."""
    problems = list(problems)
    lines = [_problem_line(source, p) for p in problems[:MAX_PROBLEM_LINES]]
    if len(problems) > MAX_PROBLEM_LINES:
        lines.append(f"{source}: ... and {len(problems) - MAX_PROBLEM_LINES} more problems")
    return lines


def _show_problems(source: str, problems: Iterable[Problem]) -> None:
    for line in _problem_lines(source, problems):
        typer.echo(line, err=True)


def _load(source: str) -> LevelFile:
    """The level file ``source`` or exit 3 with its problems."""
    from .storage import ReadError, read_level

    try:
        return read_level(source)
    except ReadError as exc:
        _show_problems(source, exc.problems)
        raise typer.Exit(EXIT_UNREADABLE) from None


def _core(source: str, file: LevelFile, *, strict: bool = True) -> Level:
    """The core level of ``file`` or exit 1 with what is wrong with it: a solution path that
    is not straight lines, and when ``strict`` an odd kind or a stale id."""
    from .schema import LevelFormatError, level_problems

    problems = level_problems(file) if strict else []
    try:
        level = file.to_core()
    except LevelFormatError as exc:
        problems.extend(exc.problems)
    if problems:
        _show_problems(source, problems)
        raise typer.Exit(EXIT_INVALID)
    return level


def _write(level: Level, output: str) -> None:
    from .storage import WriteError, write_level

    try:
        write_level(level, output)
    except WriteError as exc:
        _fail(EXIT_UNREADABLE, f"levelgen: {exc}")


# ----- create --------------------------------------------------------------------------------


@app.command()
def create(
    size: Annotated[
        str | None,
        typer.Option(
            help="Board size WxH: W columns by H rows, for example 12x8 (at most 64x64)."
            " Defaults to the size of --layout.",
            metavar="WxH",
        ),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option(
            help="Seed (0 .. 2^53-1); the same seed and options give the same file.", metavar="N"
        ),
    ] = None,
    kinds: Annotated[
        int | None,
        typer.Option(help="Distinct tile kinds (default: tiles / copies).", metavar="K"),
    ] = None,
    copies: Annotated[
        int, typer.Option(help="Tiles per kind: an even number, at least 2.", metavar="C")
    ] = 4,
    max_turns: Annotated[
        int,
        typer.Option("--max-turns", help="Most turns a linking path may make (0..8).", metavar="T"),
    ] = 2,
    outside: Annotated[
        bool,
        typer.Option("--outside/--no-outside", help="Whether paths may use the ring around."),
    ] = True,
    layout: Annotated[
        str | None,
        typer.Option(
            help="Layout file: one line per row, o a tile cell, . a hole, # a wall.",
            metavar="FILE",
        ),
    ] = None,
    output: OutputOption = "-",
) -> None:
    """Generate a level with a replayed solution and write it as JSON.

    Without --seed a random seed is drawn and recorded in the file.  On a terminal the board
    and a summary are shown on standard error.  Exit codes: 0 written; 1 the layout admits no
    level; 2 bad option values; 3 unreadable layout file or unwritable output.
    """
    import secrets

    from .generator import GenerationError, generate, kind_tile_counts, parse_layout
    from .geometry import Size, parse_size
    from .rules import MAX_TURNS_LIMIT, Rules
    from .schema import MAX_SEED
    from .storage import ReadError, read_text

    if seed is not None and not 0 <= seed <= MAX_SEED:
        raise typer.BadParameter(f"{seed} is not in 0..{MAX_SEED}", param_hint="'--seed'")
    if copies < 2 or copies % 2:
        raise typer.BadParameter(
            f"{copies} is not an even number of at least 2 (tiles are removed in pairs)",
            param_hint="'--copies'",
        )
    if kinds is not None and kinds < 1:
        raise typer.BadParameter(f"{kinds} is not at least 1", param_hint="'--kinds'")
    if not 0 <= max_turns <= MAX_TURNS_LIMIT:
        raise typer.BadParameter(
            f"{max_turns} is not in 0..{MAX_TURNS_LIMIT}", param_hint="'--max-turns'"
        )
    template = None
    if layout is not None:
        try:
            template = parse_layout(read_text(layout, max_bytes=MAX_LAYOUT_BYTES, what="layout"))
        except ReadError as exc:
            _show_problems(layout, exc.problems)
            raise typer.Exit(EXIT_UNREADABLE) from None
        except GenerationError as exc:
            _fail(EXIT_UNREADABLE, f"{layout}: {exc}")
    if size is None:
        if template is None:
            raise typer.BadParameter(
                "give a size such as 12x8, or a --layout", param_hint="'--size'"
            )
        board_size = template.size
    else:
        try:
            board_size = parse_size(size)
        except ValueError as exc:
            raise typer.BadParameter(str(exc), param_hint="'--size'") from None
        if template is not None and template.size != board_size:
            raise typer.BadParameter(
                f"{size} differs from the {template.width}x{template.height} of {layout}",
                param_hint="'--size'",
            )
    tiles = template.tile_count() if template is not None else Size(*board_size).cells
    if template is not None and tiles == 0:
        raise typer.BadParameter(f"{layout} has no tile cell (o)", param_hint="'--layout'")
    try:
        kind_tile_counts(tiles, kinds=kinds, copies=copies)
    except GenerationError as exc:
        hint = "'--kinds'" if kinds is not None and "kinds" in str(exc) else "'--copies'"
        if tiles % 2:
            hint = "'--layout'" if template is not None else "'--size'"
        raise typer.BadParameter(str(exc), param_hint=hint) from None
    if seed is None:
        seed = secrets.randbelow(MAX_SEED + 1)
    try:
        level = generate(
            board_size,
            kinds=kinds,
            copies=copies,
            rules=Rules(max_turns, outside),
            layout=template,
            seed=seed,
        )
    except GenerationError as exc:
        _fail(EXIT_INVALID, f"levelgen create: {exc}")
    _write(level, output)
    _report_created(level, output)


def _report_created(level: Level, output: str) -> None:
    """The board and a summary on a terminal; the summary alone when writing a file."""
    from .render import format_summary, render_board, use_color

    name = "" if output == "-" else output
    if _stderr_is_terminal():
        picture = render_board(level.board, level.rules, color=use_color(sys.stderr))
        typer.echo(picture, err=True)
        typer.echo(format_summary(level, name), err=True)
    elif output != "-":
        typer.echo(format_summary(level, name), err=True)


# ----- verify ----------------------------------------------------------------------------------


@dataclass
class Verdict:
    """The outcome for one file of ``levelgen verify``."""

    file: str
    status: str
    code: int
    message: str = ""
    problems: list[Problem] = field(default_factory=list)
    deadlock: list[tuple[int, int]] = field(default_factory=list)

    def to_data(self) -> dict[str, Any]:
        return {
            "file": self.file,
            "status": self.status,
            "exit_code": self.code,
            "message": self.message,
            "problems": [{"pointer": p.pointer, "reason": p.message} for p in self.problems],
            "deadlock": [list(p) for p in self.deadlock],
        }

    def lines(self) -> list[str]:
        out = _problem_lines(self.file, self.problems)
        if self.message:
            out.append(f"{self.file}: {self.message}")
        return out


def _verify_one(source: str, method: Method, time_limit: float) -> Verdict:
    """Read, check and replay (or solve) one level file."""
    from .render import format_summary
    from .schema import LevelFormatError, level_problems
    from .storage import ReadError, read_level
    from .verify import replay

    try:
        file = read_level(source)
    except ReadError as exc:
        status = "schema-invalid" if exc.is_format else "unreadable"
        return Verdict(source, status, EXIT_UNREADABLE, problems=list(exc.problems))
    problems = level_problems(file)
    try:
        level = file.to_core()
    except LevelFormatError as exc:
        return Verdict(source, "invalid", EXIT_INVALID, problems=[*problems, *exc.problems])
    if level.solution is not None:
        problems.extend(replay(level.board, level.rules, level.solution))
        if not problems and level.metrics is not None:
            from .difficulty import metrics_problems

            problems = metrics_problems(level.board, level.rules, level.solution, level.metrics)
        if problems:
            return Verdict(source, "invalid", EXIT_INVALID, problems=problems)
        summary = format_summary(level)
        return Verdict(source, "ok", EXIT_OK, f"ok: solution replayed ({summary})")
    if problems:
        return Verdict(source, "invalid", EXIT_INVALID, problems=problems)
    return _solve_verdict(source, level, method, time_limit)


def _solve_verdict(source: str, level: Level, method: Method, time_limit: float) -> Verdict:
    from .solvers import SolveStatus, solve

    result = solve(level.board, level.rules, budget=_budget(time_limit), method=method.value)
    if result.status is SolveStatus.SOLVED:
        steps = len(result.moves or ())
        return Verdict(
            source, "solvable", EXIT_OK, f"solvable: a solution of {steps} steps was found"
        )
    if result.status is SolveStatus.UNSOLVABLE:
        core = [(p.x, p.y) for p in result.deadlock]
        text = f"unsolvable: {result.reason}" if result.reason else "unsolvable"
        if core:
            text += "; deadlock core: " + ", ".join(f"[{x}, {y}]" for x, y in core)
        return Verdict(source, "unsolvable", EXIT_INVALID, text, deadlock=core)
    reason = f": {result.reason}" if result.reason else ""
    return Verdict(
        source, "undecided", EXIT_UNDECIDED, f"undecided within {time_limit:g} s{reason}"
    )


#: Which exit code wins when several files are verified: the most serious.
_SEVERITY = (EXIT_OK, EXIT_UNDECIDED, EXIT_INVALID, EXIT_UNREADABLE)


@app.command()
def verify(
    files: Annotated[
        list[str], typer.Argument(help="Level files ('-': standard input).", metavar="FILE")
    ],
    json_output: Annotated[
        bool, typer.Option("--json", help="Print one JSON object with a verdict per file.")
    ] = False,
    method: MethodOption = Method.auto,
    time_limit: TimeLimitOption = 10.0,
) -> None:
    """Check level files: structure, then the solution replayed step by step.

    A level without a solution is solved and reported solvable, unsolvable (with the deadlock
    core) or undecided.  Each problem is printed as FILE: /json/pointer: reason.  Exit codes:
    0 all ok or solvable; 1 some level invalid or unsolvable; 3 some file unreadable or not a
    level file; 4 some level undecided (with several files, the most serious code: 3, 1, 4).
    """
    verdicts = [_verify_one(source, method, time_limit) for source in files]
    if json_output:
        code = max((v.code for v in verdicts), key=_SEVERITY.index)
        report = {"exit_code": code, "files": [v.to_data() for v in verdicts]}
        typer.echo(json.dumps(report, indent=2))
    else:
        for v in verdicts:
            for line in v.lines():
                typer.echo(line)
    raise typer.Exit(max((v.code for v in verdicts), key=_SEVERITY.index))


# ----- solve -----------------------------------------------------------------------------------


@app.command("solve")
def solve_command(
    file: Annotated[
        str, typer.Argument(help="A level file ('-': standard input).", metavar="FILE")
    ],
    output: OutputOption = "-",
    method: MethodOption = Method.auto,
    time_limit: TimeLimitOption = 10.0,
) -> None:
    """Solve a hand-made level and write it with its solution and metrics.

    Any solution already in the file is replaced.  Exit codes: 0 solved and written;
    1 unsolvable (the reason and the deadlock core are printed) or invalid; 3 unreadable input;
    4 undecided within the time limit.
    """
    from .difficulty import solution_metrics
    from .level import Level
    from .solvers import SolveStatus, solve

    level = _core(file, _load(file))
    result = solve(level.board, level.rules, budget=_budget(time_limit), method=method.value)
    if result.status is SolveStatus.UNSOLVABLE:
        text = f"{file}: unsolvable: {result.reason or 'no removal order clears the board'}"
        if result.deadlock:
            text += "; deadlock core: " + ", ".join(str(p) for p in result.deadlock)
        _fail(EXIT_INVALID, text)
    if result.status is SolveStatus.UNKNOWN:
        reason = f": {result.reason}" if result.reason else ""
        _fail(EXIT_UNDECIDED, f"{file}: undecided within {time_limit:g} s{reason}")
    moves = result.moves or ()
    solved = Level(
        level.board,
        level.rules,
        moves,
        solution_metrics(level.board, level.rules, moves),
        level.generator,
    )
    _write(solved, output)
    if output != "-":
        from .render import format_summary

        typer.echo(format_summary(solved, output), err=True)


# ----- show ------------------------------------------------------------------------------------


@app.command()
def show(
    file: Annotated[
        str, typer.Argument(help="A level file ('-': standard input).", metavar="FILE")
    ],
    step: Annotated[
        int | None,
        typer.Option(
            help="Show the board before solution step N (counted from 0, as in /solution/N)"
            " with that step's path drawn.",
            metavar="N",
        ),
    ] = None,
) -> None:
    """Draw a level in the terminal: a glyph and colour per kind, holes, walls, the ring.

    Colour only on a terminal, and never with NO_COLOR set.  Exit codes: 0 shown; 1 invalid
    level (or its solution breaks before step N); 2 bad --step; 3 unreadable input.
    """
    from .render import format_summary, render_board, use_color
    from .verify import replay

    level = _core(file, _load(file), strict=False)
    color = use_color(sys.stdout)
    if step is None:
        typer.echo(render_board(level.board, level.rules, color=color))
        typer.echo(format_summary(level))
        return
    solution = level.solution or ()
    if not solution:
        raise typer.BadParameter(f"{file} has no solution to step through", param_hint="'--step'")
    if not 0 <= step < len(solution):
        raise typer.BadParameter(
            f"{step} is not in 0..{len(solution) - 1} (the solution has {len(solution)} steps)",
            param_hint="'--step'",
        )
    # Replaying a prefix ends with tiles left (pointer "/solution"): only step problems count.
    problems = [
        p for p in replay(level.board, level.rules, solution[:step]) if p.pointer != "/solution"
    ]
    if problems:
        _show_problems(file, problems)
        raise typer.Exit(EXIT_INVALID)
    board = level.board.without(*(p for move in solution[:step] for p in (move.a, move.b)))
    move = solution[step]
    typer.echo(render_board(board, level.rules, path=move.path, color=color))
    turns, length = move.path.turns, move.path.length
    typer.echo(
        f"step {step} of {len(solution)}: kind {move.kind}, {move.a} and {move.b},"
        f" {turns} turn{'s' * (turns != 1)}, {length} step{'s' * (length != 1)} long"
    )


# ----- schema ----------------------------------------------------------------------------------


@app.command()
def schema(
    check: Annotated[
        bool,
        typer.Option("--check", help="Compare with the checked-in schema instead of printing."),
    ] = False,
    file: Annotated[
        Path | None,
        typer.Option(
            "--file",
            help="The schema file --check compares with (default: schemas/level.v1.schema.json"
            " of the source tree, else of the current folder or the nearest one above).",
            metavar="FILE",
            show_default=False,
        ),
    ] = None,
    output: Annotated[
        str,
        typer.Option(
            "-o", "--output", help="Where to write ('-': standard output).", metavar="FILE"
        ),
    ] = "-",
) -> None:
    """Print the JSON Schema (draft 2020-12) of level files, generated from the models.

    Exit codes: 0 printed, or --check found no drift; 1 --check found the file out of date;
    2 --check found no schema file; 3 --check could not read the file.
    """
    from .schema import level_json_schema
    from .storage import ReadError, WriteError, format_json, read_json, write_text

    generated = level_json_schema()
    if not check:
        try:
            write_text(format_json(generated), output)
        except WriteError as exc:
            _fail(EXIT_UNREADABLE, f"levelgen: {exc}")
        return
    file = file or _checked_in_schema()
    if file is None:
        _fail(
            EXIT_USAGE,
            f"levelgen: no {SCHEMA_NAME} found in the source tree or the current folder and"
            " its parents; pass --file",
        )
    try:
        stored = read_json(file)
    except ReadError as exc:
        _show_problems(str(file), exc.problems)
        raise typer.Exit(EXIT_UNREADABLE) from None
    if stored != generated:
        _fail(
            EXIT_INVALID,
            f"{file}: out of date with the models; regenerate it with: levelgen schema -o {file}",
        )
    typer.echo(f"{file}: up to date")


def _checked_in_schema() -> Path | None:
    """``schemas/level.v1.schema.json`` next to the package (a source checkout), else in the
    current folder or the nearest parent that has one (an installed package), else None."""
    for folder in (Path(__file__).resolve().parent.parent, Path.cwd(), *Path.cwd().parents):
        candidate = folder / SCHEMA_NAME
        if candidate.is_file():
            return candidate
    return None


@app.command()
def version() -> None:
    """Print the version."""
    typer.echo(__version__)


def main() -> None:
    """Entry point of the console script.  Standard output that cannot be written (a full
    disk, a reader that went away) ends the command with a message, not a traceback."""
    try:
        app()
    except OSError as exc:
        # Nothing more can go to standard output: point it at /dev/null so that the final
        # flush at exit does not fail again.
        with contextlib.suppress(OSError, ValueError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        if isinstance(exc, BrokenPipeError):
            sys.exit(EXIT_INVALID)  # like any program whose reader went away: quietly
        typer.echo(f"levelgen: cannot write the output: {exc.strerror or exc}", err=True)
        sys.exit(EXIT_UNREADABLE)
