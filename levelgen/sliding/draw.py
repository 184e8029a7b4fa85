"""Pictures of sliding-puzzle levels: text for a terminal and a :class:`Scene` for SVG and PNG.

Both show two boards side by side: the start (or, for a position, the frame now) and the goal.
Numbered tiles carry their numbers; colour tiles are filled from the Okabe-Ito ``PALETTE``
(label ``k`` takes ``PALETTE[(k - 1) % 7]``) and carry a letter (``A`` for label 1, ...) so the
colours can be told apart without colour.  The blank is an empty, darker cell.  A picture puzzle
(:mod:`levelgen.sliding.picture`) shows each tile's part of the picture (its number in a
corner disc when asked) and the goal as the whole picture.  Pure: the same level gives the
same text and the same scene.
"""

from __future__ import annotations

from ..formats.scene import INK, PALETTE, Group, Picture, Rect, Scene, Shape, Text
from .level import SlidingLevel
from .picture import CutPicture
from .rules import BLANK, Frame

__all__ = ["draw_level", "label_glyph", "show_level", "tile_colour", "tile_shape"]

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


def _number(v: int, x: int, y: int, cs: int) -> list[Shape]:
    """A picture tile's number, in a white disc at its top left."""
    r = max(5, cs // 7)
    disc = Rect(x, y, 2 * r, 2 * r, "#FFFFFF", INK, 1, radius=r)
    return [disc, Text(x + r, y + r, str(v), max(7, r), INK, bold=True)]


def _picture_board(
    frame: Frame, cs: int, role: str, picture: CutPicture, numbers: bool, whole: bool
) -> tuple[Shape, ...]:
    w, h = frame.width * cs, frame.height * cs
    items: list[Shape] = [Rect(0, 0, w, h, "#EFEFEF", _FRAME, 2, radius=4)]
    if whole:  # the goal: the whole picture
        items.append(Picture(0, 0, w, h, picture.mime, picture.whole, (("class", "whole"),)))
        return tuple(items)
    pad = max(1, cs // 32)
    for i, v in enumerate(frame.cells):
        x, y = (i % frame.width) * cs, (i // frame.width) * cs
        if v == BLANK:
            size = cs - 2 * pad
            items.append(
                Rect(x + pad, y + pad, size, size, _BLANK_FILL, attrs=(("class", "blank"),))
            )
            continue
        size = cs - 2 * pad
        parts: list[Shape] = [Picture(x + pad, y + pad, size, size, picture.mime, picture.tiles[v])]
        if numbers:
            parts.extend(_number(v, x + 2 * pad, y + 2 * pad, cs))
        attrs = (("class", f"tile {role}"), ("data-label", str(v)))
        items.append(Group(tuple(parts), attrs=attrs))
    return tuple(items)


def _board(frame: Frame, numbered: bool, cs: int, role: str) -> tuple[Shape, ...]:
    items: list[Shape] = [
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
        items.append(tile_shape(v, x, y, cs, numbered, role))
    return tuple(items)


def tile_shape(v: int, x: int, y: int, cs: int, numbered: bool, role: str = "start") -> Group:
    """The tile of label ``v`` in the cell of ``cs`` pixels whose top left is ``(x, y)``:
    its number (numbered), or its colour and letter."""
    pad = max(2, cs // 16)
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
    return Group((tile, glyph), attrs=(("class", f"tile {role}"), ("data-label", str(v))))


def draw_level(
    level: SlidingLevel,
    *,
    cell_size: int,
    picture: CutPicture | None = None,
    numbers: bool = False,
) -> Scene:
    """The level as a picture: the start (or the frame now) and the goal side by side, each
    under its title, ``cell_size`` pixels a cell; with a ``picture`` (cut at ``cell_size``)
    the tiles show their parts of it (``numbers``: and their numbers) and the goal all of it."""
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
    if picture is None:
        left_board = _board(now, level.numbered, cs, "start")
        goal_board = _board(level.goal, level.numbered, cs, "goal")
    else:
        left_board = _picture_board(now, cs, "start", picture, numbers, now == level.goal)
        goal_board = _picture_board(level.goal, cs, "goal", picture, numbers, True)
    items = (
        Text(margin + w // 2, margin + title // 2, left_title, max(10, title * 2 // 3), INK),
        Text(margin + w + gap + w // 2, margin + title // 2, "goal", max(10, title * 2 // 3), INK),
        Group(
            left_board,
            margin,
            margin + title,
            (("class", "board start"),),
        ),
        Group(
            goal_board,
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
