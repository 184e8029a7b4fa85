"""The ``generator.parameters`` of level files: checked for the generators levelgen knows.

``generator.name`` says what made the file, and for the names levelgen writes the parameters
are checked key by key (an unknown key or a wrong value is refused with its JSON pointer):

* ``"levelgen"`` (``levelgen create``): ``size`` ("WxH", ASCII digits, 1..64 each), ``kinds``
  (integer >= 1), ``copies`` (even integer >= 2), ``max_turns`` (0..8), ``outside``
  (boolean), ``layout`` (null, or the layout's lines of ``o . #``, layers separated by an empty
  line), ``slide`` (a sliding rule), ``layers`` (1..8 or null), and from ``--difficulty``:
  ``difficulty`` (a band or a target score, as a string), ``difficulty_in_band`` (boolean),
  ``density`` (-1..1: the share of tile slots turned into holes, below 0, or walls) and
  ``level_seed`` (the seed of the level the steering kept); from ``--symmetry``: ``symmetry``
  (``mirror``, ``rotate`` or ``both``: the layout's) and ``kinds_symmetry`` (what the kinds
  have: ``both``, ``mirror``, ``rotate`` or ``none``); from ``--shape``: ``shape`` (its name).
* ``"levelgen-solve"`` (``levelgen solve``, which found the solution of a board made
  elsewhere): ``method`` (the solver that answered), ``requested_method`` and ``time_limit``
  (seconds, a number >= 0).
* ``"levelgen-shuffle"`` (``levelgen shuffle``, a solvable re-deal of a position's tiles, seeded
  by ``seed``): ``min_moves`` (integer >= 0, the legal moves asked for at once).

Any other generator name belongs to another tool, which may put any parameters there: short
names (1..64 characters) with a JSON scalar (string, finite number, boolean, null) or an array
of scalars as each value.  The same rules are in the JSON Schema (``if name is ... then``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from ..core.geometry import MAX_SIDE
from ..core.level import GENERATOR_SHUFFLE
from ..core.rules import MAX_TURNS_LIMIT, SLIDES
from ..verify import Problem

__all__ = [
    "GENERATOR_LEVELGEN",
    "GENERATOR_SHUFFLE",
    "GENERATOR_SOLVE",
    "parameter_problems",
    "parameters_json_schema",
]

#: The generator names whose parameters are checked.
GENERATOR_LEVELGEN = "levelgen"
GENERATOR_SOLVE = "levelgen-solve"

_SIDE = "([1-9]|[1-5][0-9]|6[0-4])"  # 1..64 (MAX_SIDE) in ASCII digits, no leading zero
_SIZE = re.compile(f"^{_SIDE}x{_SIDE}$")
_LAYOUT_LINE = re.compile(r"^[o.#]*$")  # an empty line separates layers
#: Layers at most (bottom layer included), as in ``levelgen.linkup.core.layers.MAX_LAYERS``.
_MAX_LAYERS = 8
_MAX_LAYOUT_LINES = _MAX_LAYERS * MAX_SIDE + _MAX_LAYERS - 1
_MAX_SEED = 2**53 - 1
_BANDS = ("easy", "medium", "hard", "expert")


def _size(value: object) -> str | None:
    if not isinstance(value, str) or not _SIZE.match(value):
        return f'expected a size "WxH", W and H in 1..{MAX_SIDE} in ASCII digits, such as "12x8"'
    return None


Check = Callable[[object], str | None]


def _int(low: int, high: int | None = None, *, even: bool = False) -> Check:
    def check(value: object) -> str | None:
        if isinstance(value, bool) or not isinstance(value, int):
            return "expected an integer"
        if value < low or (high is not None and value > high):
            return f"expected an integer in {low}..{high}" if high else f"expected >= {low}"
        if even and value % 2:
            return "expected an even number (tiles go in pairs)"
        return None

    return check


def _bool(value: object) -> str | None:
    return None if isinstance(value, bool) else "expected true or false"


def _layout(value: object) -> str | None:
    if value is None:
        return None
    if not isinstance(value, list) or not value or len(value) > _MAX_LAYOUT_LINES:
        return f"expected null or 1..{_MAX_LAYOUT_LINES} layout lines"
    for line in value:
        if not isinstance(line, str) or len(line) > MAX_SIDE or not _LAYOUT_LINE.match(line):
            return f"expected layout lines of at most {MAX_SIDE} cells o . #"
    return None


def _number(value: object) -> str | None:
    if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
        return "expected a number >= 0"
    return None


def _name(value: object) -> str | None:
    return None if isinstance(value, str) and value else "expected a solver name"


def _difficulty(value: object) -> str | None:
    """A band name or a target score 0..100 written as a string (``create --difficulty``)."""
    if isinstance(value, str) and value in _BANDS:
        return None
    try:
        score = float(value) if isinstance(value, str) else -1.0
    except ValueError:
        score = -1.0
    if 0 <= score <= 100:
        return None
    return f"expected one of {', '.join(_BANDS)} or a score 0..100 as a string"


def _slide(value: object) -> str | None:
    return None if value in SLIDES else f"expected one of {', '.join(SLIDES)}"


_SYMMETRIES = ("mirror", "rotate", "both")
_KINDS_SYMMETRIES = ("both", "mirror", "rotate", "none")
_SHAPE = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")


def _symmetry(value: object) -> str | None:
    return None if value in _SYMMETRIES else f"expected one of {', '.join(_SYMMETRIES)}"


def _kinds_symmetry(value: object) -> str | None:
    if value in _KINDS_SYMMETRIES:
        return None
    return f"expected one of {', '.join(_KINDS_SYMMETRIES)}"


def _shape(value: object) -> str | None:
    if isinstance(value, str) and _SHAPE.match(value):
        return None
    return "expected a shape name (lower-case letters, digits, - and _)"


def _layers(value: object) -> str | None:
    if value is None:
        return None
    return _int(1, _MAX_LAYERS)(value)


def _density(value: object) -> str | None:
    if isinstance(value, bool) or not isinstance(value, int | float) or not -1 <= value <= 1:
        return "expected a number in -1..1 (holes below 0, walls above)"
    return None


_CHECKS: dict[str, dict[str, Check]] = {
    GENERATOR_LEVELGEN: {
        "size": _size,
        "kinds": _int(1),
        "copies": _int(2, even=True),
        "max_turns": _int(0, MAX_TURNS_LIMIT),
        "outside": _bool,
        "layout": _layout,
        "difficulty": _difficulty,
        "difficulty_in_band": _bool,
        "density": _density,
        "level_seed": _int(0, _MAX_SEED),
        "slide": _slide,
        "layers": _layers,
        "symmetry": _symmetry,
        "kinds_symmetry": _kinds_symmetry,
        "shape": _shape,
    },
    GENERATOR_SOLVE: {"method": _name, "requested_method": _name, "time_limit": _number},
    GENERATOR_SHUFFLE: {"min_moves": _int(0)},
}

_SCHEMAS: dict[str, dict[str, dict[str, Any]]] = {
    GENERATOR_LEVELGEN: {
        "size": {"type": "string", "pattern": _SIZE.pattern},
        "kinds": {"type": "integer", "minimum": 1},
        "copies": {"type": "integer", "minimum": 2, "multipleOf": 2},
        "max_turns": {"type": "integer", "minimum": 0, "maximum": MAX_TURNS_LIMIT},
        "outside": {"type": "boolean"},
        "layout": {
            "anyOf": [
                {"type": "null"},
                {
                    "type": "array",
                    "minItems": 1,
                    "maxItems": _MAX_LAYOUT_LINES,
                    "items": {"type": "string", "pattern": _LAYOUT_LINE.pattern},
                },
            ]
        },
        "difficulty": {
            "type": "string",
            "pattern": "^(easy|medium|hard|expert|[0-9]+(\\.[0-9]+)?)$",
        },
        "difficulty_in_band": {"type": "boolean"},
        "density": {"type": "number", "minimum": -1, "maximum": 1},
        "level_seed": {"type": "integer", "minimum": 0, "maximum": _MAX_SEED},
        "slide": {"enum": list(SLIDES)},
        "layers": {"anyOf": [{"type": "null"}, {"type": "integer", "minimum": 1, "maximum": 8}]},
        "symmetry": {"enum": list(_SYMMETRIES)},
        "kinds_symmetry": {"enum": list(_KINDS_SYMMETRIES)},
        "shape": {"type": "string", "pattern": _SHAPE.pattern},
    },
    GENERATOR_SOLVE: {
        "method": {"type": "string", "minLength": 1},
        "requested_method": {"type": "string", "minLength": 1},
        "time_limit": {"type": "number", "minimum": 0},
    },
    GENERATOR_SHUFFLE: {"min_moves": {"type": "integer", "minimum": 0}},
}


def parameter_problems(name: str, parameters: dict[str, object]) -> list[Problem]:
    """The problems of the ``parameters`` of generator ``name`` (pointers under
    ``/generator/parameters``); none for a generator levelgen does not know."""
    checks = _CHECKS.get(name)
    if checks is None:
        return []
    problems = []
    for key in sorted(parameters):
        where = "/generator/parameters/" + key.replace("~", "~0").replace("/", "~1")
        check = checks.get(key)
        if check is None:
            known = ", ".join(checks)
            problems.append(
                Problem(where, f"unknown parameter of generator {name!r} (known: {known})")
            )
            continue
        reason = check(parameters[key])
        if reason is not None:
            problems.append(Problem(where, reason))
    return problems


def parameters_json_schema() -> list[dict[str, Any]]:
    """``if``/``then`` pairs for the generator object's JSON Schema: the parameters of each
    known generator name."""
    return [
        {
            "if": {"properties": {"name": {"const": name}}, "required": ["name"]},
            "then": {
                "properties": {"parameters": {"properties": props, "additionalProperties": False}}
            },
        }
        for name, props in _SCHEMAS.items()
    ]
