"""Words for messages: a count with a noun that agrees with it ("1 tile", "2 tiles").

Pure; every message that counts something (solver reasons, file problems, command output)
says it the same way."""

from __future__ import annotations

__all__ = ["plural", "remain"]


def plural(count: int, noun: str) -> str:
    """``"1 kind"``, ``"2 kinds"``: the count and the noun, with an s unless the count is 1."""
    return f"{count} {noun}" + ("" if count == 1 else "s")


def remain(count: int, noun: str) -> str:
    """``"1 tile remains"``, ``"2 tiles remain"``: :func:`plural` with the verb agreeing."""
    return plural(count, noun) + (" remains" if count == 1 else " remain")
