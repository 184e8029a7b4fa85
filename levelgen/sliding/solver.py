"""Optimal solving of one start and goal: the method, the budget, and a three-way answer.

:func:`solve` answers ``solved`` with the least optimal solution (in the move order
``U D L R``) and its length, ``unsolvable`` with the invariant that proves it (see
:mod:`levelgen.sliding.rules`), or ``unknown`` when the budget ran out, with the lower bound
proved so far and the best solution a greedy search found (not proved optimal).

Which method runs:

- without the compiled twins, puzzles whose whole space has at most :data:`BFS_SPACE` frames:
  the bidirectional breadth-first search of :mod:`levelgen.sliding.bfs`;
- every other puzzle: IDA* (:mod:`levelgen.sliding.idastar`) with additive pattern databases
  (:mod:`levelgen.sliding.pdb`; tables from ``tables``, by default the disk cache of
  :mod:`levelgen.sliding.pdb_cache`) and crossing counts for classes too large for a table.
  Tables are at most :data:`TABLE_ENTRIES` entries with the compiled twins (a numbered 4x4
  board: :data:`FOUR_BY_FOUR_ENTRIES`, Korf and Felner's 6-6-3 split) and
  :data:`PYTHON_TABLE_ENTRIES` without; a colour board's, built for its goal,
  :data:`COLOUR_TABLE_ENTRIES`.  A small board's classes all fit one table (a numbered 3x3
  board, two colours on 4x4): that table is a breadth-first search over every frame, hashed
  by its rank, and IDA* on it walks straight down the optimal paths.

Both return the same least optimal solution and the same count of optimal solutions, so the
choice changes only the time.  The work is ``nodes`` (IDA* nodes or expanded frames);
``budget.max_nodes`` bounds it for the whole call and ``budget.should_stop`` is polled.

On boards of at least :data:`BOUNDED_CELLS` cells a solution is looked for first, kept for
an ``unknown`` answer with its factor over the proved bound (``bound_factor``) and what found
it in the reason: stages of weighted A* (:mod:`levelgen.sliding.staged`, numbered boards
whose goal has its blank in a corner), else a weighted IDA* (:func:`weighted_path`).
When the budget stops the optimal search without such a solution,
a fixed amount of work that does not poll ``should_stop`` looks for one to return with the
``unknown`` answer: :data:`AFTER_STOP_NODES` nodes of weighted IDA* (compiled twins), else a
greedy search of at most :data:`GREEDY_NODES` frames on boards of up to :data:`GREEDY_CELLS`
cells.  Pattern databases that the budget stops while they are built give ``unknown`` at once
(method ``tables``).
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from math import factorial
from typing import Any

from ..puzzles import Budget
from . import bfs
from .encoding import Encoding, encode_puzzle
from .idastar import SearchHeuristic, make_heuristic
from .native import NATIVE, bounded_search
from .pdb import SIX_OF_SIXTEEN, SIX_OF_TWENTY_FIVE, Pattern, TablesStopped, choose_patterns
from .rules import Frame, apply_moves, blank_distance, reachability, same_labels
from .staged import WEIGHT, first_solution, weighted_path

__all__ = [
    "BFS_SPACE",
    "COUNT_CAP",
    "GREEDY_NODES",
    "KNOWN_WAY",
    "PYTHON_TABLE_ENTRIES",
    "TABLE_ENTRIES",
    "SolveResult",
    "TableSource",
    "count_optimal",
    "search_heuristic",
    "solve",
    "space_size",
    "tables_for",
    "weighted_path",
]

#: Puzzles of at most this many frames may be solved by breadth-first search.
BFS_SPACE = 2_000_000
#: The default cap of the optimal solutions counted (level files' ``optimal_solutions``).
COUNT_CAP = 1000
#: The largest pattern database (entries) with the compiled twins, and without them.
TABLE_ENTRIES = 1_000_000
#: The cap of a numbered 4x4 board with the compiled twins: Korf and Felner's 6-6-3 split
#: (two tables of 5,765,760 entries, about 20 s to build the first time, then read from disk).
FOUR_BY_FOUR_ENTRIES = SIX_OF_SIXTEEN
#: The cap of a numbered 5x5 board with the compiled twins: Korf and Felner's 6-6-6-6 split
#: (four tables of 127,512,000 entries, built once by ``levelgen tables build 5x5`` or by the
#: first create of a long 5x5 level, then read from disk).  Until they are there, a 5x5 board
#: gets the tables of :data:`TABLE_ENTRIES`: the same answers, slower on long starts, and no
#: solve waits minutes for a table it was not asked to build.
FIVE_BY_FIVE_ENTRIES = SIX_OF_TWENTY_FIVE
PYTHON_TABLE_ENTRIES = 50_000
#: Colour puzzles get new tables for every goal: at most this many entries each.  A board whose
#: classes all fit in one table (two colours on 4x4: 102,960 placements) gets the exact
#: distance as its heuristic, and IDA* walks straight down the optimal paths.
COLOUR_TABLE_ENTRIES = 200_000
PYTHON_COLOUR_TABLE_ENTRIES = 3_000
#: The most frames the greedy search for a best-so-far solution expands once the budget has
#: stopped the optimal search (without the compiled twins, or when the weighted search below
#: found nothing): a few hundredths of a second on 8x8.
GREEDY_NODES = 2_000
#: The greedy search (the heuristic computed from scratch in Python at every frame) runs for
#: boards of at most this many cells, or without the compiled twins.
GREEDY_CELLS = 16
#: Boards of at least this many cells (6x6 and up) look for a solution within a proved factor
#: of optimal first: weighted IDA* (the heuristic weighed by :data:`WEIGHT`) for at most
#: :data:`WEIGHTED_NODES` nodes, then the optimal search with what is left of the budget.
BOUNDED_CELLS = 36
WEIGHTED_NODES = 1_000_000
#: The nodes of the weighted search that looks for a solution to show once the budget has
#: stopped the optimal search (a fixed amount of work, at most about 0.1 s on 8x8 with the
#: compiled twins on an idle machine: the margin past a time limit).
AFTER_STOP_NODES = 100_000

#: Where pattern databases come from: ``tables(width, height, goal, pattern) -> bytes``.
TableSource = Callable[[int, int, bytes, Pattern], bytes]


@dataclass(frozen=True, slots=True)
class SolveResult:
    """What :func:`solve` found.

    ``status``: ``solved``, ``unsolvable`` or ``unknown``.  ``path``: the least optimal
    solution (solved) or the best solution found (unknown; None when none was).  ``length``:
    the optimal length (solved).  ``lower_bound``: proved (the length when solved).
    ``count``: optimal solutions up to the cap asked for (None when not counted).
    ``nodes``: the work done.  ``method``: ``bidirectional-bfs``, ``ida*`` or ``invariant``.
    ``heuristic``: the method's lower bound at the start.  ``reason``: one line;
    ``invariant``: the figures of the reachability invariant (JSON values)."""

    status: str
    path: str | None
    length: int | None
    lower_bound: int
    count: int | None
    nodes: int
    method: str
    heuristic: int
    reason: str
    invariant: dict[str, Any] = field(default_factory=dict)
    #: An ``unknown`` answer's solution length over its proved lower bound (None otherwise):
    #: the solution is within this factor of optimal.
    bound_factor: float | None = None


def space_size(frame: Frame) -> int:
    """How many frames can be reached from ``frame`` (see :mod:`levelgen.sliding.rules`):
    ``(W*H)!/2`` for a numbered board, every arrangement of the labels for a colour one."""
    n = frame.size
    counts = frame.labels()
    if all(m == 1 for m in counts.values()):
        return factorial(n) // 2
    total = factorial(n)
    for m in counts.values():
        total //= factorial(m)
    return total


#: Heuristics by (encoded goal, width, cap, table source): shared by every puzzle whose goal
#: encodes alike (every numbered goal with the blank in one cell); encodings are not shared,
#: as their labels differ.
_heuristics: dict[tuple[bytes, int, int, int], SearchHeuristic] = {}


def _table_cap(encoding: Encoding, tables: TableSource | None, *, build: bool = False) -> int:
    """The largest table entries for ``encoding``: a 5x5 board's 6-6-6-6 tables only when
    ``tables`` has them already, or ``build`` asks for them."""
    if encoding.numbered:
        if not NATIVE:
            return PYTHON_TABLE_ENTRIES
        if encoding.width == encoding.height == 4:
            return FOUR_BY_FOUR_ENTRIES
        if encoding.width == encoding.height == 5:
            ready = build or _has_tables(encoding, tables, FIVE_BY_FIVE_ENTRIES)
            return FIVE_BY_FIVE_ENTRIES if ready else TABLE_ENTRIES
        return TABLE_ENTRIES
    return COLOUR_TABLE_ENTRIES if NATIVE else PYTHON_COLOUR_TABLE_ENTRIES


def _has_tables(encoding: Encoding, tables: TableSource | None, cap: int) -> bool:
    """Whether ``tables`` (a source that can tell: the disk cache's store) holds every table
    of the split of at most ``cap`` entries."""
    has = getattr(tables, "has", None)
    if has is None:
        return False
    patterns, _ = choose_patterns(encoding, cap)
    return all(has(encoding.width, encoding.height, encoding.goal, p) for p in patterns)


def search_heuristic(
    goal: Frame,
    tables: TableSource | None = None,
    *,
    cap: int | None = None,
    should_stop: Callable[[], bool] | None = None,
) -> tuple[Encoding, SearchHeuristic]:
    """The encoding and IDA* heuristic of the puzzle with goal ``goal`` (pattern databases
    from ``tables``, the disk cache by default, of at most ``cap`` entries);
    :class:`levelgen.sliding.pdb.TablesStopped` when ``should_stop`` said to stop while a
    table was being built (a source that takes it: ``accepts_should_stop``)."""
    encoding = encode_puzzle(goal)
    if tables is None:
        from .pdb_cache import default_store

        tables = default_store()
    limit = _table_cap(encoding, tables) if cap is None else cap
    key = (encoding.goal, encoding.width, limit, id(tables))
    found = _heuristics.get(key)
    if found is not None:
        return encoding, found
    patterns, crossing = choose_patterns(encoding, limit)
    built = _tables_of(tables, goal.width, goal.height, encoding.goal, patterns, should_stop)
    heuristic = make_heuristic(goal.width, goal.height, encoding.goal, patterns, built, crossing)
    if len(_heuristics) >= 32:
        _heuristics.pop(next(iter(_heuristics)))
    _heuristics[key] = heuristic
    return encoding, heuristic


def tables_for(goal: Frame, tables: TableSource) -> list[bytes]:
    """The pattern databases :func:`search_heuristic` uses for ``goal``, asked of ``tables``
    every time (not from the heuristics kept in memory): ``levelgen tables build``."""
    encoding = encode_puzzle(goal)
    patterns, _ = choose_patterns(encoding, _table_cap(encoding, tables, build=True))
    return _tables_of(tables, goal.width, goal.height, encoding.goal, patterns)


def _tables_of(
    tables: TableSource,
    width: int,
    height: int,
    goal: bytes,
    patterns: list[Pattern],
    should_stop: Callable[[], bool] | None = None,
) -> list[bytes]:
    """The tables of ``patterns``, the large ones built side by side on two threads (the
    compiled builder lets go of the interpreter while it works)."""

    def one(p: Pattern) -> bytes:
        if should_stop is not None and getattr(tables, "accepts_should_stop", False):
            if should_stop():
                raise TablesStopped("out of budget before the tables were read or built")
            return tables(width, height, goal, p, should_stop=should_stop)  # type: ignore[call-arg]
        return tables(width, height, goal, p)

    large = [p for p in patterns if p.entries >= 100_000]
    if len(large) < 2 or not NATIVE:
        return [one(p) for p in patterns]
    with ThreadPoolExecutor(max_workers=2) as pool:
        return list(pool.map(one, patterns))


def _uses_bfs(start: Frame, goal: Frame, method: str | None) -> bool:
    if method is not None:
        return method == "bidirectional-bfs"
    return not NATIVE and space_size(start) <= BFS_SPACE


class _Meter:
    """The budget's node allowance across the calls of one solve."""

    def __init__(self, budget: Budget) -> None:
        self.budget = budget
        self.used = 0

    def left(self) -> int | None:
        if self.budget.max_nodes is None:
            return None
        return max(0, self.budget.max_nodes - self.used)


def solve(
    start: Frame,
    goal: Frame,
    budget: Budget | None = None,
    *,
    count_cap: int = 1,
    tables: TableSource | None = None,
    method: str | None = None,
    known: str | None = None,
) -> SolveResult:
    """Solve ``start`` to ``goal`` (frames of one size with the same labels; ``ValueError``
    otherwise) as the module docstring says.  ``count_cap`` above 1 also counts the optimal
    solutions up to it (``count`` None when the budget stopped the count).  ``method``
    (``bidirectional-bfs`` or ``ida*``) overrides the choice.  ``known``: a solution already
    known (a hint's way back to the level's certificate; ``ValueError`` when it is not one),
    the answer's solution when the budget runs out before a shorter one is found."""
    if not same_labels(start, goal):
        raise ValueError("the start and goal differ in size or labels")
    if known is not None and apply_moves(start, known) != goal:
        raise ValueError("the known solution does not reach the goal")
    budget = budget or Budget()
    verdict = reachability(start, goal)
    if not verdict.reachable:
        return SolveResult(
            "unsolvable", None, None, 0, 0, 0, "invariant", 0, verdict.reason, verdict.details
        )
    if start == goal:
        return SolveResult("solved", "", 0, 0, 1, 0, "none", 0, "the start is the goal")
    if _uses_bfs(start, goal, method):
        return _solve_bfs(start, goal, budget, count_cap, known)
    return _solve_ida(start, goal, budget, count_cap, tables, known)


#: What found a ``known`` solution, in an answer's reason.
KNOWN_WAY = "the way back to the level's certificate"


def _solve_bfs(
    start: Frame, goal: Frame, budget: Budget, count_cap: int, known: str | None
) -> SolveResult:
    parity = blank_distance(start, goal) % 2
    found = bfs.bidirectional_search(
        bytes(start.cells),
        bytes(goal.cells),
        start.width,
        start.height,
        count_cap=count_cap,
        node_limit=budget.max_nodes,
        should_stop=budget.should_stop,
    )
    if not found.stopped:
        assert found.path is not None and found.length is not None
        return SolveResult(
            "solved",
            found.path,
            found.length,
            found.length,
            found.count if count_cap > 1 else None,
            found.nodes,
            "bidirectional-bfs",
            parity,
            f"optimal: {found.length} moves (bidirectional breadth-first search)",
        )
    bound = found.lower_bound + (found.lower_bound - parity) % 2
    by = KNOWN_WAY if known is not None else ""
    return _unknown(start, goal, bound, found.nodes, "bidirectional-bfs", parity, None, known, by)


def _solve_ida(
    start: Frame,
    goal: Frame,
    budget: Budget,
    count_cap: int,
    tables: TableSource | None,
    known: str | None,
) -> SolveResult:
    try:
        encoding, heuristic = search_heuristic(goal, tables, should_stop=budget.should_stop)
    except TablesStopped:
        return _unknown_untabled(start, goal, known)
    cells = encoding.encode(start)
    parity = blank_distance(start, goal) % 2
    h0 = heuristic.value(cells)
    threshold = h0 + (h0 - parity) % 2
    meter = _Meter(budget)
    best: str | None = None
    found_by = ""
    if start.size >= BOUNDED_CELLS:
        left = meter.left()
        limit = WEIGHTED_NODES if left is None else min(left, WEIGHTED_NODES)
        best, spent, found_by = first_solution(heuristic, cells, h0, limit, budget.should_stop)
        meter.used += spent
        if best is not None and len(best) == threshold:
            return _bounded_answer(best, threshold, meter.used, h0)
    if known is not None and (best is None or len(known) < len(best)):
        best, found_by = known, KNOWN_WAY
    while True:
        step = bounded_search(
            heuristic,
            cells,
            threshold,
            node_limit=meter.left(),
            should_stop=budget.should_stop,
        )
        meter.used += step.nodes
        if step.path is not None:
            break
        if step.stopped:
            return _unknown(
                start, goal, threshold, meter.used, "ida*", h0, heuristic, best, found_by
            )
        if step.next_threshold is None:  # pragma: no cover - the goal is reachable
            raise AssertionError("IDA* ran out of nodes on a reachable goal")
        threshold = step.next_threshold + (step.next_threshold - parity) % 2
    count: int | None = None
    if count_cap > 1:
        counted = bounded_search(
            heuristic,
            cells,
            threshold,
            count_cap=count_cap,
            node_limit=meter.left(),
            should_stop=budget.should_stop,
        )
        meter.used += counted.nodes
        count = None if counted.stopped else counted.count
    return SolveResult(
        "solved",
        step.path,
        threshold,
        threshold,
        count,
        meter.used,
        "ida*",
        h0,
        f"optimal: {threshold} moves (IDA* with additive pattern databases)",
    )


def count_optimal(
    start: Frame,
    goal: Frame,
    length: int,
    cap: int = COUNT_CAP,
    budget: Budget | None = None,
    *,
    tables: TableSource | None = None,
) -> int | None:
    """How many solutions of ``length`` moves there are (up to ``cap``), ``length`` being the
    optimal length (proved by the caller); None when the budget stopped the count."""
    budget = budget or Budget()
    if start == goal:
        return 1
    if _uses_bfs(start, goal, None):
        found = bfs.bidirectional_search(
            bytes(start.cells),
            bytes(goal.cells),
            start.width,
            start.height,
            count_cap=cap,
            node_limit=budget.max_nodes,
            should_stop=budget.should_stop,
        )
        if found.stopped or found.length != length:
            return None
        return found.count
    encoding, heuristic = search_heuristic(goal, tables)
    counted = bounded_search(
        heuristic,
        encoding.encode(start),
        length,
        count_cap=cap,
        node_limit=budget.max_nodes,
        should_stop=budget.should_stop,
    )
    return None if counted.stopped else counted.count


def _bounded_answer(path: str, bound: int, nodes: int, h0: int) -> SolveResult:
    """A weighted solution as long as the proved lower bound: optimal after all."""
    return SolveResult(
        "solved",
        path,
        bound,
        bound,
        None,
        nodes,
        "weighted-ida*",
        h0,
        f"optimal: {bound} moves (a weighted solution meets the proved lower bound)",
    )


def _unknown_untabled(start: Frame, goal: Frame, known: str | None) -> SolveResult:
    """The answer when the budget ran out while the pattern databases were being built: the
    bound of a heuristic without tables, and a short greedy search's solution or ``known``,
    the shorter."""
    encoding, heuristic = search_heuristic(goal, _no_tables, cap=0)
    h0 = heuristic.value(encoding.encode(start))
    bound = h0 + (h0 - blank_distance(start, goal) % 2) % 2
    path, nodes = (None, 0) if start.size > GREEDY_CELLS else greedy_path(start, goal, heuristic)
    by = ""
    if known is not None and (path is None or len(known) < len(path)):
        path, by = known, KNOWN_WAY
    found = _found_words(path, bound, by)
    return SolveResult(
        "unknown",
        path,
        None,
        bound,
        None,
        nodes,
        "tables",
        h0,
        f"out of budget while building the pattern databases: at least {bound} moves, {found}"
        " (`levelgen tables build` builds them ahead)",
        bound_factor=_factor(path, bound),
    )


def _factor(path: str | None, bound: int) -> float | None:
    if path is None or bound <= 0:
        return None
    return round(len(path) / bound, 3)


def _found_words(path: str | None, bound: int, found_by: str = "") -> str:
    if path is None:
        return "no solution found"
    factor = _factor(path, bound)
    within = f", within {factor:.2f}x of the proved bound" if factor is not None else ""
    by = f" by {found_by}" if found_by else ""
    return f"best found {len(path)} moves{by}{within} (not proved optimal)"


def _unknown(
    start: Frame,
    goal: Frame,
    bound: int,
    nodes: int,
    method: str,
    h0: int,
    heuristic: SearchHeuristic | None,
    best: str | None = None,
    found_by: str = "",
) -> SolveResult:
    """The answer when the budget stopped the search: the proved bound and the best solution
    found: ``best`` (of the weighted search), else one of a short weighted search (compiled
    twins) or greedy search, a fixed amount of work (solved after all when it is as short as
    the bound)."""
    path = best
    if path is None:
        found_by = ""
    if path is None and heuristic is not None and NATIVE:
        encoding = encode_puzzle(goal)
        h = heuristic.value(encoding.encode(start))
        path, spent = weighted_path(
            heuristic, encoding.encode(start), h, AFTER_STOP_NODES, None, WEIGHT
        )
        nodes += spent
    if path is None and (start.size <= GREEDY_CELLS or not NATIVE):
        path, spent = greedy_path(start, goal, heuristic)
        nodes += spent
    if path is not None and len(path) == bound:
        return SolveResult(
            "solved",
            path,
            bound,
            bound,
            None,
            nodes,
            method + "+greedy",
            h0,
            f"optimal: {bound} moves (the solution found by {found_by or 'a greedy search'}"
            " meets the proved lower bound)",
        )
    return SolveResult(
        "unknown",
        path,
        None,
        bound,
        None,
        nodes,
        method,
        h0,
        f"out of budget: at least {bound} moves, {_found_words(path, bound, found_by)}",
        bound_factor=_factor(path, bound),
    )


def greedy_path(
    start: Frame, goal: Frame, heuristic: SearchHeuristic | None, limit: int = GREEDY_NODES
) -> tuple[str | None, int]:
    """A solution by greedy best-first search (fewest estimated moves left first, with a
    visited set), expanding at most ``limit`` frames: ``(moves or None, frames expanded)``.
    Not optimal; it gives ``unknown`` answers a solution to show."""
    if heuristic is None:
        encoding, heuristic = search_heuristic(goal, _no_tables, cap=0)
    else:
        encoding = encode_puzzle(goal)
    w, h = start.width, start.height
    origin = encoding.encode(start)
    target = encoding.goal
    parent: dict[bytes, tuple[bytes, str] | None] = {origin: None}
    queue = [(heuristic.value(origin), 0, origin)]
    counter = 0
    expanded = 0
    while queue and expanded < limit:
        _, _, frame = heapq.heappop(queue)
        expanded += 1
        if frame == target:
            moves = []
            node = frame
            while (link := parent[node]) is not None:
                node, move = link
                moves.append(move)
            return "".join(reversed(moves)), expanded
        for move, after in bfs.neighbours_of(frame, w, h):
            if after not in parent:
                parent[after] = (frame, move)
                counter += 1
                heapq.heappush(queue, (heuristic.value(after), counter, after))
    return None, expanded


def _no_tables(width: int, height: int, goal: bytes, pattern: Pattern) -> bytes:
    raise AssertionError("no table is built with a cap of 0")
