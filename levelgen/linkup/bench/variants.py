"""``levelgen bench create --slide DIR`` / ``--layers N``: the variants' generator and solver.

*Speed*: the time to generate ``count`` levels from fixed seeds (generation on identities,
exact best paths, metrics and the replay that :func:`levelgen.linkup.generate.generator.generate`
runs before returning), median over ``repeats`` runs, next to the issue's targets: 12x8 ``down`` at
least 100 levels/s, 16x9 with three (pyramid) layers at least 20 levels/s.

*Soundness*: ``seeds`` levels are generated and each replayed again here, independently, by
:func:`levelgen.linkup.verify.replay` (which dispatches to the variant replay).

*Solver* (sliding only): ``solve_boards`` random full 8x6 boards per direction (12 kinds of 4
tiles, shuffled from fixed seeds; the ring on for even board numbers, off for odd ones: with
the ring nearly every board is solvable, without it many are not and need a proof), each given
``time_limit`` seconds of the search; the share decided and the median time.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from ...puzzles import Budget
from .. import (
    SLIDE_DIRECTIONS,
    Board,
    GenerationError,
    Rules,
    Size,
    SolveStatus,
    pyramid_layout,
    replay,
    solve,
)
from .. import (
    generate_level as generate,
)
from .common import median_rate

__all__ = ["TARGETS", "run_variant_bench", "solver_sweep"]

#: Levels per second asked by issue 20.
TARGETS = {("12x8", "down", 1): 100.0, ("16x9", "none", 3): 20.0}


def _plan(size: Size, slide: str, layers: int) -> tuple[Rules, Board | None]:
    return Rules(slide=slide), (
        pyramid_layout(size.width, size.height, layers) if layers > 1 else None
    )


def speed(size: Size, slide: str, layers: int, count: int, repeats: int) -> float:
    rules, layout = _plan(size, slide, layers)

    def run() -> None:
        for seed in range(count):
            generate(size, seed=seed, rules=rules, layout=layout)

    return median_rate(count, run, repeats)


def soundness(size: Size, slide: str, layers: int, seeds: int) -> dict[str, Any]:
    rules, layout = _plan(size, slide, layers)
    failures: list[dict[str, Any]] = []
    count = 0
    for seed in range(seeds):
        reason = None
        try:
            level = generate(size, seed=seed, rules=rules, layout=layout)
            problems = replay(level.board, level.rules, level.solution or ())
            if problems or not level.solution:
                reason = f"unreplayable: {problems[0] if problems else 'no solution'}"
        except GenerationError as exc:
            reason = f"no level: {exc}"
        except Exception as exc:  # a bug: count it and go on
            reason = f"{type(exc).__name__}: {exc}"
        if reason is not None:
            count += 1
            if len(failures) < 10:
                failures.append({"seed": seed, "reason": reason})
    return {"seeds": seeds, "failures": count, "first_failures": failures}


def solver_sweep(directions: list[str], boards: int, time_limit: float) -> dict[str, Any]:
    """Random full 8x6 boards (12 kinds x 4) per direction, ring on and off in turn, each with
    ``time_limit`` seconds."""
    per: dict[str, dict[str, Any]] = {}
    times: list[float] = []
    decided = total = 0
    for d_index, direction in enumerate(directions):
        counts = {"solved": 0, "unsolvable": 0, "unknown": 0}
        for n in range(boards):
            rng = random.Random(8006 * 1000 + 100 * d_index + n)
            cells = [k for k in range(1, 13) for _ in range(4)]
            rng.shuffle(cells)
            start = time.monotonic()
            result = solve(
                Board(8, 6, tuple(cells)),
                Rules(outside=n % 2 == 0, slide=direction),
                method="search",
                budget=Budget(should_stop=_deadline(start + time_limit)),
            )
            times.append(time.monotonic() - start)
            counts[result.status.value] += 1
            total += 1
            decided += result.status is not SolveStatus.UNKNOWN
        per[direction] = counts
    return {
        "boards": total,
        "decided": decided,
        "share": round(decided / total, 4) if total else 0.0,
        "median_s": round(statistics.median(times), 4) if times else 0.0,
        "max_s": round(max(times), 3) if times else 0.0,
        "by_direction": per,
    }


def run_variant_bench(
    sizes: list[Size],
    slide: str,
    layers: int,
    count: int,
    repeats: int,
    seeds: int,
    solve_boards: int,
    time_limit: float,
) -> tuple[dict[str, Any], list[str]]:
    """The report and its text lines (see the module docstring); ``slide`` may be ``all``."""
    directions = list(SLIDE_DIRECTIONS) if slide == "all" else [slide]
    if layers > 1:
        directions = ["none"]
    report: dict[str, Any] = {"speed": {}, "sweep": {}}
    lines: list[str] = []
    for size in sizes:
        n = max(5, count * 96 // (size.cells * max(layers, 1)))
        # The classic generator on the same size in the same minute: this machine is shared
        # and its speed swings, so the ratio says more than the rate.
        classic = speed(size, "none", 1, max(5, count * 96 // size.cells), repeats)
        report["speed"][f"{size} classic"] = {"levels_per_s": round(classic, 1)}
        lines.append(f"{size} classic (for scale): {classic:7.1f} levels/s")
        for direction in directions:
            rate = speed(size, direction, layers, n, repeats)
            target = TARGETS.get((str(size), direction, layers))
            key = f"{size} slide {direction} layers {layers}"
            report["speed"][key] = {"levels_per_s": round(rate, 1), "target": target}
            goal = "" if target is None else f" (target >= {target:g}: "
            goal += "" if target is None else ("met)" if rate >= target else "NOT met)")
            lines.append(
                f"{key}: {rate:7.1f} levels/s, median of {repeats} runs of {n}{goal};"
                f" {rate / classic:.2f}x the classic rate"
            )
            if seeds:
                sweep = soundness(size, direction, layers, seeds)
                report["sweep"][key] = sweep
                lines.append(
                    f"  soundness: {sweep['failures']} failures over {seeds} seeds (each replayed)"
                )
                lines += [f"    seed {f['seed']}: {f['reason']}" for f in sweep["first_failures"]]
    if solve_boards and layers <= 1:
        sweep = solver_sweep([d for d in directions if d != "none"], solve_boards, time_limit)
        report["solver"] = sweep
        lines.append(
            f"solver: {sweep['decided']}/{sweep['boards']} random 8x6 boards decided"
            f" ({100 * sweep['share']:.1f}%, target >= 95%) within {time_limit:g} s each;"
            f" median {sweep['median_s']:.3f} s, max {sweep['max_s']:.2f} s"
        )
        for direction, counts in sweep["by_direction"].items():
            lines.append(
                f"  {direction:>10}: {counts['solved']} solvable, {counts['unsolvable']}"
                f" unsolvable, {counts['unknown']} undecided"
            )
    return report, lines


def _deadline(at: float) -> Callable[[], bool]:
    def stop() -> bool:
        return time.monotonic() > at

    return stop
