"""A problem found in a file or a request: where (a JSON pointer) and why."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Problem"]


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with a file or a request: where (a JSON pointer) and why."""

    pointer: str
    message: str

    def __str__(self) -> str:
        return f"{self.pointer or '/'}: {self.message}"
