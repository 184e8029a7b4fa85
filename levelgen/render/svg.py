"""Pictures of a board as SVG, through a small scene of shapes that the PNG writer draws too.

:func:`board_scene` lays a board out once, as a :class:`Scene` of rectangles, lines and text
with integer pixel coordinates; :func:`scene_to_svg` writes a scene as SVG text and
:mod:`levelgen.render.png` draws the same scene with Pillow, so the two pictures agree shape for
shape.  :func:`render_svg` is both steps.  Everything here is pure and deterministic: the same
board, rules, path and cell size give the same bytes.

The picture: each tile is one ``<g class="tile" data-kind="K" data-x="X" data-y="Y">`` holding
a rounded square in the kind's colour and the kind's glyph.  Colours cycle through the seven
colours of the Okabe-Ito palette (distinguishable with the common colour-vision deficiencies);
the glyph is the kind's character of the level file's text form (``1``-``9``, ``A``-``Z``,
``a``-``z``; the number beyond kind 61), the same as ``levelgen show``, so kinds stay distinct
beyond the palette's seven colours and without colour at all.  Walls are dark crossed squares,
holes pale squares; the ring around the board is a dashed frame when paths may use it and a
grey band behind a solid frame when they may not.  Column numbers run along the top margin, row
numbers along the left.  A path is a black line with a white halo through the centres of its
corner points (which may lie on the ring), its two end tiles outlined.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from xml.sax.saxutils import escape, quoteattr

from ..board import EMPTY, KIND_CHARS, WALL, Board
from ..paths import Path
from ..rules import Rules

__all__ = [
    "PALETTE",
    "Group",
    "Line",
    "Rect",
    "Scene",
    "Shape",
    "Text",
    "board_scene",
    "cell_shapes",
    "kind_glyph",
    "kind_style",
    "render_svg",
    "scene_to_svg",
]

#: Okabe-Ito (2008) without its black: seven colours told apart with protanopia, deuteranopia
#: and tritanopia.  Kind ``k`` takes ``PALETTE[(k - 1) % 7]``.
PALETTE = ("#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7")
INK = "#222222"
WALL_FILL = "#3A3A3A"
HOLE_FILL = "#F2F2F2"
CLOSED_RING = "#D0D0D0"
#: Cells smaller than this (thumbnails) show colour only, no glyph or outline.
MIN_GLYPH_CELL = 14
FONT_FAMILY = "DejaVu Sans, Verdana, Arial, sans-serif"


@dataclass(frozen=True, slots=True)
class Rect:
    """A rectangle (rounded when ``radius``), optionally crossed by its two diagonals."""

    x: int
    y: int
    w: int
    h: int
    fill: str | None
    stroke: str | None = None
    stroke_width: int = 0
    radius: int = 0
    dashed: bool = False
    crossed: str | None = None  # the colour of the two diagonals, when drawn
    attrs: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class Line:
    """An open polyline; ``dot`` draws a disc of that radius at both ends."""

    points: tuple[tuple[int, int], ...]
    stroke: str
    width: int
    dot: int = 0
    attrs: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class Text:
    """Text centred on ``(x, y)`` (``anchor`` "middle"), or starting / ending there."""

    x: int
    y: int
    text: str
    size: int
    fill: str = INK
    bold: bool = False
    anchor: str = "middle"


@dataclass(frozen=True, slots=True)
class Group:
    """Shapes moved by ``(dx, dy)``, with attributes for the SVG ``<g>``."""

    items: tuple[Shape, ...]
    dx: int = 0
    dy: int = 0
    attrs: tuple[tuple[str, str], ...] = ()


Shape = Rect | Line | Text | Group


@dataclass(frozen=True, slots=True)
class Scene:
    """A picture of ``width`` x ``height`` pixels on a ``background``."""

    width: int
    height: int
    items: tuple[Shape, ...]
    background: str = "#FFFFFF"
    title: str = ""
    attrs: tuple[tuple[str, str], ...] = field(default=())


def kind_glyph(kind: int) -> str:
    """The glyph of a kind: its character of the text form, its number beyond those."""
    return KIND_CHARS[kind - 1] if kind <= len(KIND_CHARS) else str(kind)


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
    value: int, px: int, py: int, cs: int, where: tuple[tuple[str, str], ...] = ()
) -> list[Shape]:
    """The shapes of one cell holding ``value`` (a kind, ``EMPTY`` or ``WALL``) whose top left
    corner is pixel ``(px, py)``; ``where`` adds attributes (``data-x``, ``data-y``)."""
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


def board_scene(
    board: Board,
    rules: Rules,
    *,
    path: Path | None = None,
    cell_size: int = 32,
    labels: bool = True,
) -> Scene:
    """The scene of ``board``: margin with coordinates (when ``labels``), ring, cells, path.

    Variants: with stacked layers each cell shows the top tile of its stack and, for a stack
    of two tiles or more, a badge with its height in the top right corner (``data-height``);
    a sliding rule is named under the board ("slide: down") and in the title."""
    cs = cell_size
    if cs < 4:
        raise ValueError(f"cell size {cs} is below 4 pixels")
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
            shapes = cell_shapes(tops[i], ox + x * cs, oy + y * cs, cs, where)
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


def render_svg(board: Board, rules: Rules, *, path: Path | None = None, cell_size: int = 32) -> str:
    """The SVG picture of ``board`` (with ``path`` drawn through its corner points)."""
    return scene_to_svg(board_scene(board, rules, path=path, cell_size=cell_size))


# ----- SVG text ---------------------------------------------------------------------------------


def _attrs(pairs: Iterable[tuple[str, str | int | None]]) -> str:
    return "".join(f" {k}={quoteattr(str(v))}" for k, v in pairs if v is not None)


def _points(points: Sequence[tuple[int, int]]) -> str:
    return " ".join(f"{x},{y}" for x, y in points)


def _shape_svg(shape: Shape, out: list[str], indent: str) -> None:
    if isinstance(shape, Group):
        move = f"translate({shape.dx},{shape.dy})" if shape.dx or shape.dy else None
        out.append(f"{indent}<g{_attrs([*shape.attrs, ('transform', move)])}>")
        for item in shape.items:
            _shape_svg(item, out, indent + "  ")
        out.append(f"{indent}</g>")
    elif isinstance(shape, Rect):
        dash = f"{max(2, shape.stroke_width * 3)} {max(2, shape.stroke_width * 2)}"
        attrs: list[tuple[str, str | int | None]] = [
            *shape.attrs,
            ("x", shape.x),
            ("y", shape.y),
            ("width", shape.w),
            ("height", shape.h),
            ("rx", shape.radius or None),
            ("fill", shape.fill or "none"),
            ("stroke", shape.stroke),
            ("stroke-width", shape.stroke_width if shape.stroke else None),
            ("stroke-dasharray", dash if shape.dashed else None),
        ]
        if shape.crossed is None:
            out.append(f"{indent}<rect{_attrs(attrs)}/>")
            return
        x0, y0, x1, y1 = shape.x, shape.y, shape.x + shape.w, shape.y + shape.h
        cross = f"M{x0},{y0}L{x1},{y1}M{x1},{y0}L{x0},{y1}"
        out.append(f"{indent}<g{_attrs(shape.attrs)}>")
        out.append(f"{indent}  <rect{_attrs(attrs[len(shape.attrs) :])}/>")
        out.append(
            f'{indent}  <path d="{cross}" stroke="{shape.crossed}"'
            f' stroke-width="{max(1, shape.stroke_width)}"/>'
        )
        out.append(f"{indent}</g>")
    elif isinstance(shape, Line):
        out.append(
            f"{indent}<polyline{_attrs(shape.attrs)} points={quoteattr(_points(shape.points))}"
            f' fill="none" stroke="{shape.stroke}" stroke-width="{shape.width}"'
            ' stroke-linejoin="round" stroke-linecap="round"/>'
        )
        if shape.dot:
            for x, y in (shape.points[0], shape.points[-1]):
                out.append(
                    f'{indent}<circle cx="{x}" cy="{y}" r="{shape.dot}" fill="{shape.stroke}"/>'
                )
    else:
        anchor = {"middle": "middle", "start": "start", "end": "end"}[shape.anchor]
        weight = ' font-weight="bold"' if shape.bold else ""
        out.append(
            f'{indent}<text x="{shape.x}" y="{shape.y}" font-size="{shape.size}"'
            f' fill="{shape.fill}" text-anchor="{anchor}" dominant-baseline="central"{weight}>'
            f"{escape(shape.text)}</text>"
        )


def scene_to_svg(scene: Scene) -> str:
    """The SVG document of ``scene`` (UTF-8 text ending in a newline)."""
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{scene.width}" height="{scene.height}"'
        f' viewBox="0 0 {scene.width} {scene.height}"'
        f" font-family={quoteattr(FONT_FAMILY)}{_attrs(scene.attrs)}>"
    ]
    if scene.title:
        out.append(f"  <title>{escape(scene.title)}</title>")
    out.append(f'  <rect width="{scene.width}" height="{scene.height}" fill="{scene.background}"/>')
    for shape in scene.items:
        _shape_svg(shape, out, "  ")
    out.append("</svg>")
    return "\n".join(out) + "\n"
