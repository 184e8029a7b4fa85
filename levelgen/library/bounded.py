"""PostgreSQL calls bounded on the client's side as well as on the server's.

The server ends a statement that runs too long itself (``statement_timeout``), but a server
that does not run at all (frozen, stopped with SIGSTOP, behind a link that swallows packets
while the kernel still acknowledges them) ends nothing, and a call waiting for its answer would
wait as long as the freeze lasts.  :class:`BoundedConnection` is psycopg's connection whose
every wait for the server (a statement, a fetch, a commit, the pool's ping) is watched: when
no answer came within ``bound`` seconds the connection's socket is shut down, which ends the
wait at once; the call then fails with :class:`NoAnswer` (a psycopg ``OperationalError``) and
the broken connection is dropped by the pool.  One daemon thread watches every connection of
the process.
"""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Callable
from contextlib import suppress
from typing import Any

import psycopg

__all__ = ["BoundedConnection", "NoAnswer", "Watchdog", "bounded_connection"]


class NoAnswer(psycopg.OperationalError):
    """The server did not answer within the bound; the connection is closed."""

    #: What :func:`levelgen.library.errors.transient_reason` says of it.
    levelgen_reason = "did not answer in time"


class Watchdog:
    """Runs an action when its deadline passes, unless it is disarmed first (one daemon
    thread, started at the first ``arm``; it sleeps until the next deadline)."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._armed: dict[int, tuple[float, Callable[[], None]]] = {}
        self._thread: threading.Thread | None = None

    def arm(self, key: int, seconds: float, action: Callable[[], None]) -> None:
        with self._cond:
            self._armed[key] = (time.monotonic() + seconds, action)
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._watch, name="levelgen-db-watchdog", daemon=True
                )
                self._thread.start()
            self._cond.notify()

    def disarm(self, key: int) -> None:
        """After this returns, the action of ``key`` has run or never will."""
        with self._cond:
            self._armed.pop(key, None)

    def _watch(self) -> None:
        with self._cond:
            while True:
                now = time.monotonic()
                for key in [k for k, (due, _) in self._armed.items() if due <= now]:
                    _, action = self._armed.pop(key)
                    with suppress(Exception):
                        action()
                nearest = min((due for due, _ in self._armed.values()), default=None)
                self._cond.wait(None if nearest is None else max(0.0, nearest - now))


WATCHDOG = Watchdog()


def _cut(fd: int, fired: list[bool]) -> None:
    """Shut the socket ``fd`` down (both ways): a wait on it ends with end-of-file."""
    fired.append(True)
    with socket.socket(fileno=os.dup(fd)) as sock:
        sock.shutdown(socket.SHUT_RDWR)


class BoundedConnection(psycopg.Connection[Any]):
    """A psycopg connection whose waits for the server last at most ``bound`` seconds."""

    bound: float = 10.0

    def wait(self, gen: Any, *args: Any, **kwargs: Any) -> Any:
        fired: list[bool] = []
        fd = self.pgconn.socket
        WATCHDOG.arm(id(self), self.bound, lambda: _cut(fd, fired))
        try:
            return super().wait(gen, *args, **kwargs)
        except psycopg.Error as exc:
            if not fired:
                raise
            with suppress(Exception):
                self.pgconn.finish()  # the protocol was cut off midway: never use it again
            raise NoAnswer(f"the database server did not answer within {self.bound:g} s") from exc
        finally:
            WATCHDOG.disarm(id(self))


def bounded_connection(bound: float) -> type[BoundedConnection]:
    """The connection class whose waits last at most ``bound`` seconds."""
    return type("BoundedConnection", (BoundedConnection,), {"bound": bound})
