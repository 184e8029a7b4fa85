"""``levelgen hint`` and ``levelgen shuffle``: the play engine on a level or position file.

Thin commands over :mod:`levelgen.linkup.play.game` (the core) and
:mod:`levelgen.linkup.play.answers` (reading positions, the JSON forms shared with the HTTP
service).  The heavy modules are imported inside the commands so that a hint stays quick as a whole
process.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from ..formats.words import plural
from .common import (
    EXIT_INVALID,
    EXIT_OK,
    EXIT_UNDECIDED,
    EXIT_UNREADABLE,
    MethodOption,
    NoClobberOption,
    OutputOption,
    TimeLimitOption,
    WorkersOption,
    app,
    budget,
    check_output,
    fail,
    family_options,
    linkup_only,
    read_document,
    require,
    run_operation,
    show_problems,
    write,
)

if TYPE_CHECKING:
    from ..linkup import Board, Move, Position, Rules

#: The largest seed accepted (seeds stay exact in every JSON reader).
_MAX_SEED = 2**53 - 1

FileArgument = Annotated[
    str,
    typer.Argument(help="A level file or a position file ('-': standard input).", metavar="FILE"),
]


def _read(source: str, operation: str) -> Position:
    """The Link-up position (or level) of the file ``source``; exit 2 for a file of another
    game, 3 when it is not a readable position or level file, 1 when its played moves do not
    replay (an illegal move, a board that is not where they lead)."""
    from ..formats import ReadError, read_json
    from ..linkup import LevelFormatError, PositionInvalid, position_from_data

    try:
        data = read_json(source)
    except ReadError as exc:
        show_problems(source, exc.problems)
        raise typer.Exit(EXIT_UNREADABLE) from None
    game = data.get("game") if isinstance(data, dict) else None
    linkup_only(source, game if isinstance(game, str) else "linkup", operation)
    try:
        return position_from_data(data)
    except LevelFormatError as exc:
        show_problems(source, exc.problems)
        invalid = isinstance(exc, PositionInvalid)  # well-formed, but its moves do not replay
        raise typer.Exit(EXIT_INVALID if invalid else EXIT_UNREADABLE) from None


def _move_text(move: Move) -> str:
    corners = " ".join(str(p) for p in move.path.corners)
    return (
        f"{move.a} - {move.b} (kind {move.kind}), path {corners}"
        f" ({plural(move.path.turns, 'turn')}, {plural(move.path.length, 'step')})"
    )


@app.command()
def hint(
    file: FileArgument,
    json_output: Annotated[bool, typer.Option("--json", help="Print the hint as JSON.")] = False,
    method: MethodOption = None,
    time_limit: TimeLimitOption = 10.0,
    workers: WorkersOption = None,
    square: Annotated[
        int | None,
        typer.Option(
            help="snakes-ladders: the square the token is on (default 0, off the board).",
            metavar="N",
        ),
    ] = None,
    within: Annotated[
        int | None,
        typer.Option(
            help="snakes-ladders: the chance to finish within this many rolls.", metavar="K"
        ),
    ] = None,
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
    options = family_options(
        method=method and method.value, workers=workers, square=square, within=within
    )
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
    from ..linkup import is_variant, shuffle_to_data, variant_shuffle
    from ..linkup import shuffle as shuffle_position

    check_output(output, no_clobber)
    position = _read(file, "shuffle")
    if seed is None:
        seed = secrets.randbelow(_MAX_SEED + 1)
    shuffler = variant_shuffle if is_variant(position.board, position.rules) else shuffle_position
    result = shuffler(
        position.board, position.rules, seed, min_moves=min_moves, budget=budget(time_limit)
    )
    code = {"shuffled": EXIT_OK, "impossible": EXIT_INVALID}.get(result.status, EXIT_UNDECIDED)
    if json_output:
        if result.status == "shuffled" and output != "-":
            write(result.level(), output, no_clobber=no_clobber)
        typer.echo(format_json(shuffle_to_data(result)), nl=False)
        raise typer.Exit(code)
    if result.status != "shuffled":
        fail(code, f"{file}: shuffle {result.status}: {result.reason}")
    write(result.level(), output, no_clobber=no_clobber)
    same = "; the only arrangement of these tiles" if result.same_as_input else ""
    typer.echo(
        f"shuffled {plural(_tiles(position.board, position.rules), 'tile')} (seed {seed}):"
        f" {plural(result.legal_moves, 'legal move')},"
        f" a solution of {plural(len(result.solution), 'step')}{same}",
        err=True,
    )


def _tiles(board: Board, rules: Rules) -> int:
    """Tiles on the board, every layer counted."""
    from ..linkup import is_variant, state_of

    return state_of(board, rules).tile_count() if is_variant(board, rules) else board.tile_count()
