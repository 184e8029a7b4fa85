"""``levelgen bench create --difficulty``: steering by band, the band calibration, the levers.

See :mod:`levelgen.linkup.bench.create` for what each report means.  Timing is read here, at the
edge; the levels themselves are deterministic.
"""

from __future__ import annotations

import json
import random
import statistics
import time
from typing import Any

import typer

from .. import (
    BANDS,
    RUNGS,
    SLOT,
    Board,
    GenerationError,
    Rules,
    Size,
    Target,
    apply_density,
    measure_difficulty,
    parse_size,
    playout_win_rate,
    score_of,
    steered_generate,
)
from .. import (
    generate_level as generate,
)

__all__ = ["calibration_population", "run_difficulty_bench", "steering_report"]

#: Play-outs of the held-out random player (seeds the score never used).
HELD_OUT_PLAYOUTS = 16
HELD_OUT_SEED = 10**9 + 7


def steering_report(size: Size, outside: bool, band: str, levels: int) -> dict[str, Any]:
    """Steer ``levels`` levels (seeds 0..N-1) of ``size`` to ``band``: rate, share in band,
    median seconds, mean held-out random and greedy win rates."""
    rules = Rules(2, outside)
    times, inside, random_rates, greedy_rates, scores = [], 0, [], [], []
    for seed in range(levels):
        start = time.perf_counter()
        result = steered_generate(size, Target(band), seed=seed, rules=rules)  # type: ignore[arg-type]
        times.append(time.perf_counter() - start)
        level = result.level
        assert level.metrics is not None and level.metrics.difficulty is not None
        measures = level.metrics.difficulty.measures
        inside += result.in_band
        scores.append(level.metrics.difficulty.score)
        greedy_rates.append(measures["greedy_win_rate"])
        random_rates.append(
            playout_win_rate(level.board, rules, seed=HELD_OUT_SEED, playouts=HELD_OUT_PLAYOUTS)
        )
    return {
        "size": str(size),
        "outside": outside,
        "band": band,
        "levels": levels,
        "levels_per_s": round(levels / sum(times), 2),
        "median_s": round(statistics.median(times), 3),
        "in_band": round(inside / levels, 3),
        "mean_score": round(statistics.mean(scores), 1),
        "random_win_rate": round(statistics.mean(random_rates), 3),
        "greedy_win_rate": round(statistics.mean(greedy_rates), 3),
    }


def calibration_population(seeds: int = 4) -> list[dict[str, Any]]:
    """Measures of every ladder rung on full 8x6, 12x8 and 18x10 boards, ring on and off."""
    rows: list[dict[str, Any]] = []
    for outside in (True, False):
        for width, height in ((8, 6), (12, 8), (18, 10)):
            for i, rung in enumerate(RUNGS):
                for seed in range(seeds):
                    s = 1000 * i + seed
                    base = Board(width, height, (SLOT,) * (width * height))
                    template = apply_density(base, rung.density, random.Random(s))
                    try:
                        level = generate(
                            Size(width, height),
                            copies=rung.copies,
                            rules=Rules(2, outside),
                            layout=template,
                            seed=s,
                        )
                    except GenerationError:
                        continue
                    assert level.solution is not None
                    diff = measure_difficulty(level.board, level.rules, level.solution, seed=s)
                    rows.append(
                        {"size": f"{width}x{height}", "outside": outside, "rung": i}
                        | diff.measures
                        | {"score": diff.score}
                    )
    return rows


def _levers(levels: int) -> list[dict[str, Any]]:
    """Random deal against CP-SAT kind shaping (easy / hard) on the same removal orders."""
    from .. import deal, random_removal_order, shape_kinds

    out = []
    template = Board(12, 8, (SLOT,) * 96)
    rules = Rules()
    for mode in ("random", "easy", "hard"):
        scores, rates, times = [], [], []
        for seed in range(levels):
            rng = random.Random(seed)
            order = random_removal_order(template, rules, rng, max_attempts=200)
            assert order is not None
            start = time.perf_counter()
            if mode == "random":
                kinds = [1 + i // 2 for i in range(len(order))]
                rng.shuffle(kinds)
                board, moves = deal(template, rules, order, kinds)
            else:
                shaped = shape_kinds(template, rules, order, target=mode, seed=seed)  # type: ignore[arg-type]
                board, moves = shaped.board, shaped.moves
            times.append(time.perf_counter() - start)
            scores.append(measure_difficulty(board, rules, moves, seed=seed).score)
            rates.append(playout_win_rate(board, rules, seed=HELD_OUT_SEED, playouts=16))
        out.append(
            {
                "kinds": mode,
                "mean_score": round(statistics.mean(scores), 1),
                "random_win_rate": round(statistics.mean(rates), 3),
                "median_s": round(statistics.median(times), 3),
            }
        )
    return out


def run_difficulty_bench(
    sizes: str, levels: int, calibrate: bool, levers: bool, as_json: bool
) -> None:
    """The command body (see :mod:`levelgen.linkup.bench.create`)."""
    if calibrate:
        rows = calibration_population()
        scores = sorted(score_of(r) for r in rows)
        n = len(scores)
        quartiles = [scores[int(n * q)] for q in (0.25, 0.5, 0.75)]
        per_rung = {
            f"{i} {rung}": round(statistics.mean(r["score"] for r in rows if r["rung"] == i), 1)
            for i, rung in enumerate(RUNGS)
        }
        report: dict[str, Any] = {
            "levels": n,
            "quartiles": quartiles,
            "mean_score_by_rung": per_rung,
        }
        typer.echo(json.dumps(report, indent=2))
        return
    if levers:
        typer.echo(json.dumps(_levers(levels), indent=2))
        return
    try:
        chosen = [parse_size(s) for s in sizes.split(",") if s.strip()]
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--sizes") from None
    rows = []
    for size in chosen:
        for outside in (True, False):
            for band in BANDS:
                row = steering_report(size, outside, band, levels)
                rows.append(row)
                if not as_json:
                    ring = "ring" if outside else "no ring"
                    typer.echo(
                        f"{row['size']:>6} {ring:<7} {band:<6}: {row['levels_per_s']:6.2f}"
                        f" levels/s, median {row['median_s']:.2f} s, in band"
                        f" {100 * row['in_band']:5.1f}%, mean score {row['mean_score']:5.1f},"
                        f" random wins {row['random_win_rate']:.2f},"
                        f" greedy wins {row['greedy_win_rate']:.2f}"
                    )
    if as_json:
        typer.echo(json.dumps(rows, indent=2))
