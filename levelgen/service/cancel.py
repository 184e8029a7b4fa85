"""Cancelling a task inside a worker process of the pool (:mod:`levelgen.service.work`).

The server asks a worker to stop its task with ``SIGUSR1``; the worker's handler sets a flag
that the task's budget polls (:func:`task_budget`: the wall-clock limit, or the flag, whichever
comes first), so a search or a solve ends at once with its ``unknown`` answer and the worker
stays.  Work that takes no budget (generation) does not look at the flag: the server ends such a
worker after a short wait and starts another.  The flag is cleared when a task starts.
"""

from __future__ import annotations

import signal
import time
from types import FrameType

from ..formats.budget import Budget

__all__ = ["CANCEL_SIGNAL", "cancelled", "install", "start_task", "task_budget"]

CANCEL_SIGNAL = signal.SIGUSR1

_cancelled = False


def _on_cancel(_signum: int, _frame: FrameType | None) -> None:
    global _cancelled
    _cancelled = True


def install() -> None:
    """Install the handler (in a worker process, from its main thread)."""
    signal.signal(CANCEL_SIGNAL, _on_cancel)


def start_task() -> None:
    """Clear the flag: a new task starts."""
    global _cancelled
    _cancelled = False


def cancelled() -> bool:
    """True when the server asked this process to stop its task."""
    return _cancelled


def task_budget(seconds: float) -> Budget:
    """A budget that runs out ``seconds`` after now, or when the task is cancelled."""
    deadline = time.monotonic() + seconds
    return Budget(
        should_stop=lambda: _cancelled or time.monotonic() > deadline,
        clock=time.monotonic,
        time_limit=seconds,
    )
