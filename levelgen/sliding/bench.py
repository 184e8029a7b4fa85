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
from .generate import create_level
from .rules import Frame
from .solver import search_heuristic, solve
from .spec import BANDS, parse_spec

__all__ = [
    "KorfInstance",
    "WorkloadFigures",
    "bench_colour",
    "bench_korf",
    "bench_numbered",
    "bench_small",
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


def _figures(
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
    return _figures("korf100", times, correct, rows, tables)


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
    return _figures(name, times, correct, rows, tables)


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
