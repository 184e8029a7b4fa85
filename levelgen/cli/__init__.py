"""The ``levelgen`` command line: thin typer commands over the library.

Exit codes: 0 ok / solvable, 1 level well-formed but invalid or unsolvable, 2 usage error,
3 unreadable or schema-invalid input, 4 undecided within the budget, 70 internal error (a bug),
130 interrupted, 141 standard output closed by its reader.
An unexpected exception in any command, present or future, is turned into one line on standard
error and exit 70 by ``common.LevelgenGroup`` (so ``CliRunner`` sees it too); ``main`` catches
what escapes before a command runs.

``common`` holds the app, the exit codes and the helpers every command shares; each command
group has a module of its own that registers its commands on the app when imported.  Those
modules but ``schema`` are imported only when one of their commands runs
(``common.LAZY_COMMANDS``, and ``common.LAZY_GROUPS`` for ``bench`` and ``library``), so that
each command starts with its own imports only.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import sys
import threading
from typing import NoReturn

import typer

from . import rate, schema  # noqa: F401  (register rate, schema, version; others load lazily)
from .common import (
    EXIT_BROKEN_PIPE,
    EXIT_CODES_HELP,
    EXIT_UNREADABLE,
    app,
    internal_error,
    is_output_error,
)

__all__ = ["EXIT_CODES_HELP", "app", "main"]


def main() -> None:
    """Entry point of the console script.  Standard output that cannot be written (a full
    disk, a reader that went away) ends the command with a message, not a traceback; any
    other exception that reaches here is a bug: one line and exit 70.  A command that ends
    leaves the process at once (:func:`_leave`)."""
    try:
        try:
            app()
        except SystemExit as stop:
            _leave(stop)  # an output error of its flush is handled below
            raise
    except OSError as exc:
        if not is_output_error(exc):
            _internal(exc)
        # Nothing more can go to standard output: point it at /dev/null so that the final
        # flush at exit does not fail again.
        with contextlib.suppress(OSError, ValueError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        if isinstance(exc, BrokenPipeError):
            sys.exit(EXIT_BROKEN_PIPE)  # like any program whose reader went away: quietly
        typer.echo(f"levelgen: cannot write the output: {exc.strerror or exc}", err=True)
        sys.exit(EXIT_UNREADABLE)
    except Exception as exc:
        _internal(exc)


def _leave(stop: SystemExit) -> None:
    """End the process now with ``stop``'s exit code, skipping the interpreter's teardown
    (freeing every module and object one by one: 40-80 ms, longer than a small command's
    work), once the output is flushed (``OSError`` when it cannot be: the caller reports it)
    and the exit handlers (``atexit``: temporary files, child processes, logging) have run as
    at any exit.  Returns, for the ordinary exit, when the code is a message, when a stream
    is closed, or when another thread still runs (the interpreter waits for it)."""
    code = 0 if stop.code is None else stop.code
    if not isinstance(code, int) or threading.active_count() > 1:
        return
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except ValueError:
        return
    atexit._run_exitfuncs()
    with contextlib.suppress(OSError, ValueError):
        sys.stdout.flush()
        sys.stderr.flush()
    os._exit(code)


def _internal(exc: BaseException) -> NoReturn:
    """``internal_error`` outside a command: its exit becomes the process's."""
    try:
        internal_error(exc)
    except typer.Exit as stop:
        sys.exit(stop.exit_code)
