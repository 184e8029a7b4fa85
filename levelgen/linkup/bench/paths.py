"""``levelgen bench paths``: speed of the rules engine, and its agreement with the reference.

On every fixed benchmark board (:mod:`levelgen.linkup.bench.boards`, or ``--boards``) and on a
half-cleared copy of each (the first half of a seeded positions-only removal order, so a state
real play can reach), it times:

- *linkable*: "which same-kind tiles link to this tile", one query per tile (bitboards);
  also reported as pair answers per second (each query answers every same-kind partner);
- *path*: the exact best path with corner points, for every same-kind pair (and for the
  linkable pairs alone, the ones that need a path built);
- the slow Dijkstra reference on the same pairs (on a subsample), for the ratio;
- *all pairs*: every legal pair of the board from scratch
  (:func:`levelgen.linkup.core.moves.legal_pairs`, what the move list, difficulty and shuffles
  recompute), as boards per second.

Rates are medians over ``--repeats`` runs.  ``--check N`` then runs N random queries on random
boards (sizes 1x2 .. 24x14, all densities, walls and holes, both ``outside``, ``max_turns``
0..3) and counts disagreements between the fast linkable set, the exact path and the reference.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Annotated, Any

import typer

from .. import (
    Board,
    Pos,
    Rules,
    find_link,
    legal_pairs,
    linkable_mask,
    random_removal_order,
    reference_all,
    reference_best,
)
from .common import BOARDS_HELP, BenchBoard, boards_for_command, median_rate, random_board

__all__ = ["agreement_check", "register"]


def _half_cleared(board: Board, rules: Rules, seed: int) -> Board:
    order = random_removal_order(board, rules, random.Random(seed))
    if order is None:  # no complete order: clear what a single playout can
        return board
    gone = [p for pair in order[: len(order) // 2] for p in pair]
    return board.without(*gone)


def _workload(boards: list[tuple[Board, Rules]]) -> dict[str, Any]:
    linkable_q: list[tuple[int, int, int, int, int]] = []
    partner_answers = 0
    pairs: list[tuple[Board, Rules, Pos, Pos]] = []
    for board, rules in boards:
        lay = board.layout
        free = board.free_mask(rules.outside)
        masks = board.kind_masks()
        for p in board.tiles():
            kind_mask = masks[board[p]]
            linkable_q.append((1 << lay.bit(*p), free, kind_mask, rules.max_turns, lay.stride))
            partner_answers += bin(kind_mask).count("1") - 1
        tiles = board.tiles()
        for i, a in enumerate(tiles):
            for b in tiles[i + 1 :]:
                if board[a] == board[b]:
                    pairs.append((board, rules, a, b))
    return {"linkable": linkable_q, "partners": partner_answers, "pairs": pairs}


def _measure(boards: list[tuple[Board, Rules]], repeats: int, ref_sample: int) -> dict[str, Any]:
    work = _workload(boards)
    queries = work["linkable"]

    def run_linkable() -> None:
        for q in queries:
            linkable_mask(*q)

    prepared = [(b.layout, b.free_mask(r.outside), a, c, r) for b, r, a, c in work["pairs"]]

    def run_paths(items: list[Any]) -> None:
        for lay, free, a, c, r in items:
            find_link(lay, free, a, c, r)

    linked = [q for q in prepared if find_link(*q) is not None]
    sample = work["pairs"][:: max(1, len(work["pairs"]) // ref_sample)]

    def run_reference() -> None:
        for b, r, a, c in sample:
            reference_best(b, a, c, r)

    whole = [
        (list(b.kind_masks().values()), b.free_mask(r.outside), r.max_turns, b.layout.stride)
        for b, r in boards
    ]

    def run_all_pairs() -> None:
        for _ in range(5):
            for q in whole:
                legal_pairs(*q)

    q_rate = median_rate(len(queries), run_linkable, repeats)
    boards_rate = median_rate(5 * len(whole), run_all_pairs, repeats)
    path_rate = median_rate(len(prepared), lambda: run_paths(prepared), repeats)
    linked_rate = median_rate(len(linked), lambda: run_paths(linked), repeats) if linked else 0.0
    ref_rate = median_rate(len(sample), run_reference, max(1, repeats // 2))
    return {
        "boards": len(boards),
        "all_pairs_boards_per_s": round(boards_rate),
        "legal_pairs": sum(len(legal_pairs(*q)) for q in whole),
        "linkable_queries": len(queries),
        "linkable_per_s": round(q_rate),
        "pair_answers_per_s": round(q_rate * work["partners"] / max(1, len(queries))),
        "path_queries": len(prepared),
        "path_per_s": round(path_rate),
        "linked_pairs": len(linked),
        "linked_path_per_s": round(linked_rate),
        "reference_per_s": round(ref_rate),
        "path_vs_reference": round(path_rate / ref_rate, 1) if ref_rate else None,
    }


def agreement_check(queries: int, seed: int) -> dict[str, int]:
    """Run ``queries`` random queries; count disagreements between the fast linkable set, the
    exact best path and the reference (linkable yes/no and (turns, length))."""
    rng = random.Random(seed)
    done = disagree = linkable = 0
    while done < queries:
        width = rng.randint(1, 24)
        height = rng.randint(2 if width == 1 else 1, 14)
        board = random_board(
            rng,
            width,
            height,
            rng.choice((0.1, 0.3, 0.5, 0.7, 0.9, 1.0)),
            rng.choice((0.0, 0.0, 0.05, 0.15)),
            rng.randint(1, 4),
        )
        rules = Rules(rng.randint(0, 3), rng.random() < 0.5)
        tiles = board.tiles()
        if len(tiles) < 2:
            continue
        lay = board.layout
        free = board.free_mask(rules.outside)
        a = tiles[rng.randrange(len(tiles))]
        ref = reference_all(board, a, rules)
        fast = set(
            lay.positions(
                linkable_mask(
                    1 << lay.bit(*a), free, board.occupied_mask(), rules.max_turns, lay.stride
                )
            )
        )
        for b in tiles:
            if b == a:
                continue
            path = find_link(lay, free, a, b, rules)
            got = None if path is None else (path.turns, path.length)
            want = ref.get(b)
            done += 1
            linkable += want is not None
            if got != want or (b in fast) != (want is not None):
                disagree += 1
    return {"queries": done, "linkable": linkable, "disagreements": disagree}


def register(app: typer.Typer) -> None:
    """Add ``paths`` to the bench app."""

    @app.command("paths")
    def bench_paths(
        boards: Annotated[
            Path | None,
            typer.Option(help=BOARDS_HELP),
        ] = None,
        sizes: Annotated[str, typer.Option(help="Comma-separated sizes, e.g. 12x8,18x10.")] = "",
        repeats: Annotated[int, typer.Option(min=1, help="Runs per measurement (median).")] = 5,
        check: Annotated[
            int, typer.Option(min=0, help="Random queries cross-checked against the reference.")
        ] = 100_000,
        seed: Annotated[int, typer.Option(help="Seed for half-clearing and the check.")] = 1,
        as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    ) -> None:
        """Queries per second of the exact best path and of "linkable tiles from a cell", on
        the benchmark boards full and half cleared, the ratio to the slow reference, and a
        large randomised agreement check."""
        loaded = boards_for_command(boards, sizes)
        by_size: dict[str, list[BenchBoard]] = {}
        for item in loaded:
            by_size.setdefault(f"{item.board.width}x{item.board.height}", []).append(item)
        report: dict[str, Any] = {"sizes": {}}
        for size, items in by_size.items():
            full = [(i.board, i.rules) for i in items]
            half = [
                (_half_cleared(i.board, i.rules, seed + n), i.rules) for n, i in enumerate(items)
            ]
            report["sizes"][size] = {
                "full": _measure(full, repeats, 300),
                "half": _measure(half, repeats, 300),
            }
            if not as_json:
                for variant in ("full", "half"):
                    r = report["sizes"][size][variant]
                    typer.echo(
                        f"{size:>6} {variant}: all pairs"
                        f" {r['all_pairs_boards_per_s']:>6,} boards/s;"
                        f" linkable {r['linkable_per_s']:>8,}/s"
                        f" ({r['pair_answers_per_s']:>9,} pair answers/s);"
                        f" path {r['path_per_s']:>7,}/s"
                        f" (linked pairs {r['linked_path_per_s']:>6,}/s);"
                        f" reference {r['reference_per_s']:>5,}/s;"
                        f" path/reference x{r['path_vs_reference']}"
                    )
        if check:
            report["check"] = agreement_check(check, seed)
            if not as_json:
                c = report["check"]
                typer.echo(
                    f"agreement: {c['disagreements']} disagreements over {c['queries']:,} random"
                    f" queries ({c['linkable']:,} linkable)"
                )
        if as_json:
            typer.echo(json.dumps(report, indent=2))
