"""The snakes-and-ladders editor's part (:meth:`levelgen.puzzles.Family.editor`): the board
drawn as SVG, where a drag from square to square draws a ladder (up) or a snake (down), the
size, die and overshoot controls, a keyboard form for jumps, and the script that checks each
change with ``POST /v1/solve`` and shows its answer: the exact expected rolls, the fewest
rolls with the squares they visit, the distribution plot; the trapped squares of an
unsolvable board; the problems of an invalid one with the offending jump marked.

The script and style (``editor.js``, ``editor.css``) are package data beside this module.
"""

from __future__ import annotations

import html
from functools import lru_cache
from importlib import resources
from typing import Any

from ..puzzles import PlayerAssets
from .player import CELL, MARGIN
from .rules import MAX_FACES, MAX_SIDE, MIN_FACES, OVERSHOOTS, Rules

__all__ = ["OVERSHOOT_TEXT", "editor_assets"]

#: What each overshoot rule does, for the rule's menu.
OVERSHOOT_TEXT = {
    "exact": "exact (a roll past the end stays)",
    "bounce": "bounce (back by the excess)",
    "pass": "pass (reaching or passing wins)",
}

#: A new level's board and rules.
DEFAULT_SIZE = (10, 10)


@lru_cache(maxsize=4)
def _asset(name: str) -> str:
    return resources.files(__package__).joinpath(name).read_text(encoding="utf-8")


def _body() -> str:
    rules = Rules()
    options = "".join(
        f'<option value="{name}"{" selected" if name == rules.overshoot else ""}>'
        f"{html.escape(OVERSHOOT_TEXT[name])}</option>"
        for name in OVERSHOOTS
    )
    width, height = DEFAULT_SIZE
    return (
        '<div class="bar" id="sl-settings">\n'
        f'  <label>Width <input id="sl-width" type="number" min="1" max="{MAX_SIDE}"'
        f' value="{width}"></label>\n'
        f'  <label>Height <input id="sl-height" type="number" min="1" max="{MAX_SIDE}"'
        f' value="{height}"></label>\n'
        f'  <label>Die <input id="sl-faces" type="number" min="{MIN_FACES}" max="{MAX_FACES}"'
        f' value="{rules.faces}"> faces</label>\n'
        f'  <label>Overshoot <select id="sl-overshoot">{options}</select></label>\n'
        "</div>\n"
        '<p class="help">Drag from a square to another: up draws a ladder, down a snake (a new'
        " jump from a square replaces the one there). Click or tap a jump (or focus the board"
        " and use the arrow keys) to select it; Delete removes it.</p>\n"
        '<div class="bar" id="sl-keyboard">\n'
        '  <label>From <input id="sl-from" type="number" min="1"></label>\n'
        '  <label>To <input id="sl-to" type="number" min="1"></label>\n'
        '  <button id="sl-add" type="button">Add jump</button>\n'
        '  <span id="sl-selected" aria-live="polite">no jump selected</span>\n'
        '  <button id="sl-delete" type="button" disabled title="Delete">Delete jump</button>\n'
        "</div>\n"
        '<svg id="sl-board" xmlns="http://www.w3.org/2000/svg" role="img" tabindex="0"'
        ' aria-label="the board: drag from square to square to draw a jump"></svg>\n'
    )


def editor_assets(document: Any | None) -> PlayerAssets:
    """The editor's part; ``document`` (a :class:`~levelgen.ladders.files.Level` or None) is
    opened by the shell from its dumped file, so only the defaults are needed here."""
    width, height = DEFAULT_SIZE
    rules = Rules()
    data: dict[str, Any] = {
        "defaults": {
            "width": width,
            "height": height,
            "faces": rules.faces,
            "overshoot": rules.overshoot,
        },
        "limits": {"side": MAX_SIDE, "faces": [MIN_FACES, MAX_FACES]},
        "overshoots": list(OVERSHOOTS),
        "cell": CELL,
        "margin": MARGIN,
    }
    return PlayerAssets(
        title="levelgen editor: Snakes and ladders",
        body=_body(),
        style=_asset("editor.css"),
        scripts=(_asset("editor.js"),),
        data=data,
    )
