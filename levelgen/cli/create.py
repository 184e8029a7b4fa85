"""``levelgen create``: generate a level with a replayed solution."""

from __future__ import annotations

import sys
from typing import Annotated, Any, NoReturn

import typer

from ..puzzles import DEFAULT_GAME, Family, OptionKind, SpecError
from .common import (
    EXIT_UNREADABLE,
    EXIT_USAGE,
    NoClobberOption,
    OutputOption,
    app,
    check_output,
    fail,
    refuse_option,
    require,
    run_operation,
    set_values,
    stderr_is_terminal,
    write_data,
)
from .options import family_spec_values, game_family, given_values, with_family_options
from .progress import progress_bar

# ----- create --------------------------------------------------------------------------------


@app.command()
@with_family_options("create_options")
def create(
    size: Annotated[
        str | None,
        typer.Option(
            help="Board size WxH: W columns by H rows, for example 12x8.  linkup: 1..64 a side"
            " (no default: give --size, --layout or --shape); sliding-puzzle: 2..8 a side"
            " (default 4x4); snakes-ladders: 1..32 a side (default 10x10).",
            metavar="WxH",
        ),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option(
            help="Seed (0 .. 2^53-1); the same seed and options give the same file.", metavar="N"
        ),
    ] = None,
    output: OutputOption = "-",
    difficulty: Annotated[
        str | None,
        typer.Option(
            help="Steer towards a band (easy, medium, hard, expert) on the one difficulty scale;"
            " linkup also takes a score N (0..100), and then chooses copies and the layout's"
            " density itself.  The level carries its difficulty block (metrics.difficulty).",
            metavar="TARGET",
        ),
    ] = None,
    no_clobber: NoClobberOption = False,
    game: Annotated[
        str,
        typer.Option(
            help="The game: linkup (the default), sliding-puzzle, snakes-ladders, or one a"
            " package registers (its options through --set).",
            metavar="NAME",
        ),
    ] = DEFAULT_GAME,
    settings: Annotated[
        list[str] | None,
        typer.Option(
            "--set",
            help="Another create option of the game, NAME=VALUE (repeatable): for the games a"
            " package registers.",
            metavar="NAME=VALUE",
        ),
    ] = None,
    **family_given: Any,
) -> None:
    """Generate a level of any game with its certificate (replayed) and write it as JSON.

    Without --seed a random seed is drawn and recorded in the file.  On a terminal the board
    and a summary are shown on standard error.  Each game takes its own options, named below
    with the game they belong to (linkup: --kinds to --shape; sliding-puzzle: --moves,
    --colors, --goal; snakes-ladders: --snakes to --overshoot; --set for a game a package
    registers); --size, --seed and --difficulty serve every game.  Exit codes: 0 written;
    1 no level can be made (the layout admits none); 2 bad option values, or an option the
    game does not have; 3 unreadable layout or goal file or unwritable output; 70 internal
    error (a bug).
    """
    import secrets

    from ..formats import MAX_SEED, format_json
    from ..puzzles import Capability, SpecError

    check_output(output, no_clobber)
    item = game_family(game)
    require(item, Capability.CREATE, f"levelgen create --game {game}")
    if seed is not None and not 0 <= seed <= MAX_SEED:
        raise typer.BadParameter(f"{seed} is not in 0..{MAX_SEED}", param_hint="'--seed'")
    given = given_values(family_given)
    values: dict[str, object] = family_spec_values(item, given)
    if settings:
        values.update(set_values(settings))
    if size is not None:
        values["size"] = size
    if difficulty is not None:
        values["difficulty"] = difficulty
    try:
        spec = item.parse_spec(values)
    except SpecError as exc:
        _refuse_spec(item, exc, given)
    if seed is None:
        seed = secrets.randbelow(MAX_SEED + 1)
    chosen = seed
    with progress_bar(f"creating a {game} level") as report:
        document = run_operation(game, lambda: item.create(spec, chosen, report))
    write_data(format_json(item.dump(document)).encode("utf-8"), output, no_clobber=no_clobber)
    name = "" if output == "-" else output
    if stderr_is_terminal() and Capability.SHOW in item.capabilities:
        from ..render import use_color

        text, _ = item.show(document, color=use_color(sys.stderr), options={})
        typer.echo(text, err=True)
    elif name:
        typer.echo(f"{name}: {item.describe(document)}", err=True)
    for note in item.notes(document):
        typer.echo(f"levelgen create: {note}", err=True)


def _refuse_spec(item: Family, exc: SpecError, given: dict[str, object]) -> NoReturn:
    """Exit for a create option the family refused: 3 naming the file when a file's content
    cannot be read as the option's (a layout that is no layout), else 2 naming the option
    (and the file it came from)."""
    kinds = {option.name: option.kind for option in item.create_options}
    source = given.get(exc.option)
    if kinds.get(exc.option) in (OptionKind.LINES, OptionKind.JSON) and isinstance(source, str):
        if exc.is_format:
            fail(EXIT_UNREADABLE, f"{source}: {exc.reason}")
        exc = SpecError(exc.option, f"{source}: {exc.reason}")
    refuse_option(exc)


@app.command()
def shapes(
    json_output: Annotated[bool, typer.Option("--json", help="Print the list as JSON.")] = False,
    game: Annotated[
        str, typer.Option(help="The game whose shapes to list.", metavar="NAME")
    ] = DEFAULT_GAME,
) -> None:
    """List the named shapes create --shape and pack --shape take (linkup): name, size, tile
    count and the symmetry of the layout (both: left-right and top-bottom; mirror: left-right;
    rotate: a half turn)."""
    from ..formats import format_json

    item = game_family(game)
    rows = [dict(row) for row in item.shapes()]
    if not rows:
        fail(EXIT_USAGE, f"levelgen shapes: game {game!r} has no named shapes")
    if json_output:
        typer.echo(format_json(rows), nl=False)
        return
    typer.echo(f"{'name':<10} {'size':>6} {'tiles':>5}  symmetry")
    for row in rows:
        typer.echo(f"{row['name']:<10} {row['size']:>6} {row['tiles']:>5}  {row['symmetry']}")
