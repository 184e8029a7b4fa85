"""The board: an immutable grid of tiles, holes and walls, and its padded bitboard layout.

A cell holds a tile kind (an int >= 1), ``EMPTY`` (0, a hole that paths may cross) or ``WALL``
(-1, blocks paths and is never removed).  ``Board`` is a value: every change makes a new board.

The hot loops work on Python ints used as bitboards in a *padded* layout: the board plus the ring
(one cell around it) plus a guard column on the right, so that a row shift never wraps from one
row into the next.  With stride ``S = W + 3`` the cell ``(x, y)`` (ring cells included, so
``-1 <= x <= W`` and ``-1 <= y <= H``) is bit ``(y + 1) * S + (x + 1)``.  Shifting a mask left by
1 moves every cell one column right, by ``S`` one row down.  The guard column and everything
outside the padded rectangle are never free, so rays stop there.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from .geometry import MAX_SIDE, Pos, Size

__all__ = [
    "EMPTY",
    "KIND_CHARS",
    "WALL",
    "Board",
    "Layout",
    "bit_list",
    "iter_bits",
    "layout_for",
]

EMPTY = 0
WALL = -1

#: Characters of the compact text form, in kind order: ``"1"`` is kind 1, ``"A"`` kind 10, ...
KIND_CHARS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
_CHAR_KIND = {ch: i + 1 for i, ch in enumerate(KIND_CHARS)}


def iter_bits(mask: int) -> Iterator[int]:
    """Yield the indices of the set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


#: ``_BYTE_BITS[k << 8 | b]``: the indices of the set bits of byte value ``b`` at byte ``k`` of a
#: mask, filled as they are met (a 64x64 board has 545 byte positions: a full table of them
#: would cost a tenth of a second to build in every process).
_BYTE_BITS: dict[int, tuple[int, ...]] = {}


def bit_list(mask: int) -> list[int]:
    """The indices of the set bits of ``mask`` (not negative), lowest first: what
    :func:`iter_bits` yields, several times faster on dense masks (a byte at a time)."""
    out: list[int] = []
    table = _BYTE_BITS
    for k, byte in enumerate(mask.to_bytes((mask.bit_length() + 7) >> 3, "little")):
        if byte:
            key = k << 8 | byte
            bits = table.get(key)
            if bits is None:
                bits = table[key] = tuple(8 * k + i for i in range(8) if byte >> i & 1)
            out += bits
    return out


@dataclass(frozen=True, slots=True)
class Layout:
    """Bit geometry of a padded ``width x height`` board (see the module docstring)."""

    width: int
    height: int
    stride: int = field(init=False)
    inside_mask: int = field(init=False)
    ring_mask: int = field(init=False)

    def __post_init__(self) -> None:
        stride = self.width + 3
        object.__setattr__(self, "stride", stride)
        row = ((1 << self.width) - 1) << 1
        inside = 0
        for y in range(self.height):
            inside |= row << ((y + 1) * stride)
        padded_row = (1 << (self.width + 2)) - 1
        frame = 0
        for y in range(self.height + 2):
            frame |= padded_row << (y * stride)
        object.__setattr__(self, "inside_mask", inside)
        object.__setattr__(self, "ring_mask", frame & ~inside)

    def bit(self, x: int, y: int) -> int:
        """The bit index of cell ``(x, y)``; ring cells allowed."""
        return (y + 1) * self.stride + (x + 1)

    def pos(self, bit: int) -> Pos:
        """The cell of bit index ``bit`` (inverse of :meth:`bit`)."""
        row, col = divmod(bit, self.stride)
        return Pos(col - 1, row - 1)

    def is_inside(self, x: int, y: int) -> bool:
        return 0 <= x < self.width and 0 <= y < self.height

    def is_on_padded(self, x: int, y: int) -> bool:
        """True for board cells and ring cells."""
        return -1 <= x <= self.width and -1 <= y <= self.height

    def free_mask(self, empty_mask: int, outside: bool) -> int:
        """Cells a path may cross: the empty board cells, plus the ring when ``outside``."""
        return empty_mask | self.ring_mask if outside else empty_mask

    def positions(self, mask: int) -> list[Pos]:
        """The cells of ``mask``, in bit order (row by row, left to right)."""
        return [self.pos(b) for b in iter_bits(mask)]


@lru_cache(maxsize=256)
def layout_for(width: int, height: int) -> Layout:
    """The (shared, cached) layout of a ``width x height`` board."""
    return Layout(width, height)


@dataclass(frozen=True, slots=True)
class Board:
    """An immutable ``width x height`` grid; ``cells`` is row-major (index ``y * width + x``).

    Raises ``ValueError`` naming the problem for a size outside ``1..MAX_SIDE`` or a cell value
    that is neither a kind (>= 1), ``EMPTY`` nor ``WALL``.
    """

    width: int
    height: int
    cells: tuple[int, ...]
    #: Stacked layers on top of ``cells`` (layer 0), lowest first: ``upper[i]`` is layer
    #: ``i + 1``, row-major like ``cells``, kinds >= 1 or ``EMPTY``.  Empty for the classic
    #: one-layer game; see :mod:`levelgen.linkup.core.layers` for the linking rule.
    upper: tuple[tuple[int, ...], ...] = ()

    def __post_init__(self) -> None:
        if self.upper:
            _check_upper(self)
        for name, value in (("width", self.width), ("height", self.height)):
            if not 1 <= value <= MAX_SIDE:
                raise ValueError(f"board {name} {value} is out of range 1..{MAX_SIDE}")
        if len(self.cells) != self.width * self.height:
            raise ValueError(
                f"board has {len(self.cells)} cells, expected {self.width}x{self.height}"
                f" = {self.width * self.height}"
            )
        for i, value in enumerate(self.cells):
            if isinstance(value, bool) or not isinstance(value, int) or value < WALL:
                y, x = divmod(i, self.width)
                raise ValueError(f"cell [{x}, {y}] holds {value!r}: expected a kind >= 1, 0 or -1")

    # ----- construction and text form -------------------------------------------------------

    @classmethod
    def from_grid(cls, grid: Sequence[Sequence[int]]) -> Board:
        """Build a board from rows of ints (kind >= 1, 0 empty, -1 wall); rows must be even."""
        if not grid:
            raise ValueError("board has no rows")
        width = len(grid[0])
        for y, row in enumerate(grid):
            if len(row) != width:
                raise ValueError(f"row {y} has {len(row)} cells, expected {width} like row 0")
        return cls(width, len(grid), tuple(v for row in grid for v in row))

    @classmethod
    def from_rows(cls, rows: Sequence[str]) -> Board:
        """Build a board from its text form: kind characters (see ``KIND_CHARS``), ``.`` empty,
        ``#`` wall; spaces are ignored.

        >>> Board.from_rows(["AB.", "#BA"]).to_rows()
        ['AB.', '#BA']
        """
        grid: list[list[int]] = []
        for y, text in enumerate(rows):
            row: list[int] = []
            for x, ch in enumerate(text.replace(" ", "")):
                if ch == ".":
                    row.append(EMPTY)
                elif ch == "#":
                    row.append(WALL)
                elif ch in _CHAR_KIND:
                    row.append(_CHAR_KIND[ch])
                else:
                    raise ValueError(f"row {y} column {x}: unknown character {ch!r}")
            grid.append(row)
        return cls.from_grid(grid)

    def to_rows(self) -> list[str]:
        """The text form (inverse of :meth:`from_rows`); ``ValueError`` for kinds above 61."""
        out = []
        for row in self.grid():
            chars = []
            for v in row:
                if v == EMPTY:
                    chars.append(".")
                elif v == WALL:
                    chars.append("#")
                elif v <= len(KIND_CHARS):
                    chars.append(KIND_CHARS[v - 1])
                else:
                    raise ValueError(f"kind {v} has no character in the text form")
            out.append("".join(chars))
        return out

    def __str__(self) -> str:
        try:
            return "\n".join(self.to_rows())
        except ValueError:
            return "\n".join(" ".join(f"{v:3d}" for v in row) for row in self.grid())

    # ----- queries ----------------------------------------------------------------------------

    @property
    def size(self) -> Size:
        return Size(self.width, self.height)

    @property
    def layout(self) -> Layout:
        return layout_for(self.width, self.height)

    def grid(self) -> list[list[int]]:
        """Rows of cell values (``grid[y][x]``)."""
        w = self.width
        return [list(self.cells[y * w : (y + 1) * w]) for y in range(self.height)]

    def is_inside(self, pos: Pos) -> bool:
        return 0 <= pos.x < self.width and 0 <= pos.y < self.height

    def __getitem__(self, pos: Pos | tuple[int, int]) -> int:
        x, y = pos
        if not (0 <= x < self.width and 0 <= y < self.height):
            raise IndexError(f"cell [{x}, {y}] is outside the {self.width}x{self.height} board")
        return self.cells[y * self.width + x]

    def is_tile(self, pos: Pos) -> bool:
        return self.is_inside(pos) and self[pos] >= 1

    def tiles(self) -> list[Pos]:
        """All tile positions, row by row."""
        w = self.width
        return [Pos(i % w, i // w) for i, v in enumerate(self.cells) if v >= 1]

    def tile_count(self) -> int:
        return sum(1 for v in self.cells if v >= 1)

    def is_cleared(self) -> bool:
        return all(v <= 0 for v in self.cells)

    def kind_counts(self) -> dict[int, int]:
        """How many tiles of each kind remain, by kind."""
        counts: dict[int, int] = {}
        for v in self.cells:
            if v >= 1:
                counts[v] = counts.get(v, 0) + 1
        return dict(sorted(counts.items()))

    # ----- bitboards ----------------------------------------------------------------------------

    def _mask_where(self, predicate_value: int | None) -> int:
        lay = self.layout
        mask = 0
        w = self.width
        for i, v in enumerate(self.cells):
            if (v >= 1) if predicate_value is None else (v == predicate_value):
                y, x = divmod(i, w)
                mask |= 1 << lay.bit(x, y)
        return mask

    def occupied_mask(self) -> int:
        """Bits of the cells holding a tile."""
        return self._mask_where(None)

    def wall_mask(self) -> int:
        return self._mask_where(WALL)

    def empty_mask(self) -> int:
        """Bits of the empty board cells (not the ring)."""
        return self._mask_where(EMPTY)

    def kind_masks(self) -> dict[int, int]:
        """For each kind present, the bits of its tiles."""
        lay = self.layout
        masks: dict[int, int] = {}
        w = self.width
        for i, v in enumerate(self.cells):
            if v >= 1:
                y, x = divmod(i, w)
                masks[v] = masks.get(v, 0) | (1 << lay.bit(x, y))
        return dict(sorted(masks.items()))

    def free_mask(self, outside: bool) -> int:
        """Cells a path may cross now: the empty cells, plus the ring when ``outside``."""
        return self.layout.free_mask(self.empty_mask(), outside)

    # ----- changes -----------------------------------------------------------------------------

    def with_cells(self, changes: Iterable[tuple[Pos, int]]) -> Board:
        """A copy with the given cells set to new values."""
        cells = list(self.cells)
        for pos, value in changes:
            if not self.is_inside(pos):
                raise IndexError(f"cell {pos} is outside the {self.width}x{self.height} board")
            cells[pos.y * self.width + pos.x] = value
        # Layers stay: emptying a cell under a stacked tile is then refused, not silently lost.
        return Board(self.width, self.height, tuple(cells), self.upper)

    def without(self, *positions: Pos) -> Board:
        """A copy with the given cells emptied (tiles removed)."""
        return self.with_cells((p, EMPTY) for p in positions)


def _check_upper(board: Board) -> None:
    """``ValueError`` naming the first cell of ``board.upper`` that is not a kind or empty, or
    that holds a tile with no tile beneath it (stacks have no gaps; nothing stands on a wall)."""
    n = board.width * board.height
    below = board.cells
    for layer, cells in enumerate(board.upper, 1):
        if len(cells) != n:
            raise ValueError(
                f"layer {layer} has {len(cells)} cells, expected {board.width}x{board.height}"
            )
        for i, value in enumerate(cells):
            y, x = divmod(i, board.width)
            if isinstance(value, bool) or not isinstance(value, int) or value < EMPTY:
                raise ValueError(f"layer {layer} cell [{x}, {y}] holds {value!r}: expected a kind")
            if value >= 1 and below[i] < 1:
                what = "a wall" if below[i] == WALL else "an empty cell"
                raise ValueError(f"layer {layer} cell [{x}, {y}] holds a tile above {what}")
        below = cells
