"""The library when its storage fails: a full disk, a file that turns read-only, a PostgreSQL
server that freezes.  Each is an outage like a database that is down: calls are refused with
:class:`LibraryUnavailable` (the service's 503 with Retry-After, never a 500), readiness says
so while it lasts, the pack runner waits and its jobs resume, and everything works again by
itself (no restart) once the cause is gone.

A full disk is made two ways: SQLite's ``max_page_count`` (no privilege needed: the file may
not grow) and, where root may mount one, a small tmpfs filled up.  A read-only file is made
two ways too: connections that may not write (``PRAGMA query_only``: SQLite's error is the
one of a file opened read-only) and, where ``setpriv`` and root are there, the real thing:
files made 444 under a process without CAP_DAC_OVERRIDE.  A frozen server is the throwaway
cluster's processes stopped with SIGSTOP."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine, create_engine, event, text

from levelgen.library import LibraryUnavailable, Store, errors
from levelgen.service import jobs
from levelgen.service.app import create_app
from levelgen.service.settings import Settings
from tests import ROOT
from tests.service.conftest import PgCluster
from tests.service.test_faults_library import (
    expected_manifest,
    failing,
    finished,
    library_problem,
    make_client,
    wait_for,
)
from tests.service.test_service_store import level_data


@pytest.fixture(autouse=True)
def quick_recovery(monkeypatch: pytest.MonkeyPatch) -> None:
    """An outage counts as over (and readiness trusts a quick check again) 0.3 s after the
    last refused call, not 3 s: the tests stay short."""
    monkeypatch.setattr(errors, "QUIET", 0.3)


@contextlib.contextmanager
def connections_with(engine: Engine, pragma: str) -> Iterator[None]:
    """While the block runs, every new connection of ``engine`` runs ``pragma`` (a callable
    of the current page count giving the statement); the pool is emptied on entry, so that
    the store meets the fault at once.  Leaving the block does not touch the pool: the store
    must get rid of the unfit connections by itself."""

    def on_connect(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        pages = cursor.execute("PRAGMA page_count").fetchone()[0]
        cursor.execute(pragma.format(pages=pages))
        cursor.close()

    event.listen(engine, "connect", on_connect)
    engine.dispose()
    try:
        yield
    finally:
        event.remove(engine, "connect", on_connect)


#: The file may not grow by a page: SQLite answers "database or disk is full".
FULL = "PRAGMA max_page_count={pages}"
#: The connection may not write: SQLite answers "attempt to write a readonly database".
READ_ONLY = "PRAGMA query_only=1"


def refused(store: Store, seed: int) -> str | None:
    """Store a new level: None when it was stored, else the reason it was refused for."""
    try:
        store.put_level(level_data("8x6", seed))
    except LibraryUnavailable as exc:
        return exc.reason
    return None


def readiness(store: Store) -> str | None:
    try:
        store.check_writable()
    except LibraryUnavailable as exc:
        return exc.reason
    return None


# ----- a full disk -----------------------------------------------------------------------------


def test_a_full_sqlite_file_is_an_outage(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'lib.db'}", lock_timeout=0.5)
    store.put_level(level_data("6x4", 0))
    with connections_with(store.engine, FULL):
        reasons = [refused(store, seed) for seed in range(1, 30)]  # free room runs out
        assert "has a full disk" in reasons
        assert set(reasons) <= {None, "has a full disk"}
        assert readiness(store) == "has a full disk"
    # Room again: the store works at once (the pool's connections were renewed), readiness too.
    assert refused(store, 100) is None
    time.sleep(0.35)
    assert readiness(store) is None
    store.close()


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A tmpfs of 2 MiB (root, and mount allowed, else skipped)."""
    folder = tmp_path / "disk"
    folder.mkdir()
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("mounting a tmpfs needs root")
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(folder)], capture_output=True
    )
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.decode().strip()}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], capture_output=True)


def fill(folder: Path) -> Path:
    """Fill the disk of ``folder`` with one file; returns it."""
    filler = folder / "filler"
    with filler.open("wb") as out, contextlib.suppress(OSError):
        while True:
            out.write(b"\0" * 65536)
            out.flush()
    return filler


def test_a_full_tmpfs(small_disk: Path) -> None:
    """The issue's case on a real disk: the disk fills up, writes are refused as an outage and
    readiness says the disk is full; the filler deleted, all works again."""
    store = Store(f"sqlite:///{small_disk / 'lib.db'}", lock_timeout=0.5)
    store.put_level(level_data("6x4", 0))
    filler = fill(small_disk)
    reasons = [refused(store, seed) for seed in range(1, 30)]
    assert "has a full disk" in reasons, reasons
    assert set(reasons) <= {None, "has a full disk", "met a disk error"}, reasons
    assert readiness(store) == "has a full disk"
    filler.unlink()
    time.sleep(0.35)
    assert readiness(store) is None
    assert refused(store, 100) is None
    store.close()


def test_the_service_and_its_packs_through_a_full_disk(tmp_path: Path) -> None:
    """Writes get 503 + Retry-After (never 500), readiness 503; a pack job waits, the runner
    lives, and once there is room the job ends with the pack ``levelgen pack`` makes and
    readiness is back."""
    with make_client(tmp_path, db_lock_timeout=0.5) as client:
        store: Store = client.app.state.store  # type: ignore[attr-defined]
        runner = client.app.state.runner  # type: ignore[attr-defined]
        with connections_with(store.engine, FULL):
            statuses = []
            for seed in range(30):
                response = client.post("/v1/levels", json={"size": "8x6", "seed": seed})
                statuses.append(response.status_code)
                if response.status_code == 503:
                    assert "full disk" in library_problem(response)["detail"]
                    break
            assert statuses[-1] == 503 and set(statuses) <= {201, 503}, statuses
            ready = client.get("/readyz")
            assert "full disk" in library_problem(ready)["detail"]
            # A job queued meanwhile (by another process, whose file may grow) waits.
            other = Store(store.url)
            request = {"count": 3, "sizes": "8x6", "seed": 4}
            job_id = jobs.add_job(other, "elsewhere", request, 3, 2)
            other.close()
            time.sleep(2)
            job = client.get(f"/v1/packs/{job_id}")
            if job.status_code == 200:
                assert job.json()["status"] in ("queued", "running"), job.json()
            else:
                library_problem(job)
            assert runner.running
        done = finished(client, f"/v1/packs/{job_id}")
        assert done["status"] == "done", done["error"]
        assert done["manifest"] == expected_manifest(done["request"])
        wait_for("readiness", lambda: client.get("/readyz").status_code == 200, 10)
        assert client.post("/v1/levels", json={"size": "8x6", "seed": 99}).status_code == 201


def test_the_runner_outlives_a_job_it_cannot_even_fail(tmp_path: Path) -> None:
    """A level that cannot be stored for good fails its job, and when recording that failure
    fails too (the same broken disk), the runner logs it and goes on with the next job."""
    broken = sqlite3.DatabaseError("database disk image is malformed")
    with make_client(tmp_path) as client:
        engine = client.app.state.store.engine  # type: ignore[attr-defined]
        runner = client.app.state.runner  # type: ignore[attr-defined]
        with (
            failing(engine, "INSERT INTO pack_levels", None, broken),
            failing(engine, "SET status=?, error=?", None, broken) as failed,
        ):
            client.post("/v1/packs", json={"count": 2, "size": "6x4", "seed": 2})
            wait_for("the job's failure to be recorded", lambda: failed[0] >= 1, 30)
        time.sleep(0.2)
        assert runner.running
        job = client.post("/v1/packs", json={"count": 2, "size": "6x4", "seed": 3}).json()
        assert finished(client, job["url"])["status"] == "done"
        assert client.get("/readyz").status_code == 200


# ----- a read-only file ------------------------------------------------------------------------


def test_the_service_through_a_read_only_file(tmp_path: Path) -> None:
    """Connections opened while the file is read-only: writes get 503 + Retry-After and
    readiness 503; when the file may be written again, writes work again without a restart
    (the store renews its pool after such a refusal), and readiness is back."""
    with make_client(tmp_path, db_lock_timeout=0.5) as client:
        store: Store = client.app.state.store  # type: ignore[attr-defined]
        with connections_with(store.engine, READ_ONLY):
            for seed in range(3):
                response = client.post("/v1/levels", json={"size": "6x4", "seed": seed})
                assert "read-only" in library_problem(response)["detail"]
            assert "read-only" in library_problem(client.get("/readyz"))["detail"]
            assert client.get("/v1/levels").status_code == 200  # reads still work
        # A connection opened read-only (one that served a read meanwhile) may refuse the
        # first write; that refusal renews the pool, and the next write works.
        statuses = [
            client.post("/v1/levels", json={"size": "6x4", "seed": seed}).status_code
            for seed in (1, 2)
        ]
        assert statuses[-1] == 201 and set(statuses) <= {201, 503}, statuses
        wait_for("readiness", lambda: client.get("/readyz").status_code == 200, 10)


READ_ONLY_FILES = """
import json, sys, time
from pathlib import Path
from levelgen.library import LibraryUnavailable, Store, errors
from tests.service.test_service_store import level_data
errors.QUIET = 0.3
folder = Path(sys.argv[1])
store = Store(f"sqlite:///{folder / 'lib.db'}", lock_timeout=0.5)
store.put_level(level_data("6x4", 0))
def attempt(seed):
    try:
        store.put_level(level_data("6x4", seed))
        return "stored"
    except LibraryUnavailable as exc:
        return exc.reason
def ready():
    try:
        store.check_writable()
        return "ready"
    except LibraryUnavailable as exc:
        return exc.reason
files = [path for path in folder.iterdir() if path.name.startswith("lib.db")]
for path in files:
    path.chmod(0o444)
store.engine.dispose()  # connections opened from now on (under load: the pool's overflow)
seen = {"read-only": [attempt(seed) for seed in (1, 2)] + [ready()]}
for path in files:
    path.chmod(0o644)
time.sleep(0.35)
seen["writable"] = [attempt(seed) for seed in (3, 4)] + [ready()]
print(json.dumps(seen))
"""


def test_a_read_only_file_under_dropped_capabilities(tmp_path: Path) -> None:
    """The issue's case: files 444, then 644 again, in a process without CAP_DAC_OVERRIDE."""
    setpriv = shutil.which("setpriv")
    if setpriv is None or os.geteuid() != 0:
        pytest.skip("needs setpriv, and root (whose capability is dropped)")
    command = [setpriv, "--inh-caps=-dac_override", "--bounding-set=-dac_override"]
    result = subprocess.run(
        [*command, sys.executable, "-c", READ_ONLY_FILES, str(tmp_path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    if result.returncode != 0 and "setpriv" in result.stderr:
        pytest.skip(f"setpriv cannot drop the capability here: {result.stderr.strip()}")
    assert result.returncode == 0, result.stderr
    seen = json.loads(result.stdout.strip().splitlines()[-1])
    assert seen == {
        "read-only": ["is read-only", "is read-only", "is read-only"],
        "writable": ["stored", "stored", "ready"],
    }


def test_a_read_only_postgresql(postgres_url: str) -> None:
    """A PostgreSQL database that turns read-only (as a standby after a failover): writes are
    refused as an outage and readiness says so; once it takes writes again the connections
    opened meanwhile (read-only for good) are replaced and writes work, with no restart."""
    admin = create_engine(postgres_url.replace("postgresql:", "postgresql+psycopg:"))
    admin = admin.execution_options(isolation_level="AUTOCOMMIT")

    def run(statement: str) -> None:
        with admin.connect() as connection:
            connection.execute(text(statement))

    run("DROP DATABASE IF EXISTS levelgen_read_only")
    run("CREATE DATABASE levelgen_read_only")
    store = Store(postgres_url.replace("/postgres?", "/levelgen_read_only?"), lock_timeout=1)
    try:
        assert refused(store, 1) is None
        run("ALTER DATABASE levelgen_read_only SET default_transaction_read_only = on")
        store.engine.dispose()  # connections opened from now on
        assert refused(store, 2) == "is read-only"
        assert readiness(store) == "is read-only"
        run("ALTER DATABASE levelgen_read_only SET default_transaction_read_only = off")
        assert refused(store, 3) in (None, "is read-only")  # a connection opened meanwhile
        assert refused(store, 4) is None
        time.sleep(0.35)
        assert readiness(store) is None
    finally:
        store.close()
        run("DROP DATABASE IF EXISTS levelgen_read_only")
        admin.dispose()


# ----- a frozen PostgreSQL ---------------------------------------------------------------------


def _server_processes(cluster: PgCluster) -> list[int]:
    """The postmaster of ``cluster`` and its children (the backends and helpers)."""
    postmaster = int((cluster.data / "postmaster.pid").read_text().split()[0])
    children = []
    for entry in os.listdir("/proc"):
        with contextlib.suppress(OSError, IndexError):
            stat = Path(f"/proc/{entry}/stat").read_text()
            if entry.isdigit() and stat.rsplit(")", 1)[1].split()[1] == str(postmaster):
                children.append(int(entry))
    return [postmaster, *children]


@contextlib.contextmanager
def frozen(cluster: PgCluster) -> Iterator[None]:
    """The cluster's processes stopped (SIGSTOP) while the block runs, then let go."""
    processes = _server_processes(cluster)
    for pid in processes:
        os.kill(pid, signal.SIGSTOP)
    try:
        yield
    finally:
        for pid in processes:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGCONT)


def test_a_frozen_postgresql(pg_cluster: PgCluster) -> None:
    """The server freezes: a call in flight (its statement sent) and a request that meets the
    freeze are refused within the bounds (lock timeout 1 s: a statement 2 s, any answer 3 s,
    connecting 2 s), not when the server wakes up; afterwards all works again by itself."""
    store = Store(pg_cluster.url, lock_timeout=1)
    store.ping()
    outcome: dict[str, Any] = {}

    def in_flight() -> None:
        started = time.monotonic()
        try:
            with store.session() as session:
                session.execute(text("SELECT pg_sleep(0.5)"))
            outcome["reason"] = None
        except LibraryUnavailable as exc:
            outcome["reason"] = exc.reason
        outcome["seconds"] = time.monotonic() - started

    caller = threading.Thread(target=in_flight)
    caller.start()
    time.sleep(0.2)
    with frozen(pg_cluster):
        caller.join(8)
        assert outcome.get("reason") == "did not answer in time", outcome
        assert outcome["seconds"] < 4.5
    store.ping()
    store.close()

    settings = Settings(db=pg_cluster.url, workers=1, db_lock_timeout=1)
    with TestClient(create_app(settings)) as client:
        assert client.get("/v1/levels").status_code == 200
        with frozen(pg_cluster):
            started = time.monotonic()
            library_problem(client.get("/v1/levels"))
            # The pool's check of its idle connection waits 3 s, the new connection it then
            # opens is refused after the connect timeout (2 s).
            assert time.monotonic() - started < 6.5
        wait_for("readiness", lambda: client.get("/readyz").status_code == 200, 15)
        assert client.get("/v1/levels").status_code == 200
