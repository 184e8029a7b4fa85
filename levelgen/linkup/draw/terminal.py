"""Terminal pictures of a board: a glyph and a colour per kind, holes, walls, the ring, a path.

A cell is drawn as its glyph followed by a gap (so a ``12x8`` board is 24 columns wide): kinds
by the glyphs of :mod:`levelgen.linkup.draw.glyphs`, the same as in every other picture (all
kinds by their number when there are more kinds than glyphs); ``.`` a hole; ``#`` a wall.
The ring is a frame of ``·`` when paths may use it, a solid line when they may not; column and
row numbers run along the top and the left.  A path is drawn with box-drawing lines through
the cells it crosses, its two end tiles bracketed in plain text (``[A]``, or ``[A─`` where the
line leaves sideways) and reversed in colour.

Colour is ANSI (256 colours) and only on request: callers decide (the command line asks
:func:`levelgen.render.use_color`: a terminal, and neither ``NO_COLOR`` nor ``TERM=dumb``).
"""

from __future__ import annotations

import itertools

from ...formats.words import plural
from ..core.board import EMPTY, WALL, Board
from ..core.geometry import Pos
from ..core.level import Level
from ..core.paths import Path
from ..core.rules import Rules
from .glyphs import GLYPHS

__all__ = ["format_summary", "render_board"]

#: Foreground colours (xterm 256) cycled over the kinds: bright, mutually distinct hues.
_PALETTE = (196, 46, 33, 226, 201, 51, 208, 118, 99, 214, 39, 162, 190, 45, 203, 129, 220, 84)
_H, _V = "─", "│"
_RESET = "\x1b[0m"
# The corner glyph joining two directions, keyed by the set of unit offsets of the neighbours.
_JOINS = {
    frozenset({(1, 0), (-1, 0)}): _H,
    frozenset({(0, 1), (0, -1)}): _V,
    frozenset({(1, 0), (0, 1)}): "┌",
    frozenset({(-1, 0), (0, 1)}): "┐",
    frozenset({(1, 0), (0, -1)}): "└",
    frozenset({(-1, 0), (0, -1)}): "┘",
}


def _glyph(kind: int, numeric: bool) -> str:
    return str(kind) if numeric else GLYPHS[kind - 1]


def render_board(
    board: Board, rules: Rules, *, path: Path | None = None, color: bool = False
) -> str:
    """The picture of ``board`` (lines joined by ``\\n``, no trailing newline), with ``path``
    drawn when given (its corner points may lie on the ring).  A board with layers is drawn
    by :func:`_render_stacks`."""
    if board.upper:
        return _render_stacks(board, rules, path=path, color=color)
    top_kind = max(board.cells)
    numeric = top_kind > len(GLYPHS)
    glyph_width = len(str(top_kind)) if numeric else 1
    canvas = _Canvas(board.width, board.height, glyph_width)
    for y in range(-1, board.height + 1):
        for x in range(-1, board.width + 1):
            pos = Pos(x, y)
            if board.is_inside(pos):
                value = board[pos]
                if value == EMPTY:
                    canvas.put(pos, ".", _DIM)
                elif value == WALL:
                    canvas.put(pos, "#" * glyph_width if color else "#", _WALL)
                else:
                    canvas.put(pos, _glyph(value, numeric), _kind_style(value))
            elif rules.outside:
                canvas.put(pos, "·", _DIM)
    if not rules.outside:
        canvas.frame()
    if path is not None:
        canvas.draw_path(path, mark_ends=not color)
    return canvas.text(color)


#: Styles (SGR parameters) of the picture's parts.
_DIM = "2"
_WALL = "38;5;244"
_LINE = "1;38;5;231"
_END = "7;1"


def _kind_style(kind: int) -> str:
    return f"1;38;5;{_PALETTE[(kind - 1) % len(_PALETTE)]}"


class _Canvas:
    """Characters with styles, one row per board row plus the ring rows; a cell is its glyph
    slots followed by one gap slot, so ``slot(x) = (x + 1) * (glyph_width + 1)``."""

    def __init__(self, width: int, height: int, glyph_width: int) -> None:
        self.width, self.height, self.glyph_width = width, height, glyph_width
        self.cell_width = glyph_width + 1
        columns = (width + 2) * self.cell_width
        self.rows = [[(" ", "")] * columns for _ in range(height + 2)]

    def slot(self, x: int) -> int:
        return (x + 1) * self.cell_width

    def set(self, x_slot: int, y: int, char: str, style: str) -> None:
        self.rows[y + 1][x_slot] = (char, style)

    def put(self, pos: Pos, text: str, style: str) -> None:
        for i, char in enumerate(text[: self.glyph_width]):
            self.set(self.slot(pos.x) + i, pos.y, char, style)

    def style_of(self, pos: Pos) -> str:
        return self.rows[pos.y + 1][self.slot(pos.x)][1]

    def frame(self) -> None:
        """A closed frame on the ring: paths may not go outside."""
        left, right = self.slot(-1), self.slot(self.width)
        for y in (-1, self.height):
            for s in range(left, right + 1):
                self.set(s, y, _H, _DIM)
        for y in range(self.height):
            self.set(left, y, _V, _DIM)
            self.set(right, y, _V, _DIM)
        for (s, y), char in {
            (left, -1): "┌",
            (right, -1): "┐",
            (left, self.height): "└",
            (right, self.height): "┘",
        }.items():
            self.set(s, y, char, _DIM)

    def draw_path(self, path: Path, *, mark_ends: bool) -> None:
        """Lines through the crossed cells; the two end tiles keep their glyph, reversed, and
        with ``mark_ends`` bracketed (a bracket gives way to the path's line)."""
        cells = path.cells()
        joins: dict[Pos, set[tuple[int, int]]] = {}
        for p, q in itertools.pairwise(cells):
            joins.setdefault(p, set()).add((q.x - p.x, q.y - p.y))
            joins.setdefault(q, set()).add((p.x - q.x, p.y - q.y))
        for pos, dirs in joins.items():
            base = self.slot(pos.x)
            if pos in (cells[0], cells[-1]):
                style = self.style_of(pos)
                for i in range(self.glyph_width):
                    char = self.rows[pos.y + 1][base + i][0]
                    self.set(base + i, pos.y, char, f"{_END};{style}" if style else _END)
                if mark_ends:  # brackets in the gaps beside the tile that the path leaves free
                    if (-1, 0) not in dirs:
                        self.set(base - 1, pos.y, "[", _LINE)
                    if (1, 0) not in dirs:
                        self.set(base + self.glyph_width, pos.y, "]", _LINE)
            else:
                self.set(base, pos.y, _JOINS[frozenset(dirs)], _LINE)
                for i in range(1, self.glyph_width):
                    self.set(base + i, pos.y, _H if (1, 0) in dirs else " ", _LINE)
            if (1, 0) in dirs:
                self.set(base + self.glyph_width, pos.y, _H, _LINE)

    def text(self, color: bool) -> str:
        """The lines, with column numbers above and row numbers on the left."""
        lines = self._header()
        for y, row in enumerate(self.rows, -1):
            label = f"{y:>2} " if 0 <= y < self.height else "   "
            parts = [label]
            style = ""
            for char, char_style in row:
                if color and char_style != style:
                    parts.append(_RESET if style else "")
                    parts.append(f"\x1b[{char_style}m" if char_style else "")
                    style = char_style
                parts.append(char)
            if color and style:
                parts.append(_RESET)
            lines.append("".join(parts).rstrip())
        return "\n".join(lines)

    def _header(self) -> list[str]:
        """Column numbers: a line of tens (when wider than 10), then a line of units."""
        lines = []
        for tens in (True, False):
            if tens and self.width <= 10:
                continue
            text = "   " + " " * self.cell_width
            for x in range(self.width):
                digit = str(x // 10) if tens else str(x % 10)
                text += (digit if not tens or x >= 10 else " ").ljust(self.cell_width)
            lines.append(text.rstrip())
        return lines


def format_summary(level: Level, name: str = "") -> str:
    """One line about ``level``: size, tiles, kinds, rules, solution and start moves."""
    board, rules = level.board, level.rules
    counts = board.kind_counts()
    parts = [
        f"{board.width}x{board.height}",
        plural(board.tile_count(), "tile"),
        plural(len(counts), "kind"),
        f"max {plural(rules.max_turns, 'turn')}",
        "ring" if rules.outside else "no ring",
    ]
    walls = sum(1 for v in board.cells if v == WALL)
    if walls:
        parts.append(plural(walls, "wall"))
    if level.solution is not None:
        parts.append(f"solution {plural(len(level.solution), 'step')}")
    if level.metrics is not None:
        parts.append(f"{plural(level.metrics.start_moves, 'move')} at start")
    if level.generator is not None and level.generator.seed is not None:
        parts.append(f"seed {level.generator.seed}")
    _variant_summary(level, parts)
    return (f"{name}: " if name else "") + ", ".join(parts)


# ----- variants: stacked layers and sliding rules ---------------------------------------------


def _render_stacks(board: Board, rules: Rules, *, path: Path | None, color: bool) -> str:
    """A layered board: the top view (each cell's top tile) drawn as a one-layer board, then
    the height of every stack (``#`` a wall), one digit per cell."""
    w, n = board.width, board.width * board.height
    top = list(board.cells)
    heights = [0 if v == EMPTY else -1 if v == WALL else 1 for v in board.cells]
    for layer in board.upper:
        for i in range(n):
            if layer[i] >= 1:
                top[i] = layer[i]
                heights[i] += 1
    picture = render_board(Board(w, board.height, tuple(top)), rules, path=path, color=color)
    lines = [f"stack heights ({1 + len(board.upper)} layers):"]
    for y in range(board.height):
        row = heights[y * w : (y + 1) * w]
        lines.append("   " + " ".join("#" if h < 0 else str(h) for h in row))
    return picture + "\n" + "\n".join(lines)


def _variant_summary(level: Level, parts: list[str]) -> None:
    """Correct and extend the summary parts for layers and sliding rules."""
    board, rules = level.board, level.rules
    if board.upper:
        layers = [board.cells, *board.upper]
        parts[1] = f"{sum(1 for g in layers for v in g if v >= 1)} tiles"
        parts[2] = f"{len({v for g in layers for v in g if v >= 1})} kinds"
        parts.insert(3, f"{len(layers)} layers")
    if rules.slide != "none":
        parts.insert(3, f"slide {rules.slide}")
