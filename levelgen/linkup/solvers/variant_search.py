"""Exact solvers for variant boards: sliding tiles and stacked layers.

One depth-first search over the states of :mod:`levelgen.linkup.core.variant_state`, with a
three-way status: ``SOLVED`` (with moves), ``UNSOLVABLE`` (every reachable state expanded, or a kind
with an odd number of tiles), ``UNKNOWN`` (budget).  What the memo holds and what may be pruned
depends on the variant, because of what each one keeps of the two facts in
:mod:`levelgen.linkup.core.rules`:

* Sliding: monotonicity fails (a slide can close a path), so there is no safe-move closure and
  no pruning that assumes removals only help.  Tiles move, so the memo key is every cell's
  value (positions *and* kinds): two sequences that leave the same cells lead to the same
  futures.  A state is recorded as dead only after all of its children were expanded or were
  dead already, so every skip is justified.
* Layers: both facts hold (see :mod:`levelgen.linkup.core.layers`), so the key is the stack heights
  (the kinds of each stack are fixed by the board) and the safe-move closure of the classic search
  carries over: when the last two tiles of a kind are both on top and linkable, removing them
  at once loses no solution (the proof of fact 2 with "occupied set" read as "heights").

``search`` uses the bounded two-generation memo of the classic search and, for layers, the
closure, trying pairs from the highest layer down (removing high tiles opens paths at every
height).  ``exhaustive`` is the plain baseline: no closure, pairs in plain order, an unbounded
visited set; the tests check that both agree.  CP-SAT has no model of these rules:
:func:`levelgen.linkup.solvers.solve` answers ``UNKNOWN`` ("not supported") for ``cpsat`` and
``auto`` runs the search alone.
"""

from __future__ import annotations

from typing import Literal

from ...formats.words import plural
from ..core.board import Board
from ..core.geometry import Pos
from ..core.layers import Stacks
from ..core.layers_analysis import stacking_deadlock
from ..core.moves import Move
from ..core.rules import Rules
from ..core.variant_state import VariantState, state_of
from .base import Budget, SolveResult, SolveStats, SolveStatus
from .common import POLL_NODES, DeadMemo, odd_kinds_text, timed_stats

__all__ = ["build_variant_moves", "solve_variant", "unsupported_result"]


def solve_variant(board: Board, rules: Rules, budget: Budget, *, method: str) -> SolveResult:
    """Decide the variant ``board`` with ``method`` ``"search"`` or ``"exhaustive"`` (see the
    module docstring)."""
    stats, finish = timed_stats(budget)
    name = f"{method} (variant)"
    start = state_of(board, rules)
    odd = _odd_kinds(board)
    if odd:
        named = odd_kinds_text(odd)
        return finish(
            SolveResult(
                SolveStatus.UNSOLVABLE,
                stats=stats,
                reason=f"tiles leave in pairs, but {named}",
                method=name,
            )
        )
    plain = method == "exhaustive"
    closure = not plain and isinstance(start, Stacks)
    memo: DeadMemo | set[tuple[int, ...]] = set() if plain else DeadMemo()
    if not plain and isinstance(start, Stacks):
        why = stacking_deadlock(start.stacks)
        if why is not None:
            return finish(SolveResult(SolveStatus.UNSOLVABLE, stats=stats, reason=why, method=name))
    found = _dfs(
        start, budget, stats, closure=closure, ordered=not plain, memo=memo, prune=not plain
    )
    stats.counters["memo"] = len(memo)
    if found is None:
        return finish(
            SolveResult(
                SolveStatus.UNKNOWN,
                stats=stats,
                reason=f"undecided after {plural(stats.nodes, 'node')}: the budget ran out",
                method=name,
            )
        )
    if found is False:
        return finish(
            SolveResult(
                SolveStatus.UNSOLVABLE,
                stats=stats,
                reason=f"no removal order clears the board: every reachable state"
                f" ({stats.nodes} expanded) was tried",
                method=name,
            )
        )
    moves = build_variant_moves(board, rules, found)
    return finish(SolveResult(SolveStatus.SOLVED, moves=moves, stats=stats, method=name))


def unsupported_result(rules: Rules) -> SolveResult:
    """CP-SAT's answer for a variant board: ``UNKNOWN``, not supported."""
    what = f"slide {rules.slide}" if rules.slide != "none" else "stacked layers"
    return SolveResult(
        SolveStatus.UNKNOWN,
        reason=f"the CP-SAT solver does not support {what}; use the search method",
        method="cpsat",
    )


def build_variant_moves(
    board: Board, rules: Rules, pairs: list[tuple[Pos, Pos]]
) -> tuple[Move, ...]:
    """The moves removing ``pairs`` (positions of each moment) in order, with exact best paths;
    ``AssertionError`` when a pair is not legal then (a solver bug)."""
    state = state_of(board, rules)
    moves = []
    for a, b in pairs:
        kind = state.top(a)
        path = state.find_path(a, b) if kind >= 1 and kind == state.top(b) else None
        if path is None:
            raise AssertionError(f"variant solver produced an illegal step {a} {b}")
        moves.append(Move(a, b, kind, path))
        state.remove_pair(a, b)
    return tuple(moves)


def _odd_kinds(board: Board) -> dict[int, int]:
    counts: dict[int, int] = {}
    for layer in (board.cells, *board.upper):
        for v in layer:
            if v >= 1:
                counts[v] = counts.get(v, 0) + 1
    return {k: n for k, n in sorted(counts.items()) if n % 2}


def _pairs(state: VariantState, ordered: bool) -> list[tuple[Pos, Pos]]:
    """The legal pairs of ``state`` in the order to try them (first first)."""
    lay = state.layout
    pairs = [(lay.pos(a), lay.pos(b)) for a, b in state.legal_pairs()]
    if ordered and isinstance(state, Stacks):
        pairs.sort(key=lambda p: -(state.height(p[0]) + state.height(p[1])))
    return pairs


def _close(state: VariantState) -> list[tuple[Pos, Pos]]:
    """Apply safe moves to a layered ``state`` until none is left (see the module docstring);
    the moves applied, in order."""
    assert isinstance(state, Stacks)
    done: list[tuple[Pos, Pos]] = []
    lay = state.layout
    counts = state.kind_counts()
    while True:
        progress = False
        for kind, by_layer in sorted(state.top_kind_masks().items()):
            if counts.get(kind) != 2 or sum(m.bit_count() for m in by_layer) != 2:
                continue
            layer = next(i for i, m in enumerate(by_layer) if m)
            a_bit = (by_layer[layer] & -by_layer[layer]).bit_length() - 1
            hit = state.linkable_from(a_bit, layer, by_layer)
            if hit:
                a, b = lay.pos(a_bit), lay.pos(hit.bit_length() - 1)
                if (b.y, b.x) < (a.y, a.x):
                    a, b = b, a
                state.remove_pair(a, b)
                done.append((a, b))
                progress = True
                break  # the masks changed: look again
        if not progress:
            return done


def _dfs(
    start: VariantState,
    budget: Budget,
    stats: SolveStats,
    *,
    closure: bool,
    ordered: bool,
    prune: bool = False,
    memo: DeadMemo | set[tuple[int, ...]],
) -> list[tuple[Pos, Pos]] | Literal[False] | None:
    """The removal sequence found, ``False`` when there is none, ``None`` when the budget ran
    out."""
    root = start.copy()
    first = _close(root) if closure else []
    stats.nodes = 1
    if not root.tile_count():
        return first
    taken: list[list[tuple[Pos, Pos]]] = [first]
    frames: list[tuple[VariantState, list[tuple[Pos, Pos]]]] = [(root, _pairs(root, ordered)[::-1])]
    while frames:
        state, untried = frames[-1]
        if not untried:
            memo.add(state.key())
            frames.pop()
            taken.pop()
            continue
        a, b = untried.pop()
        child = state.copy()
        child.remove_pair(a, b)
        steps = [(a, b), *(_close(child) if closure else [])]
        key = child.key()
        if key in memo:
            continue
        if prune and isinstance(child, Stacks) and stacking_deadlock(child.stacks):
            memo.add(key)
            stats.counters["stacking_deadlocks"] = stats.counters.get("stacking_deadlocks", 0) + 1
            continue
        if budget.max_nodes is not None and stats.nodes >= budget.max_nodes:
            return None
        stop = budget.should_stop
        if stop is not None and stats.nodes % POLL_NODES == 0 and stop():
            return None
        stats.nodes += 1
        taken.append(steps)
        if not child.tile_count():
            return [step for group in taken for step in group]
        frames.append((child, _pairs(child, ordered)[::-1]))
    return False
