"""The family's benchmarks: the workloads of the issue, each a function that returns its figures
(``levelgen bench ladders`` prints them).

- :func:`chutes_and_ladders`: the Milton Bradley board analysed; its exact expected length
  against the fraction published by Althoen, King and Schilling, "How long is a game of
  Snakes and Ladders?", The Mathematical Gazette 77(478), 1993, pp. 71-76, and its fewest
  rolls (7).
- :func:`analysis_seconds`: the median time of the whole exact analysis (chain, traps, exact
  expectations, distribution, player games) of seeded random boards of one size.
- :func:`generation_rate`: boards per second made by ``create`` into an expected-length
  window (each with its analysis, verified), in one process or several.
- :func:`run_all`: all of them with the issue's settings, as one JSON-ready mapping.

Unlike the rest of the family these functions read the clock: that is what they are for.
Each reports wall-clock seconds and, beside them, the CPU seconds of this process
(``time.process_time``), the fairer figure on a machine that other work shares.
"""

from __future__ import annotations

import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from fractions import Fraction
from typing import Any

from .analysis import Unsolvable, analyse
from .files import Level
from .generate import Layout, Placer, initial_layout
from .rules import Board, Rules
from .spec import parse_spec

__all__ = [
    "CHUTES_AND_LADDERS",
    "PUBLISHED_EXPECTED",
    "analysis_seconds",
    "chutes_and_ladders",
    "generation_rate",
    "random_board",
    "run_all",
]

#: The Milton Bradley Chutes and Ladders board (ladders, then chutes), as Althoen, King and
#: Schilling analysed it (the chute from 47 to 26; some printings start it on 48).
CHUTES_AND_LADDERS = Board(
    10,
    10,
    ((1, 38), (4, 14), (9, 31), (21, 42), (28, 84), (36, 44), (51, 67), (71, 91), (80, 100)),
    (
        (16, 6),
        (47, 26),
        (49, 11),
        (56, 53),
        (62, 19),
        (64, 60),
        (87, 24),
        (93, 73),
        (95, 75),
        (98, 78),
    ),
)

#: The expected number of moves of a one-player game on that board, as published (1993).
PUBLISHED_EXPECTED = Fraction(
    225837582538403273407117496273279920181931269186581786048583,
    5757472998140039232950575874628786131130999406013041613400,
)


def chutes_and_ladders() -> dict[str, Any]:
    """The Chutes and Ladders figures: the exact expected rolls computed and published, whether
    they are the same fraction, and the fewest rolls."""
    found = analyse(CHUTES_AND_LADDERS, Rules())
    assert not isinstance(found, Unsolvable)
    numerator, _, denominator = found.expected_rolls.fraction.partition("/")
    computed = Fraction(int(numerator), int(denominator))
    return {
        "expected_rolls": found.expected_rolls.fraction,
        "expected_value": found.expected_rolls.value,
        "published": f"{PUBLISHED_EXPECTED.numerator}/{PUBLISHED_EXPECTED.denominator}",
        "same_fraction": computed == PUBLISHED_EXPECTED,
        "fewest_rolls": found.fewest_rolls,
        "fewest_sequence": found.fewest_sequence,
    }


def random_board(
    size: str, seed: int, snakes: int | None = None, ladders: int | None = None
) -> Board:
    """A seeded board of ``size`` with ``snakes`` and ``ladders`` (default: the create
    defaults), placed by the generator's design rules but not steered (its game may be of
    any length)."""
    spec = parse_spec({"size": size, "snakes": snakes, "ladders": ladders, "expected": ":"})
    placer = Placer(spec)
    rng = random.Random(seed)
    while True:
        layout: Layout | None = initial_layout(rng, spec, placer)
        if layout is not None:
            board = layout.board(spec.width, spec.height)
            if not isinstance(analyse(board, Rules()), Unsolvable):
                return board


def analysis_seconds(
    size: str,
    *,
    boards: int = 5,
    repeats: int = 3,
    snakes: int | None = None,
    ladders: int | None = None,
) -> dict[str, Any]:
    """The median time of :func:`levelgen.ladders.analysis.analyse` over ``boards`` seeded
    random boards of ``size`` (with ``snakes`` and ``ladders``, default the create
    defaults), each analysed ``repeats`` times."""
    times: list[float] = []
    cpu: list[float] = []
    expected: list[float] = []
    for seed in range(boards):
        board = random_board(size, seed, snakes, ladders)
        for _ in range(repeats):
            start, start_cpu = time.perf_counter(), time.process_time()
            found = analyse(board, Rules())
            times.append(time.perf_counter() - start)
            cpu.append(time.process_time() - start_cpu)
        assert not isinstance(found, Unsolvable)
        expected.append(found.expected_rolls.value)
    return {
        "size": size,
        "snakes": snakes,
        "ladders": ladders,
        "boards": boards,
        "median_seconds": statistics.median(times),
        "max_seconds": max(times),
        "median_cpu_seconds": statistics.median(cpu),
        "expected_rolls": [round(e, 3) for e in expected],
    }


def _create(args: tuple[dict[str, Any], int]) -> Level:
    from . import FAMILY

    values, seed = args
    created: Level = FAMILY.create(FAMILY.parse_spec(values), seed)
    return created


def generation_rate(
    *, window: str = "30:35", size: str = "10x10", count: int = 100, workers: int = 1
) -> dict[str, Any]:
    """Boards per second made by ``create`` with ``expected`` = ``window`` for seeds
    ``0..count-1`` (``workers`` processes; one: this process)."""
    values = {"size": size, "expected": window}
    jobs = [(values, seed) for seed in range(count)]
    start, start_cpu = time.perf_counter(), time.process_time()
    if workers <= 1:
        levels = [_create(job) for job in jobs]
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            levels = list(pool.map(_create, jobs, chunksize=max(1, count // (4 * workers))))
    seconds = time.perf_counter() - start
    cpu = time.process_time() - start_cpu
    values_found = [lv.analysis.expected_rolls.value for lv in levels if lv.analysis is not None]
    return {
        "size": size,
        "window": window,
        "boards": len(levels),
        "workers": workers,
        "seconds": seconds,
        "boards_per_second": len(levels) / seconds,
        "boards_per_cpu_second": len(levels) / cpu if workers <= 1 and cpu > 0 else None,
        "expected_min": min(values_found),
        "expected_max": max(values_found),
    }


def run_all(*, workers: int = 2) -> dict[str, Any]:
    """Every workload of the issue: Chutes and Ladders, the 10x10 and 20x20 analysis medians
    (and a long 20x20 game: 40 snakes, 10 ladders), and 10x10 generation into the window 30:35
    in one process and in ``workers``."""
    return {
        "chutes_and_ladders": chutes_and_ladders(),
        "analysis_10x10": analysis_seconds("10x10", boards=5, repeats=5),
        "analysis_20x20": analysis_seconds("20x20", boards=5, repeats=3),
        "analysis_20x20_long": analysis_seconds(
            "20x20", boards=3, repeats=3, snakes=40, ladders=10
        ),
        "generation_10x10": generation_rate(count=200),
        "generation_10x10_workers": generation_rate(count=200, workers=workers),
    }
