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


def grid_json(grid: ExportGrid) -> str:
    """``{"format": "levelgen-grid", "version", "id", "width", "height", ...the family's
    fields, "grid"}`` as JSON text; ``grid`` is the list of rows, each a list of cells as in
    the CSV."""
    rows = _rows(grid)
    head = {
        "format": "levelgen-grid",
        "version": 1,
        "id": grid.id,
        "width": grid.width,
        "height": grid.height,
        **grid.fields,
    }
    lines = ",\n".join(f"    {json.dumps(list(row))}" for row in rows)
    # One board row per line: readable, and still plain JSON.
    return f'{json.dumps(head, indent=2)[:-2]},\n  "grid": [\n{lines}\n  ]\n}}\n'
