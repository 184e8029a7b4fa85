"""The level format's plain parts, without pydantic: its constants (and the position file's
``$schema``), its error (:class:`LevelFormatError`), the content id, what is wrong with a
well-formed level, and a quick reader for the common well-formed file.

Importing pydantic and building the level models costs a command about 0.1-0.15 s, about as
long as the rest of its start (``levelgen verify`` of a 64x64 level takes about 1 s in all).
:func:`quick_level` reads a parsed JSON value that is plainly a valid classic level (one
layer) straight into the core :class:`levelgen.linkup.core.level.Level`, checking what the models
check; for anything else (any doubt at all: an unknown or misspelled field, a value of a wrong type
or out of range, rows of the wrong shape, stacked layers) it returns None and the caller
runs the pydantic models (:func:`levelgen.linkup.schema.parse_level_data`), which stay the one
authority on the format and the only source of its error messages.  A property test holds
the two together: whatever the quick reader accepts, the models accept as the same level.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections.abc import Iterable, Sequence
from typing import Any

from ..core.board import Board
from ..core.geometry import MAX_SIDE, Pos
from ..core.layers import MAX_LAYERS
from ..core.level import Difficulty, GeneratorInfo, Level, Metrics
from ..core.moves import Move
from ..core.paths import path_from_corners
from ..core.rules import MAX_TURNS_LIMIT, SLIDES, Rules
from ..verify import Problem
from .parameters import parameter_problems

GAME = "linkup"
FORMAT_VERSION = 1
#: The ``$id`` of the schema and the ``$schema`` written into every level file.
SCHEMA_URI = "urn:levelgen:schema:level:v1"
#: The ``$id`` of the schema and the ``$schema`` of every position file.
POSITION_SCHEMA_URI = "urn:levelgen:schema:position:v1"
#: Seeds stay below 2**53 so that every JSON reader (JavaScript included) keeps them exact.
MAX_SEED = 2**53 - 1
#: The largest kind number: there can never be more kinds than cells.
MAX_KIND = MAX_SIDE * MAX_SIDE
#: The most points a path can have: its two ends and one corner per allowed turn.
MAX_PATH_POINTS = MAX_TURNS_LIMIT + 2
MAX_STEPS = MAX_SIDE * MAX_SIDE * MAX_LAYERS // 2
MAX_NAME = 200
#: The most items of a generator parameter's array, and the longest string parameter.
MAX_PARAMETER_ITEMS = 4 * MAX_SIDE
MAX_PARAMETER_TEXT = 4 * MAX_SIDE * MAX_SIDE
_ID = re.compile(r"sha256:[0-9a-f]{64}")


class LevelFormatError(ValueError):
    """A value that is not a level file of this format; ``problems`` say where and why."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems = tuple(problems)
        super().__init__("; ".join(str(p) for p in self.problems))


# ----- the content id ----------------------------------------------------------------------------


def rules_data(rules: Rules) -> dict[str, Any]:
    """The JSON value of ``rules`` (``slide`` only when tiles slide)."""
    data: dict[str, Any] = {"max_turns": rules.max_turns, "outside": rules.outside}
    if rules.slide != "none":
        data["slide"] = rules.slide
    return data


def board_data(board: Board) -> dict[str, Any]:
    """The JSON value of ``board`` (``layers`` only when it has stacked layers)."""
    data: dict[str, Any] = {"width": board.width, "height": board.height, "rows": board.grid()}
    if board.upper:
        w = board.width
        data["layers"] = [
            [list(layer[y * w : (y + 1) * w]) for y in range(board.height)] for layer in board.upper
        ]
    return data


def content_id(board: Board, rules: Rules) -> str:
    """``"sha256:"`` and the SHA-256 of the canonical JSON (sorted keys, no spaces) of
    ``{"board": ..., "rules": ...}``."""
    canonical = json.dumps(
        {"board": board_data(board), "rules": rules_data(rules)},
        sort_keys=True,
        separators=(",", ":"),
    )
    return "sha256:" + hashlib.sha256(canonical.encode("utf-8")).hexdigest()


# ----- what is wrong with a well-formed level ----------------------------------------------------


def odd_kind_problems(grids: Sequence[tuple[str, Sequence[Sequence[int]]]]) -> list[Problem]:
    """A problem for each kind with an odd number of tiles in ``grids`` (each a JSON pointer
    and its rows: the board's rows, then its layers): such a board can never be cleared."""
    problems = []
    positions: dict[int, list[tuple[int, int]]] = {}
    where: dict[int, str] = {}
    for name, grid in grids:
        for y, row in enumerate(grid):
            for x, value in enumerate(row):
                if value >= 1:
                    positions.setdefault(value, []).append((x, y))
                    where[value] = f"{name}/{y}/{x}"
    for kind in sorted(positions):
        cells = positions[kind]
        if len(cells) % 2:
            problems.append(
                Problem(
                    where[kind],
                    f"kind {kind} has {len(cells)} tile{'' if len(cells) == 1 else 's'}, an odd"
                    " number, so it can never be"
                    f" cleared (cells {_cells_text(cells)})",
                )
            )
    return problems


def id_problems(level_id: str | None, board: Board, rules: Rules) -> list[Problem]:
    """A problem when ``level_id`` is given and is not the content id of ``board`` and
    ``rules``."""
    expected = None if level_id is None else content_id(board, rules)
    if level_id == expected:
        return []
    return [Problem("/id", f"does not match the board and rules; expected {expected}")]


def _cells_text(cells: Iterable[tuple[int, int]], limit: int = 6) -> str:
    items = [f"[{x}, {y}]" for x, y in cells]
    more = len(items) - limit
    return ", ".join(items[:limit]) + (f" and {more} more" if more > 0 else "")


# ----- generator parameters ----------------------------------------------------------------------


def parameter_value(value: object) -> object:
    """A generator parameter: a JSON scalar or a short array of scalars (``ValueError``)."""
    if isinstance(value, list):
        if len(value) > MAX_PARAMETER_ITEMS:
            raise ValueError(f"expected at most {MAX_PARAMETER_ITEMS} items")
        for item in value:
            _parameter_scalar(item)
        return list(value)
    return _parameter_scalar(value)


def _parameter_scalar(value: object) -> object:
    if value is None or isinstance(value, bool | int | str):
        if isinstance(value, str) and len(value) > MAX_PARAMETER_TEXT:
            raise ValueError("string is too long")
        return value
    if isinstance(value, float) and math.isfinite(value):
        return value
    raise ValueError("expected a string, number, boolean, null, or an array of them")


# ----- the quick reader --------------------------------------------------------------------------


class _Doubt(Exception):
    """Not plainly a valid classic level: leave it to the models."""


def quick_level(data: object) -> tuple[Level, str | None] | None:
    """The core level of ``data`` (a parsed JSON value) and its ``id`` (None when left out),
    when it is plainly a valid level file of one layer, exactly as the pydantic models and
    :func:`levelgen.linkup.schema.parse_level_data` would read it.  None whenever anything is in
    doubt: the models then decide, and say what is wrong."""
    try:
        return _level(data)
    except (_Doubt, ValueError):
        return None


def _level(data: object) -> tuple[Level, str | None]:
    top = _object(
        data,
        required=("game", "format_version", "rules", "board"),
        optional=("$schema", "id", "generator", "solution", "metrics"),
    )
    if "$schema" in top and not _is(top["$schema"], str, SCHEMA_URI):
        raise _Doubt
    if not (_is(top["game"], str, GAME) and _is(top["format_version"], int, FORMAT_VERSION)):
        raise _Doubt
    level_id = top.get("id")
    if level_id is not None and not (type(level_id) is str and _ID.fullmatch(level_id)):
        raise _Doubt
    rules = _rules(top["rules"])
    board = _board(top["board"])
    solution = None if top.get("solution") is None else _solution(top["solution"])
    metrics = None if top.get("metrics") is None else _metrics(top["metrics"])
    generator = None if top.get("generator") is None else _generator(top["generator"])
    return Level(board, rules, solution, metrics, generator), level_id


def _object(value: object, required: Sequence[str], optional: Sequence[str] = ()) -> dict[str, Any]:
    if type(value) is not dict or not all(key in value for key in required):
        raise _Doubt
    if len(value) > len(required) and any(
        key not in required and key not in optional for key in value
    ):
        raise _Doubt
    return value


def _is(value: object, kind: type, expected: object) -> bool:
    return type(value) is kind and value == expected


def _int(value: object, low: int, high: int) -> int:
    if type(value) is not int or not low <= value <= high:
        raise _Doubt
    return value


def _float(value: object, low: float = -math.inf, high: float = math.inf) -> float:
    if type(value) not in (int, float):
        raise _Doubt
    number = float(value)  # type: ignore[arg-type]
    if not (math.isfinite(number) and low <= number <= high):
        raise _Doubt
    return number


def _name(value: object) -> str:
    if type(value) is not str or not 1 <= len(value) <= MAX_NAME:
        raise _Doubt
    return value


def _list(value: object, low: int, high: int) -> list[Any]:
    if type(value) is not list or not low <= len(value) <= high:
        raise _Doubt
    return value


def _names(value: object) -> dict[str, float]:
    if type(value) is not dict:
        raise _Doubt
    return {_name(key): _float(number) for key, number in value.items()}


def _rules(value: object) -> Rules:
    rules = _object(value, required=("max_turns", "outside"), optional=("slide",))
    slide = rules.get("slide", "none")
    if type(rules["outside"]) is not bool or type(slide) is not str or slide not in SLIDES:
        raise _Doubt
    return Rules(_int(rules["max_turns"], 0, MAX_TURNS_LIMIT), rules["outside"], slide)


def _board(value: object) -> Board:
    board = _object(value, required=("width", "height", "rows"), optional=("layers",))
    if board.get("layers") is not None:
        raise _Doubt  # stacked layers: the models check them
    width = _int(board["width"], 1, MAX_SIDE)
    height = _int(board["height"], 1, MAX_SIDE)
    rows = _list(board["rows"], height, height)
    cells: list[int] = []
    for row in rows:
        cells.extend(_list(row, width, width))
    if not all(type(v) is int and -1 <= v <= MAX_KIND for v in cells):
        raise _Doubt
    if not any(v >= 1 for v in cells):
        raise _Doubt  # no tile: refused by the models, with the reason
    return Board(width, height, tuple(cells))


def _point(value: object) -> Pos:
    x, y = _list(value, 2, 2)
    return Pos(_int(x, -1, MAX_SIDE), _int(y, -1, MAX_SIDE))


def _solution(value: object) -> tuple[Move, ...]:
    moves = []
    for item in _list(value, 0, MAX_STEPS):
        step = _object(item, required=("a", "b", "kind", "path"))
        a, b = _point(step["a"]), _point(step["b"])
        kind = _int(step["kind"], 1, MAX_KIND)
        corners = [_point(p) for p in _list(step["path"], 2, MAX_PATH_POINTS)]
        moves.append(Move(a, b, kind, path_from_corners(corners)))  # ValueError: a doubt
    return tuple(moves)


def _metrics(value: object) -> Metrics:
    metrics = _object(
        value,
        required=("start_moves", "mean_moves", "turn_histogram"),
        optional=("extra", "difficulty"),
    )
    counts = _list(metrics["turn_histogram"], 0, MAX_TURNS_LIMIT + 1)
    difficulty = None
    if metrics.get("difficulty") is not None:
        d = _object(metrics["difficulty"], required=("score", "band"), optional=("measures",))
        band = d["band"]
        if type(band) is not str or band not in ("easy", "medium", "hard", "expert"):
            raise _Doubt
        difficulty = Difficulty(_float(d["score"], 0, 100), band, _names(d.get("measures", {})))
    return Metrics(
        _int(metrics["start_moves"], 0, MAX_KIND * MAX_KIND),
        _float(metrics["mean_moves"], 0),
        tuple(_int(count, 0, MAX_KIND * MAX_KIND) for count in counts),
        _names(metrics.get("extra", {})),
        difficulty,
    )


def _generator(value: object) -> GeneratorInfo:
    generator = _object(value, required=("name", "version"), optional=("seed", "parameters"))
    seed = generator.get("seed")
    parameters = generator.get("parameters", {})
    if type(parameters) is not dict:
        raise _Doubt
    info = GeneratorInfo(
        _name(generator["name"]),
        _name(generator["version"]),
        None if seed is None else _int(seed, 0, MAX_SEED),
        {_name(key): parameter_value(item) for key, item in parameters.items()},
    )
    if parameter_problems(info.name, dict(info.parameters)):
        raise _Doubt
    return info
