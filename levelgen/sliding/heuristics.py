"""Admissible lower bounds on a frame's distance to its goal, each a function you can test alone.

- :func:`manhattan`: for each tile with a label of its own, how far it is from its goal cell.
- :func:`linear_conflicts`: two such tiles in their goal row (or column) in the wrong order:
  one of them must step out of the line and back, two moves the Manhattan distance does not
  count (Hansson, Mayer and Yung, 1992); counted per line as the tiles outside a longest
  increasing run.
- :func:`assignment_cost`: for a label carried by several tiles, no tile need reach a
  particular goal cell of that label, but together they fill all of them: the cheapest way to
  assign tiles to goal cells (a minimum-cost perfect matching of Manhattan distances, by the
  Hungarian method) is a lower bound on their moves.
- :func:`crossing_count`: the matching relaxed to one axis at a time, which needs no matching
  at all: across the line between columns ``k`` and ``k + 1`` at least as many tiles of a label
  must cross as the difference between how many lie left of it now and at the goal; summed
  over the lines of both axes.  Cheap to update when one tile moves, it bounds in the searches
  the labels too large for a pattern database (for a single tile it is its Manhattan
  distance).

Each bound counts only moves of the tiles it looks at, so bounds of different labels add up.
:func:`lower_bound` is the one level files record in ``metrics.lower_bound``: the Manhattan
distance plus linear conflicts of the single tiles and the assignment cost of each repeated
label; the solvers' own bound (pattern databases) is usually higher.
"""

from __future__ import annotations

from collections.abc import Sequence

from .rules import BLANK, Frame

__all__ = [
    "assignment_cost",
    "crossing_count",
    "linear_conflicts",
    "lower_bound",
    "manhattan",
]


def _cells_of(frame: Frame) -> dict[int, list[int]]:
    out: dict[int, list[int]] = {}
    for i, v in enumerate(frame.cells):
        if v != BLANK:
            out.setdefault(v, []).append(i)
    return out


def manhattan(start: Frame, goal: Frame) -> int:
    """The sum over the tiles whose label is their own of the Manhattan distance to their goal
    cell (tiles of repeated labels are left out)."""
    w = start.width
    now, then = _cells_of(start), _cells_of(goal)
    total = 0
    for label, cells in now.items():
        if len(cells) == 1:
            a, b = cells[0], then[label][0]
            total += abs(a % w - b % w) + abs(a // w - b // w)
    return total


def _longest_increasing(values: Sequence[int]) -> int:
    tails: list[int] = []
    for v in values:
        lo, hi = 0, len(tails)
        while lo < hi:
            mid = (lo + hi) // 2
            if tails[mid] < v:
                lo = mid + 1
            else:
                hi = mid
        if lo == len(tails):
            tails.append(v)
        else:
            tails[lo] = v
    return len(tails)


def linear_conflicts(start: Frame, goal: Frame) -> int:
    """The extra moves of linear conflicts among the tiles whose label is their own: in each
    row (column), of the tiles whose goal cell is in that row (column), all but a longest run
    in goal order must leave the line and come back, two moves each."""
    w, h = start.width, start.height
    now, then = _cells_of(start), _cells_of(goal)
    single = {label: (cells[0], then[label][0]) for label, cells in now.items() if len(cells) == 1}
    extra = 0
    for y in range(h):
        line = [
            b % w
            for i in range(y * w, (y + 1) * w)
            for label in [start.cells[i]]
            if label in single
            for b in [single[label][1]]
            if b // w == y
        ]
        extra += 2 * (len(line) - _longest_increasing(line))
    for x in range(w):
        line = [
            b // w
            for i in range(x, w * h, w)
            for label in [start.cells[i]]
            if label in single
            for b in [single[label][1]]
            if b % w == x
        ]
        extra += 2 * (len(line) - _longest_increasing(line))
    return extra


def assignment_cost(sources: Sequence[int], targets: Sequence[int], width: int) -> int:
    """The cheapest perfect matching of cells ``sources`` to cells ``targets`` (equally many)
    under Manhattan distance on a board ``width`` cells wide (the Hungarian method, O(n^3))."""
    n = len(sources)
    if n != len(targets):
        raise ValueError("sources and targets differ in number")
    if n == 0:
        return 0
    cost = [
        [abs(a % width - b % width) + abs(a // width - b // width) for b in targets]
        for a in sources
    ]
    # Potentials u (rows), v (columns); match[j] is the row assigned to column j (1-based,
    # column 0 a sentinel), after the shortest augmenting path formulation.
    inf = float("inf")
    u = [0.0] * (n + 1)
    v = [0.0] * (n + 1)
    match = [0] * (n + 1)
    way = [0] * (n + 1)
    for i in range(1, n + 1):
        match[0] = i
        j0 = 0
        best = [inf] * (n + 1)
        used = [False] * (n + 1)
        while True:
            used[j0] = True
            i0 = match[j0]
            delta = inf
            j1 = 0
            for j in range(1, n + 1):
                if used[j]:
                    continue
                reduced = cost[i0 - 1][j - 1] - u[i0] - v[j]
                if reduced < best[j]:
                    best[j] = reduced
                    way[j] = j0
                if best[j] < delta:
                    delta = best[j]
                    j1 = j
            for j in range(n + 1):
                if used[j]:
                    u[match[j]] += delta
                    v[j] -= delta
                else:
                    best[j] -= delta
            j0 = j1
            if match[j0] == 0:
                break
        while j0:
            j1 = way[j0]
            match[j0] = match[j1]
            j0 = j1
    return sum(cost[match[j] - 1][j - 1] for j in range(1, n + 1))


def crossing_count(start: Frame, goal: Frame) -> int:
    """The sum over labels and over the lines between neighbouring columns (rows) of the
    difference between how many tiles of the label lie before the line now and at the goal."""
    w, h = start.width, start.height
    now, then = _cells_of(start), _cells_of(goal)
    total = 0
    for label, cells in now.items():
        goal_cells = then[label]
        for k in range(w - 1):
            total += abs(
                sum(1 for c in cells if c % w <= k) - sum(1 for c in goal_cells if c % w <= k)
            )
        for k in range(h - 1):
            total += abs(
                sum(1 for c in cells if c // w <= k) - sum(1 for c in goal_cells if c // w <= k)
            )
    return total


def lower_bound(start: Frame, goal: Frame) -> int:
    """The bound level files record: Manhattan distance plus linear conflicts of the tiles
    whose label is their own, plus the assignment cost of each repeated label."""
    now, then = _cells_of(start), _cells_of(goal)
    total = manhattan(start, goal) + linear_conflicts(start, goal)
    for label, cells in now.items():
        if len(cells) > 1:
            total += assignment_cost(cells, then[label], start.width)
    return total
