"""A sliding-puzzle level as a value: the two frames, the certificate, the figures, the origin.

A *level* names its ``start`` and ``goal`` frames; it may carry a ``solution`` (the certificate:
a move string that turns the start into the goal) and ``metrics`` (the optimal length, how many
optimal solutions there are up to a cap, the lower bound of
:func:`levelgen.sliding.heuristics.lower_bound` at the start, the band).  A *position* is a
level with the moves ``played`` from its start and/or the ``current`` frame: where a player is.
When both are given, ``current`` must be the start after ``played``.  The file format is
:mod:`levelgen.sliding.schema`; this module holds the plain values the rest of the family uses.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..formats.difficulty import DifficultyBlock
from .rules import (
    OPPOSITE,
    Frame,
    MoveError,
    apply_moves,
    format_size,
    frames_of,
    is_numbered,
    remove_cycles,
)

__all__ = ["GeneratorInfo", "Metrics", "SlidingLevel", "content_id"]


@dataclass(frozen=True, slots=True)
class Metrics:
    """Figures of a level: ``optimal_length`` (proved), ``optimal_solutions`` (how many
    solutions of that length, counted up to ``solutions_cap``; None when not counted),
    ``lower_bound`` (the admissible bound at the start), ``band`` and the ``difficulty`` block
    (:mod:`levelgen.sliding.rating`) when the level was rated."""

    optimal_length: int
    optimal_solutions: int | None
    solutions_cap: int
    lower_bound: int
    band: str
    difficulty: DifficultyBlock | None = None


@dataclass(frozen=True, slots=True)
class GeneratorInfo:
    """What made the level: the tool's ``name`` and ``version``, the ``seed`` and the create
    ``parameters`` (JSON values)."""

    name: str
    version: str
    seed: int | None
    parameters: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class SlidingLevel:
    """A level or a position (see the module docstring).  ``level_id`` is the ``id`` the file
    stated (checked by ``verify``), None for a level made in memory."""

    start: Frame
    goal: Frame
    solution: str | None = None
    metrics: Metrics | None = None
    generator: GeneratorInfo | None = None
    played: str | None = None
    current: Frame | None = None
    level_id: str | None = None

    @property
    def width(self) -> int:
        """Columns."""
        return self.start.width

    @property
    def height(self) -> int:
        """Rows."""
        return self.start.height

    @property
    def numbered(self) -> bool:
        """Whether every tile's label is its own."""
        return is_numbered(self.goal)

    @property
    def kind(self) -> str:
        """``numbered`` or ``colour``."""
        return "numbered" if self.numbered else "colour"

    @property
    def size_text(self) -> str:
        """``"4x4"``."""
        return format_size(self.width, self.height)

    @property
    def is_position(self) -> bool:
        """Whether the document says where a player is (``played`` or ``current``)."""
        return self.played is not None or self.current is not None

    def frame_now(self) -> Frame:
        """The frame of the position: ``current``, else the start after ``played``, else the
        start (``MoveError`` for a played move off the board)."""
        if self.current is not None:
            return self.current
        if self.played:
            return apply_moves(self.start, self.played)
        return self.start

    def known_solution(self, extra: str = "") -> str | None:
        """A solution from the position (after ``extra`` more moves) that the file already
        holds: back along the moves played to the start, then the certificate, every stretch
        between two visits of one frame cut out.  When ``current`` says where the player is
        without ``played``, back to ``current`` and on along the certificate from its last
        visit of that frame.  None without a certificate that replays, when a move is off the
        board, or when the way is not known (``current`` off the certificate's path)."""
        if self.solution is None:
            return None
        try:
            if apply_moves(self.start, self.solution) != self.goal:
                return None
            anchor, lead, rest = self.start, (self.played or "") + extra, self.solution
            if self.current is not None and self.played is None:
                anchor, lead = self.current, extra
                along = frames_of(self.width, bytes(self.start.cells), self.solution)
                visits = [i for i, frame in enumerate(along) if frame == bytes(anchor.cells)]
                if not visits:
                    return None
                rest = self.solution[visits[-1] :]
            here = apply_moves(anchor, lead)
        except MoveError:
            return None
        back = "".join(OPPOSITE[m] for m in reversed(lead))
        return remove_cycles(self.width, bytes(here.cells), back + rest)

    @property
    def content_id(self) -> str:
        """The content id of the level's board and frames (see :func:`content_id`)."""
        return content_id(self.start, self.goal)


def content_id(start: Frame, goal: Frame) -> str:
    """``"sha256:"`` and the SHA-256 of the canonical JSON (sorted keys, no spaces) of
    ``{"goal", "height", "start", "width"}``: two files of one puzzle share it whatever their
    certificate, figures or origin."""
    canonical = json.dumps(
        {
            "goal": goal.rows(),
            "height": start.height,
            "start": start.rows(),
            "width": start.width,
        },
        sort_keys=True,
        separators=(",", ":"),
    )
    return "sha256:" + hashlib.sha256(canonical.encode("utf-8")).hexdigest()
