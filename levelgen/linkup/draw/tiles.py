"""What a Link-up tile shows: a built-in picture (the default), a studio's own image, or the
kind's glyph on its colour.

:data:`PICTURES` draws kind ``k`` with icon ``(k - 1) % n`` of the ``n`` built-in icons
(:mod:`levelgen.linkup.draw.icons`) on a white face; past the set, the same icons come back
on a dark face (kinds ``n + 1 .. 2n``, outlined in white), then on a white face with a corner
badge numbering the round (3, 4, ...; dark again when even), so that no two kinds look alike,
by shape and brightness alone.  :data:`GLYPH_TILES` keeps the glyphs of
:mod:`levelgen.linkup.draw.glyphs`.
A studio's tile set holds one image file per kind (read and checked at the edge, see
:func:`levelgen.render.images.read_numbered_images`); its images are embedded as they are.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from ...formats.scene import INK, Figure, ImageFile, Part, Picture, Rect, Shape, Text, figure_svg
from .icons import ICONS, with_face

__all__ = [
    "DARK_FACE",
    "GLYPH_TILES",
    "LIGHT_FACE",
    "PICTURES",
    "TileSet",
    "kind_face",
    "kind_name",
    "picture_shapes",
    "tile_set",
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
    ``images`` by kind)."""

    mode: str
    images: Mapping[int, ImageFile] = field(default_factory=dict)

    def missing(self, kinds: set[int]) -> list[int]:
        """The kinds of ``kinds`` this set has no image for (none unless ``"images"``)."""
        return sorted(k for k in kinds if k not in self.images) if self.mode == "images" else []


PICTURES = TileSet("pictures")
GLYPH_TILES = TileSet("glyphs")


def tile_set(value: object) -> TileSet:
    """The tile set an option names: ``"pictures"``, ``"glyphs"``, a mapping of kinds to
    :class:`~levelgen.formats.scene.ImageFile` (a studio's), or a :class:`TileSet`;
    ``ValueError`` otherwise."""
    if isinstance(value, TileSet):
        return value
    if value == "pictures":
        return PICTURES
    if value == "glyphs":
        return GLYPH_TILES
    if isinstance(value, Mapping) and all(
        isinstance(k, int) and isinstance(v, ImageFile) for k, v in value.items()
    ):
        return TileSet("images", dict(value))
    raise ValueError("must be pictures, glyphs or a folder of images, one a kind")


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
    return with_face(ICONS[index][1], kind_face(kind), _ink(kind))


def _ink(kind: int) -> str:
    """The outline of a picture: ink on a white face, white on a dark one."""
    return LIGHT_FACE if kind_face(kind) == DARK_FACE else INK


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
    return [Figure(x, y, size, _figure(kind), ink=_ink(kind)), *_badge(kind, x, y, size)]


def tile_svg(kind: int) -> str:
    """The built-in picture of ``kind`` as a standalone SVG document (the player's image)."""
    parts = list(_figure(kind))
    lap = _round(kind)[1]
    if lap >= 2:  # the badge, in the figure's box
        parts.append(Part("oval", ((14, 86), (13, 13)), "#FFFFFF"))
    svg = figure_svg(parts, _ink(kind))
    if lap >= 2:
        label = (
            f'<text x="14" y="87" font-size="18" font-weight="bold" text-anchor="middle"'
            f' dominant-baseline="central" font-family="sans-serif" fill="{INK}">{lap + 1}</text>'
        )
        svg = svg.replace("</svg>", label + "</svg>")
    return svg
