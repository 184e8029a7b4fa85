"""Shared pieces of the benchmark commands: finding and loading the fixed boards, timing."""

from __future__ import annotations

import json
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import typer

from ..linkup import Board, Rules

__all__ = [
    "BenchBoard",
    "boards_for_command",
    "default_bench_dir",
    "load_bench_boards",
    "median_rate",
    "random_board",
    "time_call",
]


@dataclass(frozen=True, slots=True)
class BenchBoard:
    """One board of ``shared/bench``: its id, the board and the rules it was made for."""

    id: str
    board: Board
    rules: Rules


def default_bench_dir() -> Path | None:
    """``shared/bench`` beside the project (looked up from the current directory upwards)."""
    here = Path.cwd().resolve()
    for folder in (here, *here.parents):
        candidate = folder / "shared" / "bench"
        if candidate.is_dir():
            return candidate
    return None


def boards_for_command(boards: Path | None, sizes: str | None) -> list[BenchBoard]:
    """The boards a bench command runs on: ``--boards`` (default :func:`default_bench_dir`),
    only the comma-separated ``--sizes`` when given.  Exits with a message, never a traceback:
    2 when the folder or the boards are missing, 3 for a bad line."""
    folder = boards or default_bench_dir()
    if folder is None or not folder.is_dir():
        where = folder if folder is not None else "shared/bench (from the current folder up)"
        typer.echo(f"error: benchmark folder not found: {where}", err=True)
        raise typer.Exit(2)
    wanted = [s.strip() for s in sizes.split(",") if s.strip()] if sizes else None
    try:
        loaded = load_bench_boards(folder, wanted or None)
    except ValueError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(3) from exc
    if not loaded:
        typer.echo(f"error: no benchmark boards in {folder} for those sizes", err=True)
        raise typer.Exit(2)
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
                data = json.loads(line)
                rules = Rules(**data.get("rules", {}))
                out.append(BenchBoard(str(data["id"]), Board.from_grid(data["grid"]), rules))
            except (ValueError, KeyError, TypeError) as exc:
                raise ValueError(f"{file}:{n}: not a benchmark board: {exc}") from exc
    return out


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
