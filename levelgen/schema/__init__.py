"""The file formats at the edge: pydantic models, JSON Schemas generated from them.

One module per format (``level`` today; positions and pack manifests join it); this package
re-exports the level format's names so that ``from levelgen.schema import LevelFile`` works.
"""

from __future__ import annotations

from .level import (
    FORMAT_VERSION,
    GAME,
    JSON_SCHEMA_DIALECT,
    MAX_SEED,
    SCHEMA_URI,
    BoardFile,
    GeneratorFile,
    LevelFile,
    LevelFormatError,
    MetricsFile,
    RulesFile,
    StepFile,
    content_id,
    level_json_schema,
    level_problems,
    parse_level_data,
    problems_from_validation_error,
)

__all__ = [
    "FORMAT_VERSION",
    "GAME",
    "JSON_SCHEMA_DIALECT",
    "MAX_SEED",
    "SCHEMA_URI",
    "BoardFile",
    "GeneratorFile",
    "LevelFile",
    "LevelFormatError",
    "MetricsFile",
    "RulesFile",
    "StepFile",
    "content_id",
    "level_json_schema",
    "level_problems",
    "parse_level_data",
    "problems_from_validation_error",
]
