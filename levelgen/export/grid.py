"""Bare grids: a level's plain grid of numbers as CSV (one line per board row) or as JSON with
its id, size and its family's own fields (rules, goal, jumps), for engines that read a plain
grid.  What the numbers mean is the family's (:attr:`ExportGrid.legend`)."""

from __future__ import annotations

import json

from ..formats.grid import ExportGrid
from ..formats.problems import Problem

__all__ = ["NoGridError", "grid_csv", "grid_json"]


class NoGridError(ValueError):
    """A level no flat grid can hold: ``problem`` says where and why."""

    def __init__(self, problem: Problem) -> None:
        self.problem = problem
        super().__init__(str(problem))


def _rows(grid: ExportGrid) -> tuple[tuple[int, ...], ...]:
    if grid.grid is None:
        raise NoGridError(grid.no_grid or Problem("", "the level has no flat grid"))
    return grid.grid


def grid_csv(grid: ExportGrid) -> str:
    """One line per board row, the cells separated by commas."""
    return "".join(",".join(str(v) for v in row) + "\n" for row in _rows(grid))


def _value(value: object) -> str:
    """A field's JSON text at the top level: a list of lists one inner list per line, other
    values indented by two spaces."""
    if (
        isinstance(value, list | tuple)
        and value
        and all(isinstance(v, list | tuple) for v in value)
    ):
        inner = ",\n".join(f"    {json.dumps(list(v))}" for v in value)
        return f"[\n{inner}\n  ]"
    return json.dumps(value, indent=2).replace("\n", "\n  ")


def grid_json(grid: ExportGrid) -> str:
    """``{"format": "levelgen-grid", "version", "id", "width", "height", ...the family's
    fields, "grid"}`` as JSON text; ``grid`` is the list of rows, each a list of cells as in
    the CSV.  Lists of rows or pairs are written one inner list per line: readable, and
    still plain JSON."""
    head = {
        "format": "levelgen-grid",
        "version": 1,
        "id": grid.id,
        "width": grid.width,
        "height": grid.height,
        **grid.fields,
        "grid": _rows(grid),
    }
    body = ",\n".join(f"  {json.dumps(key)}: {_value(value)}" for key, value in head.items())
    return f"{{\n{body}\n}}\n"
