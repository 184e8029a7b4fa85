"""The generation workloads of ``levelgen bench sliding`` over a board's whole range.

- :func:`bench_every_length`: a 3x3 numbered level at each length 1..31 (the 8-puzzle's
  largest distance), seconds each;
- :func:`bench_largest`: 3x4 and 4x3 numbered levels at their largest distance (53), after the
  whole-space table is loaded, or built and cached when it is not on disk yet (its time, frames
  and bytes reported apart);
- :func:`bench_long`: 4x4 numbered levels at 60, 66 and 72 moves, ten each (seeds 0..9), by
  the heuristic walk with every start proved by the solver: median and maximum seconds per
  length (the target is a median of at most 10 s).

Times are wall-clock seconds of ``clock``; the code measured never reads a clock.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Sequence

from . import space
from .bench import WorkloadFigures, workload_figures
from .generate import create_level, numbered_goal
from .solver import search_heuristic
from .spec import parse_spec

__all__ = ["bench_every_length", "bench_largest", "bench_long", "run_lengths"]

Clock = Callable[[], float]


def _make(size: str, moves: int, seed: int, clock: Clock) -> tuple[float, bool]:
    spec = parse_spec({"size": size, "moves": moves})
    t = clock()
    level = create_level(spec, seed)
    seconds = clock() - t
    assert level.metrics is not None
    return seconds, level.metrics.optimal_length == moves


def bench_every_length(size: str = "3x3", *, clock: Clock = time.perf_counter) -> WorkloadFigures:
    """A level at every length from 1 to the board's largest distance (seed = the length)."""
    width, height = (int(v) for v in size.split("x"))
    t0 = clock()
    table = space.table_for(numbered_goal(width, height))
    tables = clock() - t0
    times, rows, correct = [], [], True
    for moves in range(1, table.largest + 1):
        seconds, ok = _make(size, moves, moves, clock)
        correct = correct and ok
        times.append(seconds)
        rows.append({"moves": moves, "seconds": round(seconds, 4), "layer": table.layers()[moves]})
    return workload_figures(f"every-length-{size}", times, correct, rows, tables)


def bench_largest(
    sizes: Sequence[str] = ("3x4", "4x3"), count: int = 3, *, clock: Clock = time.perf_counter
) -> WorkloadFigures:
    """``count`` levels of each size at its largest distance; ``rows`` name the table of each
    size: frames, bytes, largest distance, and whether it was built (``seconds``) or read."""
    times, rows, correct, tables = [], [], True, 0.0
    for size in sizes:
        width, height = (int(v) for v in size.split("x"))
        built: list[str] = []
        t0 = clock()
        table = space.table_for(numbered_goal(width, height), built.append)
        loaded = clock() - t0
        largest = table.largest
        tables += loaded
        for seed in range(count):
            seconds, ok = _make(size, largest, seed, clock)
            correct = correct and ok
            times.append(seconds)
        rows.append(
            {
                "size": size,
                "largest": largest,
                "frames": len(table.table),
                "bytes": len(table.table),
                "table": "built" if built else "read",
                "table_seconds": round(loaded, 2),
                "level_seconds": [round(t, 3) for t in times[-count:]],
            }
        )
    return workload_figures("largest-3x4", times, correct, rows, tables)


def bench_long(
    lengths: Sequence[int] = (60, 66, 72), count: int = 10, *, clock: Clock = time.perf_counter
) -> WorkloadFigures:
    """``count`` 4x4 levels at each length (seeds 0..count-1); a row per length with its
    median and maximum seconds."""
    t0 = clock()
    search_heuristic(numbered_goal(4, 4))
    tables = clock() - t0
    times, rows, correct = [], [], True
    for moves in lengths:
        these = []
        for seed in range(count):
            seconds, ok = _make("4x4", moves, seed, clock)
            correct = correct and ok
            these.append(seconds)
        times += these
        rows.append(
            {
                "moves": moves,
                "median_seconds": round(statistics.median(these), 3),
                "max_seconds": round(max(these), 3),
            }
        )
    return workload_figures("long-4x4", times, correct, rows, tables)


def run_lengths(*, clock: Clock = time.perf_counter) -> dict[str, WorkloadFigures]:
    """The three workloads with their default sizes, by name."""
    return {
        "every-length-3x3": bench_every_length(clock=clock),
        "largest-3x4": bench_largest(clock=clock),
        "long-4x4": bench_long(clock=clock),
    }
