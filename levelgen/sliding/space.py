"""Whole-space distance tables: every frame's optimal distance to the goal, one byte a frame.

Where the whole space fits in memory (a numbered board of at most 12 cells: 3x4, 4x3, 2x6 and
6x2 have 239,500,800 frames; a colour board whose arrangements number at most
:data:`SPACE_LIMIT`), one breadth-first search from the goal gives every frame's distance
(moves are reversible), so a level at *any* length that exists is a random frame of that
layer, its least optimal solution is read off the table (from each frame, the first move in
the order ``U D L R`` whose frame is one nearer), and the size's largest distance is known.
For a colour goal, the search runs over the arrangements of its labels themselves: a colour
frame's distance is the fewest moves to *some* frame that looks like the goal, which is a
distance in the colour space (two frames that look alike are one frame there).

**Ranking.**  Tiles get codes: numbered, ``1..W*H-1`` in the order of the goal's tiles (the
goal's tile sequence is ``1, 2, ...``); colour, ``1..K`` in the order of the labels.  A frame
is its blank cell ``b`` and its tile sequence (the codes in reading order, the blank left
out); its index is ``b * S + r``.  Colour: ``r`` is the rank of the sequence among the
arrangements of the multiset (``S`` of them).  Numbered: a move along a row keeps the
sequence, a move along a column moves one tile ``W - 1`` places in it, so the parity of the
sequence (as a permutation) is fixed by the blank's row: exactly half the sequences can be
reached with the blank at ``b``, and of two permutations next to each other in lexicographic
order (they differ by their last two tiles) exactly one of them; ``r`` is the lexicographic
rank halved and ``S = (W*H-1)!/2``.

**Symmetry.**  A numbered board's table depends only on its shape and the goal's blank cell
(relabelling the tiles changes no distance).  The board is turned (reflected, transposed) so
that it is at least as tall as it is wide and the blank in the lowest cell it can take:
4x3 uses 3x4's table, and the goal with the blank in the last cell uses the table of the blank
in the first.

**Tables.**  :func:`python_build` is the reference (a plain breadth-first search over the
ranking above, for small boards and tests); ``levelgen/sliding/_space.c`` is its compiled twin
(the same bytes; ``tests/sliding/test_space.py`` compares them and checks both against
:func:`levelgen.sliding.bfs.distances_from`).  Numbered tables of at least
:data:`DISK_MIN_FRAMES` frames are kept on disk in the pattern databases' folder, with their
checksum (:mod:`levelgen.sliding.pdb_cache`): a 3x4 table is 239,500,800 bytes.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from math import factorial
from types import ModuleType

import numpy as np

from .rules import BLANK, DIRECTIONS, Frame, is_numbered

__all__ = [
    "DISK_MIN_FRAMES",
    "NUMBERED_CELLS",
    "PYTHON_LIMIT",
    "SPACE_LIMIT",
    "DistanceTable",
    "Layout",
    "available",
    "frame_count",
    "python_build",
    "space_native",
    "table_for",
]

#: The most cells of a numbered board with a whole-space table.
NUMBERED_CELLS = 12
#: The most frames of a colour board with a whole-space table.
SPACE_LIMIT = 250_000_000
#: The most frames the Python reference builds when the compiled twin is not there.
PYTHON_LIMIT = 200_000
#: Numbered tables of at least this many frames are kept on disk.
DISK_MIN_FRAMES = 1_000_000
UNSEEN = 255


def _load_native() -> ModuleType | None:
    import os

    if os.environ.get("LEVELGEN_NATIVE", "1") == "0":
        return None
    try:
        from . import _space
    except ImportError:  # not built (no C compiler at install)
        return None
    return _space if getattr(_space, "API", None) == 1 else None


#: The compiled search, or None.
space_native = _load_native()


# ----- the board's turn -------------------------------------------------------------------


def _turns(width: int, height: int) -> list[tuple[int, int, list[int]]]:
    """The board's symmetries: ``(width', height', where)`` with ``where[i]`` the cell that
    cell ``i`` goes to."""
    out = []
    for transpose in (False, True):
        for flip_x in (False, True):
            for flip_y in (False, True):
                w2, h2 = (height, width) if transpose else (width, height)
                where = []
                for i in range(width * height):
                    x, y = i % width, i // width
                    if flip_x:
                        x = width - 1 - x
                    if flip_y:
                        y = height - 1 - y
                    if transpose:
                        x, y = y, x
                    where.append(y * w2 + x)
                out.append((w2, h2, where))
    return out


@dataclass(frozen=True, slots=True)
class Layout:
    """How the frames of one goal map to a table: the turned board's size, the cell map,
    each label's code, and the goal in codes."""

    width: int
    height: int
    where: tuple[int, ...]
    codes: dict[int, int]
    goal: bytes
    numbered: bool
    counts: tuple[int, ...]

    @property
    def span(self) -> int:
        """Indices per blank cell."""
        m = self.width * self.height - 1
        if self.numbered:
            return factorial(m) // 2
        total = factorial(m)
        for c in self.counts:
            total //= factorial(c)
        return total

    @property
    def size(self) -> int:
        """Frames in the table."""
        return self.span * self.width * self.height

    def turn(self, frame: Frame) -> bytes:
        """The frame's codes on the turned board."""
        out = bytearray(len(self.where))
        for i, v in enumerate(frame.cells):
            out[self.where[i]] = self.codes[v]
        return bytes(out)

    def unturn(self, cells: bytes, labels: dict[int, int]) -> tuple[int, ...]:
        """The labels of a frame of the original board from its turned codes."""
        return tuple(labels[cells[self.where[i]]] for i in range(len(self.where)))

    def index(self, cells: bytes) -> int:
        """The index of turned codes (see the module docstring)."""
        b = cells.index(BLANK)
        seq = [c - 1 for c in cells if c != BLANK]
        if self.numbered:
            r, _ = _perm_rank(seq)
            return b * self.span + (r >> 1)
        return b * self.span + _multi_rank(seq, list(self.counts), self.span)

    def cells_at(self, index: int) -> bytes:
        """The turned codes of the frame at ``index``."""
        b, r = divmod(index, self.span)
        m = self.width * self.height - 1
        if self.numbered:
            seq, parity = _perm_unrank(2 * r, m)
            goal_row = self.goal.index(BLANK) // self.width
            if parity != ((self.width - 1) * (b // self.width - goal_row)) % 2:
                seq[-1], seq[-2] = seq[-2], seq[-1]
        else:
            seq = _multi_unrank(r, list(self.counts), self.span)
        cells = [c + 1 for c in seq]
        cells.insert(b, BLANK)
        return bytes(cells)


def layout_of(goal: Frame) -> Layout:
    """The layout of ``goal``'s table (numbered: turned as the module docstring says)."""
    numbered = is_numbered(goal)
    if not numbered:
        labels = sorted(v for v in goal.labels() if v != BLANK)
        codes = {BLANK: BLANK, **{v: k + 1 for k, v in enumerate(labels)}}
        counts = tuple(goal.labels()[v] for v in labels)
        where = tuple(range(goal.size))
        cells = bytes(codes[v] for v in goal.cells)
        return Layout(goal.width, goal.height, where, codes, cells, False, counts)
    best: tuple[tuple[int, int], int, int, tuple[int, ...]] | None = None
    for w2, h2, moved in _turns(goal.width, goal.height):
        key = (0 if w2 <= h2 else 1, moved[goal.blank])
        if best is None or key < best[0]:
            best = (key, w2, h2, tuple(moved))
    assert best is not None
    _, w2, h2, where = best
    turned = [0] * goal.size
    for i, v in enumerate(goal.cells):
        turned[where[i]] = v
    codes = {BLANK: BLANK}
    for v in turned:
        if v != BLANK:
            codes[v] = len(codes)
    cells = bytes(codes[v] for v in turned)
    return Layout(w2, h2, where, codes, cells, True, (1,) * (goal.size - 1))


def frame_count(goal: Frame) -> int:
    """How many frames the goal's table has."""
    return layout_of(goal).size


def available(goal: Frame) -> bool:
    """Whether ``goal`` gets a whole-space table here (small enough, and the compiled search
    built or the space within :data:`PYTHON_LIMIT`)."""
    if is_numbered(goal) and goal.size > NUMBERED_CELLS:
        return False
    size = frame_count(goal)
    return size <= (SPACE_LIMIT if space_native is not None else PYTHON_LIMIT)


# ----- ranking (the reference; _space.c has the same) -------------------------------------


def _perm_rank(seq: list[int]) -> tuple[int, int]:
    m = len(seq)
    used = 0
    r = 0
    parity = 0
    for i, v in enumerate(seq):
        d = v - bin(used & ((1 << v) - 1)).count("1")
        parity += d
        r += d * factorial(m - 1 - i)
        used |= 1 << v
    return r, parity & 1


def _perm_unrank(r: int, m: int) -> tuple[list[int], int]:
    left = list(range(m))
    seq = []
    parity = 0
    for i in range(m):
        d, r = divmod(r, factorial(m - 1 - i))
        parity += d
        seq.append(left.pop(d))
    return seq, parity & 1


def _multi_rank(seq: list[int], counts: list[int], total: int) -> int:
    r = 0
    m = len(seq)
    for i, v in enumerate(seq):
        left = m - i
        for label in range(v):
            if counts[label]:
                r += total * counts[label] // left
        total = total * counts[v] // left
        counts[v] -= 1
    return r


def _multi_unrank(r: int, counts: list[int], total: int) -> list[int]:
    seq = []
    m = sum(counts)
    for i in range(m):
        left = m - i
        for label, c in enumerate(counts):
            if not c:
                continue
            here = total * c // left
            if r < here:
                seq.append(label)
                total = here
                counts[label] -= 1
                break
            r -= here
    return seq


def _neighbours(cells: bytes, width: int, height: int) -> list[tuple[str, bytes]]:
    b = cells.index(BLANK)
    x, y = b % width, b // width
    out = []
    for d, ok, t in (
        ("U", y > 0, b - width),
        ("D", y < height - 1, b + width),
        ("L", x > 0, b - 1),
        ("R", x < width - 1, b + 1),
    ):
        if ok:
            after = bytearray(cells)
            after[b], after[t] = after[t], BLANK
            out.append((d, bytes(after)))
    return out


def python_build(layout: Layout) -> bytes:
    """The table by a plain breadth-first search over the ranking (the reference)."""
    table = bytearray([UNSEEN]) * layout.size
    frontier = [layout.goal]
    table[layout.index(layout.goal)] = 0
    depth = 0
    while frontier:
        depth += 1
        following = []
        for cells in frontier:
            for _, after in _neighbours(cells, layout.width, layout.height):
                i = layout.index(after)
                if table[i] == UNSEEN:
                    table[i] = depth
                    following.append(after)
        frontier = following
    return bytes(table)


# ----- tables -----------------------------------------------------------------------------


@dataclass
class DistanceTable:
    """One goal's whole-space table: distances by index, and what each layer holds."""

    goal: Frame
    layout: Layout
    table: bytes
    _layers: list[int] = field(default_factory=list)
    labels: dict[int, int] = field(init=False)

    def __post_init__(self) -> None:
        self.labels = {c: v for v, c in self.layout.codes.items()}

    def distance(self, frame: Frame) -> int:
        """The frame's optimal distance to the goal."""
        return self.table[self.layout.index(self.layout.turn(frame))]

    def layers(self) -> list[int]:
        """How many frames lie at each distance 0, 1, ..., the largest."""
        if not self._layers:
            if space_native is not None:
                counts = space_native.histogram(self.table)
            else:
                counts = np.bincount(np.frombuffer(self.table, dtype=np.uint8), minlength=256)
            top = max(i for i in range(UNSEEN) if counts[i])
            self._layers.extend(int(c) for c in counts[: top + 1])
        return self._layers

    @property
    def largest(self) -> int:
        """The largest distance of any frame."""
        return len(self.layers()) - 1

    def pick(self, depth: int, k: int) -> Frame:
        """The ``k``-th frame (in index order) at distance ``depth``."""
        data = np.frombuffer(self.table, dtype=np.uint8)
        chunk = 1 << 24
        for lo in range(0, len(data), chunk):
            hits = np.flatnonzero(data[lo : lo + chunk] == depth)
            if k < len(hits):
                return self._frame(self.layout.cells_at(lo + int(hits[k])))
            k -= len(hits)
        raise ValueError(f"no frame {k} at distance {depth}")

    def frames_at(self, depth: int) -> list[Frame]:
        """Every frame at distance ``depth`` (for a small table)."""
        data = np.frombuffer(self.table, dtype=np.uint8)
        return [self._frame(self.layout.cells_at(int(i))) for i in np.flatnonzero(data == depth)]

    def _frame(self, cells: bytes) -> Frame:
        return Frame(self.goal.width, self.goal.height, self.layout.unturn(cells, self.labels))

    def least_path(self, frame: Frame) -> str:
        """The least optimal solution (in the order ``U D L R``) from ``frame``."""
        d = self.distance(frame)
        moves = []
        while d:
            for move in DIRECTIONS:
                if frame.can_move(move):
                    after = frame.move(move)
                    if self.distance(after) == d - 1:
                        moves.append(move)
                        frame, d = after, d - 1
                        break
        return "".join(moves)

    def count_optimal(self, frame: Frame, cap: int) -> int:
        """How many optimal solutions ``frame`` has (up to ``cap``)."""
        layer = {frame: 1}
        d = self.distance(frame)
        while d:
            following: dict[Frame, int] = {}
            for at, n in layer.items():
                for _, after in at.neighbours():
                    if self.distance(after) == d - 1:
                        following[after] = min(cap, following.get(after, 0) + n)
            layer, d = following, d - 1
        return min(cap, sum(layer.values()))


def _build(layout: Layout) -> bytes:
    if space_native is not None:
        return bytes(space_native.build(layout.width, layout.height, layout.goal))
    return python_build(layout)


_tables: dict[bytes, tuple[bytes, list[int]]] = {}
_lock = threading.Lock()


def table_for(goal: Frame, progress: Callable[[str], None] | None = None) -> DistanceTable:
    """The goal's table: from memory, the disk cache (numbered, large), or built (``progress``
    is told before a build)."""
    layout = layout_of(goal)
    key = bytes([layout.width, layout.height, int(layout.numbered)]) + layout.goal
    with _lock:
        found = _tables.get(key)
        if found is None:
            found = (_load_or_build(layout, progress), [])
            if len(_tables) >= 4:
                _tables.pop(next(iter(_tables)))
            _tables[key] = found
    return DistanceTable(goal, layout, found[0], found[1])


def _load_or_build(layout: Layout, progress: Callable[[str], None] | None) -> bytes:
    from .pdb_cache import _load, _save, cache_dir

    header = json.dumps(
        {
            "format": 1,
            "kind": "whole-space distances",
            "size": f"{layout.width}x{layout.height}",
            "goal": layout.goal.hex(),
            "entries": layout.size,
        },
        sort_keys=True,
        separators=(",", ":"),
    ).encode("ascii")
    name = "sliding-space-v1-" + hashlib.sha256(header).hexdigest()[:24] + ".bin"
    on_disk = layout.numbered and layout.size >= DISK_MIN_FRAMES
    if on_disk:
        data, _ = _load(cache_dir() / name, header, layout.size)
        if data is not None:
            return data
    if progress is not None:
        progress(
            f"building the {layout.width}x{layout.height} distance table"
            f" ({layout.size:,} frames, once)"
        )
    data = _build(layout)
    if on_disk:
        _save(cache_dir() / name, header, data)
    return data
