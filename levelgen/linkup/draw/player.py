"""The Link-up browser player: the assets of a level's page (built by :mod:`levelgen.player`).

:func:`player_assets` gives the level (board, rules, certificate) as the page's JSON data, with
its own script and style (``paths.js``, ``player.js``, ``player.css``, package
data beside this module): no external script, style sheet or font, and a Content Security
Policy that forbids every network request unless an API base is given.  With ``api_base``
(the service mounts the page at ``GET /play/{id}``) the page also offers safe hints and the
solvable shuffle: it sends the position now, ``{"$schema": "urn:levelgen:schema:position:v1",
"game": "linkup", "format_version": 1, "rules": ..., "board": ...}``, to
``POST {api_base}/v1/hint`` and ``POST {api_base}/v1/shuffle``.

``paths.js`` is the exact path rule of :mod:`levelgen.linkup.core.paths` in JavaScript (fewest
turns, then fewest steps, then the smallest corner list), with the stacked layers of
:mod:`levelgen.linkup.core.layers` (the same path finder asked of the cells a path at the link's
height may cross); ``slide.js`` is :func:`levelgen.linkup.core.slide.slide_cells` (the ten sliding
rules), applied to tile identities after every removal.  The tests run both in Chromium against the
Python core on random queries and boards.  For a variant the position sent to the API carries
``rules.slide`` and ``board.layers`` as level files write them.  The tiles show the tile set's
pictures (the built-in ones unless told; see :mod:`levelgen.linkup.draw.tiles`): the data's
``pictures`` holds one ``data:`` URI per kind (an SVG of the built-in icon, or the studio's
file as it is) and ``faces`` the face colour under it, so the page asks for nothing; with the
glyph tiles ``pictures`` is null and the page draws each kind's colour and glyph.  The page
is deterministic:
the same level and ``api_base`` give the same bytes.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources
from typing import Any

from ...formats.scene import data_uri
from ...puzzles import PlayerAssets
from ..core.level import Level
from .glyphs import GLYPHS
from .svg import PALETTE, board_kinds, kind_style
from .tiles import LIGHT_FACE, PICTURES, TileSet, kind_face, kind_name, tile_svg

__all__ = ["FLASH_MS", "REPLAY_MS", "player_asset", "player_assets"]

#: How long a removed pair's path stays drawn, and the pause between replayed solution steps.
FLASH_MS = 700
REPLAY_MS = 450


@lru_cache(maxsize=8)
def player_asset(name: str) -> str:
    """The text of a package data file of the player (``paths.js``, ``player.js``, ...)."""
    return resources.files(__package__).joinpath(name).read_text(encoding="utf-8")


def _picture_data(level: Level, tiles: TileSet) -> dict[str, Any]:
    """The pictures, faces and names of kinds 1 .. the largest on the board (glyphs: nulls)."""
    if tiles.mode == "glyphs":
        return {"pictures": None, "faces": None, "names": None}
    top = max(board_kinds(level.board), default=0)
    kinds = range(1, top + 1)
    if tiles.mode == "images":
        uris = [
            data_uri(tiles.images[k].mime, tiles.images[k].data) if k in tiles.images else ""
            for k in kinds
        ]
        names = [f"picture {k}" for k in kinds]
        return {"pictures": uris, "faces": [LIGHT_FACE] * top, "names": names}
    return {
        "pictures": [data_uri("image/svg+xml", tile_svg(k).encode("utf-8")) for k in kinds],
        "faces": [kind_face(k) for k in kinds],
        "names": [kind_name(k) for k in kinds],
    }


def _level_data(level: Level, replay_ms: int, tiles: TileSet = PICTURES) -> dict[str, Any]:
    from ..schema import content_id
    from ..schema.position import position_to_data

    board = level.board
    solution = [
        {
            "a": list(m.a),
            "b": list(m.b),
            "kind": m.kind,
            "path": [list(p) for p in m.path.corners],
        }
        for m in level.solution or ()
    ]
    # The rules and board as level files write them: slide and layers only for the variants.
    written = position_to_data(board, level.rules)
    return {
        "id": content_id(board, level.rules),
        "rules": written["rules"],
        "board": written["board"],
        "solution": solution,
        "palette": [list(kind_style(k)) for k in range(1, len(PALETTE) + 1)],
        "glyphs": GLYPHS,
        **_picture_data(level, tiles),
        "flashMs": FLASH_MS,
        "replayMs": replay_ms,
    }


def player_assets(
    level: Level,
    *,
    with_api: bool = False,
    title: str = "",
    replay_ms: int = REPLAY_MS,
    tiles: TileSet = PICTURES,
) -> PlayerAssets:
    """The player of ``level`` (:func:`levelgen.player.build_page` makes its page); ``with_api``:
    the page will have an API base, so it offers hints and shuffles.  ``replay_ms``: the pause
    between the steps of "show solution".  The Onet variants play too: a sliding rule
    (``slide.js`` slides the tiles after every removal) and stacked layers (only top tiles
    play; ``paths.js`` links them at the height of the higher one); ``ValueError`` for a board
    with layers under a sliding rule, which do not combine.  ``tiles``: what the tiles show."""
    from ..core.layers import check_variant, layer_count

    check_variant(level.board, level.rules)
    data = _level_data(level, replay_ms, tiles)
    size = f"{level.board.width}x{level.board.height}"
    api_buttons = (
        ""
        if not with_api
        else '  <button id="hint" type="button" title="h">Hint</button>\n'
        '  <button id="shuffle" type="button">Shuffle</button>\n'
    )
    rules = level.rules
    ring = "paths may use the ring around the board" if rules.outside else "no ring"
    variant = ""
    if rules.slide != "none":
        variant = f" Tiles slide {rules.slide} after every removal."
        if rules.slide in ("center", "apart"):
            toward = "toward the middle" if rules.slide == "center" else "toward the edges"
            variant = (
                f" After every removal each half row's tiles slide {toward} (slide {rules.slide})."
            )
    elif level.board.upper:
        variant = (
            f" {layer_count(level.board)} stacked layers: only the top tile of a stack plays"
            " (its badge gives the stack's height); tiles on neighbouring layers link over"
            " stacks no higher than the higher of the two."
        )
    body = (
        f'<p class="help">{size}, at most {rules.max_turns} turns, {ring}.{variant}'
        " Click or tap two tiles of one kind; keys: arrows and Enter/Space pick tiles,"
        " U undo, R restart, S show solution" + (", H hint" if with_api else "") + ".</p>\n"
        '<div class="bar">\n'
        '  <button id="undo" type="button" title="u">Undo</button>\n'
        '  <button id="restart" type="button" title="r">Restart</button>\n'
        '  <button id="solution" type="button" title="s">Show solution</button>\n'
        f"{api_buttons}"
        "</div>\n"
        '<div class="bar counters" aria-live="polite">\n'
        '  <span>Tiles left: <b id="tiles">0</b></span>\n'
        '  <span>Legal moves: <b id="moves">0</b></span>\n'
        '  <span>Moves played: <b id="played">0</b></span>\n'
        "</div>\n"
        '<div id="message" role="status" aria-live="polite"></div>\n'
        '<svg id="board" xmlns="http://www.w3.org/2000/svg" tabindex="0" role="application"'
        ' aria-label="the board: arrow keys move, Enter or Space picks a tile"></svg>\n'
    )
    scripts = tuple(player_asset(name) for name in ("paths.js", "slide.js", "player.js"))
    assets = PlayerAssets(
        title or f"Link-up {size} level", body, player_asset("player.css"), scripts, data
    )
    return assets
