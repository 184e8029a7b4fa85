"""The rules of a Link-up game: how many turns a path may take and whether it may use the ring.

``Rules`` is a frozen, validated value; every function that needs the rules takes one.

A move removes tiles ``a != b`` when ``kind(a) == kind(b)`` and some path of unit steps from
``a`` to ``b`` turns at most ``max_turns`` times and has only *free* interior cells: empty board
cells, or ring cells when ``outside``.  Two facts carry most of the engineering:

1. *Occupancy invariance.*  Whether a cell is free depends only on whether it holds a tile or
   a wall, never on a tile's kind.  So for a fixed sequence of position pairs, the path
   condition at step ``i`` depends only on the occupied set at that step, which is the initial
   occupied set minus the cells of steps ``0 .. i-1``: it is the same for every kind
   assignment.  The only kind condition is ``kind(a) == kind(b)``, which holds for every
   assignment that gives both cells of each pair one kind.  Hence a removal order found on
   positions alone is valid for every such assignment.  (Generators rely on this.)

2. *Monotonicity (no gravity).*  A removal only turns occupied cells into free ones; the free
   set never shrinks, so a path legal now stays legal after any further removals, as long as
   its two end tiles remain.  Consequence (the solver's safe moves): if all remaining tiles of
   a kind ``k`` can be removed now, by pairs ``P`` in some order, then doing so first loses no
   solution.  Proof: take any solution ``s`` from the current state; play ``P`` first (legal
   by assumption), then the steps of ``s`` that remove other kinds, in their order.  At each
   such step the occupied set is that of ``s`` at the same step minus some tiles of kind
   ``k``, so its free set contains the free set it had in ``s`` and its path is still legal;
   at the end everything is removed.  With exactly two tiles of ``k`` left, ``P`` is the one
   pair, and it can go when it is linkable.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["MAX_TURNS_LIMIT", "SLIDES", "Rules"]

#: The largest ``max_turns`` accepted; more turns than this never shortens any path on a
#: 64x64 board in practice and only slows the search.
MAX_TURNS_LIMIT = 8

#: The sliding rules (``Rules.slide``); ``"none"`` is the classic game.  What each one does is
#: defined once, in :mod:`levelgen.linkup.core.slide`.
SLIDES: tuple[str, ...] = (
    "none",
    "down",
    "up",
    "left",
    "right",
    "up-left",
    "up-right",
    "down-left",
    "down-right",
    "center",
    "apart",
)


@dataclass(frozen=True, slots=True)
class Rules:
    """How tiles may be linked.

    ``max_turns``: the most turns a linking path may make (2 means at most 3 straight segments).
    ``outside``: whether paths may run through the empty ring one cell wide around the board.
    ``slide``: one of ``SLIDES``; a rule other than ``"none"`` breaks monotonicity (fact 2)
    but keeps occupancy invariance when tiles are tracked by identity (see
    :mod:`levelgen.linkup.core.slide`).
    Raises ``ValueError`` naming the field for a bad value.
    """

    max_turns: int = 2
    outside: bool = True
    #: After every removal the tiles slide this way (see :mod:`levelgen.linkup.core.slide`);
    #: ``"none"``: they stay (the classic game, where monotonicity holds).
    slide: str = "none"

    def __post_init__(self) -> None:
        if isinstance(self.max_turns, bool) or not isinstance(self.max_turns, int):
            raise ValueError(f"max_turns must be an integer, got {self.max_turns!r}")
        if not 0 <= self.max_turns <= MAX_TURNS_LIMIT:
            raise ValueError(
                f"max_turns must be between 0 and {MAX_TURNS_LIMIT}, got {self.max_turns}"
            )
        if not isinstance(self.outside, bool):
            raise ValueError(f"outside must be true or false, got {self.outside!r}")
        if self.slide not in SLIDES:
            raise ValueError(f"slide must be one of {', '.join(SLIDES)}, got {self.slide!r}")
