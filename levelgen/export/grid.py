"""Bare grids: the board as CSV (one line per board row, cells as numbers: a kind >= 1, ``0``
a hole, ``-1`` a wall) or as JSON with the rules and the level's id, for engines that read a
plain grid."""

from __future__ import annotations

import json

from ..linkup import Level, refuse_variants

__all__ = ["grid_csv", "grid_json"]


def grid_csv(level: Level) -> str:
    """One line per board row, the cells separated by commas (kinds ``>= 1``, 0 hole, -1 wall)."""
    refuse_variants(level.board, level.rules, "export")
    return "".join(",".join(str(v) for v in row) + "\n" for row in level.board.grid())


def grid_json(level: Level) -> str:
    """``{"format": "levelgen-grid", "id", "width", "height", "rules", "grid"}`` as JSON text;
    ``grid`` is the list of rows, each a list of cells as in the CSV."""
    refuse_variants(level.board, level.rules, "export")
    from ..linkup import content_id

    board = level.board
    head = {
        "format": "levelgen-grid",
        "version": 1,
        "id": content_id(board, level.rules),
        "width": board.width,
        "height": board.height,
        "rules": {"max_turns": level.rules.max_turns, "outside": level.rules.outside},
    }
    rows = ",\n".join(f"    {json.dumps(row)}" for row in board.grid())
    # One board row per line: readable, and still plain JSON.
    return f'{json.dumps(head, indent=2)[:-2]},\n  "grid": [\n{rows}\n  ]\n}}\n'
