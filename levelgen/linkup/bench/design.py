"""``levelgen bench fix``: how long "suggest a fix" takes and how many swaps it finds.

*Boards*: generated 12x8 levels (ring on, 2 turns; seeds ``--seed ..``, ``--copies`` of each
kind) and any ``--level`` files, each broken by 1 and by 2 random swaps (of tiles of different
kinds): the first of up to ``--tries`` random draws that the search solver proves unsolvable
(on 12x8 with 4 copies of each kind nearly every swap leaves the board solvable, so a level may
give none: the report counts them).  Each broken board is fixed with
:func:`levelgen.linkup.design.fix.find_fix` under ``--time-limit``; the report gives the median
and largest seconds, the swaps found, how many had fewer ruled out, and replay failures of the
fixed boards (0 expected).  Timing happens here, at the edge; tests never assert it.
"""

from __future__ import annotations

import json
import random
import statistics
import time
from pathlib import Path
from typing import Annotated, Any

import typer

from ...formats.reports import wall_clock_budget
from ..core.board import Board
from ..core.geometry import Size
from ..core.rules import Rules

__all__ = ["broken_board", "register"]

#: Search nodes that decide whether a random break left the board unsolvable.
_BREAK_NODES = 3000


def broken_board(
    board: Board, rules: Rules, swaps: int, rng: random.Random, tries: int
) -> Board | None:
    """The first of ``tries`` boards made by ``swaps`` random swaps of tiles of different kinds
    that the search solver proves unsolvable, or None."""
    from ..design.fix import apply_swaps
    from ..solvers import Budget, SolveStatus, solve

    tiles = board.tiles()
    for _ in range(tries):
        current = board
        for _ in range(swaps):
            while True:
                a, b = rng.sample(tiles, 2)
                if current[a] != current[b]:
                    break
            current = apply_swaps(current, [(a, b)])
        found = solve(current, rules, budget=Budget(_BREAK_NODES), method="search")
        if found.status is SolveStatus.UNSOLVABLE:
            return current
    return None


def _fixes(
    levels: list[tuple[Board, Rules]], swaps: int, seed: int, tries: int, time_limit: float
) -> dict[str, Any]:
    from ..design.fix import find_fix
    from ..verify import replay

    seconds: list[float] = []
    counts: list[int] = []
    statuses: dict[str, int] = {}
    ruled_out = unbroken = wrong = 0
    for n, (board, rules) in enumerate(levels):
        broken = broken_board(board, rules, swaps, random.Random(seed * 1000 + n), tries)
        if broken is None:
            unbroken += 1
            continue
        t0 = time.perf_counter()
        result = find_fix(broken, rules, wall_clock_budget(time_limit))
        seconds.append(time.perf_counter() - t0)
        statuses[result.status] = statuses.get(result.status, 0) + 1
        if result.board is not None:
            counts.append(len(result.swaps))
            ruled_out += result.fewer_ruled_out
            wrong += bool(replay(result.board, rules, result.solution))
    return {
        "boards": len(seconds),
        "no_unsolvable_break": unbroken,
        "statuses": statuses,
        "median_s": round(statistics.median(seconds), 3) if seconds else None,
        "max_s": round(max(seconds), 3) if seconds else None,
        "median_swaps": statistics.median(counts) if counts else None,
        "swaps": sorted(counts),
        "fewer_ruled_out": ruled_out,
        "replay_failures": wrong,
    }


def register(app: typer.Typer) -> None:
    """Add ``fix`` to the bench app."""

    @app.command("fix")
    def bench_fix(
        levels: Annotated[int, typer.Option(min=0, help="Generated 12x8 levels.")] = 10,
        copies: Annotated[int, typer.Option(min=2, help="Tiles of each kind.")] = 4,
        level: Annotated[
            list[Path] | None, typer.Option("--level", help="A Link-up level file to add.")
        ] = None,
        tries: Annotated[
            int, typer.Option(min=1, help="Random breaks tried per level and swap count.")
        ] = 2000,
        time_limit: Annotated[float, typer.Option(min=0.0, help="Seconds per fix.")] = 5.0,
        seed: Annotated[int, typer.Option(min=0, help="First level seed.")] = 0,
        as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    ) -> None:
        """Suggest-a-fix times and swaps on 12x8 levels broken by 1 and by 2 random swaps."""
        from ..files import read_core_level
        from ..generate.generator import generate

        boards: list[tuple[Board, Rules]] = []
        for path in level or []:
            found, problems = read_core_level(str(path))
            if found is None or problems:
                raise typer.BadParameter(
                    f"{path} is not a valid Link-up level", param_hint="--level"
                )
            boards.append((found.board, found.rules))
        for n in range(levels):
            made = generate(Size(12, 8), copies=copies, seed=seed + n)
            boards.append((made.board, made.rules))
        report = {f"{k}_swaps": _fixes(boards, k, seed + k, tries, time_limit) for k in (1, 2)}
        if as_json:
            typer.echo(json.dumps(report, indent=2))
            return
        for name, r in report.items():
            typer.echo(
                f"broken by {name.replace('_', ' ')}: {r['boards']} boards"
                f" ({r['no_unsolvable_break']} levels gave no unsolvable break),"
                f" fix median {r['median_s']} s, max {r['max_s']} s, median"
                f" {r['median_swaps']} swaps {r['swaps']}, fewer ruled out"
                f" {r['fewer_ruled_out']}, {r['statuses']}, {r['replay_failures']} replay failures"
            )
