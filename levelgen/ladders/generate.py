"""Boards made to a target game length: a seeded search that steers the expected length into a
window, then the exact analysis.

Each candidate is measured by the fast float parts of :mod:`levelgen.ladders.steer` (the
expected length after a move from the Sherman-Morrison-Woodbury formula, the fewest rolls by
a search on bit masks), which take the same steps on every machine.

The search: a random layout that keeps the design rules (no two jumps share an end square
unless ``shared_ends``; every jump at least ``max(2, ceil(N / 10))`` squares long and at
most ``max_length`` rows long (the straight line between its squares' centres, a row's
height the unit); at most ``ladder_crossings`` pairs of ladders and
``snake_crossings`` pairs of a snake with a snake or a ladder cross
(:mod:`levelgen.ladders.geometry`); no two jumps start on neighbouring squares; with
``thirds``, each third of the board (by number) holds a jump's start (with three jumps or
more) and the start of a ladder and of a snake (with three of each or more); at most
``max(2, ceil(2J / H))`` jumps start on one row, with ``J`` jumps and ``H`` rows; no snake
starts on the last row's squares within one roll of N unless ``final_snakes``), then moves
of one jump (a shift of one end, or a new place) that keep the rules, the best of a few
candidates taken while it brings the board nearer to its aim (a band drawn inside the
window, see :func:`_target`) and the fewest-rolls bounds; after a few moves without
progress, a new layout.  A board that the floats put inside the aim is analysed exactly
(:mod:`levelgen.ladders.exact`) and kept only when the exact expected length is in the
window.  Same seed, same board.
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
from .geometry import board_crossings, centre, jump_length, segments_cross, within_length
from .rules import Board, Rules
from .spec import Design, LaddersSpec, format_bounds, format_window, min_jump_length
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
#: Tries to place each jump of a new layout (the crossings and rows rule out many places).
PLACE_TRIES = 300


def final_squares(width: int, squares: int, faces: int) -> range:
    """The last row's squares within one roll of N (no snake starts there unless asked)."""
    return range(max(squares - width + 1, squares - faces), squares)


def third_of(square: int, squares: int) -> int:
    """Which third of the board (0, 1, 2 by square number) ``square`` is in."""
    return min(2, 3 * (square - 1) // squares)


def thirds_kept(jumps: list[tuple[str, int]], squares: int, ladders: int, snakes: int) -> bool:
    """Whether each third of the board holds a jump's start (with three jumps or more), a
    ladder's start (with three ladders or more) and a snake's start (with three snakes or
    more); ``jumps`` are ``(kind, start)``."""
    if ladders + snakes >= 3 and len({third_of(a, squares) for _k, a in jumps}) < 3:
        return False
    for kind, count in (("ladder", ladders), ("snake", snakes)):
        if count >= 3 and len({third_of(a, squares) for k, a in jumps if k == kind}) < 3:
            return False
    return True


def third_squares(third: int, squares: int) -> tuple[int, int]:
    """The first and last square of ``third`` (0, 1, 2) of the board, as :func:`third_of`."""
    first = -(-third * squares // 3) + 1
    last = squares if third == 2 else -(-(third + 1) * squares // 3)
    return first, last


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


def design_rules_problems(board: Board, rules: Rules, design: Design | None = None) -> list[str]:
    """The generator's design rules that ``board`` breaks (see the module docstring), one line
    each; empty when it keeps them all.  ``design``: the layout rules (default: the create
    defaults for the board's height)."""
    if design is None:
        design = Design.for_board(board.width, board.height)
    n, w = board.squares, board.width
    jumps = [*board.ladders, *board.snakes]
    out = []
    if design.shared_ends:
        ends = [b for _a, b in jumps]
        starts = {a for a, _b in jumps}
        if any(b in starts for b in ends):
            out.append("a jump ends on another jump's start")
    else:
        squares = [s for j in jumps for s in j]
        if len(set(squares)) != len(squares):
            out.append("two jumps share an end square")
    shortest = min_jump_length(n)
    out += [
        f"the jump {a} -> {b} is shorter than {shortest}" for a, b in jumps if abs(a - b) < shortest
    ]
    out += [
        f"the jump {a} -> {b} is {jump_length(a, b, w, board.height):.1f} rows long"
        f" (at most {design.max_length})"
        for a, b in jumps
        if not within_length(a, b, w, board.height, design.max_length)
    ]
    ladder_ladder, ladder_snake, snake_snake = board_crossings(board)
    if ladder_ladder > design.ladder_crossings:
        out.append(
            f"{plural(ladder_ladder, 'pair')} of ladders cross (at most {design.ladder_crossings})"
        )
    if ladder_snake + snake_snake > design.snake_crossings:
        out.append(
            f"{plural(ladder_snake + snake_snake, 'pair')} of a snake and a jump cross"
            f" (at most {design.snake_crossings})"
        )
    cap = row_cap(len(jumps), board.height)
    rows: dict[int, int] = {}
    for a, _ in jumps:
        rows[(a - 1) // w] = rows.get((a - 1) // w, 0) + 1
    out += [
        f"{c} jumps start on row {r + 1} (at most {cap})"
        for r, c in sorted(rows.items())
        if c > cap
    ]
    firsts = sorted(a for a, _ in jumps)
    out += [
        f"jumps start on neighbouring squares {a} and {b}" for a, b in pairwise(firsts) if b - a < 2
    ]
    starts_of = [("ladder", a) for a, _ in board.ladders] + [("snake", a) for a, _ in board.snakes]
    if design.thirds and not thirds_kept(starts_of, n, len(board.ladders), len(board.snakes)):
        out.append("a third of the board lacks a jump, a ladder or a snake")
    if not design.final_snakes:
        final = final_squares(w, n, rules.faces)
        out += [f"a snake starts on the final square {a}" for a, _ in board.snakes if a in final]
    return out


def plural(count: int, word: str) -> str:
    """``"1 pair"``, ``"3 pairs"``."""
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


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


@dataclass(slots=True)
class _Tally:
    """What the placed jumps of a layout hold (jumps still to be placed left out): how many
    jump squares lie on each square (``ends``: starts and ends; ``starts``; ``finishes``: the
    ends alone), starts on each row, starts of each kind in each third, each jump's crossings
    with ladders and with snakes, and whether every jump is placed."""

    ends: dict[int, int]
    starts: dict[int, int]
    finishes: dict[int, int]
    rows: dict[int, int]
    thirds: dict[tuple[str, int], int]
    crossings: list[tuple[int, int]]
    ladder_ladder: int
    with_snakes: int
    complete: bool


class Placer:
    """Random places for jumps that keep the design rules."""

    def __init__(self, spec: LaddersSpec) -> None:
        self.spec = spec
        self.design = spec.design
        self.n = spec.squares
        self.shortest = min_jump_length(self.n)
        self.cap = row_cap(spec.snakes + spec.ladders, spec.height)
        self.final = (
            set() if spec.final_snakes else set(final_squares(spec.width, self.n, spec.faces))
        )
        self.centres = [(0, 0)] + [centre(s, spec.width, spec.height) for s in range(1, self.n + 1)]
        self._crossing: dict[tuple[tuple[int, int], tuple[int, int]], bool] = {}
        self._key: tuple[tuple[int, int], ...] | None = None
        self._tally_of = _Tally({}, {}, {}, {}, {}, [], 0, 0, False)

    def _crosses(self, a: tuple[int, int], b: tuple[int, int]) -> bool:
        """Whether two jumps cross (remembered: a layout changes one jump at a time)."""
        key = (a, b) if a < b else (b, a)
        found = self._crossing.get(key)
        if found is None:
            c = self.centres
            found = segments_cross(c[a[0]], c[a[1]], c[b[0]], c[b[1]])
            if len(self._crossing) >= 200_000:
                self._crossing.clear()
            self._crossing[key] = found
        return found

    def _tally(self, layout: Layout) -> _Tally:
        """The layout's tally (kept while the layout is unchanged)."""
        key = tuple(layout.jumps)
        if key == self._key:
            return self._tally_of
        tally = _Tally({}, {}, {}, {}, {}, [(0, 0)] * len(key), 0, 0, True)
        placed = []
        for i, (kind, (a, b)) in enumerate(zip(layout.kinds, layout.jumps, strict=True)):
            if a == 0:
                tally.complete = False
                continue
            placed.append(i)
            for counts, square in (
                (tally.ends, a),
                (tally.ends, b),
                (tally.starts, a),
                (tally.finishes, b),
            ):
                counts[square] = counts.get(square, 0) + 1
            row = (a - 1) // self.spec.width
            tally.rows[row] = tally.rows.get(row, 0) + 1
            third = (kind, third_of(a, self.n))
            tally.thirds[third] = tally.thirds.get(third, 0) + 1
        for x, i in enumerate(placed):
            for j in placed[x + 1 :]:
                if not self._crosses(layout.jumps[i], layout.jumps[j]):
                    continue
                ladders = (layout.kinds[i] == "ladder") + (layout.kinds[j] == "ladder")
                if ladders == 2:
                    tally.ladder_ladder += 1
                else:
                    tally.with_snakes += 1
                for one, other in ((i, j), (j, i)):
                    by_ladders, by_snakes = tally.crossings[one]
                    if layout.kinds[other] == "ladder":
                        tally.crossings[one] = (by_ladders + 1, by_snakes)
                    else:
                        tally.crossings[one] = (by_ladders, by_snakes + 1)
        self._key = key
        self._tally_of = tally
        return tally

    def fits(self, layout: Layout, index: int, kind: str, start: int, end: int) -> bool:
        """Whether jump ``index`` of ``layout`` may be ``(start, end)`` (jumps still to be
        placed, ``(0, 0)``, are left out, and the thirds are checked once none is left)."""
        n, w, design = self.n, self.spec.width, self.design
        if not (1 <= start < n and 1 <= end <= n) or abs(end - start) < self.shortest:
            return False
        if (kind == "ladder") != (end > start) or (kind == "snake" and start in self.final):
            return False
        if not within_length(start, end, w, self.spec.height, design.max_length):
            return False
        tally = self._tally(layout)
        own_start, own_end = layout.jumps[index]

        def others(counts: dict[int, int], square: int, own: int) -> int:
            return counts.get(square, 0) - (square == own)

        own_ends = tally.ends.get(start, 0) - (start == own_start) - (start == own_end)
        if own_ends > 0:
            return False  # a start on another jump's start or end
        if design.shared_ends:
            if others(tally.starts, end, own_start) > 0:
                return False  # an end on another jump's start
        elif tally.ends.get(end, 0) - (end == own_start) - (end == own_end) > 0:
            return False
        for square in (start - 1, start + 1):
            if others(tally.starts, square, own_start) > 0:
                return False
        row = (start - 1) // w
        own_row = (own_start - 1) // w if own_start else -1
        if tally.rows.get(row, 0) - (row == own_row) >= self.cap:
            return False
        if design.thirds and tally.complete:
            old, new = third_of(own_start, n), third_of(start, n)
            count = self.spec.ladders if kind == "ladder" else self.spec.snakes
            if old != new and count >= 3 and tally.thirds.get((kind, old), 0) <= 1:
                return False
            if old != new and self.spec.ladders + self.spec.snakes >= 3:
                left = tally.thirds.get(("ladder", old), 0) + tally.thirds.get(("snake", old), 0)
                if left <= 1:
                    return False
        return self._crossings_fit(layout, tally, index, kind, (start, end))

    def _crossings_fit(
        self, layout: Layout, tally: _Tally, index: int, kind: str, jump: tuple[int, int]
    ) -> bool:
        """Whether the crossings stay within the design with jump ``index`` at ``jump``."""
        by_ladders, by_snakes = tally.crossings[index]
        if kind == "ladder":
            ladder_ladder = tally.ladder_ladder - by_ladders
            with_snakes = tally.with_snakes - by_snakes
        else:
            ladder_ladder = tally.ladder_ladder
            with_snakes = tally.with_snakes - by_ladders - by_snakes
        ladder_cap, snake_cap = self.design.ladder_crossings, self.design.snake_crossings
        for other, (other_kind, placed) in enumerate(zip(layout.kinds, layout.jumps, strict=True)):
            if other == index or placed[0] == 0 or not self._crosses(jump, placed):
                continue
            if kind == "ladder" and other_kind == "ladder":
                ladder_ladder += 1
                if ladder_ladder > ladder_cap:
                    return False
            else:
                with_snakes += 1
                if with_snakes > snake_cap:
                    return False
        return True

    def place(
        self,
        rng: random.Random,
        layout: Layout,
        index: int,
        kind: str,
        third: int | None = None,
        tries: int = 30,
    ) -> tuple[int, int] | None:
        """A random place for jump ``index`` (its start in ``third`` of the board when given)
        that fits; None after ``tries`` tries."""
        n, w = self.n, self.spec.width
        reach = min(self.design.max_length, self.spec.height)  # in rows
        if kind == "ladder":
            low, high = 1, n - self.shortest
        else:
            low, high = 1 + self.shortest, n - 1
        if third is not None:
            first, last = third_squares(third, n)
            low, high = max(low, first), min(high, last)
        if low > high:
            return None
        for _ in range(tries):
            start = rng.randint(low, high)
            row = (start - 1) // w
            if kind == "ladder":
                first, last = start + self.shortest, min(n, (row + reach + 1) * w)
            else:
                first, last = max(1, (row - reach) * w + 1), start - self.shortest
            if first > last:
                continue
            end = rng.randint(first, last)
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
    found no place in :data:`PLACE_TRIES` tries."""
    kinds = ["ladder"] * spec.ladders + ["snake"] * spec.snakes
    layout = Layout(kinds, [(0, 0)] * len(kinds))
    spread = spec.thirds and spec.ladders < 3 and spec.snakes < 3 and len(kinds) >= 3
    for i, kind in enumerate(kinds):
        rank = i if kind == "ladder" else i - spec.ladders
        count = spec.ladders if kind == "ladder" else spec.snakes
        third = rank if spec.thirds and count >= 3 and rank < 3 else None
        if spread and i < 3:
            third = i  # fewer than three of each kind: the first three jumps, one a third
        place = placer.place(rng, layout, i, kind, third, tries=PLACE_TRIES)
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
    whose exact value is in the window.  ``SpecError`` when none is found in
    :data:`MAX_RESTARTS` layouts (at ``max_length`` when no layout kept the layout rules; else
    at ``expected``, ``fewest`` or ``difficulty``, the option that set the target)."""
    rng = random.Random(seed)
    n, faces, overshoot = spec.squares, spec.faces, spec.overshoot
    rules = Rules(faces, overshoot)
    placer = Placer(spec)
    placed = 0
    for restart in range(MAX_RESTARTS):
        if progress is not None:
            progress("search", restart, MAX_RESTARTS)
        target = _target(spec, rng)
        layout = initial_layout(rng, spec, placer)
        if layout is None:
            continue
        placed += 1
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
    raise _not_found(spec, seed, placed)


def _not_found(spec: LaddersSpec, seed: int, placed: int) -> SpecError:
    """The refusal when no board was found: the layout rules when no layout kept them, else
    the window (named as the band it came from) and the fewest-rolls bounds."""
    design = spec.design
    if placed == 0:
        return SpecError(
            "max_length",
            f"no layout of {spec.snakes} snakes and {spec.ladders} ladders keeps the layout rules"
            f" (max_length {design.max_length}, ladder_crossings {design.ladder_crossings},"
            f" snake_crossings {design.snake_crossings}) from seed {seed} in {MAX_RESTARTS}"
            " tries; allow longer jumps or more crossings, or place fewer",
        )
    window = format_window(spec.window)
    if spec.expected is None and spec.difficulty is not None:
        window = f"the {spec.difficulty} band ({window})"
    fewest = (
        f" and fewest rolls {format_bounds(spec.fewest)}" if spec.fewest != (None, None) else ""
    )
    default_fewest = (max(1, math.ceil(spec.squares / (3 * spec.faces))), None)
    if spec.expected is not None:
        option = "expected"
    elif spec.fewest != default_fewest:
        option = "fewest"
    else:
        option = "difficulty"
    return SpecError(
        option,
        f"no board with an expected length in {window}{fewest} found from seed {seed} in"
        f" {placed} layouts that keep the layout rules; widen the window, change the fewest"
        " rolls or the snakes and ladders",
    )


def fewest_rolls_of(board: Board, rules: Rules) -> int | None:
    """The fewest rolls of ``board`` by the chain's own search (a check of the bit masks)."""
    found = fewest_rolls(build_chain(board, rules))
    return None if found is None else found[0]
