"""``levelgen bench create``: speed and soundness of the generator, in process, on one core.

*Speed*: for each size (12x8 and 24x14 by default, full boards, default rules, 4 copies), the
time to generate ``--count`` levels from fixed seeds, each with its exact best paths, metrics
and the replay that :func:`levelgen.linkup.generate.generator.generate` runs before returning;
reported as the median rate over ``--repeats`` runs next to the target.

*Difficulty* (``--difficulty``): for each size of ``--sizes`` (default 12x8 and 18x10), ring
on and off, and each band, ``--levels`` levels steered to the band (seeds ``0 .. N-1``): levels
per second, the share landing in the band, the median seconds per level, and the mean win
rates of the random player (the check independent of the score, here on seeds the score never
used) and of the greedy player.  ``--calibrate`` instead measures the reference population the
band edges come from (every rung of the ladder, 4 seeds) and prints its quartiles and the mean
score per rung, which is what says which lever matters; ``--levers`` compares kind shaping
(:func:`levelgen.linkup.generate.shaping.shape_kinds`, easy and hard) with a random deal on full
12x8 boards.

*Soundness*: ``--seeds`` levels (seeds ``0 .. N-1``, ``--sweep-size``) are generated and each
is replayed again here, independently, by :func:`levelgen.linkup.verify.replay`, its kind counts
checked against :func:`levelgen.linkup.generate.generator.kind_tile_counts`.  Every failure is
counted: a ``GenerationError`` (no level), an exception, a replay problem or wrong kind counts.  The
command exits with status 1 when any level failed.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer

from .. import (
    SYMMETRIES,
    GenerationError,
    Rules,
    Size,
    is_symmetric,
    kind_tile_counts,
    parse_size,
    replay,
)
from .. import generate_level as generate
from .common import median_rate

__all__ = ["TARGETS", "register", "soundness_sweep", "speed"]

#: Levels per second asked of the generator, by size.
TARGETS = {"12x8": 200.0, "24x14": 20.0}


def speed(size: Size, count: int, repeats: int, symmetry: str | None = None) -> float:
    """Median over ``repeats`` runs of levels per second generating ``count`` levels of
    ``size`` from seeds ``0 .. count - 1`` (with ``symmetry``: symmetric levels)."""

    def run() -> None:
        for seed in range(count):
            generate(size, seed=seed, symmetry=symmetry)

    return median_rate(count, run, repeats)


def soundness_sweep(
    size: Size, seeds: int, rules: Rules, symmetry: str | None = None
) -> dict[str, Any]:
    """Generate levels of ``size`` for seeds ``0 .. seeds - 1`` and replay each independently;
    the count of failures and the first few, each with its seed and reason.  With
    ``symmetry``, symmetric levels, each layout checked to have it."""
    failures: list[dict[str, Any]] = []
    count = 0
    for seed in range(seeds):
        reason = _check_one(size, seed, rules, symmetry)
        if reason is not None:
            count += 1
            if len(failures) < 10:
                failures.append({"seed": seed, "reason": reason})
    return {"size": str(size), "seeds": seeds, "failures": count, "first_failures": failures}


def _check_one(size: Size, seed: int, rules: Rules, symmetry: str | None = None) -> str | None:
    try:
        level = generate(size, seed=seed, rules=rules, symmetry=symmetry)
    except GenerationError as exc:
        return f"unsolvable request: {exc}"
    except Exception as exc:  # a bug: count it and go on sweeping
        return f"{type(exc).__name__}: {exc}"
    if level.solution is None:
        return "the level carries no solution"
    problems = replay(level.board, level.rules, level.solution)
    if problems:
        return f"unreplayable: {problems[0]}"
    counts = sorted(level.board.kind_counts().values(), reverse=True)
    if counts != kind_tile_counts(level.board.tile_count()):
        return f"kind counts {counts} break the copies rule"
    if symmetry is not None and not is_symmetric(level.board, symmetry):
        return f"the layout is not {symmetry}-symmetric"
    return None


def register(app: typer.Typer) -> None:
    """Add ``create`` to the bench app."""

    @app.command("create")
    def bench_create(
        sizes: Annotated[
            str, typer.Option(help="Comma-separated sizes timed, e.g. 12x8,24x14.")
        ] = "12x8,24x14",
        count: Annotated[
            int,
            typer.Option(
                min=1, help="Levels per timed run at 12x8; scaled down by cell count (min 5)."
            ),
        ] = 100,
        repeats: Annotated[int, typer.Option(min=1, help="Timed runs per size (median).")] = 5,
        seeds: Annotated[
            int, typer.Option(min=0, help="Levels in the soundness sweep (0 to skip it).")
        ] = 10_000,
        sweep_size: Annotated[str, typer.Option(help="Board size of the sweep.")] = "12x8",
        as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
        difficulty: Annotated[
            bool, typer.Option("--difficulty", help="Benchmark create --difficulty instead.")
        ] = False,
        levels: Annotated[
            int, typer.Option(min=1, help="With --difficulty: levels per size, ring and band.")
        ] = 10,
        calibrate: Annotated[
            bool, typer.Option("--calibrate", help="With --difficulty: the band calibration.")
        ] = False,
        levers: Annotated[
            bool, typer.Option("--levers", help="With --difficulty: kind shaping as a lever.")
        ] = False,
        slide: Annotated[
            str | None, typer.Option(help="Variant: a sliding rule, or 'all' (default sizes 12x8).")
        ] = None,
        layers: Annotated[
            int | None, typer.Option(help="Variant: pyramid layers (default size 16x9).")
        ] = None,
        solve_boards: Annotated[
            int, typer.Option(min=0, help="With --slide: random 8x6 boards per direction solved.")
        ] = 10,
        symmetry: Annotated[
            str | None,
            typer.Option(help="Symmetric levels (create --symmetry): mirror, rotate or both."),
        ] = None,
    ) -> None:
        """Levels per second of `levelgen create`'s core (generation, exact paths, metrics,
        replay) at 12x8 and 24x14, and a soundness sweep replaying every generated level.
        With --difficulty: levels/s, share in band and both players' win rates per band.
        With --slide or --layers: the same for that variant, and the variant solver.
        With --symmetry: speed and sweep of symmetric levels (each layout checked)."""
        if symmetry is not None and symmetry not in SYMMETRIES:
            raise typer.BadParameter(
                f"{symmetry!r} is not one of {', '.join(SYMMETRIES)}", param_hint="--symmetry"
            )
        if difficulty:
            from .create_difficulty import run_difficulty_bench

            chosen = sizes if sizes != "12x8,24x14" else "12x8,18x10"
            run_difficulty_bench(chosen, levels, calibrate, levers, as_json)
            return
        if slide is not None or layers is not None:
            _variants(sizes, slide, layers, count, repeats, seeds, solve_boards, as_json)
            return
        timed: list[Size] = []
        for text in sizes.split(","):
            if text.strip():
                try:
                    timed.append(parse_size(text))
                except ValueError as exc:
                    raise typer.BadParameter(str(exc), param_hint="--sizes") from None
        try:
            swept = parse_size(sweep_size)
        except ValueError as exc:
            raise typer.BadParameter(str(exc), param_hint="--sweep-size") from None
        report: dict[str, Any] = {"speed": {}}
        for size in timed:
            # Larger boards take longer per level: scale the run so each lasts about as long.
            n = max(5, count * 96 // size.cells)
            rate = speed(size, n, repeats, symmetry)
            target = TARGETS.get(str(size))
            report["speed"][str(size)] = {
                "levels_per_s": round(rate, 1),
                "levels_per_run": n,
                "repeats": repeats,
                "target": target,
            }
            if not as_json:
                goal = "" if target is None else f" (target >= {target:g}: "
                goal += "" if target is None else ("met)" if rate >= target else "NOT met)")
                typer.echo(
                    f"{size!s:>6}: {rate:8.1f} levels/s, median of {repeats} runs of {n}{goal}"
                )
        if seeds:
            sweep = soundness_sweep(swept, seeds, Rules(), symmetry)
            report["sweep"] = sweep
            if not as_json:
                typer.echo(
                    f"soundness: {sweep['failures']} unsolvable or unreplayable levels over"
                    f" {seeds:,} seeds ({swept}, default rules"
                    + (f", {symmetry}" if symmetry else "")
                    + ", each replayed independently)"
                )
                for failure in sweep["first_failures"]:
                    typer.echo(f"  seed {failure['seed']}: {failure['reason']}")
        if as_json:
            typer.echo(json.dumps(report, indent=2))
        if seeds and report["sweep"]["failures"]:
            raise typer.Exit(1)


def _variants(
    sizes: str,
    slide: str | None,
    layers: int | None,
    count: int,
    repeats: int,
    seeds: int,
    solve_boards: int,
    as_json: bool,
) -> None:
    """``bench create --slide/--layers``: see :mod:`levelgen.linkup.bench.variants`."""
    from .. import SLIDES
    from .variants import run_variant_bench

    if slide is not None and slide != "all" and slide not in SLIDES:
        raise typer.BadParameter(f"{slide!r} is not a sliding rule or 'all'", param_hint="--slide")
    if layers is not None and not 1 <= layers <= 8:
        raise typer.BadParameter(f"{layers} is not in 1..8", param_hint="--layers")
    if sizes == "12x8,24x14":  # the classic default: the variant sizes instead
        sizes = "16x9" if layers and layers > 1 else "12x8"
    try:
        timed = [parse_size(t) for t in sizes.split(",") if t.strip()]
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--sizes") from None
    report, lines = run_variant_bench(
        timed, slide or "none", layers or 1, count, repeats, min(seeds, 1000), solve_boards, 10.0
    )
    typer.echo(json.dumps(report, indent=2) if as_json else "\n".join(lines))
    if any(s["failures"] for s in report["sweep"].values()):
        raise typer.Exit(1)
