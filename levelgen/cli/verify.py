"""``levelgen verify`` and ``levelgen solve`` for every game: check level files, solve
hand-made ones, through the family table of the file's game."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from .common import (
    EXIT_INVALID,
    EXIT_UNDECIDED,
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
    family_options,
    read_document,
    refuse_option,
    require,
    show_problems,
    write_data,
)
from .progress import progress_bar

# ----- verify ----------------------------------------------------------------------------------


def _verify_one(source: str, prove: bool, options: dict[str, Any], time_limit: float) -> Verdict:
    """Read and check one file of any family (its certificate replayed, or the level solved),
    or a pack directory."""
    if source != "-" and Path(source).is_dir() and not (Path(source) / "manifest.json").exists():
        from ..formats import Problem

        reason = "no manifest.json: not a pack directory (give its level files: DIR/*.json)"
        return Verdict(source, "unreadable", problems=[Problem("", reason)])
    if source != "-" and (Path(source).is_dir() or Path(source).name == "manifest.json"):
        from .pack import pack_verdict

        return pack_verdict(source)
    from ..formats import ReadError, read_json
    from ..puzzles import Capability, DocumentError, FamilyError, SpecError, family_of, require

    try:
        data = read_json(source)
    except ReadError as exc:
        return Verdict(source, "unreadable", problems=list(exc.problems))
    try:
        family = family_of(data)
        document = family.read(data)
    except DocumentError as exc:
        status = "schema-invalid" if exc.is_format else "invalid"
        return Verdict(source, status, problems=list(exc.problems))
    from ..formats import Problem

    # An option or operation the file's game does not have is refused for this file alone:
    # the other files still get their verdicts (the exit code is 2 unless one is worse).
    try:
        require(family, Capability.PROVE if prove else Capability.VERIFY)
    except FamilyError as exc:
        return Verdict(source, "refused", problems=[Problem("", str(exc))])
    with progress_bar(f"verifying {source}"):
        try:
            found = family.verify(document, prove=prove, budget=budget(time_limit), options=options)
        except SpecError as exc:
            option = "--" + exc.option.replace("_", "-")
            return Verdict(source, "refused", problems=[Problem("", f"{option}: {exc.reason}")])
    return Verdict(source, found.status, found.text, list(found.problems), dict(found.details))


@app.command()
def verify(
    files: Annotated[
        list[str],
        typer.Argument(
            help="Level files of any game ('-': standard input), or pack directories (or their"
            " manifest.json): hashes, ids, plan and every level checked.",
            metavar="FILE",
        ),
    ],
    json_output: Annotated[
        bool, typer.Option("--json", help="Print one JSON object with a verdict per file.")
    ] = False,
    prove: Annotated[
        bool,
        typer.Option(
            "--prove",
            help="Prove the certificate's claims again (a sliding puzzle's optimal length;"
            " a Link-up solution's replay is already its proof).",
        ),
    ] = False,
    method: MethodOption = None,
    time_limit: TimeLimitOption = 10.0,
    workers: WorkersOption = None,
) -> None:
    """Check level files: structure, then the certificate replayed step by step.

    A level without a solution is solved and reported solvable, unsolvable (with the proof) or
    undecided.  The verdicts go to standard output as FILE: verdict; the problems to standard
    error as FILE: /json/pointer: reason (--json: one report on standard output).  A folder
    must be a pack (with its manifest.json).  Exit codes:
    0 all ok or solvable; 1 some level invalid or unsolvable; 2 an option some file's game
    does not have (refused for that file alone); 3 some file unreadable or not a level file;
    4 some level undecided (with several files, the most serious code: 3, 2, 1, 4); 70
    internal error (a bug).
    """
    from ..formats.reports import SEVERITY

    options = family_options(method=method and method.value, workers=workers)
    verdicts = [_verify_one(source, prove, options, time_limit) for source in files]
    code = max((v.code for v in verdicts), key=SEVERITY.index)
    if json_output:
        report = {"exit_code": code, "files": [v.to_data() for v in verdicts]}
        typer.echo(json.dumps(report, indent=2))
    else:
        for v in verdicts:
            show_problems(v.file, v.problems)
            if v.message:
                typer.echo(f"{v.file}: {v.message}")
    raise typer.Exit(code)


# ----- solve -----------------------------------------------------------------------------------


@app.command("solve")
def solve_command(
    file: Annotated[
        str, typer.Argument(help="A level file of any game ('-': standard input).", metavar="FILE")
    ],
    output: OutputOption = "-",
    method: MethodOption = None,
    time_limit: TimeLimitOption = 10.0,
    no_clobber: NoClobberOption = False,
    workers: WorkersOption = None,
) -> None:
    """Solve a level and write it with its certificate and metrics.

    Any certificate already in the file is replaced.  A Link-up level's generator block is
    replaced too (the file written names levelgen-solve, its version and the solver that
    answered); a sliding puzzle or a snakes-and-ladders board keeps its own.  A sliding
    puzzle's solution is optimal; when the time runs out first, the best solution found is
    written with its proved lower bound and exit 4.  Exit codes: 0 solved and written;
    1 unsolvable (the proof is printed) or invalid; 2 an option the file's game does not have;
    3 unreadable input; 4 undecided within the time limit; 70 internal error (a bug).
    """
    from ..formats import format_json
    from ..puzzles import Capability, SpecError

    check_output(output, no_clobber)
    family, document = read_document(file)
    require(family, Capability.SOLVE, file)
    options = family_options(method=method and method.value, workers=workers)
    with progress_bar(f"solving {file}"):
        try:
            answer = family.solve(document, budget=budget(time_limit), options=options)
        except SpecError as exc:
            refuse_option(exc)
    if answer.status == "invalid":
        show_problems(file, answer.problems)
        raise typer.Exit(EXIT_INVALID)
    if answer.document is not None:
        data = format_json(family.dump(answer.document)).encode("utf-8")
        write_data(data, output, no_clobber=no_clobber)
    if answer.status == "unsolvable":
        fail(EXIT_INVALID, f"{file}: {answer.text}")
    if answer.status != "solved":
        fail(EXIT_UNDECIDED, f"{file}: {answer.text}")
    if output != "-":
        typer.echo(f"{output}: {family.describe(answer.document)}", err=True)
