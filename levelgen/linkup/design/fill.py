"""Fill the rest: put tiles on given empty cells (slots) so that the whole board is solvable.

The tiles already painted keep their kinds.  The kinds placed are fixed first: one tile of
each painted kind whose count is odd (smallest kind first), then pairs, each of the kind in
``1..kinds`` that has the fewest tiles so far (the smallest such kind on a tie), so the counts
stay even and balanced.  ``kinds`` defaults to the larger of the highest kind painted and a
quarter of the slots (rounded, at least 1): about four tiles of each new kind.

Where they go is found by occupancy (see :mod:`levelgen.linkup.generate.playout`): a seeded
playout removes the tiles and slots two at a time, each pair linked at its moment, pairing
a painted tile only with a painted tile of its kind or with a slot (which then takes its
kind, while that kind has placements left), and two slots with a kind that has two
placements left.  A playout that clears everything gives the kinds of every slot and a removal
sequence; it is written out with exact paths and replayed by the verifier before it is
returned.  Playouts that reach a dead end are drawn again, until ``max_attempts`` or the
budget's ``should_stop``.  Pure: randomness only from ``random.Random(seed)``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from ...formats.budget import Budget
from ...formats.words import plural
from ..core.board import EMPTY, Board, iter_bits
from ..core.geometry import Pos
from ..core.moves import Move
from ..core.reach import linkable_mask
from ..core.rules import Rules

__all__ = [
    "DEFAULT_FILL_ATTEMPTS",
    "FILL_STATUSES",
    "FillError",
    "FillResult",
    "default_kinds",
    "fill_slots",
    "placed_kinds",
]

#: Playouts tried before a fill gives up.
DEFAULT_FILL_ATTEMPTS = 2000
#: The statuses of a :class:`FillResult`.
FILL_STATUSES = ("filled", "not-found")


class FillError(ValueError):
    """Slots that cannot be filled as asked: ``pointer`` (``/slots/3``, ``/slots``,
    ``/kinds``) and ``reason``."""

    def __init__(self, pointer: str, reason: str) -> None:
        self.pointer = pointer
        self.reason = reason
        super().__init__(f"{pointer}: {reason}")


@dataclass(frozen=True, slots=True)
class FillResult:
    """The answer of :func:`fill_slots`: ``status`` (one of :data:`FILL_STATUSES`), the filled
    ``board`` and its ``solution`` (``filled``), the kind put on each slot (``placed``, in the
    order of the slots), the playouts used and one sentence."""

    status: str
    board: Board | None = None
    solution: tuple[Move, ...] = ()
    placed: tuple[tuple[Pos, int], ...] = ()
    attempts: int = 0
    reason: str = ""


def default_kinds(board: Board, slots: int) -> int:
    """The ``kinds`` of a fill when none is given (see the module docstring)."""
    painted = max(board.kind_counts(), default=0)
    return max(painted, (slots + 2) // 4, 1)


def placed_kinds(board: Board, slots: int, kinds: int | None) -> list[int]:
    """The kinds a fill of ``slots`` cells places (see the module docstring), as a list;
    :class:`FillError` at ``/slots`` when no number of tiles on them can make every count
    even, at ``/kinds`` for a ``kinds`` below 1."""
    counts = board.kind_counts()
    odd = [kind for kind, n in counts.items() if n % 2]
    if slots < len(odd) or (slots - len(odd)) % 2:
        raise FillError(
            "/slots",
            f"{plural(slots, 'slot')} cannot make every kind's count even: "
            f"{plural(len(odd), 'kind')} {'has' if len(odd) == 1 else 'have'} an odd count, so"
            f" the slots must be at least {len(odd)} and differ from it by an even number",
        )
    if kinds is None:
        kinds = default_kinds(board, slots)
    if isinstance(kinds, bool) or not isinstance(kinds, int) or kinds < 1:
        raise FillError("/kinds", f"expected a whole number >= 1, got {kinds!r}")
    found = list(odd)
    tally = {kind: counts.get(kind, 0) for kind in range(1, kinds + 1)}
    for kind in odd:
        tally[kind] = tally.get(kind, 0) + 1
    for _ in range((slots - len(odd)) // 2):
        kind = min(range(1, kinds + 1), key=lambda k: (tally[k], k))
        tally[kind] += 2
        found += [kind, kind]
    return found


def check_slots(board: Board, slots: Sequence[tuple[int, int]]) -> list[Pos]:
    """The slots as cells; :class:`FillError` at ``/slots/i`` for one outside the board, not
    empty, or given twice."""
    cells: list[Pos] = []
    seen: set[Pos] = set()
    for i, (x, y) in enumerate(slots):
        p = Pos(x, y)
        where = f"/slots/{i}"
        if not board.is_inside(p):
            raise FillError(where, f"[{x}, {y}] is outside the {board.width}x{board.height} board")
        if board[p] != EMPTY:
            what = "a wall" if board[p] < 0 else f"a tile of kind {board[p]}"
            raise FillError(where, f"[{x}, {y}] holds {what}: slots must be empty cells")
        if p in seen:
            raise FillError(where, f"[{x}, {y}] is given twice")
        seen.add(p)
        cells.append(p)
    return cells


def fill_slots(
    board: Board,
    rules: Rules,
    slots: Sequence[tuple[int, int]],
    *,
    seed: int,
    budget: Budget,
    kinds: int | None = None,
    max_attempts: int = DEFAULT_FILL_ATTEMPTS,
) -> FillResult:
    """A kind on every slot of ``board`` such that the whole board can be cleared under
    ``rules`` (see the module docstring); :class:`FillError` for slots that cannot be filled,
    ``ValueError`` for a board of stacked layers or a sliding rule."""
    from ..core.variant_support import refuse_variants
    from ..generate.playout import deal
    from ..verify import replay

    refuse_variants(board, rules, "fill")
    cells = check_slots(board, slots)
    wanted = placed_kinds(board, len(cells), kinds)
    lay = board.layout
    slot_mask = 0
    for p in cells:
        slot_mask |= 1 << lay.bit(p.x, p.y)
    kind_of = {lay.bit(p.x, p.y): board[p] for p in board.tiles()}
    occ = board.occupied_mask() | slot_mask
    free = board.free_mask(rules.outside) & ~slot_mask
    quota: dict[int, int] = {}
    for kind in wanted:
        quota[kind] = quota.get(kind, 0) + 1
    if not cells:  # nothing to place: the board as it is, if the solver clears it
        from ..solvers import SolveStatus, solve

        solved = solve(board, rules, budget=budget, method="search")
        if solved.status is SolveStatus.SOLVED:
            return FillResult("filled", board, solved.moves or (), (), 0, "no slot to fill")
        why = "is unsolvable" if solved.status is SolveStatus.UNSOLVABLE else "stayed undecided"
        return FillResult("not-found", reason=f"no slot to fill, and the board {why}")
    rng = random.Random(seed)
    for attempt in range(1, max_attempts + 1):
        if budget.spent():
            return FillResult(
                "not-found",
                attempts=attempt - 1,
                reason=f"the time ran out after {plural(attempt - 1, 'playout')}",
            )
        found = _playout(occ, free, slot_mask, kind_of, dict(quota), rules, lay.stride, rng)
        if found is None:
            continue
        order = [(lay.pos(a), lay.pos(b)) for a, b, _ in found]
        filled, moves = deal(board, rules, order, [kind for _, _, kind in found])
        problems = replay(filled, rules, moves)
        if problems:  # pragma: no cover - a bug
            raise AssertionError(f"the filled board does not replay: {problems[0]}")
        placed = tuple((p, filled[p]) for p in cells)
        text = f"{plural(len(cells), 'slot')} filled; a solution of {plural(len(moves), 'step')}"
        return FillResult("filled", filled, moves, placed, attempt, text)
    return FillResult(
        "not-found",
        attempts=max_attempts,
        reason=f"every one of {plural(max_attempts, 'playout')} reached a dead end",
    )


def _playout(
    occ: int,
    free: int,
    slot_mask: int,
    kind_of: dict[int, int],
    quota: dict[int, int],
    rules: Rules,
    stride: int,
    rng: random.Random,
) -> list[tuple[int, int, int]] | None:
    """One seeded playout (see the module docstring): the pairs removed with their kinds, or
    None at a dead end.  ``quota``: placements left by kind (changed)."""
    order: list[tuple[int, int, int]] = []
    slots_left = slot_mask
    while occ:
        tiles = list(iter_bits(occ))
        rng.shuffle(tiles)
        chosen: tuple[int, int, int] | None = None
        pair_kinds = [k for k, n in quota.items() if n >= 2]
        for a in tiles:
            bit = 1 << a
            hits = linkable_mask(bit, free, occ & ~bit, rules.max_turns, stride)
            if not hits:
                continue
            if bit & slots_left:
                allowed = hits & slots_left if pair_kinds else 0
                painted = hits & ~slots_left
                for b in iter_bits(painted):
                    if quota.get(kind_of[b], 0) >= 1:
                        allowed |= 1 << b
            else:
                kind = kind_of[a]
                allowed = 0
                for b in iter_bits(hits):
                    if (1 << b) & slots_left:
                        if quota.get(kind, 0) >= 1:
                            allowed |= 1 << b
                    elif kind_of[b] == kind:
                        allowed |= 1 << b
            if not allowed:
                continue
            b = rng.choice(list(iter_bits(allowed)))
            a_slot, b_slot = bool(bit & slots_left), bool((1 << b) & slots_left)
            if a_slot and b_slot:
                kind = rng.choice(sorted(pair_kinds))
                quota[kind] -= 2
            elif a_slot or b_slot:
                kind = kind_of[b] if a_slot else kind_of[a]
                quota[kind] -= 1
            else:
                kind = kind_of[a]
            chosen = (a, b, kind)
            break
        if chosen is None:
            return None
        a, b, _ = chosen
        order.append(chosen)
        pair = (1 << a) | (1 << b)
        occ &= ~pair
        free |= pair
        slots_left &= ~pair
    if any(quota.values()):
        return None  # a kind's placements left over (not every slot was dealt its wanted kind)
    return order
