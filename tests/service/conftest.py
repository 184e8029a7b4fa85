"""Throwaway PostgreSQL clusters for the service's tests: each in a temporary directory,
reached on a unix socket only, run as the ``postgres`` user (initdb refuses to run as root),
skipped where PostgreSQL (or root, to switch to that user) is absent.  ``postgres_url`` is one
cluster for the whole session; ``pg_cluster`` one of the test's own, which it may stop and
start again."""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

PG_BIN = Path("/usr/lib/postgresql/15/bin")


def _pg_tool(name: str) -> str | None:
    found = shutil.which(name)
    if found is None and (PG_BIN / name).exists():
        found = str(PG_BIN / name)
    return found


def _pg_available() -> bool:
    if _pg_tool("pg_ctl") is None or _pg_tool("initdb") is None:
        return False
    try:
        pwd.getpwnam("postgres")
    except KeyError:
        return False
    return os.geteuid() == 0


class PgCluster:
    """A PostgreSQL cluster in a temporary directory: ``start``, ``stop``, ``remove``."""

    def __init__(self) -> None:
        pg_ctl, initdb = _pg_tool("pg_ctl"), _pg_tool("initdb")
        assert pg_ctl is not None and initdb is not None
        self.pg_ctl = pg_ctl
        self.folder = Path(tempfile.mkdtemp(prefix="lgpg"))
        user = pwd.getpwnam("postgres")
        os.chown(self.folder, user.pw_uid, user.pw_gid)
        self.data = self.folder / "data"
        self.as_pg = ["runuser", "-u", "postgres", "--"]
        command = [initdb, "-D", str(self.data), "-A", "trust", "-U", "postgres", "--no-sync"]
        subprocess.run(
            [*self.as_pg, *command],
            check=True,
            capture_output=True,
            timeout=120,
        )
        self.url = f"postgresql://postgres@/postgres?host={self.folder}"

    def start(self) -> None:
        options = f"-k {self.folder} -c listen_addresses='' -c fsync=off"
        log = str(self.folder / "log")
        command = [self.pg_ctl, "-D", str(self.data), "-o", options, "-l", log, "-w", "start"]
        subprocess.run(
            [*self.as_pg, *command],
            check=True,
            capture_output=True,
            timeout=120,
        )

    def stop(self, mode: str = "fast") -> None:
        subprocess.run(
            [*self.as_pg, self.pg_ctl, "-D", str(self.data), "-m", mode, "-w", "stop"],
            capture_output=True,
            timeout=120,
        )

    def remove(self) -> None:
        self.stop("immediate")
        shutil.rmtree(self.folder, ignore_errors=True)


def _cluster() -> Iterator[PgCluster]:
    if not _pg_available():
        pytest.skip("PostgreSQL (pg_ctl, initdb, the postgres user, root to switch) not here")
    cluster = PgCluster()
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.remove()


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """A throwaway PostgreSQL cluster for the session: its SQLAlchemy URL."""
    for cluster in _cluster():
        yield cluster.url


@pytest.fixture
def pg_cluster() -> Iterator[PgCluster]:
    """A throwaway PostgreSQL cluster of the test's own, running (the test may stop it)."""
    yield from _cluster()
