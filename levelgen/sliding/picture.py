"""Picture puzzles: an image cut into a numbered sliding puzzle's tiles.

:func:`cut_picture` crops the image (PNG or JPEG bytes) about its centre to the board's
aspect, scales it to ``tile_px`` pixels a cell and cuts it along the cells: the tile of label
``v`` is the part of the picture under ``v``'s cell in the goal, so the solved board shows the
whole picture (the blank's cell too, once solved).  Each part is encoded again in the
image's own format (PNG, or JPEG at quality 90): Pillow's encoders give the same bytes for the
same input.  Only numbered puzzles take a picture: the tiles of a colour
puzzle share labels and are interchangeable, which a picture's parts are not.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .rules import BLANK, Frame

if TYPE_CHECKING:
    from PIL import Image

__all__ = ["CutPicture", "PictureError", "cut_picture", "read_picture"]


class PictureError(ValueError):
    """Bytes that are not a PNG or JPEG image (the reason)."""


@dataclass(frozen=True, slots=True)
class CutPicture:
    """The whole picture and the tile of each label, as image files of ``mime``."""

    mime: str
    whole: bytes
    tiles: dict[int, bytes]
    tile_px: int


def read_picture(data: bytes) -> Image.Image:
    """The image of PNG or JPEG ``data``, decoded (:class:`PictureError` otherwise)."""
    from PIL import Image as PILImage
    from PIL import UnidentifiedImageError

    try:
        with PILImage.open(io.BytesIO(data)) as opened:
            found = opened.format
            image = opened.copy()  # decodes it all: a truncated file fails here
    except UnidentifiedImageError:
        raise PictureError("not a readable PNG or JPEG image") from None
    except (OSError, ValueError, SyntaxError) as exc:
        raise PictureError(f"not a readable PNG or JPEG image ({exc})") from None
    if found not in ("PNG", "JPEG"):
        raise PictureError(f"a {found} image, not PNG or JPEG")
    if image.width < 1 or image.height < 1:
        raise PictureError("an empty image")
    return image


def _encode(image: Image.Image, png: bool) -> bytes:
    buffer = io.BytesIO()
    if png:
        image.save(buffer, format="PNG")
    else:
        image.convert("RGB").save(buffer, format="JPEG", quality=90)
    return buffer.getvalue()


def cut_picture(data: bytes, goal: Frame, tile_px: int) -> CutPicture:
    """The picture of ``data`` cut into the tiles of the board whose solved frame is ``goal``
    (labels unique: a numbered puzzle), ``tile_px`` pixels a cell."""
    from PIL import Image as PILImage

    source = read_picture(data)
    png = data.startswith(b"\x89PNG")  # read_picture took PNG or JPEG only
    alpha = png and (source.mode in ("RGBA", "LA", "PA") or "transparency" in source.info)
    source = source.convert("RGBA" if alpha else "RGB")
    w, h = goal.width, goal.height
    # The largest centred part of the image with the board's aspect.
    if source.width * h > source.height * w:
        cw, ch = source.height * w // h, source.height
    else:
        cw, ch = source.width, source.width * h // w
    left, top = (source.width - cw) // 2, (source.height - ch) // 2
    box = (left, top, left + max(1, cw), top + max(1, ch))
    whole = source.resize((w * tile_px, h * tile_px), PILImage.Resampling.LANCZOS, box=box)
    tiles: dict[int, bytes] = {}
    for i, label in enumerate(goal.cells):
        if label == BLANK:
            continue
        x, y = (i % w) * tile_px, (i // w) * tile_px
        tiles[label] = _encode(whole.crop((x, y, x + tile_px, y + tile_px)), png)
    mime = "image/png" if png else "image/jpeg"
    return CutPicture(mime, _encode(whole, png), tiles, tile_px)
