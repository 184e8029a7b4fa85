"""The browser player of a sliding-puzzle level: the assets of its page.

:func:`player_assets` gives the :class:`levelgen.puzzles.PlayerAssets` that
:func:`levelgen.player.build_page` makes one self-contained page of: the help, buttons and
counters, the two boards (the one to play, the goal beside it), the style (``player.css``) and
script (``player.js``) kept as package data beside this module, and the level as JSON.  The
script plays without the network (clicks on a tile next to the blank, or the arrow keys), keeps
the optimal distance left by its own bounded search, hints from any position (exactly on the
8-puzzle and smaller spaces, by IDA* on larger boards; see the script's opening comment), and
asks ``POST {apiBase}/v1/hint`` only for what its search cannot settle when the page is served
with an API base.  A picture puzzle's data carries ``picture``: the whole picture and each
label's tile as ``data:`` URIs (the page asks for nothing), and ``pictureNumbers``; the page
shows the goal, and the board once solved, as the whole picture.  Deterministic: the same
level gives the same assets.
"""

from __future__ import annotations

import html
from functools import lru_cache
from importlib import resources
from typing import Any

from ..formats.scene import PALETTE, data_uri
from ..puzzles import PlayerAssets
from .level import SlidingLevel
from .picture import CutPicture
from .schema import dump_level

__all__ = ["EXACT_MAX", "HINT_NODES", "NODE_CAP", "player_assets", "sliding_asset"]

#: The most nodes one search of the page may visit before it calls the distance unknown.
NODE_CAP = 200_000
#: The most nodes of one iteration of the page's search for a hint.
HINT_NODES = 20_000_000
#: The largest space the page searches whole (once, on the first hint): the 8-puzzle's.
EXACT_MAX = 181_440


@lru_cache(maxsize=4)
def sliding_asset(name: str) -> str:
    """The text of a package data file of the player (``player.js``, ``player.css``)."""
    return resources.files(__package__).joinpath(name).read_text(encoding="utf-8")


def player_assets(
    level: SlidingLevel,
    *,
    with_api: bool,
    picture: CutPicture | None = None,
    numbers: bool = False,
) -> PlayerAssets:
    """The assets of the level's player page (``with_api``: the page may ask the service for
    hints its own search cannot work out); with ``picture`` a picture puzzle (``numbers``: its
    tiles show their numbers too)."""
    now = level.frame_now()
    distance = None
    if now == level.start and level.metrics is not None:
        distance = level.metrics.optimal_length
    data: dict[str, Any] = {
        "game": "sliding-puzzle",
        "width": level.width,
        "height": level.height,
        "start": now.rows(),
        "goal": level.goal.rows(),
        "numbered": level.numbered,
        "distance": distance,
        "palette": list(PALETTE),
        "nodeCap": NODE_CAP,
        "hintNodes": HINT_NODES,
        "exactMax": EXACT_MAX,
        "solution": level.solution if now == level.start else None,
        "level": dump_level(level),
    }
    if picture is not None:
        data["picture"] = {
            "whole": data_uri(picture.mime, picture.whole),
            "tiles": {str(v): data_uri(picture.mime, t) for v, t in sorted(picture.tiles.items())},
        }
        data["pictureNumbers"] = numbers
    kind = "numbered" if level.numbered else "colour"
    if picture is not None:
        kind = "picture"
    optimum = "?" if distance is None else str(distance)
    api_note = " Hints the page cannot work out are asked of the service." if with_api else ""
    body = (
        f'<p class="help">{html.escape(level.size_text)} {kind} puzzle: make the left board'
        " match the goal. Click a tile next to the blank, or press an arrow key to slide the"
        " tile on the far side of the blank that way; keys: U undo, R restart, H hint."
        f"{api_note}</p>\n"
        '<div class="bar">\n'
        '  <button id="undo" type="button" title="u">Undo</button>\n'
        '  <button id="restart" type="button" title="r">Restart</button>\n'
        '  <button id="hint" type="button" title="h">Hint</button>\n'
        "</div>\n"
        '<div class="bar counters" aria-live="polite">\n'
        '  <span>Moves: <b id="moves">0</b></span>\n'
        '  <span>Optimal moves left: <b id="left">?</b></span>\n'
        f'  <span>Optimum from the start: <b id="optimum">{optimum}</b></span>\n'
        "</div>\n"
        '<div id="message" role="status" aria-live="polite"></div>\n'
        '<div class="boards">\n'
        "  <figure><figcaption>Your board</figcaption>\n"
        '    <svg id="board" xmlns="http://www.w3.org/2000/svg" role="application"'
        ' aria-label="the board: click a tile next to the blank"></svg></figure>\n'
        "  <figure><figcaption>Goal</figcaption>\n"
        '    <svg id="goal" xmlns="http://www.w3.org/2000/svg" role="img"'
        ' aria-label="the goal"></svg></figure>\n'
        "</div>\n"
    )
    title = f"Sliding puzzle {level.size_text} ({kind})"
    return PlayerAssets(
        title, body, sliding_asset("player.css"), (sliding_asset("player.js"),), data
    )
