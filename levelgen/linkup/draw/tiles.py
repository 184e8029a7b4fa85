"""What a Link-up tile shows: a built-in picture (the default), a studio's own image, or the
kind's glyph on its colour.

:data:`PICTURES` draws kind ``k`` with icon ``(k - 1) % n`` of the ``n`` built-in icons
(:mod:`levelgen.linkup.draw.icons`) on a white face; past the set, the same icons come back
on a dark face (kinds ``n + 1 .. 2n``), then on a white face with a corner badge numbering
the round (3, 4, ...; dark again when even), so that no two kinds look alike, by shape and
brightness alone.  :data:`GLYPH_TILES` keeps the glyphs of :mod:`levelgen.linkup.draw.glyphs`.
A studio's tile set (:func:`studio_tiles`) holds one image file per kind, read at the edge
(:func:`levelgen.linkup.draw.tiles.read_tile_folder`); its images are embedded as they are.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from ...formats.scene import INK, Figure, Part, Picture, Rect, Shape, Text, figure_svg
from .icons import ICONS, with_face

__all__ = [
    "DARK_FACE",
    "GLYPH_TILES",
    "LIGHT_FACE",
    "PICTURES",
    "TileFolderError",
    "TileImage",
    "TileSet",
    "kind_face",
    "kind_name",
    "picture_shapes",
    "read_tile_folder",
    "tile_svg",
]

LIGHT_FACE = "#FFFFFF"
DARK_FACE = "#404858"
#: The file names of a studio's tile folder: the kind's number and one of these suffixes.
SUFFIXES = {
    ".png": "image/png",
    ".svg": "image/svg+xml",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
}


@dataclass(frozen=True, slots=True)
class TileImage:
    """One image file of a studio's tile set."""

    name: str
    mime: str
    data: bytes


@dataclass(frozen=True, slots=True)
class TileSet:
    """How tiles are drawn: ``"pictures"`` (built-in), ``"glyphs"`` or ``"images"`` (a studio's
    ``images`` by kind, from ``source``, the folder)."""

    mode: str
    images: Mapping[int, TileImage] = field(default_factory=dict)
    source: str = ""

    def missing(self, kinds: set[int]) -> list[int]:
        """The kinds of ``kinds`` this set has no image for (none unless ``"images"``)."""
        return sorted(k for k in kinds if k not in self.images) if self.mode == "images" else []


PICTURES = TileSet("pictures")
GLYPH_TILES = TileSet("glyphs")


def _round(kind: int) -> tuple[int, int]:
    """(icon index, round) of ``kind``: round 0 is the first pass over the icons."""
    return (kind - 1) % len(ICONS), (kind - 1) // len(ICONS)


def kind_face(kind: int) -> str:
    """The face colour of a picture tile of ``kind``: white, dark every other round."""
    return DARK_FACE if _round(kind)[1] % 2 else LIGHT_FACE


def kind_name(kind: int) -> str:
    """The picture's name (``apple``; ``apple 2`` from the second round on)."""
    index, lap = _round(kind)
    name = ICONS[index][0]
    return f"{name} {lap + 1}" if lap else name


def _figure(kind: int) -> tuple[Part, ...]:
    index, _ = _round(kind)
    return with_face(ICONS[index][1], kind_face(kind))


def _badge(kind: int, x: int, y: int, size: int) -> list[Shape]:
    """From the third round on, the round's number in a disc at the bottom left."""
    lap = _round(kind)[1]
    if lap < 2:
        return []
    r = max(3, size // 6)
    disc = Rect(x, y + size - 2 * r, 2 * r, 2 * r, "#FFFFFF", stroke=INK, stroke_width=1, radius=r)
    return [disc, Text(x + r, y + size - r, str(lap + 1), max(6, (r * 3) // 2), INK, bold=True)]


def picture_shapes(tiles: TileSet, kind: int, x: int, y: int, size: int) -> list[Shape]:
    """The picture of ``kind`` in the square ``size`` pixels wide at ``(x, y)``."""
    if tiles.mode == "images":
        image = tiles.images[kind]
        return [Picture(x, y, size, size, image.mime, image.data)]
    return [Figure(x, y, size, _figure(kind)), *_badge(kind, x, y, size)]


def tile_svg(kind: int) -> str:
    """The built-in picture of ``kind`` as a standalone SVG document (the player's image)."""
    parts = list(_figure(kind))
    lap = _round(kind)[1]
    if lap >= 2:  # the badge, in the figure's box
        parts.append(Part("oval", ((14, 86), (13, 13)), "#FFFFFF"))
    svg = figure_svg(parts)
    if lap >= 2:
        label = (
            f'<text x="14" y="87" font-size="18" font-weight="bold" text-anchor="middle"'
            f' dominant-baseline="central" font-family="sans-serif" fill="{INK}">{lap + 1}</text>'
        )
        svg = svg.replace("</svg>", label + "</svg>")
    return svg


class TileFolderError(ValueError):
    """A tile folder that cannot be used: ``where`` (the folder or a file) and the reason."""

    def __init__(self, where: str, reason: str) -> None:
        self.where = where
        self.reason = reason
        super().__init__(f"{where}: {reason}")


_NAME = re.compile(r"0*([1-9][0-9]{0,5})")


def _check_image(path: Path, mime: str, data: bytes) -> None:
    if mime == "image/svg+xml":
        import xml.etree.ElementTree as ET

        text = data.decode("utf-8", "replace")
        if "<!DOCTYPE" in text or "<!ENTITY" in text:
            raise TileFolderError(str(path), "an SVG with a DOCTYPE or entities is refused")
        try:
            root = ET.fromstring(text)
        except ET.ParseError as exc:
            raise TileFolderError(str(path), f"not an SVG file ({exc})") from None
        if root.tag not in ("svg", "{http://www.w3.org/2000/svg}svg"):
            raise TileFolderError(str(path), "not an SVG file (its root is not <svg>)")
        return
    import io

    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(io.BytesIO(data)) as image:
            found = image.format
            image.load()
    except UnidentifiedImageError:
        raise TileFolderError(str(path), "not a readable image") from None
    except (OSError, ValueError, SyntaxError) as exc:
        raise TileFolderError(str(path), f"not a readable image ({exc})") from None
    if found not in ("PNG", "JPEG"):
        raise TileFolderError(str(path), f"a {found} image: tiles are PNG, JPEG or SVG")


def read_tile_folder(folder: str) -> TileSet:
    """A studio's tile set: in ``folder``, one file per kind named by the kind's number,
    ``1.png``, ``2.svg``, ``3.jpg`` ... (leading zeros allowed: ``01.png``); other files are
    ignored.  :class:`TileFolderError` for a folder that cannot be read or has no such file,
    two files of one kind, or a file that is not an image of its suffix."""
    base = Path(folder)
    if not base.is_dir():
        raise TileFolderError(folder, "not a folder")
    images: dict[int, TileImage] = {}
    try:
        entries = sorted(base.iterdir())
    except OSError as exc:
        raise TileFolderError(folder, f"cannot be read ({exc.strerror or exc})") from None
    for path in entries:
        mime = SUFFIXES.get(path.suffix.lower())
        match = _NAME.fullmatch(path.stem)
        if mime is None or match is None or not path.is_file():
            continue
        kind = int(match.group(1))
        if kind in images:
            raise TileFolderError(
                str(path), f"a second picture of kind {kind} (with {images[kind].name})"
            )
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise TileFolderError(str(path), f"cannot be read ({exc.strerror or exc})") from None
        _check_image(path, mime, data)
        images[kind] = TileImage(path.name, mime, data)
    if not images:
        raise TileFolderError(folder, "no tile pictures (1.png, 2.svg, ...: one file per kind)")
    return TileSet("images", images, folder)
