"""Suggest a fix: the fewest tile swaps found that make an unsolvable board solvable.

A swap exchanges the kinds of two tiles; cells, walls and holes stay where they are, so every
kind keeps its count and a board of even counts stays one.  The search goes breadth first over
the arrangements one swap away, then two, ... up to ``max_swaps`` (an arrangement reached
before is not tried again), so the first solvable board found has the fewest swaps of the
boards tried.  Each board is decided by the exact search solver
(:func:`levelgen.linkup.solvers.solve`, ``method="search"``) on a node budget of its own:
``solved`` comes with a removal sequence replayed by the verifier, ``unsolvable`` with a proof,
and a board the budget leaves undecided is counted as such.  Swaps that move a tile of the
deadlock core (the tiles the solver proved can never be cleared) are tried first at every level.

With a time limit (the budget's ``clock`` and ``time_limit``), the breadth-first search takes
half of it; if no fix is found by then (a 12x8 board has about 4,000 boards one swap away,
some milliseconds each), dives spend the rest: from the board, the swap whose board has the
smallest deadlock core is taken, again and again, down to ``max_swaps`` (a fix found so may
not be the fewest, and says so).

``fewer_ruled_out`` is true only when the board itself and every arrangement of fewer swaps
than the fix were proved unsolvable (none undecided, none left untried).  Pure: no clock of
its own (the budget's injected ``clock`` shares its time limit), no random at all; the budget's
``should_stop`` ends the search (``not-found``, saying what was tried).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ...formats.budget import Budget
from ...formats.words import plural
from ..core.board import Board
from ..core.geometry import Pos
from ..core.moves import Move
from ..core.rules import Rules

__all__ = [
    "CANDIDATE_NODES",
    "DEFAULT_MAX_SWAPS",
    "FIX_STATUSES",
    "MAX_MAX_SWAPS",
    "FixResult",
    "apply_swaps",
    "find_fix",
]

#: Search nodes each candidate board may take (a board solved or proved within it is decided).
CANDIDATE_NODES = 3000
#: Search nodes for the board as given (it is proved unsolvable, or solved, first).
ROOT_NODES = 200_000
#: The share of a time limit (when the budget has one, with its clock) the breadth-first search
#: may take; the dives (:func:`_dive`) get the rest.
BREADTH_SHARE = 0.5
#: Candidate swaps a dive decides at each depth.
DIVE_WIDTH = 40
#: The default and the largest ``max_swaps``.
DEFAULT_MAX_SWAPS = 4
MAX_MAX_SWAPS = 16
#: The statuses of a :class:`FixResult`.
FIX_STATUSES = ("fixed", "solvable", "not-found", "invalid")

Swap = tuple[Pos, Pos]
Moves = tuple[Move, ...]


@dataclass(frozen=True, slots=True)
class FixResult:
    """The answer of :func:`find_fix`.

    ``status``: one of :data:`FIX_STATUSES`.  ``swaps``: to apply in order (each exchanges the
    kinds of two tiles).  ``board`` and ``solution``: the solvable board and its certificate
    (``fixed`` and ``solvable``).  ``fewer_ruled_out``: see the module docstring.  ``tried``:
    boards decided or left undecided; ``undecided``: those the node budget left open;
    ``complete``: the swap counts whose every arrangement was tried.  ``reason``: one
    sentence."""

    status: str
    swaps: tuple[Swap, ...] = ()
    board: Board | None = None
    solution: tuple[Move, ...] = ()
    fewer_ruled_out: bool = False
    tried: int = 0
    undecided: int = 0
    complete: int = 0
    reason: str = ""


def apply_swaps(board: Board, swaps: Sequence[Swap]) -> Board:
    """``board`` with the kinds of the two tiles of each swap exchanged, in order;
    ``ValueError`` naming a swap whose cells are not both tiles."""
    cells = list(board.cells)
    w = board.width
    for n, (a, b) in enumerate(swaps):
        for p in (a, b):
            if not board.is_inside(p) or cells[p.y * w + p.x] < 1:
                raise ValueError(f"swap {n}: cell [{p.x}, {p.y}] holds no tile")
        i, j = a.y * w + a.x, b.y * w + b.x
        cells[i], cells[j] = cells[j], cells[i]
    return Board(w, board.height, tuple(cells), board.upper)


def find_fix(
    board: Board,
    rules: Rules,
    budget: Budget,
    *,
    max_swaps: int = DEFAULT_MAX_SWAPS,
    candidate_nodes: int = CANDIDATE_NODES,
) -> FixResult:
    """The fewest swaps found (breadth first, see the module docstring) after which ``board``
    can be cleared under ``rules``.  ``ValueError`` for a ``max_swaps`` outside
    ``0..MAX_MAX_SWAPS`` or a board of stacked layers or a sliding rule (swaps are made on the
    classic board)."""
    from ..core.variant_support import refuse_variants
    from ..solvers import SolveStatus, solve

    if isinstance(max_swaps, bool) or not isinstance(max_swaps, int):
        raise ValueError(f"max_swaps must be a whole number, got {max_swaps!r}")
    if not 0 <= max_swaps <= MAX_MAX_SWAPS:
        raise ValueError(f"max_swaps must be in 0..{MAX_MAX_SWAPS}, got {max_swaps}")
    refuse_variants(board, rules, "fix")
    odd = [kind for kind, n in board.kind_counts().items() if n % 2]
    if odd:
        n = board.kind_counts()[odd[0]]
        reason = f"kind {odd[0]} has {plural(n, 'tile')}, an odd number: swaps keep every count"
        return FixResult("invalid", reason=reason)

    clock, limit, outer = budget.clock, budget.time_limit, budget.should_stop
    start = clock() if clock is not None else 0.0

    def breadth_stop() -> bool:
        """The breadth-first phase ends at its share of a time limit (or with the budget)."""
        if outer is not None and outer():
            return True
        return clock is not None and limit is not None and clock() - start > BREADTH_SHARE * limit

    def decide(
        candidate: Board, nodes: int, stop: Callable[[], bool] | None = outer
    ) -> tuple[SolveStatus, Moves, tuple[Pos, ...]]:
        part = Budget(nodes, stop, clock, limit)
        found = solve(candidate, rules, budget=part, method="search")
        return found.status, found.moves or (), found.deadlock

    status, moves, core = decide(board, ROOT_NODES)
    if status is SolveStatus.SOLVED:
        return FixResult("solvable", (), board, moves, True, 1, 0, 0, "the board is solvable")
    root_proved = status is SolveStatus.UNSOLVABLE
    if budget.spent():
        return FixResult("not-found", tried=1, undecided=1, reason="the time ran out at once")
    frontier: list[tuple[Board, tuple[Swap, ...], tuple[Pos, ...]]] = [(board, (), core)]
    seen = {board.cells}
    tried, undecided, all_proved = 1, int(not root_proved), root_proved
    for depth in range(1, max_swaps + 1):
        level_undecided = 0
        following: list[tuple[Board, tuple[Swap, ...], tuple[Pos, ...]]] = []
        for current, swaps, current_core in frontier:
            for swap in _candidate_swaps(current, current_core):
                new = apply_swaps(current, [swap])
                if new.cells in seen:
                    continue
                if breadth_stop():
                    complete = depth - 1
                    dived, ran = None, not budget.spent()
                    if ran:
                        dived, dive_tried = _dive(
                            board, core, max_swaps, decide, candidate_nodes, budget
                        )
                        tried += dive_tried
                    if dived is not None:
                        chosen, fixed, fixed_moves = dived
                        proved = all_proved and len(chosen) - 1 <= complete
                        return _fixed(
                            chosen, fixed, fixed_moves, proved, tried, undecided, complete
                        )
                    return _not_found(depth, tried, undecided, root_proved, max_swaps, ran)
                seen.add(new.cells)
                tried += 1
                status, moves, new_core = decide(new, candidate_nodes, breadth_stop)
                if status is SolveStatus.SOLVED:
                    chosen = (*swaps, swap)
                    return _fixed(chosen, new, moves, all_proved, tried, undecided, depth - 1)
                if status is SolveStatus.UNKNOWN:
                    level_undecided += 1
                if depth < max_swaps:
                    following.append((new, (*swaps, swap), new_core))
        undecided += level_undecided
        all_proved = all_proved and level_undecided == 0
        frontier = following
        if not frontier:
            break
    what = f"every arrangement of at most {plural(max_swaps, 'swap')} was tried ({tried} boards)"
    if all_proved:
        what += " and proved unsolvable"
    else:
        what += f"; {undecided} stayed undecided within their budget"
    return FixResult("not-found", (), None, (), False, tried, undecided, max_swaps, what)


def _fixed(
    chosen: tuple[Swap, ...],
    board: Board,
    moves: Moves,
    proved: bool,
    tried: int,
    undecided: int,
    complete: int,
) -> FixResult:
    verb = "makes" if len(chosen) == 1 else "make"
    text = f"{plural(len(chosen), 'swap')} {verb} the board solvable"
    text += f" ({plural(tried, 'board')} tried); " + (
        "every board of fewer swaps was proved unsolvable"
        if proved
        else "fewer swaps were not ruled out"
    )
    return FixResult("fixed", chosen, board, moves, proved, tried, undecided, complete, text)


Decide = Callable[..., tuple[Any, Moves, tuple[Pos, ...]]]


def _dive(
    board: Board,
    core: tuple[Pos, ...],
    max_swaps: int,
    decide: Decide,
    nodes: int,
    budget: Budget,
) -> tuple[tuple[tuple[Swap, ...], Board, Moves] | None, int]:
    """Dives for the rest of the budget, when the breadth-first search ran out of its share:
    from the board, the first ``DIVE_WIDTH`` candidate swaps (those that move a tile of the
    deadlock core first) are decided, and the one whose board was proved unsolvable with the
    smallest deadlock core is taken, down to ``max_swaps``; the ``n``-th dive starts with the
    ``n``-th best first swap.  The first solvable board found: its swaps, board, certificate
    (None when none was found) and the boards tried."""
    from ..solvers import SolveStatus

    tried = 0
    for rank in range(DIVE_WIDTH):
        current, current_core = board, core
        swaps: tuple[Swap, ...] = ()
        for depth in range(max_swaps):
            ranked: list[tuple[int, int, Board, tuple[Pos, ...], Swap]] = []
            for n, swap in enumerate(_candidate_swaps(current, current_core)[:DIVE_WIDTH]):
                if budget.spent():
                    return None, tried
                new = apply_swaps(current, [swap])
                tried += 1
                status, moves, new_core = decide(new, nodes)
                if status is SolveStatus.SOLVED:
                    return ((*swaps, swap), new, moves), tried
                if status is SolveStatus.UNSOLVABLE:
                    ranked.append((len(new_core), n, new, new_core, swap))
            ranked.sort(key=lambda item: (item[0], item[1]))
            pick = rank if depth == 0 else 0
            if pick >= len(ranked):
                break
            _, _, current, current_core, swap = ranked[pick]
            swaps = (*swaps, swap)
    return None, tried


def _not_found(
    depth: int, tried: int, undecided: int, root_proved: bool, max_swaps: int, dived: bool
) -> FixResult:
    """The answer when the budget ran out while boards of ``depth`` swaps were tried."""
    done = depth - 1
    text = f"no fix of at most {plural(max_swaps, 'swap')} found within the time limit:"
    text += f" {plural(tried, 'board')} tried"
    if done:
        text += f", every arrangement of at most {plural(done, 'swap')} among them"
    if dived:
        text += ", then dives by the smallest deadlock core"
    if undecided:
        text += f" ({undecided} undecided within their budget)"
    elif not root_proved:
        text += " (the board itself undecided)"
    return FixResult("not-found", tried=tried, undecided=undecided, complete=done, reason=text)


def _candidate_swaps(board: Board, core: Sequence[Pos]) -> list[Swap]:
    """The swaps of two tiles of different kinds, each once (``a`` before ``b`` in reading
    order), those that move a tile of ``core`` first, then in reading order."""
    tiles = board.tiles()
    in_core = set(core)
    first: list[Swap] = []
    rest: list[Swap] = []
    for i, a in enumerate(tiles):
        kind = board[a]
        for b in tiles[i + 1 :]:
            if board[b] == kind:
                continue
            (first if a in in_core or b in in_core else rest).append((a, b))
    return first + rest
