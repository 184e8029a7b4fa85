"""Pictures at the edge: PNG (:mod:`levelgen.render.png`) of any family's scene, pack sheets
(:mod:`levelgen.render.sheet`), and whether a terminal gets colour (:func:`use_color`)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TextIO

__all__ = ["use_color"]


def use_color(stream: TextIO, environ: Mapping[str, str] | None = None) -> bool:
    """True when ``stream`` is a terminal and the environment does not ask for plain text
    (``NO_COLOR`` set to anything non-empty, or ``TERM=dumb``)."""
    env = os.environ if environ is None else environ
    if env.get("NO_COLOR") or env.get("TERM") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())
