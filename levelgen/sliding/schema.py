"""The sliding-puzzle level file, format version 1: pydantic models, JSON Schema, strict reading.

A level file is one JSON object::

    {"$schema": "urn:levelgen:schema:sliding-puzzle:level:v1", "game": "sliding-puzzle",
     "format_version": 1, "id": "sha256:...",
     "generator": {"name", "version", "seed", "parameters"},
     "width": 4, "height": 4, "start": [[...], ...], "goal": [[...], ...],
     "solution": "ULDR...",
     "metrics": {"optimal_length", "optimal_solutions", "solutions_cap", "lower_bound", "band",
                 "difficulty": {"score", "band", "measures"}}}

and a *position* is the same object with ``played`` (the moves played from the start) and/or
``current`` (the frame now).  The models are strict: unknown fields, booleans or floats where
integers belong, strings where numbers belong are refused.  :func:`parse_level` turns a parsed
JSON value into a :class:`levelgen.sliding.level.SlidingLevel` or raises
:class:`levelgen.puzzles.DocumentError` whose problems carry JSON pointers (``/start/2/3``) and
short reasons: ``is_format`` for what breaks the schema (and rows not of the stated size, which
a JSON Schema cannot say), not ``is_format`` for a well-formed file that is no puzzle (a second
blank, a goal with other labels, a move that takes the blank off the board, a ``current`` that
is not where ``played`` leads).  What the certificate and figures claim is checked by
``verify`` (:mod:`levelgen.sliding.verify`).  ``schemas/sliding-puzzle.level.v1.schema.json``
is :func:`level_json_schema` checked in; a test fails when they drift.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PlainValidator,
    ValidationError,
    WithJsonSchema,
    field_validator,
)

from ..formats.difficulty import DifficultyBlock
from ..formats.validation import describe, reason, validation_problems
from ..puzzles import DocumentError, Problem
from .level import GeneratorInfo, Metrics, SlidingLevel, content_id
from .rules import MAX_LABEL, MAX_SIDE, MIN_SIDE, Frame, MoveError, apply_moves
from .spec import BANDS

__all__ = [
    "FORMAT_VERSION",
    "GAME",
    "JSON_SCHEMA_DIALECT",
    "MAX_MOVES",
    "SCHEMA_URI",
    "LevelFile",
    "dump_level",
    "level_json_schema",
    "parse_level",
]

GAME = "sliding-puzzle"
FORMAT_VERSION = 1
SCHEMA_URI = "urn:levelgen:schema:sliding-puzzle:level:v1"
JSON_SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"
#: The longest move string a file may hold.
MAX_MOVES = 4096
#: Seeds stay below 2**53 so that every JSON reader keeps them exact.
MAX_SEED = 2**53 - 1
_MAX_NAME = 200

Label = Annotated[int, Field(ge=0, le=MAX_LABEL)]
Rows = Annotated[
    list[Annotated[list[Label], Field(min_length=MIN_SIDE, max_length=MAX_SIDE)]],
    Field(min_length=MIN_SIDE, max_length=MAX_SIDE),
]
Moves = Annotated[str, Field(pattern=r"^[UDLR]*$", max_length=MAX_MOVES)]
Name = Annotated[str, Field(min_length=1, max_length=_MAX_NAME)]


def _parameter_value(value: object) -> object:
    """A generator parameter: a JSON scalar, or rows of integers (a frame)."""
    if value is None or isinstance(value, bool | int | str):
        if isinstance(value, str) and len(value) > 4 * _MAX_NAME:
            raise ValueError("a parameter string longer than 800 characters")
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError("a parameter number must be finite")
        return value
    if (
        isinstance(value, list)
        and len(value) <= MAX_SIDE
        and all(
            isinstance(row, list)
            and len(row) <= MAX_SIDE
            and all(isinstance(v, int) and not isinstance(v, bool) for v in row)
            for row in value
        )
    ):
        return value
    raise ValueError("expected a string, number, boolean, null or rows of integers")


_SCALAR: dict[str, Any] = {"type": ["string", "number", "boolean", "null"]}
ParameterValue = Annotated[
    object,
    PlainValidator(_parameter_value),
    WithJsonSchema(
        {
            "anyOf": [
                _SCALAR,
                {
                    "type": "array",
                    "maxItems": MAX_SIDE,
                    "items": {
                        "type": "array",
                        "maxItems": MAX_SIDE,
                        "items": {"type": "integer"},
                    },
                },
            ]
        },
        mode="validation",
    ),
]


class _Strict(BaseModel):
    model_config = ConfigDict(
        extra="forbid", strict=True, frozen=True, populate_by_name=True, hide_input_in_errors=True
    )


class GeneratorFile(_Strict):
    """Provenance: what made the level and how to make it again (levelgen create --game
    sliding-puzzle with this seed and these parameters, or another tool)."""

    name: Name
    version: Name
    seed: Annotated[int, Field(ge=0, le=MAX_SEED)] | None = None
    parameters: dict[Name, ParameterValue] = Field(default_factory=dict)


class DifficultyFile(_Strict):
    """How hard the level is for a player, on the one scale of every game (see
    :mod:`levelgen.sliding.rating`)."""

    score: Annotated[float, Field(ge=0, le=100, allow_inf_nan=False)] = Field(
        description="0 (trivial) .. 100 (hardest), one decimal."
    )
    band: Literal[BANDS] = Field(  # type: ignore[valid-type]
        description="The band of score: easy below 12.5, medium below 23, hard below 48."
    )
    measures: dict[Name, Annotated[float, Field(allow_inf_nan=False)]] = Field(
        default_factory=dict,
        description="The measures the score is made of: optimal_length, length_position,"
        " finish_rate (of the greedy player), runs, move_cap, lookahead.",
    )


class MetricsFile(_Strict):
    """Figures of the level, proved when it was made (verify --prove proves them again)."""

    optimal_length: Annotated[int, Field(ge=0, le=MAX_MOVES)] = Field(
        description="The fewest moves from start to goal; the solution has exactly this many."
    )
    optimal_solutions: Annotated[int, Field(ge=1)] | None = Field(
        default=None,
        description="How many move strings of the optimal length solve the level, counted up"
        " to solutions_cap (equal to it: that many or more).",
    )
    solutions_cap: Annotated[int, Field(ge=1, le=1_000_000)] = Field(
        description="The cap of optimal_solutions."
    )
    lower_bound: Annotated[int, Field(ge=0, le=MAX_MOVES)] = Field(
        description="An admissible lower bound at the start: the Manhattan distances and linear"
        " conflicts of the tiles whose label is their own, plus for each repeated label the"
        " cheapest assignment of its tiles to its goal cells."
    )
    band: Literal[BANDS] = Field(  # type: ignore[valid-type]
        description="The difficulty band of optimal_length for the board's size and kind."
    )
    difficulty: DifficultyFile | None = None


class LevelFile(_Strict):
    """A sliding-tile puzzle level (or position), format version 1."""

    model_config = ConfigDict(title="Sliding-tile puzzle level, format version 1")

    schema_uri: Literal["urn:levelgen:schema:sliding-puzzle:level:v1"] = Field(
        default="urn:levelgen:schema:sliding-puzzle:level:v1",
        alias="$schema",
        description=f'The schema of this file: "{SCHEMA_URI}" (optional; no other value).',
    )
    game: Literal["sliding-puzzle"] = Field(description='Always "sliding-puzzle".')
    format_version: Literal[1] = Field(description="Always 1.")
    id: Annotated[str, Field(pattern=r"^sha256:[0-9a-f]{64}$")] | None = Field(
        default=None,
        description='"sha256:" and the SHA-256 of the canonical JSON (sorted keys, no spaces)'
        " of width, height, start and goal.",
    )
    generator: GeneratorFile | None = None
    width: Annotated[int, Field(ge=MIN_SIDE, le=MAX_SIDE)] = Field(description="Columns.")
    height: Annotated[int, Field(ge=MIN_SIDE, le=MAX_SIDE)] = Field(description="Rows.")
    start: Rows = Field(
        description="The first frame: `height` rows of `width` labels, top row first; 0 is"
        " the one blank, tiles are 1.. (all different: a numbered puzzle; a label repeated:"
        " a colour puzzle, its tiles interchangeable)."
    )
    goal: Rows = Field(description="The frame to reach: the same labels as `start`.")
    solution: Moves | None = Field(
        default=None,
        description="A certificate: the moves from start to goal, each the way the blank goes"
        " (U up, D down, L left, R right).",
    )
    metrics: MetricsFile | None = None
    played: Moves | None = Field(
        default=None, description="A position: the moves played from the start so far."
    )
    current: Rows | None = Field(
        default=None,
        description="A position: the frame now (the start after `played` when both are given).",
    )

    @field_validator("format_version", mode="before")
    @classmethod
    def _no_bool_version(cls, value: object) -> object:
        if isinstance(value, bool):
            raise ValueError("expected the integer 1")
        return value


# ----- reading ---------------------------------------------------------------------------------


def parse_level(data: object) -> SlidingLevel:
    """The level (or position) of a parsed JSON value; :class:`DocumentError` otherwise (see
    the module docstring)."""
    if not isinstance(data, dict):
        raise DocumentError([Problem("", f"expected a JSON object, got {describe(data)}")])
    try:
        model = LevelFile.model_validate(data)
    except ValidationError as exc:
        raise DocumentError(_problems_from(exc, data)) from None
    shape = (
        _shape_problems("/start", model.start, model.width, model.height)
        + _shape_problems("/goal", model.goal, model.width, model.height)
        + (
            _shape_problems("/current", model.current, model.width, model.height)
            if model.current is not None
            else []
        )
    )
    if shape:
        raise DocumentError(shape)
    problems = _blank_problems("/start", model.start) + _blank_problems("/goal", model.goal)
    if model.current is not None:
        problems += _blank_problems("/current", model.current)
    if problems:
        raise DocumentError(problems, is_format=False)
    start = Frame.from_rows(model.start)
    goal = Frame.from_rows(model.goal)
    problems = _label_problems("/goal", goal, start)
    current = None
    if model.current is not None:
        current = Frame.from_rows(model.current)
        problems += _label_problems("/current", current, start)
    problems += _moves_problems("/solution", start, model.solution)
    problems += _moves_problems("/played", start, model.played)
    if (
        not problems
        and current is not None
        and model.played is not None
        and apply_moves(start, model.played) != current
    ):
        problems.append(
            Problem("/current", "is not the frame the start reaches after the played moves")
        )
    if problems:
        raise DocumentError(problems, is_format=False)
    metrics = None
    if model.metrics is not None:
        m = model.metrics
        block = None
        if m.difficulty is not None:
            d = m.difficulty
            block = DifficultyBlock(d.score, d.band, dict(d.measures))
        metrics = Metrics(
            m.optimal_length, m.optimal_solutions, m.solutions_cap, m.lower_bound, m.band, block
        )
    generator = None
    if model.generator is not None:
        g = model.generator
        generator = GeneratorInfo(g.name, g.version, g.seed, dict(g.parameters))
    return SlidingLevel(
        start,
        goal,
        model.solution,
        metrics,
        generator,
        model.played,
        current,
        model.id,
    )


def _shape_problems(
    pointer: str, rows: Sequence[Sequence[int]], width: int, height: int
) -> list[Problem]:
    problems = []
    if len(rows) != height:
        problems.append(Problem(pointer, f"{len(rows)} rows, but height is {height}"))
    for y, row in enumerate(rows):
        if len(row) != width:
            cells = "1 cell" if len(row) == 1 else f"{len(row)} cells"
            problems.append(Problem(f"{pointer}/{y}", f"{cells}, but width is {width}"))
    return problems


def _blank_problems(pointer: str, rows: Sequence[Sequence[int]]) -> list[Problem]:
    blanks = [(x, y) for y, row in enumerate(rows) for x, v in enumerate(row) if v == 0]
    if not blanks:
        return [Problem(pointer, "no blank: a frame has exactly one 0")]
    if len(blanks) > 1:
        (x0, y0), (x, y) = blanks[0], blanks[1]
        return [
            Problem(
                f"{pointer}/{y}/{x}",
                f"a second blank (the first is at row {y0}, column {x0}): a frame has exactly"
                " one 0",
            )
        ]
    return []


def _label_problems(pointer: str, frame: Frame, start: Frame) -> list[Problem]:
    """A problem when ``frame`` holds other labels than the start (one line naming the first
    label that differs)."""
    have, want = frame.labels(), start.labels()
    if have == want:
        return []
    for label in sorted(set(have) | set(want)):
        if have[label] != want[label]:
            return [
                Problem(
                    pointer,
                    f"other labels than the start: label {label} appears {_times(have[label])}"
                    f" here and {_times(want[label])} in the start",
                )
            ]
    return []  # pragma: no cover - the counters differ somewhere


def _times(n: int) -> str:
    return {0: "never", 1: "once", 2: "twice"}.get(n, f"{n} times")


def _moves_problems(pointer: str, start: Frame, moves: str | None) -> list[Problem]:
    if not moves:
        return []
    try:
        apply_moves(start, moves)
    except MoveError as exc:
        return [
            Problem(
                pointer,
                f"move {exc.index} ({exc.move!r}) takes the blank off the board",
            )
        ]
    return []


# ----- problems from pydantic --------------------------------------------------------------------


def _problems_from(exc: ValidationError, data: object) -> list[Problem]:
    """Pydantic's errors as JSON pointers and short reasons, one per place, in order."""
    errors = exc.errors(include_url=False, include_input=False)
    return validation_problems(errors, data, _reason_of)


def _reason_of(err: Mapping[str, Any], loc: Sequence[int | str], value: object) -> str:
    kind, msg = err["type"], err["msg"]
    if kind == "string_pattern_mismatch" and isinstance(value, str):
        if "sha256" in msg:
            return f'expected "sha256:" and 64 hex digits, got {describe(value)}'
        bad = next((c for c in value if c not in "UDLR"), "")
        return f"{bad!r} is not a move: moves are U, D, L and R"
    return reason(kind, msg, value, file_format="sliding-puzzle level format v1")


# ----- writing -----------------------------------------------------------------------------------


def dump_level(level: SlidingLevel) -> dict[str, Any]:
    """The canonical JSON value of a level (fields in format order, parameters sorted by name,
    absent parts left out); ``id`` is always the content id."""
    data: dict[str, Any] = {
        "$schema": SCHEMA_URI,
        "game": GAME,
        "format_version": FORMAT_VERSION,
        "id": content_id(level.start, level.goal),
    }
    if level.generator is not None:
        g = level.generator
        generator: dict[str, Any] = {"name": g.name, "version": g.version}
        if g.seed is not None:
            generator["seed"] = g.seed
        generator["parameters"] = {k: _plain(g.parameters[k]) for k in sorted(g.parameters)}
        data["generator"] = generator
    data["width"] = level.width
    data["height"] = level.height
    data["start"] = level.start.rows()
    data["goal"] = level.goal.rows()
    if level.solution is not None:
        data["solution"] = level.solution
    if level.metrics is not None:
        m = level.metrics
        metrics: dict[str, Any] = {"optimal_length": m.optimal_length}
        if m.optimal_solutions is not None:
            metrics["optimal_solutions"] = m.optimal_solutions
        metrics["solutions_cap"] = m.solutions_cap
        metrics["lower_bound"] = m.lower_bound
        metrics["band"] = m.band
        if m.difficulty is not None:
            metrics["difficulty"] = m.difficulty.to_data()
        data["metrics"] = metrics
    if level.played is not None:
        data["played"] = level.played
    if level.current is not None:
        data["current"] = level.current.rows()
    return data


def _plain(value: object) -> object:
    """A parameter as JSON: rows (tuples or lists) as lists of lists."""
    if isinstance(value, tuple | list):
        return [list(row) if isinstance(row, tuple | list) else row for row in value]
    return value


def level_json_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of sliding-puzzle level files, as checked in under
    ``schemas/``.  It says everything about types and ranges; what it cannot say is checked by
    :func:`parse_level`: rows of ``width`` cells and ``height`` rows, one blank per frame, the
    goal's (and current's) labels those of the start, moves that keep the blank on the
    board."""
    schema = LevelFile.model_json_schema(by_alias=True, mode="validation")
    return {"$schema": JSON_SCHEMA_DIALECT, "$id": SCHEMA_URI, **schema}
