"""The snakes-and-ladders editor's part: what the family gives the editor's shell."""

from __future__ import annotations

import json
import re

from levelgen.formats import parse_json
from levelgen.ladders import FAMILY, OVERSHOOTS
from levelgen.ladders.editor import OVERSHOOT_TEXT, editor_assets
from levelgen.ladders.rules import MAX_FACES, MAX_SIDE, MIN_FACES
from levelgen.player.editor import build_editor_html
from levelgen.puzzles import Capability
from tests.ladders.test_player_browser import ROOT


def test_the_family_declares_its_editor() -> None:
    assert Capability.EDIT in FAMILY.capabilities
    assert FAMILY.editor_size == "10x10"
    assert FAMILY.editor(None) == editor_assets(None)


def test_the_part_has_its_controls_script_and_data() -> None:
    part = editor_assets(None)
    assert part.title == "levelgen editor: Snakes and ladders"
    for name in (
        "sl-width",
        "sl-height",
        "sl-faces",
        "sl-overshoot",
        "sl-from",
        "sl-to",
        "sl-add",
        "sl-delete",
        "sl-board",
    ):
        assert f'id="{name}"' in part.body, name
    # One option per overshoot rule, the classic one chosen.
    options = re.findall(r'<option value="([a-z]+)"( selected)?>', part.body)
    assert [name for name, _ in options] == list(OVERSHOOTS) == list(OVERSHOOT_TEXT)
    assert [name for name, chosen in options if chosen] == ["exact"]
    assert len(part.scripts) == 1
    assert "LevelgenEditor.register(" in part.scripts[0]
    assert '"/v1/solve"' in part.scripts[0]
    assert "#sl-board" in part.style
    assert part.data["defaults"] == {"width": 10, "height": 10, "faces": 6, "overshoot": "exact"}
    assert part.data["limits"] == {"side": MAX_SIDE, "faces": [MIN_FACES, MAX_FACES]}
    assert part.data["overshoots"] == list(OVERSHOOTS)


def test_the_page_carries_the_opened_level() -> None:
    text = (ROOT / "levels" / "ladders_bounce_10x10.json").read_text(encoding="utf-8")
    level = FAMILY.read(parse_json(text))
    page = build_editor_html(FAMILY, level)
    found = re.search(
        r'<script type="application/json" id="levelgen-level">(.*?)</script>', page, re.S
    )
    assert found is not None
    data = json.loads(found.group(1))
    assert data["game"] == "snakes-ladders"
    assert data["document"]["board"] == json.loads(text)["board"]
    assert data["family"]["cell"] > 0
    assert build_editor_html(FAMILY, level) == page  # deterministic
