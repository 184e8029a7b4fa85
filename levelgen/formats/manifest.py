"""Telling a pack's manifest from a level: the edges that read a level file (``render``,
``library import``) say in one line that a ``manifest.json`` is a pack's manifest, not a level,
instead of listing the level format's complaints about it."""

from __future__ import annotations

__all__ = ["MANIFEST", "MANIFEST_SCHEMA_URI", "PACK_MANIFEST", "is_pack_manifest"]

#: The manifest's file name in a pack directory, and the ``$schema`` a manifest may state.
MANIFEST = "manifest.json"
MANIFEST_SCHEMA_URI = "urn:levelgen:schema:pack-manifest:v1"
#: What a manifest given as a level is, for the start of a one-line refusal.
PACK_MANIFEST = "a pack manifest, not a level"


def is_pack_manifest(data: object) -> bool:
    """Whether parsed JSON ``data`` is a pack manifest: an object that states the manifest's
    ``$schema``, or whose ``levels`` is a list of objects naming their ``file`` (no level file
    of any game has a ``levels`` list)."""
    if not isinstance(data, dict):
        return False
    if data.get("$schema") == MANIFEST_SCHEMA_URI:
        return True
    levels = data.get("levels")
    return (
        isinstance(levels, list)
        and bool(levels)
        and all(isinstance(item, dict) and "file" in item for item in levels)
    )
