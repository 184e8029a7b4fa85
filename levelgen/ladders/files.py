"""The snakes-and-ladders level file, format version 1: pydantic models, their JSON Schema,
strict parsing, the canonical dump and the content id.

A level file is one JSON object::

    {"$schema": "urn:levelgen:schema:snakes-ladders:level:v1", "game": "snakes-ladders",
     "format_version": 1, "id": "sha256:...",
     "generator": {"name", "version", "seed", "parameters"},
     "rules": {"faces": 6, "overshoot": "exact"},
     "board": {"width": 10, "height": 10, "ladders": [[1, 38], ...], "snakes": [[16, 6], ...]},
     "analysis": {"fewest_rolls", "fewest_sequence", "expected_rolls": {"fraction", "value"},
                  "distribution", "median", "mode", "p90", "p99", "expected_snakes",
                  "expected_ladders", "players": [{"players", "rounds", "rolls"}, ...]},
     "metrics": {"difficulty": {"score", "band", "measures"}}}

The models are strict: unknown fields, booleans or floats where integers belong, strings
where numbers belong are refused.  :func:`parse_level` turns parsed JSON into a
:class:`Level` or raises :class:`levelgen.puzzles.DocumentError` whose problems carry JSON
pointers: ``is_format`` True for what breaks the schema, False for a well-formed board that
breaks the rules of the game (:func:`levelgen.ladders.rules.board_problems`).  The ``id`` is
``"sha256:"`` and the SHA-256 of the canonical JSON (sorted keys, no spaces) of ``board``
(jumps sorted by start) and ``rules``; a wrong id, like a wrong analysis, is for ``verify``
to report.  ``schemas/snakes-ladders.level.v1.schema.json`` is :func:`level_json_schema`,
checked in.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from ..formats.difficulty import DifficultyBlock
from ..formats.validation import describe, reason, validation_problems
from ..puzzles import DocumentError, Problem
from .distribution import MAX_ROLLS, PLAYERS
from .rules import MAX_FACES, MAX_SIDE, MIN_FACES, OVERSHOOTS, Board, Rules, board_problems

__all__ = [
    "FORMAT_VERSION",
    "GAME",
    "SCHEMA_URI",
    "AnalysisFile",
    "FractionFile",
    "GeneratorFile",
    "Level",
    "LevelFile",
    "content_id",
    "dump_level",
    "level_json_schema",
    "parse_level",
]

GAME = "snakes-ladders"
FORMAT_VERSION = 1
SCHEMA_URI = "urn:levelgen:schema:snakes-ladders:level:v1"
JSON_SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"
MAX_SEED = 2**53 - 1
MAX_SQUARE = MAX_SIDE * MAX_SIDE
#: The most digits of a fraction's numerator or denominator (Hadamard's bound on the chain's
#: determinant keeps a 32x32 board with a 20-faced die under 3,000; Python reads integers of
#: up to 4,300 digits).
MAX_DIGITS = 4000
MAX_NAME = 200

Square = Annotated[int, Field(ge=0, le=MAX_SQUARE)]
Jump = Annotated[
    list[Square],
    Field(
        min_length=2,
        max_length=2,
        description="[start, end]: a token landing on start moves to end.",
    ),
]
Roll = Annotated[int, Field(ge=1, le=MAX_FACES)]
Count = Annotated[int, Field(ge=1, le=MAX_ROLLS)]
Name = Annotated[str, Field(min_length=1, max_length=MAX_NAME)]
Probability = Annotated[float, Field(ge=0, le=1, allow_inf_nan=False)]
Positive = Annotated[float, Field(ge=0, allow_inf_nan=False)]
ParameterValue = str | int | float | bool | None


class _Strict(BaseModel):
    model_config = ConfigDict(
        extra="forbid", strict=True, frozen=True, populate_by_name=True, hide_input_in_errors=True
    )


class RulesFile(_Strict):
    """The die and what happens on a roll past the last square."""

    faces: Annotated[int, Field(ge=MIN_FACES, le=MAX_FACES)] = Field(
        description="The faces of the die (6: a cube), each as likely; at most the squares."
    )
    overshoot: Literal[OVERSHOOTS] = Field(  # type: ignore[valid-type]
        description='A roll past the last square: "exact" (the token stays: the classic rule),'
        ' "bounce" (it counts back from the last square by the excess) or "pass" (reaching or'
        " passing the last square wins)."
    )


class BoardFile(_Strict):
    """The squares and the jumps.  Squares are numbered 1..width*height boustrophedon from the
    bottom left; the token starts off the board on square 0."""

    width: Annotated[int, Field(ge=1, le=MAX_SIDE)] = Field(description="Squares per row.")
    height: Annotated[int, Field(ge=1, le=MAX_SIDE)] = Field(description="Rows.")
    ladders: Annotated[list[Jump], Field(max_length=MAX_SQUARE)] = Field(
        description="Ladders [start, end], end above start, in ascending order of start."
    )
    snakes: Annotated[list[Jump], Field(max_length=MAX_SQUARE)] = Field(
        description="Snakes [start, end], end below start, in ascending order of start."
    )


class FractionFile(_Strict):
    """An exact value and its nearest float."""

    fraction: Annotated[
        str,
        Field(
            pattern=rf"^(0|[1-9][0-9]{{0,{MAX_DIGITS - 1}}})/[1-9][0-9]{{0,{MAX_DIGITS - 1}}}$",
            max_length=2 * MAX_DIGITS + 1,
        ),
    ] = Field(description='"p/q", in lowest terms.')
    value: Positive = Field(description="The fraction as the nearest float.")


class PlayersFile(_Strict):
    """The expected length of a game of several players (turns of one roll each; the first
    token to reach the last square wins)."""

    players: Annotated[int, Field(ge=min(PLAYERS), le=max(PLAYERS))]
    rounds: Positive = Field(description="Expected rounds (each player rolls once a round).")
    rolls: Positive = Field(description="Expected rolls of all the players together.")


class AnalysisFile(_Strict):
    """The exact analysis of the board (one token from square 0): the certificate."""

    fewest_rolls: Count = Field(description="The fewest rolls that reach the last square.")
    fewest_sequence: Annotated[list[Roll], Field(min_length=1, max_length=MAX_ROLLS)] = Field(
        description="Rolls that reach it in that many: the smallest such sequence."
    )
    expected_rolls: FractionFile = Field(description="The expected number of rolls, exact.")
    distribution: Annotated[list[Probability], Field(min_length=1, max_length=MAX_ROLLS)] = Field(
        description="The chance the game has ended by roll k, for k = 1, 2, ... up to the first"
        " roll where it reaches 0.999."
    )
    median: Count = Field(description="The first roll by which the game has ended with chance 1/2.")
    mode: Count = Field(
        description="The roll on which the game most often ends (the first of equals)."
    )
    p90: Count = Field(description="The first roll by which it has ended with chance 9/10.")
    p99: Count = Field(description="The first roll by which it has ended with chance 99/100.")
    expected_snakes: FractionFile = Field(description="The expected number of snakes taken.")
    expected_ladders: FractionFile = Field(description="The expected number of ladders taken.")
    players: Annotated[
        list[PlayersFile], Field(min_length=len(PLAYERS), max_length=len(PLAYERS))
    ] = Field(description="Games of 2..6 players, in that order (floats).")


class DifficultyFile(_Strict):
    """How hard the board is for a player, on the one scale of every game (see
    :mod:`levelgen.ladders.rating`)."""

    score: Annotated[float, Field(ge=0, le=100, allow_inf_nan=False)] = Field(
        description="0 (trivial) .. 100 (hardest), one decimal."
    )
    band: Literal["easy", "medium", "hard", "expert"] = Field(
        description="The band of score: easy below 12.5, medium below 23, hard below 48."
    )
    measures: dict[Name, Annotated[float, Field(allow_inf_nan=False)]] = Field(
        default_factory=dict,
        description="The measures the score is made of: expected, base_length,"
        " expected_position, target_rolls, chance_within.",
    )


class MetricsFile(_Strict):
    """Measured facts about the level."""

    difficulty: DifficultyFile | None = None


class GeneratorFile(_Strict):
    """Provenance: what made the level and how to make it again (``"levelgen"``: made by
    ``levelgen create`` from ``seed`` and ``parameters``)."""

    name: Name
    version: Name
    seed: Annotated[int, Field(ge=0, le=MAX_SEED)] | None = None
    parameters: dict[Name, ParameterValue] = Field(default_factory=dict)


class LevelFile(_Strict):
    """A snakes-and-ladders level, format version 1."""

    model_config = ConfigDict(title="Snakes-and-ladders level, format version 1")

    schema_uri: Literal["urn:levelgen:schema:snakes-ladders:level:v1"] = Field(
        default="urn:levelgen:schema:snakes-ladders:level:v1",
        alias="$schema",
        description=f'The schema of this file: "{SCHEMA_URI}" (optional; no other value).',
    )
    game: Literal["snakes-ladders"] = Field(description='Always "snakes-ladders".')
    format_version: Literal[1] = Field(description="Always 1.")
    id: Annotated[str, Field(pattern=r"^sha256:[0-9a-f]{64}$")] | None = Field(
        default=None,
        description='"sha256:" and the SHA-256 of the canonical JSON of `board` (jumps sorted)'
        " and `rules`.",
    )
    generator: GeneratorFile | None = None
    rules: RulesFile
    board: BoardFile
    analysis: AnalysisFile | None = Field(
        default=None, description="The exact analysis; left out of a board still to be solved."
    )
    metrics: MetricsFile | None = None

    @field_validator("format_version", mode="before")
    @classmethod
    def _no_bool_version(cls, value: object) -> object:
        if isinstance(value, bool):
            raise ValueError("expected the integer 1")
        return value


@dataclass(frozen=True, slots=True)
class Level:
    """A parsed level: the game (``board``, ``rules``), and the file's other parts as written
    (``analysis``, ``generator``, ``id``, the ``difficulty`` block of its ``metrics``)."""

    board: Board
    rules: Rules
    analysis: AnalysisFile | None = None
    generator: GeneratorFile | None = None
    id: str | None = None
    difficulty: DifficultyBlock | None = None


def board_data(board: Board) -> dict[str, Any]:
    """The JSON value of ``board`` (jumps sorted by start)."""
    board = board.normalized()
    return {
        "width": board.width,
        "height": board.height,
        "ladders": [list(j) for j in board.ladders],
        "snakes": [list(j) for j in board.snakes],
    }


def rules_data(rules: Rules) -> dict[str, Any]:
    """The JSON value of ``rules``."""
    return {"faces": rules.faces, "overshoot": rules.overshoot}


def content_id(board: Board, rules: Rules) -> str:
    """``"sha256:"`` and the SHA-256 of the canonical JSON of ``{"board", "rules"}``."""
    canonical = json.dumps(
        {"board": board_data(board), "rules": rules_data(rules)},
        sort_keys=True,
        separators=(",", ":"),
    )
    return "sha256:" + hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def parse_level(data: object) -> Level:
    """A level from parsed JSON; :class:`DocumentError` otherwise (see the module docstring)."""
    if not isinstance(data, dict):
        raise DocumentError([Problem("", f"expected a JSON object, got {describe(data)}")])
    try:
        model = LevelFile.model_validate(data)
    except ValidationError as exc:
        raise DocumentError(_problems(exc, data)) from None
    board = Board(
        model.board.width,
        model.board.height,
        tuple((a, b) for a, b in model.board.ladders),
        tuple((a, b) for a, b in model.board.snakes),
    )
    rules = Rules(model.rules.faces, model.rules.overshoot)
    problems = board_problems(board, rules)
    if problems:
        raise DocumentError(problems, is_format=False)
    block = None
    if model.metrics is not None and model.metrics.difficulty is not None:
        d = model.metrics.difficulty
        block = DifficultyBlock(d.score, d.band, dict(d.measures))
    return Level(board.normalized(), rules, model.analysis, model.generator, model.id, block)


def dump_level(level: Level) -> dict[str, Any]:
    """The canonical JSON value of ``level``: fields in schema order, the id of its content,
    jumps sorted, generator parameters sorted by name, absent parts left out."""
    data: dict[str, Any] = {
        "$schema": SCHEMA_URI,
        "game": GAME,
        "format_version": FORMAT_VERSION,
        "id": content_id(level.board, level.rules),
    }
    if level.generator is not None:
        g = level.generator.model_dump(mode="json")
        g["parameters"] = {k: g["parameters"][k] for k in sorted(g["parameters"])}
        data["generator"] = g
    data["rules"] = rules_data(level.rules)
    data["board"] = board_data(level.board)
    if level.analysis is not None:
        data["analysis"] = level.analysis.model_dump(mode="json")
    if level.difficulty is not None:
        data["metrics"] = {"difficulty": level.difficulty.to_data()}
    return data


def level_json_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of level files, as checked in under ``schemas/``.  What it
    cannot say is checked by :func:`parse_level`: the rules of the game for the jumps, and
    integers written without a fraction (JSON Schema takes ``1.0`` for an integer)."""
    schema = LevelFile.model_json_schema(by_alias=True, mode="validation")
    return {"$schema": JSON_SCHEMA_DIALECT, "$id": SCHEMA_URI, **schema}


# ----- pydantic's findings as JSON pointers --------------------------------------------------


def _problems(exc: ValidationError, data: object) -> list[Problem]:
    """Pydantic's errors as one problem per JSON pointer, in order (the arms of a union that
    pydantic names in its locations left out)."""
    errors = [
        {**err, "loc": tuple(part for part in err["loc"] if not _is_union_tag(part))}
        for err in exc.errors(include_url=False, include_input=False)
    ]
    return validation_problems(errors, data, _reason_of)


def _reason_of(err: Mapping[str, Any], loc: Sequence[int | str], value: object) -> str:
    return reason(err["type"], err["msg"], value, file_format="snakes-ladders level format v1")


def _is_union_tag(part: int | str) -> bool:
    """Pydantic names the arm of a union in its locations (``int``, ``str``...): not a key."""
    return isinstance(part, str) and part in {"str", "int", "float", "bool", "none", "list[int]"}
