"""Pictures of sliding-puzzle levels: text for a terminal and a :class:`Scene` for SVG and PNG.

Both show two boards side by side: the start (or, for a position, the frame now) and the goal.
Numbered tiles carry their numbers; colour tiles are filled from the Okabe-Ito ``PALETTE``
(label ``k`` takes ``PALETTE[(k - 1) % 7]``) and carry a letter (``A`` for label 1, ...) so the
colours can be told apart without colour.  The blank is an empty, darker cell.  Pure: the same
level gives the same text and the same scene.
"""

from __future__ import annotations

from ..formats.scene import INK, PALETTE, Group, Rect, Scene, Text
from .level import SlidingLevel
from .rules import BLANK, Frame

__all__ = ["draw_level", "label_glyph", "show_level", "tile_colour"]

_BLANK_FILL = "#D9D9D9"
_TILE_FILL = "#FFF4DC"
_FRAME = "#5A5A5A"
#: ANSI 256-colour backgrounds nearest to the palette, and a light background for numbers.
_ANSI = (214, 117, 35, 227, 25, 166, 175)
_RESET = "\x1b[0m"


def tile_colour(label: int) -> str:
    """The fill of a colour tile of ``label``."""
    return PALETTE[(label - 1) % len(PALETTE)]


def label_glyph(label: int, numbered: bool) -> str:
    """What a tile shows: its number (numbered), else a letter (``A`` for label 1)."""
    if label == BLANK:
        return ""
    if numbered or label > 26:
        return str(label)
    return chr(ord("A") + label - 1)


def _frame_lines(frame: Frame, numbered: bool, color: bool) -> list[str]:
    width = max(len(label_glyph(v, numbered)) for v in frame.cells)
    lines = []
    for row in frame.rows():
        cells = []
        for v in row:
            text = ("." if v == BLANK else label_glyph(v, numbered)).rjust(width)
            if color and v != BLANK:
                background = 230 if numbered else _ANSI[(v - 1) % len(_ANSI)]
                text = f"\x1b[48;5;{background}m\x1b[38;5;16m {text} {_RESET}"
            else:
                text = f" {text} "
            cells.append(text)
        lines.append("".join(cells))
    return lines


def show_level(level: SlidingLevel, *, color: bool) -> str:
    """The level as text: a heading line, then the start (or the frame now) and the goal
    side by side; ANSI colours when ``color``."""
    now = level.frame_now()
    left_title = "now" if level.is_position else "start"
    left = _frame_lines(now, level.numbered, color)
    right = _frame_lines(level.goal, level.numbered, color)
    plain_width = max(len(line) for line in _frame_lines(now, level.numbered, False))
    heading = f"{level.size_text} {level.kind}"
    if level.metrics is not None:
        heading += f", optimal {level.metrics.optimal_length} moves ({level.metrics.band})"
    if level.played:
        heading += f", {len(level.played)} played"
    lines = [heading, left_title.ljust(plain_width) + "   goal"]
    for a, b in zip(left, right, strict=True):
        pad = plain_width - len(_strip(a))
        lines.append(a + " " * pad + "   " + b)
    if level.solution is not None:
        lines.append(f"solution: {level.solution or '(none needed)'}")
    return "\n".join(lines) + "\n"


def _strip(text: str) -> str:
    out = []
    skipping = False
    for c in text:
        if c == "\x1b":
            skipping = True
        elif skipping and c == "m":
            skipping = False
        elif not skipping:
            out.append(c)
    return "".join(out)


def _board(frame: Frame, numbered: bool, cs: int, role: str) -> tuple[Rect | Text | Group, ...]:
    items: list[Rect | Text | Group] = [
        Rect(0, 0, frame.width * cs, frame.height * cs, "#EFEFEF", _FRAME, 2, radius=4)
    ]
    pad = max(2, cs // 16)
    for i, v in enumerate(frame.cells):
        x, y = (i % frame.width) * cs, (i // frame.width) * cs
        if v == BLANK:
            items.append(
                Rect(
                    x + pad,
                    y + pad,
                    cs - 2 * pad,
                    cs - 2 * pad,
                    _BLANK_FILL,
                    radius=pad * 2,
                    attrs=(("class", "blank"),),
                )
            )
            continue
        fill = _TILE_FILL if numbered else tile_colour(v)
        tile = Rect(
            x + pad,
            y + pad,
            cs - 2 * pad,
            cs - 2 * pad,
            fill,
            INK,
            max(1, cs // 32),
            radius=pad * 2,
        )
        size = max(8, cs * 2 // 5 if numbered else cs // 3)
        glyph = Text(x + cs // 2, y + cs // 2, label_glyph(v, numbered), size, INK, bold=numbered)
        items.append(
            Group((tile, glyph), attrs=(("class", f"tile {role}"), ("data-label", str(v))))
        )
    return tuple(items)


def draw_level(level: SlidingLevel, *, cell_size: int) -> Scene:
    """The level as a picture: the start (or the frame now) and the goal side by side, each
    under its title, ``cell_size`` pixels a cell."""
    cs = max(8, cell_size)
    margin = max(8, cs // 2)
    title = max(12, cs // 2)
    w, h = level.width * cs, level.height * cs
    gap = max(cs, 24)
    now = level.frame_now()
    left_title = "now" if level.is_position else "start"
    heading = f"{level.size_text} {level.kind}"
    if level.metrics is not None:
        heading += f", optimal {level.metrics.optimal_length} moves"
    items = (
        Text(margin + w // 2, margin + title // 2, left_title, max(10, title * 2 // 3), INK),
        Text(margin + w + gap + w // 2, margin + title // 2, "goal", max(10, title * 2 // 3), INK),
        Group(
            _board(now, level.numbered, cs, "start"),
            margin,
            margin + title,
            (("class", "board start"),),
        ),
        Group(
            _board(level.goal, level.numbered, cs, "goal"),
            margin + w + gap,
            margin + title,
            (("class", "board goal"),),
        ),
    )
    return Scene(
        2 * margin + 2 * w + gap,
        2 * margin + title + h,
        items,
        title=f"Sliding puzzle: {heading}",
    )
