"""The bounded process pool that runs every CPU task of the service, off the event loop.

``WorkPool.run(client, fn, *args)`` sends a plain top-level function and its arguments to one
of ``workers`` processes of its own and awaits the answer.  Admission is bounded: at most
``workers + queue_limit`` tasks are in flight (more: :class:`Busy`, answered 503 with
``Retry-After``), and at most ``client_limit`` for one client (more: :class:`TooMany`, 429).
Tasks wait here for a free worker, in the order they came, and are handed to a worker only
when one is free, so a task's time counts from its start: one that waits longer than
``queue_timeout`` seconds for a worker is refused as :class:`Busy` ("waited ... for a free
worker"), and one that runs longer than ``timeout`` seconds is :class:`Overdue`.

A task nobody waits for any more (it overran, its request was cancelled because the client
went away or the server is stopping) is stopped in its worker: the worker is sent
``SIGUSR1``, which its task's budget sees (:mod:`levelgen.service.cancel`); a task that has not
ended :data:`CANCEL_WAIT` seconds later (generation takes no budget) has its worker killed and
replaced.  The worker is free for the next task only then, so abandoned work never holds a
worker for long.  A worker that died (killed, out of memory) is replaced and its request
answered 503.  :meth:`WorkPool.shutdown` ends every worker at once.

Workers are started with ``spawn`` (no copy of the server's threads or sockets) and import
the heavy modules once at start-up (:func:`levelgen.service.tasks.warm_up`).

Workers end with the server, however it ends (even killed with SIGKILL): each watches its
parent (:func:`levelgen.formats.lifetime.die_with_parent`).
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import threading
import time
from collections import Counter, deque
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any, TypeVar

from ..formats.lifetime import die_with_parent
from . import cancel
from .tasks import warm_up

__all__ = ["Busy", "Overdue", "TooMany", "WorkPool"]

T = TypeVar("T")


class Busy(Exception):
    """Every worker is busy and the queue is full."""


class TooMany(Exception):
    """This client has as many tasks in flight as it may."""


class Overdue(Exception):
    """The task did not finish in time (it was abandoned)."""


#: Seconds a cancelled task has to end by itself before its worker is killed and replaced.
CANCEL_WAIT = 0.5
#: Seconds a new worker has to start (import the task modules).
START_TIMEOUT = 120.0


def _serve(conn: Connection, parent: int) -> None:
    """A worker process: run the tasks that come through ``conn``, one at a time, and send
    back ``("ok", value)`` or ``("error", exception)``."""
    die_with_parent(parent)
    cancel.install()
    warm_up()
    conn.send(("ready", None))
    while True:
        try:
            fn, args = conn.recv()
        except (EOFError, OSError):
            os._exit(0)
        cancel.start_task()
        try:
            reply: tuple[str, Any] = ("ok", fn(*args))
        except BaseException as exc:  # the server tells a bug from a refusal
            reply = ("error", exc)
        try:
            conn.send(reply)
        except (EOFError, OSError):
            os._exit(0)
        except Exception as exc:  # an answer that cannot be pickled
            conn.send(("error", RuntimeError(f"the task's answer cannot be sent: {exc!r}")))


class _Worker:
    """One worker process and the server's end of its pipe."""

    def __init__(self, process: BaseProcess, conn: Connection) -> None:
        self.process = process
        self.conn = conn
        self._kill_lock = threading.Lock()
        self._killed = False

    def stop(self) -> None:
        """Ask the running task to stop (its budget sees it)."""
        with contextlib.suppress(OSError, TypeError):
            os.kill(self.process.pid or 0, cancel.CANCEL_SIGNAL)

    def kill(self) -> None:
        """End the process and close the pipe, once: a replacement and the pool's shutdown may
        both kill a worker, from two threads (a second close of the pipe could close a file
        descriptor that another file has been given since)."""
        with self._kill_lock:
            if self._killed:
                return
            self._killed = True
            with contextlib.suppress(OSError, AttributeError):
                self.process.kill()
            self.process.join(5)
            self.conn.close()


def _exchange(worker: _Worker, fn: Callable[..., Any], args: tuple[Any, ...]) -> tuple[str, Any]:
    """Run ``fn(*args)`` on ``worker`` (blocking): its reply, or ``("died", None)``."""
    try:
        worker.conn.send((fn, args))
    except (EOFError, OSError):
        return ("died", None)
    except Exception as exc:  # arguments that cannot be pickled: nothing was sent
        return ("error", exc)
    try:
        reply: tuple[str, Any] = worker.conn.recv()
    except (EOFError, OSError):
        return ("died", None)
    return reply


class WorkPool:
    """A process pool with bounded admission and cancellation (see the module docstring)."""

    def __init__(
        self, workers: int, queue_limit: int, client_limit: int, queue_timeout: float = 30.0
    ) -> None:
        self.workers = workers
        self.capacity = workers + queue_limit
        self.client_limit = client_limit
        self.queue_timeout = queue_timeout
        self.in_flight = 0
        self.per_client: Counter[str] = Counter()
        self.replaced = 0  # workers killed and replaced (for the tests and the log)
        self._lock = threading.Lock()
        self._all: list[_Worker] = []
        self._idle: list[_Worker] = []
        self._waiters: deque[tuple[asyncio.AbstractEventLoop, asyncio.Future[_Worker]]] = deque()
        self._threads: ThreadPoolExecutor | None = None
        self._open = False

    def _spawn(self) -> _Worker:
        """A new worker, started and warmed up (blocking)."""
        context = multiprocessing.get_context("spawn")
        ours, theirs = context.Pipe()
        process = context.Process(
            target=_serve, args=(theirs, os.getpid()), name="levelgen-worker", daemon=True
        )
        process.start()
        theirs.close()
        worker = _Worker(process, ours)
        if not ours.poll(START_TIMEOUT) or ours.recv()[0] != "ready":
            worker.kill()
            raise RuntimeError("a worker process did not start")
        with self._lock:
            if self._open:
                self._all.append(worker)
                return worker
        worker.kill()  # the pool stopped meanwhile
        raise RuntimeError("the worker pool is stopping")

    def start(self) -> None:
        """Start the worker processes and have each import the task modules."""
        self._threads = ThreadPoolExecutor(self.workers * 2, thread_name_prefix="pool")
        self._open = True
        started = list(self._threads.map(lambda _: self._spawn(), range(self.workers)))
        with self._lock:
            self._idle.extend(started)

    @property
    def started(self) -> bool:
        return self._open

    async def _acquire(self) -> _Worker:
        """A free worker, in the order of asking; ``Busy`` after ``queue_timeout``."""
        loop = asyncio.get_running_loop()
        with self._lock:
            while self._waiters and self._waiters[0][1].done():  # gave up
                self._waiters.popleft()
            if self._idle and not self._waiters:
                return self._idle.pop()
            waiter: asyncio.Future[_Worker] = loop.create_future()
            self._waiters.append((loop, waiter))
        try:
            return await asyncio.wait_for(waiter, self.queue_timeout)
        except BaseException as exc:
            if waiter.done() and not waiter.cancelled() and waiter.exception() is None:
                self._release(waiter.result())  # handed over just as we gave up
            if not isinstance(exc, TimeoutError):
                raise
            raise Busy(
                f"waited {self.queue_timeout:g} s for a free worker; all {self.workers} were busy"
            ) from None

    def _release(self, worker: _Worker) -> None:
        """Give ``worker`` to the first task still waiting, else keep it idle (any thread)."""
        with self._lock:
            if not self._open:
                return
            while self._waiters:
                loop, waiter = self._waiters.popleft()
                if waiter.done():
                    continue
                try:
                    loop.call_soon_threadsafe(self._hand, waiter, worker)
                except RuntimeError:  # that loop is closed
                    continue
                return
            self._idle.append(worker)

    def _hand(self, waiter: asyncio.Future[_Worker], worker: _Worker) -> None:
        if waiter.done():  # it gave up meanwhile
            self._release(worker)
        else:
            waiter.set_result(worker)

    def _reclaim(self, worker: _Worker, work: Future[tuple[str, Any]], why: str) -> None:
        """In a thread: free ``worker`` once its task ``work`` has ended; unless it ``died``,
        ask the task to stop first (``why``: ``overdue`` or ``cancelled``), and kill and
        replace the worker when it has not stopped within CANCEL_WAIT."""
        stop = why != "died"
        if stop:
            worker.stop()
        try:
            state = work.result(timeout=CANCEL_WAIT if stop else None)[0]
        except FutureTimeout:
            state = "running"
        if state not in ("running", "died"):
            self._release(worker)
            return
        worker.kill()
        with self._lock:
            if worker in self._all:
                self._all.remove(worker)
            if not self._open:
                return
            self.replaced += 1
        self._log("worker-replaced", reason=why)
        for attempt in range(5):
            try:
                self._release(self._spawn())
                return
            except Exception as exc:
                if not self._open:
                    return
                self._log("worker-not-started", reason=f"{type(exc).__name__}: {exc}")
                time.sleep(2**attempt)

    @staticmethod
    def _log(event: str, **fields: Any) -> None:
        from .middleware import log_event

        log_event(event, **fields)

    def _abandon(self, worker: _Worker, work: Future[tuple[str, Any]], why: str) -> None:
        threading.Thread(
            target=self._reclaim, args=(worker, work, why), name="pool-reclaim", daemon=True
        ).start()

    async def run(
        self, client: str, fn: Callable[..., T], *args: Any, timeout: float | None = None
    ) -> T:
        """``fn(*args)`` in a worker process.  ``Busy``, ``TooMany``, ``Overdue`` as above;
        cancelling the call stops the task in its worker."""
        if not self._open or self._threads is None:
            raise Busy("the worker pool is not running")
        if self.in_flight >= self.capacity:
            raise Busy(f"all {self.workers} workers are busy and {self.in_flight} tasks wait")
        if self.per_client[client] >= self.client_limit:
            raise TooMany(f"this client already has {self.client_limit} tasks in flight")
        self.in_flight += 1
        self.per_client[client] += 1
        try:
            worker = await self._acquire()
            try:
                work = self._threads.submit(_exchange, worker, fn, args)
            except BaseException:
                self._release(worker)
                raise
            try:
                state, value = await asyncio.wait_for(
                    asyncio.shield(asyncio.wrap_future(work)), timeout
                )
            except TimeoutError:
                self._abandon(worker, work, "overdue")
                raise Overdue(f"the task ran for more than {timeout:g} s") from None
            except BaseException:  # cancelled: the client left, or the server stops
                self._abandon(worker, work, "cancelled")
                raise
            if state == "died":
                self._abandon(worker, work, "died")
                raise Busy("a worker process died; it is being replaced")
            self._release(worker)
            if state == "error":
                raise value
            result: T = value
            return result
        finally:
            self.in_flight -= 1
            self.per_client[client] -= 1
            if not self.per_client[client]:
                del self.per_client[client]

    def shutdown(self) -> None:
        """Stop the workers at once (their tasks are cancelled) and refuse the waiting tasks."""
        with self._lock:
            self._open = False
            workers, self._all, self._idle = self._all, [], []
            waiters, self._waiters = list(self._waiters), deque()
        for loop, waiter in waiters:
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(_refuse, waiter, Busy("the worker pool is stopping"))
        for worker in workers:
            with contextlib.suppress(OSError, AttributeError):
                worker.process.terminate()
        for worker in workers:
            worker.process.join(2)
            worker.kill()
        if self._threads is not None:
            self._threads.shutdown(wait=False, cancel_futures=True)
            self._threads = None


def _refuse(waiter: asyncio.Future[Any], error: Exception) -> None:
    if not waiter.done():
        waiter.set_exception(error)
