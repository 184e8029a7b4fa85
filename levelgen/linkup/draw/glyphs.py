"""The glyph of each tile kind in every picture: terminal, SVG, PNG and the browser player.

With colours alone, kinds beyond the palette's seven (or any kind, to a reader without colour)
would look alike; a glyph per kind keeps them apart.  The glyphs are chosen so that no two look
alike at a tile's size.  Left out: ``I l 1 i j | !`` (strokes), ``O 0 o`` (rings; so ``D`` and
``Q`` have nothing to be taken for), ``S 5 s``, ``Z 2 z``, ``8`` (like ``B``), ``6`` and ``b``
(like ``G``, and ``b`` a mirrored ``d``), ``9 g q p`` (tails), ``y`` (like ``Y``), and every
small letter that is its capital made smaller (``c k u v w x``: only the capitals are used).
The characters the terminal picture draws itself (``.`` a hole, ``#`` a wall, ``·`` the ring,
``[`` and ``]`` a path's ends) are none of them.

The level file's text form (:data:`levelgen.linkup.core.board.KIND_CHARS`) is a notation for
boards in code and tests, not a picture, and keeps its characters; a glyph is not that
character.  Kinds beyond :data:`GLYPHS` are drawn as their number.
"""

from __future__ import annotations

__all__ = ["GLYPHS", "kind_glyph"]

#: One character per kind, kind 1 first: capitals, then digits, small letters and signs.
GLYPHS = "ABCDEFGHJKLMNPQRTUVWXY347adefhmnrt&@$%?+=*<>^~"


def kind_glyph(kind: int) -> str:
    """The glyph of ``kind`` (>= 1): its character of :data:`GLYPHS`, its number beyond."""
    return GLYPHS[kind - 1] if kind <= len(GLYPHS) else str(kind)
