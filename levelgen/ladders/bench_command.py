"""``levelgen bench ladders``: the snakes-and-ladders workloads (:mod:`.bench`), printed as
medians and rates next to their targets, or as JSON."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer

__all__ = ["register"]

JsonOption = Annotated[bool, typer.Option("--json", help="Print the figures as JSON.")]


def _met(ok: bool) -> str:
    return "met" if ok else "NOT met"


def ladders(
    json_output: JsonOption = False,
    workers: Annotated[
        int, typer.Option(min=1, max=64, help="Processes for the parallel generation run.")
    ] = 2,
) -> None:
    """Snakes and ladders: the Milton Bradley Chutes and Ladders board against the published
    fraction (Althoen, King and Schilling 1993) and its fewest rolls (7); the median exact
    analysis of 10x10 boards (target 50 ms) and 20x20 boards (target 1 s); 10x10 boards
    generated into a 5-roll window of expected length (target 50 boards/s)."""
    from .bench import run_all as run_benchmarks

    figures: dict[str, Any] = run_benchmarks(workers=workers)
    if json_output:
        typer.echo(json.dumps(figures, indent=2, default=str))
        return
    chutes = figures["chutes_and_ladders"]
    typer.echo(
        f"Chutes and Ladders: {chutes['expected_rolls']} (~{chutes['expected_value']:.4f}) rolls;"
        f" the published fraction: {chutes['same_fraction']}; fewest rolls"
        f" {chutes['fewest_rolls']}"
    )
    for name, target in (("analysis_10x10", 0.05), ("analysis_20x20", 1.0)):
        found = figures[name]
        median = float(found["median_seconds"])
        typer.echo(
            f"{name.replace('_', ' ')}: median {median * 1000:.1f} ms"
            f" (target {target * 1000:g} ms: {_met(median <= target)})"
        )
    for name in ("generation_10x10", "generation_10x10_workers"):
        found = figures[name]
        rate = float(found["boards_per_second"])
        typer.echo(
            f"{name.replace('_', ' ')}: {rate:.1f} boards/s into a 5-roll window"
            f" (target 50: {_met(rate >= 50)})"
        )


def register(app: typer.Typer) -> None:
    """Add ``bench ladders`` to ``app``."""
    app.command("ladders")(ladders)
