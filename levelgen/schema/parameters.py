"""The ``generator.parameters`` of level files: checked for the generators levelgen knows.

``generator.name`` says what made the file, and for the names levelgen writes the parameters
are checked key by key (an unknown key or a wrong value is refused with its JSON pointer):

* ``"levelgen"`` (``levelgen create``): ``size`` ("WxH", ASCII digits, 1..64 each), ``kinds``
  (integer >= 1), ``copies`` (even integer >= 2), ``max_turns`` (0..8), ``outside``
  (boolean), ``layout`` (null, or the layout's lines of ``o . #``), and the keys reserved for
  generator options still to come: ``difficulty``, ``slide``, ``layers`` (any parameter value).
* ``"levelgen-solve"`` (``levelgen solve``, which found the solution of a board made
  elsewhere): ``method`` (the solver that answered), ``requested_method`` and ``time_limit``
  (seconds, a number >= 0).

Any other generator name belongs to another tool, which may put any parameters there: short
names (1..64 characters) with a JSON scalar (string, finite number, boolean, null) or an array
of scalars as each value.  The same rules are in the JSON Schema (``if name is ... then``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from ..geometry import MAX_SIDE
from ..rules import MAX_TURNS_LIMIT
from ..verify import Problem

__all__ = [
    "GENERATOR_LEVELGEN",
    "GENERATOR_SOLVE",
    "parameter_problems",
    "parameters_json_schema",
]

#: The generator names whose parameters are checked.
GENERATOR_LEVELGEN = "levelgen"
GENERATOR_SOLVE = "levelgen-solve"

_SIDE = "([1-9]|[1-5][0-9]|6[0-4])"  # 1..64 (MAX_SIDE) in ASCII digits, no leading zero
_SIZE = re.compile(f"^{_SIDE}x{_SIDE}$")
_LAYOUT_LINE = re.compile(r"^[o.#]+$")
_ANY: dict[str, Any] = {}


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
    if not isinstance(value, list) or not value or len(value) > MAX_SIDE:
        return f"expected null or 1..{MAX_SIDE} layout lines"
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


def _anything(value: object) -> str | None:
    return None


_CHECKS: dict[str, dict[str, Check]] = {
    GENERATOR_LEVELGEN: {
        "size": _size,
        "kinds": _int(1),
        "copies": _int(2, even=True),
        "max_turns": _int(0, MAX_TURNS_LIMIT),
        "outside": _bool,
        "layout": _layout,
        "difficulty": _anything,
        "slide": _anything,
        "layers": _anything,
    },
    GENERATOR_SOLVE: {"method": _name, "requested_method": _name, "time_limit": _number},
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
                    "maxItems": MAX_SIDE,
                    "items": {"type": "string", "pattern": _LAYOUT_LINE.pattern},
                },
            ]
        },
        "difficulty": _ANY,
        "slide": _ANY,
        "layers": _ANY,
    },
    GENERATOR_SOLVE: {
        "method": {"type": "string", "minLength": 1},
        "requested_method": {"type": "string", "minLength": 1},
        "time_limit": {"type": "number", "minimum": 0},
    },
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
