"""``levelgen bench play``: the play engine's numbers, on fixed seeded positions.

*Positions*: generated levels (ring on, 2 turns; seeds ``0 .. --levels - 1``) after ``k``
random legal moves, ``k`` uniform in ``0 .. n/2`` for a board of ``n`` tiles (the random play
stops early when it is stuck, so some positions are lost).

- *live move list*: full random play-outs of 18x10 levels; the time per move of
  :meth:`levelgen.linkup.play.game.Game.apply` (the legality check and the incremental update of the
  pair set; the move's best path, needed either way, is built before) against recomputing all legal
  pairs from scratch (:func:`levelgen.linkup.core.moves.legal_pairs`) on the same states; target at
  least 5x.
- *hint*: :meth:`levelgen.linkup.play.game.Game.hint` in process on the 18x10 positions (median and
  95th percentile, wall clock and CPU time; targets 30 ms and 200 ms), its statuses, and every
  hint's solution replayed;
  then ``levelgen hint FILE`` as a whole process on a few of them (median; target 0.35 s).
- *shuffle*: :meth:`levelgen.linkup.play.game.Game.shuffle` on the 18x10 and 24x14 positions
  (median; targets 100 ms and 1 s); every result replayed.

Timing happens here, at the edge; tests never assert it.
"""

from __future__ import annotations

import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Annotated, Any

import typer

from ...puzzles import Budget
from .. import Game, Size, legal_pairs, replay
from .. import generate_level as generate

__all__ = ["live_list", "positions", "register"]

TARGETS = {
    "live_ratio": 5.0,
    "hint_median_ms": 30.0,
    "hint_p95_ms": 200.0,
    "hint_process_s": 0.35,
    "shuffle_18x10_median_ms": 100.0,
    "shuffle_24x14_median_ms": 1000.0,
}


def positions(size: Size, count: int, seed: int) -> list[Game]:
    """``count`` games on levels of ``size`` (seeds ``seed ..``), each after ``k`` random legal
    moves, ``k`` uniform in ``0 .. tiles/2``."""
    games = []
    for i in range(count):
        level = generate(size, seed=seed + i)
        game = Game(level.board, level.rules)
        rng = random.Random(seed + i)
        for _ in range(rng.randint(0, level.board.tile_count() // 2)):
            pairs = game.legal_pairs()
            if not pairs:
                break
            game.play(*pairs[rng.randrange(len(pairs))])
        games.append(game)
    return games


def live_list(size: Size, count: int, seed: int) -> dict[str, Any]:
    """Seconds per move of the live list (``Game.apply``) and of a full recomputation, over
    full random play-outs of ``count`` levels (CPU time of this process, which other work
    on a busy machine inflates least)."""
    played = recomputed = 0.0
    moves = 0
    for i in range(count):
        level = generate(size, seed=seed + i)
        game = Game(level.board, level.rules)
        rules = level.rules
        rng = random.Random(seed + i)
        stride = level.board.layout.stride
        while True:
            pairs = game.legal_pairs()
            if not pairs:
                break
            move = game.checked(*pairs[rng.randrange(len(pairs))])
            t0 = time.process_time()
            game.apply(move)
            t1 = time.process_time()
            board = game.board
            kinds = list(board.kind_masks().values())
            free = board.free_mask(rules.outside)
            t2 = time.process_time()
            legal_pairs(kinds, free, rules.max_turns, stride)
            t3 = time.process_time()
            played += t1 - t0
            recomputed += t3 - t2
            moves += 1
    per_move = played / max(moves, 1)
    per_recompute = recomputed / max(moves, 1)
    return {
        "moves": moves,
        "live_us_per_move": round(per_move * 1e6, 1),
        "recompute_us_per_move": round(per_recompute * 1e6, 1),
        "ratio": round(per_recompute / per_move, 2) if per_move else None,
    }


def _wall_budget(seconds: float) -> Budget:
    deadline = time.monotonic() + seconds
    return Budget(
        should_stop=lambda: time.monotonic() > deadline, clock=time.monotonic, time_limit=seconds
    )


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def hints(games: list[Game], time_limit: float) -> dict[str, Any]:
    """In-process hint times, statuses, and replay problems of the hints' solutions."""
    times: list[float] = []
    cpu: list[float] = []
    statuses: dict[str, int] = {}
    wrong = 0
    for game in games:
        c0 = time.process_time()
        t0 = time.perf_counter()
        result = game.hint(_wall_budget(time_limit))
        times.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
        statuses[result.status] = statuses.get(result.status, 0) + 1
        if result.status == "hint" and replay(game.board, game.rules, result.solution):
            wrong += 1
    return {
        "positions": len(games),
        "statuses": statuses,
        "median_ms": round(statistics.median(times) * 1e3, 1),
        "p95_ms": round(_percentile(times, 0.95) * 1e3, 1),
        "max_ms": round(max(times) * 1e3, 1),
        "cpu_median_ms": round(statistics.median(cpu) * 1e3, 1),
        "cpu_p95_ms": round(_percentile(cpu, 0.95) * 1e3, 1),
        "replay_failures": wrong,
    }


def hint_process(games: list[Game], runs: int) -> dict[str, Any]:
    """Median seconds of ``levelgen hint FILE`` as a whole process over a few positions: wall
    clock, and CPU time of the process (user + system; what a busy machine inflates least)."""
    import resource

    from .. import position_to_data

    times = []
    cpu = []
    with tempfile.TemporaryDirectory() as folder:
        files = []
        for i, game in enumerate(games):
            path = Path(folder, f"p{i}.json")
            path.write_text(json.dumps(position_to_data(game.board, game.rules)))
            files.append(path)
        env = dict(os.environ)
        root = str(Path(__file__).resolve().parent.parent.parent)
        env["PYTHONPATH"] = root + os.pathsep + env.get("PYTHONPATH", "")
        for _ in range(runs):
            for path in files:
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                t0 = time.perf_counter()
                subprocess.run(
                    [sys.executable, "-m", "levelgen", "hint", str(path)],
                    env=env,
                    capture_output=True,
                    check=False,
                )
                times.append(time.perf_counter() - t0)
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return {
        "runs": len(times),
        "median_s": round(statistics.median(times), 3),
        "median_cpu_s": round(statistics.median(cpu), 3),
    }


def shuffles(games: list[Game], seed: int) -> dict[str, Any]:
    """Shuffle times (median, max), statuses and replay failures."""
    times: list[float] = []
    statuses: dict[str, int] = {}
    wrong = 0
    for i, game in enumerate(games):
        t0 = time.perf_counter()
        result = game.shuffle(seed + i)
        times.append(time.perf_counter() - t0)
        statuses[result.status] = statuses.get(result.status, 0) + 1
        if result.board is not None and replay(result.board, game.rules, result.solution):
            wrong += 1
    return {
        "positions": len(games),
        "statuses": statuses,
        "median_ms": round(statistics.median(times) * 1e3, 1),
        "max_ms": round(max(times) * 1e3, 1),
        "replay_failures": wrong,
    }


def register(app: typer.Typer) -> None:
    """Add ``play`` to the bench app."""

    @app.command("play")
    def bench_play(
        levels: Annotated[int, typer.Option(min=1, help="18x10 positions for hints.")] = 100,
        playouts: Annotated[
            int, typer.Option(min=1, help="Full 18x10 play-outs for the live move list.")
        ] = 20,
        large: Annotated[int, typer.Option(min=1, help="24x14 positions for shuffles.")] = 20,
        processes: Annotated[
            int, typer.Option(min=0, help="Positions timed as a whole `levelgen hint` process.")
        ] = 5,
        time_limit: Annotated[float, typer.Option(min=0.0, help="Seconds per hint.")] = 10.0,
        seed: Annotated[int, typer.Option(min=0, help="First level seed.")] = 0,
        as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    ) -> None:
        """The live move list against recomputing, hint times (in process and as a whole
        process), and shuffle times, on seeded generated positions."""
        report: dict[str, Any] = {"targets": TARGETS}
        report["live"] = live_list(Size(18, 10), playouts, seed)
        games = positions(Size(18, 10), levels, seed)
        report["hint"] = hints(games, time_limit)
        if processes:
            report["hint_process"] = hint_process(games[:processes], 3)
        report["shuffle_18x10"] = shuffles(games, seed)
        report["shuffle_24x14"] = shuffles(positions(Size(24, 14), large, seed), seed)
        if as_json:
            typer.echo(json.dumps(report, indent=2))
            return
        live = report["live"]
        typer.echo(
            f"live move list: {live['live_us_per_move']} us/move against"
            f" {live['recompute_us_per_move']} us recomputing ({live['ratio']}x;"
            f" target {TARGETS['live_ratio']}x) over {live['moves']} moves"
        )
        h = report["hint"]
        typer.echo(
            f"hint 18x10: median {h['median_ms']} ms, p95 {h['p95_ms']} ms, max {h['max_ms']} ms"
            f" (CPU {h['cpu_median_ms']} / {h['cpu_p95_ms']} ms; targets 30 / 200 ms)"
            f" over {h['positions']} positions {h['statuses']};"
            f" {h['replay_failures']} replay failures"
        )
        if processes:
            p = report["hint_process"]
            typer.echo(
                f"levelgen hint as a process: median {p['median_s']} s wall,"
                f" {p['median_cpu_s']} s CPU over {p['runs']} runs (target 0.35 s)"
            )
        for name, target in (("shuffle_18x10", 100), ("shuffle_24x14", 1000)):
            s = report[name]
            typer.echo(
                f"{name.replace('_', ' ')}: median {s['median_ms']} ms, max {s['max_ms']} ms"
                f" (target {target} ms) {s['statuses']}; {s['replay_failures']} replay failures"
            )
