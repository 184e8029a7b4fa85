"""The play engine at the edge: reading positions, and the JSON forms of hints and shuffles.

The CLI (``levelgen hint --json``, ``levelgen shuffle``) and the HTTP service answer with the
same JSON, built here from the core results of :mod:`levelgen.linkup.play.hint` and
:mod:`levelgen.linkup.play.shuffle`.  A move is written as a step of a level file's solution:
``{"a": [x, y], "b": [x, y], "kind": k, "path": [[x, y], ...]}`` (corner points from a to b).

``read_position`` accepts a position file or a level file (``-``: standard input), and raises
:class:`levelgen.linkup.files.ReadError` whose problems carry JSON pointers (``/played/3``).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..files import ReadError, read_json
from ..schema.quick import POSITION_SCHEMA_URI, LevelFormatError, quick_level
from .position import Position, position_from_level

if TYPE_CHECKING:
    from ..core.moves import Move
    from .hint import HintResult
    from .shuffle import ShuffleResult

__all__ = [
    "hint_to_data",
    "is_position_data",
    "move_to_data",
    "position_from_data",
    "read_position",
    "shuffle_to_data",
]


def is_position_data(data: object) -> bool:
    """True when a parsed JSON value is meant as a position file (its ``$schema`` says so, or
    it has ``level`` or ``played``); anything else is read as a level file."""
    return isinstance(data, dict) and (
        data.get("$schema") == POSITION_SCHEMA_URI or "level" in data or "played" in data
    )


def position_from_data(data: object) -> Position:
    """The position of a parsed JSON value: a position file or a level file.
    ``LevelFormatError`` with JSON pointers when it is neither."""
    if is_position_data(data):
        from .position_file import parse_position_data

        return parse_position_data(data)
    quick = quick_level(data)  # a plain level without pydantic (levelgen.linkup.schema.quick)
    if quick is not None:
        return position_from_level(quick[0])
    from ..schema.level import parse_level_data

    return position_from_level(parse_level_data(data).to_core())


def read_position(source: str | Path) -> Position:
    """The position in the file ``source`` (``-``: standard input), a position file or a
    level file; ``ReadError`` naming the place and the reason otherwise.  The result unpacks
    as ``board, rules, level, played``."""
    data = read_json(source)
    try:
        return position_from_data(data)
    except LevelFormatError as exc:
        raise ReadError(str(source), list(exc.problems), is_format=True) from None


def move_to_data(move: Move) -> dict[str, Any]:
    """A move as a step of a level file's solution."""
    return {
        "a": list(move.a),
        "b": list(move.b),
        "kind": move.kind,
        "path": [list(p) for p in move.path.corners],
    }


def hint_to_data(result: HintResult) -> dict[str, Any]:
    """The JSON form of a hint: ``status``, ``move`` (or null), ``proved``, ``solution`` (the
    remaining moves starting with ``move``; empty unless ``hint``), ``reason``, ``deadlock``
    (cells), ``lost_at`` and ``undo`` (null unless known), ``method``."""
    return {
        "status": result.status,
        "move": None if result.move is None else move_to_data(result.move),
        "proved": result.proved,
        "solution": [move_to_data(m) for m in result.solution],
        "reason": result.reason,
        "deadlock": [list(p) for p in result.deadlock],
        "lost_at": result.lost_at,
        "undo": result.undo,
        "method": result.method,
    }


def shuffle_to_data(result: ShuffleResult) -> dict[str, Any]:
    """The JSON form of a shuffle: ``status``, ``seed``, ``min_moves``, ``legal_moves``,
    ``same_as_input``, ``attempts``, ``reason``, and ``level``: the shuffled position as a
    level file with its solution (null unless ``shuffled``)."""
    level = None
    if result.board is not None:
        from ..schema import LevelFile

        level = LevelFile.from_core(result.level()).to_data()
    return {
        "status": result.status,
        "seed": result.seed,
        "min_moves": result.min_moves,
        "legal_moves": result.legal_moves,
        "same_as_input": result.same_as_input,
        "attempts": result.attempts,
        "reason": result.reason,
        "level": level,
    }
