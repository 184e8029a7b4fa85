"""Moves: removing two linked tiles of one kind, and the legal moves of a board.

``Move`` is the value written to level files (two cells, the kind, the exact best path).  The
mask-level helpers (``legal_pairs``) are what the solver and generator use inside hot loops; a
move there is just the pair of bit indices and applying it is ``occupied ^ (1 << a | 1 << b)``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .board import Board, Layout, iter_bits
from .geometry import Pos
from .paths import Path, find_path
from .reach import link_hits
from .rules import Rules

__all__ = ["Move", "apply_move", "legal_moves", "legal_pairs", "move_bits"]


@dataclass(frozen=True, slots=True)
class Move:
    """Remove the tiles at ``a`` and ``b`` (of ``kind``), linked by ``path``."""

    a: Pos
    b: Pos
    kind: int
    path: Path


def move_bits(layout: Layout, moves: Sequence[Move]) -> list[tuple[int, int]]:
    """``moves`` as the bit pairs of ``layout`` that the mask-level code plays (the inverse of
    :func:`levelgen.linkup.solvers.common.build_moves`)."""
    return [(layout.bit(m.a.x, m.a.y), layout.bit(m.b.x, m.b.y)) for m in moves]


def legal_pairs(
    kind_masks: Iterable[int], free: int, max_turns: int, stride: int
) -> list[tuple[int, int]]:
    """Every linkable same-kind pair as bit indices ``(a, b)`` with ``a < b``, kinds in the
    given order and pairs in bit order inside a kind.

    Only *exposed* tiles (with a free neighbour) are asked with the reachability fill: a path
    with an interior leaves its first tile through a free neighbour and enters its last tile
    from one, so a tile with no free neighbour links exactly to its same-kind neighbours, and
    an exposed tile to its same-kind neighbours and to some of the other exposed tiles of its
    kind.  When that leaves only neighbours to ask about, no fill is needed either."""
    masks = list(kind_masks)
    occupied = 0
    for mask in masks:
        occupied |= mask
    exposed = occupied & ((free << 1) | (free >> 1) | (free << stride) | (free >> stride))
    out: list[tuple[int, int]] = []
    for mask in masks:
        rest = mask
        while rest:
            low = rest & -rest
            rest ^= low
            if not rest:
                break
            near = ((low << 1) | (low >> 1) | (low << stride) | (low >> stride)) & rest
            if low & exposed:
                far = rest & exposed & ~near
                hit = link_hits(low, free, far | near, max_turns, stride) if far else near
            else:
                hit = near
            if hit:
                a = low.bit_length() - 1
                out.extend((a, b) for b in iter_bits(hit))
    return out


def legal_moves(board: Board, rules: Rules) -> list[Move]:
    """All moves legal on ``board`` now, with exact best paths; ordered by the first tile in
    row order, then the second."""
    lay = board.layout
    pairs = legal_pairs(
        board.kind_masks().values(), board.free_mask(rules.outside), rules.max_turns, lay.stride
    )
    moves = []
    for a_bit, b_bit in pairs:
        a, b = lay.pos(a_bit), lay.pos(b_bit)
        path = find_path(board, a, b, rules)
        if path is None:  # pragma: no cover - legal_pairs promised a link
            raise AssertionError(f"no path for linkable pair {a} {b}")
        moves.append(Move(a, b, board[a], path))
    moves.sort(key=lambda m: (m.a.y, m.a.x, m.b.y, m.b.x))
    return moves


def apply_move(board: Board, move: Move) -> Board:
    """The board after ``move`` (no legality check: see :mod:`levelgen.linkup.verify`)."""
    return board.without(move.a, move.b)
