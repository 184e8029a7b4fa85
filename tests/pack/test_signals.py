"""``levelgen pack`` as a real process, stopped by a signal: its pool workers end with it.

SIGTERM stops the run as Ctrl-C does (exit 143, the levels made so far kept for ``--resume``),
and even ``kill -9``, which runs no shutdown at all, leaves no worker behind under PID 1."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="Linux process handling")

#: Seconds the workers may take to notice (generous: the machine may be busy).
GRACE = 20.0


def _start_pack(out: Path) -> tuple[subprocess.Popen[bytes], list[psutil.Process]]:
    """A pack run with two workers, once both workers are running."""
    command = [sys.executable, "-m", "levelgen", "pack", "--count", "60", "--size", "24x14"]
    command += ["--workers", "2", "--seed", "5", "-o", str(out)]
    # Standard error into a file: a worker that lives on would hold a pipe open.
    with (out.parent / "stderr.txt").open("wb") as err:
        proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=err)
    deadline = time.monotonic() + 60
    parent = psutil.Process(proc.pid)
    while time.monotonic() < deadline:
        children = parent.children(recursive=True)
        if len(children) >= 2:
            time.sleep(0.5)  # the workers' own start (their initializer) is done by now
            return proc, parent.children(recursive=True)
        assert proc.poll() is None, (out.parent / "stderr.txt").read_text()
        time.sleep(0.1)
    proc.kill()
    raise AssertionError("the pack started no workers")


def _alive(processes: list[psutil.Process]) -> list[psutil.Process]:
    out = []
    for p in processes:
        try:
            if p.is_running() and p.status() != psutil.STATUS_ZOMBIE:
                out.append(p)
        except psutil.NoSuchProcess:
            pass
    return out


def _wait_gone(processes: list[psutil.Process]) -> list[psutil.Process]:
    deadline = time.monotonic() + GRACE
    while _alive(processes) and time.monotonic() < deadline:
        time.sleep(0.1)
    return _alive(processes)


@pytest.mark.parametrize("how", ["TERM", "KILL"])
def test_no_worker_outlives_a_killed_pack(tmp_path: Path, how: str) -> None:
    out = tmp_path / "tpk"
    proc, workers = _start_pack(out)
    try:
        os.kill(proc.pid, getattr(signal, f"SIG{how}"))
        proc.wait(timeout=60)
        err = (tmp_path / "stderr.txt").read_text()
        left = _wait_gone(workers)
        assert not left, f"workers still running after SIG{how}: {[p.pid for p in left]}"
        if how == "TERM":
            assert proc.returncode == 143, err
            lines = err.splitlines()
            assert len(lines) == 1 and "terminated:" in lines[0] and "--resume" in lines[0]
            partial = tmp_path / ".tpk.partial"
            assert (partial / "plan.json").is_file()  # resumable
        else:
            assert proc.returncode == -signal.SIGKILL
    finally:
        for p in _alive([*workers, psutil.Process(proc.pid)] if proc.poll() is None else workers):
            p.kill()
