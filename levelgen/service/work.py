"""The bounded process pool that runs every CPU task of the service, off the event loop.

``WorkPool.run(client, fn, *args)`` submits a plain top-level function to a
``ProcessPoolExecutor`` of ``workers`` processes and awaits it.  Admission is bounded: at most
``workers + queue_limit`` tasks are in flight (more: :class:`Busy`, answered 503 with
``Retry-After``), and at most ``client_limit`` for one client (more: :class:`TooMany`, 429).
Tasks wait here for a free worker, in the order they came, and are handed to the executor
only when one is free, so a task's time counts from its start: one that waits longer than
``queue_timeout`` seconds for a worker is refused as :class:`Busy` ("waited ... for a free
worker"), and one that runs longer than ``timeout`` seconds is abandoned (:class:`Overdue`;
its worker stays taken until the task really ends).  The tasks carry their own solver
budgets, so ``timeout`` is a safety net, not the budget.  A
pool whose worker died (killed, out of memory) is replaced and the request answered 503.

Workers are started with ``spawn`` (no copy of the server's threads or sockets) and import
the heavy modules once at start-up (:func:`levelgen.service.tasks.warm_up`).

Workers end with the server, however it ends: killed with SIGKILL or by the kernel's OOM
killer, it runs no shutdown, and its workers (blocked on their call queue, whose write end
they hold themselves) would live on, re-parented to PID 1, with multiprocessing's resource
tracker kept alive by their ends of its pipe.  So each worker watches its parent from a
daemon thread (:func:`die_with_parent`) and exits the moment the parent does; the tracker
then sees its pipe close and ends too.  (``prctl(PR_SET_PDEATHSIG)`` is not used: it fires
when the *thread* that started the worker ends, and the executor starts workers from
whichever thread submits, such as a short-lived thread of the server's thread pool.)
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import select
import threading
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from .tasks import warm_up

__all__ = ["Busy", "Overdue", "TooMany", "WorkPool", "die_with_parent"]

T = TypeVar("T")


class Busy(Exception):
    """Every worker is busy and the queue is full."""


class TooMany(Exception):
    """This client has as many tasks in flight as it may."""


class Overdue(Exception):
    """The task did not finish in time (it was abandoned)."""


def die_with_parent(parent: int) -> None:
    """Run in each worker as it starts (the executor's initializer): end this process as soon
    as process ``parent`` (the server, which started it) ends."""
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


class WorkPool:
    """A process pool with bounded admission (see the module docstring)."""

    def __init__(
        self, workers: int, queue_limit: int, client_limit: int, queue_timeout: float = 30.0
    ) -> None:
        self.workers = workers
        self.capacity = workers + queue_limit
        self.client_limit = client_limit
        self.queue_timeout = queue_timeout
        self.in_flight = 0
        self.per_client: Counter[str] = Counter()
        self._executor: ProcessPoolExecutor | None = None
        self._free: dict[asyncio.AbstractEventLoop, asyncio.Semaphore] = {}

    def start(self) -> None:
        """Start the worker processes and have each import the task modules."""
        context = multiprocessing.get_context("spawn")
        self._executor = ProcessPoolExecutor(
            self.workers,
            mp_context=context,
            initializer=die_with_parent,
            initargs=(os.getpid(),),
        )
        for future in [self._executor.submit(warm_up) for _ in range(self.workers)]:
            future.result()

    @property
    def started(self) -> bool:
        return self._executor is not None

    async def run(
        self, client: str, fn: Callable[..., T], *args: Any, timeout: float | None = None
    ) -> T:
        """``fn(*args)`` in a worker process.  ``Busy``, ``TooMany``, ``Overdue`` as above."""
        if self._executor is None:
            raise Busy("the worker pool is not running")
        if self.in_flight >= self.capacity:
            raise Busy(f"all {self.workers} workers are busy and {self.in_flight} tasks wait")
        if self.per_client[client] >= self.client_limit:
            raise TooMany(f"this client already has {self.client_limit} tasks in flight")
        self.in_flight += 1
        self.per_client[client] += 1
        try:
            loop = asyncio.get_running_loop()
            free = self._free.setdefault(loop, asyncio.Semaphore(self.workers))
            try:
                await asyncio.wait_for(free.acquire(), self.queue_timeout)
            except TimeoutError:
                raise Busy(
                    f"waited {self.queue_timeout:g} s for a free worker; all"
                    f" {self.workers} were busy"
                ) from None
            try:
                future = loop.run_in_executor(self._executor, fn, *args)
            except BaseException:
                free.release()
                raise
            # The worker is free again when the task ends, not when its waiter gives up.
            future.add_done_callback(lambda _: free.release())
            try:
                return await asyncio.wait_for(asyncio.shield(future), timeout)
            except TimeoutError:
                raise Overdue(f"the task ran for more than {timeout:g} s") from None
            except BrokenProcessPool:
                self._replace()
                raise Busy("a worker process died; the pool was restarted") from None
        finally:
            self.in_flight -= 1
            self.per_client[client] -= 1
            if not self.per_client[client]:
                del self.per_client[client]

    def _replace(self) -> None:
        old, self._executor = self._executor, None
        if old is not None:
            old.shutdown(wait=False, cancel_futures=True)
        self.start()

    def shutdown(self, *, wait: bool = True) -> None:
        """Stop the workers: running tasks finish when ``wait``, waiting ones are cancelled."""
        executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=wait, cancel_futures=True)
