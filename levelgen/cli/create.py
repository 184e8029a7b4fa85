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
    from ..linkup import CheckedSpec, Level


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
    spec = CreateSpec(
        size=size,
        seed=seed,
        kinds=kinds,
        copies=copies,
        max_turns=max_turns,
        outside=outside,
        layout=text,
        layout_name=str(layout),
        difficulty=difficulty,
        slide=slide,
        layers=layers,
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
