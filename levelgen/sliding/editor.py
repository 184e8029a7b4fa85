"""The sliding-puzzle editor's part (:meth:`levelgen.puzzles.Family.editor`): the start and
goal frames drawn as SVG, set by dragging a tile onto another cell (they swap), by clicking a
cell and typing its label, by painting with a colour brush (colour puzzles) or by typing a
frame's rows in its text field; the size, the kind (numbered or colour) and the helpers
"standard goal" and "shuffle start"; and the script that checks each change with
``POST /v1/solve`` and shows the answer: the optimal length with its solution to step through
on the board, the invariant of an unreachable goal with the tiles it involves marked (the
parity of the permutation against the blank's distance; the colour counts of a goal with other
labels), the proved bound of an undecided board, the problems of an invalid one at their cells.

The script and style (``editor.js``, ``editor.css``) are package data beside this module.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources
from typing import Any

from ..formats.scene import PALETTE
from ..puzzles import PlayerAssets
from .rules import MAX_LABEL, MAX_SIDE, MIN_SIDE

__all__ = ["CHECK_SECONDS", "COLOURS", "LONG_SECONDS", "editor_assets"]

#: The time limit of the check after each change: a 4x4 board is answered within about
#: 200 ms; a board the search cannot settle in that time is answered ``undecided`` with the
#: bound it proved.
CHECK_SECONDS = 0.2
#: The time limit of "think longer" (the service caps it with its own maximum).
LONG_SECONDS = 20.0
#: A new level's board.
DEFAULT_SIZE = (4, 4)
#: The fewest and most colours of a colour puzzle made by the kind menu.
COLOURS = (2, len(PALETTE))
#: Units of the SVG boards' viewBox per cell.
CELL = 64


@lru_cache(maxsize=4)
def _asset(name: str) -> str:
    return resources.files(__package__).joinpath(name).read_text(encoding="utf-8")


def _sides(name: str, label: str, value: int) -> str:
    options = "".join(
        f'<option value="{n}"{" selected" if n == value else ""}>{n}</option>'
        for n in range(MIN_SIDE, MAX_SIDE + 1)
    )
    return f'<label>{label} <select id="sp-{name}">{options}</select></label>'


def _frame(name: str, title: str) -> str:
    return (
        f'<figure class="sp-frame" id="sp-{name}-frame">\n'
        f'  <figcaption id="sp-{name}-caption">{title}</figcaption>\n'
        f'  <svg id="sp-{name}" class="sp-board" xmlns="http://www.w3.org/2000/svg"'
        f' role="grid" tabindex="0" data-frame="{name}" aria-label="the {name} frame: drag a'
        ' tile onto another cell to swap them; click a cell, then type its label"></svg>\n'
        f'  <label class="sp-rows">Rows <input id="sp-{name}-text" type="text"'
        f' spellcheck="false" autocomplete="off" aria-describedby="sp-{name}-error"></label>\n'
        f'  <p class="sp-error" id="sp-{name}-error" role="alert"></p>\n'
        "</figure>\n"
    )


def _body() -> str:
    width, height = DEFAULT_SIZE
    low, high = COLOURS
    colours = "".join(
        f'<option value="{n}"{" selected" if n == 3 else ""}>{n} colours</option>'
        for n in range(low, high + 1)
    )
    return (
        '<div class="bar" id="sp-settings">\n'
        f"  {_sides('width', 'Width', width)}\n"
        f"  {_sides('height', 'Height', height)}\n"
        '  <label>Kind <select id="sp-kind"><option value="numbered">numbered</option>'
        '<option value="colour">colour</option></select></label>\n'
        f'  <select id="sp-colours" aria-label="colours of a colour puzzle">{colours}</select>\n'
        "</div>\n"
        '<div class="bar" id="sp-helpers">\n'
        '  <button id="sp-standard" type="button" title="labels in order, blank last">'
        "Standard goal</button>\n"
        '  <button id="sp-shuffle" type="button" title="random moves from the goal">'
        "Shuffle start</button>\n"
        '  <button id="sp-copy" type="button">Start = goal</button>\n'
        "</div>\n"
        '<div class="bar" id="sp-brushes" hidden><span>Brush:</span>'
        '<span id="sp-brush-list" role="radiogroup" aria-label="colour brush"></span></div>\n'
        '<p class="help">Drag a tile onto another cell to swap them (mouse or touch). Click a'
        " cell, then type its label (arrows move, Space or 0 the blank); with a brush, a click"
        " paints. Or type a frame's rows, e.g. <code>1 2 3 / 4 5 6 / 7 8 0</code>, then"
        " Enter.</p>\n"
        '<div class="sp-frames">\n' + _frame("start", "Start") + _frame("goal", "Goal") + "</div>\n"
    )


def editor_assets(document: Any | None) -> PlayerAssets:
    """The editor's part; ``document`` (a level, or None) is opened by the shell from its
    dumped file, so only the defaults and limits are needed here."""
    width, height = DEFAULT_SIZE
    data: dict[str, Any] = {
        "defaults": {"width": width, "height": height, "colours": 3},
        "limits": {"side": [MIN_SIDE, MAX_SIDE], "label": MAX_LABEL, "colours": list(COLOURS)},
        "palette": list(PALETTE),
        "cell": CELL,
        "timeLimit": CHECK_SECONDS,
        "longTimeLimit": LONG_SECONDS,
    }
    return PlayerAssets(
        title="levelgen editor: Sliding puzzle",
        body=_body(),
        style=_asset("editor.css"),
        scripts=(_asset("editor.js"),),
        data=data,
    )
