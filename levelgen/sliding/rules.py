"""The rules of sliding-tile puzzles: frames, moves, and which goals can be reached.

Glossary.  A *board* has ``width`` x ``height`` cells (2 <= W, H <= 8), numbered row by row
from the top left (cell ``i`` is at ``x = i % W``, ``y = i // W``).  A *frame* is what lies on
the board: a label per cell, ``0`` for the one blank, ``>= 1`` for a tile.  When every label is
different the puzzle is *numbered* (the 8- and 15-puzzles); when some label repeats it is a
*colour* puzzle and tiles of one label are interchangeable.  A *move* slides a tile next to the
blank into it; it is written as the direction the blank moves, ``U`` (up), ``D``, ``L``, ``R``,
and a *solution* is a string of moves that turns the level's ``start`` frame into its ``goal``.

Which goals can be reached.  Let a start and a goal frame hold the same labels.

**Theorem.**  (a) When all labels differ, the goal can be reached from the start if and only if
the permutation of the W*H cells that carries the start to the goal (the blank counted as a
symbol of its own) has the parity of the Manhattan distance between the blank's two cells.
(b) When some label repeats, the goal can always be reached.  This holds on every board of the
family, 2x2 included; a numbered board has ``(W*H)!/2`` reachable frames, a colour board
every arrangement of its labels.

*Proof.*  Colour the cells like a chessboard.  A move exchanges the blank with a neighbouring
tile: the permutation from the frame to the goal is composed with one transposition, so its
sign flips, and the blank steps onto a cell of the other colour, so the parity of the blank's
``x + y`` flips too.  Hence ``sign(permutation) * (-1) ** (x_blank + y_blank)`` never changes.
At the goal the permutation is the identity, so a reachable start has a permutation whose parity
is that of ``|x_s - x_g| + |y_s - y_g|``, the blank's distance: this is the necessity in (a).

For sufficiency we count.  Fix the blank's cell; the frames with the blank there that can be
reached from one another form the orbit of a group of permutations of the W*H - 1 tiles.  By
Wilson's theorem on sliding puzzles on graphs (R. M. Wilson, *Graph puzzles, homotopy, and the
alternating group*, J. Combin. Theory B 16, 1974), on a 2-connected bipartite graph that is not
a cycle this group is the whole alternating group.  The grid graph of a W x H board with
W, H >= 2 is 2-connected and bipartite, and it is a cycle only for 2x2.  So on every other
board all even permutations of the tiles are reachable with the blank back in its cell, which
is exactly the set the invariant allows; moving the blank anywhere is always possible.  On the
2x2 board the blank can only go round the 4-cycle, and one round (four moves) turns the three
tiles one step cyclically: the frames with the blank in a given cell that can be reached are
the three cyclic rotations of the tiles, which are precisely the three even permutations of
three things, so the invariant is exact there as well (12 of the 24 frames, as on any board
half of them).

(b) Number the tiles of the goal arbitrarily (tiles of one label get distinct numbers) and do
the same for the start in any way that keeps labels.  Exchanging the numbers of two start
tiles of the same label changes nothing on the board but flips the parity of the permutation,
so one of the two numberings satisfies the invariant of (a) and is reachable.  QED.

``tests/sliding/test_rules.py`` checks the theorem against a breadth-first search on every
board of at most nine cells (every numbered frame, and colour frames of many label multisets).
Every move also flips the blank's chessboard colour, so the length of *any* solution has the
parity of the blank's Manhattan distance: the solvers use this to step their bounds by two.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = [
    "BLANK",
    "DIRECTIONS",
    "MAX_LABEL",
    "MAX_SIDE",
    "MIN_SIDE",
    "OPPOSITE",
    "Frame",
    "MoveError",
    "Reachability",
    "apply_moves",
    "blank_distance",
    "format_size",
    "frames_of",
    "is_numbered",
    "parse_moves",
    "parse_size",
    "permutation_parity",
    "reachability",
    "remove_cycles",
    "same_labels",
]

BLANK = 0
MIN_SIDE = 2
MAX_SIDE = 8
#: The largest tile label a file may use (a numbered 8x8 board needs 63).
MAX_LABEL = 64
#: The four moves in their canonical order (the order of every search): the blank goes up,
#: down, left, right.  Solutions compare in this order, so "the least optimal solution" is
#: well defined.
DIRECTIONS = "UDLR"
#: Each move's inverse.
OPPOSITE = {"U": "D", "D": "U", "L": "R", "R": "L"}
_STEP = {"U": (0, -1), "D": (0, 1), "L": (-1, 0), "R": (1, 0)}


class MoveError(ValueError):
    """A move that cannot be played: ``index`` is its place in the move string."""

    def __init__(self, index: int, move: str, reason: str) -> None:
        self.index = index
        self.move = move
        self.reason = reason
        super().__init__(f"move {index} ({move!r}): {reason}")


@dataclass(frozen=True, slots=True)
class Frame:
    """A board's cells, row by row: ``cells[y * width + x]`` is a label, 0 the blank.

    Frames are values (hashable, comparable).  The constructor trusts its arguments; use
    :meth:`from_rows` for rows that may be wrong (``ValueError`` then)."""

    width: int
    height: int
    cells: tuple[int, ...]

    @classmethod
    def from_rows(cls, rows: Sequence[Sequence[int]]) -> Frame:
        """The frame of ``rows`` (top row first).  ``ValueError`` when the rows are not a
        rectangle of 2..8 by 2..8 cells with exactly one blank and labels 1..MAX_LABEL."""
        height = len(rows)
        width = len(rows[0]) if rows else 0
        if not (MIN_SIDE <= width <= MAX_SIDE and MIN_SIDE <= height <= MAX_SIDE):
            raise ValueError(f"a board is 2..8 by 2..8 cells, not {width}x{height}")
        if any(len(row) != width for row in rows):
            raise ValueError("the rows are not all of one length")
        cells = tuple(int(v) for row in rows for v in row)
        if any(v < 0 or v > MAX_LABEL for v in cells):
            raise ValueError(f"labels are 0 (the blank) or 1..{MAX_LABEL}")
        if cells.count(BLANK) != 1:
            raise ValueError(f"a frame has exactly one blank (0), not {cells.count(BLANK)}")
        return cls(width, height, cells)

    @property
    def size(self) -> int:
        """The number of cells."""
        return self.width * self.height

    @property
    def blank(self) -> int:
        """The blank's cell."""
        return self.cells.index(BLANK)

    def rows(self) -> list[list[int]]:
        """The cells as rows (top row first), as files write them."""
        w = self.width
        return [list(self.cells[y * w : (y + 1) * w]) for y in range(self.height)]

    def labels(self) -> Counter[int]:
        """How many tiles carry each label (the blank left out)."""
        return Counter(v for v in self.cells if v != BLANK)

    def can_move(self, move: str) -> bool:
        """Whether the blank can go ``move`` (``U``, ``D``, ``L``, ``R``) without leaving the
        board."""
        dx, dy = _STEP[move]
        b = self.blank
        x, y = b % self.width + dx, b // self.width + dy
        return 0 <= x < self.width and 0 <= y < self.height

    def move(self, move: str) -> Frame:
        """The frame after ``move``; ``ValueError`` when the blank would leave the board."""
        dx, dy = _STEP[move]
        b = self.blank
        x, y = b % self.width + dx, b // self.width + dy
        if not (0 <= x < self.width and 0 <= y < self.height):
            raise ValueError(f"the blank cannot go {move}: it would leave the board")
        target = y * self.width + x
        cells = list(self.cells)
        cells[b], cells[target] = cells[target], BLANK
        return Frame(self.width, self.height, tuple(cells))

    def neighbours(self) -> Iterator[tuple[str, Frame]]:
        """Every move and the frame after it, in the canonical order ``U D L R``."""
        for d in DIRECTIONS:
            if self.can_move(d):
                yield d, self.move(d)

    def format(self) -> str:
        """The frame as text, one line per row, labels right-aligned (``.`` the blank)."""
        width = max(len(str(v)) for v in self.cells)
        return "\n".join(
            " ".join(("." if v == BLANK else str(v)).rjust(width) for v in row)
            for row in self.rows()
        )


def parse_size(text: str) -> tuple[int, int]:
    """``"4x4"`` -> ``(4, 4)`` (width, height); ``ValueError`` for anything but two sides
    2..8 joined by ``x``."""
    parts = text.strip().lower().split("x")
    if len(parts) != 2 or not all(p.isdigit() and len(p) <= 2 for p in parts):
        raise ValueError(f"expected WIDTHxHEIGHT such as 4x4, not {text!r}")
    width, height = int(parts[0]), int(parts[1])
    if not (MIN_SIDE <= width <= MAX_SIDE and MIN_SIDE <= height <= MAX_SIDE):
        raise ValueError(f"sides are {MIN_SIDE}..{MAX_SIDE}, not {width}x{height}")
    return width, height


def format_size(width: int, height: int) -> str:
    """``(4, 3)`` -> ``"4x3"``."""
    return f"{width}x{height}"


def parse_moves(text: str) -> str:
    """A move string checked for its letters (``U``, ``D``, ``L``, ``R``; case matters);
    ``MoveError`` names the first other character."""
    for i, c in enumerate(text):
        if c not in _STEP:
            raise MoveError(i, c, "not a move: moves are U, D, L and R")
    return text


def apply_moves(frame: Frame, moves: str) -> Frame:
    """The frame after playing ``moves`` from ``frame``; ``MoveError`` names the first move
    that is not a letter of ``UDLR`` or would take the blank off the board."""
    parse_moves(moves)
    w, h = frame.width, frame.height
    cells = list(frame.cells)
    b = frame.blank
    for i, d in enumerate(moves):
        dx, dy = _STEP[d]
        x, y = b % w + dx, b // w + dy
        if not (0 <= x < w and 0 <= y < h):
            raise MoveError(i, d, "the blank would leave the board")
        t = y * w + x
        cells[b], cells[t] = cells[t], BLANK
        b = t
    return Frame(w, h, tuple(cells))


def is_numbered(frame: Frame) -> bool:
    """True when every tile's label is different (a numbered puzzle)."""
    tiles = [v for v in frame.cells if v != BLANK]
    return len(set(tiles)) == len(tiles)


def same_labels(a: Frame, b: Frame) -> bool:
    """True when the two frames are of one size and hold the same multiset of labels."""
    return (a.width, a.height) == (b.width, b.height) and sorted(a.cells) == sorted(b.cells)


def blank_distance(a: Frame, b: Frame) -> int:
    """The Manhattan distance between the blanks of two frames of one size."""
    w = a.width
    pa, pb = a.blank, b.blank
    return abs(pa % w - pb % w) + abs(pa // w - pb // w)


def permutation_parity(start: Frame, goal: Frame) -> int:
    """0 (even) or 1 (odd): the parity of the permutation of cells that carries ``start`` to
    ``goal`` (numbered frames with the same labels; the blank is a symbol of its own)."""
    where = {v: i for i, v in enumerate(goal.cells)}
    target = [where[v] for v in start.cells]
    parity = 0
    seen = [False] * len(target)
    for i in range(len(target)):
        if seen[i]:
            continue
        length = 0
        j = i
        while not seen[j]:
            seen[j] = True
            j = target[j]
            length += 1
        parity ^= (length - 1) & 1
    return parity


@dataclass(frozen=True, slots=True)
class Reachability:
    """Whether a goal can be reached, and why: ``reason`` in one line, ``details`` the
    figures of the invariant (JSON values)."""

    reachable: bool
    reason: str
    details: dict[str, Any]


def reachability(start: Frame, goal: Frame) -> Reachability:
    """Whether ``goal`` can be reached from ``start`` (two frames of one size with the same
    labels; ``ValueError`` otherwise), by the theorem of the module docstring."""
    if not same_labels(start, goal):
        raise ValueError("the frames differ in size or labels")
    distance = blank_distance(start, goal)
    if not is_numbered(start):
        repeated = sorted(k for k, n in start.labels().items() if n > 1)
        return Reachability(
            True,
            f"label {repeated[0]} repeats, so every arrangement of the labels can be reached",
            {"invariant": "repeated-label", "repeated_labels": repeated},
        )
    parity = permutation_parity(start, goal)
    details = {
        "invariant": "parity",
        "permutation_parity": "odd" if parity else "even",
        "blank_distance": distance,
        "blank_distance_parity": "odd" if distance % 2 else "even",
    }
    if parity == distance % 2:
        return Reachability(
            True,
            f"the permutation is {details['permutation_parity']} and the blank is {distance}"
            " cells from its goal: the parities agree",
            details,
        )
    return Reachability(
        False,
        f"the permutation of cells from start to goal is {details['permutation_parity']} but"
        f" the blank is {distance} cells from its goal cell ({details['blank_distance_parity']}):"
        " every move flips both parities, so they can never agree",
        details,
    )


def frames_of(width: int, start: bytes, moves: str) -> list[bytes]:
    """The frames along ``moves`` from ``start`` (cells as bytes, 0 the blank, ``width``
    columns; the moves are the blank's, on the board): ``len(moves) + 1`` of them."""
    cells = bytearray(start)
    blank = cells.index(0)
    out = [bytes(cells)]
    for m in moves:
        dx, dy = _STEP[m]
        t = blank + dy * width + dx
        cells[blank], cells[t] = cells[t], 0
        blank = t
        out.append(bytes(cells))
    return out


def remove_cycles(width: int, start: bytes, moves: str) -> str:
    """``moves`` from ``start`` (as :func:`frames_of`) with every stretch between two visits
    of one frame cut out: a solution stays a solution, only shorter."""
    frames = frames_of(width, start, moves)
    last = {f: i for i, f in enumerate(frames)}
    out = []
    i = 0
    while i < len(moves):
        j = last[frames[i]]
        if j > i:
            i = j
            continue
        out.append(moves[i])
        i += 1
    return "".join(out)
