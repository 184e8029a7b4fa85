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
    from ..board import Board
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
            help="Layout file: one line per row, o a tile cell, . a hole, # a wall; for layers,"
            " one block of lines per layer, bottom first, separated by a blank line.",
            metavar="FILE",
        ),
    ] = None,
    slide: Annotated[
        str,
        typer.Option(
            help="After every removal the tiles slide: none, down, up, left, right, up-left,"
            " up-right, down-left, down-right, center, apart.",
            metavar="DIR",
        ),
    ] = "none",
    layers: Annotated[
        int | None,
        typer.Option(
            help="Stacked layers (2..8): a pyramid, each layer one cell in from the one below,"
            " unless --layout gives them.",
            metavar="N",
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
) -> None:
    """Generate a level with a replayed solution and write it as JSON.

    Without --seed a random seed is drawn and recorded in the file.  On a terminal the board
    and a summary are shown on standard error.  Exit codes: 0 written; 1 the layout admits no
    level; 2 bad option values; 3 unreadable layout file or unwritable output; 70 internal
    error (a bug).
    """
    import secrets

    from ..generator import GenerationError, generate, kind_tile_counts
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
    _check_variant_options(slide, layers)
    template = None
    if layout is not None:
        try:
            template = _parse_any_layout(
                read_text(layout, max_bytes=MAX_LAYOUT_BYTES, what="layout"), layers
            )
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
    template = _layers_template(template, layers, board_size, layout)
    tiles = template_tiles(template) if template is not None else Size(*board_size).cells
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
    if difficulty is not None:
        from .pack import create_steered

        if slide != "none" or (template is not None and template.upper):
            variant = f"--slide {slide}" if slide != "none" else "stacked layers"
            raise typer.BadParameter(
                f"difficulty steering does not support {variant} yet", param_hint="'--difficulty'"
            )

        level = create_steered(
            board_size, difficulty, Rules(max_turns, outside), template, seed, kinds
        )
        write(level, output, no_clobber=no_clobber)
        return _report_created(level, output)
    try:
        with progress_bar(f"creating {format_size(board_size)}") as report:
            level = generate(
                board_size,
                kinds=kinds,
                copies=copies,
                rules=Rules(max_turns, outside, slide),
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


# ----- variants: --slide and --layers ----------------------------------------------------------


def _check_variant_options(slide: str, layers: int | None) -> None:
    from ..layers import MAX_LAYERS
    from ..rules import SLIDES

    if slide not in SLIDES:
        raise typer.BadParameter(
            f"{slide!r} is not one of {', '.join(SLIDES)}", param_hint="'--slide'"
        )
    if layers is not None and not 1 <= layers <= MAX_LAYERS:
        raise typer.BadParameter(f"{layers} is not in 1..{MAX_LAYERS}", param_hint="'--layers'")
    if layers is not None and layers > 1 and slide != "none":
        raise typer.BadParameter(
            f"--slide {slide} with --layers {layers}: stacked layers and sliding tiles do not"
            " combine",
            param_hint="'--slide'",
        )


def _parse_any_layout(text: str, layers: int | None) -> Board:
    """A one-layer layout, or one of several layers separated by blank lines.
    ``GenerationError`` (reported as an unreadable layout) for a bad one."""
    from ..generator import GenerationError, parse_layout
    from ..generator_variants import parse_layers_layout

    blocks = [b for b in text.strip("\n").split("\n\n") if b.strip()]
    if len(blocks) < 2 and not layers:
        return parse_layout(text)
    try:
        return parse_layers_layout(text)
    except ValueError as exc:
        raise GenerationError(str(exc)) from None


def _layers_template(
    template: Board | None, layers: int | None, size: tuple[int, int], layout: str | None
) -> Board | None:
    """The template with ``--layers``: the layout's (whose layer count must match) or a
    pyramid of ``size``."""
    from ..generator_variants import pyramid_layout
    from ..layers import layer_count

    if layers is None:
        return template
    if template is not None:
        if layer_count(template) != layers:
            raise typer.BadParameter(
                f"{layout} has {layer_count(template)} layers, not {layers}",
                param_hint="'--layers'",
            )
        return template
    try:
        return pyramid_layout(size[0], size[1], layers)
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="'--layers'") from None


def template_tiles(template: Board) -> int:
    from ..layers import layered_tile_count

    return layered_tile_count(template)
