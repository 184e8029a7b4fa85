"""Stacked layers: each cell holds a stack of tiles and only the top tile of a stack plays.

A layered board is a :class:`levelgen.linkup.core.board.Board` whose ``upper`` holds the layers
above ``cells`` (layer 0, where walls and holes are).  A cell's *height* is the number of tiles in
its stack; its top tile is on layer ``height - 1``.  Walls are full height: nothing stands on them
and no path crosses them.

The linking rule.  Two top tiles of one kind, ``a`` on layer ``i`` and ``b`` on layer ``j`` with
``|i - j| <= 1``, link through a path of at most ``max_turns`` turns that runs at height
``h = max(i, j)``: every interior cell of the path is a board cell whose stack is no higher than
``h`` (the path flies over lower stacks), or a ring cell when ``outside`` (the ring is free at
every height).  With one layer every tile is on layer 0, ``h = 0`` and the interior cells must
be empty: exactly the classic rule.

Why the classic machinery carries over.  For each height ``h`` let ``F[h]`` be the mask of
cells a path at height ``h`` may cross (board cells of height ``<= h``, the ring when
``outside``); ``F[0]`` is the classic free mask and ``F[0] ⊆ F[1] ⊆ ...``.  A link at height
``h`` is the classic question asked of ``F[h]`` (minus the two end cells, which a best path
never crosses: cutting a path at its first visit of ``b``, or from its last visit of ``a``,
gives one with no more turns and fewer steps), so :func:`levelgen.linkup.core.reach.linkable_mask`
and :func:`levelgen.linkup.core.paths.find_link` answer it unchanged.  Removing a tile lowers one
stack by one, so every ``F[h]`` only grows and each remaining tile stays on its layer: a link legal
now stays legal (monotonicity), and legality depends on the heights alone, never on kinds (occupancy
invariance).  Both facts of :mod:`levelgen.linkup.core.rules` hold, proved as there with "occupied
set" read as "heights".
"""

from __future__ import annotations

from dataclasses import dataclass

from .board import EMPTY, WALL, Board, Layout
from .geometry import Pos
from .paths import Path, find_link
from .reach import linkable_mask
from .rules import Rules

__all__ = [
    "MAX_LAYERS",
    "Stacks",
    "check_variant",
    "layer_count",
    "layered_tile_count",
]

#: The most layers a board may have.
MAX_LAYERS = 8


def layer_count(board: Board) -> int:
    """How many layers ``board`` has (1 for a classic board)."""
    return 1 + len(board.upper)


def layered_tile_count(board: Board) -> int:
    """Tiles on every layer of ``board``."""
    return board.tile_count() + sum(1 for layer in board.upper for v in layer if v >= 1)


def check_variant(board: Board, rules: Rules) -> None:
    """``ValueError`` when ``board`` and ``rules`` combine variants that may not combine (layers
    with sliding), or when the board has more than ``MAX_LAYERS`` layers."""
    if board.upper and rules.slide != "none":
        raise ValueError(
            f"a board with layers cannot use slide {rules.slide!r}: stacked layers and sliding"
            " tiles do not combine (use slide none, or one layer)"
        )
    if layer_count(board) > MAX_LAYERS:
        raise ValueError(f"the board has {layer_count(board)} layers; at most {MAX_LAYERS}")


@dataclass(slots=True)
class Stacks:
    """The mutable state of a layered board during play: per cell its stack of kinds (bottom
    first), and per height the bitboards the link queries need.

    ``free[h]`` (``h = 0 .. L``): cells a path at height ``h`` may cross (board cells whose
    stack is at most ``h`` high, plus the ring when ``outside``).  ``tops[i]``: cells whose top
    tile is on layer ``i``.  Changed in place by :meth:`remove`."""

    layout: Layout
    rules: Rules
    stacks: list[list[int]]
    free: list[int]
    tops: list[int]
    #: Caches kept up to date by :meth:`remove` (None: computed on the next call):
    #: :meth:`top_kind_masks` and :meth:`kind_counts`.
    kind_tops: dict[int, list[int]] | None = None
    counts: dict[int, int] | None = None

    @classmethod
    def of(cls, board: Board, rules: Rules) -> Stacks:
        """The stacks of ``board`` (classic or layered) under ``rules``."""
        lay = board.layout
        layers = [board.cells, *board.upper]
        n_layers = len(layers)
        stacks: list[list[int]] = []
        for i in range(board.width * board.height):
            stack = []
            for layer in layers:
                if layer[i] >= 1:
                    stack.append(layer[i])
                else:
                    break
            stacks.append(stack)
        ring = lay.ring_mask if rules.outside else 0
        free = [ring] * (n_layers + 1)
        tops = [0] * n_layers
        for i, v in enumerate(board.cells):
            if v == WALL:
                continue
            y, x = divmod(i, board.width)
            bit = 1 << lay.bit(x, y)
            height = len(stacks[i])
            for h in range(height, n_layers + 1):
                free[h] |= bit
            if height:
                tops[height - 1] |= bit
        return cls(lay, rules, stacks, free, tops)

    # ----- queries ------------------------------------------------------------------------------

    def height(self, pos: Pos) -> int:
        return len(self.stacks[pos.y * self.layout.width + pos.x])

    def top(self, pos: Pos) -> int:
        """The kind of the top tile at ``pos``, ``EMPTY`` for an empty stack, ``WALL``."""
        lay = self.layout
        stack = self.stacks[pos.y * lay.width + pos.x]
        if stack:
            return stack[-1]
        return EMPTY if (self.free[-1] >> lay.bit(pos.x, pos.y)) & 1 else WALL

    def tile_count(self) -> int:
        return sum(len(s) for s in self.stacks)

    def kind_counts(self) -> dict[int, int]:
        """Tiles left of each kind, on every layer (the state's own map: do not change it)."""
        if self.counts is None:
            counts: dict[int, int] = {}
            for stack in self.stacks:
                for kind in stack:
                    counts[kind] = counts.get(kind, 0) + 1
            self.counts = counts
        return self.counts

    def top_kind_masks(self) -> dict[int, list[int]]:
        """For each kind with a top tile, the masks of its top tiles by layer (the state's own
        map: do not change it; a kind whose tops are all gone may stay with empty masks)."""
        if self.kind_tops is not None:
            return self.kind_tops
        lay = self.layout
        out: dict[int, list[int]] = {}
        n_layers = len(self.tops)
        for i, stack in enumerate(self.stacks):
            if stack:
                y, x = divmod(i, lay.width)
                out.setdefault(stack[-1], [0] * n_layers)[len(stack) - 1] |= 1 << lay.bit(x, y)
        self.kind_tops = out
        return out

    def linkable_from(self, a_bit: int, layer: int, by_layer: list[int]) -> int:
        """The cells of ``by_layer`` (target masks by layer, e.g. one kind's tops) that the top
        tile at bit ``a_bit`` on ``layer`` links to: layers ``layer - 1`` and ``layer`` at height
        ``layer``, layer ``layer + 1`` at height ``layer + 1``."""
        src = 1 << a_bit
        k, stride = self.rules.max_turns, self.layout.stride
        same = by_layer[layer] & ~src
        if layer:
            same |= by_layer[layer - 1]
        above = by_layer[layer + 1] if layer + 1 < len(by_layer) else 0
        near = (src << 1) | (src >> 1) | (src << stride) | (src >> stride)
        if not near & self.free[layer + 1]:
            # No neighbour may be crossed at either height: only neighbours can be linked.
            return near & (same | above)
        hits = linkable_mask(src, self.free[layer], same, k, stride) if same else 0
        if above:
            hits |= linkable_mask(src, self.free[layer + 1] & ~src, above, k, stride)
        return hits

    def legal_pairs(self) -> list[tuple[int, int]]:
        """Every linkable pair of same-kind top tiles as bit indices ``(a, b)``, ``a < b``, kinds
        in increasing order and pairs in bit order inside a kind."""
        out: list[tuple[int, int]] = []
        for _kind, by_layer in sorted(self.top_kind_masks().items()):
            for layer, mask in enumerate(by_layer):
                rest = mask
                while rest:
                    low = rest & -rest
                    rest ^= low
                    a = low.bit_length() - 1
                    hits = self.linkable_from(a, layer, by_layer) & ~((2 << a) - 1)
                    while hits:
                        hb = hits & -hits
                        hits ^= hb
                        out.append((a, hb.bit_length() - 1))
        return out

    def move_count(self) -> int:
        """The number of legal moves now."""
        return len(self.legal_pairs())

    def link_height(self, a: Pos, b: Pos) -> int | None:
        """The height a path between the tops at ``a`` and ``b`` runs at, or None when their
        layers are more than one apart (or a stack is empty)."""
        ha, hb = self.height(a), self.height(b)
        if not ha or not hb or abs(ha - hb) > 1:
            return None
        return max(ha, hb) - 1

    def find_path(self, a: Pos, b: Pos) -> Path | None:
        """The best path between the top tiles at ``a`` and ``b`` (kinds not checked), or None
        when they do not link."""
        h = self.link_height(a, b)
        if h is None or a == b:
            return None
        lay = self.layout
        ends = 1 << lay.bit(a.x, a.y) | 1 << lay.bit(b.x, b.y)
        return find_link(lay, self.free[h] & ~ends, a, b, self.rules)

    def path_problem(self, path: Path) -> str | None:
        """Why ``path`` (ends on board cells, holding top tiles of one kind: checked by the
        caller) is not a legal link now, or None.  Checked cell by cell, no path finder."""
        h = self.link_height(path.a, path.b)
        if h is None:
            return (
                f"the tiles at {path.a} (layer {self.height(path.a) - 1}) and {path.b} (layer"
                f" {self.height(path.b) - 1}) are more than one layer apart"
            )
        if path.turns > self.rules.max_turns:
            return f"the path turns {path.turns} times; the rules allow {self.rules.max_turns}"
        lay = self.layout
        for c in path.cells()[1:-1]:
            if lay.is_inside(c.x, c.y):
                i = c.y * lay.width + c.x
                if not (self.free[-1] >> lay.bit(c.x, c.y)) & 1:
                    return f"the path crosses {c}, which holds a wall"
                if len(self.stacks[i]) > h:
                    return (
                        f"the path crosses {c}, whose stack of {len(self.stacks[i])} is higher"
                        f" than the path's height {h} (layer {h})"
                    )
            elif not lay.is_on_padded(c.x, c.y):
                return f"the path leaves the board and its ring at {c}"
            elif not self.rules.outside:
                return f"the path uses the ring cell {c} but the rules do not allow outside paths"
        return None

    # ----- changes ------------------------------------------------------------------------------

    def remove(self, pos: Pos) -> None:
        """Take the top tile off the stack at ``pos`` (which must have one)."""
        lay = self.layout
        stack = self.stacks[pos.y * lay.width + pos.x]
        height = len(stack)
        kind = stack.pop()
        bit = 1 << lay.bit(pos.x, pos.y)
        self.free[height - 1] |= bit
        self.tops[height - 1] &= ~bit
        if height > 1:
            self.tops[height - 2] |= bit
        if self.counts is not None:
            self.counts[kind] -= 1
        kind_tops = self.kind_tops
        if kind_tops is not None:
            kind_tops[kind][height - 1] &= ~bit
            if height > 1:
                below = kind_tops.setdefault(stack[-1], [0] * len(self.tops))
                below[height - 2] |= bit

    def copy(self) -> Stacks:
        return Stacks(
            self.layout,
            self.rules,
            [list(s) for s in self.stacks],
            list(self.free),
            list(self.tops),
            None if self.kind_tops is None else {k: list(v) for k, v in self.kind_tops.items()},
            None if self.counts is None else dict(self.counts),
        )

    def to_board(self) -> Board:
        """The board of this moment (walls and holes as in layer 0; layers left empty at the
        top are dropped)."""
        lay = self.layout
        n_layers = len(self.tops)
        grids = [[EMPTY] * (lay.width * lay.height) for _ in range(n_layers)]
        for i, stack in enumerate(self.stacks):
            y, x = divmod(i, lay.width)
            if not stack and not (self.free[-1] >> lay.bit(x, y)) & 1:
                grids[0][i] = WALL
            for layer, kind in enumerate(stack):
                grids[layer][i] = kind
        while len(grids) > 1 and not any(v >= 1 for v in grids[-1]):
            grids.pop()
        return Board(lay.width, lay.height, tuple(grids[0]), tuple(tuple(g) for g in grids[1:]))

    def remove_pair(self, a: Pos, b: Pos) -> None:
        """Take the top tiles off the stacks at ``a`` and ``b``."""
        self.remove(a)
        self.remove(b)

    def key(self) -> tuple[int, ...]:
        """The stack heights, row-major: with the board they fix the state (a memo key)."""
        return tuple(len(s) for s in self.stacks)
