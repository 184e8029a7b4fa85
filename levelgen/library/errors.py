"""What went wrong with the library's database, decided once for every caller.

A database error is either *transient*, and the same call may well work a moment later (the
server cannot be reached or is restarting, a connection was cut, the SQLite file stayed locked
by another writer past the lock timeout, every pooled connection is busy, a lock wait or a
serialization conflict on PostgreSQL, a full disk, a file or server that takes no write just
now, a server that did not answer in time), or it is not (a constraint, a bad statement, a
missing table, a damaged file), and trying again does not help.  :func:`transient_reason`
tells them apart; the :class:`~levelgen.library.Store` raises :class:`LibraryUnavailable` for
the first kind, so that the service answers 503 with ``Retry-After`` and the pack runner waits
and tries again, and lets the second kind through unchanged (the service's 500).
:func:`needs_new_connection` says which of them leave a connection that would keep failing
after the cause is gone (a SQLite file opened read-only stays read-only): the pool drops all
its connections then.

:class:`Outage` turns the stream of errors of one incident into two log lines: one when the
database goes away (with the driver's reason) and one when it has worked again for a moment
(with the number of calls refused meanwhile), however many calls failed in between.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
import time
from collections.abc import Callable
from typing import Any

from sqlalchemy.exc import DBAPIError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout

__all__ = [
    "QUIET",
    "WRITE_FAULTS",
    "LibraryUnavailable",
    "Outage",
    "driver_message",
    "needs_new_connection",
    "transient_reason",
]

#: SQLite's words for a lock held by another connection (SQLITE_BUSY, SQLITE_LOCKED).
_SQLITE_LOCKED = ("database is locked", "database table is locked", "database schema is locked")

#: SQLite's words for a file it cannot write now (SQLITE_FULL, SQLITE_READONLY, SQLITE_IOERR,
#: SQLITE_CANTOPEN): each also leaves the connection to be replaced.
_SQLITE_WRITE = (
    ("database or disk is full", "has a full disk"),
    ("readonly database", "is read-only"),
    ("disk i/o error", "met a disk error"),
    ("unable to open database file", "cannot open its file"),
)

#: The reasons that say the storage takes no write (for a while), whatever the call.
WRITE_FAULTS = frozenset(
    {reason for _, reason in _SQLITE_WRITE} | {"has a full disk", "is read-only"}
)

#: PostgreSQL SQLSTATEs worth retrying, by class (the first two characters) and exactly.
_PG_CLASSES = {
    "08": "cannot be reached",  # connection exception
    "40": "met a conflicting write",  # serialization failure, deadlock
    "53": "is out of resources",  # too many connections, out of memory or disk
    "57": "is restarting",  # admin or crash shutdown, cannot connect now
}
_PG_STATES: dict[str, str | None] = {
    "55P03": "is locked by another writer",  # lock_timeout
    "57014": "took too long",  # statement_timeout
    "57P04": None,  # the database was dropped: not coming back
    "53100": "has a full disk",  # disk_full
    "25006": "is read-only",  # read_only_sql_transaction: a standby, or read-only by setting
}
#: Of those, the ones after which a connection is better replaced (a standby stays one).
_PG_RECONNECT = ("25006",)

#: Seconds without a refused call before an outage counts as over.
QUIET = 3.0


def driver_message(exc: BaseException) -> str:
    """The first line of the driver's message of ``exc`` (never the SQL or its parameters,
    which SQLAlchemy appends), at most 200 characters."""
    orig = exc.orig if isinstance(exc, DBAPIError) else exc
    text = str(orig).strip().splitlines()
    first = text[0] if text else type(orig).__name__
    return first if len(first) <= 200 else first[:199] + "…"


def transient_reason(exc: BaseException) -> str | None:
    """Why the library's database refused a call for now, in a few words a client may read
    ("is locked by another writer", "cannot be reached"), or None when ``exc`` is not a
    transient database error (trying again would not help)."""
    if isinstance(exc, PoolTimeout):
        return "has no free connection"
    if not isinstance(exc, DBAPIError):
        return None
    orig = exc.orig
    own = getattr(orig, "levelgen_reason", None)  # .bounded.NoAnswer
    if isinstance(own, str):
        return own
    message = str(orig).lower()
    for words, reason in _SQLITE_WRITE:
        if isinstance(orig, sqlite3.Error) and words in message:
            return reason
    if exc.connection_invalidated:
        return "cannot be reached"
    state = getattr(orig, "sqlstate", None)
    if isinstance(state, str) and state:
        return _PG_STATES[state] if state in _PG_STATES else _PG_CLASSES.get(state[:2])
    if not isinstance(exc, OperationalError):
        return None
    if any(words in message for words in _SQLITE_LOCKED):
        return "is locked by another writer"
    if type(orig).__module__.partition(".")[0] == "psycopg":
        return "cannot be reached"  # libpq's own errors (refused, reset, lost) carry no SQLSTATE
    return None


def needs_new_connection(error: BaseException | None) -> bool:
    """True when the driver's ``error`` (the DB-API exception) may have left its connection
    unfit once the cause is gone (a SQLite file that could not be written, a PostgreSQL
    session that is read-only): every pooled connection is then replaced."""
    if isinstance(error, sqlite3.Error):
        message = str(error).lower()
        return any(words in message for words, _ in _SQLITE_WRITE)
    return getattr(error, "sqlstate", None) in _PG_RECONNECT


class LibraryUnavailable(Exception):
    """The library's database cannot serve the call now; the same call may work later.

    ``backend`` is the database's kind (``sqlite``, ``postgresql``), ``reason`` a few words
    fit for a client, ``cause`` the driver's first line (for the log; it may name hosts and
    paths)."""

    def __init__(self, backend: str, reason: str, cause: str) -> None:
        super().__init__(f"the level library ({backend}) {reason}")
        self.backend = backend
        self.reason = reason
        self.cause = cause


def _log(event: str, fields: dict[str, Any]) -> None:
    details = " ".join(f"{k}={v}" for k, v in fields.items())
    logging.getLogger("levelgen.library").warning("%s %s", event, details)


class Outage:
    """The current incident of one store, if any: ``report(event, fields)`` is called with
    ``library-unavailable`` at its first refused call and with ``library-recovered`` at the
    first call that works :data:`QUIET` seconds after the last refused one.  Thread-safe."""

    def __init__(
        self, backend: str, report: Callable[[str, dict[str, Any]], None] | None = None
    ) -> None:
        self.backend = backend
        self.report = report or _log
        self._lock = threading.Lock()
        self._since: float | None = None
        self._last = 0.0
        self._refused = 0
        self._latest: LibraryUnavailable | None = None
        self._latest_at = 0.0

    def recent(self) -> LibraryUnavailable | None:
        """The latest call refused because the storage takes no write (:data:`WRITE_FAULTS`),
        when it was less than :data:`QUIET` seconds ago: readiness then says so, whatever a
        quick check that writes nothing says (a lock held too long, in contrast, concerns
        the calls that met it)."""
        with self._lock:
            latest = self._latest
            if latest is None or time.monotonic() - self._latest_at >= QUIET:
                return None
            return latest

    @property
    def down(self) -> bool:
        """True while an incident is open."""
        return self._since is not None

    def refused(self, error: BaseException, reason: str) -> LibraryUnavailable:
        """Count a call refused for ``reason``; the error to raise in its place."""
        unavailable = LibraryUnavailable(self.backend, reason, driver_message(error))
        now = time.monotonic()
        with self._lock:
            first = self._since is None
            if first:
                self._since, self._refused = now, 0
            self._last = now
            self._refused += 1
            if reason in WRITE_FAULTS:
                self._latest, self._latest_at = unavailable, now
        if first:
            fields = {"db": self.backend, "reason": reason, "cause": unavailable.cause}
            self.report("library-unavailable", fields)
        return unavailable

    def worked(self) -> None:
        """Note a call that worked (cheap when no incident is open)."""
        if self._since is None:
            return
        now = time.monotonic()
        with self._lock:
            if self._since is None or now - self._last < QUIET:
                return
            since, refused = self._since, self._refused
            self._since = None
        fields = {"db": self.backend, "seconds": round(now - since, 1), "refused": refused}
        self.report("library-recovered", fields)
