"""Pictures of a board as SVG, through a small scene of shapes that the PNG writer draws too.

:func:`board_scene` lays a board out once, as a :class:`Scene` of rectangles, lines and text
with integer pixel coordinates; :func:`scene_to_svg` writes a scene as SVG text and
:mod:`levelgen.render.png` draws the same scene with Pillow, so the two pictures agree shape for
shape.  :func:`render_svg` is both steps.  Everything here is pure and deterministic: the same
board, rules, path and cell size give the same bytes.

The picture: each tile is one ``<g class="tile" data-kind="K" data-x="X" data-y="Y">`` holding
a rounded square and what the tile set (:mod:`levelgen.linkup.draw.tiles`) shows: by default
the kind's built-in picture on a white face (dark past the set's size), or a studio's image
(an ``<image>`` with a ``data:`` URI), or, with the glyph tiles, the kind's colour and glyph.
Glyph tiles: colours cycle through the seven
colours of the Okabe-Ito palette (distinguishable with the common colour-vision deficiencies);
the glyph is the kind's of :mod:`levelgen.linkup.draw.glyphs` (characters with no look-alikes
among them; the number beyond them), the same as ``levelgen show`` and the player, so kinds
stay distinct beyond the palette's seven colours and without colour at all.  Walls are dark
crossed squares, holes pale squares; the ring around the board is a dashed frame when paths
may use it and a grey band behind a solid frame when they may not.  Column numbers run along
the top margin, row numbers along the left.  A path is a black line with a white halo through
the centres of its corner points (which may lie on the ring), its two end tiles outlined.
"""

from __future__ import annotations

from ...formats.scene import (
    INK,
    PALETTE,
    Group,
    Line,
    Rect,
    Scene,
    Shape,
    Text,
    scene_to_svg,
)
from ..core.board import EMPTY, WALL, Board
from ..core.paths import Path
from ..core.rules import Rules
from .glyphs import kind_glyph
from .tiles import GLYPH_TILES, PICTURES, TileSet, kind_face, picture_shapes

__all__ = [
    "PALETTE",
    "Group",
    "Line",
    "Rect",
    "Scene",
    "Shape",
    "Text",
    "board_kinds",
    "board_scene",
    "cell_shapes",
    "check_tiles",
    "kind_glyph",
    "kind_style",
    "render_svg",
    "scene_to_svg",
]

LIGHT = "#FFFFFF"
WALL_FILL = "#3A3A3A"
HOLE_FILL = "#F2F2F2"
CLOSED_RING = "#D0D0D0"
#: Cells smaller than this (thumbnails) show colour only, no glyph or outline.
MIN_GLYPH_CELL = 14


def _luminance(colour: str) -> float:
    def channel(hex2: str) -> float:
        c = int(hex2, 16) / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(colour[i : i + 2]) for i in (1, 3, 5))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def kind_style(kind: int) -> tuple[str, str]:
    """(fill, ink) of a kind: its palette colour and the text colour of higher contrast."""
    fill = PALETTE[(kind - 1) % len(PALETTE)]
    # Contrast with black is (L + 0.05) / 0.05, with white 1.05 / (L + 0.05): equal near 0.18.
    ink = "#FFFFFF" if _luminance(fill) < 0.18 else "#000000"
    return fill, ink


def cell_shapes(
    value: int,
    px: int,
    py: int,
    cs: int,
    where: tuple[tuple[str, str], ...] = (),
    tiles: TileSet = GLYPH_TILES,
) -> list[Shape]:
    """The shapes of one cell holding ``value`` (a kind, ``EMPTY`` or ``WALL``) whose top left
    corner is pixel ``(px, py)``; ``where`` adds attributes (``data-x``, ``data-y``); ``tiles``
    says what a tile shows (glyphs unless told)."""
    gap = max(1, cs // 16)
    if value == EMPTY:
        return [
            Rect(
                px + gap,
                py + gap,
                cs - 2 * gap,
                cs - 2 * gap,
                HOLE_FILL,
                attrs=(("class", "hole"), *where),
            )
        ]
    if value == WALL:
        return [
            Rect(
                px,
                py,
                cs,
                cs,
                WALL_FILL,
                crossed="#8A8A8A",
                stroke_width=max(1, cs // 16),
                attrs=(("class", "wall"), *where),
            )
        ]
    if tiles.mode != "glyphs" and cs >= MIN_GLYPH_CELL:
        return _picture_tile(value, px, py, cs, gap, where, tiles)
    fill, ink = kind_style(value)
    glyph = kind_glyph(value)
    size = max(6, (cs * 11) // 20 if len(glyph) == 1 else (cs * 7) // 20)
    tile = Rect(
        px + gap,
        py + gap,
        cs - 2 * gap,
        cs - 2 * gap,
        fill,
        stroke=INK if cs >= MIN_GLYPH_CELL else None,
        stroke_width=max(1, cs // 32),
        radius=cs // 6,
    )
    attrs = (("class", "tile"), ("data-kind", str(value)), *where)
    if cs < MIN_GLYPH_CELL:  # a thumbnail: colour only
        return [Group((tile,), attrs=attrs)]
    label = Text(px + cs // 2, py + cs // 2, glyph, size, ink, bold=True)
    return [Group((tile, label), attrs=attrs)]


def _picture_tile(
    value: int,
    px: int,
    py: int,
    cs: int,
    gap: int,
    where: tuple[tuple[str, str], ...],
    tiles: TileSet,
) -> list[Shape]:
    """A tile showing a picture: a rounded face (white for a studio's images) outlined in ink,
    the picture inset by a tenth of the cell."""
    face = LIGHT if tiles.mode == "images" else kind_face(value)
    tile = Rect(
        px + gap,
        py + gap,
        cs - 2 * gap,
        cs - 2 * gap,
        face,
        stroke=INK,
        stroke_width=max(1, cs // 32),
        radius=cs // 6,
    )
    inset = max(2, cs // 10)
    picture = picture_shapes(tiles, value, px + inset, py + inset, cs - 2 * inset)
    attrs = (("class", "tile"), ("data-kind", str(value)), *where)
    return [Group((tile, *picture), attrs=attrs)]


def board_scene(
    board: Board,
    rules: Rules,
    *,
    path: Path | None = None,
    cell_size: int = 32,
    labels: bool = True,
    tiles: TileSet = PICTURES,
) -> Scene:
    """The scene of ``board``: margin with coordinates (when ``labels``), ring, cells, path;
    ``tiles``: what the tiles show (the built-in pictures unless told; cells under 14 pixels
    show the kind's colour only).  ``ValueError`` when a studio's ``tiles`` lack a kind.

    Variants: with stacked layers each cell shows the top tile of its stack and, for a stack
    of two tiles or more, a badge with its height in the top right corner (``data-height``);
    a sliding rule is named under the board ("slide: down") and in the title."""
    cs = cell_size
    if cs < 4:
        raise ValueError(f"cell size {cs} is below 4 pixels")
    check_tiles(board, tiles)
    w, h = board.width, board.height
    margin = max(10, (cs * 3) // 4) if labels else max(2, cs // 4)
    ox, oy = margin + cs, margin + cs  # the pixel corner of cell (0, 0)
    width, height = ox + (w + 1) * cs + margin // 2, oy + (h + 1) * cs + margin // 2
    note = max(8, (cs * 2) // 5) if labels else 0
    if rules.slide != "none" and labels:
        height += note + margin // 2
    items: list[Shape] = []
    ring_x, ring_y, ring_w, ring_h = ox - cs, oy - cs, (w + 2) * cs, (h + 2) * cs
    frame = max(1, cs // 16)
    if rules.outside:
        items.append(
            Rect(
                ring_x,
                ring_y,
                ring_w,
                ring_h,
                None,
                stroke="#9A9A9A",
                stroke_width=frame,
                dashed=True,
                attrs=(("class", "ring"),),
            )
        )
    else:
        items.append(
            Rect(ring_x, ring_y, ring_w, ring_h, CLOSED_RING, attrs=(("class", "ring closed"),))
        )
        items.append(
            Rect(ox, oy, w * cs, h * cs, "#FFFFFF", stroke=INK, stroke_width=max(2, cs // 10))
        )
    if labels:
        size = max(6, (cs * 2) // 5)
        for x in range(w):
            items.append(Text(ox + x * cs + cs // 2, margin // 2 + 1, str(x), size, "#555555"))
        for y in range(h):
            items.append(Text(margin // 2 + 1, oy + y * cs + cs // 2, str(y), size, "#555555"))
    tops, heights = _stack_tops(board)
    for y in range(h):
        for x in range(w):
            where = (("data-x", str(x)), ("data-y", str(y)))
            i = y * w + x
            shapes = cell_shapes(tops[i], ox + x * cs, oy + y * cs, cs, where, tiles)
            if heights[i] >= 2:
                shapes.extend(_badge(heights[i], ox + x * cs, oy + y * cs, cs, where))
            items.extend(shapes)
    if path is not None:
        items.extend(_path_items(path, ox, oy, cs))
    title = f"levelgen board {w}x{h}"
    if board.upper:
        title += f", {len(board.upper) + 1} layers"
    if rules.slide != "none":
        title += f", slide {rules.slide}"
        if labels:
            items.append(
                Text(
                    ox, oy + (h + 1) * cs + note, f"slide: {rules.slide}", note, INK, anchor="start"
                )
            )
    return Scene(width, height, tuple(items), title=title)


def board_kinds(board: Board) -> set[int]:
    """The kinds on any layer of ``board``."""
    return {v for cells in (board.cells, *board.upper) for v in cells if v >= 1}


def check_tiles(board: Board, tiles: TileSet) -> None:
    """``ValueError`` naming the first kind of ``board`` that a studio's ``tiles`` lack."""
    missing = tiles.missing(board_kinds(board))
    if missing:
        raise ValueError(
            f"the tile folder has no picture of kind {missing[0]}"
            f" ({missing[0]}.png, {missing[0]}.jpg or {missing[0]}.svg)"
            + (f" nor of {len(missing) - 1} more kinds" if len(missing) > 1 else "")
        )


def _stack_tops(board: Board) -> tuple[list[int], list[int]]:
    """For each cell (row-major) the value drawn (the top tile of its stack, else the cell of
    layer 0: a hole or a wall) and the stack's height in tiles."""
    tops = list(board.cells)
    heights = [1 if v >= 1 else 0 for v in board.cells]
    for layer in board.upper:
        for i, v in enumerate(layer):
            if v >= 1:
                tops[i] = v
                heights[i] += 1
    return tops, heights


def _badge(
    height: int, px: int, py: int, cs: int, where: tuple[tuple[str, str], ...]
) -> list[Shape]:
    """The stack-height badge of a cell whose top left corner is ``(px, py)``."""
    r = max(3, cs // 5)
    cx, cy = px + cs - r, py + r
    disc = Rect(cx - r, cy - r, 2 * r, 2 * r, "#FFFFFF", stroke=INK, stroke_width=1, radius=r)
    parts: tuple[Shape, ...] = (disc,)
    if cs >= MIN_GLYPH_CELL:
        parts = (disc, Text(cx, cy, str(height), max(6, (r * 3) // 2), INK, bold=True))
    return [Group(parts, attrs=(("class", "stack"), ("data-height", str(height)), *where))]


def _path_items(path: Path, ox: int, oy: int, cs: int) -> list[Shape]:
    pts = [(ox + p.x * cs + cs // 2, oy + p.y * cs + cs // 2) for p in path.corners]
    # The line starts and ends at the edges of the two end tiles, leaving their glyphs clear.
    trim = cs // 2 - max(1, cs // 16)
    for end, toward in ((0, 1), (len(pts) - 1, len(pts) - 2)):
        (x, y), (tx, ty) = pts[end], pts[toward]
        pts[end] = (x + trim * ((tx > x) - (tx < x)), y + trim * ((ty > y) - (ty < y)))
    width = max(2, cs // 10)
    half = cs // 2 - max(1, cs // 16)
    ends: list[Shape] = [
        Rect(
            ox + p.x * cs + cs // 2 - half,
            oy + p.y * cs + cs // 2 - half,
            2 * half,
            2 * half,
            None,
            stroke="#000000",
            stroke_width=max(2, cs // 10),
            radius=cs // 6,
        )
        for p in (path.a, path.b)
    ]
    corners = " ".join(f"{p.x},{p.y}" for p in path.corners)
    return [
        *ends,
        Line(tuple(pts), "#FFFFFF", width + max(2, cs // 16) * 2),
        Line(tuple(pts), "#000000", width, attrs=(("class", "path"), ("data-corners", corners))),
    ]


def render_svg(
    board: Board,
    rules: Rules,
    *,
    path: Path | None = None,
    cell_size: int = 32,
    tiles: TileSet = PICTURES,
) -> str:
    """The SVG picture of ``board`` (with ``path`` drawn through its corner points)."""
    return scene_to_svg(board_scene(board, rules, path=path, cell_size=cell_size, tiles=tiles))
