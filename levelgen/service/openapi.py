"""The families' part of the OpenAPI document: their file schemas and the bodies built on them.

Every family known to the service (:func:`levelgen.puzzles.families`) brings its JSON Schemas
(:attr:`~levelgen.puzzles.Family.schemas`: ``{game}.level``, and ``{game}.position`` where a
game has position files) and its options (:attr:`~levelgen.puzzles.Family.create_options`,
:attr:`~levelgen.puzzles.Family.hint_options`: name, kind as the JSON type, help as the
description).  From them :func:`family_components` makes the components the routes refer to:

- ``LevelFile``: a level file of any game, the union of the families' level schemas
  discriminated by ``game`` (a file without ``game`` is of the default game); ``PositionFile``
  the union of the other file schemas (a game in progress);
- ``CreateRequest``: one create body per game (``{game}.create``), discriminated by ``game``;
- ``LevelEnvelope`` (verify, solve), ``HintEnvelope`` (one per game, its own hint options),
  ``ShuffleEnvelope``, ``RateEnvelope``, ``FixEnvelope`` and ``FillEnvelope``: a document
  with the options of the operation.

The schemas here only document and type: the tasks (:mod:`levelgen.service.tasks`) check every
body as strictly (unknown fields, types by kind) and the families check the values.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from ..formats import MAX_SEED
from ..puzzles import DEFAULT_GAME, Capability, CreateOption, Family, OptionKind, families
from .bodies import COMMON_CREATE_OPTIONS
from .models import LEVEL_MARK, LEVEL_REF

__all__ = ["family_components", "mark_levels"]

_COMPONENTS = "#/components/schemas/"


def _ref(name: str) -> dict[str, str]:
    return {"$ref": _COMPONENTS + name}


def option_schema(option: CreateOption) -> dict[str, Any]:
    """The JSON Schema of an option's value over HTTP (its kind), described by its help."""
    kinds: dict[OptionKind, dict[str, Any]] = {
        OptionKind.TEXT: {"type": "string"},
        OptionKind.INT: {"type": "integer"},
        OptionKind.BOOL: {"type": "boolean"},
        OptionKind.LINES: {"type": "array", "items": {"type": "string"}},
        OptionKind.JSON: {},
    }
    found = dict(kinds[option.kind])
    found["description"] = option.help
    if option.default is not None:
        found["description"] += f" Default: {option.default}."
    return found


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` or null (a create option given as null takes its default)."""
    if "type" not in schema:
        return schema
    description = schema.get("description")
    body = {k: v for k, v in schema.items() if k != "description"}
    found: dict[str, Any] = {"anyOf": [body, {"type": "null"}]}
    if description:
        found["description"] = description
    return found


def _rename_refs(value: Any, names: Mapping[str, str]) -> Any:
    """``value`` with every ``#/$defs/X`` reference pointing at the component ``names[X]``
    (a copy, through JSON: every object is seen once, innermost first)."""

    def renamed(found: dict[str, Any]) -> dict[str, Any]:
        ref = found.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/"):
            found["$ref"] = _COMPONENTS + names[ref.removeprefix("#/$defs/")]
        return found

    return json.loads(json.dumps(value), object_hook=renamed)


def _file_components(item: Family, components: dict[str, Any]) -> dict[str, str]:
    """Put the family's file schemas in ``components`` (``{game}.{kind}``, their definitions
    as ``{game}.{name}``, or ``{game}.{kind}.{name}`` where two of its files define a name
    differently); the component name of each kind."""
    named: dict[str, str] = {}
    for kind, entry in item.schemas.items():
        schema = dict(entry.generate())
        definitions = schema.pop("$defs", {})
        for key in ("$schema", "$id"):  # $id would change how the references resolve
            schema.pop(key, None)
        names = {name: f"{item.name}.{name}" for name in definitions}
        for name, body in definitions.items():
            wanted = names[name]
            if wanted in components and components[wanted] != _rename_refs(body, names):
                names[name] = f"{item.name}.{kind}.{name}"
        for name, body in definitions.items():
            components[names[name]] = _rename_refs(body, names)
        component = f"{item.name}.{kind}"
        components[component] = _rename_refs(schema, names)
        named[kind] = component
    return named


def _union(refs: dict[str, str], description: str) -> dict[str, Any]:
    """``anyOf`` the components ``refs`` (by game), discriminated by ``game``."""
    return {
        "description": description,
        "anyOf": [_ref(name) for name in refs.values()],
        "discriminator": {
            "propertyName": "game",
            "mapping": {game: _COMPONENTS + name for game, name in refs.items()},
        },
    }


def _time_limit() -> dict[str, Any]:
    return {
        "type": "number",
        "exclusiveMinimum": 0,
        "description": "Seconds the work may take (capped by the server's maximum; the default"
        " is the server's).",
    }


def _seed(what: str) -> dict[str, Any]:
    return {"type": "integer", "minimum": 0, "maximum": MAX_SEED, "description": what}


def _game(name: str | None = None) -> dict[str, Any]:
    if name is None:
        return {
            "type": "string",
            "description": "The game of the document (default: the document's own `game`).",
        }
    return {"const": name, "description": f"The game: {name}."}


def _envelope(
    keys: Mapping[str, dict[str, Any]],
    options: Mapping[str, dict[str, Any]],
    description: str,
    game: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """An envelope: one of the document ``keys``, ``game``, ``time_limit`` and ``options``."""
    return {
        "type": "object",
        "description": description,
        "properties": {
            **keys,
            "game": game or _game(),
            "time_limit": _time_limit(),
            **options,
        },
        "additionalProperties": False,
        "anyOf": [{"required": [key]} for key in keys],
    }


def _create_body(item: Family) -> dict[str, Any]:
    """The body of ``POST /v1/levels`` for one game: its create options by kind."""
    options: Iterable[CreateOption] = (*COMMON_CREATE_OPTIONS, *item.create_options)
    properties: dict[str, Any] = {
        "game": {
            "const": item.name,
            "description": f"The game: {item.name}"
            + (" (the default: it may be left out)." if item.name == DEFAULT_GAME else "."),
        },
        "seed": _seed("0 .. 2^53-1; drawn and recorded in the level when absent."),
        "time_limit": {
            **_time_limit(),
            "description": "Seconds the creation may take (default and most: the server's"
            " maximum); past it the work stops and the answer is 422.",
        },
    }
    for option in options:
        properties[option.name] = _nullable(option_schema(option))
    return {
        "type": "object",
        "title": f"{item.title} create options",
        "description": f"The options of `levelgen create` for {item.title} ({item.name}).",
        "properties": properties,
        "required": [] if item.name == DEFAULT_GAME else ["game"],
        "additionalProperties": False,
    }


def _merged(options: Iterable[CreateOption]) -> dict[str, dict[str, Any]]:
    """The schemas of options by name; a name two games declare differently takes either."""
    found: dict[str, list[dict[str, Any]]] = {}
    for option in options:
        schema = option_schema(option)
        if schema not in found.setdefault(option.name, []):
            found[option.name].append(schema)
    return {name: s[0] if len(s) == 1 else {"anyOf": s} for name, s in found.items()}


#: Examples of create bodies, one per built-in game (those of the README).
CREATE_EXAMPLES: list[dict[str, Any]] = [
    {"size": "12x8", "seed": 7},
    {"size": "6x4", "seed": 1, "kinds": 3, "max_turns": 1, "outside": False},
    {"layout": ["oooo", "o##o", "oooo"], "seed": 3, "copies": 2},
    {"size": "12x8", "seed": 9, "difficulty": "hard"},
    {"shape": "heart", "seed": 4, "symmetry": "mirror"},
    {"game": "sliding-puzzle", "size": "4x4", "moves": 30, "seed": 2},
    {"game": "snakes-ladders", "size": "10x10", "difficulty": "medium", "seed": 5},
]


def family_components() -> dict[str, Any]:
    """The components the routes refer to, from every family known to the service."""
    components: dict[str, Any] = {}
    levels: dict[str, str] = {}
    others: dict[str, str] = {}
    creates: dict[str, str] = {}
    hints: dict[str, str] = {}
    hint_options: list[CreateOption] = []
    known = families()
    for name, item in known.items():
        files = _file_components(item, components)
        if "level" in files:
            levels[name] = files["level"]
        others.update({f"{name}.{kind}": ref for kind, ref in files.items() if kind != "level"})
        if Capability.CREATE in item.capabilities:
            creates[name] = f"{name}.create"
            components[creates[name]] = _create_body(item)
        if Capability.HINT in item.capabilities and "level" in files:
            own = [_ref(ref) for ref in files.values()]
            document = own[0] if len(own) == 1 else {"anyOf": own}
            hints[name] = f"{name}.hint"
            components[hints[name]] = _envelope(
                {"position": document, "level": _ref(files["level"])},
                {option.name: option_schema(option) for option in item.hint_options},
                f"A {item.title} position or level with the hint's options.",
                _game(name),
            )
            hint_options.extend(item.hint_options)
    default = f" A file without `game` is of the default game, {DEFAULT_GAME}."
    components["LevelFile"] = _union(
        levels, "A level file of any game (its `game` says which)." + default
    )
    components["PositionFile"] = (
        {
            "description": "A game in progress, of a game that has position files.",
            "anyOf": [_ref(ref) for ref in others.values()],
        }
        if others
        else _ref("LevelFile")
    )
    components["CreateRequest"] = {
        **_union(creates, "The options of `levelgen create`, for the game `game` names." + default),
        "examples": CREATE_EXAMPLES,
    }
    components["HintEnvelope"] = {
        "description": "A position or level with the hint options of its game (the envelope's"
        " `game`, else the document's).",
        "anyOf": [_ref(ref) for ref in hints.values()],
    }
    position = {"anyOf": [_ref("PositionFile"), _ref("LevelFile")]}
    components["LevelEnvelope"] = _envelope(
        {"level": _ref("LevelFile")},
        {
            "method": {
                "type": "string",
                "description": "The solver, for a game that has a choice (Link-up: auto,"
                " search, cpsat, exhaustive); another game refuses it.",
            }
        },
        "A level with the options of the check.",
    )
    components["ShuffleEnvelope"] = _envelope(
        {"position": position, "level": _ref("LevelFile")},
        {
            "seed": _seed("The shuffle's seed (drawn when absent; the answer says it)."),
            "min_moves": {
                "type": "integer",
                "minimum": 0,
                "maximum": 4096,
                "description": "Legal moves the new board must offer (default 1).",
            },
        },
        "A position or level of a game that shuffles, with the shuffle's options.",
    )
    components["RateEnvelope"] = _envelope(
        {"level": _ref("LevelFile")},
        {"seed": _seed("The seed of the player model's play-outs (default 0).")},
        "A level with the seed of its rating.",
    )
    components["FixEnvelope"] = _envelope(
        {"level": _ref("LevelFile")},
        {
            "max_swaps": {
                "type": "integer",
                "minimum": 0,
                "maximum": 16,
                "description": "The most swaps tried (default 4).",
            }
        },
        "A level of a game that fixes, with the fix's options.",
    )
    components["FillEnvelope"] = {
        **_envelope(
            {"level": _ref("LevelFile")},
            {
                "slots": {
                    "type": "array",
                    "items": {
                        "type": "array",
                        "items": {"type": "integer"},
                        "minItems": 2,
                        "maxItems": 2,
                    },
                    "description": "The empty cells [x, y] to put a piece on.",
                },
                "kinds": {
                    "anyOf": [{"type": "integer", "minimum": 1}, {"type": "null"}],
                    "description": "Kinds 1..K of the new pairs (default: the highest kind"
                    " painted or a quarter of the slots, whichever is more).",
                },
                "seed": _seed("The seed of the fill (default 0)."),
            },
            "A level drawn in part with the empty cells to fill.",
        ),
        "required": ["level", "slots"],
    }
    return components


def mark_levels(value: Any) -> Any:
    """``value`` (a part of the OpenAPI document) with every field marked as a level
    (:data:`~levelgen.service.models.LEVEL_MARK`) given the schema: a level file of any game,
    or null (a copy, through JSON)."""

    def marked(found: dict[str, Any]) -> dict[str, Any]:
        if not found.get(LEVEL_MARK):
            return found
        level: dict[str, Any] = {"anyOf": [{"$ref": LEVEL_REF}, {"type": "null"}]}
        if "description" in found:
            level["description"] = found["description"]
        return level

    return json.loads(json.dumps(value), object_hook=marked)
