"""Pydantic's findings about a file as problems with JSON pointers and short reasons, for every
family's file models.

The errors come as ``ValidationError.errors(include_url=False, include_input=False)`` gives
them (plain dicts: this module imports no pydantic); the value at each place is looked up in
the JSON data itself, so that a reason can say what was found there (``expected an integer,
got true``).  One problem per place, in pydantic's order.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from .problems import Problem

__all__ = ["MISSING", "describe", "lookup", "pointer_of", "reason", "validation_problems"]

#: What :func:`lookup` gives for a place the data does not have.
MISSING = object()

_TYPE_NAMES = {
    "int_type": "an integer",
    "int_parsing": "an integer",
    "float_type": "a number",
    "bool_type": "true or false",
    "string_type": "a string",
    "list_type": "an array",
    "dict_type": "an object",
    "model_type": "an object",
    "model_attributes_type": "an object",
}

#: A family's reason for one error: ``(error, its location, the value found there)``.
ReasonOf = Callable[[Mapping[str, Any], Sequence[int | str], object], str]


def validation_problems(
    errors: Iterable[Mapping[str, Any]], data: object, reason_of: ReasonOf
) -> list[Problem]:
    """One problem per place of ``errors``, in order, its reason given by ``reason_of``."""
    problems: list[Problem] = []
    seen: set[str] = set()
    for err in errors:
        loc = err["loc"]
        pointer = pointer_of(loc)
        if pointer in seen:
            continue
        seen.add(pointer)
        problems.append(Problem(pointer, reason_of(err, loc, lookup(data, loc))))
    return problems


def pointer_of(loc: Sequence[int | str]) -> str:
    """The JSON pointer (RFC 6901) of a location: ``/board/rows/3``."""
    return "".join("/" + str(part).replace("~", "~0").replace("/", "~1") for part in loc)


def lookup(data: object, loc: Sequence[int | str]) -> object:
    """The value at ``loc`` in ``data``, or :data:`MISSING`."""
    for part in loc:
        in_object = isinstance(data, Mapping) and isinstance(part, str) and part in data
        in_array = isinstance(data, list) and isinstance(part, int) and 0 <= part < len(data)
        if not (in_object or in_array):
            return MISSING
        data = data[part]  # type: ignore[index]
    return data


def reason(kind: str, msg: str, value: object, *, file_format: str) -> str:
    """The reason for an error of pydantic type ``kind`` (message ``msg``) about ``value``:
    ``required field is missing``, ``unknown field (not part of FILE_FORMAT)``, ``expected an
    integer, got true``, ``70 is over the limit of 64``, pydantic's own words otherwise."""
    got = "" if value is MISSING else f", got {describe(value)}"
    if kind == "missing":
        return "required field is missing"
    if kind == "extra_forbidden":
        return f"unknown field (not part of {file_format})"
    if kind in _TYPE_NAMES:
        return f"expected {_TYPE_NAMES[kind]}{got}"
    if kind == "less_than_equal" and isinstance(value, int | float):
        return f"{describe(value)} is over the limit of {msg.rsplit(' ', 1)[-1]}"
    if kind == "greater_than_equal" and isinstance(value, int | float):
        return f"{describe(value)} is under the minimum of {msg.rsplit(' ', 1)[-1]}"
    text = msg[0].lower() + msg[1:]
    if kind in ("too_long", "too_short") and isinstance(value, list | dict | str):
        return text
    text = text.replace("input should be", "expected").replace("value error, ", "")
    return text + got if kind == "literal_error" else text


def describe(value: object) -> str:
    """A JSON value in a few words: ``true``, ``1.5``, ``the string 'x'``, ``an array``."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        text = repr(value)
        return text if len(text) <= 24 else text[:20] + "..."
    if isinstance(value, str):
        return f"the string {value[:40]!r}" + ("..." if len(value) > 40 else "")
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__
