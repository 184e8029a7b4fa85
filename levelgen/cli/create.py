"""``levelgen create``: generate a level with a replayed solution."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Annotated

import typer

from .common import (
    EXIT_INVALID,
    EXIT_UNREADABLE,
    MAX_LAYOUT_BYTES,
    NoClobberOption,
    OutputOption,
    app,
    check_output,
    fail,
    show_problems,
    stderr_is_terminal,
    write,
)
from .progress import progress_bar

if TYPE_CHECKING:
    from ..level import Level


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
    no_clobber: NoClobberOption = False,
) -> None:
    """Generate a level with a replayed solution and write it as JSON.

    Without --seed a random seed is drawn and recorded in the file.  On a terminal the board
    and a summary are shown on standard error.  Exit codes: 0 written; 1 the layout admits no
    level; 2 bad option values; 3 unreadable layout file or unwritable output; 70 internal
    error (a bug).
    """
    import secrets

    from ..generator import GenerationError, generate, kind_tile_counts, parse_layout
    from ..geometry import Size, format_size, parse_size
    from ..rules import MAX_TURNS_LIMIT, Rules
    from ..schema import MAX_SEED
    from ..storage import ReadError, read_text

    check_output(output, no_clobber)
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
            show_problems(layout, exc.problems)
            raise typer.Exit(EXIT_UNREADABLE) from None
        except GenerationError as exc:
            fail(EXIT_UNREADABLE, f"{layout}: {exc}")
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
        with progress_bar(f"creating {format_size(board_size)}") as report:
            level = generate(
                board_size,
                kinds=kinds,
                copies=copies,
                rules=Rules(max_turns, outside),
                layout=template,
                seed=seed,
                progress=report,
            )
    except GenerationError as exc:
        fail(EXIT_INVALID, f"levelgen create: {exc}")
    write(level, output, no_clobber=no_clobber)
    _report_created(level, output)


def _report_created(level: Level, output: str) -> None:
    """The board and a summary on a terminal; the summary alone when writing a file."""
    from ..render import format_summary, render_board, use_color

    name = "" if output == "-" else output
    if stderr_is_terminal():
        picture = render_board(level.board, level.rules, color=use_color(sys.stderr))
        typer.echo(picture, err=True)
        typer.echo(format_summary(level, name), err=True)
    elif output != "-":
        typer.echo(format_summary(level, name), err=True)
