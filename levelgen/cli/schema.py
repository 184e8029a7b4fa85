"""``levelgen schema`` and ``levelgen version``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from .. import __version__
from .common import (
    EXIT_INVALID,
    EXIT_UNREADABLE,
    EXIT_USAGE,
    SCHEMA_NAME,
    app,
    fail,
    show_problems,
)

# ----- schema ----------------------------------------------------------------------------------


@app.command()
def schema(
    check: Annotated[
        bool,
        typer.Option("--check", help="Compare with the checked-in schema instead of printing."),
    ] = False,
    file: Annotated[
        Path | None,
        typer.Option(
            "--file",
            help="The schema file --check compares with (default: schemas/level.v1.schema.json"
            " of the source tree, else of the current folder or the nearest one above).",
            metavar="FILE",
            show_default=False,
        ),
    ] = None,
    output: Annotated[
        str,
        typer.Option(
            "-o", "--output", help="Where to write ('-': standard output).", metavar="FILE"
        ),
    ] = "-",
) -> None:
    """Print the JSON Schema (draft 2020-12) of level files, generated from the models.

    Exit codes: 0 printed, or --check found no drift; 1 --check found the file out of date;
    2 --check found no schema file; 3 --check could not read the file; 70 internal error
    (a bug).
    """
    from ..schema import level_json_schema
    from ..storage import ReadError, WriteError, format_json, read_json, write_text

    generated = level_json_schema()
    if not check:
        try:
            write_text(format_json(generated), output)
        except WriteError as exc:
            fail(EXIT_UNREADABLE, f"levelgen: {exc}")
        return
    file = file or _checked_in_schema()
    if file is None:
        fail(
            EXIT_USAGE,
            f"levelgen: no {SCHEMA_NAME} found in the source tree or the current folder and"
            " its parents; pass --file",
        )
    try:
        stored = read_json(file)
    except ReadError as exc:
        show_problems(str(file), exc.problems)
        raise typer.Exit(EXIT_UNREADABLE) from None
    if stored != generated:
        fail(
            EXIT_INVALID,
            f"{file}: out of date with the models; regenerate it with: levelgen schema -o {file}",
        )
    typer.echo(f"{file}: up to date")


def _checked_in_schema() -> Path | None:
    """``schemas/level.v1.schema.json`` next to the package (a source checkout), else in the
    current folder or the nearest parent that has one (an installed package), else None."""
    for folder in (Path(__file__).resolve().parents[2], Path.cwd(), *Path.cwd().parents):
        candidate = folder / SCHEMA_NAME
        if candidate.is_file():
            return candidate
    return None


@app.command()
def version() -> None:
    """Print the version."""
    typer.echo(__version__)
