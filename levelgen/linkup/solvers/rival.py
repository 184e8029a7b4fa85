"""The repair race's rival run in another process (an edge: processes and a clock).

``auto`` races two runs of the repair solver on large boards
(:class:`levelgen.linkup.solvers.race.RepairRace`); the winner is the run that clears the board
after the least work (a count of moves and choices, the same on any machine), so the answer does not
depend on where the rival runs.  In this process (the default) the two take turns; here the
rival runs in a forked child on another core, and the time is about the winner's alone.

The child publishes the work it has settled (a shared integer, written at each of its
pauses) and sends how its run ended through a pipe; it stops by itself when the solve's time
limit has passed or its parent is gone, and the parent ends it as soon as the race is decided.
An exception in the child is sent to the parent, which raises it as a ``RuntimeError`` (an
internal error, never a verdict); a child that died without a word (killed) never wins.
"""

from __future__ import annotations

import os
import signal
import sys
import time
import warnings
from collections.abc import Callable
from typing import TYPE_CHECKING

from ..core.board import Board
from ..core.rules import Rules
from .base import Budget

if TYPE_CHECKING:
    from multiprocessing.connection import Connection
    from multiprocessing.sharedctypes import Synchronized

    from .race import RepairSession, Rival, RivalEnd, RivalFactory

__all__ = ["ProcessRival", "process_rival", "rival_for"]


def __getattr__(name: str) -> type[RepairSession]:
    """``RepairSession``, the run the child makes, imported only when a race starts: the CLI
    asks :func:`rival_for` on every solve, and most boards never race (importing the repair
    solver would add about 11 ms to every ``levelgen verify`` and ``hint``).  A module
    attribute, so that a test can put another in its place before the child is forked."""
    if name == "RepairSession":
        from .race import RepairSession

        return RepairSession
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


#: The parent looks at the pipe at least this often (seconds) while it waits for the child.
WAIT_STEP = 0.002

#: A child that is told to stop gets this long (seconds) before it is killed.
JOIN_TIMEOUT = 1.0


def can_fork() -> bool:
    """Whether a rival can run in a forked child here (Linux: forking is cheap and safe for a
    child that only computes)."""
    return sys.platform.startswith("linux") and hasattr(os, "fork")


def available_cpus() -> int:
    """The number of CPUs this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def rival_for(workers: int | None) -> RivalFactory | None:
    """The rival factory for ``workers`` processes (None: as many as there are CPUs, at most
    two): :func:`process_rival` for two or more where a child can be forked, else None (the
    rival runs in this process, in lockstep)."""
    n = available_cpus() if workers is None else workers
    return process_rival if n >= 2 and can_fork() else None


def process_rival(board: Board, rules: Rules, seed: int, budget: Budget) -> Rival:
    """A :class:`ProcessRival` (a :data:`levelgen.linkup.solvers.race.RivalFactory`)."""
    return ProcessRival(board, rules, seed, budget.time_limit)


class ProcessRival:
    """A rival run of the repair solver in a forked child process (see the module docstring)."""

    lockstep = False

    def __init__(self, board: Board, rules: Rules, seed: int, time_limit: float | None) -> None:
        import multiprocessing  # only when a race starts: verify on small boards starts faster

        context = multiprocessing.get_context("fork")
        self._settled: Synchronized[int] = context.Value("q", -1, lock=False)
        receive, send = context.Pipe(duplex=False)
        deadline = None if time_limit is None else time.monotonic() + time_limit
        self._process = context.Process(
            target=_child,
            args=(board, rules, seed, deadline, send, self._settled, os.getpid()),
            daemon=True,
        )
        with warnings.catch_warnings():
            # Python 3.12+ warns about forking while another thread runs (the progress bar's
            # on a terminal): the child only computes and sends, it takes no lock of theirs.
            warnings.simplefilter("ignore", DeprecationWarning)
            self._process.start()
        send.close()
        self._conn = receive
        self._end: RivalEnd | None = None
        self._silent = False

    def poll(self) -> RivalEnd | None:
        if self._end is None and not self._silent and self._conn.poll():
            try:
                message = self._conn.recv()
            except EOFError:
                self._silent = True  # the child died without a word: it never wins
                return None
            if isinstance(message, str):
                raise RuntimeError(f"the repair solver's rival process failed: {message}")
            self._end = message
        return self._end

    def reach(self, settled: int, stop: Callable[[], bool] | None) -> RivalEnd | None:
        while True:
            end = self.poll()
            if end is not None or self._silent or self._settled.value >= settled:
                return end
            if stop is not None and stop():
                return None
            self._conn.poll(WAIT_STEP)

    def close(self) -> None:
        if self._process.is_alive():
            self._process.terminate()
        self._process.join(JOIN_TIMEOUT)
        self._conn.close()


def _child(
    board: Board,
    rules: Rules,
    seed: int,
    deadline: float | None,
    conn: Connection,
    settled: Synchronized[int],
    parent: int,
) -> None:
    """The child's run: publish the work settled at each pause, send how the run ended (or
    the error, as text); stop silently past the deadline or when the parent is gone."""
    from .race import session_end

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    session: RepairSession = sys.modules[__name__].RepairSession(board, rules, seed)

    def stop() -> bool:
        settled.value = session.settled
        return (deadline is not None and time.monotonic() > deadline) or os.getppid() != parent

    try:
        if session.run_until(stop):
            settled.value = session.settled
            conn.send(session_end(session))
    except Exception as error:  # reported to the parent, which raises it
        conn.send(f"{type(error).__name__}: {error}")
    finally:
        conn.close()
