"""Worker processes that end with their parent, however it ends.

A parent killed with SIGKILL or by the kernel's OOM killer runs no shutdown, and its workers
would live on, re-parented to PID 1.  So a worker calls :func:`die_with_parent` as it starts:
a daemon thread waits for the parent to end and exits the worker at once.  (``prctl
(PR_SET_PDEATHSIG)`` is not used: it fires when the *thread* that started the worker ends,
and workers may be started from short-lived threads.)  The service's workers and ``levelgen
pack``'s both use it.
"""

from __future__ import annotations

import os
import select
import threading
import time

__all__ = ["die_with_parent"]


def die_with_parent(parent: int) -> None:
    """Run in each worker as it starts: end this process as soon as process ``parent`` (the
    one that started it) ends."""
    if os.getppid() != parent:  # it ended before we got here
        os._exit(1)
    threading.Thread(target=_watch, args=(parent,), name="parent-watch", daemon=True).start()


def _watch(parent: int) -> None:
    """Wait for ``parent`` to end (a pidfd becomes readable then, on Linux 5.3 and later; else
    poll who our parent is), then exit at once, whatever the worker is doing."""
    try:
        handle = os.pidfd_open(parent)
    except (AttributeError, OSError):  # not Linux, or an old kernel
        handle = -1
    if handle >= 0 and os.getppid() == parent:  # the pidfd is of our parent, not a new process
        select.select([handle], [], [])
    else:
        while os.getppid() == parent:
            time.sleep(0.5)
    os._exit(1)
