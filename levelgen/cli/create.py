"""``levelgen create``: generate a level with a replayed solution."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Annotated

import typer

from ..linkup import MAX_LAYERS
from .common import (
    EXIT_INVALID,
    EXIT_UNREADABLE,
    MAX_LAYOUT_BYTES,
    NoClobberOption,
    OutputOption,
    app,
    check_output,
    fail,
    require,
    run_operation,
    set_values,
    show_problems,
    stderr_is_terminal,
    write,
    write_data,
)
from .progress import progress_bar

if TYPE_CHECKING:
    from ..linkup import CheckedSpec, Level


# ----- create --------------------------------------------------------------------------------


@app.command()
def create(
    size: Annotated[
        str | None,
        typer.Option(
            help="Board size WxH: W columns by H rows, for example 12x8.  Sides per game:"
            " linkup 1..64 (no default: give --size or --layout), sliding-puzzle 2..8"
            " (default 4x4), snakes-ladders 1..32 (default 10x10).",
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
        int | None,
        typer.Option(
            help="Tiles per kind: an even number, at least 2.  [default: 4]",
            metavar="C",
            show_default=False,
        ),
    ] = None,
    max_turns: Annotated[
        int | None,
        typer.Option(
            "--max-turns",
            help="Most turns a linking path may make (0..8).  [default: 2]",
            metavar="T",
            show_default=False,
        ),
    ] = None,
    outside: Annotated[
        bool | None,
        typer.Option(
            "--outside/--no-outside",
            help="Whether paths may use the ring around.  [default: outside]",
            show_default=False,
        ),
    ] = None,
    layout: Annotated[
        str | None,
        typer.Option(
            help="Layout file: one line per row, o a tile cell, . a hole, # a wall; for layers,"
            " one block of lines per layer, bottom first, separated by a blank line.",
            metavar="FILE",
        ),
    ] = None,
    slide: Annotated[
        str | None,
        typer.Option(
            help="After every removal the tiles slide: none, down, up, left, right, up-left,"
            " up-right, down-left, down-right, center, apart.  [default: none]",
            metavar="DIR",
            show_default=False,
        ),
    ] = None,
    layers: Annotated[
        int | None,
        typer.Option(
            help=f"Layers (1..{MAX_LAYERS}; 1: a flat board): a pyramid, each layer one cell in"
            " from the one below, unless --layout gives them.",
            metavar="N",
        ),
    ] = None,
    symmetry: Annotated[
        str | None,
        typer.Option(
            help="A symmetric level: mirror (left-right), rotate (a half turn) or both"
            " (left-right and top-bottom): the layout, and the kinds where their counts allow."
            " Without --layout or --shape, symmetric holes are drawn from the seed.",
            metavar="SYM",
        ),
    ] = None,
    shape: Annotated[
        str | None,
        typer.Option(
            help="A named layout (heart, pyramid, ring, ...: see levelgen shapes).",
            metavar="NAME",
        ),
    ] = None,
    output: OutputOption = "-",
    difficulty: Annotated[
        str | None,
        typer.Option(
            help="Steer towards easy|medium|hard|expert or a score N (0..100); copies and"
            " layout density are then chosen by the steering.",
            metavar="TARGET",
        ),
    ] = None,
    no_clobber: NoClobberOption = False,
    game: Annotated[
        str,
        typer.Option(
            help="The game: linkup, sliding-puzzle, snakes-ladders, or one a package registers.",
            metavar="NAME",
        ),
    ] = "linkup",
    moves: Annotated[
        str | None,
        typer.Option(help="sliding-puzzle: the exact optimal length of the start.", metavar="N"),
    ] = None,
    colors: Annotated[
        str | None,
        typer.Option(help="sliding-puzzle: a colour puzzle of K colours.", metavar="K"),
    ] = None,
    goal: Annotated[
        str | None,
        typer.Option(
            help="sliding-puzzle: the goal frame (JSON rows, or a sliding-puzzle level file).",
            metavar="FILE",
        ),
    ] = None,
    snakes: Annotated[
        str | None, typer.Option(help="snakes-ladders: how many snakes.", metavar="N")
    ] = None,
    ladders: Annotated[
        str | None, typer.Option(help="snakes-ladders: how many ladders.", metavar="N")
    ] = None,
    expected: Annotated[
        str | None,
        typer.Option(
            help="snakes-ladders: the window of the expected length in rolls, LO:HI (a side"
            " may be left out).",
            metavar="LO:HI",
        ),
    ] = None,
    fewest: Annotated[
        str | None,
        typer.Option(help="snakes-ladders: bounds on the fewest rolls, LO:HI.", metavar="LO:HI"),
    ] = None,
    faces: Annotated[
        str | None, typer.Option(help="snakes-ladders: faces of the die.", metavar="F")
    ] = None,
    overshoot: Annotated[
        str | None,
        typer.Option(
            help="snakes-ladders: exact, bounce or pass at the last square.", metavar="RULE"
        ),
    ] = None,
    settings: Annotated[
        list[str] | None,
        typer.Option(
            "--set",
            help="Another create option of the game, NAME=VALUE (repeatable): for the games a"
            " package registers.",
            metavar="NAME=VALUE",
        ),
    ] = None,
) -> None:
    """Generate a level of any game with its certificate (replayed) and write it as JSON.

    Without --seed a random seed is drawn and recorded in the file.  On a terminal the board
    and a summary are shown on standard error.  Each game takes its own options (Link-up's
    --kinds to --layers, the sliding puzzle's --moves, --colors and --goal, snakes and
    ladders' --snakes to --overshoot; --set for others); --size, --seed and --difficulty
    (a band, easy to expert) serve every game.  Exit codes: 0 written; 1 no level can be made
    (the layout admits none); 2 bad option values, or an option the game does not have;
    3 unreadable layout file or unwritable output; 70 internal error (a bug).
    """
    own = {
        "moves": moves,
        "colors": colors,
        "goal": goal,
        "snakes": snakes,
        "ladders": ladders,
        "expected": expected,
        "fewest": fewest,
        "faces": faces,
        "overshoot": overshoot,
    }
    if game != "linkup":
        linkup_only = {
            "kinds": kinds,
            "copies": copies,
            "max_turns": max_turns,
            "outside": outside,
            "layout": layout,
            "slide": slide,
            "layers": layers,
            "symmetry": symmetry,
            "shape": shape,
        }
        given = {**linkup_only, **own}
        values: dict[str, object] = {k: v for k, v in given.items() if v is not None}
        if goal is not None:
            values["goal"] = _read_goal(goal)
        values.update(set_values(settings or []))
        if size is not None:
            values["size"] = size
        if difficulty is not None:
            values["difficulty"] = difficulty
        return _create_other(game, values, seed, output, no_clobber)
    for name, value in own.items():
        if value is not None:
            option = "--" + name.replace("_", "-")
            raise typer.BadParameter("not an option of game 'linkup'", param_hint=f"'{option}'")
    if settings:
        raise typer.BadParameter("not an option of game 'linkup'", param_hint="'--set'")
    import secrets

    from ..formats import ReadError, read_text
    from ..linkup import (
        MAX_SEED,
        CreateSpec,
        GenerationError,
        SpecError,
        check_create_spec,
        create_level,
        format_size,
    )

    check_output(output, no_clobber)
    text = None
    if layout is not None:
        try:
            text = read_text(layout, max_bytes=MAX_LAYOUT_BYTES, what="layout")
        except ReadError as exc:
            show_problems(layout, exc.problems)
            raise typer.Exit(EXIT_UNREADABLE) from None
    layout_name = str(layout)
    if shape is not None:
        text, layout_name = _shape_layout(shape, layout), f"shape {shape}"
    spec = CreateSpec(
        size=size,
        seed=seed,
        kinds=kinds,
        copies=4 if copies is None else copies,
        max_turns=2 if max_turns is None else max_turns,
        outside=True if outside is None else outside,
        layout=text,
        layout_name=layout_name,
        difficulty=difficulty,
        slide=slide or "none",
        layers=layers,
        symmetry=symmetry,
        shape=shape,
    )
    try:
        checked = check_create_spec(spec)
    except SpecError as exc:
        if exc.unreadable:
            fail(EXIT_UNREADABLE, f"{layout}: {exc.message}")
        option = "--" + exc.field.replace("_", "-")
        raise typer.BadParameter(exc.message, param_hint=f"'{option}'") from None
    if seed is None:
        seed = secrets.randbelow(MAX_SEED + 1)
    if checked.difficulty is not None:
        level = _create_steered(checked, seed)
        write(level, output, no_clobber=no_clobber)
        return _report_created(level, output)
    try:
        with progress_bar(f"creating {format_size(checked.size)}") as report:
            level = create_level(checked, seed, report)
    except GenerationError as exc:
        fail(EXIT_INVALID, f"levelgen create: {exc}")
    write(level, output, no_clobber=no_clobber)
    _report_created(level, output)


def _shape_layout(name: str, layout: str | None) -> str:
    """The layout text of ``--shape NAME``; a usage error for an unknown name or with
    ``--layout``."""
    from ..linkup import UnknownShape, shape_text

    if layout is not None:
        raise typer.BadParameter("give --layout or --shape, not both", param_hint="'--shape'")
    try:
        return shape_text(name)
    except UnknownShape as exc:
        raise typer.BadParameter(str(exc), param_hint="'--shape'") from None


@app.command()
def shapes(
    json_output: Annotated[bool, typer.Option("--json", help="Print the list as JSON.")] = False,
) -> None:
    """List the named shapes create --shape and pack --shape take: name, size, tile count and
    the symmetry of the layout (both: left-right and top-bottom; mirror: left-right; rotate:
    a half turn)."""
    from ..formats import format_json
    from ..linkup import shape_info, shape_names

    infos = [shape_info(name) for name in shape_names()]
    if json_output:
        rows = [
            {
                "name": i.name,
                "size": f"{i.width}x{i.height}",
                "tiles": i.tiles,
                "symmetry": i.symmetry,
            }
            for i in infos
        ]
        typer.echo(format_json(rows), nl=False)
        return
    typer.echo(f"{'name':<10} {'size':>6} {'tiles':>5}  symmetry")
    for i in infos:
        typer.echo(f"{i.name:<10} {f'{i.width}x{i.height}':>6} {i.tiles:>5}  {i.symmetry}")


def _create_steered(checked: CheckedSpec, seed: int) -> Level:
    """``levelgen create --difficulty``: the steered level, or exit with a clear line.  A level
    that missed its target is still written (the closest found) and said on standard error."""
    from ..linkup import GenerationError, steered_level

    try:
        result = steered_level(checked, seed)
    except GenerationError as exc:
        fail(EXIT_INVALID, f"levelgen create: {exc}")
    if not result.in_band:
        diff = result.level.metrics.difficulty if result.level.metrics else None
        got = "" if diff is None else f" scores {diff.score} ({diff.band})"
        typer.echo(
            f"levelgen create: no level met --difficulty {checked.difficulty} in"
            f" {result.attempts} attempts; the closest found{got} was written"
            " (generator.parameters.difficulty_in_band is false)",
            err=True,
        )
    return result.level


def _report_created(level: Level, output: str) -> None:
    """The board and a summary on a terminal; the summary alone when writing a file."""
    from ..linkup import format_summary, render_board
    from ..render import use_color

    name = "" if output == "-" else output
    if stderr_is_terminal():
        picture = render_board(level.board, level.rules, color=use_color(sys.stderr))
        typer.echo(picture, err=True)
        typer.echo(format_summary(level, name), err=True)
    elif output != "-":
        typer.echo(format_summary(level, name), err=True)


def _read_goal(source: str) -> object:
    """The JSON of ``--goal FILE`` (a frame, or a level file whose goal the game takes)."""
    from ..formats import ReadError, read_json

    try:
        return read_json(source)
    except ReadError as exc:
        show_problems(source, exc.problems)
        raise typer.Exit(EXIT_UNREADABLE) from None


def _create_other(
    game: str, values: dict[str, object], seed: int | None, output: str, no_clobber: bool
) -> None:
    """``levelgen create --game NAME`` for a game other than Link-up, through its family."""
    import secrets

    from ..formats import MAX_SEED, format_json
    from ..puzzles import Capability, FamilyError, FamilySetupError, family

    check_output(output, no_clobber)
    try:
        item = family(game)
    except FamilySetupError:
        raise  # LEVELGEN_FAMILIES or an entry point: one line naming it (exit 2)
    except FamilyError as exc:
        raise typer.BadParameter(str(exc), param_hint="'--game'") from None
    require(item, Capability.CREATE, f"levelgen create --game {game}")
    if seed is not None and not 0 <= seed <= MAX_SEED:
        raise typer.BadParameter(f"{seed} is not in 0..{MAX_SEED}", param_hint="'--seed'")
    spec = run_operation(game, lambda: item.parse_spec(values))
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
