"""Hints and solvable shuffles for the Onet variants: sliding tiles and stacked layers.

The play engine of :mod:`levelgen.linkup.play.game` keeps a live move list updated incrementally,
which relies on monotonicity and a flat board; the variants take a simpler path here.

- Legal moves are recomputed from the playing state of :mod:`levelgen.linkup.core.variant_state`
  (top tiles for layers; the cells of the moment under a sliding rule), each with its exact best
  path.
- A hint is the most natural safe move found (:func:`levelgen.linkup.core.natural.natural_key`:
  fewest turns, then the shortest path, then reading order), as the classic hint gives.  The variant
  solver (:func:`levelgen.linkup.solvers.solve`, which dispatches to
  :mod:`levelgen.linkup.solvers.variant_search`) solves the position; its first move is safe.  The
  legal moves more natural than that one are walked in natural order: with layers a move of
  the solution (the same two tiles) is safe at once (monotonicity,
  :mod:`levelgen.linkup.core.layers`: play it first, then the other steps in their order, each given
  its best path at its moment); the first ``VARIANT_NATURAL_TRIES`` other moves are each played and
  the position after it searched with a small node budget (``NATURAL_NODES`` of the classic hint
  under a sliding rule, ``LAYERS_NATURAL_NODES`` with layers, whose nodes cost more), a solution
  proving it safe.
  Under a sliding rule only such proofs count: playing a later step first changes where the
  tiles slide.  When nothing more natural is proved, the hint is the solver's first move.  The
  proof is replayed once more by :func:`levelgen.linkup.verify.variants.replay_variant`.  ``lost``
  only with the solver's proof (or when no legal move is left); then, given the level and the
  played moves, the move that lost the game is found by the binary search over prefixes of
  :mod:`levelgen.linkup.play.hint` (valid for any rule), each prefix replayed on the variant state.
  Running out of budget is ``undecided``, with the most natural legal move offered unproved.
- A shuffle reuses the identity-based generator of :mod:`levelgen.linkup.generate.variants`: the
  tiles now on the board are the template (under sliding: exactly the cells they occupy now;
  with layers: the same stacks), a removal order is found on identities, then the remaining
  kinds are dealt to its pairs.  By occupancy invariance with identities the order clears the
  dealt board; the certificate is replayed before the result is returned.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ...formats.words import plural, remain
from ..core.board import Board
from ..core.layers import Stacks
from ..core.moves import Move
from ..core.natural import natural_key
from ..core.rules import Rules
from ..core.variant_state import VariantState, is_variant, state_of
from ..verify.variants import replay_variant
from .hint import NATURAL_NODES, HintResult, search_lost_at
from .shuffle import (
    DEFAULT_SHUFFLE_ATTEMPTS,
    ShuffleResult,
    check_shuffle_arguments,
    settled_shuffle,
)

if TYPE_CHECKING:
    from ..solvers import Budget, SolveResult

__all__ = [
    "LAYERS_NATURAL_NODES",
    "VARIANT_NATURAL_TRIES",
    "is_variant",
    "variant_hint",
    "variant_legal_moves",
    "variant_lost_at",
    "variant_shuffle",
]

#: Legal moves more natural than the solver's first move that a variant hint tries to prove
#: safe on their own (by a small search of the position after the move).
VARIANT_NATURAL_TRIES = 3
#: Search nodes for each of those tries with layers: fewer than the classic hint's
#: ``NATURAL_NODES`` (used under a sliding rule), as a node of the layered search costs more
#: (a 16x9 pyramid of 5 layers: about 2 ms a node, against about 0.1 ms under a slide).
LAYERS_NATURAL_NODES = 60


def _moves_of(state: VariantState) -> list[Move]:
    pos = state.layout.pos
    moves = []
    for a_bit, b_bit in sorted(state.legal_pairs()):
        a, b = pos(a_bit), pos(b_bit)
        path = state.find_path(a, b)
        if path is None:  # pragma: no cover - legal_pairs promised a link
            raise AssertionError(f"no path for legal pair {a} {b}")
        moves.append(Move(a, b, state.top(a), path))
    return moves


def variant_legal_moves(board: Board, rules: Rules) -> list[Move]:
    """Every legal move of the variant ``board`` now (top tiles, positions of this moment),
    with its exact best path, in reading order of the first tile, then the second."""
    return _moves_of(state_of(board, rules))


def variant_hint(
    board: Board,
    rules: Rules,
    budget: Budget | None = None,
    *,
    method: str = "auto",
    natural_tries: int = VARIANT_NATURAL_TRIES,
    start: Board | None = None,
    played: Sequence[Move] = (),
) -> HintResult:
    """The hint for the variant position ``board`` (see the module docstring).

    ``natural_tries``: how many legal moves more natural than the solver's first move are
    tried on their own, each by a search of the position after it of at most
    :data:`levelgen.linkup.play.hint.NATURAL_NODES` nodes (:data:`LAYERS_NATURAL_NODES` with
    layers). ``start`` and ``played``: the level's board and the moves played since (each in the
    positions of its moment), which lead to ``board``; given, a lost game says which move lost
    it (``lost_at``) and how many moves to undo."""
    from ..solvers import SolveStatus, solve

    state = state_of(board, rules)
    if state.tile_count() == 0:
        return HintResult("won", proved=True, reason="no tiles are left: the game is won")
    moves = _moves_of(state)
    if not moves:
        at, undo, note = _lost_at(start, rules, played, budget, method)
        return HintResult(
            "lost",
            proved=True,
            reason=f"no legal move is left and {remain(state.tile_count(), 'tile')}" + note,
            lost_at=at,
            undo=undo,
            method="rules",
        )
    result = solve(board, rules, budget=budget, method=method)
    if result.status is SolveStatus.SOLVED and result.moves:
        solution = tuple(result.moves)
        found = _natural_safe(state, board, rules, moves, solution, budget, natural_tries)
        if found is not None:
            return _proved_hint(board, rules, found[0], found[1], result.method)
        return _proved_hint(board, rules, solution, "the solver's first move", result.method)
    if result.status is SolveStatus.UNSOLVABLE:
        at, undo, note = _lost_at(start, rules, played, budget, method)
        return HintResult(
            "lost",
            proved=True,
            reason=(result.reason or "no removal order clears this position") + note,
            deadlock=result.deadlock,
            lost_at=at,
            undo=undo,
            method=result.method,
        )
    offered = min(moves, key=natural_key)
    return HintResult(
        "undecided",
        offered,
        reason=f"undecided: {result.reason}" if result.reason else "undecided within the budget",
        method=result.method,
    )


def _natural_safe(
    state: VariantState,
    board: Board,
    rules: Rules,
    moves: list[Move],
    solution: tuple[Move, ...],
    budget: Budget | None,
    natural_tries: int,
) -> tuple[tuple[Move, ...], str] | None:
    """The most natural legal move proved safe, with its proof and why, or None when that is
    the solver's first move (or nothing more natural is proved).  The legal moves are walked
    in natural order up to the solver's first move: with layers a move of ``solution`` (the
    same two tiles) is safe at once (monotonicity: play it first, then the others in their
    order); the first ``natural_tries`` other moves are each tried with a small search of the
    position after it."""
    from ..solvers import Budget, SolveStatus, solve

    first = {solution[0].a, solution[0].b}
    tiles = _solution_tiles(state, solution) if isinstance(state, Stacks) else None
    stop = budget.should_stop if budget is not None else None
    limit = LAYERS_NATURAL_NODES if isinstance(state, Stacks) else NATURAL_NODES
    if budget is not None and budget.max_nodes is not None:
        limit = min(limit, budget.max_nodes)
    tries = 0
    for move in sorted(moves, key=natural_key):
        if {move.a, move.b} == first:
            return None
        if isinstance(state, Stacks) and tiles is not None:
            key = frozenset(((move.a, state.height(move.a)), (move.b, state.height(move.b))))
            if key in tiles:
                order = _played_first(state, solution, tiles[key])
                if order is not None:
                    return order, "a move of a solution, played first (layers: monotonicity)"
        if tries == natural_tries or (stop is not None and stop()):
            continue
        tries += 1
        after = state.copy()
        after.remove_pair(move.a, move.b)
        rest = solve(after.to_board(), rules, budget=Budget(limit, stop), method="search")
        if rest.status is SolveStatus.SOLVED:
            return (move, *(rest.moves or ())), "the most natural move proved safe"
    return None  # pragma: no cover - the solver's first move is legal, so the loop returns


def _solution_tiles(state: Stacks, solution: tuple[Move, ...]) -> dict[frozenset[object], int]:
    """For each step of ``solution`` (of the stacks ``state``), its two tiles as ``(cell,
    stack height when removed)``, mapped to the step's index."""
    replay = state.copy()
    out: dict[frozenset[object], int] = {}
    for i, m in enumerate(solution):
        out[frozenset(((m.a, replay.height(m.a)), (m.b, replay.height(m.b))))] = i
        replay.remove_pair(m.a, m.b)
    return out


def _played_first(state: Stacks, solution: tuple[Move, ...], index: int) -> tuple[Move, ...] | None:
    """``solution`` with step ``index`` (legal now) played first and every other step in its
    order with its exact best path at its moment, or None if a step has no path (cannot
    happen by monotonicity; checked rather than trusted)."""
    replay = state.copy()
    out = []
    for m in (solution[index], *solution[:index], *solution[index + 1 :]):
        path = replay.find_path(m.a, m.b)
        if path is None:  # pragma: no cover - monotonicity
            return None
        out.append(Move(m.a, m.b, replay.top(m.a), path))
        replay.remove_pair(m.a, m.b)
    return tuple(out)


def _proved_hint(
    board: Board, rules: Rules, solution: tuple[Move, ...], which: str, method: str
) -> HintResult:
    problems = replay_variant(board, rules, solution)
    if problems:  # pragma: no cover - the solver replays its solutions
        raise AssertionError(f"variant hint proof does not replay: {problems[0]}")
    return HintResult(
        "hint",
        solution[0],
        proved=True,
        solution=solution,
        reason=f"{which}: a solution of {plural(len(solution), 'move')} starts with it (replayed)",
        method=method,
    )


def _lost_at(
    start: Board | None,
    rules: Rules,
    played: Sequence[Move],
    budget: Budget | None,
    method: str,
) -> tuple[int | None, int | None, str]:
    """``(lost_at, undo, note)`` of a lost variant game (None, None, "" without a history)."""
    if start is None or not played:
        return None, None, ""
    at, why = variant_lost_at(start, rules, played, budget, method, known_lost=True)
    if at is None:
        return None, None, f"; {why}" if why else ""
    undo = len(played) - at
    return at, undo, f"; the game was lost by move {at} (undo {undo})"


def variant_lost_at(
    start: Board,
    rules: Rules,
    played: Sequence[Move],
    budget: Budget | None = None,
    method: str = "auto",
    *,
    known_lost: bool = False,
) -> tuple[int | None, str]:
    """:func:`levelgen.linkup.play.hint.lost_at` for a variant game: the index into ``played`` (each
    move in the positions of its moment) of the move after which the game can no longer be
    won, by binary search over the prefixes, or None with a note.  A solution found for prefix
    ``k`` that starts with the played moves ``k, k + 1, ...`` (the same cells) proves those
    longer prefixes solvable too."""
    from ..solvers import solve

    state = state_of(start, rules)
    boards = [state.to_board()]
    for m in played:
        state.remove_pair(m.a, m.b)
        boards.append(state.to_board())

    def probe(k: int) -> SolveResult:
        return solve(boards[k], rules, budget=budget, method=method)

    def extend(k: int, result: SolveResult) -> int:
        for m in result.moves or ():
            if k == len(played) or {m.a, m.b} != {played[k].a, played[k].b}:
                break
            k += 1
        return k

    return search_lost_at(len(played), probe, extend, known_lost=known_lost)


def variant_shuffle(
    board: Board,
    rules: Rules,
    seed: int,
    *,
    min_moves: int = 1,
    budget: Budget | None = None,
    max_attempts: int = DEFAULT_SHUFFLE_ATTEMPTS,
) -> ShuffleResult:
    """A solvable re-deal of the tiles of the variant ``board`` over the cells (stacks) they
    occupy now, with a replayed certificate; answers as
    :func:`levelgen.linkup.play.shuffle.shuffle`.
    """
    from ..generate.variants import generate_variant

    check_shuffle_arguments(seed, min_moves)

    def answer(status: str, reason: str = "", attempts: int = 0) -> ShuffleResult:
        return ShuffleResult(status, rules, seed, min_moves, attempts=attempts, reason=reason)

    state = state_of(board, rules)
    counts = dict(state.kind_counts() if isinstance(state, Stacks) else board.kind_counts())
    settled = settled_shuffle(board, rules, seed, min_moves, counts)
    if settled is not None:
        return settled
    per_kind = [counts.get(kind, 0) for kind in range(1, max(counts) + 1)]
    only_one = len(counts) == 1
    rng = random.Random(seed)
    stop = budget.should_stop if budget is not None else None
    best_moves = 0
    for attempt in range(1, max_attempts + 1):
        if stop is not None and stop():
            return answer("failed", f"the budget ran out after {attempt - 1} playouts", attempt - 1)
        try:
            level = generate_variant(
                board,
                per_kind,
                rules=rules,
                seed=rng.randrange(2**53),
                max_attempts=1,
                parameters={},
            )
        except ValueError:
            continue  # this playout reached a dead end
        new = level.board
        if new == board and not only_one:
            continue
        n = len(state_of(new, rules).legal_pairs())
        best_moves = max(best_moves, n)
        if n < min_moves:
            continue
        assert level.solution is not None
        problems = replay_variant(new, rules, level.solution)
        if problems:  # pragma: no cover - generate_variant replays too
            raise AssertionError(f"shuffled board does not replay: {problems[0]}")
        return ShuffleResult(
            "shuffled", rules, seed, min_moves, new, level.solution, only_one, n, attempt
        )
    detail = (
        f" (the most legal moves of a deal was {best_moves}, fewer than {min_moves})"
        if best_moves
        else " (every playout reached a dead end or dealt the input again)"
    )
    return answer(
        "failed", f"no solvable re-deal found in {max_attempts} playouts{detail}", max_attempts
    )
