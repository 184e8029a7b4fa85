"""The Link-up family's document: a level or position file as the family reads it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..formats.problems import Problem

if TYPE_CHECKING:
    from .core.level import Level
    from .play.position import Position

__all__ = ["LinkupDocument"]


@dataclass(frozen=True, slots=True)
class LinkupDocument:
    """A Link-up file read: ``level`` (None for a bare position, or when a solution path is not
    straight lines), what is wrong with its content (``problems``), and for a position file the
    ``position`` it describes."""

    level: Level | None
    problems: tuple[Problem, ...] = ()
    position: Position | None = None
