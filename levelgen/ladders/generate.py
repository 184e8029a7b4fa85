"""Boards made to a target game length: a seeded search that steers the expected length into a
window, then the exact analysis.

Each candidate is measured by the fast float parts of :mod:`levelgen.ladders.steer` (the
expected length after a move from the Sherman-Morrison-Woodbury formula, the fewest rolls by
a search on bit masks), which take the same steps on every machine.

The search: a random layout that keeps the design rules (no two jumps share an end square;
every jump at least ``max(2, ceil(N / 10))`` squares long; no two jumps start on neighbouring
squares; each third of the board (by number) holds the start of a ladder and of a snake (when
there are three of each or more); at most ``max(2, ceil(2J / H))`` jumps start on one row,
with ``J`` jumps and ``H`` rows; no snake starts on the last row's squares within one roll of
N unless ``final_snakes``), then moves of one jump (a shift of one end, or a new place), the
best of a few candidates taken while it brings the board nearer to its aim (a band drawn
inside the window, see :func:`_target`) and the fewest-rolls bounds; after a few moves
without progress, a new layout.  A board that the floats put inside the aim is analysed
exactly (:mod:`levelgen.ladders.exact`) and kept only when the exact expected length is in
the window.  Same seed, same board.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from itertools import pairwise

from ..puzzles import Progress, SpecError
from .chain import build_chain, fewest_rolls
from .rules import Board, Rules
from .spec import LaddersSpec, format_bounds, format_window
from .steer import FloatChain, fewest_by_masks

__all__ = [
    "Layout",
    "Placer",
    "design_rules_problems",
    "generate_board",
    "initial_layout",
    "min_jump_length",
]

#: Restarts before giving up, moves tried per restart, candidates per move, and moves without
#: progress before a restart.
MAX_RESTARTS = 200
MAX_MOVES = 80
CANDIDATES = 6
PATIENCE = 6


def min_jump_length(squares: int) -> int:
    """The shortest jump the generator places."""
    return max(2, math.ceil(squares / 10))


def final_squares(width: int, squares: int, faces: int) -> range:
    """The last row's squares within one roll of N (no snake starts there unless asked)."""
    return range(max(squares - width + 1, squares - faces), squares)


def third_of(square: int, squares: int) -> int:
    """Which third of the board (0, 1, 2 by square number) ``square`` is in."""
    return min(2, 3 * (square - 1) // squares)


def thirds_kept(jumps: list[tuple[str, int]], squares: int, ladders: int, snakes: int) -> bool:
    """Whether each third of the board holds a ladder's start (with three ladders or more) and a
    snake's start (with three snakes or more); ``jumps`` are ``(kind, start)``."""
    for kind, count in (("ladder", ladders), ("snake", snakes)):
        if count >= 3 and len({third_of(a, squares) for k, a in jumps if k == kind}) < 3:
            return False
    return True


def row_cap(jumps: int, height: int) -> int:
    """The most jumps that may start on one row."""
    return max(2, math.ceil(2 * jumps / height))


@dataclass(slots=True)
class Layout:
    """The jumps being placed: ``kinds[i]`` is ``"ladder"`` or ``"snake"``, ``jumps[i]`` its
    ``(start, end)``."""

    kinds: list[str]
    jumps: list[tuple[int, int]]

    def board(self, width: int, height: int) -> Board:
        ladders = tuple(
            sorted(j for k, j in zip(self.kinds, self.jumps, strict=True) if k == "ladder")
        )
        snakes = tuple(
            sorted(j for k, j in zip(self.kinds, self.jumps, strict=True) if k == "snake")
        )
        return Board(width, height, ladders, snakes)


def design_rules_problems(board: Board, rules: Rules, *, final_snakes: bool) -> list[str]:
    """The generator's design rules that ``board`` breaks (see the module docstring), one line
    each; empty when it keeps them all."""
    n = board.squares
    jumps = [*board.ladders, *board.snakes]
    out = []
    ends = [s for j in jumps for s in j]
    if len(set(ends)) != len(ends):
        out.append("two jumps share an end square")
    shortest = min_jump_length(n)
    out += [
        f"the jump {a} -> {b} is shorter than {shortest}" for a, b in jumps if abs(a - b) < shortest
    ]
    cap = row_cap(len(jumps), board.height)
    rows: dict[int, int] = {}
    for a, _ in jumps:
        rows[(a - 1) // board.width] = rows.get((a - 1) // board.width, 0) + 1
    out += [
        f"{c} jumps start on row {r + 1} (at most {cap})"
        for r, c in sorted(rows.items())
        if c > cap
    ]
    firsts = sorted(a for a, _ in jumps)
    out += [
        f"jumps start on neighbouring squares {a} and {b}" for a, b in pairwise(firsts) if b - a < 2
    ]
    starts = [("ladder", a) for a, _ in board.ladders] + [("snake", a) for a, _ in board.snakes]
    if not thirds_kept(starts, n, len(board.ladders), len(board.snakes)):
        out.append("a third of the board lacks a ladder or a snake")
    if not final_snakes:
        final = final_squares(board.width, n, rules.faces)
        out += [f"a snake starts on the final square {a}" for a, _ in board.snakes if a in final]
    return out


# ----- the search --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Target:
    low: float
    high: float
    exact_low: Fraction | None
    exact_high: Fraction | None
    fewest_low: int
    fewest_high: int
    scale: float

    def off(self, expected: float) -> float:
        """How far an expected length is from the aim, in half widths of the window (or rolls)."""
        return max(0.0, self.low - expected, expected - self.high) / self.scale

    def miss(self, expected: float, fewest: int | None) -> float:
        """How far a board is from the target (0: inside, as far as floats tell)."""
        if fewest is None:
            return math.inf
        return self.off(expected) + max(0, self.fewest_low - fewest, fewest - self.fewest_high)

    def holds(self, expected: Fraction) -> bool:
        return (self.exact_low is None or expected >= self.exact_low) and (
            self.exact_high is None or expected <= self.exact_high
        )


def _target(spec: LaddersSpec, rng: random.Random) -> _Target:
    """What one layout steers to: with a window closed on both sides, a band of 40% of its
    width around a point drawn in its middle 60% (so that boards spread over the window
    instead of piling up at the edge the search comes from); the exact window decides."""
    low, high = spec.window
    margin = 1e-7
    f_low = 0.0 if low is None else float(low) * (1 + margin)
    f_high = math.inf if high is None else float(high) * (1 - margin)
    scale = 1.0
    if low is not None and high is not None:
        width = float(high - low)
        aim = float(low) + width * (0.2 + 0.6 * rng.random())
        f_low, f_high = max(f_low, aim - 0.2 * width), min(f_high, aim + 0.2 * width)
        scale = max(1.0, width / 2)
    return _Target(
        f_low,
        f_high,
        low,
        high,
        spec.fewest[0] or 0,
        spec.fewest[1] if spec.fewest[1] is not None else 1 << 30,
        scale,
    )


class Placer:
    """Random places for jumps that keep the design rules."""

    def __init__(self, spec: LaddersSpec) -> None:
        self.spec = spec
        self.n = spec.squares
        self.shortest = min_jump_length(self.n)
        self.cap = row_cap(spec.snakes + spec.ladders, spec.height)
        self.final = (
            set() if spec.final_snakes else set(final_squares(spec.width, self.n, spec.faces))
        )
        self._key: tuple[tuple[int, int], ...] | None = None
        self._counts: tuple[
            dict[int, int], dict[int, int], dict[int, int], dict[tuple[str, int], int], bool
        ] = ({}, {}, {}, {}, False)

    def _tally(
        self, layout: Layout
    ) -> tuple[dict[int, int], dict[int, int], dict[int, int], dict[tuple[str, int], int], bool]:
        """How many jump ends lie on each square, jumps start on each square and on each row,
        and starts of each kind in each third (jumps still to be placed left out); and whether
        every jump is placed.  Kept while the layout is unchanged."""
        key = tuple(layout.jumps)
        if key != self._key:
            ends: dict[int, int] = {}
            starts: dict[int, int] = {}
            rows: dict[int, int] = {}
            thirds: dict[tuple[str, int], int] = {}
            complete = True
            for kind, (a, b) in zip(layout.kinds, layout.jumps, strict=True):
                if a == 0:
                    complete = False
                    continue
                ends[a] = ends.get(a, 0) + 1
                ends[b] = ends.get(b, 0) + 1
                starts[a] = starts.get(a, 0) + 1
                row = (a - 1) // self.spec.width
                rows[row] = rows.get(row, 0) + 1
                third = (kind, third_of(a, self.n))
                thirds[third] = thirds.get(third, 0) + 1
            self._key = key
            self._counts = (ends, starts, rows, thirds, complete)
        return self._counts

    def fits(self, layout: Layout, index: int, kind: str, start: int, end: int) -> bool:
        """Whether jump ``index`` of ``layout`` may be ``(start, end)`` (jumps still to be
        placed, ``(0, 0)``, are left out, and the thirds are checked once none is left)."""
        n, w = self.n, self.spec.width
        if not (1 <= start < n and 1 <= end <= n) or abs(end - start) < self.shortest:
            return False
        if (kind == "ladder") != (end > start) or (kind == "snake" and start in self.final):
            return False
        ends, starts, rows, thirds, complete = self._tally(layout)
        own_start, own_end = layout.jumps[index]
        for square in (start, end):
            if ends.get(square, 0) - (square == own_start) - (square == own_end) > 0:
                return False
        for square in (start - 1, start + 1):
            if starts.get(square, 0) - (square == own_start) > 0:
                return False
        row = (start - 1) // w
        own_row = (own_start - 1) // w if own_start else -1
        if rows.get(row, 0) - (row == own_row) >= self.cap:
            return False
        count = self.spec.ladders if kind == "ladder" else self.spec.snakes
        if complete and count >= 3:
            old, new = third_of(own_start, n), third_of(start, n)
            if old != new and thirds.get((kind, old), 0) <= 1:
                return False
        return True

    def place(
        self, rng: random.Random, layout: Layout, index: int, kind: str, third: int | None = None
    ) -> tuple[int, int] | None:
        """A random place for jump ``index`` (its start in ``third`` of the board when given)
        that fits; None after 30 tries."""
        n = self.n
        if kind == "ladder":
            low, high = 1, n - self.shortest
        else:
            low, high = 1 + self.shortest, n - 1
        if third is not None:
            low, high = max(low, third * n // 3 + 1), min(high, (third + 1) * n // 3)
        if low > high:
            return None
        for _ in range(30):
            start = rng.randint(low, high)
            if kind == "ladder":
                end = rng.randint(start + self.shortest, n)
            else:
                end = rng.randint(1, start - self.shortest)
            if self.fits(layout, index, kind, start, end):
                return start, end
        return None

    def shift(self, rng: random.Random, layout: Layout, index: int) -> tuple[int, int] | None:
        kind = layout.kinds[index]
        start, end = layout.jumps[index]
        reach = max(2, self.spec.width)
        for _ in range(10):
            delta = rng.randint(-reach, reach)
            if delta == 0:
                continue
            candidate = (start + delta, end) if rng.random() < 0.5 else (start, end + delta)
            if self.fits(layout, index, kind, *candidate):
                return candidate
        return None


def initial_layout(rng: random.Random, spec: LaddersSpec, placer: Placer) -> Layout | None:
    """A random layout of the spec's jumps that keeps the design rules; None when one jump
    found no place in its tries."""
    kinds = ["ladder"] * spec.ladders + ["snake"] * spec.snakes
    layout = Layout(kinds, [(0, 0)] * len(kinds))
    for i, kind in enumerate(kinds):
        rank = i if kind == "ladder" else i - spec.ladders
        count = spec.ladders if kind == "ladder" else spec.snakes
        third = rank if count >= 3 and rank < 3 else None
        place = placer.place(rng, layout, i, kind, third)
        if place is None:
            return None
        layout.jumps[i] = place
    return layout


def generate_board(
    spec: LaddersSpec,
    seed: int,
    *,
    accept: Callable[[Board], Fraction | None],
    progress: Progress | None = None,
) -> Board:
    """A board for ``spec`` from ``seed``.  ``accept(board)`` gives the exact expected rolls of
    a candidate (None when the board is to be passed over); the board returned is the first
    whose exact value is in the window.  ``SpecError`` (at ``expected``) when none is found in
    :data:`MAX_RESTARTS` layouts."""
    rng = random.Random(seed)
    n, faces, overshoot = spec.squares, spec.faces, spec.overshoot
    rules = Rules(faces, overshoot)
    placer = Placer(spec)
    for restart in range(MAX_RESTARTS):
        if progress is not None:
            progress("search", restart, MAX_RESTARTS)
        target = _target(spec, rng)
        layout = initial_layout(rng, spec, placer)
        if layout is None:
            continue
        chain = FloatChain(n, faces, overshoot)
        if not all(chain.apply(chain.change(a, a, b)) for a, b in layout.jumps):
            continue
        jumps = dict(layout.jumps)
        miss = target.miss(float(chain.expected[0]), fewest_by_masks(n, faces, overshoot, jumps))
        stale = 0
        for _ in range(MAX_MOVES):
            if miss == 0:
                board = layout.board(spec.width, spec.height)
                exact = accept(board)
                if exact is not None and target.holds(exact):
                    found = fewest_rolls_of(board, rules)
                    if found is not None and target.miss(float(exact), found) == 0:
                        return board
                break
            best: tuple[float, int, tuple[int, int]] | None = None
            if not layout.jumps:
                break
            candidates: list[tuple[float, int, int, tuple[int, int]]] = []
            for order in range(CANDIDATES):
                index = rng.randrange(len(layout.jumps))
                if rng.random() < 0.6:
                    moved = placer.shift(rng, layout, index)
                else:
                    moved = placer.place(rng, layout, index, layout.kinds[index])
                if moved is None:
                    continue
                old = layout.jumps[index]
                changes = [
                    chain.change(old[0], old[1], old[0]),
                    chain.change(moved[0], moved[0], moved[1]),
                ]
                if old[0] == moved[0]:
                    changes = [chain.change(old[0], old[1], moved[1])]
                value = chain.evaluate(changes)
                if value is not None:
                    candidates.append((target.off(value), order, index, moved))
            # The fewest rolls only for candidates that can still win, nearest first: the
            # miss is the distance from the aim plus the fewest rolls out of bounds.
            for off, _order, index, moved in sorted(candidates):
                if best is not None and off >= best[0]:
                    break
                trial = dict(jumps)
                del trial[layout.jumps[index][0]]
                trial[moved[0]] = moved[1]
                fewest = fewest_by_masks(n, faces, overshoot, trial)
                if fewest is None:
                    continue
                score = off + max(0, target.fewest_low - fewest, fewest - target.fewest_high)
                if best is None or score < best[0]:
                    best = (score, index, moved)
            if best is None or best[0] >= miss:
                stale += 1
                if stale >= PATIENCE:
                    break
                continue
            score, index, moved = best
            old = layout.jumps[index]
            if old[0] == moved[0]:
                steps = [chain.change(old[0], old[1], moved[1])]
            else:
                steps = [
                    chain.change(old[0], old[1], old[0]),
                    chain.change(moved[0], moved[0], moved[1]),
                ]
            if not all(chain.apply(step) for step in steps):
                break  # the inverse is no longer the layout's: start again
            layout.jumps[index] = moved
            del jumps[old[0]]
            jumps[moved[0]] = moved[1]
            miss = target.miss(
                float(chain.expected[0]), fewest_by_masks(n, faces, overshoot, jumps)
            )
            stale = 0
    # The window as the user knows it: the one given, or the band's (the default is medium).
    window = format_window(spec.window)
    if spec.expected is None:
        window += f" (the {spec.difficulty} band's window)"
    raise SpecError(
        "expected",
        f"no board with an expected length in {window} and fewest rolls"
        f" {format_bounds(spec.fewest)} found from seed {seed} in {MAX_RESTARTS} layouts;"
        " widen the window or the fewest rolls, or change the snakes and ladders",
    )


def fewest_rolls_of(board: Board, rules: Rules) -> int | None:
    """The fewest rolls of ``board`` by the chain's own search (a check of the bit masks)."""
    found = fewest_rolls(build_chain(board, rules))
    return None if found is None else found[0]
