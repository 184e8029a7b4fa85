"""The Link-up editor's part of the editor page (:mod:`levelgen.player.editor` is the shell).

Its controls paint cells with a kind, a hole, a wall or a slot (a cell "fill the rest" puts a
tile on), resize the board, add and remove stacked layers and set the rules; its board is an
SVG drawn as the player draws it (the same pictures, colours and walls).  After every change
the shell has ``editor.js`` check the level through the service's public API:
``POST /v1/solve`` (the verdict, the solution stepped through on the board, the deadlock core
or the problems with their cells), then ``POST /v1/rate`` on the solved level once no newer
change came for :data:`RATE_DELAY_MS` (the difficulty, shown when it arrives); "suggest a
fix" calls ``POST /v1/fix`` and "fill the rest" ``POST /v1/fill``.
``slide.js`` (the player's sliding rules) replays the solution's steps under a sliding rule.
"""

from __future__ import annotations

from typing import Any

from ...formats.scene import data_uri
from ...puzzles import PlayerAssets
from ..core.layers import MAX_LAYERS
from ..core.rules import MAX_TURNS_LIMIT, SLIDES
from .glyphs import GLYPHS
from .player import player_asset
from .svg import PALETTE, kind_style
from .tiles import kind_face, kind_name, tile_svg

__all__ = ["BRUSH_KINDS", "RATE_DELAY_MS", "editor_assets"]

#: The kinds the brush offers (digits 1-9 and letters a-z choose kinds 1-35 from the keyboard);
#: an opened level may have more, drawn with their colour and glyph.
BRUSH_KINDS = 36

#: Milliseconds a solved level's answer must stay the latest before its rating is asked for (a
#: rating takes the service a few hundred ms on 12x8, which a quick next edit would wait on).
RATE_DELAY_MS = 300

#: The board's side in the size controls (the level format allows up to 64).
MAX_SIDE = 32

_BODY = """\
<p class="help">Click, drag or tap to paint; on the board arrows move the cursor, Space paints,
1-9 and a-z choose a kind, 0 a hole, # a wall, ? a slot (a cell "fill the rest" fills).</p>
<div class="bar" id="brushes" role="toolbar" aria-label="Brush"></div>
<div class="bar" id="shape">
  <label>Width <input id="width" type="number" min="1" max="{side}" inputmode="numeric"></label>
  <label>Height <input id="height" type="number" min="1" max="{side}" inputmode="numeric"></label>
  <label>Layer <select id="layer" aria-label="The layer painted"></select></label>
  <button id="add-layer" type="button">Add layer</button>
  <button id="remove-layer" type="button">Remove layer</button>
  <button id="fill" type="button">Fill the rest</button>
  <button id="clear" type="button">Clear</button>
</div>
<div class="bar" id="rules">
  <label>Max turns <input id="max-turns" type="number" min="0" max="{turns}"
    inputmode="numeric"></label>
  <label><input id="outside" type="checkbox"> Ring (paths may go round the board)</label>
  <label>Slide <select id="slide"></select></label>
</div>
<svg id="board" xmlns="http://www.w3.org/2000/svg" tabindex="0" role="application"
  aria-label="the board: arrow keys move the cursor, Space paints"></svg>
<div id="counts" aria-live="polite"></div>
"""


def _data() -> dict[str, Any]:
    kinds = range(1, BRUSH_KINDS + 1)
    return {
        "palette": [list(kind_style(k)) for k in range(1, len(PALETTE) + 1)],
        "glyphs": GLYPHS,
        "pictures": [data_uri("image/svg+xml", tile_svg(k).encode("utf-8")) for k in kinds],
        "faces": [kind_face(k) for k in kinds],
        "names": [kind_name(k) for k in kinds],
        "brushKinds": BRUSH_KINDS,
        "maxSide": MAX_SIDE,
        "maxTurns": MAX_TURNS_LIMIT,
        "maxUpper": MAX_LAYERS - 1,  # layers above layer 0
        "slides": list(SLIDES),
        "defaults": {"width": 12, "height": 8, "max_turns": 2, "outside": True},
        "fixTimeLimit": 5,
        "fillTimeLimit": 5,
        "rateTimeLimit": 2,
        "rateDelayMs": RATE_DELAY_MS,
    }


def editor_assets(document: Any | None = None) -> PlayerAssets:
    """The Link-up editor's controls, board, style, script and data (the shell adds the level
    opened, ``document``, to the page's data).  Deterministic: same bytes every time."""
    del document  # the shell passes the opened level to the script as its dumped file
    body = _BODY.format(side=MAX_SIDE, turns=MAX_TURNS_LIMIT)
    scripts = (player_asset("slide.js"), player_asset("editor.js"))
    return PlayerAssets(
        "levelgen editor: Link-up", body, player_asset("editor.css"), scripts, _data()
    )
