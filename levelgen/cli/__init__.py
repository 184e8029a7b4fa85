"""The ``levelgen`` command line: thin typer commands over the library.

Exit codes: 0 ok / solvable, 1 level well-formed but invalid or unsolvable, 2 usage error,
3 unreadable or schema-invalid input, 4 undecided within the budget.

``common`` holds the app, the exit codes and the helpers every command shares; each command
group has a module of its own that registers its commands on the app when imported here.
"""

from __future__ import annotations

import contextlib
import os
import sys

import typer

from . import create, pack, play, schema, show, verify  # noqa: F401  (each registers its commands)
from . import render as _render  # noqa: F401  (render, play, export)
from .common import EXIT_CODES_HELP, EXIT_INVALID, EXIT_UNREADABLE, app
from .library import library_app  # noqa: F401  (registers `levelgen library`)
from .serve import serve  # noqa: F401  (registers `levelgen serve`)

__all__ = ["EXIT_CODES_HELP", "app", "main"]


def main() -> None:
    """Entry point of the console script.  Standard output that cannot be written (a full
    disk, a reader that went away) ends the command with a message, not a traceback."""
    try:
        app()
    except OSError as exc:
        # Nothing more can go to standard output: point it at /dev/null so that the final
        # flush at exit does not fail again.
        with contextlib.suppress(OSError, ValueError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        if isinstance(exc, BrokenPipeError):
            sys.exit(EXIT_INVALID)  # like any program whose reader went away: quietly
        typer.echo(f"levelgen: cannot write the output: {exc.strerror or exc}", err=True)
        sys.exit(EXIT_UNREADABLE)
