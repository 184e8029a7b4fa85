"""``levelgen bench shape``: difficulty shaping by kind assignment on seeded layouts.

For ``--count`` full layouts (seeds ``0 .. N-1``, ``--size``, 4 copies per kind by default) a
positions-only removal order is drawn with ``random.Random(seed)``; then kinds are dealt three
ways: the seeded random deal (*before*), and :func:`levelgen.linkup.generate.shaping.shape_kinds`
with target ``easy`` and ``hard`` (*after*).  Reported per target: start moves and tempting pairings
before and after (median, and per layout with ``--verbose``), how many layouts moved in the
requested direction, and the wall time of one shaping (median and maximum) next to the 2 s target.
Every shaped level is replayed by :func:`levelgen.linkup.verify.replay` and its kind counts checked;
a failure makes the command exit with status 1.
"""

from __future__ import annotations

import json
import random
import statistics
import time
from typing import Annotated, Any

import typer

from .. import (
    DEFAULT_DETERMINISTIC_TIME,
    TARGETS,
    Board,
    Rules,
    parse_size,
    random_removal_order,
    replay,
    shape_kinds,
)

__all__ = ["TIME_TARGET", "register", "shape_layouts"]

#: Seconds one shaping of a 12x8 layout may take.
TIME_TARGET = 2.0


def shape_layouts(
    width: int,
    height: int,
    count: int,
    rules: Rules,
    copies: int,
    deterministic_time: float,
) -> dict[str, Any]:
    """Shape ``count`` seeded full ``width x height`` layouts both ways; the rows per layout and
    a summary per target (see the module docstring)."""
    template = Board(width, height, (1,) * (width * height))
    rows: list[dict[str, Any]] = []
    failures: list[str] = []
    for seed in range(count):
        order = random_removal_order(template, rules, random.Random(seed))
        if order is None:
            failures.append(f"seed {seed}: no removal order")
            continue
        row: dict[str, Any] = {"seed": seed}
        for target in TARGETS:
            start = time.perf_counter()
            shaped = shape_kinds(
                template,
                rules,
                order,
                target=target,  # type: ignore[arg-type]
                seed=seed,
                copies=copies,
                max_deterministic_time=deterministic_time,
            )
            seconds = time.perf_counter() - start
            problems = replay(shaped.board, rules, shaped.moves)
            if problems:
                failures.append(f"seed {seed} {target}: does not replay: {problems[0]}")
            if set(shaped.board.kind_counts().values()) != {copies}:
                failures.append(f"seed {seed} {target}: kind counts are not all {copies}")
            report = shaped.report
            row["before"] = {
                "start_moves": report.before.start_moves,
                "tempting": report.before.tempting,
            }
            row[target] = {
                "start_moves": report.after.start_moves,
                "tempting": report.after.tempting,
                "seconds": round(seconds, 3),
                "status": report.status,
                "variables": report.variables,
                "constraints": report.constraints,
            }
        rows.append(row)
    summary: dict[str, Any] = {}
    if rows:
        summary["before"] = {
            "start_moves_median": statistics.median(r["before"]["start_moves"] for r in rows),
            "tempting_median": statistics.median(r["before"]["tempting"] for r in rows),
        }
        for target in TARGETS:
            sign = 1 if target == "easy" else -1
            times = [float(r[target]["seconds"]) for r in rows]
            summary[target] = {
                "start_moves_median": statistics.median(r[target]["start_moves"] for r in rows),
                "tempting_median": statistics.median(r[target]["tempting"] for r in rows),
                "moved": sum(
                    sign * (r[target]["start_moves"] - r["before"]["start_moves"]) > 0 for r in rows
                ),
                "seconds_median": round(statistics.median(times), 3),
                "seconds_max": round(max(times), 3),
                "statuses": sorted({r[target]["status"] for r in rows}),
            }
    return {
        "size": f"{width}x{height}",
        "layouts": len(rows),
        "rules": {"max_turns": rules.max_turns, "outside": rules.outside},
        "copies": copies,
        "deterministic_time": deterministic_time,
        "summary": summary,
        "rows": rows,
        "failures": failures,
    }


def register(app: typer.Typer) -> None:
    """Add ``shape`` to the bench app."""

    @app.command("shape")
    def bench_shape(
        size: Annotated[str, typer.Option(help="Layout size, e.g. 12x8.")] = "12x8",
        count: Annotated[int, typer.Option(min=1, help="Seeded layouts (seeds 0 .. N-1).")] = 20,
        outside: Annotated[
            bool, typer.Option("--outside/--no-outside", help="Paths may use the ring.")
        ] = True,
        max_turns: Annotated[int, typer.Option(min=0, max=3, help="Turns a path may take.")] = 2,
        copies: Annotated[int, typer.Option(min=2, help="Tiles per kind (even).")] = 4,
        deterministic_time: Annotated[
            float, typer.Option(min=0.01, help="CP-SAT deterministic time per shaping.")
        ] = DEFAULT_DETERMINISTIC_TIME,
        verbose: Annotated[bool, typer.Option(help="Print one line per layout.")] = False,
        as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    ) -> None:
        """Start moves and tempting pairings before (seeded random deal) and after shaping
        (easy, hard) on seeded full layouts, and the time of one shaping."""
        try:
            width, height = parse_size(size)
        except ValueError as exc:
            raise typer.BadParameter(str(exc), param_hint="--size") from None
        if copies % 2 or (width * height) % copies:
            raise typer.BadParameter(
                f"copies must be even and divide the {width * height} cells", param_hint="--copies"
            )
        rules = Rules(max_turns=max_turns, outside=outside)
        result = shape_layouts(width, height, count, rules, copies, deterministic_time)
        if as_json:
            typer.echo(json.dumps(result, indent=2))
        else:
            _print(result, verbose)
        if result["failures"]:
            raise typer.Exit(1)


def _print(result: dict[str, Any], verbose: bool) -> None:
    rules = result["rules"]
    typer.echo(
        f"{result['size']}, {result['layouts']} layouts, {result['copies']} copies,"
        f" max_turns {rules['max_turns']}, outside {'on' if rules['outside'] else 'off'},"
        f" {result['deterministic_time']:g} deterministic time per shaping"
    )
    if verbose:
        typer.echo("seed  start moves: random easy hard   tempting: random easy hard")
        for r in result["rows"]:
            typer.echo(
                f"{r['seed']:4d}  {r['before']['start_moves']:19d} {r['easy']['start_moves']:4d}"
                f" {r['hard']['start_moves']:4d}   {r['before']['tempting']:16d}"
                f" {r['easy']['tempting']:4d} {r['hard']['tempting']:4d}"
            )
    summary = result["summary"]
    if summary:
        before = summary["before"]
        typer.echo(
            f"random deal: start moves median {before['start_moves_median']:g},"
            f" tempting median {before['tempting_median']:g}"
        )
        for target in TARGETS:
            s = summary[target]
            met = "met" if s["seconds_max"] <= TIME_TARGET else "NOT met"
            typer.echo(
                f"{target:>4}: start moves median {s['start_moves_median']:g}"
                f" (moved the right way on {s['moved']}/{result['layouts']}),"
                f" tempting median {s['tempting_median']:g};"
                f" {s['seconds_median']:.2f} s median, {s['seconds_max']:.2f} s max"
                f" (target <= {TIME_TARGET:g} s: {met}); status {', '.join(s['statuses'])}"
            )
    for failure in result["failures"]:
        typer.echo(f"FAILED {failure}")
