"""PNG pictures: the scenes of :mod:`levelgen.formats.scene` (any family's) drawn with Pillow.

Pillow draws the very scene the SVG writer writes (same rectangles, lines, text, coordinates),
so a PNG and an SVG of one board agree shape for shape.  Why Pillow and not an SVG rasteriser
such as cairosvg: Pillow ships as a wheel with its own FreeType and an embedded font (Aileron,
``ImageFont.load_default``), so the PNG needs no system library and no system font and the same
Pillow version draws the same pixels on every machine; cairosvg would need the system's cairo
and would pick whatever fonts the machine has.  Shapes are drawn at twice the size and scaled
down (Lanczos) for smooth edges.  Figures (:class:`levelgen.formats.scene.Figure`: polygons,
ovals and thick lines) are drawn with the same primitives, and embedded pictures are decoded
and pasted (PNG and JPEG; an SVG picture is rasterised by resvg first, a Rust library that
ships as a wheel with no system dependency).  The bytes are deterministic: PNG written by
Pillow carries no time stamp.
"""

from __future__ import annotations

import io
from functools import lru_cache
from typing import TYPE_CHECKING

from ..formats.scene import INK, OUTLINE, Figure, Group, Line, Part, Picture, Rect, Scene, Shape

if TYPE_CHECKING:
    from PIL import Image, ImageDraw, ImageFont

__all__ = ["MAX_PIXELS", "PictureError", "scene_to_image", "scene_to_png"]

#: Drawn at this multiple of the final size, then scaled down (pictures up to
#: ``SUPERSAMPLE_MAX_PIXELS`` pixels; larger ones are drawn at their size).
SUPERSAMPLE = 2
SUPERSAMPLE_MAX_PIXELS = 8_000_000
#: The largest picture the command line draws (pixels).
MAX_PIXELS = 60_000_000


@lru_cache(maxsize=64)
def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    from PIL import ImageFont

    return ImageFont.load_default(size=size)


def _rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


class PictureError(ValueError):
    """An embedded picture the PNG writer cannot draw (an SVG, or bytes that are no image)."""


def _polyline(
    draw: ImageDraw.ImageDraw, pts: list[tuple[float, float]], colour: str, width: float
) -> None:
    """A polyline ``width`` pixels wide with round joins and ends (as SVG's round caps)."""
    fill = _rgb(colour)
    w = max(1, round(width))
    draw.line(pts, fill=fill, width=w, joint="curve")
    r = width / 2
    for x, y in pts:
        draw.ellipse((x - r, y - r, x + r, y + r), fill=fill)


def _part(
    draw: ImageDraw.ImageDraw, part: Part, ox: float, oy: float, scale: float, ink: str = INK
) -> None:
    outline = OUTLINE * scale if part.outline else 0.0
    if part.kind == "oval":
        (cx, cy), (rx, ry) = part.points
        x, y, a, b = ox + cx * scale, oy + cy * scale, rx * scale, ry * scale
        if outline:  # the outline centred on the edge, as SVG strokes it
            h = outline / 2
            draw.ellipse((x - a - h, y - b - h, x + a + h, y + b + h), fill=_rgb(ink))
            a, b = max(0.0, a - h), max(0.0, b - h)
        draw.ellipse((x - a, y - b, x + a, y + b), fill=_rgb(part.fill))
        return
    pts = [(ox + px * scale, oy + py * scale) for px, py in part.points]
    if part.kind == "line":
        _polyline(draw, pts, part.fill, part.width * scale)
        return
    draw.polygon(pts, fill=_rgb(part.fill))
    if outline:
        _polyline(draw, [*pts, pts[0]], ink, outline)


def _picture(image: Image.Image, shape: Picture, dx: int, dy: int, k: int) -> None:
    from PIL import Image as PILImage
    from PIL import UnidentifiedImageError

    w, h = shape.w * k, shape.h * k
    data = _rasterise_svg(shape.data, max(w, h)) if shape.mime == "image/svg+xml" else shape.data
    try:
        with PILImage.open(io.BytesIO(data)) as opened:
            source = opened.convert("RGBA")
    except UnidentifiedImageError:
        raise PictureError("not a PNG or JPEG image") from None
    except (OSError, ValueError, SyntaxError) as exc:
        raise PictureError(f"not a PNG or JPEG image ({exc})") from None
    ratio = min(w / source.width, h / source.height)
    size = (max(1, round(source.width * ratio)), max(1, round(source.height * ratio)))
    fitted = source.resize(size, PILImage.Resampling.LANCZOS)
    x = (shape.x + dx) * k + (w - size[0]) // 2
    y = (shape.y + dy) * k + (h - size[1]) // 2
    image.paste(fitted, (x, y), fitted)


def _rasterise_svg(data: bytes, width: int) -> bytes:
    """An SVG picture as PNG bytes ``width`` pixels wide (resvg: no system library, and it
    fetches nothing); :class:`PictureError` when resvg cannot read it."""
    import resvg_py

    try:
        return bytes(resvg_py.svg_to_bytes(svg_string=data.decode("utf-8"), width=width))
    except (UnicodeDecodeError, ValueError, RuntimeError, OSError) as exc:
        raise PictureError(f"an SVG picture resvg cannot draw ({exc})") from None


def _dashed_rect(
    draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], colour: str, width: int
) -> None:
    x0, y0, x1, y1 = box
    on, off = max(2, width * 3), max(2, width * 2)
    for a0, a1, fixed, horizontal in (
        (x0, x1, y0, True),
        (x0, x1, y1, True),
        (y0, y1, x0, False),
        (y0, y1, x1, False),
    ):
        t = a0
        while t < a1:
            end = min(a1, t + on)
            if horizontal:
                draw.line([(t, fixed), (end, fixed)], fill=_rgb(colour), width=width)
            else:
                draw.line([(fixed, t), (fixed, end)], fill=_rgb(colour), width=width)
            t = end + off


def _draw(
    draw: ImageDraw.ImageDraw, image: Image.Image, shape: Shape, dx: int, dy: int, k: int
) -> None:
    if isinstance(shape, Group):
        for item in shape.items:
            _draw(draw, image, item, dx + shape.dx, dy + shape.dy, k)
    elif isinstance(shape, Figure):
        scale = shape.size * k / 100
        for part in shape.parts:
            _part(draw, part, (shape.x + dx) * k, (shape.y + dy) * k, scale, shape.ink)
    elif isinstance(shape, Picture):
        _picture(image, shape, dx, dy, k)
    elif isinstance(shape, Rect):
        x0, y0 = (shape.x + dx) * k, (shape.y + dy) * k
        box = (x0, y0, x0 + shape.w * k, y0 + shape.h * k)
        width = shape.stroke_width * k
        if shape.dashed and shape.stroke:
            if shape.fill:
                draw.rectangle(box, fill=_rgb(shape.fill))
            _dashed_rect(draw, box, shape.stroke, width)
        else:
            fill = _rgb(shape.fill) if shape.fill else None
            outline = _rgb(shape.stroke) if shape.stroke else None
            if shape.radius:
                draw.rounded_rectangle(
                    box, radius=shape.radius * k, fill=fill, outline=outline, width=width
                )
            else:
                draw.rectangle(box, fill=fill, outline=outline, width=width if outline else 0)
        if shape.crossed:
            colour = _rgb(shape.crossed)
            w = max(1, shape.stroke_width) * k
            draw.line([(box[0], box[1]), (box[2], box[3])], fill=colour, width=w)
            draw.line([(box[2], box[1]), (box[0], box[3])], fill=colour, width=w)
    elif isinstance(shape, Line):
        pts = [((x + dx) * k, (y + dy) * k) for x, y in shape.points]
        colour = _rgb(shape.stroke)
        draw.line(pts, fill=colour, width=shape.width * k, joint="curve")
        r = max(shape.width * k // 2, shape.dot * k)
        for x, y in (pts[0], pts[-1]):  # round caps (and the end dots)
            draw.ellipse((x - r, y - r, x + r, y + r), fill=colour)
        for x, y in pts[1:-1]:
            h = shape.width * k // 2
            draw.ellipse((x - h, y - h, x + h, y + h), fill=colour)
    else:
        anchor = {"middle": "mm", "start": "lm", "end": "rm"}[shape.anchor]
        font = _font(shape.size * k)
        xy = ((shape.x + dx) * k, (shape.y + dy) * k)
        stroke = 1 if shape.bold else 0  # a faux bold: the embedded font has one weight
        fill = _rgb(shape.fill)
        draw.text(
            xy,
            shape.text,
            font=font,
            fill=fill,
            anchor=anchor,
            stroke_width=stroke,
            stroke_fill=fill,
        )


def scene_to_image(scene: Scene) -> Image.Image:
    """The scene as a Pillow RGB image of ``scene.width`` x ``scene.height`` pixels."""
    from PIL import Image as PILImage
    from PIL import ImageDraw

    k = SUPERSAMPLE if scene.width * scene.height <= SUPERSAMPLE_MAX_PIXELS else 1
    image = PILImage.new("RGB", (scene.width * k, scene.height * k), _rgb(scene.background))
    draw = ImageDraw.Draw(image)
    for shape in scene.items:
        _draw(draw, image, shape, 0, 0, k)
    return image.resize((scene.width, scene.height), PILImage.Resampling.LANCZOS)


def scene_to_png(scene: Scene) -> bytes:
    """The PNG file of ``scene`` (deterministic bytes for one Pillow version)."""
    buffer = io.BytesIO()
    scene_to_image(scene).save(buffer, format="PNG")
    return buffer.getvalue()
