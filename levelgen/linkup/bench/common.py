"""Shared pieces of the benchmark commands: the fixed boards (made, or loaded from a folder),
timing."""

from __future__ import annotations

import json
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import typer

from .. import Board, Rules

__all__ = [
    "BOARDS_HELP",
    "BenchBoard",
    "boards_for_command",
    "fixed_boards",
    "load_bench_boards",
    "median_rate",
    "random_board",
    "time_call",
]


#: The help of ``--boards``.
BOARDS_HELP = (
    "Folder of bench_WxH.jsonl files to run on (default: the fixed benchmark boards, made from"
    " their seeds: 12x8, 16x9, 18x10 and 24x14, 20 each; 'levelgen bench boards DIR' writes"
    " them)."
)


@dataclass(frozen=True, slots=True)
class BenchBoard:
    """One benchmark board: its id, the board and the rules it was made for."""

    id: str
    board: Board
    rules: Rules


def fixed_boards(sizes: list[str] | None = None) -> list[BenchBoard]:
    """The fixed benchmark boards (:mod:`levelgen.linkup.bench.boards`, made from their seeds), of
    the given sizes (``12x8``) or all, in size order.  ``ValueError`` naming a size that is
    not one of the set."""
    from .boards import BENCH_SIZES, bench_records

    names = [f"{w}x{h}" for w, h in BENCH_SIZES]
    for size in sizes or ():
        if size not in names:
            raise ValueError(f"no benchmark boards of size {size} (the sizes: {', '.join(names)})")
    out = []
    for (width, height), name in zip(BENCH_SIZES, names, strict=True):
        if sizes and name not in sizes:
            continue
        for record in bench_records(width, height):
            out.append(_bench_board(record))
    return out


def boards_for_command(boards: Path | None, sizes: str | None) -> list[BenchBoard]:
    """The boards a bench command runs on: the ``bench_WxH.jsonl`` files of the folder
    ``--boards``, else the fixed boards (:func:`fixed_boards`); only the comma-separated
    ``--sizes`` when given.  Exits with a message, never a traceback: 2 for a folder that is
    not there, a size of no boards or a folder with none, 3 for a bad line."""
    wanted = [s.strip() for s in sizes.split(",") if s.strip()] if sizes else None
    if boards is None:
        try:
            return fixed_boards(wanted)
        except ValueError as exc:
            raise typer.BadParameter(str(exc), param_hint="'--sizes'") from None
    if not boards.is_dir():
        raise typer.BadParameter(f"{boards} is not a folder", param_hint="'--boards'")
    try:
        loaded = load_bench_boards(boards, wanted)
    except ValueError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(3) from exc
    if not loaded:
        raise typer.BadParameter(
            f"no bench_WxH.jsonl files in {boards}" + (" for those sizes" if wanted else ""),
            param_hint="'--boards'",
        )
    return loaded


def load_bench_boards(folder: Path, sizes: list[str] | None = None) -> list[BenchBoard]:
    """Boards of ``bench_WxH.jsonl`` files in ``folder`` (only the given sizes when set), in
    file and line order.  ``ValueError`` naming the file and line for a bad line."""
    files = sorted(folder.glob("bench_*.jsonl"), key=_size_key)
    if sizes:
        wanted = {f"bench_{s}.jsonl" for s in sizes}
        files = [f for f in files if f.name in wanted]
    out = []
    for file in files:
        for n, line in enumerate(file.read_text().splitlines(), 1):
            if not line.strip():
                continue
            try:
                out.append(_bench_board(json.loads(line)))
            except (ValueError, KeyError, TypeError) as exc:
                raise ValueError(f"{file}:{n}: not a benchmark board: {exc}") from exc
    return out


def _bench_board(data: dict[str, Any]) -> BenchBoard:
    rules = Rules(**data.get("rules", {}))
    return BenchBoard(str(data["id"]), Board.from_grid(data["grid"]), rules)


def _size_key(file: Path) -> tuple[int, int]:
    stem = file.stem.removeprefix("bench_")
    w, _, h = stem.partition("x")
    return (int(w), int(h)) if w.isdigit() and h.isdigit() else (1 << 30, 0)


def time_call(fn: Callable[[], object]) -> float:
    """Seconds taken by one call of ``fn``."""
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def median_rate(count: int, fn: Callable[[], object], repeats: int) -> float:
    """Median over ``repeats`` runs of ``count / seconds`` for one call of ``fn``."""
    return statistics.median(count / max(time_call(fn), 1e-9) for _ in range(repeats))


def random_board(
    rng: random.Random, width: int, height: int, density: float, wall_rate: float, kinds: int
) -> Board:
    """A board whose cells are walls with ``wall_rate``, tiles (kinds ``1..kinds``) with
    ``density`` of the rest, else holes: the random boards of cross-checks."""
    cells = []
    for _ in range(width * height):
        r = rng.random()
        if r < wall_rate:
            cells.append(-1)
        elif r < wall_rate + density * (1 - wall_rate):
            cells.append(rng.randint(1, kinds))
        else:
            cells.append(0)
    return Board(width, height, tuple(cells))
