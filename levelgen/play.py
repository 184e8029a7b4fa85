"""A game in progress: the live move list, moves and undo, safe hints and a solvable shuffle.

``Game(board, rules)`` holds the current position of a game and the moves played since the
start.  It is pure (no I/O, no clock, no global random): budgets and seeds are passed in.

The live move list.  The set of linkable same-kind pairs is kept up to date after each move
instead of being recomputed.  Without gravity a removal only adds links (monotonicity, see
:mod:`levelgen.rules`), and a new link must run through one of the two freed cells.  Both ends
of such a link then reach a freed cell, one with ``j <= max_turns // 2`` turns and the other
with at most ``max_turns - j``, so they are among the tiles a path from the freed cells reaches
(one bit-parallel fill from both cells at once, level by level, as in :mod:`levelgen.playout`);
only the first are asked again, only about the second, and only about tiles of their kind they
do not link to yet.  The pairs of the two removed tiles leave the set.  Each move records what
it took out and put in, so ``undo()`` restores the set exactly.

Hints (:meth:`Game.hint`, see :mod:`levelgen.play_hint`) and shuffles (:meth:`Game.shuffle`,
see :mod:`levelgen.play_shuffle`) work on the current position; a hint of a lost game also
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
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .board import Board, iter_bits
from .geometry import Pos
from .moves import Move, legal_pairs
from .natural import natural_key, natural_rank
from .paths import find_link
from .reach import link_hits, link_hits_by_level
from .rules import Rules

if TYPE_CHECKING:
    from .play_hint import HintResult
    from .play_shuffle import ShuffleResult
    from .solvers import Budget

__all__ = ["Game", "IllegalMove", "natural_key", "natural_rank"]


class IllegalMove(ValueError):
    """A move that cannot be played now; the message says why."""


@dataclass(slots=True)
class _Step:
    """One played move and how it changed the live pair set."""

    move: Move
    lost: list[tuple[int, int]]
    gained: list[tuple[int, int]] = field(default_factory=list)


class Game:
    """A game in progress on ``board`` under ``rules``: the current position, the moves played
    since ``start`` (the board given), and the set of legal pairs kept up to date."""

    def __init__(self, board: Board, rules: Rules | None = None) -> None:
        from .variant_support import refuse_variants

        self.rules = rules or Rules()
        # The live pair set assumes monotonicity and a flat board: refuse the variants.
        refuse_variants(board, self.rules, "the play engine (hint, shuffle, positions)")
        self.start = board
        lay = board.layout
        self._lay = lay
        self._stride = lay.stride
        self._width = board.width
        size = (board.height + 2) * lay.stride
        self._kind_at = [0] * size
        self._kinds: dict[int, int] = board.kind_masks()
        for kind, mask in self._kinds.items():
            for b in iter_bits(mask):
                self._kind_at[b] = kind
        self._cells = list(board.cells)
        self._occupied = board.occupied_mask()
        self._free = board.free_mask(self.rules.outside)
        self._steps: list[_Step] = []
        #: For each tile with a link, the mask of the tiles it links to: the live pair set
        #: (each pair in both ends' masks).
        self._partners: dict[int, int] = {}
        for a, b in legal_pairs(
            self._kinds.values(), self._free, self.rules.max_turns, self._stride
        ):
            self._partners[a] = self._partners.get(a, 0) | (1 << b)
            self._partners[b] = self._partners.get(b, 0) | (1 << a)

    # ----- the position -----------------------------------------------------------------------

    @property
    def board(self) -> Board:
        """The current position."""
        return Board(self._width, self.start.height, tuple(self._cells))

    @property
    def played(self) -> tuple[Move, ...]:
        """The moves played since ``start``, in order (with their paths at that moment)."""
        return tuple(s.move for s in self._steps)

    def is_won(self) -> bool:
        """True when no tile is left."""
        return not self._occupied

    def tile_count(self) -> int:
        return self._occupied.bit_count()

    # ----- the live move list -----------------------------------------------------------------

    def legal_pairs(self) -> list[tuple[Pos, Pos]]:
        """Every linkable pair now, as positions ``(a, b)`` with ``a`` first in reading order;
        sorted in reading order of ``a``, then ``b`` (no paths are built)."""
        pos = self._lay.pos
        return [(pos(a), pos(b)) for a, b in sorted(self._pair_set())]

    def pair_bits(self) -> frozenset[tuple[int, int]]:
        """The live set itself: pairs of bit indices ``(a, b)``, ``a < b``, in the padded
        layout of :mod:`levelgen.board` (what the property tests compare)."""
        return frozenset(self._pair_set())

    def _pair_set(self) -> list[tuple[int, int]]:
        """The live pairs ``(a, b)``, ``a < b``, read off the partner masks."""
        out = []
        for a, mask in self._partners.items():
            later = mask >> (a + 1)
            while later:
                low = later & -later
                later ^= low
                out.append((a, a + low.bit_length()))
        return out

    def _is_pair(self, x: int, y: int) -> bool:
        return bool(self._partners.get(x, 0) >> y & 1)

    def legal_moves(self) -> list[Move]:
        """Every legal move now with its exact best path, in reading order of the first tile,
        then the second (like :func:`levelgen.moves.legal_moves`)."""
        return [self._move(a, b) for a, b in self.legal_pairs()]

    def _move(self, a: Pos, b: Pos) -> Move:
        path = find_link(self._lay, self._free, a, b, self.rules)
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
        inside = 0 <= a.x < self._width and 0 <= b.x < self._width
        if not inside or not self._is_pair(x, y):
            raise IllegalMove(self.check(a, b) or "not a legal pair now")
        if self._kind_at[x] != move.kind:
            raise IllegalMove(f"the cells hold kind {self._kind_at[x]}, not {move.kind}")
        self._apply(move)

    def play_all(self, moves: Iterable[tuple[Pos, Pos]]) -> None:
        """Play several moves in order (``IllegalMove`` at the first illegal one, the moves
        before it played)."""
        for a, b in moves:
            self.play(a, b)

    def _apply(self, move: Move) -> None:
        stride, k = self._stride, self.rules.max_turns
        a_pos, b_pos = move.a, move.b
        x = (a_pos.y + 1) * stride + a_pos.x + 1
        y = (b_pos.y + 1) * stride + b_pos.x + 1
        pair = (1 << x) | (1 << y)
        partners = self._partners
        lost = [(x, y) if x < y else (y, x)]  # a legal move is a live pair
        for end in (x, y):
            bit = 1 << end
            others = partners.pop(end, 0) & ~pair
            while others:
                low = others & -others
                others ^= low
                other = low.bit_length() - 1
                lost.append((end, other) if end < other else (other, end))
                partners[other] &= ~bit
        gained: list[tuple[int, int]] = []
        self._steps.append(_Step(move, lost, gained))
        kind_at, kinds = self._kind_at, self._kinds
        kind = kind_at[x]
        left = kinds[kind] ^ pair
        if left:
            kinds[kind] = left
        else:
            del kinds[kind]
        kind_at[x] = kind_at[y] = 0
        w = self._width
        self._cells[a_pos.y * w + a_pos.x] = self._cells[b_pos.y * w + b_pos.x] = 0
        occ = self._occupied = self._occupied ^ pair
        free = self._free = self._free | pair
        if not occ:
            return
        # A new link runs through a freed cell; its two halves have at most k turns together.
        # So one end reaches a freed cell with j <= k // 2 turns (and no fewer), and the other
        # with at most k - j: only the first are asked, and only about the second.
        # Every cell of such a link is reached from a freed cell with at most k turns: the
        # links are asked with only those cells free (the fills stay small).
        near, reach = link_hits_by_level(pair, free, occ, k, stride)
        inner = reach | pair
        top = near[k]
        rest = near[k // 2]
        while rest:
            low = rest & -rest
            rest ^= low
            a = low.bit_length() - 1
            mates = partners.get(a, 0)
            targets = kinds[kind_at[a]] & top & ~low & ~mates
            if not targets:
                continue
            j = 0
            while not near[j] & low:
                j += 1
            if j:
                # Partners reaching a freed cell with fewer turns asked about this tile.
                targets &= near[k - j] & ~near[j - 1]
                if not targets:
                    continue
            hits = link_hits(low, inner, targets, k, stride)
            if not hits:
                continue
            partners[a] = mates | hits
            while hits:
                bit = hits & -hits
                hits ^= bit
                b = bit.bit_length() - 1
                gained.append((a, b) if a < b else (b, a))
                partners[b] = partners.get(b, 0) | low

    def undo(self) -> Move:
        """Take back the last move; returns it.  ``IndexError`` when nothing was played."""
        if not self._steps:
            raise IndexError("no move to undo")
        step = self._steps.pop()
        move = step.move
        lay = self._lay
        x, y = lay.bit(*move.a), lay.bit(*move.b)
        pair = (1 << x) | (1 << y)
        self._kinds[move.kind] = self._kinds.get(move.kind, 0) | pair
        self._kind_at[x] = self._kind_at[y] = move.kind
        w = self._width
        self._cells[move.a.y * w + move.a.x] = self._cells[move.b.y * w + move.b.x] = move.kind
        self._occupied |= pair
        self._free &= ~pair
        partners = self._partners
        for a, b in step.gained:
            partners[a] &= ~(1 << b)
            partners[b] &= ~(1 << a)
        for a, b in step.lost:
            partners[a] = partners.get(a, 0) | (1 << b)
            partners[b] = partners.get(b, 0) | (1 << a)
        return move

    # ----- hints and shuffles -----------------------------------------------------------------

    def hint(self, budget: Budget | None = None, *, method: str = "search") -> HintResult:
        """A safe move with the rest of a solution, ``won``, ``lost`` (with the reason, and
        which played move lost the game) or ``undecided`` within ``budget``: see
        :func:`levelgen.play_hint.hint`."""
        from .play_hint import hint

        return hint(self, budget, method=method)

    def shuffle(
        self, seed: int, *, min_moves: int = 1, budget: Budget | None = None
    ) -> ShuffleResult:
        """A solvable re-deal of the remaining tiles with its certificate: see
        :func:`levelgen.play_shuffle.shuffle`."""
        from .play_shuffle import shuffle

        return shuffle(self.board, self.rules, seed, min_moves=min_moves, budget=budget)
