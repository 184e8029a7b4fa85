"""Pack manifests told from levels: the manifest's own ``$schema``, or a ``levels`` list of
files; no level file of any game in ``levels/`` is taken for one."""

from __future__ import annotations

import json

from levelgen.formats.manifest import MANIFEST_SCHEMA_URI, is_pack_manifest
from tests import ROOT


def test_manifests_are_told_from_levels() -> None:
    assert is_pack_manifest({"$schema": MANIFEST_SCHEMA_URI})
    assert is_pack_manifest({"game": "x", "levels": [{"file": "001.json", "id": "i"}]})
    for data in (
        None,
        [],
        {"levels": []},
        {"levels": [{"id": "i"}]},
        {"levels": ["001.json"]},
        {"levels": [{"file": "a"}, 3]},
        {"$schema": "urn:levelgen:schema:level:v1", "board": {}},
    ):
        assert not is_pack_manifest(data), data
    for path in sorted((ROOT / "levels").glob("*.json")):
        assert not is_pack_manifest(json.loads(path.read_text(encoding="utf-8"))), path
