"""The plain exhaustive solver: the naive baseline the search solver is measured and tested
against.

A depth-first search over every legal pair of every state, in the order of
:func:`levelgen.linkup.core.moves.legal_pairs`, with one memory: the set of occupancy masks already
expanded.  Occupancy alone determines a state (kinds never move), and a state is expanded at
most once; since the search stops at the first solution, every state in that set that is not on
the current path is dead.  Nothing else is pruned: no safe moves, no relaxation, no move
ordering, and the visited set is unbounded.  That is the point: it shares nothing with
:mod:`levelgen.linkup.solvers.search` but the link test, so the two cross-check each other.

``UNSOLVABLE`` means every reachable state was expanded without clearing the board (or a kind
has an odd number of tiles); running out of budget is ``UNKNOWN``.
"""

from __future__ import annotations

from ...formats.words import plural
from ..core.board import Board
from ..core.moves import legal_pairs
from ..core.rules import Rules
from .base import Budget, SolveResult, SolveStats, SolveStatus
from .common import POLL_NODES, build_moves, odd_kinds_result, timed_stats

__all__ = ["solve_exhaustive"]

METHOD = "exhaustive"


def solve_exhaustive(board: Board, rules: Rules, budget: Budget) -> SolveResult:
    """Decide ``board`` by trying every legal pair in every state (see the module docstring).

    Returns ``SOLVED`` with moves, ``UNSOLVABLE`` after the whole state space was expanded (or
    for an odd kind count), or ``UNKNOWN`` when ``budget`` ran out."""
    stats, finish = timed_stats(budget)

    odd = odd_kinds_result(board, METHOD, stats)
    if odd is not None:
        return finish(odd)
    lay = board.layout
    stride, max_turns = lay.stride, rules.max_turns
    kinds = list(board.kind_masks().values())
    base_free = board.free_mask(rules.outside)
    start_occ = board.occupied_mask()
    visited: set[int] = set()

    def pairs_of(occ: int) -> list[tuple[int, int]]:
        free = base_free | (start_occ & ~occ)
        return legal_pairs([m & occ for m in kinds], free, max_turns, stride)

    # Explicit stack: one frame per state on the current path, holding its untried pairs.
    path: list[tuple[int, int]] = []
    stack: list[tuple[int, list[tuple[int, int]]]] = []
    occ = start_occ
    if occ:
        visited.add(occ)
        stats.nodes = 1
        stack.append((occ, pairs_of(occ)[::-1]))
    while stack:
        occ, untried = stack[-1]
        if not untried:
            stack.pop()
            if path:
                path.pop()
            continue
        a, b = untried.pop()
        child = occ ^ (1 << a) ^ (1 << b)
        if child in visited:
            continue
        if budget.max_nodes is not None and stats.nodes >= budget.max_nodes:
            stats.counters["visited"] = len(visited)
            return finish(_unknown(stats, "the node budget ran out"))
        if (
            budget.should_stop is not None
            and stats.nodes % POLL_NODES == 1
            and budget.should_stop()
        ):
            stats.counters["visited"] = len(visited)
            return finish(_unknown(stats, "stopped by the caller (time limit)"))
        stats.nodes += 1
        visited.add(child)
        path.append((a, b))
        if not child:
            break
        stack.append((child, pairs_of(child)[::-1]))
    stats.counters["visited"] = len(visited)
    if start_occ and not stack:
        return finish(
            SolveResult(
                SolveStatus.UNSOLVABLE,
                stats=stats,
                reason=f"no removal order clears the board: all {len(visited)} reachable"
                " states were tried",
                method=METHOD,
            )
        )
    moves = build_moves(board, rules, path)
    return finish(SolveResult(SolveStatus.SOLVED, moves=moves, stats=stats, method=METHOD))


def _unknown(stats: SolveStats, why: str) -> SolveResult:
    return SolveResult(
        SolveStatus.UNKNOWN,
        stats=stats,
        reason=f"undecided after {plural(stats.nodes, 'node')}: {why}",
        method=METHOD,
    )
