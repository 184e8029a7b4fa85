"""Request and response models of the HTTP API (for validation and the OpenAPI document).

Level files are the file schema's own models (:class:`levelgen.linkup.schema.LevelFile`): the API
documents them by reference, never by a copy.  The create options mirror ``levelgen create``;
their checks are :func:`levelgen.linkup.generate.spec.check_create_spec`, shared with the CLI, so
this model only fixes the types.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from ..linkup import MAX_LAYERS, SLIDES, LevelFile, StepFile

__all__ = [
    "EXAMPLE_LEVEL",
    "CreateRequest",
    "DifficultyData",
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

#: A small hand-made level (no solution): the example body of verify and solve.
EXAMPLE_LEVEL: dict[str, Any] = {
    "$schema": "urn:levelgen:schema:level:v1",
    "game": "linkup",
    "format_version": 1,
    "rules": {"max_turns": 2, "outside": True},
    "board": {"width": 4, "height": 2, "rows": [[1, 2, 2, 1], [3, 0, 0, 3]]},
}


class CreateRequest(BaseModel):
    """The options of ``levelgen create`` (the layout as its lines, never a file path)."""

    model_config = ConfigDict(
        extra="allow",
        strict=True,
        json_schema_extra={
            # Link-up needs a size or a layout; another game takes its own options.
            "anyOf": [
                {"required": ["size"]},
                {"required": ["layout"]},
                {"required": ["shape"]},
                {"required": ["game"], "properties": {"game": {"not": {"const": "linkup"}}}},
            ],
            "examples": [
                {"size": "12x8", "seed": 7},
                {"size": "6x4", "seed": 1, "kinds": 3, "max_turns": 1, "outside": False},
                {"layout": ["oooo", "o##o", "oooo"], "seed": 3, "copies": 2},
                {"size": "12x8", "seed": 9, "difficulty": "hard"},
                {"size": "12x8", "seed": 5, "slide": "down"},
                {"size": "16x9", "seed": 2, "layers": 3},
                {"shape": "heart", "seed": 4, "symmetry": "mirror"},
            ],
        },
    )

    game: str = Field(
        default="linkup",
        description="The game: `linkup` (these options), `sliding-puzzle` or `snakes-ladders`"
        " (their own options: see the README), or one a package registers.",
    )
    size: str | None = Field(
        default=None,
        max_length=16,
        description="Board size WxH (W columns by H rows), e.g. 12x8; default: the layout's.",
    )
    seed: int | None = Field(
        default=None, description="0 .. 2^53-1; drawn and recorded in the level when absent."
    )
    time_limit: float | None = Field(
        default=None,
        gt=0,
        description="Seconds the creation may take (default and most: the server's maximum);"
        " past it the work stops and the answer is 422.",
    )
    kinds: int | None = Field(default=None, description="Distinct tile kinds.")
    copies: int = Field(default=4, description="Tiles per kind: even, at least 2.")
    max_turns: int = Field(default=2, description="Most turns a linking path may make (0..8).")
    outside: bool = Field(default=True, description="Whether paths may use the ring around.")
    layout: list[str] | None = Field(
        default=None,
        max_length=64 * MAX_LAYERS + MAX_LAYERS - 1,
        description="Layout rows: o a tile cell, . a hole, # a wall (it sets the size); for"
        " stacked layers the rows of each layer, bottom first, an empty string between layers.",
    )
    slide: str = Field(
        default="none",
        max_length=16,
        description="After every removal the tiles slide: " + ", ".join(SLIDES) + ".",
    )
    layers: int | None = Field(
        default=None,
        description=f"Stacked layers (1..{MAX_LAYERS}): a pyramid unless the layout gives them.",
    )
    difficulty: str | None = Field(
        default=None,
        max_length=32,
        description="Steer towards easy|medium|hard|expert or a score 0..100 (no kinds then).",
    )
    symmetry: str | None = Field(
        default=None,
        max_length=16,
        description="A symmetric level: mirror (left-right), rotate (a half turn) or both; the"
        " layout always, the kinds where their counts allow (no difficulty then).",
    )
    shape: str | None = Field(
        default=None,
        max_length=64,
        description="A named layout instead of `layout` (heart, pyramid, ring, ...: `levelgen"
        " shapes` lists them).",
    )


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
    game: str = Field(description="The game of the level (`linkup`, `sliding-puzzle`, ...).")
    size: str
    rules: RulesData | None = Field(description="A Link-up level's rules (null otherwise).")
    layers: int | None = Field(description="Stacked layers (1: a flat board; null: not Link-up).")
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
    """The solved level, or the verdict saying why there is none (``level`` null)."""

    status: Literal["solved", "invalid", "unsolvable", "undecided"]
    exit_code: int = Field(description="As levelgen solve exits: 0, 1 or 4.")
    message: str
    problems: list[ProblemData]
    deadlock: list[list[int]]
    level: LevelFile | None = Field(description="The level file with its solution.")


class HintAnswer(BaseModel):
    """What ``levelgen hint --json`` prints: a safe move with the rest of a solution (its
    proof), ``won``, ``lost`` (why, and which played move lost it), or ``undecided``."""

    status: Literal["hint", "won", "lost", "undecided"]
    move: StepFile | None
    proved: bool
    solution: list[StepFile]
    reason: str
    deadlock: list[list[int]]
    lost_at: int | None
    undo: int | None
    method: str


class ShuffleAnswer(BaseModel):
    """What ``levelgen shuffle --json`` prints; ``level`` is the shuffled position as a level
    file with its solution (null unless ``shuffled``)."""

    status: Literal["shuffled", "impossible", "failed"]
    seed: int
    min_moves: int
    legal_moves: int
    same_as_input: bool
    attempts: int
    reason: str
    level: LevelFile | None


class Health(BaseModel):
    status: str = Field(examples=["ok"])
