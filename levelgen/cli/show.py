"""``levelgen show``: draw a level in the terminal."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from .common import app, family_options, read_document, require, run_operation

# ----- show ------------------------------------------------------------------------------------


@app.command()
def show(
    file: Annotated[
        str,
        typer.Argument(
            help="A level file, or a position file (its current board) ('-': standard input).",
            metavar="FILE",
        ),
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
    """Draw a level of any game in the terminal (Link-up: a glyph and colour per kind, holes,
    walls, the ring).

    Colour only on a terminal, and never with NO_COLOR set.  A Link-up kind with an odd number
    of tiles (on all layers together) is shown all the same, with a warning on standard error.
    Exit codes: 0 shown; 1 invalid level (or its solution breaks before step N); 2 bad --step;
    3 unreadable input; 70 internal error (a bug).
    """
    from ..puzzles import Capability
    from ..render import use_color

    family, document = read_document(file)
    require(family, Capability.SHOW, file)
    options = family_options(step=step)
    color = use_color(sys.stdout)
    text, warnings = run_operation(
        file, lambda: family.show(document, color=color, options=options)
    )
    for warning in warnings:
        typer.echo(f"{file}: {warning}", err=True)
    typer.echo(text)
