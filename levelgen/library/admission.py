"""Which level files the library takes: a valid level of any game whose certificate replays.

:func:`admit` is shared by ``levelgen library import`` and ``PUT /v1/levels/{id}``: the
library keeps only proved levels, each checked by its family's own verifier (structure, then
the solution replayed), so a level read back from it is one that ``levelgen verify`` accepts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..formats import Problem

__all__ = ["Admission", "admit"]


@dataclass(frozen=True, slots=True)
class Admission:
    """The level's canonical JSON data when admitted (``data``), else None with the
    ``problems`` that say why; ``is_format``: the refusal is about the file's form (not a
    level file of its schema) rather than a well-formed level that is invalid or unproved."""

    data: dict[str, Any] | None
    problems: tuple[Problem, ...] = ()
    is_format: bool = False


#: The reason given for a level without a solution or certificate.
UNSOLVED = "no solution or certificate: solve it first (levelgen solve)"


def admit(data: object) -> Admission:
    """:class:`Admission` of the JSON value ``data`` (a level file of any game)."""
    from ..puzzles import Budget, DocumentError, family_of

    try:
        item = family_of(data)
        document = item.read(data)
        solved = bool(item.summary(document).get("solved"))
    except DocumentError as exc:
        return Admission(None, tuple(exc.problems), exc.is_format)
    if not solved:
        return Admission(None, (Problem("", UNSOLVED),))
    verdict = item.verify(document, prove=False, budget=Budget(), options={})
    if verdict.status in ("solvable", "unsolvable", "unknown", "undecided"):
        return Admission(None, (Problem("", UNSOLVED),))
    if verdict.status != "ok":
        problems = tuple(verdict.problems) or (Problem("", verdict.text),)
        return Admission(None, problems, verdict.status == "schema-invalid")
    return Admission(item.dump(document))
