"""Frames as the searches see them: labels renamed to small *classes*, cells as bytes.

The searches (IDA*, the pattern databases, the compiled twins) work on ``bytes`` of one class
per cell, 0 the blank.  Classes are numbered 1, 2, ... in the order in which their labels first
appear in the goal, read row by row: in a numbered puzzle class ``c`` is the tile whose goal
cell is the ``c``-th tile cell, so two numbered puzzles whose goals put the blank in the same
cell have the same encoded goal, and share their pattern databases.  In a colour puzzle a class
is a colour.  :class:`Encoding` maps both ways; moves are the same in both worlds.
"""

from __future__ import annotations

from dataclasses import dataclass

from .rules import BLANK, Frame, is_numbered

__all__ = ["Encoding", "encode_puzzle"]


@dataclass(frozen=True, slots=True)
class Encoding:
    """The class renaming of one puzzle: ``labels[c]`` is the label of class ``c``
    (``labels[0]`` is the blank, 0); ``goal`` the goal's classes cell by cell;
    ``counts[c]`` how many tiles class ``c`` has; ``numbered`` when every class has one."""

    width: int
    height: int
    labels: tuple[int, ...]
    goal: bytes
    counts: tuple[int, ...]
    numbered: bool

    @property
    def size(self) -> int:
        """The number of cells."""
        return self.width * self.height

    @property
    def classes(self) -> int:
        """The number of tile classes."""
        return len(self.labels) - 1

    def encode(self, frame: Frame) -> bytes:
        """The classes of ``frame``'s cells (a frame of this puzzle's size and labels)."""
        index = {label: c for c, label in enumerate(self.labels)}
        return bytes(index[v] for v in frame.cells)

    def decode(self, cells: bytes) -> Frame:
        """The frame whose classes are ``cells``."""
        return Frame(self.width, self.height, tuple(self.labels[c] for c in cells))


def encode_puzzle(goal: Frame) -> Encoding:
    """The encoding of the puzzle whose goal is ``goal``."""
    labels = [BLANK]
    seen = {BLANK: 0}
    for v in goal.cells:
        if v not in seen:
            seen[v] = len(labels)
            labels.append(v)
    classes = bytes(seen[v] for v in goal.cells)
    counts = [0] * len(labels)
    for c in classes:
        counts[c] += 1
    counts[0] = 0
    return Encoding(
        goal.width, goal.height, tuple(labels), classes, tuple(counts), is_numbered(goal)
    )
