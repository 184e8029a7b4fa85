"""A position of a game: its current board and rules, the starting level when known and the
moves played since, in core values (the position file's models are in
:mod:`levelgen.linkup.schema.position`, which re-exports these names)."""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from ..core.board import Board
from ..core.level import Level
from ..core.moves import Move
from ..core.rules import Rules

if TYPE_CHECKING:
    from ..solvers import Budget
    from ..solvers.race import RivalFactory
    from .game import Game
    from .hint import HintResult

__all__ = ["Position", "position_from_level"]


class Position(NamedTuple):
    """A position in core values: the current ``board`` and ``rules``, the starting ``level``
    when known (None for a bare board) and the moves ``played`` since (with their paths)."""

    board: Board
    rules: Rules
    level: Level | None
    played: tuple[Move, ...]

    def game(self) -> Game:
        """A :class:`levelgen.linkup.play.game.Game` at this position, its history included when
        known."""
        from .game import Game

        if self.level is None:
            return Game(self.board, self.rules)
        game = Game(self.level.board, self.rules)
        game.play_all((m.a, m.b) for m in self.played)
        return game

    def hint(
        self,
        budget: Budget | None = None,
        *,
        method: str = "auto",
        rival: RivalFactory | None = None,
    ) -> HintResult:
        """The hint for this position (the CLI's ``hint`` and ``POST /v1/hint``): the variant
        engine (:func:`levelgen.linkup.play.variants.variant_hint`, with the history) for a sliding
        or layered game, the classic play engine otherwise.  A layered game whose upper layers
        are all cleared has a flat board but a layered start: it is still a variant game.
        ``rival``: where ``auto``'s repair race runs its second run on a large classic board
        (:func:`levelgen.linkup.solvers.solve`)."""
        from ..core.variant_support import is_variant

        start = None if self.level is None else self.level.board
        if is_variant(self.board, self.rules) or (
            start is not None and is_variant(start, self.rules)
        ):
            from .variants import variant_hint  # only for a variant: not on the hint's path

            return variant_hint(
                self.board, self.rules, budget, method=method, start=start, played=self.played
            )
        return self.game().hint(budget, method=method, rival=rival)


def position_from_level(level: Level) -> Position:
    """Any level is a position: its board as written, no moves played."""
    return Position(level.board, level.rules, level, ())
