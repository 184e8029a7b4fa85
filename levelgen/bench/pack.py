"""``levelgen bench pack``: pack throughput by worker count, and Dask against the local pool.

The same pack (``--count`` levels of ``--size``, ``--ramp``, seed 1) is made once per worker
count of ``--workers`` (and with ``--dask`` once more on a ``LocalCluster`` with as many worker
processes as the largest count); each run's levels per second, its speedup over the first
count, and whether its bytes equal the first run's are reported, with the load average before
and after each run, and first how much faster ``max(workers)`` pure-CPU processes run than one
right now (:func:`machine_parallelism`): on a shared machine other users' processes take cores
too, and no pack can gain more than that.
"""

from __future__ import annotations

import filecmp
import json
import os
import tempfile
import time
from pathlib import Path
from typing import Annotated, Any

import typer

__all__ = ["register", "time_pack"]


def time_pack(plan: Any, folder: Path, *, workers: int = 1, scheduler: str | None = None) -> float:
    """Seconds to make ``plan`` into ``folder`` (which must not exist)."""
    from ..pack import make_pack

    start = time.perf_counter()
    make_pack(plan, folder, workers=workers, scheduler=scheduler)
    return time.perf_counter() - start


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


def register(app: typer.Typer) -> None:
    """Add ``pack`` to the bench app."""

    @app.command("pack")
    def bench_pack(
        count: Annotated[int, typer.Option(min=1, help="Levels in the pack.")] = 200,
        size: Annotated[str, typer.Option(help="Size (or sizes) of the pack.")] = "12x8",
        ramp: Annotated[str, typer.Option(help="Band ramp of the pack.")] = "easy:expert",
        workers: Annotated[
            str, typer.Option(help="Comma-separated worker counts to time.")
        ] = "1,2",
        dask: Annotated[
            bool, typer.Option("--dask", help="Also time a Dask LocalCluster (processes).")
        ] = False,
        as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    ) -> None:
        """Levels per second of `levelgen pack` by worker count (and on Dask), with the
        speedup over the first count and a byte-for-byte comparison of the packs."""
        from ..pack.plan import PlanError, plan_pack

        try:
            counts = [int(w) for w in workers.split(",") if w.strip()]
            plan = plan_pack(count=count, sizes=size, seed=1, ramp=ramp)
        except (ValueError, PlanError) as exc:
            raise typer.BadParameter(str(exc)) from None
        if not counts or min(counts) < 1:
            raise typer.BadParameter("worker counts must be at least 1", param_hint="--workers")
        rows: list[dict[str, Any]] = []
        cores = machine_parallelism(max(counts))
        if not as_json:
            typer.echo(
                f"machine: {max(counts)} pure-CPU processes run {cores:.2f}x faster than one"
                f" (load {_load()}): the most any run below can gain"
            )
        with tempfile.TemporaryDirectory(prefix="levelgen-bench-pack-") as tmp:
            first: Path | None = None
            base = 0.0
            runs: list[tuple[str, int, str | None]] = [(f"{n} workers", n, None) for n in counts]
            if dask:
                runs.append((f"dask {max(counts)} workers", max(counts), "dask"))
            for i, (name, n, kind) in enumerate(runs):
                folder = Path(tmp, f"run{i}")
                before = _load()
                if kind == "dask":
                    from distributed import LocalCluster

                    with LocalCluster(
                        n_workers=n, threads_per_worker=1, processes=True, dashboard_address=None
                    ) as cluster:  # type: ignore[no-untyped-call]
                        seconds = time_pack(plan, folder, scheduler=cluster.scheduler_address)
                else:
                    seconds = time_pack(plan, folder, workers=n)
                first = first or folder
                base = base or seconds
                row = {
                    "run": name,
                    "seconds": round(seconds, 2),
                    "levels_per_s": round(count / seconds, 2),
                    "speedup": round(base / seconds, 2),
                    "same_bytes": _same(first, folder),
                    "load_before": before,
                    "load_after": _load(),
                }
                rows.append(row)
                if not as_json:
                    typer.echo(
                        f"{name:>18}: {row['seconds']:7.2f} s, {row['levels_per_s']:6.2f}"
                        f" levels/s, speedup {row['speedup']:.2f}x, same bytes"
                        f" {row['same_bytes']}, load {before} -> {row['load_after']}"
                    )
        if as_json:
            typer.echo(json.dumps({"machine_parallelism": cores, "runs": rows}, indent=2))
        if not all(r["same_bytes"] for r in rows):
            raise typer.Exit(1)
