"""The rules of a Link-up game: how many turns a path may take and whether it may use the ring.

``Rules`` is a frozen, validated value; every function that needs the rules takes one.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["MAX_TURNS_LIMIT", "Rules"]

#: The largest ``max_turns`` accepted; more turns than this never shortens any path on a
#: 64x64 board in practice and only slows the search.
MAX_TURNS_LIMIT = 8


@dataclass(frozen=True, slots=True)
class Rules:
    """How tiles may be linked.

    ``max_turns``: the most turns a linking path may make (2 means at most 3 straight segments).
    ``outside``: whether paths may run through the empty ring one cell wide around the board.
    Raises ``ValueError`` naming the field for a bad value.
    """

    max_turns: int = 2
    outside: bool = True

    def __post_init__(self) -> None:
        if isinstance(self.max_turns, bool) or not isinstance(self.max_turns, int):
            raise ValueError(f"max_turns must be an integer, got {self.max_turns!r}")
        if not 0 <= self.max_turns <= MAX_TURNS_LIMIT:
            raise ValueError(
                f"max_turns must be between 0 and {MAX_TURNS_LIMIT}, got {self.max_turns}"
            )
        if not isinstance(self.outside, bool):
            raise ValueError(f"outside must be true or false, got {self.outside!r}")
