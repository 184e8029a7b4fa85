"""Request and response models of the HTTP API (for validation and the OpenAPI document).

Files are each family's own: the OpenAPI document puts every family's JSON Schemas
(:attr:`levelgen.puzzles.Family.schemas`) in its components, and the bodies refer to their
union (:mod:`levelgen.service.openapi`); the models here give the shapes the service itself
adds around them.  ``level`` fields are typed as JSON objects here and documented as a level
file of any game.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "EXAMPLE_LEVEL",
    "LEVEL_MARK",
    "LEVEL_REF",
    "DifficultyData",
    "FillAnswer",
    "FixAnswer",
    "Health",
    "HintAnswer",
    "LevelPage",
    "LevelSummary",
    "RulesData",
    "ShuffleAnswer",
    "SolveAnswer",
    "VerdictData",
    "VerifyReport",
]

#: A small hand-made level of the default game (no solution): the example body of verify and
#: solve (a file of the default game may leave ``game`` out).
EXAMPLE_LEVEL: dict[str, Any] = {
    "$schema": "urn:levelgen:schema:level:v1",
    "format_version": 1,
    "rules": {"max_turns": 2, "outside": True},
    "board": {"width": 4, "height": 2, "rows": [[1, 2, 2, 1], [3, 0, 0, 3]]},
}

#: The OpenAPI component of a level file of any game (see :mod:`levelgen.service.openapi`).
LEVEL_REF = "#/components/schemas/LevelFile"


#: The mark of a field that holds a level file of any game, or null: the OpenAPI document
#: gives it the schema ``{"anyOf": [LevelFile, null]}`` (see :mod:`levelgen.service.openapi`).
LEVEL_MARK = "x-levelgen-level"


def _level_or_null(description: str) -> Any:
    """A ``level`` field: a level file of any game, or null."""
    return Field(description=description, json_schema_extra={LEVEL_MARK: True})


class RulesData(BaseModel):
    max_turns: int
    outside: bool
    slide: str = Field(description="The sliding rule (`none` for the classic game).")


class DifficultyData(BaseModel):
    score: float | None
    band: str


class LevelSummary(BaseModel):
    """A stored level without its board and solution (``GET /v1/levels/{id}`` has those)."""

    id: str
    game: str = Field(description="The game of the level (its `game` field).")
    size: str
    rules: RulesData | None = Field(
        description="The level's path rules, for a game that has them (null otherwise)."
    )
    layers: int | None = Field(
        description="Stacked layers (1: a flat board; null: a game without layers)."
    )
    tiles: int | None
    kinds: int | None
    seed: int | None
    difficulty: DifficultyData | None
    solved: bool
    url: str


class LevelPage(BaseModel):
    """One page of ``GET /v1/levels``; ``next`` is the URL of the next page (null: last)."""

    items: list[LevelSummary]
    next: str | None


class ProblemData(BaseModel):
    pointer: str
    reason: str


class VerdictData(BaseModel):
    """A verdict as ``levelgen verify --json`` prints it for one file."""

    file: str
    status: Literal["ok", "solvable", "invalid", "unsolvable", "undecided", "schema-invalid"]
    exit_code: int
    message: str
    problems: list[ProblemData]
    deadlock: list[list[int]]


class VerifyReport(BaseModel):
    """The report of ``levelgen verify --json`` (one file, named ``request``)."""

    exit_code: int = Field(description="0 ok/solvable, 1 invalid/unsolvable, 4 undecided.")
    files: list[VerdictData]


class SolveAnswer(BaseModel):
    """The solved level, or the verdict saying why there is none (``level`` null), then the
    game's own figures."""

    model_config = ConfigDict(extra="allow")

    status: Literal["solved", "invalid", "unsolvable", "undecided"]
    exit_code: int = Field(description="As levelgen solve exits: 0, 1 or 4.")
    message: str
    problems: list[ProblemData]
    deadlock: list[list[int]]
    level: dict[str, Any] | None = _level_or_null("The level file with its solution.")


class HintAnswer(BaseModel):
    """What ``levelgen hint --json`` prints for the position's game: its ``status`` and the
    game's own figures (Link-up: ``hint``, ``won``, ``lost`` or ``undecided`` with the move,
    its proof and the deadlock; the sliding puzzle: ``ok`` with the next move and the distance
    left; snakes and ladders: ``ok`` with the expected rolls left)."""

    model_config = ConfigDict(extra="allow")

    status: str


class ShuffleAnswer(BaseModel):
    """What ``levelgen shuffle --json`` prints; ``level`` is the shuffled position as a level
    file with its solution (null unless ``shuffled``)."""

    model_config = ConfigDict(extra="allow")

    status: Literal["shuffled", "impossible", "failed"]
    seed: int
    level: dict[str, Any] | None = _level_or_null("The shuffled level with its solution.")


class FixAnswer(BaseModel):
    """What ``levelgen fix --json`` prints: the fewest swaps found that make the level
    solvable, and the fixed level (null unless ``fixed`` or ``solvable``)."""

    model_config = ConfigDict(extra="allow")

    status: Literal["fixed", "solvable", "not-found", "invalid"]
    message: str
    swaps: list[list[list[int]]] = Field(
        description="Pairs of cells [[x1, y1], [x2, y2]] whose pieces are exchanged, in order."
    )
    count: int = Field(description="The number of swaps.")
    fewer_ruled_out: bool = Field(
        description="True only when every smaller number of swaps was tried and proved"
        " not to give a solvable level."
    )
    level: dict[str, Any] | None = _level_or_null("The fixed level with its certificate.")
    problems: list[ProblemData]


class PlacedPiece(BaseModel):
    at: list[int] = Field(description="The slot [x, y].")
    kind: int


class FillAnswer(BaseModel):
    """What ``levelgen fill --json`` prints: the level with a piece on every slot, solvable,
    and what was placed where (null level unless ``filled``)."""

    model_config = ConfigDict(extra="allow")

    status: Literal["filled", "not-found"]
    message: str
    placed: list[PlacedPiece]
    seed: int
    level: dict[str, Any] | None = _level_or_null("The filled level with its certificate.")
    problems: list[ProblemData]


class Health(BaseModel):
    status: str = Field(examples=["ok"])
