"""``levelgen bench sliding``: the sliding-puzzle workloads (:mod:`.bench`), printed as
medians and rates next to their targets, or as JSON."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer

__all__ = ["register"]

JsonOption = Annotated[bool, typer.Option("--json", help="Print the figures as JSON.")]


def _met(ok: bool) -> str:
    return "met" if ok else "NOT met"


def sliding(
    json_output: JsonOption = False,
    korf24: Annotated[
        str | None,
        typer.Option(
            help="Instead: Korf and Taylor's 24-puzzles of these numbers (1-10, e.g. 1 or"
            " 1,2,3 or all), each with --limit; the 5x5 tables are built first if not cached.",
            metavar="NUMBERS",
        ),
    ] = None,
    bounded: Annotated[
        bool,
        typer.Option(
            "--bounded",
            help="Instead: 7 random 8x8 starts (see --side, --walk) solved within --limit each"
            " (target: a solution within 1.5x of the proved bound in 1 s).",
        ),
    ] = False,
    side: Annotated[
        int,
        typer.Option(
            "--side", min=6, max=8, metavar="SIDE", help="With --bounded: the board's side."
        ),
    ] = 8,
    walk: Annotated[
        int | None,
        typer.Option(
            min=1,
            help="With --bounded: start at the end of a random walk of this many moves from"
            " the goal instead of a random frame.",
            metavar="MOVES",
        ),
    ] = None,
    limit: Annotated[
        float | None,
        typer.Option(
            min=0.01, help="Seconds per puzzle (default 600 for --korf24, 1 for --bounded)."
        ),
    ] = None,
) -> None:
    """Sliding puzzles: Korf's 100 random 15-puzzles solved optimally (targets: every one at
    its published length, median at most 1 s, none over 60 s); 30 4x4 numbered levels at an
    exact optimal length of 40-50 (median at most 2 s); 200 4x4 colour levels of 2-3 colours
    (at least 20 levels/s); 200 3x3 levels (milliseconds each); a 3x3 level at every length
    1..31; 3x4 and 4x3 levels at their largest distance (the whole-space table's build or read
    time and size); 4x4 levels at 60, 66 and 72 moves, ten each (median at most 10 s).  The
    tables are built first if they are not cached (their time is reported apart).  --korf24 and
    --bounded run a long workload instead: Korf and Taylor's 24-puzzles, or 8x8 starts solved
    within a proved factor."""
    if korf24 is not None or bounded:
        _sliding_long(korf24, limit, json_output, side=side, walk=walk)
        return
    from .bench import run_all as run_benchmarks

    figures = {name: found.as_dict() for name, found in run_benchmarks().items()}
    if json_output:
        for each in figures.values():
            each.pop("rows", None)
        typer.echo(json.dumps(figures, indent=2))
        return
    korf, numbered = figures["korf100"], figures["numbered-4x4"]
    colour, small = figures["colour-4x4"], figures["levels-3x3"]
    korf_ok = korf["all_correct"] and korf["median_seconds"] <= 1 and korf["max_seconds"] <= 60
    typer.echo(
        f"Korf's 100: {korf['count']} solved, all at their published lengths:"
        f" {korf['all_correct']}; median {korf['median_seconds']:.3f} s, max"
        f" {korf['max_seconds']:.2f} s (targets 1 s and 60 s: {_met(korf_ok)})"
    )
    typer.echo(
        f"4x4 numbered at 40-50 moves: median {numbered['median_seconds']:.3f} s a level, max"
        f" {numbered['max_seconds']:.2f} s (target 2 s: {_met(numbered['median_seconds'] <= 2)})"
    )
    typer.echo(
        f"4x4 colour, 2-3 colours: {colour['per_second']:.1f} levels/s (target 20:"
        f" {_met(colour['per_second'] >= 20)})"
    )
    typer.echo(
        f"3x3: median {small['median_seconds'] * 1000:.2f} ms, max"
        f" {small['max_seconds'] * 1000:.1f} ms a level"
    )
    _lengths(figures)
    tables = sum(float(each["tables_seconds"]) for each in figures.values())
    if tables:
        typer.echo(f"tables read or built first: {tables:.1f} s (cached afterwards)")


def _lengths(figures: dict[str, Any]) -> None:
    """The lines of :mod:`.bench_lengths`' workloads."""
    every, largest, long = figures["every-length-3x3"], figures["largest-3x4"], figures["long-4x4"]
    times = ", ".join(f"{r['moves']}: {r['seconds']:.3f}" for r in every["rows"])
    typer.echo(
        f"3x3 a level at each of 1..{every['count']} moves (all exact: {every['all_correct']});"
        f" seconds: {times}"
    )
    for row in largest["rows"]:
        level_times = ", ".join(f"{t:.2f}" for t in row["level_seconds"])
        typer.echo(
            f"{row['size']} at its largest distance {row['largest']}: {level_times} s a level;"
            f" table of {row['frames']:,} frames ({row['bytes'] / 1e6:.1f} MB)"
            f" {row['table']} in {row['table_seconds']:.1f} s"
        )
    for row in long["rows"]:
        ok = row["median_seconds"] <= 10
        typer.echo(
            f"4x4 at {row['moves']} moves: median {row['median_seconds']:.2f} s of 10, max"
            f" {row['max_seconds']:.2f} s (target median 10 s: {_met(ok)})"
        )


def _sliding_long(
    korf24: str | None, limit: float | None, json_output: bool, *, side: int, walk: int | None
) -> None:
    """The long sliding workloads: Korf and Taylor's 24-puzzles, or 8x8 bounded solving."""
    from .bench import bench_bounded, bench_korf24

    if korf24 is not None:
        try:
            numbers = (
                None
                if korf24.strip() == "all"
                else sorted({int(v) for v in korf24.split(",") if v.strip()})
            )
        except ValueError:
            numbers = [0]
        if numbers is not None and not all(1 <= n <= 10 for n in numbers):
            raise typer.BadParameter(
                "numbers 1-10 separated by commas, or all", param_hint="--korf24"
            )
        found = bench_korf24(numbers, limit=600.0 if limit is None else limit)
    else:
        found = bench_bounded(side, limit=1.0 if limit is None else limit, walk=walk)
    figures = found.as_dict()
    if json_output:
        typer.echo(json.dumps(figures, indent=2))
        return
    for row in figures["rows"]:
        typer.echo("  ".join(f"{k} {v}" for k, v in row.items()))
    typer.echo(
        f"{found.name}: median {found.median_seconds:.3f} s, max {found.max_seconds:.2f} s;"
        f" tables loaded or built first in {found.tables_seconds:.1f} s"
    )
    if found.name.startswith("bounded"):
        factors = sorted(float(r["factor"] or "inf") for r in figures["rows"])
        median = factors[len(factors) // 2]
        shown = f"{median:.3f}" if median != float("inf") else "none (no solution in time)"
        typer.echo(
            f"median factor over the proved bound: {shown} (target 1.5 in 1 s:"
            f" {_met(found.all_correct and found.median_seconds <= 1)})"
        )


def register(app: typer.Typer) -> None:
    """Add ``bench sliding`` to ``app``."""
    app.command("sliding")(sliding)
