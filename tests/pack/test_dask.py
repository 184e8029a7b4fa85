"""Packs on a real Dask cluster (worker processes, loopback): chunks give the same bytes as the
pool, a worker killed mid-pack loses and repeats no level, a scheduler that dies ends the run
with one clear error and ``--resume`` finishes it on another executor, and workers with another
levelgen (or none at all) are refused before any job runs."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from levelgen.pack import PackError, make_pack, partial_dir, plan_pack, verify_pack
from levelgen.pack.executors import (
    CHUNK_SPREAD,
    MAX_CHUNK,
    ExecutorError,
    _run_chunk,
    chunk_jobs,
)
from levelgen.pack.plan import PackPlan

pytest.importorskip(
    "distributed", reason="Dask distributed is not installed: pip install 'levelgen[dask]'"
)

from distributed import Client, LocalCluster


def files_of(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def plan(count: int = 24) -> PackPlan:
    return plan_pack(count=count, sizes="6x4", seed=9, ramp="easy:expert")


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    """The 24-level pack made in this process."""
    folder = tmp_path_factory.mktemp("reference") / "pack"
    make_pack(plan(), folder, workers=1)
    return files_of(folder)


def local_cluster(workers: int = 2) -> LocalCluster:
    return LocalCluster(
        n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None
    )


def test_chunks_cover_every_job_once_longest_first() -> None:
    """The end of the plan goes first; chunks shrink to single jobs; few tasks for many jobs."""
    for count, slots in [(1, 1), (7, 2), (128, 2), (1280, 16), (300, 1)]:
        jobs = (
            plan(count).jobs if count <= 128 else plan_pack(count=count, sizes="6x4", seed=1).jobs
        )
        chunks = chunk_jobs(jobs, slots)
        assert [job for chunk in chunks for job in chunk] == list(reversed(jobs))
        sizes = [len(chunk) for chunk in chunks]
        assert sizes == sorted(sizes, reverse=True) and max(sizes) <= MAX_CHUNK
        assert sizes[-min(count, CHUNK_SPREAD * slots) :] == [1] * min(count, CHUNK_SPREAD * slots)
    assert len(chunk_jobs(plan_pack(count=1280, sizes="6x4", seed=1).jobs, 16)) < 1280 / 3
    assert chunk_jobs([], 4) == []


def test_chunks_give_the_same_bytes_and_each_level_once(
    tmp_path: Path, reference: dict[str, bytes]
) -> None:
    seen: list[int] = []
    profiling: list[bool] = []  # is any worker's profiler running, as each level is kept

    def profilers(client: Client) -> list[bool]:
        answers = client.run(
            lambda dask_worker: dask_worker.periodic_callbacks["profile"].is_running()
        )
        return list(answers.values())

    with local_cluster() as cluster, Client(cluster) as watcher:
        assert profilers(watcher) == [True, True]
        make_pack(
            plan(),
            tmp_path / "dask",
            scheduler=cluster.scheduler_address,
            on_level=lambda d, t: (seen.append(d), profiling.append(any(profilers(watcher)))),
        )
        assert profilers(watcher) == [True, True]  # started again at the end
    assert seen == list(range(25))  # 0 first (nothing to resume), then one call per level
    assert profiling[1:] == [False] * 24  # paused while the jobs ran
    assert files_of(tmp_path / "dask") == reference


def test_worker_killed_mid_pack_loses_and_repeats_nothing(
    tmp_path: Path, reference: dict[str, bytes]
) -> None:
    """kill -9 of a worker process that holds a chunk: the scheduler runs the chunk again on
    the other worker, every level is kept exactly once, and the bytes are the same."""
    seen: list[int] = []
    killed: list[tuple[str, int, int]] = []
    with local_cluster() as cluster, Client(cluster) as watcher:

        def kill_a_busy_worker(done: int, total: int) -> None:
            seen.append(done)
            if killed or done == 0:
                return
            held = {w: keys for w, keys in watcher.processing().items() if keys}
            assert held, "every chunk finished before the first level was kept"
            worker = sorted(held)[0]
            pid = watcher.run(os.getpid, workers=[worker])[worker]
            os.kill(pid, signal.SIGKILL)
            killed.append((worker, pid, len(held[worker])))

        make_pack(
            plan(),
            tmp_path / "dask",
            scheduler=cluster.scheduler_address,
            on_level=kill_a_busy_worker,
        )
        worker, pid, held = killed[0]
        assert held >= 1 and worker not in watcher.scheduler_info()["workers"]
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)
    assert seen == list(range(25))
    assert files_of(tmp_path / "dask") == reference
    assert verify_pack(tmp_path / "dask").problems == []


@pytest.fixture
def external_cluster(tmp_path: Path) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """A scheduler and one worker, each its own process as ``dask scheduler`` and ``dask
    worker`` start them: the address and the scheduler's process."""
    info = tmp_path / "scheduler.json"
    scheduler = _start("dask_scheduler", "--port", "0", "--scheduler-file", str(info))
    processes = [scheduler]
    try:
        address = _read_address(info, scheduler)
        worker = _start(
            "dask_worker", address, "--nthreads", "1", "--no-nanny", "--death-timeout", "10"
        )
        processes.append(worker)
        with Client(address, timeout="60s") as client:
            client.wait_for_workers(1, timeout=60)
        yield address, scheduler
    finally:
        for process in processes:
            process.kill()
            process.wait()


_LOOPBACK = ("--host", "127.0.0.1", "--no-dashboard")


def _start(command: str, *args: str) -> subprocess.Popen[bytes]:
    """``dask scheduler`` or ``dask worker`` (``command``) on loopback, quiet, without a
    dashboard."""
    return subprocess.Popen(
        [sys.executable, "-m", f"distributed.cli.{command}", *args, *_LOOPBACK],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def _read_address(info: Path, scheduler: subprocess.Popen[bytes]) -> str:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and scheduler.poll() is None:
        try:
            return str(json.loads(info.read_text())["address"])
        except (OSError, ValueError, KeyError):
            time.sleep(0.05)
    raise RuntimeError("the scheduler did not start")


def test_scheduler_lost_mid_pack_is_one_error_and_resume_finishes_anywhere(
    tmp_path: Path,
    reference: dict[str, bytes],
    external_cluster: tuple[str, subprocess.Popen[bytes]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import levelgen.pack.executors

    monkeypatch.setattr(levelgen.pack.executors, "DASK_CONNECT_TIMEOUT", 2.0)
    address, scheduler = external_cluster
    target = tmp_path / "pack"

    def kill_the_scheduler(done: int, total: int) -> None:
        if done == 2:
            scheduler.kill()

    with pytest.raises(PackError) as info:
        make_pack(plan(), target, scheduler=address, on_level=kill_the_scheduler)
    message = str(info.value)
    assert f"lost the Dask scheduler at {address}" in message and "--resume" in message
    assert "\n" not in message and not target.exists()
    kept = [p for p in partial_dir(target).iterdir() if p.name != "plan.json"]
    assert len(kept) >= 2
    # Whatever was kept is a whole, final level file, named by its place in the plan.
    manifest = json.loads(reference["manifest.json"])
    made_from = {entry["seed"]: entry["file"] for entry in manifest["levels"]}
    jobs = plan().jobs
    for path in kept:
        job = jobs[int(path.stem) - 1]
        assert path.read_bytes() == reference[made_from[job.seed]]
    make_pack(plan(), target, workers=1, resume=True)
    assert files_of(target) == reference


def test_workers_with_another_levelgen_are_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import levelgen.pack.executors

    with pytest.raises(ExecutorError, match=r"levelgen 0\.0\.1.*runs levelgen"):
        _run_chunk("0.0.1", ())
    monkeypatch.setattr(levelgen.pack.executors, "__version__", "0.0.1")
    with local_cluster(1) as cluster, pytest.raises(PackError) as info:
        make_pack(plan(2), tmp_path / "pack", scheduler=cluster.scheduler_address)
    message = str(info.value)
    assert "must run levelgen 0.0.1" in message and "runs levelgen" in message
    assert "pip install levelgen==0.0.1" in message and "\n" not in message


def test_a_scheduler_without_workers_is_one_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import levelgen.pack.executors

    monkeypatch.setattr(levelgen.pack.executors, "DASK_CONNECT_TIMEOUT", 0.5)
    with local_cluster(0) as cluster, pytest.raises(PackError, match="has no worker"):
        make_pack(plan(1), tmp_path / "pack", scheduler=cluster.scheduler_address)


def test_a_bad_scheduler_address_is_a_usage_error(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from levelgen.cli import app

    out = tmp_path / "pack"
    res = CliRunner().invoke(app, ["pack", "-o", str(out), "--count", "1", "--scheduler", "x"])
    assert res.exit_code == 2 and "--scheduler" in res.output and "tcp://HOST:8786" in res.output
    assert not partial_dir(out).exists()
    with pytest.raises(PackError, match="--scheduler: expected"):
        make_pack(plan(1), out, scheduler="tcp:/x")
