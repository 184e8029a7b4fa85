"""``levelgen bench pack``: pack throughput by worker count, and a Dask cluster against the local
pool at the same number of processes.

The same pack (``--count`` levels of ``--size``, ``--ramp``, ``--seed``) is made once per worker
count of ``--workers`` in each of ``--repeats`` rounds, and with ``--dask`` once more per round
on a ``LocalCluster`` this command starts with as many worker processes (one thread each) as
the largest count.  Each pack is made from a new interpreter, as ``levelgen pack`` makes it: the
interpreter's start and the cluster's are not timed, but every worker, of the pool or of the
cluster, starts cold and pays the generator's imports inside the timed run.  The runs of a round
follow each other and every other round runs them in reverse order, so that a change in the
machine's load falls on both sides of a comparison.  Each run reports its median seconds and
levels per second, its speedup over the first count, whether every pack it made has the bytes
of the first pack, and the load average before its first and after its last repeat; ``--dask``
adds the ratio of Dask's median levels per second to the local pool's at the same number of
processes.  First comes how much faster ``max(workers)`` pure-CPU processes run than one right
now (:func:`machine_parallelism`): on a shared machine other users' processes take cores too,
and no pack can gain more than that.
"""

from __future__ import annotations

import filecmp
import json
import os
import shutil
import statistics
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

import typer

__all__ = ["register", "time_dask_pack", "time_pack"]


def time_pack(plan: Any, folder: Path, *, workers: int = 1, scheduler: str | None = None) -> float:
    """Seconds to make ``plan`` into ``folder`` (which must not exist)."""
    from ..pack import make_pack

    start = time.perf_counter()
    make_pack(plan, folder, workers=workers, scheduler=scheduler)
    return time.perf_counter() - start


def time_dask_pack(plan: Any, folder: Path, processes: int) -> float:
    """Seconds to make ``plan`` into ``folder`` on a new ``LocalCluster`` of ``processes``
    worker processes of one thread each (its start is not counted)."""
    from distributed import LocalCluster

    with LocalCluster(
        n_workers=processes, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:  # type: ignore[no-untyped-call]
        cluster.wait_for_workers(processes)
        return _time_cold(plan, folder, scheduler=cluster.scheduler_address)


def _time_cold(plan: Any, folder: Path, *, workers: int = 1, scheduler: str | None = None) -> float:
    """:func:`time_pack` in a new interpreter, as ``levelgen pack`` runs: the pool's workers
    fork from a process that has not made a level yet, so they pay the generator's imports
    as a new cluster's workers do.  The interpreter's own start is not timed."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    spawn = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(1, mp_context=spawn) as fresh:
        return fresh.submit(_time_there, plan, folder, workers, scheduler).result()


def _time_there(plan: Any, folder: Path, workers: int, scheduler: str | None) -> float:
    if scheduler is not None:
        import distributed  # noqa: F401  (the client's import is not the cluster's speed)
    return time_pack(plan, folder, workers=workers, scheduler=scheduler)


def _same(a: Path, b: Path) -> bool:
    names = sorted(p.name for p in a.iterdir())
    if names != sorted(p.name for p in b.iterdir()):
        return False
    _, mismatch, errors = filecmp.cmpfiles(a, b, names, shallow=False)
    return not mismatch and not errors


def _load() -> float:
    return round(os.getloadavg()[0], 2)


def _burn(n: int) -> int:
    total = 0
    for i in range(n):
        total += i * i
    return total


def machine_parallelism(workers: int, n: int = 5_000_000) -> float:
    """How many cores this machine gives us right now: ``workers`` pure-CPU jobs run one
    after the other, then in a pool of ``workers`` processes; the ratio of the times (at most
    ``workers``).  A pack's speedup cannot beat it."""
    from concurrent.futures import ProcessPoolExecutor

    start = time.perf_counter()
    for _ in range(workers):
        _burn(n)
    serial = time.perf_counter() - start
    with ProcessPoolExecutor(workers) as pool:
        list(pool.map(_burn, [1] * workers))  # start the processes before timing
        start = time.perf_counter()
        list(pool.map(_burn, [n] * workers))
        parallel = time.perf_counter() - start
    return round(serial / parallel, 2)


@dataclass
class _Run:
    """One way of making the pack and what its repeats measured."""

    name: str
    workers: int
    dask: bool
    seconds: list[float] = field(default_factory=list)
    same_bytes: bool = True
    load_before: float = 0.0
    load_after: float = 0.0

    def median(self) -> float:
        return statistics.median(self.seconds)


def _measure(plan: Any, runs: list[_Run], repeats: int, tmp: Path) -> None:
    """Make the pack ``repeats`` times per run, in alternating order, keeping the first pack
    to compare every other with."""
    first: Path | None = None
    for repeat in range(repeats):
        for run in runs if repeat % 2 == 0 else runs[::-1]:
            folder = tmp / f"{repeat}-{run.name.replace(' ', '-')}"
            before = _load()
            if run.dask:
                seconds = time_dask_pack(plan, folder, run.workers)
            else:
                seconds = _time_cold(plan, folder, workers=run.workers)
            if not run.seconds:
                run.load_before = before
            run.seconds.append(seconds)
            run.load_after = _load()
            if first is None:
                first = folder
            else:
                run.same_bytes &= _same(first, folder)
                shutil.rmtree(folder)


def register(app: typer.Typer) -> None:
    """Add ``pack`` to the bench app."""

    @app.command("pack")
    def bench_pack(
        count: Annotated[int, typer.Option(min=1, help="Levels in the pack.")] = 200,
        size: Annotated[str, typer.Option(help="Size (or sizes) of the pack.")] = "12x8",
        ramp: Annotated[str, typer.Option(help="Band ramp of the pack.")] = "easy:expert",
        seed: Annotated[int, typer.Option(min=0, help="Seed of the pack.")] = 1,
        workers: Annotated[
            str, typer.Option(help="Comma-separated worker counts to time.")
        ] = "1,2",
        dask: Annotated[
            bool,
            typer.Option(
                "--dask",
                help="Also time a Dask LocalCluster with as many worker processes as the"
                " largest count, and its ratio to the local pool.",
            ),
        ] = False,
        repeats: Annotated[
            int, typer.Option(min=1, help="Rounds of runs (medians are reported).")
        ] = 1,
        as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    ) -> None:
        """Levels per second of `levelgen pack` by worker count (and on Dask), with the
        speedup over the first count, Dask's ratio to the local pool, and a byte-for-byte
        comparison of the packs."""
        from ..pack.plan import PlanError, plan_pack

        try:
            counts = [int(w) for w in workers.split(",") if w.strip()]
            plan = plan_pack(count=count, sizes=size, seed=seed, ramp=ramp)
        except (ValueError, PlanError) as exc:
            raise typer.BadParameter(str(exc)) from None
        if not counts or min(counts) < 1:
            raise typer.BadParameter("worker counts must be at least 1", param_hint="--workers")
        processes = max(counts)
        runs = [_Run(f"{n} workers", n, False) for n in counts]
        if dask:
            runs.append(_Run(f"dask {processes} workers", processes, True))
        cores = machine_parallelism(processes)
        if not as_json:
            typer.echo(
                f"machine: {processes} pure-CPU processes run {cores:.2f}x faster than one"
                f" (load {_load()}): the most any run below can gain"
            )
        with tempfile.TemporaryDirectory(prefix="levelgen-bench-pack-") as tmp:
            _measure(plan, runs, repeats, Path(tmp))
        base = runs[0].median()
        rows: list[dict[str, Any]] = []
        for run in runs:
            seconds = run.median()
            row = {
                "run": run.name,
                "seconds": round(seconds, 2),
                "levels_per_s": round(count / seconds, 2),
                "speedup": round(base / seconds, 2),
                "same_bytes": run.same_bytes,
                "load_before": run.load_before,
                "load_after": run.load_after,
                "repeats": [round(s, 2) for s in run.seconds],
            }
            rows.append(row)
            if not as_json:
                typer.echo(
                    f"{run.name:>18}: {row['seconds']:7.2f} s, {row['levels_per_s']:6.2f}"
                    f" levels/s, speedup {row['speedup']:.2f}x, same bytes"
                    f" {row['same_bytes']}, load {run.load_before} -> {run.load_after}"
                )
        report: dict[str, Any] = {"machine_parallelism": cores, "runs": rows}
        if dask:
            pool = next(r for r in runs if not r.dask and r.workers == processes)
            ratio = round(pool.median() / runs[-1].median(), 2)
            report["dask_vs_pool"] = {
                "processes": processes,
                "pool_levels_per_s": round(count / pool.median(), 2),
                "dask_levels_per_s": round(count / runs[-1].median(), 2),
                "ratio": ratio,
            }
            if not as_json:
                typer.echo(
                    f"dask / local pool at {processes} processes: {ratio:.2f}"
                    f" (medians of {repeats} run{'' if repeats == 1 else 's'})"
                )
        if as_json:
            typer.echo(json.dumps(report, indent=2))
        if not all(r["same_bytes"] for r in rows):
            raise typer.Exit(1)
