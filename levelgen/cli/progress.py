"""Progress on the terminal for long commands: the edge half of :mod:`levelgen.formats.progress`.

The core reports ``progress(stage, done, total)`` and never draws; a command wraps its long
call in :func:`progress_bar` and passes the callback it yields::

    with progress_bar("creating 64x64") as report:
        level = generate(..., progress=report)

On a terminal (standard error is a tty) this shows a one-line rich progress bar on standard
error: a spinner, the description and the current stage, a bar and a percentage when the
stage has a known ``total``, the time elapsed; it is removed when the block ends, so what the
command prints next is not mixed with it.  A call without callbacks (a solver that takes a
time budget) still gets a spinner and the elapsed time.  When standard error is not a terminal
(pipelines, logs, ``CliRunner``) nothing at all is written and the callback does nothing.
``pack``, ``hint`` and ``solve`` reuse it the same way.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import TYPE_CHECKING

from ..formats.progress import Progress, no_progress
from . import common

if TYPE_CHECKING:
    from rich.console import Console

__all__ = ["progress_bar"]


@contextlib.contextmanager
def progress_bar(description: str, *, console: Console | None = None) -> Iterator[Progress]:
    """A progress callback for the block: a transient bar on standard error when it is a
    terminal (or on ``console`` when given), else :func:`levelgen.formats.progress.no_progress`."""
    if console is None and not common.stderr_is_terminal():
        yield no_progress
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        SpinnerColumn,
        TaskProgressColumn,
        TextColumn,
        TimeElapsedColumn,
    )
    from rich.progress import Progress as Bar

    bar = Bar(
        SpinnerColumn(),
        TextColumn("{task.description}"),
        BarColumn(),
        TaskProgressColumn(),
        TimeElapsedColumn(),
        console=console or Console(stderr=True),
        transient=True,
    )
    with bar:
        task = bar.add_task(description, total=None)

        def report(stage: str, done: int, total: int) -> None:
            bar.update(
                task,
                description=f"{description}: {stage}",
                total=total if total > 0 else None,
                completed=done,
            )

        yield report
