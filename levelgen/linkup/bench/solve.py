"""``levelgen bench solve``: the exact solvers on the fixed benchmark boards.

Every fixed benchmark board (:mod:`levelgen.linkup.bench.boards`, or ``--boards``) is decided once
per rule set (``outside`` on, off, or both) with a wall-clock limit per board, passed to the
solver as a ``Budget`` with ``should_stop`` and a clock: the only place where the time is
read. Reported per size and rule
set: the fraction decided, the solvable / unsolvable split, median and maximum time and nodes,
model-size counters when the solver reports them (CP-SAT), and the peak resident memory of the
process. Times are the solver's own (``stats.elapsed``, measured with the clock passed in); the
total wall time of the calls, which adds the replay of every solution, is reported too. ``--set
scale`` runs instead on levels the generator makes in the process (default sizes
``SCALE_SIZES``, 24x24 to 64x64 and two non-square ones, ``--seeds`` seeds from ``--first-seed``
(0: seeds ``0 .. --seeds - 1``; a later start measures levels not looked at before), the
generator's default parameters and rules), with their solutions dropped: the boards a studio
would verify. ``--compare`` also runs the plain exhaustive search under the same limit and
prints the ratio of total times; ``--cross-check METHOD`` runs a second solver on every board
and counts the boards where both decided and disagree (a bug in one of them). The methods take
turns board by board rather than one after the other, so that a change in the machine's speed
during the run (shared machines slow down and speed up by half over minutes) weighs on all of
them alike. Methods ``auto``, ``search`` and ``cpsat`` go through
:func:`levelgen.linkup.solvers.solve`, which replays every solution; ``exhaustive`` solutions are
replayed here. Solvers are imported inside the command, so ortools loads only for ``cpsat`` and
``auto``.
"""

from __future__ import annotations

import json
import resource
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from .. import Rules
from .. import rival_for as rival
from .common import BOARDS_HELP, BenchBoard, boards_for_command

#: ``--workers``, as the solving commands take it.
WorkersOption = Annotated[
    int | None,
    typer.Option(
        "--workers",
        min=1,
        metavar="N",
        help="Processes for auto's race of two repair runs on boards over 500 tiles: 2 or more"
        " runs the second on another core, 1 both in this process (slower; the same answer)."
        "  [default: 2 when this machine has two CPUs or more]",
        show_default=False,
    ),
]

if TYPE_CHECKING:
    from .. import RivalFactory

__all__ = ["SCALE_SIZES", "BoardRun", "cross_check", "register", "scale_boards", "summarize"]

METHODS = ("auto", "search", "cpsat", "exhaustive")

#: The sizes of the ``scale`` set.
SCALE_SIZES = ("24x24", "32x32", "40x40", "48x48", "56x56", "64x64", "64x36", "48x27")

#: Counters reported per board (median and maximum) when the solver has them: the CP-SAT
#: model size (of the largest model solved for the board).
MODEL_COUNTERS = ("variables", "constraints")


@dataclass(frozen=True, slots=True)
class BoardRun:
    """One board decided once: its id, size, rules, status, the solver's own seconds (its
    ``stats.elapsed``), the seconds of the whole call (with the replay of the solution), nodes
    and counters."""

    id: str
    size: str
    outside: bool
    status: str
    seconds: float
    nodes: int
    counters: dict[str, int | float]
    wall: float = 0.0


def scale_boards(sizes: list[str], seeds: int, first: int = 0) -> list[BenchBoard]:
    """The ``scale`` set: a level per size and seed ``first .. first + seeds - 1`` from the
    generator (default parameters), solution dropped.  ``ValueError`` for a bad size."""
    from .. import generate_level as generate
    from .. import parse_size

    out = []
    for text in sizes:
        size = parse_size(text)
        for seed in range(first, first + seeds):
            level = generate(size, seed=seed)
            out.append(BenchBoard(f"scale-{text}-{seed}", level.board, level.rules))
    return out


def _run_one(
    bb: BenchBoard,
    rules: Rules,
    method: str,
    time_limit: float,
    rival: RivalFactory | None = None,
) -> BoardRun:
    from ...puzzles import Budget
    from .. import SolveStatus, replay, solve, solve_exhaustive

    start = time.perf_counter()
    deadline = start + time_limit
    budget = Budget(
        should_stop=lambda: time.perf_counter() > deadline,
        clock=time.perf_counter,
        time_limit=time_limit,
    )
    if method == "exhaustive":
        result = solve_exhaustive(bb.board, rules, budget)
        if result.status is SolveStatus.SOLVED:
            problems = replay(bb.board, rules, result.moves or ())
            if problems:
                raise AssertionError(f"{bb.id}: exhaustive solution does not replay: {problems[0]}")
    else:
        result = solve(bb.board, rules, budget=budget, method=method, rival=rival)
    wall = time.perf_counter() - start
    size = f"{bb.board.width}x{bb.board.height}"
    return BoardRun(
        bb.id,
        size,
        rules.outside,
        result.status.value,
        result.stats.elapsed or wall,
        result.stats.nodes,
        dict(result.stats.counters),
        wall,
    )


def summarize(runs: list[BoardRun]) -> dict[str, Any]:
    """Figures for one group of runs: counts by status, fraction decided, median and maximum
    solver seconds and nodes, total solver and wall seconds, and the median and maximum per
    board of the model counters when present."""
    n = len(runs)
    by_status = {s: sum(1 for r in runs if r.status == s) for s in ("solved", "unsolvable")}
    decided = by_status["solved"] + by_status["unsolvable"]
    seconds = [r.seconds for r in runs]
    nodes = [r.nodes for r in runs]
    out: dict[str, Any] = {
        "boards": n,
        "decided": decided / n if n else 0.0,
        "solved": by_status["solved"],
        "unsolvable": by_status["unsolvable"],
        "unknown": n - decided,
        "median_s": statistics.median(seconds) if n else 0.0,
        "max_s": max(seconds, default=0.0),
        "total_s": sum(seconds),
        "total_wall_s": sum(r.wall for r in runs),
        "median_nodes": statistics.median(nodes) if n else 0,
        "max_nodes": max(nodes, default=0),
    }
    model = {}
    for name in MODEL_COUNTERS:
        values = [r.counters[name] for r in runs if name in r.counters]
        if values:
            model[name] = {"median": statistics.median(values), "max": max(values)}
    if model:
        out["model_per_board"] = model
    return out


def _peak_rss_mb() -> float:
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    # Linux reports KiB, macOS bytes.
    return peak / (1 << 20) if sys.platform == "darwin" else peak / 1024


def _groups(runs: list[BoardRun]) -> dict[tuple[str, bool], list[BoardRun]]:
    groups: dict[tuple[str, bool], list[BoardRun]] = {}
    for r in runs:
        groups.setdefault((r.size, r.outside), []).append(r)
    return groups


def _line(label: str, s: dict[str, Any]) -> str:
    text = (
        f"{label:<20} decided {s['decided']:6.1%} ({s['solved']:3d} solvable,"
        f" {s['unsolvable']:3d} unsolvable, {s['unknown']:3d} unknown)  time median"
        f" {s['median_s'] * 1000:8.1f} ms max {s['max_s'] * 1000:9.1f} ms  nodes median"
        f" {s['median_nodes']:>8} max {s['max_nodes']:>8}  total {s['total_s']:7.2f} s"
    )
    if "model_per_board" in s:
        text += "  model per board (median/max) " + " ".join(
            f"{k} {v['median']:.0f}/{v['max']:.0f}" for k, v in s["model_per_board"].items()
        )
    return text


def cross_check(runs: list[BoardRun], others: list[BoardRun]) -> dict[str, Any]:
    """Where two solvers both decided the same board and rules: how many, and the ids of those
    where they disagree (which would mean a bug in one of them)."""
    theirs = {(r.id, r.outside): r.status for r in others}
    decided = ("solved", "unsolvable")
    both = [r for r in runs if r.status in decided and theirs.get((r.id, r.outside)) in decided]
    clash = [
        f"{r.id} outside={'on' if r.outside else 'off'}"
        for r in both
        if theirs[(r.id, r.outside)] != r.status
    ]
    return {"both_decided": len(both), "contradictions": clash}


def register(app: typer.Typer) -> None:
    """Add the command to the bench app."""

    @app.command("solve")
    def solve_command(
        boards: Annotated[
            Path | None,
            typer.Option(help=BOARDS_HELP),
        ] = None,
        sizes: Annotated[
            str | None, typer.Option(help="Comma-separated sizes, e.g. 12x8,16x9 (default all).")
        ] = None,
        method: Annotated[
            str, typer.Option(help="Solver: auto, search, cpsat or exhaustive.")
        ] = "search",
        time_limit: Annotated[
            float, typer.Option(help="Wall-clock seconds per board and rule set.")
        ] = 10.0,
        outside: Annotated[
            bool | None,
            typer.Option(
                "--outside/--no-outside",
                help="Run with the ring path on, or off (default: both, see --both).",
            ),
        ] = None,
        both: Annotated[
            bool, typer.Option("--both", help="Run every board with outside on and off.")
        ] = False,
        compare: Annotated[
            bool,
            typer.Option(help="Also run the plain exhaustive search and print the time ratio."),
        ] = False,
        cross_check_method: Annotated[
            str | None,
            typer.Option(
                "--cross-check",
                help="Also run this solver on every board and count contradictions where both"
                " decide.",
                metavar="METHOD",
            ),
        ] = None,
        board_set: Annotated[
            str,
            typer.Option(
                "--set",
                help="bench: the fixed benchmark boards (or --boards); scale: levels generated now"
                f" ({', '.join(SCALE_SIZES)} unless --sizes), solutions removed.",
                metavar="bench|scale",
            ),
        ] = "bench",
        seeds: Annotated[
            int,
            typer.Option(
                min=1, help="Levels per size of the scale set (from --first-seed, 0 by default)."
            ),
        ] = 4,
        first_seed: Annotated[
            int,
            typer.Option(
                min=0,
                help="The scale set's first seed (seeds first, first + 1, ...): levels not"
                " measured before.",
            ),
        ] = 0,
        as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
        workers: WorkersOption = None,
    ) -> None:
        """Decide every benchmark board with a time limit each; fraction decided, split, median
        and maximum time and nodes per size and rule set, peak memory."""
        for value, option in ((method, "--method"), (cross_check_method, "--cross-check")):
            if value is not None and value not in METHODS:
                raise typer.BadParameter(f"choose one of {', '.join(METHODS)}", param_hint=option)
        if time_limit <= 0:
            raise typer.BadParameter("must be positive", param_hint="--time-limit")
        if board_set not in ("bench", "scale"):
            raise typer.BadParameter("choose bench or scale", param_hint="--set")
        outsides: list[bool | None]
        if board_set == "scale":
            wanted = [t.strip() for t in sizes.split(",") if t.strip()] if sizes else SCALE_SIZES
            try:
                loaded = scale_boards(list(wanted), seeds, first_seed)
            except ValueError as exc:
                raise typer.BadParameter(str(exc), param_hint="--sizes") from exc
            # The levels' own rules, unless a ring setting is asked for.
            outsides = [True, False] if both else [outside]
        else:
            loaded = boards_for_command(boards, sizes)
            outsides = [True, False] if both or outside is None else [outside]
        from .. import warm_up

        warm_up()  # the solvers' imports before the first board's clock starts
        methods = [method] + (["exhaustive"] if compare and method != "exhaustive" else [])
        if cross_check_method is not None and cross_check_method not in methods:
            methods.append(cross_check_method)
        factory = rival(workers)
        report: dict[str, Any] = {
            "set": board_set,
            "time_limit_s": time_limit,
            "rival": "process" if factory is not None else "lockstep",
            "methods": {},
        }
        if board_set == "scale":
            report["seeds"] = list(range(first_seed, first_seed + seeds))
        # Board by board, every method in turn: all of them meet the same machine conditions.
        all_runs: dict[str, list[BoardRun]] = {m: [] for m in methods}
        for out in outsides:
            for bb in loaded:
                rules = bb.rules if out is None else Rules(bb.rules.max_turns, out)
                for m in methods:
                    all_runs[m].append(_run_one(bb, rules, m, time_limit, factory))
        for m in methods:
            runs = all_runs[m]
            groups = {
                f"{size} outside={'on' if out else 'off'}": summarize(group)
                for (size, out), group in sorted(
                    _groups(runs).items(), key=lambda kv: (_size_order(kv[0][0]), not kv[0][1])
                )
            }
            report["methods"][m] = {"groups": groups, "all": summarize(runs)}
            if not as_json:
                typer.echo(f"method {m}, {time_limit:g} s per board:")
                for label, s in groups.items():
                    typer.echo("  " + _line(label, s))
                typer.echo("  " + _line("all", report["methods"][m]["all"]))
        if cross_check_method is not None and cross_check_method != method:
            check = cross_check(all_runs[method], all_runs[cross_check_method])
            report["cross_check"] = {"against": cross_check_method, **check}
            if not as_json:
                clash = check["contradictions"]
                typer.echo(
                    f"cross-check with {cross_check_method}: both decided {check['both_decided']}"
                    f" board and rule sets, {len(clash)} contradictions"
                    + (": " + ", ".join(clash) if clash else "")
                )
        if "exhaustive" in methods and method != "exhaustive":
            fast_all = report["methods"][methods[0]]["all"]
            slow_all = report["methods"]["exhaustive"]["all"]
            fast, slow = fast_all["total_s"], slow_all["total_s"]
            fast_wall, slow_wall = fast_all["total_wall_s"], slow_all["total_wall_s"]
            report["speedup_vs_exhaustive"] = slow / max(fast, 1e-9)
            report["speedup_vs_exhaustive_wall"] = slow_wall / max(fast_wall, 1e-9)
            if not as_json:
                typer.echo(
                    f"total solver time: {methods[0]} {fast:.2f} s, exhaustive {slow:.2f} s:"
                    f" {report['speedup_vs_exhaustive']:.1f}x faster"
                    " (exhaustive times are capped by the limit)"
                )
                typer.echo(
                    f"total wall time with replays: {methods[0]} {fast_wall:.2f} s, exhaustive"
                    f" {slow_wall:.2f} s: {report['speedup_vs_exhaustive_wall']:.1f}x faster"
                )
        report["peak_rss_mb"] = _peak_rss_mb()
        if as_json:
            typer.echo(json.dumps(report, indent=2))
        else:
            typer.echo(f"peak resident memory: {report['peak_rss_mb']:.0f} MB")


def _size_order(size: str) -> tuple[int, int]:
    w, _, h = size.partition("x")
    return (int(w), int(h)) if w.isdigit() and h.isdigit() else (1 << 30, 0)
