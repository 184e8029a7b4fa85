"""The rules of snakes and ladders: the board, the die, the overshoot rules, and what a valid
board is.

Glossary.  A board has ``N = width * height`` squares numbered 1..N, drawn boustrophedon from
the bottom left (square 1 bottom left, row 2 runs right to left, ...).  The token starts off
the board on *square 0*.  A *roll* is a face of a die with ``faces`` faces, 1..faces, each
with probability 1/faces.  A *jump* is a ladder (up) or a snake (down), a pair
``(start, end)``: a token that lands on ``start`` moves on to ``end`` in the same roll.  A
*rest square* is one the token can stop on: 0 and every square below N that starts no jump.

Overshoot (a roll that would carry the token past N):

``exact``
    the token stays where it is (the classic rule): N is reached only by an exact roll;
``bounce``
    the token counts back from N by the excess (from 98 a 5 lands on 97);
``pass``
    reaching or passing N wins.

A board is valid when every jump starts and ends on a square 1..N, none starts on N or ends
on 0 (nor starts on 0: square 0 is off the board), ladders go up and snakes go down, no two
jumps start on one square, and no jump starts where another ends (no chains).
:func:`board_problems` names each breach with a JSON pointer into the level file.  A valid
board can still be *unsolvable* (N unreachable from a square the token can reach): that is
found by :mod:`levelgen.ladders.chain`, with the trapped squares as its proof.

Pure: values and functions only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..puzzles import Problem

__all__ = [
    "MAX_FACES",
    "MAX_SIDE",
    "MIN_FACES",
    "OVERSHOOTS",
    "Board",
    "Rules",
    "board_problems",
    "format_size",
    "land",
    "parse_size",
    "square_cell",
]

#: The overshoot rules, the classic one first.
OVERSHOOTS = ("exact", "bounce", "pass")
MIN_FACES = 2
MAX_FACES = 20
#: The longest side of a board (so at most 32 * 32 = 1024 squares).
MAX_SIDE = 32

_SIZE = re.compile(r"([0-9]{1,4})x([0-9]{1,4})")


@dataclass(frozen=True, slots=True)
class Rules:
    """The die and the overshoot rule."""

    faces: int = 6
    overshoot: str = "exact"


@dataclass(frozen=True, slots=True)
class Board:
    """A board: its size and its jumps, each ``(start, end)``, in ascending order of start."""

    width: int
    height: int
    ladders: tuple[tuple[int, int], ...] = ()
    snakes: tuple[tuple[int, int], ...] = ()

    @property
    def squares(self) -> int:
        """N, the last square (the goal)."""
        return self.width * self.height

    def jumps(self) -> dict[int, int]:
        """Every jump as ``{start: end}``."""
        return {a: b for a, b in (*self.ladders, *self.snakes)}

    def normalized(self) -> Board:
        """The same board with its jumps sorted by start (the form files write)."""
        return Board(
            self.width, self.height, tuple(sorted(self.ladders)), tuple(sorted(self.snakes))
        )


def parse_size(text: str) -> tuple[int, int]:
    """``"10x10"`` as ``(10, 10)``; ``ValueError`` naming the problem when the text is not
    ``WxH`` with sides 1..MAX_SIDE and at least two squares."""
    match = _SIZE.fullmatch(text.strip())
    if match is None:
        raise ValueError(f"expected WxH such as 10x10, got {text!r}")
    width, height = int(match.group(1)), int(match.group(2))
    for side in (width, height):
        if not 1 <= side <= MAX_SIDE:
            raise ValueError(f"sides must be 1..{MAX_SIDE}, got {text!r}")
    if width * height < 2:
        raise ValueError("a board needs at least two squares")
    return width, height


def format_size(width: int, height: int) -> str:
    """``"10x10"``."""
    return f"{width}x{height}"


def square_cell(square: int, width: int, height: int) -> tuple[int, int]:
    """The cell ``(column from the left, row from the top)`` of square 1..N, boustrophedon from
    the bottom left."""
    row_from_bottom, offset = divmod(square - 1, width)
    column = offset if row_from_bottom % 2 == 0 else width - 1 - offset
    return column, height - 1 - row_from_bottom


def land(square: int, roll: int, n: int, overshoot: str) -> int:
    """Where a token on ``square`` lands with ``roll`` before any jump (N is the goal)."""
    target = square + roll
    if target <= n:
        return target
    if overshoot == "exact":
        return square
    if overshoot == "bounce":
        return 2 * n - target
    return n


def board_problems(board: Board, rules: Rules) -> list[Problem]:
    """What makes ``board`` invalid under ``rules`` (see the module docstring), each at its
    JSON pointer in a level file (``/board/snakes/2/0``); empty when valid.  The jumps are
    looked at in the order given."""
    n = board.squares
    problems: list[Problem] = []
    if n < 2:
        problems.append(Problem("/board", "a board needs at least two squares"))
        return problems
    if rules.faces > n:
        problems.append(
            Problem("/rules/faces", f"a die of {rules.faces} faces on a board of {n} squares")
        )
    starts: dict[int, str] = {}
    ends: dict[int, str] = {}
    placed: list[tuple[str, int, int]] = []
    for kind, jumps in (("ladders", board.ladders), ("snakes", board.snakes)):
        for i, (start, end) in enumerate(jumps):
            here = f"/board/{kind}/{i}"
            bad = _square_problem(start, end, n, here)
            if bad is not None:
                problems.append(bad)
                continue
            if kind == "ladders" and end <= start:
                problems.append(Problem(here, f"a ladder goes up, but {start} -> {end} does not"))
                continue
            if kind == "snakes" and end >= start:
                problems.append(Problem(here, f"a snake goes down, but {start} -> {end} does not"))
                continue
            if start in starts:
                problems.append(
                    Problem(
                        f"{here}/0", f"square {start} already starts the jump at {starts[start]}"
                    )
                )
                continue
            starts[start] = here
            ends.setdefault(end, here)
            placed.append((here, start, end))
    for here, start, _end in placed:
        other = ends.get(start)
        if other is not None:
            problems.append(
                Problem(f"{here}/0", f"square {start} is where the jump at {other} ends: no chains")
            )
    return problems


def _square_problem(start: int, end: int, n: int, here: str) -> Problem | None:
    if start == 0:
        return Problem(f"{here}/0", "a jump from square 0: the token starts off the board")
    if start == n:
        return Problem(
            f"{here}/0", f"a jump from square {n}, the last square: the game is won there"
        )
    if end == 0:
        return Problem(f"{here}/1", "a jump onto square 0: square 0 is off the board")
    for index, square in ((0, start), (1, end)):
        if not 1 <= square <= n:
            return Problem(f"{here}/{index}", f"square {square} is off the board (1..{n})")
    return None
