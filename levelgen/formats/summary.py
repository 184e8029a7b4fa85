"""What the level library keeps of a level besides its file, read from the file's JSON data
alone: the default of :meth:`levelgen.puzzles.FamilyBase.summary`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["file_summary"]


def file_summary(data: Mapping[str, Any]) -> dict[str, Any]:
    """``width`` and ``height`` (its ``board`` object's, else the file's own; 0 when it has
    none), ``seed`` (its ``generator`` block's, or None) and ``solved`` (it carries its
    certificate: a ``solution`` or an ``analysis``) of a level file's JSON data."""
    width = height = 0
    for holder in (data.get("board"), data):
        if isinstance(holder, Mapping) and isinstance(holder.get("width"), int):
            width = holder["width"]
            found = holder.get("height")
            height = found if isinstance(found, int) else 0
            break
    generator = data.get("generator")
    seed = generator.get("seed") if isinstance(generator, Mapping) else None
    return {
        "width": width,
        "height": height,
        "seed": seed if isinstance(seed, int) and not isinstance(seed, bool) else None,
        "solved": any(key in data for key in ("solution", "analysis")),
    }
