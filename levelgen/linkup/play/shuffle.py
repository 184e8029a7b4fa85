"""A shuffle that is solvable: re-deal the remaining tiles, with a certificate.

Games shuffle when the player is stuck; the usual shuffle only promises one legal move and may
deal a position that can never be won.  This one permutes the kinds of the remaining tiles
over the remaining tile cells (walls, holes and empty cells stay where they are) so that the
result is solvable, proved by a removal sequence, and has at least ``min_moves`` legal moves
at once.

It reuses the generator's machinery rather than being a second generator.  By occupancy
invariance a removal order found on the remaining cells alone
(:func:`levelgen.linkup.generate.playout.random_removal_order`, one seeded playout per attempt)
clears the board whatever kinds are dealt to its pairs, as long as both cells of a pair get one
kind; the kinds of the remaining tiles, taken two by two, are then shuffled over the pairs
(:func:`levelgen.linkup.generate.playout.deal`), a few deals per order.  A deal is kept when it has
at least ``min_moves`` legal moves and differs from the input; the input arrangement comes back only
when it is the only one (every tile of one kind).  The sequence is replayed by
:func:`levelgen.linkup.verify.replay` before the result is returned.  So it works on any position:
stuck, unsolvable, or half played.

Answers: ``shuffled`` (with the board and its certificate), ``impossible`` (proved: a kind has
an odd number of tiles, or no two remaining cells can be linked at all), ``failed`` (no deal
met the conditions within ``max_attempts`` playouts or the budget: not a proof).
Deterministic: everything random comes from ``random.Random(seed)``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...formats.version import VERSION as __version__
from ..core.board import Board, iter_bits
from ..core.level import GENERATOR_SHUFFLE, GeneratorInfo, Level
from ..core.moves import Move, legal_pairs
from ..core.reach import linkable_mask
from ..core.rules import Rules
from ..generate.playout import deal, random_removal_order
from ..verify import replay

if TYPE_CHECKING:
    from ..solvers import Budget

__all__ = ["DEFAULT_SHUFFLE_ATTEMPTS", "SHUFFLE_STATUSES", "ShuffleResult", "shuffle"]


#: Playouts tried before a shuffle gives up (each followed by a few deals).
DEFAULT_SHUFFLE_ATTEMPTS = 100
#: Kind deals tried on each removal order.
DEALS_PER_ORDER = 8
#: The statuses of a :class:`ShuffleResult`.
SHUFFLE_STATUSES = ("shuffled", "impossible", "failed")


@dataclass(frozen=True, slots=True)
class ShuffleResult:
    """The answer of :func:`shuffle`.

    ``status``: one of :data:`SHUFFLE_STATUSES`.  ``board``: the shuffled position (None unless
    ``shuffled``); ``solution``: its certificate, a removal sequence with exact best paths.
    ``same_as_input``: the result is the input arrangement because no other exists.
    ``legal_moves``: legal moves on the shuffled board.  ``attempts``: playouts used.
    ``reason``: one sentence for ``impossible`` / ``failed``."""

    status: str
    rules: Rules
    seed: int
    min_moves: int
    board: Board | None = None
    solution: tuple[Move, ...] = ()
    same_as_input: bool = False
    legal_moves: int = 0
    attempts: int = 0
    reason: str = ""

    def level(self) -> Level:
        """The shuffled position as a level with its solution and metrics (provenance: this
        shuffle's seed and ``min_moves``).  ``ValueError`` unless ``shuffled``."""
        from ..difficulty import solution_metrics

        if self.board is None:
            raise ValueError(f"the shuffle {self.status}: there is no level to write")
        return Level(
            self.board,
            self.rules,
            self.solution,
            solution_metrics(self.board, self.rules, self.solution),
            GeneratorInfo(GENERATOR_SHUFFLE, __version__, self.seed, {"min_moves": self.min_moves}),
        )


def shuffle(
    board: Board,
    rules: Rules,
    seed: int,
    *,
    min_moves: int = 1,
    budget: Budget | None = None,
    max_attempts: int = DEFAULT_SHUFFLE_ATTEMPTS,
) -> ShuffleResult:
    """A solvable re-deal of the tiles of ``board`` (see the module docstring).

    ``seed``: a non-negative integer fixing the result.  ``min_moves``: legal moves the
    result must offer at once.  ``budget``: its ``should_stop`` is polled between attempts.
    ``ValueError`` naming the argument for a bad seed, ``min_moves`` or ``max_attempts``."""
    check_shuffle_arguments(seed, min_moves)
    if isinstance(max_attempts, bool) or not isinstance(max_attempts, int) or max_attempts < 1:
        raise ValueError(f"max_attempts must be an integer >= 1, got {max_attempts!r}")
    from ..core.variant_support import refuse_variants

    refuse_variants(board, rules, "shuffle")

    def answer(status: str, reason: str = "", attempts: int = 0) -> ShuffleResult:
        return ShuffleResult(status, rules, seed, min_moves, attempts=attempts, reason=reason)

    counts = board.kind_counts()
    settled = settled_shuffle(board, rules, seed, min_moves, counts)
    if settled is not None:
        return settled
    if not _any_link(board, rules):
        return answer(
            "impossible",
            "no two of the remaining tile cells can be linked under these rules,"
            " whatever their kinds",
        )
    pair_kinds = [kind for kind, n in counts.items() for _ in range(n // 2)]
    only_one = len(counts) == 1
    rng = random.Random(seed)
    stop = budget.should_stop if budget is not None else None
    lay = board.layout
    free = board.free_mask(rules.outside)
    best_moves = 0
    for attempt in range(1, max_attempts + 1):
        if stop is not None and stop():
            return answer("failed", f"the budget ran out after {attempt - 1} playouts", attempt - 1)
        order = random_removal_order(board, rules, rng, max_attempts=1)
        if order is None:
            continue
        for _ in range(DEALS_PER_ORDER):
            rng.shuffle(pair_kinds)
            new, moves = deal(board, rules, order, pair_kinds)
            if new.cells == board.cells and not only_one:
                continue
            n = len(legal_pairs(new.kind_masks().values(), free, rules.max_turns, lay.stride))
            best_moves = max(best_moves, n)
            if n < min_moves:
                continue
            problems = replay(new, rules, moves)
            if problems:  # pragma: no cover - a bug
                raise AssertionError(f"shuffled board does not replay: {problems[0]}")
            return ShuffleResult(
                "shuffled", rules, seed, min_moves, new, moves, only_one, n, attempt
            )
    detail = (
        f" (the most legal moves of a deal was {best_moves}, fewer than {min_moves})"
        if best_moves
        else " (every playout reached a dead end or dealt the input again)"
    )
    return answer(
        "failed", f"no solvable re-deal found in {max_attempts} playouts{detail}", max_attempts
    )


def _any_link(board: Board, rules: Rules) -> bool:
    """True when some two tile cells can be linked, kinds ignored."""
    lay = board.layout
    occ = board.occupied_mask()
    free = board.free_mask(rules.outside)
    return any(
        linkable_mask(1 << a, free, occ ^ (1 << a), rules.max_turns, lay.stride)
        for a in iter_bits(occ)
    )


def check_shuffle_arguments(seed: int, min_moves: int) -> None:
    """``ValueError`` unless ``seed`` and ``min_moves`` are integers >= 0."""
    for name, value, low in (("seed", seed, 0), ("min_moves", min_moves, 0)):
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            raise ValueError(f"{name} must be an integer >= {low}, got {value!r}")


def settled_shuffle(
    board: Board, rules: Rules, seed: int, min_moves: int, counts: dict[int, int]
) -> ShuffleResult | None:
    """The answer when the tile ``counts`` (kind -> tiles left) settle a shuffle before any
    deal: a kind with an odd count (impossible), or no tile left; None otherwise.  Shared by
    the classic shuffle and the variants' (:mod:`levelgen.linkup.play.variants`)."""
    odd = sorted(kind for kind, n in counts.items() if n % 2)
    if odd:
        return ShuffleResult(
            "impossible",
            rules,
            seed,
            min_moves,
            reason=f"kind {odd[0]} has {counts[odd[0]]} tiles, an odd number: no arrangement"
            " of these tiles can be cleared",
        )
    if not counts:
        if min_moves:
            reason = "no tiles are left, so no move can be offered"
            return ShuffleResult("impossible", rules, seed, min_moves, reason=reason)
        return ShuffleResult("shuffled", rules, seed, min_moves, board, same_as_input=True)
    return None
