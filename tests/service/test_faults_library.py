"""The service while its library's database misbehaves, and once it is back.

Faults of two kinds here: errors the SQLite driver raises, injected at chosen statements
(exact and quick: the pack runner meeting an error, a job whose write fails for a moment, a
write that fails for good, a request meeting an error), and a PostgreSQL server stopped and
started again in the middle of a pack.  (A SQLite file locked by another process under a real
``levelgen serve`` is in ``test_faults_process.py``.)  Through each the runner must live on,
requests must get 503 rather than 500, jobs must not fail, and everything must work again by
itself once the database does."""

from __future__ import annotations

import contextlib
import json
import logging
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine, event

from levelgen.pack.plan import make_level_text
from levelgen.service.app import create_app
from levelgen.service.middleware import access_logger
from levelgen.service.runner import manifest_of, plan_of
from levelgen.service.settings import Settings
from tests.service.conftest import PgCluster

LIBRARY_PROBLEM = "urn:levelgen:problem:library-unavailable"


def make_client(tmp: Path, **options: Any) -> TestClient:
    values: dict[str, Any] = {"db": f"sqlite:///{tmp / 'lib.db'}", "workers": 1, **options}
    return TestClient(create_app(Settings(**values)))


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """One service for the tests that inject faults (each lets its jobs end); leaving it
    checks that it stops cleanly after them."""
    with make_client(tmp_path_factory.mktemp("faults")) as c:
        yield c


@contextlib.contextmanager
def failing(
    engine: Engine, statement: str, times: int | None, error: Exception
) -> Iterator[list[int]]:
    """While the block runs, the next ``times`` statements of ``engine`` that contain
    ``statement`` (all of them when None) fail with the driver's ``error``, as the driver
    raises it.  Yields ``[failures so far]``."""
    failed = [0]

    def fail(*args: Any) -> None:
        if statement in args[2] and (times is None or failed[0] < times):
            failed[0] += 1
            raise error

    event.listen(engine, "before_cursor_execute", fail)
    try:
        yield failed
    finally:
        event.remove(engine, "before_cursor_execute", fail)


@contextlib.contextmanager
def log_events() -> Iterator[list[dict[str, Any]]]:
    """The events (start, stop, the library's outages...) the service logs meanwhile."""
    found: list[dict[str, Any]] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            line = json.loads(record.getMessage())
            if "event" in line:
                found.append(line)

    handler = Keep()
    access_logger().addHandler(handler)
    try:
        yield found
    finally:
        access_logger().removeHandler(handler)


def wait_for(what: str, check: Any, seconds: float = 60) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError(f"{what}: not within {seconds} s")


def finished(client: TestClient, url: str) -> Any:
    def check() -> Any:
        data = client.get(url).json()
        return data if data["status"] in ("done", "failed") else None

    return wait_for(f"the job {url} to end", check)


def library_problem(response: Any) -> dict[str, Any]:
    """The 503 problem document of ``response``, naming the library, with Retry-After."""
    assert response.status_code == 503, response.text
    assert response.headers["content-type"] == "application/problem+json"
    assert int(response.headers["retry-after"]) >= 1
    document: dict[str, Any] = response.json()
    assert document["type"] == LIBRARY_PROBLEM and document["status"] == 503
    assert "library" in document["detail"] and "SQL" not in document["detail"]
    return document


def expected_manifest(request: dict[str, Any]) -> dict[str, Any]:
    plan = plan_of(request)
    return manifest_of(plan, {job.index: make_level_text(job) for job in plan.jobs})


LOCKED = sqlite3.OperationalError("database is locked")


# ----- the pack runner -------------------------------------------------------------------------


def test_the_pack_runner_outlives_a_library_error(client: TestClient) -> None:
    """The runner's look for jobs fails three times (the library locked): it waits, tries
    again, and makes the next job; the service stays ready (and stops cleanly at the end of
    the module)."""
    engine = client.app.state.store.engine  # type: ignore[attr-defined]
    with failing(engine, "FROM pack_jobs", 3, LOCKED) as failed:
        wait_for("the runner to meet the errors", lambda: failed[0] == 3, 30)
    assert client.get("/readyz").status_code == 200
    job = client.post("/v1/packs", json={"count": 2, "size": "6x4", "seed": 1}).json()
    done = finished(client, job["url"])
    assert done["status"] == "done"


def test_readiness_says_when_the_runner_is_not_running(tmp_path: Path) -> None:
    with make_client(tmp_path) as client:
        assert client.get("/readyz").status_code == 200
        client.portal.call(client.app.state.runner.stop)  # type: ignore[attr-defined]
        response = client.get("/readyz")
        assert response.status_code == 503 and "runner" in response.json()["detail"]
        assert response.headers["retry-after"]


def test_a_passing_error_does_not_fail_the_job(client: TestClient) -> None:
    """Storing the pack's levels fails twice (locked): the job waits, goes on, and ends with
    the pack ``levelgen pack`` makes."""
    body = {"count": 3, "size": "6x4:8x4", "seed": 5}
    engine = client.app.state.store.engine  # type: ignore[attr-defined]
    with failing(engine, "INSERT INTO pack_levels", 2, LOCKED) as failed:
        job = client.post("/v1/packs", json=body).json()
        done = finished(client, job["url"])
    assert failed[0] == 2
    assert done["status"] == "done", done["error"]
    assert done["manifest"] == expected_manifest(done["request"])


def test_a_failed_job_shows_no_sql(client: TestClient) -> None:
    """A write that fails for good (not a passing error) fails the job, with a reason that
    holds neither the statement nor its parameters."""
    broken = sqlite3.DatabaseError("database disk image is malformed")
    engine = client.app.state.store.engine  # type: ignore[attr-defined]
    with failing(engine, "INSERT INTO pack_levels", None, broken):
        job = client.post("/v1/packs", json={"count": 2, "size": "6x4", "seed": 2}).json()
        done = finished(client, job["url"])
    assert done["status"] == "failed"
    assert "SQL" not in done["error"] and "INSERT" not in done["error"], done["error"]
    assert "pack_levels" not in done["error"] and "malformed" in done["error"]


def test_a_request_meeting_a_passing_error_gets_503(client: TestClient) -> None:
    """Each request meeting the error gets a 503 naming the library; the outage is one line
    in the log."""
    store = client.app.state.store  # type: ignore[attr-defined]
    wait_for("an earlier test's outage to end", lambda: not store.outage.down, 30)
    engine = store.engine
    with log_events() as events:
        with failing(engine, "FROM levels", None, LOCKED):
            for _ in range(5):
                library_problem(client.get("/v1/levels"))
        assert client.get("/v1/levels").status_code == 200
    outages = [e for e in events if e["event"] == "library-unavailable"]
    assert len(outages) == 1 and outages[0]["reason"] == "is locked by another writer"


# ----- PostgreSQL restarted in the middle of a pack ---------------------------------------------


def test_a_postgresql_restart(pg_cluster: PgCluster) -> None:
    """PostgreSQL stops (fast shutdown) while a pack is being made and starts again a few
    seconds later: meanwhile requests get 503 and readiness says not ready; afterwards the
    engine has reconnected by itself, the pack ends as ``levelgen pack`` makes it, a new pack
    is made, and the log holds one outage and one recovery."""
    settings = Settings(db=pg_cluster.url, workers=1, db_lock_timeout=2)
    with log_events() as events, TestClient(create_app(settings)) as client:
        body = {"count": 6, "size": "8x6", "seed": 3}
        job = client.post("/v1/packs", json=body).json()
        wait_for("a first level", lambda: client.get(job["url"]).json()["done"] >= 1)
        pg_cluster.stop("fast")
        try:
            library_problem(client.get("/v1/levels"))
            library_problem(client.post("/v1/levels", json={"size": "6x4", "seed": 1}))
            library_problem(client.get(job["url"]))
            assert client.get("/readyz").status_code == 503
            time.sleep(2)  # the runner meets the outage too
        finally:
            pg_cluster.start()
        wait_for("readiness", lambda: client.get("/readyz").status_code == 200, 30)
        done = finished(client, job["url"])
        assert done["status"] == "done", done["error"]
        assert done["manifest"] == expected_manifest(done["request"])
        again = client.post("/v1/packs", json={"count": 2, "size": "8x6"})
        assert again.status_code == 202
        assert finished(client, again.json()["url"])["status"] == "done"
        assert client.post("/v1/levels", json={"size": "6x4", "seed": 1}).status_code == 201

        def recovered() -> bool:
            return any(e["event"] == "library-recovered" for e in events)

        wait_for("the log to say the library is back", recovered, 30)
    outages = [e for e in events if e["event"] == "library-unavailable"]
    assert len(outages) == 1 and outages[0]["db"] == "postgresql"
