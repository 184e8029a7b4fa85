"""IDA* (Korf, 1985) with the additive heuristic of pattern databases and crossing counts.

A :class:`SearchHeuristic` is the heuristic's data: the goal (classes per cell, see
:mod:`levelgen.sliding.encoding`), the patterns with their tables (:mod:`levelgen.sliding.pdb`),
the classes bounded by crossing counts, and, when the puzzle is symmetric about the main
diagonal (a square numbered board whose goal blank is on that diagonal), the transposition of
cells and classes: the value is then the larger of the pattern sums of the frame and of its
mirror image, which is the same puzzle (Korf and Felner's reflection).

:func:`python_bounded_search` is one iteration of IDA* by the book: a depth-first search from
the start that prunes every node whose ``g + h`` passes the threshold and skips the move that
undoes the last one.  It tries the moves in the order ``U D L R``, so the first solution it
meets in the iteration whose threshold is the optimal length is the *least* optimal solution in
that order, whatever the (admissible) heuristic: every method of :mod:`levelgen.sliding.solver`
returns that solution, so a level's certificate does not depend on which one ran.  With
``count_cap`` above 1 the iteration goes on and counts the solutions of that length (up to the
cap): every solution of the optimal length is a path of the search tree, each counted once.
The compiled ``levelgen.sliding._native.search`` is its twin (the same solutions, counts,
nodes and next thresholds; ``tests/sliding/test_native.py`` compares them).

The work is counted in nodes (a node is a call, pruned or not); ``should_stop`` is polled every
``POLL_NODES`` nodes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .pdb import Pattern, rank

__all__ = [
    "POLL_NODES",
    "Iteration",
    "SearchHeuristic",
    "make_heuristic",
    "python_bounded_search",
    "transposition",
]

#: How often (in nodes) a search asks ``should_stop``.
POLL_NODES = 1 << 16
_DELTA = {"U": (0, -1), "D": (0, 1), "L": (-1, 0), "R": (1, 0)}
_OPPOSITE = {"U": "D", "D": "U", "L": "R", "R": "L", "": ""}


@dataclass(frozen=True, slots=True)
class SearchHeuristic:
    """The additive heuristic of one puzzle (see the module docstring).  ``tcell`` and
    ``tclass`` are the transposition of cells and of classes, both empty when unused."""

    width: int
    height: int
    goal: bytes
    patterns: tuple[Pattern, ...]
    tables: tuple[bytes, ...]
    crossing: tuple[int, ...]
    tcell: bytes = b""
    tclass: bytes = b""
    _col_masks: tuple[int, ...] = field(default=(), repr=False)
    _row_masks: tuple[int, ...] = field(default=(), repr=False)

    @property
    def reflects(self) -> bool:
        """Whether the value takes the mirror image's pattern sum into account."""
        return bool(self.tcell)

    def masks(self, cells: bytes) -> list[int]:
        """The cell mask of every class of ``cells`` (index 0: the blank)."""
        out = [0] * (max(max(cells), max(self.goal)) + 1)
        for i, c in enumerate(cells):
            out[c] |= 1 << i
        return out

    def pattern_sum(self, masks: Sequence[int]) -> int:
        """The sum of the pattern tables at the placement ``masks`` (per class)."""
        return sum(
            table[rank(p, [masks[c] for c in p.classes])]
            for p, table in zip(self.patterns, self.tables, strict=True)
        )

    def mirrored(self, masks: Sequence[int]) -> list[int]:
        """The class masks of the mirror image of the frame with class masks ``masks``."""
        out = [0] * len(masks)
        for c in range(1, len(masks)):
            m = masks[self.tclass[c]]
            t = 0
            while m:
                low = m & -m
                m ^= low
                t |= 1 << self.tcell[low.bit_length() - 1]
            out[c] = t
        return out

    def crossing_term(self, c: int, mask: int) -> int:
        """The crossing count of class ``c`` at cells ``mask``."""
        goal_mask = 0
        for i, g in enumerate(self.goal):
            if g == c:
                goal_mask |= 1 << i
        total = 0
        for line in (*self._col_masks, *self._row_masks):
            total += abs((mask & line).bit_count() - (goal_mask & line).bit_count())
        return total

    def value(self, cells: bytes) -> int:
        """The heuristic's value at ``cells`` (computed from scratch)."""
        masks = self.masks(cells)
        total = sum(self.crossing_term(c, masks[c]) for c in self.crossing)
        patterns = self.pattern_sum(masks)
        if self.reflects:
            patterns = max(patterns, self.pattern_sum(self.mirrored(masks)))
        return total + patterns


def transposition(width: int, height: int, goal: bytes) -> tuple[bytes, bytes]:
    """``(tcell, tclass)`` of a square board whose goal is its own mirror image about the
    main diagonal once classes are renamed (each class one tile, the blank on the diagonal);
    ``(b"", b"")`` for any other puzzle."""
    if width != height:
        return b"", b""
    counts: dict[int, int] = {}
    for c in goal:
        counts[c] = counts.get(c, 0) + 1
    if any(n != 1 for c, n in counts.items() if c):
        return b"", b""
    tcell = bytes((i % width) * width + i // width for i in range(width * height))
    blank = goal.index(0)
    if tcell[blank] != blank:
        return b"", b""
    tclass = bytearray(len(goal))
    for i, c in enumerate(goal):
        tclass[c] = goal[tcell[i]]
    return tcell, bytes(tclass)


def make_heuristic(
    width: int,
    height: int,
    goal: bytes,
    patterns: Sequence[Pattern],
    tables: Sequence[bytes],
    crossing: Sequence[int],
    *,
    reflect: bool = True,
) -> SearchHeuristic:
    """The heuristic of these parts; with ``reflect`` the mirror image is used when the
    puzzle allows it (see :func:`transposition`)."""
    tcell, tclass = transposition(width, height, goal) if reflect else (b"", b"")
    cols = tuple(
        sum(1 << (y * width + x) for y in range(height) for x in range(k + 1))
        for k in range(width - 1)
    )
    rows = tuple(
        sum(1 << (y * width + x) for y in range(k + 1) for x in range(width))
        for k in range(height - 1)
    )
    return SearchHeuristic(
        width,
        height,
        bytes(goal),
        tuple(patterns),
        tuple(bytes(t) for t in tables),
        tuple(crossing),
        tcell,
        tclass,
        cols,
        rows,
    )


@dataclass(frozen=True, slots=True)
class Iteration:
    """What one bounded search found: the first solution (or None), how many solutions of at
    most the threshold it counted (up to the cap), the nodes it visited, the least ``g + h``
    above the threshold among pruned nodes (None when nothing was pruned), and whether it
    stopped early (node limit or ``should_stop``)."""

    path: str | None
    count: int
    nodes: int
    next_threshold: int | None
    stopped: bool


class _Stop(Exception):
    """The node limit or ``should_stop`` ended the iteration."""


class _Done(Exception):
    """The count reached its cap."""


class _Search:
    """The state of one bounded search: the cells, the class masks, the pattern values of the
    frame and of its mirror image, the crossing terms, made and unmade move by move."""

    def __init__(
        self,
        heuristic: SearchHeuristic,
        start: bytes,
        threshold: int,
        count_cap: int,
        node_limit: int | None,
        should_stop: Callable[[], bool] | None,
        weight: tuple[int, int] = (1, 1),
    ) -> None:
        hz = self.hz = heuristic
        self.wnum, self.wden = weight
        self.threshold = threshold
        self.count_cap = count_cap
        self.node_limit = node_limit
        self.should_stop = should_stop
        self.cells = bytearray(start)
        self.masks = hz.masks(start)
        self.group_of: dict[int, int] = {c: g for g, p in enumerate(hz.patterns) for c in p.classes}
        self.crossing = set(hz.crossing)
        self.values = [self._lookup(g, self.masks) for g in range(len(hz.patterns))]
        self.mirror = hz.mirrored(self.masks) if hz.reflects else []
        self.mirror_values = (
            [self._lookup(g, self.mirror) for g in range(len(hz.patterns))] if hz.reflects else []
        )
        self.cross = {c: hz.crossing_term(c, self.masks[c]) for c in hz.crossing}
        self.sum = sum(self.values)
        self.mirror_sum = sum(self.mirror_values)
        self.cross_sum = sum(self.cross.values())
        self.nodes = 0
        self.count = 0
        self.next: int | None = None
        self.first: str | None = None
        self.path: list[str] = []

    def _lookup(self, g: int, masks: Sequence[int]) -> int:
        p = self.hz.patterns[g]
        return self.hz.tables[g][rank(p, [masks[c] for c in p.classes])]

    def value(self) -> int:
        if self.hz.reflects:
            return self.cross_sum + max(self.sum, self.mirror_sum)
        return self.cross_sum + self.sum

    def enter(self, g: int, blank: int) -> bool:
        """Count the node just reached at depth ``g``: True when it is to be expanded, False
        when it is pruned (its ``g + h`` noted) or is the goal (counted); ``_Stop`` at the node
        limit or when ``should_stop`` says so, ``_Done`` when the count reaches its cap."""
        self.nodes += 1
        if self.node_limit is not None and self.nodes > self.node_limit:
            raise _Stop
        if self.should_stop is not None and self.nodes % POLL_NODES == 0 and self.should_stop():
            raise _Stop
        hv = self.value()
        f = g * self.wden + hv * self.wnum
        if f > self.threshold:
            if self.next is None or f < self.next:
                self.next = f
            return False
        if hv == 0 and self.cells == self.hz.goal:
            self.count += 1
            if self.first is None:
                self.first = "".join(self.path)
            if self.count >= self.count_cap:
                raise _Done
            return False
        return True

    def run(self, blank: int) -> None:
        """The depth-first search from the start, on an explicit stack (a list of
        ``[g, blank, last move, next move to try, the slide that led here]``) so that no
        Python recursion grows with the threshold; the nodes are visited in the order of the
        recursive search by the book, children in the order ``U D L R``."""
        if not self.enter(0, blank):
            return
        stack: list[list[Any]] = [[0, blank, "", 0, None]]
        while stack:
            top = stack[-1]
            g, here, last, i, arrived = top
            order = self.order(here, last)
            descended = False
            while i < len(order):
                d, t = order[i]
                i += 1
                saved = self.slide(t, here)
                self.path.append(d)
                if self.enter(g + 1, t):
                    top[3] = i
                    stack.append([g + 1, t, d, 0, (t, here, saved)])
                    descended = True
                    break
                self.path.pop()
                self.unslide(t, here, saved)
            if descended:
                continue
            stack.pop()
            if arrived is not None:
                t, before, saved = arrived
                self.path.pop()
                self.unslide(t, before, saved)

    def order(self, here: int, last: str) -> list[tuple[str, int]]:
        """The moves from blank cell ``here`` (the one undoing ``last`` left out) as (move,
        cell of the tile slid): in the order ``U D L R``; a weighted search (the heuristic
        weighed above 1) tries the children of smaller ``h`` first, ties in that order."""
        w, h = self.hz.width, self.hz.height
        x, y = here % w, here // w
        moves = []
        for d in "UDLR":
            if d == _OPPOSITE[last]:
                continue
            dx, dy = _DELTA[d]
            nx, ny = x + dx, y + dy
            if 0 <= nx < w and 0 <= ny < h:
                moves.append((d, ny * w + nx))
        if self.wnum > self.wden and len(moves) > 1:
            values = []
            for _, t in moves:
                saved = self.slide(t, here)
                values.append(self.value())
                self.unslide(t, here, saved)
            ranked = sorted(range(len(moves)), key=lambda k: (values[k], k))
            moves = [moves[k] for k in ranked]
        return moves

    def slide(self, t: int, blank: int) -> tuple[int, int, int, int]:
        """Slide the tile at ``t`` into the blank at ``blank``; returns what
        :meth:`unslide` needs to put the old values back (the tile's class, its
        pattern value, its mirror pattern value, its crossing term; -1 when unused)."""
        hz = self.hz
        c = self.cells[t]
        self.cells[blank], self.cells[t] = c, 0
        moved = (1 << t) | (1 << blank)
        self.masks[c] ^= moved
        self.masks[0] ^= moved
        old_value = old_mirror = old_cross = -1
        g = self.group_of.get(c)
        if g is not None:
            old_value = self.values[g]
            self.values[g] = self._lookup(g, self.masks)
            self.sum += self.values[g] - old_value
        if hz.reflects:
            self.mirror[hz.tclass[c]] ^= (1 << hz.tcell[t]) | (1 << hz.tcell[blank])
            gm = self.group_of.get(hz.tclass[c])
            if gm is not None:
                old_mirror = self.mirror_values[gm]
                self.mirror_values[gm] = self._lookup(gm, self.mirror)
                self.mirror_sum += self.mirror_values[gm] - old_mirror
        if c in self.crossing:
            old_cross = self.cross[c]
            self.cross[c] = hz.crossing_term(c, self.masks[c])
            self.cross_sum += self.cross[c] - old_cross
        return c, old_value, old_mirror, old_cross

    def unslide(self, t: int, blank: int, saved: tuple[int, int, int, int]) -> None:
        """Undo :meth:`slide` ``(t, blank)``, which returned ``saved``."""
        c, old_value, old_mirror, old_cross = saved
        self.cells[t], self.cells[blank] = c, 0
        moved = (1 << t) | (1 << blank)
        self.masks[c] ^= moved
        self.masks[0] ^= moved
        if self.hz.reflects:
            self.mirror[self.hz.tclass[c]] ^= (1 << self.hz.tcell[t]) | (1 << self.hz.tcell[blank])
        g = self.group_of.get(c)
        if g is not None:
            self.sum += old_value - self.values[g]
            self.values[g] = old_value
        if self.hz.reflects:
            gm = self.group_of.get(self.hz.tclass[c])
            if gm is not None:
                self.mirror_sum += old_mirror - self.mirror_values[gm]
                self.mirror_values[gm] = old_mirror
        if c in self.crossing:
            self.cross_sum += old_cross - self.cross[c]
            self.cross[c] = old_cross


def python_bounded_search(
    heuristic: SearchHeuristic,
    start: bytes,
    threshold: int,
    *,
    count_cap: int = 1,
    node_limit: int | None = None,
    should_stop: Callable[[], bool] | None = None,
    weight: tuple[int, int] = (1, 1),
) -> Iteration:
    """One IDA* iteration from ``start`` with bound ``threshold`` (see the module docstring);
    the reference of the compiled twin.  ``weight`` ``(a, b)`` weighs the heuristic by
    ``a / b``: a node is pruned when ``g * b + h * a`` passes ``threshold`` (in those units,
    as the next threshold is); ``(1, 1)`` is IDA*."""
    search = _Search(heuristic, bytes(start), threshold, count_cap, node_limit, should_stop, weight)
    stopped = False
    try:
        search.run(bytes(start).index(0))
    except _Done:
        pass
    except _Stop:
        stopped = True
    return Iteration(search.first, search.count, search.nodes, search.next, stopped)
