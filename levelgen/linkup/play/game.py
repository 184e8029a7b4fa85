"""A game in progress: the live move list, moves and undo, safe hints and a solvable shuffle.

``Game(board, rules)`` holds the current position of a game and the moves played since the
start.  It is pure (no I/O, no clock, no global random): budgets and seeds are passed in.

The live move list.  The set of linkable same-kind pairs is kept up to date after each move
instead of being recomputed, by :class:`levelgen.linkup.core.live.LiveLinks` (the structure the
difficulty play-outs use too; see there how): a removal tests only the pairs a path across one of
the two freed cells could newly join.  Each move records what it changed, so ``undo()`` restores the
set exactly.

Hints (:meth:`Game.hint`, see :mod:`levelgen.linkup.play.hint`) and shuffles (:meth:`Game.shuffle`,
see :mod:`levelgen.linkup.play.shuffle`) work on the current position; a hint of a lost game also
says which played move lost it.

>>> game = Game(Board.from_rows(["1.2", "2.1"]), Rules())
>>> [(str(m.a), str(m.b)) for m in game.legal_moves()]
[('[0, 0]', '[2, 1]'), ('[2, 0]', '[0, 1]')]
>>> _ = game.play(Pos(0, 0), Pos(2, 1)); game.board.to_rows()
['..2', '2..']
>>> _ = game.undo(); game.board.to_rows()
['1.2', '2.1']
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from ..core.board import Board
from ..core.geometry import Pos
from ..core.live import LiveLinks
from ..core.moves import Move
from ..core.natural import natural_key, natural_rank
from ..core.paths import find_link
from ..core.rules import Rules

if TYPE_CHECKING:
    from ..solvers import Budget
    from ..solvers.race import RivalFactory
    from .hint import HintResult
    from .shuffle import ShuffleResult

__all__ = ["Game", "IllegalMove", "natural_key", "natural_rank"]


class IllegalMove(ValueError):
    """A move that cannot be played now; the message says why."""


class Game:
    """A game in progress on ``board`` under ``rules``: the current position, the moves played
    since ``start`` (the board given), and the set of legal pairs kept up to date."""

    def __init__(self, board: Board, rules: Rules | None = None) -> None:
        from ..core.variant_support import refuse_variants

        self.rules = rules or Rules()
        # The live pair set assumes monotonicity and a flat board: refuse the variants.
        refuse_variants(board, self.rules, "the play engine (hint, shuffle, positions)")
        self.start = board
        lay = board.layout
        self._lay = lay
        self._stride = lay.stride
        self._width = board.width
        self._cells = list(board.cells)
        self._tiles = board.tile_count()
        self._moves: list[Move] = []
        #: The live pair set, with undo records.
        self._live = LiveLinks(board, self.rules, undo=True)

    # ----- the position -----------------------------------------------------------------------

    @property
    def board(self) -> Board:
        """The current position."""
        return Board(self._width, self.start.height, tuple(self._cells))

    @property
    def played(self) -> tuple[Move, ...]:
        """The moves played since ``start``, in order (with their paths at that moment)."""
        return tuple(self._moves)

    def is_won(self) -> bool:
        """True when no tile is left."""
        return not self._tiles

    def tile_count(self) -> int:
        return self._tiles

    # ----- the live move list -----------------------------------------------------------------

    def legal_pairs(self) -> list[tuple[Pos, Pos]]:
        """Every linkable pair now, as positions ``(a, b)`` with ``a`` first in reading order;
        sorted in reading order of ``a``, then ``b`` (no paths are built)."""
        pos = self._lay.pos
        return [(pos(a), pos(b)) for a, b in sorted(self._pair_set())]

    def pair_bits(self) -> frozenset[tuple[int, int]]:
        """The live set itself: pairs of bit indices ``(a, b)``, ``a < b``, in the padded
        layout of :mod:`levelgen.linkup.core.board` (what the property tests compare)."""
        return frozenset(self._pair_set())

    def _pair_set(self) -> list[tuple[int, int]]:
        """The live pairs ``(a, b)``, ``a < b``."""
        return self._live.pairs()

    def _is_pair(self, x: int, y: int) -> bool:
        return self._live.linked(x, y)

    def legal_moves(self) -> list[Move]:
        """Every legal move now with its exact best path, in reading order of the first tile,
        then the second (like :func:`levelgen.linkup.core.moves.legal_moves`)."""
        return [self._move(a, b) for a, b in self.legal_pairs()]

    def _move(self, a: Pos, b: Pos) -> Move:
        path = find_link(self._lay, self._live.free, a, b, self.rules)
        if path is None:  # pragma: no cover - the live set promised a link
            raise AssertionError(f"no path for live pair {a} {b}")
        return Move(a, b, self._cells[a.y * self._width + a.x], path)

    # ----- moves ------------------------------------------------------------------------------

    def check(self, a: Pos, b: Pos) -> str | None:
        """Why the move ``a``-``b`` cannot be played now, or None when it can."""
        a, b = Pos(*a), Pos(*b)
        for p in (a, b):
            if not (0 <= p.x < self._width and 0 <= p.y < self.start.height):
                return f"cell {p} is not on the {self._width}x{self.start.height} board"
        if a == b:
            return f"both cells are {a}"
        ka = self._cells[a.y * self._width + a.x]
        kb = self._cells[b.y * self._width + b.x]
        for p, value in ((a, ka), (b, kb)):
            if value < 1:
                return f"cell {p} is {'empty' if value == 0 else 'a wall'}"
        if ka != kb:
            return f"cells {a} and {b} hold different kinds {ka} and {kb}"
        x, y = self._lay.bit(*a), self._lay.bit(*b)
        if not self._is_pair(x, y):
            return (
                f"no path with at most {self.rules.max_turns} turns joins {a} and {b}"
                f"{'' if self.rules.outside else ' inside the board'}"
            )
        return None

    def checked(self, a: Pos, b: Pos) -> Move:
        """The move ``a``-``b`` with its best path now, without playing it.  ``IllegalMove``
        saying why when it is not legal now."""
        a, b = Pos(*a), Pos(*b)
        problem = self.check(a, b)
        if problem is not None:
            raise IllegalMove(problem)
        return self._move(a, b)

    def play(self, a: Pos, b: Pos) -> Move:
        """Remove the tiles at ``a`` and ``b``; returns the move with its best path.
        ``IllegalMove`` saying why when the move is not legal now."""
        move = self.checked(a, b)
        self._apply(move)
        return move

    def apply(self, move: Move) -> None:
        """Play ``move`` as given by :meth:`checked` or :meth:`legal_moves` at this position
        (its path is recorded as given).  ``IllegalMove`` when its cells are not a legal pair
        of its kind now."""
        a, b, stride = move.a, move.b, self._stride
        x = (a.y + 1) * stride + a.x + 1
        y = (b.y + 1) * stride + b.x + 1
        w, h = self._width, self.start.height
        inside = 0 <= a.x < w and 0 <= b.x < w and 0 <= a.y < h and 0 <= b.y < h
        if not inside or not self._is_pair(x, y):
            raise IllegalMove(self.check(a, b) or "not a legal pair now")
        kind = self._cells[a.y * self._width + a.x]
        if kind != move.kind:
            raise IllegalMove(f"the cells hold kind {kind}, not {move.kind}")
        self._apply(move)

    def play_all(self, moves: Iterable[tuple[Pos, Pos]]) -> None:
        """Play several moves in order (``IllegalMove`` at the first illegal one, the moves
        before it played)."""
        for a, b in moves:
            self.play(a, b)

    def _apply(self, move: Move) -> None:
        a, b, stride, w = move.a, move.b, self._stride, self._width
        self._live.remove((a.y + 1) * stride + a.x + 1, (b.y + 1) * stride + b.x + 1)
        self._cells[a.y * w + a.x] = self._cells[b.y * w + b.x] = 0
        self._tiles -= 2
        self._moves.append(move)

    def undo(self) -> Move:
        """Take back the last move; returns it.  ``IndexError`` when nothing was played."""
        if not self._moves:
            raise IndexError("no move to undo")
        move = self._moves.pop()
        self._live.undo()
        w = self._width
        self._cells[move.a.y * w + move.a.x] = self._cells[move.b.y * w + move.b.x] = move.kind
        self._tiles += 2
        return move

    # ----- hints and shuffles -----------------------------------------------------------------

    def hint(
        self,
        budget: Budget | None = None,
        *,
        method: str = "search",
        rival: RivalFactory | None = None,
    ) -> HintResult:
        """A safe move with the rest of a solution, ``won``, ``lost`` (with the reason, and
        which played move lost the game) or ``undecided`` within ``budget``: see
        :func:`levelgen.linkup.play.hint.hint`."""
        from .hint import hint

        return hint(self, budget, method=method, rival=rival)

    def shuffle(
        self, seed: int, *, min_moves: int = 1, budget: Budget | None = None
    ) -> ShuffleResult:
        """A solvable re-deal of the remaining tiles with its certificate: see
        :func:`levelgen.linkup.play.shuffle.shuffle`."""
        from .shuffle import shuffle

        return shuffle(self.board, self.rules, seed, min_moves=min_moves, budget=budget)
