"""Image files given on the command line: a puzzle's picture and a studio's numbered tiles.

:func:`read_image` reads one file and checks that it is what its kind says (PNG or JPEG decoded
by Pillow; SVG parsed as XML with an ``<svg>`` root, DOCTYPEs and entities refused), so that a
family gets only :class:`~levelgen.formats.scene.ImageFile` values it can embed.
:func:`read_numbered_images` reads a folder of one image per piece, each named by its number:
``1.png``, ``02.svg``, ``3.jpg`` (other files are ignored).  Problems are
:class:`ImageFileError`: the file or folder and the reason, one line.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

from ..formats.scene import ImageFile

__all__ = ["SUFFIXES", "ImageFileError", "check_image", "read_image", "read_numbered_images"]

#: The suffixes of image files and their media types.
SUFFIXES = {
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".svg": "image/svg+xml",
}
_NUMBER = re.compile(r"0*([1-9][0-9]{0,5})")


class ImageFileError(ValueError):
    """An image file or folder that cannot be used: ``where`` and the ``reason``."""

    def __init__(self, where: str, reason: str) -> None:
        self.where = where
        self.reason = reason
        super().__init__(f"{where}: {reason}")


def check_image(where: str, mime: str, data: bytes) -> None:
    """:class:`ImageFileError` unless ``data`` is an image of ``mime``."""
    if mime == "image/svg+xml":
        import xml.etree.ElementTree as ET

        text = data.decode("utf-8", "replace")
        if "<!DOCTYPE" in text or "<!ENTITY" in text:
            raise ImageFileError(where, "an SVG with a DOCTYPE or entities is refused")
        try:
            root = ET.fromstring(text)
        except ET.ParseError as exc:
            raise ImageFileError(where, f"not an SVG file ({exc})") from None
        if root.tag not in ("svg", "{http://www.w3.org/2000/svg}svg"):
            raise ImageFileError(where, "not an SVG file (its root is not <svg>)")
        return
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(io.BytesIO(data)) as image:
            found = image.format
            image.load()
    except UnidentifiedImageError:
        raise ImageFileError(where, "not a readable PNG or JPEG image") from None
    except (OSError, ValueError, SyntaxError) as exc:
        raise ImageFileError(where, f"not a readable PNG or JPEG image ({exc})") from None
    if found not in ("PNG", "JPEG"):
        raise ImageFileError(where, f"a {found} image, not PNG or JPEG")


def _mime_of(data: bytes) -> str:
    return "image/png" if data.startswith(b"\x89PNG") else "image/jpeg"


def read_image(path: str, *, svg: bool = False) -> ImageFile:
    """The PNG or JPEG file at ``path`` (``svg``: an SVG file too, told by its suffix)."""
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise ImageFileError(path, f"cannot be read ({exc.strerror or exc})") from None
    mime = SUFFIXES.get(Path(path).suffix.lower(), "")
    if mime != "image/svg+xml" or not svg:
        mime = _mime_of(data)
    check_image(path, mime, data)
    return ImageFile(Path(path).name, mime, data)


def read_numbered_images(folder: str) -> dict[int, ImageFile]:
    """The images of ``folder`` by number: ``1.png``, ``2.svg``, ``03.jpg`` ... (PNG, JPEG or
    SVG); :class:`ImageFileError` for a folder that cannot be read or holds no such file, two
    files of one number, or a file that is not an image of its suffix."""
    base = Path(folder)
    if not base.is_dir():
        raise ImageFileError(folder, "not a folder")
    try:
        entries = sorted(base.iterdir())
    except OSError as exc:
        raise ImageFileError(folder, f"cannot be read ({exc.strerror or exc})") from None
    images: dict[int, ImageFile] = {}
    for path in entries:
        mime = SUFFIXES.get(path.suffix.lower())
        match = _NUMBER.fullmatch(path.stem)
        if mime is None or match is None or not path.is_file():
            continue
        number = int(match.group(1))
        if number in images:
            raise ImageFileError(
                str(path), f"a second picture of kind {number} (with {images[number].name})"
            )
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise ImageFileError(str(path), f"cannot be read ({exc.strerror or exc})") from None
        check_image(str(path), mime, data)
        images[number] = ImageFile(path.name, mime, data)
    if not images:
        raise ImageFileError(folder, "no tile pictures (1.png, 2.svg, ...: one file per kind)")
    return images
