"""The JSON answers of ``fix`` and ``fill`` (a level editor's aids), shared by the command
line's ``--json`` and the service: ``status``, ``message``, the family's figures (a fix's
``swaps``, ``count`` and ``fewer_ruled_out``; a fill's ``placed``), ``level`` (the level with
its certificate, or null) and ``problems`` (pointer and reason, why a level is invalid)."""

from __future__ import annotations

from typing import Any

from .table import DesignAnswer

__all__ = ["FILL_CODES", "FIX_CODES", "design_data"]

#: The exit codes of ``levelgen fix`` and ``levelgen fill`` by status (0 written, 1 invalid,
#: 4 none found within the limits).
FIX_CODES = {"fixed": 0, "solvable": 0, "invalid": 1, "not-found": 4}
FILL_CODES = {"filled": 0, "not-found": 4}


def design_data(answer: DesignAnswer, level: dict[str, Any] | None) -> dict[str, Any]:
    """The answer as JSON data, ``level`` the dumped document (None: no level)."""
    return {
        "status": answer.status,
        "message": answer.text,
        **answer.details,
        "level": level,
        "problems": [{"pointer": p.pointer, "reason": p.message} for p in answer.problems],
    }
