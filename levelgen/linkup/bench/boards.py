"""The fixed benchmark boards of ``levelgen bench paths`` and ``bench solve``, made from seeds.

Four sizes, 20 boards each: random full boards (every cell a tile, every kind four times, no
walls, no holes; solvability not guaranteed), with the rules max 2 turns and the ring.  They
are made here, bit for bit as the ``bench_WxH.jsonl`` files of the benchmark set, so that the
benchmarks run from a fresh clone; ``levelgen bench boards DIR`` writes those files.

Board ``i`` (0..19) of size ``W x H``:

1. seed = 100000 W + 1000 H + i (12x8 board 3: 1208003);
2. tiles = [1, 1, 1, 1, 2, 2, 2, 2, ..., K, K, K, K] with K = W H / 4;
3. a Fisher-Yates shuffle from the last index down: for i = n - 1 .. 1, j = below(i + 1), swap
   tiles i and j, where ``below(n)`` draws from SplitMix64(seed) by rejection sampling
   (:class:`SplitMix64`: no language's own random module, so any language can make the same
   boards);
4. row y of the grid = tiles[y W : (y + 1) W].

A file holds one JSON object per line, ``{"id": "bench-12x8-03", "seed": 1208003, "width": 12,
"height": 8, "grid": [[...], ...], "rules": {"max_turns": 2, "outside": true}}``, written with
no spaces.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

__all__ = [
    "BENCH_SIZES",
    "BOARDS_PER_SIZE",
    "SplitMix64",
    "bench_file_name",
    "bench_file_text",
    "bench_records",
    "board_seed",
]

#: The sizes of the benchmark set (width, height), in order.
BENCH_SIZES = ((12, 8), (16, 9), (18, 10), (24, 14))
BOARDS_PER_SIZE = 20
COPIES = 4
_MASK = (1 << 64) - 1


class SplitMix64:
    """Steele, Lea and Flood's SplitMix64: 64-bit outputs from a 64-bit state."""

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK

    def next(self) -> int:
        """The next 64-bit output."""
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``0 .. n - 1`` (outputs of the biased top end are drawn again)."""
        limit = (1 << 64) - (1 << 64) % n
        while True:
            r = self.next()
            if r < limit:
                return r % n


def board_seed(width: int, height: int, index: int) -> int:
    """The seed of board ``index`` of size ``width x height``."""
    return 100_000 * width + 1_000 * height + index


def _grid(width: int, height: int, seed: int) -> list[list[int]]:
    n = width * height
    tiles = [1 + k // COPIES for k in range(n)]
    rng = SplitMix64(seed)
    for i in range(n - 1, 0, -1):
        j = rng.below(i + 1)
        tiles[i], tiles[j] = tiles[j], tiles[i]
    return [tiles[y * width : (y + 1) * width] for y in range(height)]


def bench_records(width: int, height: int) -> list[dict[str, Any]]:
    """The boards of one size as the JSON objects of its file, in order."""
    if (width * height) % COPIES:
        raise ValueError(f"{width}x{height} has {width * height} cells, not a multiple of 4")
    out = []
    for index in range(BOARDS_PER_SIZE):
        seed = board_seed(width, height, index)
        out.append(
            {
                "id": f"bench-{width}x{height}-{index:02d}",
                "seed": seed,
                "width": width,
                "height": height,
                "grid": _grid(width, height, seed),
                "rules": {"max_turns": 2, "outside": True},
            }
        )
    return out


def bench_file_name(width: int, height: int) -> str:
    """``bench_WxH.jsonl``."""
    return f"bench_{width}x{height}.jsonl"


def bench_file_text(width: int, height: int) -> str:
    """The text of ``bench_WxH.jsonl``: one compact JSON object per line."""
    return "".join(
        json.dumps(record, separators=(",", ":")) + "\n" for record in bench_records(width, height)
    )


def register(app: typer.Typer) -> None:
    """Add ``boards`` to the bench app."""

    @app.command("boards")
    def bench_boards(
        folder: Annotated[
            Path, typer.Argument(help="The folder to write into (made if missing).", metavar="DIR")
        ],
        check: Annotated[
            bool,
            typer.Option("--check", help="Compare the files in DIR instead of writing them."),
        ] = False,
    ) -> None:
        """Write the fixed benchmark boards as DIR/bench_WxH.jsonl (what --boards reads).

        Exit codes: 0 written, or --check found every file the same; 1 --check found a file
        missing or different; 3 the folder or a file could not be written.
        """
        from ...formats import WriteError, write_text

        if not check:
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                typer.echo(f"levelgen bench boards: {folder}: {exc.strerror or exc}", err=True)
                raise typer.Exit(3) from None
        differ = 0
        for width, height in BENCH_SIZES:
            path = folder / bench_file_name(width, height)
            text = bench_file_text(width, height)
            if check:
                try:
                    same = path.read_text(encoding="utf-8") == text
                except OSError:
                    same = False
                differ += not same
                typer.echo(f"{path}: {'the same' if same else 'missing or different'}")
                continue
            try:
                write_text(text, path)
            except WriteError as exc:
                typer.echo(f"levelgen bench boards: {exc}", err=True)
                raise typer.Exit(3) from None
            typer.echo(f"{path}: {BOARDS_PER_SIZE} boards")
        raise typer.Exit(1 if differ else 0)
