"""Pieces shared by the search solvers: timed statistics, the odd-count check, the budget poll
interval, and turning a sequence of removed bit pairs into ``Move`` values with exact best paths.

Best paths are computed here, once, on the board as it is at each step of the final sequence:
the searches themselves only ever ask the bitboard question "linkable or not".
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence

from ..core.board import Board
from ..core.moves import Move
from ..core.paths import find_link
from ..core.rules import Rules
from .base import Budget, SolveResult, SolveStats, SolveStatus

__all__ = [
    "MEMO_LIMIT",
    "POLL_NODES",
    "DeadMemo",
    "build_moves",
    "odd_kinds_result",
    "odd_kinds_text",
    "timed_stats",
]

#: Dead states kept per memo generation (two generations: at most twice this many in memory).
MEMO_LIMIT = 200_000

#: Nodes between two calls of ``Budget.should_stop``.
POLL_NODES = 128


def timed_stats(budget: Budget) -> tuple[SolveStats, Callable[[SolveResult], SolveResult]]:
    """Fresh statistics, and ``finish(result)`` which stamps on them the seconds since this call
    (read with ``budget.clock``; none without one) and returns ``result``."""
    clock = budget.clock
    start = clock() if clock else 0.0
    stats = SolveStats()

    def finish(result: SolveResult) -> SolveResult:
        if clock:
            stats.elapsed = clock() - start
        return result

    return stats, finish


#: Kinds named in a reason at most (a hand-made board may have hundreds with odd counts).
KINDS_SHOWN = 12


def odd_kinds_text(odd: Mapping[int, int]) -> str:
    """``kind 3 has 5, kind 7 has 1 tiles (an odd number)``: the first :data:`KINDS_SHOWN`
    kinds of ``odd`` (kind -> its odd count), then how many more kinds have an odd count."""
    named = ", ".join(f"kind {kind} has {n}" for kind, n in list(odd.items())[:KINDS_SHOWN])
    more = len(odd) - KINDS_SHOWN
    return f"{named} tiles (an odd number)" + (f", and {more} more kinds too" if more > 0 else "")


def odd_kinds_result(board: Board, method: str, stats: SolveStats) -> SolveResult | None:
    """``UNSOLVABLE`` when some kind has an odd number of tiles (tiles leave two at a time, so
    one of them can never go), naming the kinds; None when every count is even.  The deadlock
    core is every tile of those kinds."""
    odd = {kind: n for kind, n in board.kind_counts().items() if n % 2}
    if not odd:
        return None
    named = odd_kinds_text(odd)
    tiles = tuple(p for p in board.tiles() if board[p] in odd)
    return SolveResult(
        SolveStatus.UNSOLVABLE,
        stats=stats,
        reason=f"tiles leave in pairs, but {named}",
        deadlock=tiles,
        method=method,
    )


def build_moves(board: Board, rules: Rules, pairs: Sequence[tuple[int, int]]) -> tuple[Move, ...]:
    """The moves removing the bit pairs ``pairs`` (padded-layout indices) from ``board`` in
    order, each with its exact best path at that moment.  ``AssertionError`` when a pair is not
    a legal move then: a solver bug, never a user error."""
    lay = board.layout
    free = board.free_mask(rules.outside)
    occ = board.occupied_mask()
    moves = []
    for a_bit, b_bit in pairs:
        a, b = lay.pos(a_bit), lay.pos(b_bit)
        kind = board[a]
        pair = 1 << a_bit | 1 << b_bit
        path = (
            find_link(lay, free, a, b, rules) if kind == board[b] and occ & pair == pair else None
        )
        if path is None:
            raise AssertionError(f"solver produced an illegal step {a} {b}")
        moves.append(Move(a, b, kind, path))
        occ ^= pair
        free |= pair
    return tuple(moves)


class DeadMemo:
    """A bounded map from states proved dead to what explains them (or None), in two
    generations: when the new one holds ``limit`` states it becomes the old one and the
    previous old one is dropped.  Memory stays within ``2 * limit`` states; forgetting a state
    only costs proving it again."""

    def __init__(self, limit: int = MEMO_LIMIT) -> None:
        self.limit = limit
        self.new: dict[Hashable, object] = {}
        self.old: dict[Hashable, object] = {}
        self.evictions = 0

    def __contains__(self, key: Hashable) -> bool:
        return key in self.new or key in self.old

    def __len__(self) -> int:
        return len(self.new) + len(self.old)

    def get(self, key: Hashable) -> object:
        """What was stored with ``key`` (None when it is not here)."""
        if key in self.new:
            return self.new[key]
        return self.old.get(key)

    def add(self, key: Hashable, value: object = None) -> None:
        if len(self.new) >= self.limit:
            self.old, self.new = self.new, {}
            self.evictions += 1
        self.new[key] = value
