"""``levelgen verify`` and ``levelgen solve``: check level files, solve hand-made ones."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from .common import (
    EXIT_INVALID,
    EXIT_OK,
    EXIT_UNDECIDED,
    EXIT_UNREADABLE,
    Method,
    MethodOption,
    NoClobberOption,
    OutputOption,
    TimeLimitOption,
    Verdict,
    WorkersOption,
    app,
    budget,
    check_output,
    fail,
    load_level,
    rival,
    write,
)
from .progress import progress_bar

if TYPE_CHECKING:
    from ..linkup.core.level import Level
    from ..linkup.solvers import SolveResult


# ----- verify ----------------------------------------------------------------------------------


def _verify_one(source: str, method: Method, time_limit: float, workers: int | None) -> Verdict:
    """Read, check and replay (or solve) one level file, or check a pack directory."""
    if source != "-" and (Path(source).is_dir() or Path(source).name == "manifest.json"):
        from .pack import pack_verdict

        return pack_verdict(source)
    from ..linkup.files import ReadError, read_core_level
    from ..linkup.verify import replay
    from ..render import format_summary

    try:
        level, problems = read_core_level(source)
    except ReadError as exc:
        status = "schema-invalid" if exc.is_format else "unreadable"
        return Verdict(source, status, EXIT_UNREADABLE, problems=list(exc.problems))
    if level is None:
        return Verdict(source, "invalid", EXIT_INVALID, problems=problems)
    if level.solution is not None:
        problems.extend(replay(level.board, level.rules, level.solution))
        if not problems and level.metrics is not None:
            from ..linkup.difficulty import metrics_problems

            problems = metrics_problems(level.board, level.rules, level.solution, level.metrics)
        if problems:
            return Verdict(source, "invalid", EXIT_INVALID, problems=problems)
        summary = format_summary(level)
        return Verdict(source, "ok", EXIT_OK, f"ok: solution replayed ({summary})")
    if problems:
        return Verdict(source, "invalid", EXIT_INVALID, problems=problems)
    return _solve_verdict(source, level, method, time_limit, workers)


def _solve(
    source: str, level: Level, method: Method, time_limit: float, workers: int | None
) -> SolveResult:
    """Solve ``level`` with the command's options (a progress bar on a terminal)."""
    from ..linkup.solvers import solve

    with progress_bar(f"solving {source}"):
        return solve(
            level.board,
            level.rules,
            budget=budget(time_limit),
            method=method.value,
            rival=rival(workers),
        )


def _solve_verdict(
    source: str, level: Level, method: Method, time_limit: float, workers: int | None
) -> Verdict:
    from ..linkup.solvers import SolveStatus

    result = _solve(source, level, method, time_limit, workers)
    if result.status is SolveStatus.SOLVED:
        steps = len(result.moves or ())
        return Verdict(
            source,
            "solvable",
            EXIT_OK,
            f"solvable: a solution of {steps} step{'' if steps == 1 else 's'} was found",
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
        list[str],
        typer.Argument(
            help="Level files ('-': standard input), or pack directories (or their"
            " manifest.json): hashes, ids, plan and every level checked.",
            metavar="FILE",
        ),
    ],
    json_output: Annotated[
        bool, typer.Option("--json", help="Print one JSON object with a verdict per file.")
    ] = False,
    method: MethodOption = Method.auto,
    time_limit: TimeLimitOption = 10.0,
    workers: WorkersOption = None,
) -> None:
    """Check level files: structure, then the solution replayed step by step.

    A level without a solution is solved and reported solvable, unsolvable (with the deadlock
    core) or undecided.  Each problem is printed as FILE: /json/pointer: reason.  Exit codes:
    0 all ok or solvable; 1 some level invalid or unsolvable; 3 some file unreadable or not a
    level file; 4 some level undecided (with several files, the most serious code: 3, 1, 4);
    70 internal error (a bug).
    """
    verdicts = [_verify_one(source, method, time_limit, workers) for source in files]
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
    no_clobber: NoClobberOption = False,
    workers: WorkersOption = None,
) -> None:
    """Solve a hand-made level and write it with its solution and metrics.

    Any solution already in the file is replaced, and so is its generator block: the file
    written names levelgen-solve, its version and the solver that answered (the seed and
    parameters of whatever made the earlier board no longer describe it, so they are
    dropped).  Exit codes: 0 solved and written;
    1 unsolvable (the reason and the deadlock core are printed) or invalid; 3 unreadable input;
    4 undecided within the time limit; 70 internal error (a bug).
    """
    from ..formats.version import VERSION as __version__
    from ..linkup.core.level import GeneratorInfo, Level
    from ..linkup.difficulty import solution_metrics
    from ..linkup.schema.parameters import GENERATOR_SOLVE
    from ..linkup.solvers import SolveStatus

    check_output(output, no_clobber)
    level = load_level(file)
    result = _solve(file, level, method, time_limit, workers)
    if result.status is SolveStatus.UNSOLVABLE:
        text = f"{file}: unsolvable: {result.reason or 'no removal order clears the board'}"
        if result.deadlock:
            text += "; deadlock core: " + ", ".join(str(p) for p in result.deadlock)
        fail(EXIT_INVALID, text)
    if result.status is SolveStatus.UNKNOWN:
        reason = f": {result.reason}" if result.reason else ""
        fail(EXIT_UNDECIDED, f"{file}: undecided within {time_limit:g} s{reason}")
    moves = result.moves or ()
    provenance = GeneratorInfo(
        GENERATOR_SOLVE,
        __version__,
        None,
        {
            "method": result.method or method.value,
            "requested_method": method.value,
            "time_limit": time_limit,
        },
    )
    solved = Level(
        level.board,
        level.rules,
        moves,
        solution_metrics(level.board, level.rules, moves),
        provenance,
    )
    write(solved, output, no_clobber=no_clobber)
    if output != "-":
        from ..render import format_summary

        typer.echo(format_summary(solved, output), err=True)
