"""``levelgen hint`` and ``levelgen shuffle``: a family's play operations on a level or
position file, through the family table (each game's hint options are its own declared
options).  The heavy modules are imported inside the operations so that a hint stays quick as
a whole process.
"""

from __future__ import annotations

from typing import Annotated

import typer

from .common import (
    EXIT_INVALID,
    EXIT_OK,
    EXIT_UNDECIDED,
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
from .options import GAME_OPTIONS_CONTEXT, GameOptionsCommand, parse_game_options

#: The largest seed accepted (seeds stay exact in every JSON reader).
_MAX_SEED = 2**53 - 1

FileArgument = Annotated[
    str,
    typer.Argument(help="A level file or a position file ('-': standard input).", metavar="FILE"),
]


@app.command(cls=GameOptionsCommand, context_settings=GAME_OPTIONS_CONTEXT)
def hint(
    ctx: typer.Context,
    file: FileArgument,
    json_output: Annotated[bool, typer.Option("--json", help="Print the hint as JSON.")] = False,
    time_limit: TimeLimitOption = 10.0,
) -> None:
    """A hint for a level or position of any game: Link-up's safe move (a move after which the
    game can still be won, proved by the rest of a solution), a sliding puzzle's next optimal
    move, the expected rolls left in snakes and ladders.

    Link-up: among the safe moves found, the one with the fewest turns, then the shortest
    path, then first in reading order; a lost game is reported with the reason and, when the
    file has the level and the played moves, the move that lost it and how many moves to undo.
    Exit codes: 0 hint or won; 1 lost, or a position whose played moves are illegal; 2 an
    option the file's game does not have; 3 unreadable or schema-invalid input; 4 undecided
    within the time limit (a legal move is then offered, unproved).
    """
    from ..formats import format_json
    from ..formats.reports import hint_data, status_code
    from ..puzzles import Capability

    family, document = read_document(file)
    require(family, Capability.HINT, file)
    options = parse_game_options(family, ctx.args, "hint_options")
    answer = run_operation(
        file, lambda: family.hint(document, budget=budget(time_limit), options=options)
    )
    code = status_code(answer.status)
    if json_output:
        typer.echo(format_json(hint_data(answer.status, answer.text, answer.details)), nl=False)
    else:
        typer.echo(answer.text)
    raise typer.Exit(code)


@app.command()
def shuffle(
    file: FileArgument,
    seed: Annotated[
        int | None,
        typer.Option(
            min=0,
            max=_MAX_SEED,
            help="Seed of the shuffle (same seed, same deal); without it a seed is drawn, and"
            " recorded in the level written and said on standard error.",
            metavar="N",
        ),
    ] = None,
    min_moves: Annotated[
        int, typer.Option("--min-moves", min=0, help="Legal moves the shuffled board must offer.")
    ] = 1,
    output: OutputOption = "-",
    no_clobber: NoClobberOption = False,
    json_output: Annotated[
        bool,
        typer.Option(
            "--json",
            help="Print a JSON report (status, legal moves, the level) instead of the level;"
            " the level is still written to -o when it names a file.",
        ),
    ] = False,
    time_limit: TimeLimitOption = 10.0,
) -> None:
    """A solvable shuffle: the remaining tiles re-dealt over the same cells, written as a
    level file with its solution (so that `levelgen verify OUT` passes).

    Works when the player is stuck and when the position cannot be won.  Exit codes: 0
    written; 1 impossible (a kind with an odd number of tiles, or no two cells can ever be
    linked); 3 unreadable or invalid input, or the output exists with --no-clobber; 4 no
    solvable deal found within the attempts or the time limit.
    """
    import secrets

    from ..formats import format_json
    from ..puzzles import Capability

    check_output(output, no_clobber)
    family, document = read_document(file)
    require(family, Capability.SHUFFLE, file)
    if seed is None:
        seed = secrets.randbelow(_MAX_SEED + 1)
    chosen = seed
    answer = run_operation(
        file,
        lambda: family.shuffle(
            document, seed=chosen, budget=budget(time_limit), options={"min_moves": min_moves}
        ),
    )
    code = {"shuffled": EXIT_OK, "impossible": EXIT_INVALID}.get(answer.status, EXIT_UNDECIDED)
    if answer.document is not None and (not json_output or output != "-"):
        data = format_json(family.dump(answer.document)).encode("utf-8")
        write_data(data, output, no_clobber=no_clobber)
    if json_output:
        typer.echo(format_json(dict(answer.details)), nl=False)
        raise typer.Exit(code)
    if answer.status != "shuffled":
        fail(code, f"{file}: {answer.text}")
    typer.echo(answer.text, err=True)
