"""Progress reports from long computations, without any I/O in the core.

A long core function (generation, a pack, a solve) takes an optional ``progress`` callback and
calls it now and then as ``progress(stage, done, total)``: ``stage`` a short lower-case phrase
("removal order", "paths", "metrics"), ``done`` the units finished so far and ``total`` the
units of the stage (``done`` may step back when work is redone, and ``total`` is 0 when the
size of the stage is unknown).  The core never draws anything: the edges turn the calls into a
progress bar (:mod:`levelgen.cli.progress`), a log line or an HTTP job status.  A callback must
be cheap and must not raise; the core calls it a few hundred times per stage at most.

    >>> seen = []
    >>> report = every(lambda s, d, t: seen.append((s, d, t)), 10)
    >>> for i in range(25):
    ...     report("work", i, 25)
    >>> seen
    [('work', 0, 25), ('work', 10, 25), ('work', 20, 25)]
"""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["Progress", "every", "no_progress"]

#: ``progress(stage, done, total)``: see the module docstring.
Progress = Callable[[str, int, int], None]


def no_progress(stage: str, done: int, total: int) -> None:
    """The callback that ignores every report (the default of the core functions)."""


def every(progress: Progress | None, step: int) -> Progress:
    """A callback that passes on the reports whose ``done`` is a multiple of ``step`` and the
    last one of a stage (``done == total``), so a hot loop may report every unit cheaply."""
    if progress is None:
        return no_progress
    inner = progress

    def report(stage: str, done: int, total: int) -> None:
        if done % step == 0 or done == total:
            inner(stage, done, total)

    return report
