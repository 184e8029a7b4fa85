"""``levelgen show``: draw a level in the terminal."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from .common import (
    app,
    load_level,
    position_at_step,
)

# ----- show ------------------------------------------------------------------------------------


@app.command()
def show(
    file: Annotated[
        str, typer.Argument(help="A level file ('-': standard input).", metavar="FILE")
    ],
    step: Annotated[
        int | None,
        typer.Option(
            help="Show the board before solution step N (counted from 0, as in /solution/N)"
            " with that step's path drawn.",
            metavar="N",
        ),
    ] = None,
) -> None:
    """Draw a level in the terminal: a glyph and colour per kind, holes, walls, the ring.

    Colour only on a terminal, and never with NO_COLOR set.  A kind with an odd number of
    tiles is shown all the same, with a warning on standard error.  Exit codes: 0 shown; 1 invalid
    level (or its solution breaks before step N); 2 bad --step; 3 unreadable input;
    70 internal error (a bug).
    """
    from ..render import format_summary, render_board, use_color

    level = load_level(file, strict=False)
    for kind, count in sorted(level.board.kind_counts().items()):
        if count % 2:
            typer.echo(
                f"{file}: warning: kind {kind} has {count} tile{'' if count == 1 else 's'},"
                " an odd number, so the board can never be cleared",
                err=True,
            )
    color = use_color(sys.stdout)
    if step is None:
        typer.echo(render_board(level.board, level.rules, color=color))
        typer.echo(format_summary(level))
        return
    board, _ = position_at_step(file, level, step)
    solution = level.solution or ()
    move = solution[step]
    typer.echo(render_board(board, level.rules, path=move.path, color=color))
    turns, length = move.path.turns, move.path.length
    typer.echo(
        f"step {step} of {len(solution)}: kind {move.kind}, {move.a} and {move.b},"
        f" {turns} turn{'s' * (turns != 1)}, {length} step{'s' * (length != 1)} long"
    )
