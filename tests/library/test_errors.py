"""Which database errors are passing (the service's 503, the runner's wait) and which are not
(a 500, a failed job), on the errors PostgreSQL (psycopg 3) and SQLite really raise; and one
report per outage however many calls it refuses."""

from __future__ import annotations

import sqlite3
from typing import Any

import psycopg
import pytest
from psycopg import errors as pg
from sqlalchemy import exc

from levelgen.library import errors
from levelgen.library.bounded import NoAnswer
from levelgen.library.errors import (
    Outage,
    driver_message,
    needs_new_connection,
    transient_reason,
)


def _pg(state: str, message: str) -> Any:
    return pg.lookup(state)(message)


CASES = [
    (exc.OperationalError("SELECT 1", {}, _pg("57P01", "terminating connection")), "is restarting"),
    (exc.OperationalError("SELECT 1", {}, _pg("57P03", "starting up")), "is restarting"),
    (exc.OperationalError("SELECT 1", {}, _pg("53300", "too many clients")), "is out of resources"),
    (
        exc.OperationalError("UPDATE", {}, _pg("40P01", "deadlock detected")),
        "met a conflicting write",
    ),
    (
        exc.OperationalError("UPDATE", {}, _pg("55P03", "lock timeout")),
        "is locked by another writer",
    ),
    (
        exc.OperationalError("x", {}, psycopg.OperationalError("Connection refused")),
        "cannot be reached",
    ),
    (
        exc.OperationalError("x", {}, sqlite3.OperationalError("database is locked")),
        "is locked by another writer",
    ),
    (exc.TimeoutError("QueuePool limit of size 5 overflow 10 reached"), "has no free connection"),
    (
        exc.OperationalError("x", {}, sqlite3.OperationalError("database or disk is full")),
        "has a full disk",
    ),
    (
        exc.OperationalError(
            "x", {}, sqlite3.OperationalError("attempt to write a readonly database")
        ),
        "is read-only",
    ),
    (exc.OperationalError("x", {}, sqlite3.OperationalError("disk I/O error")), "met a disk error"),
    (
        exc.OperationalError("x", {}, sqlite3.OperationalError("unable to open database file")),
        "cannot open its file",
    ),
    (exc.OperationalError("x", {}, _pg("53100", "could not extend file")), "has a full disk"),
    (exc.InternalError("x", {}, _pg("25006", "read-only transaction")), "is read-only"),
    (exc.OperationalError("x", {}, NoAnswer("no answer within 11 s")), "did not answer in time"),
    (exc.OperationalError("x", {}, _pg("57P04", "database dropped")), None),
    (exc.IntegrityError("INSERT", {}, _pg("23505", "duplicate key")), None),
    (exc.ProgrammingError("SELECT", {}, _pg("42P01", "no such relation")), None),
    (exc.OperationalError("SELECT", {}, sqlite3.OperationalError("no such table: levels")), None),
    (
        exc.DatabaseError("SELECT", {}, sqlite3.DatabaseError("database disk image is malformed")),
        None,
    ),
    (ValueError("not a database error"), None),
]


@pytest.mark.parametrize(
    ("error", "reason"), CASES, ids=[str(r) + f"-{i}" for i, (_, r) in enumerate(CASES)]
)
def test_passing_errors_are_told_apart(error: BaseException, reason: str | None) -> None:
    assert transient_reason(error) == reason


def test_a_full_disk_is_passing_even_on_a_dropped_connection() -> None:
    error = exc.OperationalError("x", {}, sqlite3.OperationalError("database or disk is full"))
    error.connection_invalidated = True
    assert transient_reason(error) == "has a full disk"


@pytest.mark.parametrize(
    ("error", "renew"),
    [
        (sqlite3.OperationalError("attempt to write a readonly database"), True),
        (sqlite3.OperationalError("database or disk is full"), True),
        (sqlite3.OperationalError("database is locked"), False),
        (_pg("25006", "cannot execute UPDATE in a read-only transaction"), True),
        (_pg("53100", "could not extend file"), False),
        (None, False),
    ],
)
def test_which_errors_renew_the_pool(error: BaseException | None, renew: bool) -> None:
    assert needs_new_connection(error) is renew


def test_a_cut_connection_is_passing() -> None:
    error = exc.OperationalError("SELECT 1", {}, psycopg.DatabaseError("ssl closed"))
    error.connection_invalidated = True
    assert transient_reason(error) == "cannot be reached"


def test_the_driver_message_has_no_sql() -> None:
    error = exc.OperationalError(
        "INSERT INTO levels (id) VALUES (?)",
        ("secret",),
        sqlite3.OperationalError("database is locked"),
    )
    assert "INSERT" in str(error) and driver_message(error) == "database is locked"


def test_one_report_per_outage(monkeypatch: pytest.MonkeyPatch) -> None:
    reports: list[tuple[str, dict[str, Any]]] = []
    outage = Outage("sqlite", lambda event, fields: reports.append((event, fields)))
    locked = exc.OperationalError("x", {}, sqlite3.OperationalError("database is locked"))
    outage.worked()
    for _ in range(5):
        refused = outage.refused(locked, "is locked by another writer")
        outage.worked()  # a read between the refused writes: the outage is not over yet
    assert str(refused) == "the level library (sqlite) is locked by another writer"
    assert refused.cause == "database is locked" and outage.down
    assert [event for event, _ in reports] == ["library-unavailable"]
    monkeypatch.setattr(errors, "QUIET", 0.0)
    outage.worked()
    assert [event for event, _ in reports] == ["library-unavailable", "library-recovered"]
    assert reports[1][1]["refused"] == 5 and not outage.down
