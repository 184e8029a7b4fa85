"""Typer's value conversion made quick for the common cases (a plain number, a choice, a
path), with typer's own conversion for every other value: the same values accepted and the
same errors, without building typer's pydantic adapters when they are not needed (they cost
``levelgen verify`` a noticeable part of its start).  ``LevelgenGroup`` installs it on every
parameter of every command."""

from __future__ import annotations

import re
import sys
from enum import Enum
from typing import Any

import typer

__all__ = ["no_type", "quick_coercion"]


def no_type(ctx: Any) -> None:
    """No type after an argument's metavar in ``--help`` (``FILE``, not ``FILE <list[str]>``)."""
    return None


#: The numbers given as text that typer's coercion reads as Python's ``int()`` / ``float()``
#: do: ASCII digits, no sign, no leading zero, no exponent, at most 15 digits each side.
_PLAIN_NUMBER = {
    int: re.compile(r"(0|[1-9][0-9]{0,14})").fullmatch,
    float: re.compile(r"(0|[1-9][0-9]{0,14})(\.[0-9]{1,15})?").fullmatch,
}


class _QuickCoercion:
    """typer's coercion of one parameter's value, without building pydantic adapters for the
    values that need no conversion: typer (0.29) turns every value, defaults included, through
    a pydantic ``TypeAdapter``, and importing pydantic for that alone costs a command about
    0.1 s.  These come back here as the adapter would return them:

    - ``None``, and a ``str`` for a ``str`` parameter;
    - an ``int`` / ``float`` for a parameter of that type (no clamping), or plain ASCII digits
      for one (``10``, ``2.5``: see ``_PLAIN_NUMBER``), inside its ``min`` / ``max``;
    - a member of the parameter's enum, or a member's value (``auto``); any other text for a
      case-sensitive choice is refused here as ``'xml' is not one of: tiled, csv, json-grid``
      (typer's own message starts ``Value error, ``, pydantic's wording);
    - the strings of a ``list[str]`` parameter (``FILE...``), as a list; no values as ``()``.

    Every other value (a number in another form, a choice in another case, anything out of
    range) goes to typer's own coercion, so its conversions and error messages are typer's."""

    __slots__ = ("_build", "_descriptor", "_full")

    def __init__(self, descriptor: Any, build: Any) -> None:
        self._descriptor = descriptor
        self._build = build
        self._full: Any = None

    def coerce(self, value: Any, param: Any, ctx: Any) -> Any:
        annotation = self._descriptor.annotation
        info = self._descriptor.parameter_info
        plain = info.parser is None and self._descriptor.file_annotation is None
        if param.multiple or param.nargs == -1:
            if value is None:
                return ()  # as typer: no values at all
            if (
                plain
                and annotation == list[str]
                and isinstance(value, (list, tuple))
                and all(type(item) is str for item in value)
            ):
                return list(value)
            return self._typer().coerce(value, param=param, ctx=ctx)
        if value is None:
            return None  # as typer: a missing value stays None
        kind = type(value)
        if plain:
            if annotation is str and kind is str:
                return value
            if annotation in (int, float) and not info.clamp:
                number = value
                if kind is str and _PLAIN_NUMBER[annotation](value):
                    number = annotation(value)
                low, high = info.min, info.max
                if (
                    type(number) is annotation
                    and (low is None or number >= low)
                    and (high is None or number <= high)
                ):
                    return number
            if isinstance(annotation, type) and issubclass(annotation, Enum):
                member = value
                if kind is str and info.case_sensitive:
                    member = next((m for m in annotation if m.value == value), value)
                    if type(member) is not annotation:
                        choices = ", ".join(str(m.value) for m in annotation)
                        raise typer.BadParameter(
                            f"{value!r} is not one of: {choices}", ctx=ctx, param=param
                        )
                if type(member) is annotation:
                    return member
        return self._typer().coerce(value, param=param, ctx=ctx)

    def _typer(self) -> Any:
        if self._full is None:
            self._full = _Reworded(self._build(self._descriptor), self._descriptor)
        return self._full


class _Reworded:
    """typer's own coercion of one parameter, its refusals said in the words of the rest of
    the command line rather than pydantic's (typer checks values with pydantic and passes its
    message on: ``Input should be greater than or equal to 1``): ``0 is less than 1``,
    ``'abc' is not an integer``.  A message without pydantic's wording is left as it is."""

    __slots__ = ("_descriptor", "_full")

    def __init__(self, full: Any, descriptor: Any) -> None:
        self._full = full
        self._descriptor = descriptor

    def coerce(self, value: Any, param: Any, ctx: Any) -> Any:
        try:
            return self._full.coerce(value, param=param, ctx=ctx)
        except typer.BadParameter as exc:
            if "Input should be" not in exc.message:
                raise
            reason = _reason(value, self._descriptor.annotation, self._descriptor.parameter_info)
            raise typer.BadParameter(reason, ctx=ctx, param=param) from None


def _reason(value: Any, annotation: Any, info: Any) -> str:
    """Why ``value`` is not a value of ``annotation`` within ``info``'s ``min`` and ``max``."""
    shown = value if isinstance(value, str) else str(value)
    names = {int: "an integer", float: "a number"}
    kinds = [k for k in names if annotation == k or annotation == k | None]
    if not kinds:
        return f"{shown!r} is not a valid value"
    kind = kinds[0]
    try:
        number = kind(shown)
    except ValueError:
        return f"{shown!r} is not {names[kind]}"
    low, high = info.min, info.max
    if low is not None and high is not None:
        return f"{shown} is not in {low}..{high}"
    if low is not None and number < low:
        return f"{shown} is less than {low}"
    if high is not None and number > high:
        return f"{shown} is more than {high}"
    return f"{shown!r} is not {names[kind]}"


def quick_coercion(param: Any) -> None:
    """Give ``param`` a :class:`_QuickCoercion` when it is a typer parameter whose coercion
    typer has not built yet (left alone on a typer without that hook: the attributes and
    typer's own builder are looked up first, so a typer that changed them just runs as is)."""
    descriptor = getattr(param, "type_descriptor", None)
    build = getattr(sys.modules.get("typer._coercion"), "build_runtime_param", None)
    if descriptor is not None and callable(build) and getattr(param, "_runtime_param", 0) is None:
        param._runtime_param = _QuickCoercion(descriptor, build)
