"""The file formats at the edge: pydantic models, JSON Schemas generated from them.

One module per format (``level``, ``position``); this package
re-exports the level format's names so that ``from levelgen.linkup.schema import LevelFile`` works
(the models' names lazily: pydantic is imported when one of them is first used, so that
:mod:`levelgen.linkup.schema.quick`, the format's plain parts, can be used without it).

``SCHEMAS`` is the family's part of what ``levelgen schema`` serves: a name (``level``,
``position``) mapped to the function generating that JSON Schema and the
name of its checked-in copy under ``schemas/``.  A new format adds one entry.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from ...puzzles import SchemaEntry
from .quick import FORMAT_VERSION, GAME, MAX_SEED, SCHEMA_URI, content_id

if TYPE_CHECKING:
    from .level import (
        JSON_SCHEMA_DIALECT,
        BoardFile,
        GeneratorFile,
        LevelFile,
        LevelFormatError,
        MetricsFile,
        RulesFile,
        StepFile,
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
    "SCHEMAS",
    "SCHEMA_URI",
    "BoardFile",
    "GeneratorFile",
    "LevelFile",
    "LevelFormatError",
    "MetricsFile",
    "RulesFile",
    "SchemaEntry",
    "StepFile",
    "content_id",
    "level_json_schema",
    "level_problems",
    "parse_level_data",
    "problems_from_validation_error",
]


def __getattr__(name: str) -> Any:
    """The names of the pydantic module ``level``, imported the first time one is asked for
    (so that :mod:`levelgen.linkup.schema.quick`, and a command that needs no model, go without
    pydantic)."""
    if name in __all__:
        return getattr(importlib.import_module(".level", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


#: The schemas ``levelgen schema NAME`` prints and ``levelgen schema --check`` compares.
def _position_json_schema() -> dict[str, Any]:
    from .position import position_json_schema

    return position_json_schema()


def _level_json_schema() -> dict[str, Any]:
    from .level import level_json_schema

    return level_json_schema()


SCHEMAS: dict[str, SchemaEntry] = {
    "level": SchemaEntry(_level_json_schema, "level.v1.schema.json"),
    "position": SchemaEntry(_position_json_schema, "position.v1.schema.json"),
}
