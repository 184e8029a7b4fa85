"""The Link-up editor's Python part: declared through the family table, its page data (the
player's pictures, colours and names; the rules' limits and sliding rules), deterministic."""

from __future__ import annotations

import json

from levelgen import family
from levelgen.linkup.core.layers import MAX_LAYERS
from levelgen.linkup.core.rules import MAX_TURNS_LIMIT, SLIDES
from levelgen.linkup.draw.editor import BRUSH_KINDS, RATE_DELAY_MS, editor_assets
from levelgen.linkup.draw.player import player_asset
from levelgen.linkup.draw.tiles import kind_name
from levelgen.player.editor import build_editor_html, editor_games
from levelgen.puzzles import Capability
from tests import ROOT

LEVEL = ROOT / "levels" / "layers_turtle_12x8.json"


def test_linkup_declares_its_editor() -> None:
    item = family("linkup")
    assert Capability.EDIT in item.capabilities
    assert ("linkup", "Link-up") in editor_games([item])
    assert item.editor_size == "12x8"
    assets = item.editor(None)
    assert assets.title == "levelgen editor: Link-up"
    assert assets.scripts == (player_asset("slide.js"), player_asset("editor.js"))
    assert 'id="board"' in assets.body and 'id="brushes"' in assets.body
    assert "LevelgenEditor.register" in assets.scripts[-1]


def test_editor_data() -> None:
    data = editor_assets().data
    assert len(data["pictures"]) == len(data["faces"]) == len(data["names"]) == BRUSH_KINDS
    assert all(uri.startswith("data:image/svg+xml") for uri in data["pictures"])
    assert data["names"][:3] == [kind_name(1), kind_name(2), kind_name(3)]
    assert data["slides"] == list(SLIDES) and data["slides"][0] == "none"
    assert data["maxTurns"] == MAX_TURNS_LIMIT and data["maxUpper"] == MAX_LAYERS - 1
    assert data["defaults"] == {"width": 12, "height": 8, "max_turns": 2, "outside": True}
    assert data["rateDelayMs"] == RATE_DELAY_MS > 0


def test_page_opens_a_level_and_is_deterministic() -> None:
    item = family("linkup")
    document = item.read(json.loads(LEVEL.read_text()))
    page = build_editor_html(item, document, games=editor_games([item]))
    assert page == build_editor_html(item, document, games=editor_games([item]))
    start = page.index('id="levelgen-level"')
    text = page[page.index(">", start) + 1 : page.index("</script>", start)]
    data = json.loads(text)
    assert data["game"] == "linkup"
    assert data["document"]["board"]["layers"] == json.loads(LEVEL.read_text())["board"]["layers"]
    assert data["family"]["brushKinds"] == BRUSH_KINDS
