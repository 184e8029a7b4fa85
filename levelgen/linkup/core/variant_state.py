"""The playing state of a variant board, one interface for replay, metrics, solvers, generator.

Two implementations share the methods replay and the solvers call: :class:`SlidingState`
(classic cells plus the slide of :mod:`levelgen.linkup.core.slide` after every removal) and
:class:`levelgen.linkup.core.layers.Stacks` (stacked layers).  Both answer in the coordinates of the
moment: a step's cells and path are given in the positions the tiles have *now*, after the
slides of the earlier steps.

``SlidingState`` recomputes its bitboards after each removal (a slide may move every tile), so
a removal costs one pass over the cells; links and best paths are the classic ones
(:mod:`levelgen.linkup.core.reach`, :mod:`levelgen.linkup.core.paths`) asked of the current free
mask.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from .board import WALL, Board, Layout
from .geometry import Pos
from .layers import Stacks, check_variant
from .moves import legal_pairs
from .paths import Path, find_link, path_problem
from .reach import linkable_mask
from .rules import Rules
from .slide import slide_after_removal, slide_cells
from .variant_support import is_variant

__all__ = ["SlidingState", "VariantState", "is_variant", "state_of"]


@dataclass(slots=True)
class SlidingState:
    """Cells (row-major; kinds, or identities: the slide never looks at values) under a
    sliding rule, with the padded masks of the moment.  Changed in place by
    :meth:`remove_pair`.  ``at_rest``: no tile would move (true after the first slide; a board
    as given may have tiles that will fall), which lets a removal repack only the segments
    through the removed cells (:func:`levelgen.linkup.core.slide.slide_after_removal`)."""

    layout: Layout
    rules: Rules
    cells: list[int]
    walls: tuple[int, ...] = ()
    free: int = 0
    occupied: int = 0
    at_rest: bool = False
    #: The kind masks of :meth:`kind_masks`, kept up to date by :meth:`remove_pair` (None:
    #: computed on the next call).
    kinds: dict[int, int] | None = None

    @classmethod
    def of(cls, board: Board, rules: Rules) -> SlidingState:
        walls = tuple(i for i, v in enumerate(board.cells) if v == WALL)
        state = cls(board.layout, rules, list(board.cells), walls)
        state._masks()
        return state

    def _masks(self) -> None:
        lay = self.layout
        cell_bits = _cell_bits(lay.width, lay.height)
        occ = empty = 0
        for i, v in enumerate(self.cells):
            if v != WALL:
                bit = cell_bits[i]
                if v:
                    occ |= bit
                else:
                    empty |= bit
        self.occupied = occ
        self.free = lay.free_mask(empty, self.rules.outside)

    # ----- queries ------------------------------------------------------------------------------

    def top(self, pos: Pos) -> int:
        """The value at ``pos`` (a kind, ``EMPTY`` or ``WALL``)."""
        return self.cells[pos.y * self.layout.width + pos.x]

    def tile_count(self) -> int:
        return sum(1 for v in self.cells if v >= 1)

    def kind_masks(self) -> dict[int, int]:
        """For each kind present, the bits of its tiles (the state's own map: do not change
        it)."""
        if self.kinds is not None:
            return self.kinds
        lay = self.layout
        cell_bits = _cell_bits(lay.width, lay.height)
        masks: dict[int, int] = {}
        get = masks.get
        for i, v in enumerate(self.cells):
            if v > 0:
                masks[v] = get(v, 0) | cell_bits[i]
        self.kinds = masks
        return masks

    def legal_pairs(self) -> list[tuple[int, int]]:
        """Every linkable same-kind pair now, as bit indices ``(a, b)`` with ``a < b``."""
        masks = self.kind_masks()
        return legal_pairs(
            [masks[k] for k in sorted(masks)], self.free, self.rules.max_turns, self.layout.stride
        )

    def move_count(self) -> int:
        """The number of legal moves now (``len(legal_pairs())``, faster: a tile with no free
        neighbour can only link to a neighbour)."""
        free, k, stride = self.free, self.rules.max_turns, self.layout.stride
        # Only a tile next to a free cell can be the far end of a path of some length.
        reachable = (free << 1) | (free >> 1) | (free << stride) | (free >> stride)
        total = 0
        for mask in self.kind_masks().values():
            rest = mask
            while rest:
                low = rest & -rest
                rest ^= low
                if not rest:
                    break
                near = (low << 1) | (low >> 1) | (low << stride) | (low >> stride)
                targets = rest & (reachable | near)
                if near & free and targets & ~near:
                    total += linkable_mask(low, free, targets, k, stride).bit_count()
                else:
                    total += (near & rest).bit_count()
        return total

    def find_path(self, a: Pos, b: Pos) -> Path | None:
        """The best path between the cells ``a`` and ``b`` now (kinds not checked)."""
        return find_link(self.layout, self.free, a, b, self.rules)

    def path_problem(self, path: Path) -> str | None:
        """Why ``path`` is not a legal link now, or None (checked cell by cell)."""
        lay = self.layout
        stride, free = lay.stride, self.free
        if path.turns <= self.rules.max_turns and all(
            lay.is_on_padded(c.x, c.y) and (free >> ((c.y + 1) * stride + c.x + 1)) & 1
            for c in path.cells()[1:-1]
        ):
            return None
        return path_problem(Board(lay.width, lay.height, tuple(self.cells)), path, self.rules)

    def key(self) -> tuple[int, ...]:
        """The state for a memo: every cell's value (positions matter under sliding)."""
        return tuple(self.cells)

    # ----- changes ------------------------------------------------------------------------------

    def to_board(self) -> Board:
        """The board of this moment."""
        return Board(self.layout.width, self.layout.height, tuple(self.cells))

    def copy(self) -> SlidingState:
        return SlidingState(
            self.layout,
            self.rules,
            list(self.cells),
            self.walls,
            self.free,
            self.occupied,
            self.at_rest,
            None if self.kinds is None else dict(self.kinds),
        )

    def remove_pair(self, a: Pos, b: Pos) -> None:
        """Remove the tiles at ``a`` and ``b``, then let every tile slide."""
        lay = self.layout
        w = lay.width
        ia, ib = a.y * w + a.x, b.y * w + b.x
        cells = self.cells
        cell_bits = _cell_bits(w, lay.height)
        kinds = self.kinds
        if kinds is not None:
            for i in (ia, ib):
                kind = cells[i]
                if kind > 0:
                    left = kinds[kind] & ~cell_bits[i]
                    if left:
                        kinds[kind] = left
                    else:
                        del kinds[kind]
        cells[ia] = cells[ib] = 0
        if not self.at_rest:
            self.cells = slide_cells(cells, w, lay.height, self.rules.slide)
            self.at_rest = True
            self.kinds = None
            self._masks()
            return
        new, changed = slide_after_removal(
            cells, w, lay.height, self.rules.slide, (ia, ib), self.walls
        )
        self.cells = new
        if changed is None:
            self.kinds = None
            self._masks()
            return
        occ, free = self.occupied, self.free
        for i in (ia, ib, *changed):
            bit = cell_bits[i]
            before, after = cells[i], new[i]
            if after:
                occ |= bit
                free &= ~bit
            else:
                occ &= ~bit
                free |= bit
            if kinds is not None and before != after:
                if before > 0:
                    kinds[before] &= ~bit
                if after > 0:
                    kinds[after] = kinds.get(after, 0) | bit
        self.occupied, self.free = occ, free


VariantState = SlidingState | Stacks


def state_of(board: Board, rules: Rules) -> VariantState:
    """The playing state of a variant ``board``: ``Stacks`` for layers, ``SlidingState`` for a
    sliding rule.  ``ValueError`` for a combination that is not allowed."""
    check_variant(board, rules)
    if board.upper:
        return Stacks.of(board, rules)
    return SlidingState.of(board, rules)


@lru_cache(maxsize=256)
def _cell_bits(width: int, height: int) -> tuple[int, ...]:
    """``1 << bit`` of every board cell in row-major order (the padded layout's bits)."""
    stride = width + 3
    return tuple(1 << ((i // width + 1) * stride + i % width + 1) for i in range(width * height))
