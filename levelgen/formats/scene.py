"""Pictures as data: a small scene of rectangles, lines, text, figures and embedded images that
every family draws into.

A family's picture (:meth:`levelgen.puzzles.Family.draw`) is a :class:`Scene` with integer pixel
coordinates; :func:`scene_to_svg` writes it as SVG text and :mod:`levelgen.render.png` draws the
same scene with Pillow, so an SVG and a PNG of one level agree shape for shape.  Pure and
deterministic: the same scene gives the same bytes.  A :class:`Figure` is a small vector
drawing (polygons, ovals and thick lines in a 100 x 100 box, see :class:`Part`) that both
writers draw shape for shape; a :class:`Picture` is an image file (PNG, JPEG or SVG) embedded
as a ``data:`` URI in the SVG and drawn into the PNG (PNG and JPEG only).
``PALETTE`` is the Okabe-Ito palette,
told apart with the common colour-vision deficiencies; families colour their pieces with it.
"""

from __future__ import annotations

import base64
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from xml.sax.saxutils import escape, quoteattr

__all__ = [
    "FONT_FAMILY",
    "INK",
    "OUTLINE",
    "PALETTE",
    "Figure",
    "Group",
    "ImageFile",
    "Line",
    "Part",
    "Picture",
    "Rect",
    "Scene",
    "Shape",
    "Text",
    "data_uri",
    "figure_svg",
    "scene_to_svg",
]

#: Okabe-Ito (2008) without its black: seven colours told apart with protanopia, deuteranopia
#: and tritanopia.  Kind ``k`` takes ``PALETTE[(k - 1) % 7]``.
PALETTE = ("#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7")
INK = "#222222"
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
class Part:
    """One piece of a :class:`Figure`, in the figure's 100 x 100 box: ``"poly"`` (a filled
    polygon through ``points``), ``"oval"`` (``points`` holds the centre and the two radii) or
    ``"line"`` (an open polyline ``width`` units thick with round ends).  A poly or oval with
    ``outline`` gets an ``INK`` outline ``OUTLINE`` units wide, centred on its edge."""

    kind: str
    points: tuple[tuple[float, float], ...]
    fill: str
    width: float = 0
    outline: bool = True


#: The outline of a figure's polygons and ovals, in units of its 100 x 100 box.
OUTLINE = 3.5


@dataclass(frozen=True, slots=True)
class Figure:
    """The parts (drawn in order) of a 100 x 100 box scaled to ``size`` pixels at ``(x, y)``."""

    x: int
    y: int
    size: int
    parts: tuple[Part, ...]
    attrs: tuple[tuple[str, str], ...] = ()
    ink: str = INK  # the colour of the outlines (white on a dark face)


@dataclass(frozen=True, slots=True)
class ImageFile:
    """An image file as read (``mime`` image/png, image/jpeg or image/svg+xml): a studio's tile,
    a puzzle's picture.  ``name``: the file's name, for messages."""

    name: str
    mime: str
    data: bytes


@dataclass(frozen=True, slots=True)
class Picture:
    """An image file (``mime`` image/png, image/jpeg or image/svg+xml) fitted into the box
    ``w`` x ``h`` at ``(x, y)``, its aspect kept and centred."""

    x: int
    y: int
    w: int
    h: int
    mime: str
    data: bytes
    attrs: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class Group:
    """Shapes moved by ``(dx, dy)``, with attributes for the SVG ``<g>``."""

    items: tuple[Shape, ...]
    dx: int = 0
    dy: int = 0
    attrs: tuple[tuple[str, str], ...] = ()


Shape = Rect | Line | Text | Group | Figure | Picture


@dataclass(frozen=True, slots=True)
class Scene:
    """A picture of ``width`` x ``height`` pixels on a ``background``."""

    width: int
    height: int
    items: tuple[Shape, ...]
    background: str = "#FFFFFF"
    title: str = ""
    attrs: tuple[tuple[str, str], ...] = field(default=())


# ----- SVG text ---------------------------------------------------------------------------------


def _attrs(pairs: Iterable[tuple[str, str | int | None]]) -> str:
    return "".join(f" {k}={quoteattr(str(v))}" for k, v in pairs if v is not None)


def _points(points: Sequence[tuple[int, int]]) -> str:
    return " ".join(f"{x},{y}" for x, y in points)


def _num(value: float) -> str:
    """A coordinate as short text: ``12``, ``12.5``."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def data_uri(mime: str, data: bytes) -> str:
    """``data:MIME;base64,...``: the bytes as a URI that needs no request."""
    return f"data:{mime};base64," + base64.b64encode(data).decode("ascii")


def _part_svg(part: Part, ink: str = INK) -> str:
    line = f' stroke="{ink}" stroke-width="{_num(OUTLINE)}"' if part.outline else ""
    if part.kind == "oval":
        (cx, cy), (rx, ry) = part.points
        return (
            f'<ellipse cx="{_num(cx)}" cy="{_num(cy)}" rx="{_num(rx)}" ry="{_num(ry)}"'
            f' fill="{part.fill}"{line}/>'
        )
    points = " ".join(f"{_num(x)},{_num(y)}" for x, y in part.points)
    if part.kind == "line":
        return (
            f'<polyline points="{points}" fill="none" stroke="{part.fill}"'
            f' stroke-width="{_num(part.width)}" stroke-linecap="round" stroke-linejoin="round"/>'
        )
    return f'<polygon points="{points}" fill="{part.fill}"{line} stroke-linejoin="round"/>'


def figure_svg(parts: Sequence[Part], ink: str = INK) -> str:
    """A standalone SVG document of a figure's parts in its 100 x 100 box (no background),
    outlined in ``ink``."""
    body = "".join(_part_svg(p, ink) for p in parts)
    return f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">{body}</svg>'


def _shape_svg(shape: Shape, out: list[str], indent: str) -> None:
    if isinstance(shape, Figure):
        scaled = f"translate({shape.x},{shape.y}) scale({_num(shape.size / 100)})"
        moved: list[tuple[str, str | int | None]] = [*shape.attrs, ("transform", scaled)]
        out.append(f"{indent}<g{_attrs(moved)}>")
        out.extend(f"{indent}  {_part_svg(p, shape.ink)}" for p in shape.parts)
        out.append(f"{indent}</g>")
    elif isinstance(shape, Picture):
        image: list[tuple[str, str | int | None]] = [
            *shape.attrs,
            ("x", shape.x),
            ("y", shape.y),
            ("width", shape.w),
            ("height", shape.h),
            ("preserveAspectRatio", "xMidYMid meet"),
            ("href", data_uri(shape.mime, shape.data)),
        ]
        out.append(f"{indent}<image{_attrs(image)}/>")
    elif isinstance(shape, Group):
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
