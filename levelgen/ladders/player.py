"""The browser player of a snakes-and-ladders level: the page's parts for
:func:`levelgen.player.build_page`.

The page draws the board, lets one to six tokens take turns with a die, and shows for each
token the expected rolls left from its square, read from a table the page carries (the exact
expectations as floats, one per square 0..N; ``null`` where the game may never end).  Every
rule runs in the page (``ladders.js``, the moves of :func:`levelgen.ladders.rules.land`), so
the page needs no service: ``with_api`` changes nothing but the help line.  The die is
``crypto.getRandomValues``, or a seeded generator after ``laddersPlayer.seed(n)`` or with
``#seed=n`` in the address.  The script and style are package data beside this module.
"""

from __future__ import annotations

import math
from functools import lru_cache
from importlib import resources
from typing import Any

from ..puzzles import PlayerAssets
from .analysis import board_expectations
from .files import Level, content_id
from .shapes import Cubic, snake_shape

__all__ = ["expected_table", "player_assets"]

NAMES = ("Blue", "Orange", "Green", "Pink", "Yellow", "Sky")
#: The page's cell and margin in SVG units (``ladders.js`` draws the board with them).
CELL = 48
MARGIN = 10


def _d(curves: tuple[Cubic, ...]) -> str:
    """The SVG path of cubic curves, to a tenth of a unit."""

    def xy(point: tuple[float, float]) -> str:
        return f"{point[0]:.1f} {point[1]:.1f}"

    parts = [f"M{xy(curves[0][0])}"]
    parts += [f"C{xy(c[1])} {xy(c[2])} {xy(c[3])}" for c in curves]
    return "".join(parts)


def snake_data(head: int, tail: int, width: int, height: int) -> dict[str, Any]:
    """A snake's shape for the page (:func:`levelgen.ladders.shapes.snake_shape`): its body
    pieces as SVG paths of cubic curves with their widths, its head and its eyes."""
    shape = snake_shape(head, tail, width, height, CELL, MARGIN)
    return {
        "pieces": [[_d(curves), round(body, 1)] for curves, body in shape.pieces],
        "head": [round(shape.head[0], 1), round(shape.head[1], 1), round(shape.head_radius, 1)],
        "eyes": [[round(x, 1), round(y, 1)] for x, y in shape.eyes],
        "eye": round(shape.eye_radius, 1),
    }


@lru_cache(maxsize=4)
def _asset(name: str) -> str:
    return resources.files(__package__).joinpath(name).read_text(encoding="utf-8")


def expected_table(level: Level) -> list[float | None]:
    """The expected rolls left from each square 0..N (a jump's start: from its end; None where
    the game may never end, or where the expectation is past the range of floats)."""
    chain, settled_squares, expectations = board_expectations(level.board, level.rules)
    n = level.board.squares
    settled = set(settled_squares)
    table: list[float | None] = []
    for square in range(n + 1):
        resting = chain.resting(square)
        if resting == n:
            table.append(0.0)
        elif resting in settled:
            value = expectations.rolls_float(resting)
            table.append(value if math.isfinite(value) else None)
        else:
            table.append(None)
    return table


def player_assets(level: Level, *, with_api: bool, name: str | None = None) -> PlayerAssets:
    """The player's parts (see the module docstring); ``name``, the file's name, goes in the
    page's title when given."""
    board, rules = level.board, level.rules
    size = f"{board.width}x{board.height}"
    data: dict[str, Any] = {
        "id": content_id(board, rules),
        "size": [board.width, board.height],
        "squares": board.squares,
        "faces": rules.faces,
        "overshoot": rules.overshoot,
        "ladders": [list(j) for j in board.ladders],
        "snakes": [list(j) for j in board.snakes],
        "expected": expected_table(level),
        "names": list(NAMES),
        "cell": CELL,
        "margin": MARGIN,
        "snake_shapes": [snake_data(a, b, board.width, board.height) for a, b in board.snakes],
    }
    overshoot = {
        "exact": "a roll past the last square leaves the token where it is",
        "bounce": "a roll past the last square bounces back by the excess",
        "pass": "reaching or passing the last square wins",
    }[rules.overshoot]
    served = " The page needs no service: every figure is computed in it." if with_api else ""
    body = (
        f'<p class="help">{size}, {board.squares} squares, a {rules.faces}-faced die; {overshoot}.'
        " Ladders (green) take a token up, snakes (red) down. Keys: R roll, N new game."
        f"{served}</p>\n"
        '<div class="bar">\n'
        '  <label for="players">Players</label>\n'
        '  <select id="players">'
        + "".join(
            f'<option value="{p}"{" selected" if p == 2 else ""}>{p}</option>' for p in range(1, 7)
        )
        + "</select>\n"
        '  <button id="roll" type="button" title="r">Roll</button>\n'
        '  <span id="die" aria-live="polite">-</span>\n'
        '  <button id="restart" type="button" title="n">New game</button>\n'
        '  <span>Rolls: <b id="played">0</b></span>\n'
        "</div>\n"
        '<div id="message" role="status" aria-live="polite"></div>\n'
        '<ul id="tokens"></ul>\n'
        '<svg id="board" xmlns="http://www.w3.org/2000/svg" role="img"'
        f' aria-label="the {size} board"></svg>\n'
    )
    title = f"Snakes and ladders {size}" + (f": {name}" if name else "")
    return PlayerAssets(title, body, _asset("ladders.css"), (_asset("ladders.js"),), data)
