"""Hints and solvable shuffles for the Onet variants: sliding tiles and stacked layers.

The play engine of :mod:`levelgen.play` keeps a live move list updated incrementally, which
relies on monotonicity and a flat board; the variants take a simpler path here.

- Legal moves are recomputed from the playing state of :mod:`levelgen.variant_state` (top
  tiles for layers; the cells of the moment under a sliding rule), each with its exact best
  path.
- A hint is the first move of a solution of the current position found by the variant solver
  (:func:`levelgen.solvers.solve`, which dispatches to :mod:`levelgen.solvers.variant_search`);
  the rest of that solution is the proof, replayed once more by
  :func:`levelgen.variants_verify.replay_variant`.  ``lost`` only with the solver's proof
  (or when no legal move is left); running out of budget is ``undecided``, with a legal move
  offered unproved.
- A shuffle reuses the identity-based generator of :mod:`levelgen.generator_variants`: the
  tiles now on the board are the template (under sliding: exactly the cells they occupy now;
  with layers: the same stacks), a removal order is found on identities, then the remaining
  kinds are dealt to its pairs.  By occupancy invariance with identities the order clears the
  dealt board; the certificate is replayed before the result is returned.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from .board import Board
from .layers import Stacks
from .moves import Move
from .natural import natural_key
from .play_hint import HintResult
from .play_shuffle import (
    DEFAULT_SHUFFLE_ATTEMPTS,
    ShuffleResult,
    check_shuffle_arguments,
    settled_shuffle,
)
from .rules import Rules
from .variant_state import VariantState, is_variant, state_of
from .variants_verify import replay_variant

if TYPE_CHECKING:
    from .solvers import Budget

__all__ = ["is_variant", "variant_hint", "variant_legal_moves", "variant_shuffle"]


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
    board: Board, rules: Rules, budget: Budget | None = None, *, method: str = "auto"
) -> HintResult:
    """The hint for the variant position ``board`` (see the module docstring)."""
    from .solvers import SolveStatus, solve

    state = state_of(board, rules)
    if state.tile_count() == 0:
        return HintResult("won", proved=True, reason="no tiles are left: the game is won")
    moves = _moves_of(state)
    if not moves:
        return HintResult(
            "lost",
            proved=True,
            reason=f"no legal move is left and {state.tile_count()} tiles remain",
            method="rules",
        )
    result = solve(board, rules, budget=budget, method=method)
    if result.status is SolveStatus.SOLVED and result.moves:
        problems = replay_variant(board, rules, result.moves)
        if problems:  # pragma: no cover - solve replays every solution
            raise AssertionError(f"variant solution does not replay: {problems[0]}")
        first = result.moves[0]
        return HintResult(
            "hint",
            first,
            proved=True,
            solution=tuple(result.moves),
            reason=f"a solution of {len(result.moves)} moves starts with it (replayed)",
            method=result.method,
        )
    if result.status is SolveStatus.UNSOLVABLE:
        return HintResult(
            "lost",
            proved=True,
            reason=result.reason or "no removal order clears this position",
            deadlock=result.deadlock,
            method=result.method,
        )
    offered = min(moves, key=natural_key)
    return HintResult(
        "undecided",
        offered,
        reason=f"undecided: {result.reason}" if result.reason else "undecided within the budget",
        method=result.method,
    )


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
    occupy now, with a replayed certificate; answers as :func:`levelgen.play_shuffle.shuffle`.
    """
    from .generator_variants import generate_variant

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
