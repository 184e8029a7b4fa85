"""The sliding-puzzle workloads of ``levelgen bench sliding``, each returning its figures.

- :func:`bench_korf`: Korf's 100 random 15-puzzle instances (``korf100.txt``, package data,
  with their published optimal lengths): every one solved, its length compared with the
  published one, the time per instance, median and maximum;
- :func:`bench_numbered`: 4x4 numbered levels created at exact optimal lengths 40-50 (seconds
  a level, median and maximum);
- :func:`bench_colour`: 4x4 colour levels of 2 and 3 colours over every band (levels a
  second);
- :func:`bench_small`: 3x3 levels, numbered and colour, over every band (milliseconds a
  level).

Times are wall-clock seconds of ``clock`` (``time.perf_counter`` by default): this module
measures, the code it measures never reads a clock.  The pattern databases are loaded (or
built) before the timed part and that time is reported on its own (``tables_seconds``).
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from importlib import resources
from typing import Any

from ..puzzles import Budget
from .generate import create_level, random_walk
from .rules import Frame
from .solver import search_heuristic, solve
from .spec import BANDS, parse_spec

__all__ = [
    "KORF24",
    "KorfInstance",
    "WorkloadFigures",
    "bench_bounded",
    "bench_colour",
    "bench_korf",
    "bench_korf24",
    "bench_numbered",
    "bench_small",
    "load_korf24",
    "load_korf100",
    "run_all",
]

Clock = Callable[[], float]


@dataclass(frozen=True, slots=True)
class KorfInstance:
    """One of Korf's instances: its ``number``, published optimal ``length`` and frame."""

    number: int
    length: int
    frame: Frame


#: Korf's goal: the blank in the top left cell, tile ``t`` in cell ``t``.
KORF_GOAL = Frame(4, 4, tuple(range(16)))


def load_korf100() -> list[KorfInstance]:
    """Korf's 100 instances from the package data file ``korf100.txt``."""
    text = resources.files(__package__).joinpath("korf100.txt").read_text(encoding="utf-8")
    out = []
    for line in text.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        number, length, *cells = (int(v) for v in line.split())
        out.append(KorfInstance(number, length, Frame(4, 4, tuple(cells))))
    return out


@dataclass(frozen=True, slots=True)
class WorkloadFigures:
    """The figures of one workload: how many items, the seconds of each (median, maximum,
    total), items a second, whether every answer was right, and the rows of each item."""

    name: str
    count: int
    median_seconds: float
    max_seconds: float
    total_seconds: float
    per_second: float
    all_correct: bool
    tables_seconds: float = 0.0
    rows: list[dict[str, Any]] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        """The figures as JSON values."""
        return asdict(self)


def workload_figures(
    name: str, times: Sequence[float], correct: bool, rows: list[dict[str, Any]], tables: float
) -> WorkloadFigures:
    total = sum(times)
    return WorkloadFigures(
        name,
        len(times),
        statistics.median(times) if times else 0.0,
        max(times, default=0.0),
        total,
        len(times) / total if total > 0 else 0.0,
        correct,
        tables,
        rows,
    )


def bench_korf(
    instances: Sequence[KorfInstance] | None = None,
    *,
    clock: Clock = time.perf_counter,
    should_stop: Callable[[], bool] | None = None,
) -> WorkloadFigures:
    """Solve Korf's instances (all 100 by default); each row: ``number``, ``published``,
    ``length``, ``seconds``, ``nodes``, ``method``; ``all_correct`` when every instance was
    solved at its published length.  The mean of the published lengths is 53.05."""
    items = list(instances) if instances is not None else load_korf100()
    t0 = clock()
    search_heuristic(KORF_GOAL)
    tables = clock() - t0
    times, rows, correct = [], [], True
    for item in items:
        t = clock()
        found = solve(item.frame, KORF_GOAL, Budget(should_stop=should_stop))
        seconds = clock() - t
        ok = found.status == "solved" and found.length == item.length
        correct = correct and ok
        times.append(seconds)
        rows.append(
            {
                "number": item.number,
                "published": item.length,
                "length": found.length,
                "seconds": round(seconds, 4),
                "nodes": found.nodes,
                "method": found.method,
            }
        )
    return workload_figures("korf100", times, correct, rows, tables)


#: Korf and Taylor's ten 24-puzzles with their optimal lengths, numbered and ordered as in
#: Korf and Felner, "Disjoint pattern database heuristics", AIJ 134 (2002), Table 4 (the first
#: ten of its fifty): the goal has the blank in the top left cell, tile ``t`` in cell ``t``.
KORF24 = (
    (1, 95, "14 5 9 2 18 8 23 19 12 17 15 0 10 20 4 6 11 21 1 7 24 3 16 22 13"),
    (2, 96, "16 5 1 12 6 24 17 9 2 22 4 10 13 18 19 20 0 23 7 21 15 11 8 3 14"),
    (3, 97, "6 0 24 14 8 5 21 19 9 17 16 20 10 13 2 15 11 22 1 3 7 23 4 18 12"),
    (4, 98, "18 14 0 9 8 3 7 19 2 15 5 12 1 13 24 23 4 21 10 20 16 22 11 6 17"),
    (5, 100, "17 1 20 9 16 2 22 19 14 5 15 21 0 3 24 23 18 13 12 7 10 8 6 4 11"),
    (6, 101, "2 0 10 19 1 4 16 3 15 20 22 9 6 18 5 13 12 21 8 17 23 11 24 7 14"),
    (7, 104, "21 22 15 9 24 12 16 23 2 8 5 18 17 7 10 14 13 4 0 6 20 11 3 1 19"),
    (8, 108, "7 13 11 22 12 20 1 18 21 5 0 8 14 24 19 9 4 17 16 10 23 15 3 2 6"),
    (9, 113, "3 2 17 0 14 18 22 19 15 20 9 7 10 21 16 6 24 23 8 5 1 4 11 12 13"),
    (10, 114, "23 14 0 24 17 9 20 21 2 18 10 13 22 1 3 11 4 16 6 5 7 12 8 15 19"),
)


def load_korf24() -> list[KorfInstance]:
    """Korf and Taylor's ten 24-puzzles (:data:`KORF24`), turned half round with their tiles
    renamed ``t -> 25 - t`` so that the goal is the numbered goal (tiles in reading order, the
    blank last) whose tables ``levelgen tables build 5x5`` builds: the same puzzles (every
    solution turned half round), so the same optimal lengths."""
    out = []
    for number, length, text in KORF24:
        cells = [int(v) for v in text.split()]
        turned = [0 if c == 0 else 25 - c for c in reversed(cells)]
        out.append(KorfInstance(number, length, Frame(5, 5, tuple(turned))))
    return out


def bench_korf24(
    numbers: Sequence[int] | None = None,
    *,
    limit: float = 600.0,
    clock: Clock = time.perf_counter,
) -> WorkloadFigures:
    """Solve Korf and Taylor's 24-puzzles (those of ``numbers``, 1..10; all by default) with a
    wall-clock limit of ``limit`` seconds each (the 5x5 tables are loaded or built first: that
    time is ``tables_seconds``); each row: ``number``, ``published``, ``status``, ``length``
    (solved), ``lower_bound``, ``seconds``, ``nodes``."""
    items = [i for i in load_korf24() if numbers is None or i.number in numbers]
    goal = Frame(5, 5, (*range(1, 25), 0))
    t0 = clock()
    search_heuristic(goal)
    tables = clock() - t0
    times, rows, correct = [], [], True
    for item in items:
        t = clock()
        deadline = t + limit
        found = solve(item.frame, goal, Budget(should_stop=_until(clock, deadline)))
        seconds = clock() - t
        solved = found.status == "solved"
        correct = correct and (not solved or found.length == item.length)
        times.append(seconds)
        rows.append(
            {
                "number": item.number,
                "published": item.length,
                "status": found.status,
                "length": found.length,
                "lower_bound": found.lower_bound,
                "seconds": round(seconds, 2),
                "nodes": found.nodes,
            }
        )
    return workload_figures("korf24", times, correct, rows, tables)


def bench_bounded(
    side: int = 8,
    count: int = 7,
    *,
    limit: float = 1.0,
    walk: int | None = None,
    clock: Clock = time.perf_counter,
) -> WorkloadFigures:
    """Bounded-suboptimal solving of ``count`` random ``side`` x ``side`` starts (seeds 0, 1,
    ...; with ``walk``, the ends of random walks of that many moves from the goal instead of
    random frames) with a wall-clock limit of ``limit`` seconds each: each row ``seed``, ``status``,
    ``solution`` (moves, None when none was found), ``lower_bound``, ``factor`` (solution over
    bound) and ``seconds``; ``all_correct`` when every start got a solution within 1.5 times
    its proved bound."""
    import random

    from .rules import reachability

    goal = Frame(side, side, (*range(1, side * side), 0))
    t0 = clock()
    search_heuristic(goal)
    tables = clock() - t0
    times, rows, correct = [], [], True
    for seed in range(count):
        cells = list(goal.cells)
        random.Random(seed).shuffle(cells)
        start = Frame(side, side, tuple(cells))
        if walk is not None:
            start, _ = random_walk(goal, walk, random.Random(seed))
        elif not reachability(start, goal).reachable:
            i, j = [k for k, v in enumerate(cells) if v][:2]
            cells[i], cells[j] = cells[j], cells[i]
            start = Frame(side, side, tuple(cells))
        t = clock()
        deadline = t + limit
        found = solve(start, goal, Budget(should_stop=_until(clock, deadline)))
        seconds = clock() - t
        factor = found.bound_factor if found.status == "unknown" else 1.0
        correct = correct and found.path is not None and (factor or 99) <= 1.5
        times.append(seconds)
        rows.append(
            {
                "seed": seed,
                "status": found.status,
                "solution": None if found.path is None else len(found.path),
                "lower_bound": found.lower_bound,
                "factor": factor,
                "seconds": round(seconds, 3),
            }
        )
    name = f"bounded-{side}x{side}" + ("" if walk is None else f"-walk-{walk}")
    return workload_figures(name, times, correct, rows, tables)


def _until(clock: Clock, deadline: float) -> Callable[[], bool]:
    return lambda: clock() >= deadline


def _create_rows(
    name: str, requests: Sequence[dict[str, Any]], clock: Clock, warm: dict[str, Any] | None
) -> WorkloadFigures:
    tables = 0.0
    if warm is not None:
        t0 = clock()
        create_level(parse_spec(warm), 0)
        tables = clock() - t0
    times, rows, correct = [], [], True
    for i, values in enumerate(requests):
        spec = parse_spec({k: v for k, v in values.items() if k != "seed"})
        t = clock()
        level = create_level(spec, int(values["seed"]))
        seconds = clock() - t
        assert level.metrics is not None
        ok = spec.moves is None or level.metrics.optimal_length == spec.moves
        correct = correct and ok
        times.append(seconds)
        rows.append(
            {
                "index": i,
                **{k: v for k, v in values.items() if k != "goal"},
                "optimal_length": level.metrics.optimal_length,
                "band": level.metrics.band,
                "seconds": round(seconds, 4),
            }
        )
    return workload_figures(name, times, correct, rows, tables)


def bench_numbered(
    count: int = 30, *, low: int = 40, high: int = 50, clock: Clock = time.perf_counter
) -> WorkloadFigures:
    """Create ``count`` 4x4 numbered levels at exact optimal lengths spread over
    ``low..high`` (seeds 0, 1, ...)."""
    requests = [
        {"size": "4x4", "moves": low + i % (high - low + 1), "seed": i} for i in range(count)
    ]
    return _create_rows("numbered-4x4", requests, clock, {"size": "4x4", "moves": 10})


def bench_colour(count: int = 200, *, clock: Clock = time.perf_counter) -> WorkloadFigures:
    """Create ``count`` 4x4 colour levels, 2 and 3 colours in turn, the four bands in turn
    (seeds 0, 1, ...)."""
    requests = [
        {"size": "4x4", "colors": 2 + i % 2, "difficulty": BANDS[(i // 2) % 4], "seed": i}
        for i in range(count)
    ]
    return _create_rows("colour-4x4", requests, clock, None)


def bench_small(count: int = 200, *, clock: Clock = time.perf_counter) -> WorkloadFigures:
    """Create ``count`` 3x3 levels: numbered, 2 colours and 3 colours in turn, the four bands
    in turn (seeds 0, 1, ...)."""
    requests = []
    for i in range(count):
        values: dict[str, Any] = {"size": "3x3", "difficulty": BANDS[(i // 3) % 4], "seed": i}
        if i % 3:
            values["colors"] = 1 + i % 3
        requests.append(values)
    return _create_rows("levels-3x3", requests, clock, {"size": "3x3", "moves": 5})


def run_all(*, clock: Clock = time.perf_counter) -> dict[str, WorkloadFigures]:
    """Every workload with its default size, by name (with those of
    :mod:`levelgen.sliding.bench_lengths`)."""
    from .bench_lengths import run_lengths

    return {
        "korf100": bench_korf(clock=clock),
        "numbered-4x4": bench_numbered(clock=clock),
        "colour-4x4": bench_colour(clock=clock),
        "levels-3x3": bench_small(clock=clock),
        **run_lengths(clock=clock),
    }
