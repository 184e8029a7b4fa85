"""``levelgen fix`` and ``levelgen fill``: a level designer's aids, through the family table
(a game without the operation is refused with exit 2).

``fix`` suggests the fewest changes found within the time limit that make a level solvable
(Link-up: tile swaps) and writes the fixed level with its certificate; ``fill`` puts pieces on
given empty cells so that the level is solvable and writes it.  Both write atomically through
the one writer of every ``-o``; ``--json`` prints the answer the service gives
(:func:`levelgen.formats.design.design_data`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from .common import (
    EXIT_INVALID,
    EXIT_OK,
    NoClobberOption,
    OutputOption,
    TimeLimitOption,
    app,
    budget,
    check_output,
    fail,
    read_document,
    require,
    run_operation,
    write_data,
)

if TYPE_CHECKING:
    from ..puzzles import DesignAnswer, Family

_MAX_SEED = 2**53 - 1

FileArgument = Annotated[
    str, typer.Argument(help="A level file ('-': standard input).", metavar="FILE")
]
JsonOption = Annotated[
    bool,
    typer.Option(
        "--json",
        help="Print a JSON report (status, message, the figures, the level) instead of the"
        " level; the level is still written to -o when it names a file.",
    ),
]


def _finish(
    family: Family,
    answer: DesignAnswer,
    codes: dict[str, int],
    *,
    source: str,
    output: str,
    no_clobber: bool,
    json_output: bool,
) -> None:
    """Write the answer's level (unless ``--json`` goes to standard output alone), print the
    report or the message, and exit with the status's code."""
    from ..formats import format_json
    from ..formats.design import design_data
    from ..formats.reports import problem_lines

    code = codes.get(answer.status, EXIT_INVALID)
    level = None if answer.document is None else family.dump(answer.document)
    if level is not None and (not json_output or output != "-"):
        write_data(format_json(level).encode("utf-8"), output, no_clobber=no_clobber)
    if json_output:
        typer.echo(format_json(design_data(answer, level)), nl=False)
        raise typer.Exit(code)
    for line in problem_lines(source, answer.problems):
        typer.echo(line, err=True)
    if code != EXIT_OK:
        fail(code, f"{source}: {answer.text}")
    typer.echo(answer.text, err=True)
    raise typer.Exit(code)


@app.command()
def fix(
    file: FileArgument,
    output: OutputOption = "-",
    no_clobber: NoClobberOption = False,
    max_swaps: Annotated[
        int,
        typer.Option(
            "--max-swaps", min=0, max=16, metavar="N", help="The most swaps tried (0..16)."
        ),
    ] = 4,
    json_output: JsonOption = False,
    time_limit: TimeLimitOption = 5.0,
) -> None:
    """Suggest a fix for a level that cannot be won: the fewest changes found within the time
    limit after which it can (Link-up: swaps of two tiles' kinds, tried one swap away, then
    two, ...), written as the fixed level with its solution (so that `levelgen verify OUT`
    passes).  The message says whether fewer swaps were ruled out (every board of fewer swaps
    proved unsolvable).

    Exit codes: 0 fixed (or already solvable) and written; 1 invalid (a kind with an odd
    number of tiles: swaps cannot mend it); 2 a game without fix; 3 unreadable or
    schema-invalid input, or the output exists with --no-clobber; 4 no fix found within the
    time limit or --max-swaps.
    """
    from ..formats.design import FIX_CODES
    from ..puzzles import Capability

    check_output(output, no_clobber)
    family, document = read_document(file)
    require(family, Capability.FIX, file)
    answer = run_operation(
        file,
        lambda: family.fix(document, budget=budget(time_limit), options={"max_swaps": max_swaps}),
    )
    _finish(
        family,
        answer,
        FIX_CODES,
        source=file,
        output=output,
        no_clobber=no_clobber,
        json_output=json_output,
    )


def _parse_slots(text: str) -> list[list[int]]:
    """``"x,y x,y ..."`` as cells; a usage error naming the first item that is not ``x,y``."""
    cells: list[list[int]] = []
    for n, item in enumerate(text.replace(";", " ").split()):
        x, sep, y = item.partition(",")
        if not sep or not x.strip().isdigit() or not y.strip().isdigit():
            raise typer.BadParameter(
                f"item {n} ({item!r}) is not a cell x,y of two whole numbers",
                param_hint="'--slots'",
            )
        cells.append([int(x), int(y)])
    return cells


@app.command()
def fill(
    file: FileArgument,
    slots: Annotated[
        str,
        typer.Option(
            "--slots",
            metavar="'X,Y X,Y ...'",
            help="The empty cells to put a piece on, as x,y separated by spaces.",
        ),
    ],
    kinds: Annotated[
        int | None,
        typer.Option(
            min=1,
            max=4096,
            metavar="K",
            help="Kinds 1..K of the new pairs (Link-up's default: the highest kind painted"
            " or a quarter of the slots, whichever is more).",
            show_default=False,
        ),
    ] = None,
    seed: Annotated[
        int,
        typer.Option(min=0, max=_MAX_SEED, metavar="N", help="Seed (same seed, same fill)."),
    ] = 0,
    output: OutputOption = "-",
    no_clobber: NoClobberOption = False,
    json_output: JsonOption = False,
    time_limit: TimeLimitOption = 5.0,
) -> None:
    """Fill the rest of a level drawn in part: a piece on every given empty cell so that the
    whole level can be won, written with its solution (so that `levelgen verify OUT` passes).
    The pieces already there keep their kinds.

    Exit codes: 0 filled and written; 2 slots that are not empty cells, or whose number
    cannot make every kind's count even, or a game without fill; 3 unreadable or
    schema-invalid input, or the output exists with --no-clobber; 4 no fill found within the
    time limit.
    """
    from ..formats.design import FILL_CODES
    from ..puzzles import Capability, SpecError

    cells = _parse_slots(slots)
    check_output(output, no_clobber)
    family, document = read_document(file)
    require(family, Capability.FILL, file)
    options: dict[str, object] = {"slots": cells, "kinds": kinds}

    def operate() -> DesignAnswer:
        try:
            return family.fill(document, seed=seed, budget=budget(time_limit), options=options)
        except SpecError as exc:  # ``slots/3``: the option, and which of its items
            name, _, index = exc.option.partition("/")
            if index:
                raise SpecError(name, f"item {index}: {exc.reason}") from None
            raise

    answer = run_operation(file, operate)
    _finish(
        family,
        answer,
        FILL_CODES,
        source=file,
        output=output,
        no_clobber=no_clobber,
        json_output=json_output,
    )
