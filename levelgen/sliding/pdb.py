"""Additive disjoint pattern databases (Korf and Felner), for numbered and colour puzzles alike.

A *pattern* is a group of tile classes; its *placement* in a frame is where its tiles are, the
other tiles being "don't care".  The pattern database of a pattern gives, for every placement,
the fewest moves *of the pattern's own tiles* that bring them to their goal cells, the blank
free to wander through the don't-care cells at no cost.  Moves of different patterns' tiles are
different moves, so the values of disjoint patterns add up to a lower bound on the whole
solution (Korf and Felner, *Disjoint pattern database heuristics*, AIJ 134, 2002): the
*additive* heuristic.  A numbered puzzle's patterns are groups of up to six tiles (a 4x4 board:
6 + 6 + 3); a colour puzzle's are groups of colours, tiles of a colour interchangeable, so a
colour of five tiles on 16 cells has only C(16, 5) = 4,368 placements.  A class too large for
a table of ``cap`` entries is bounded instead by its *crossing count* (see
:mod:`levelgen.sliding.heuristics`), the rest of the tiles by their patterns.

Placements are ranked without gaps, so a table is exactly as long as the number of placements:
the cells of a pattern's first class are ranked as a combination of the W*H cells (the
combinatorial number system), the cells of the second as a combination of the cells the first
left, and so on, and the ranks are joined in mixed radix.  A pattern of singleton classes gets
the familiar rank of a partial permutation, ``W*H * (W*H - 1) * ...`` entries.

Building a table is a breadth-first search from the goal placement in the space of
(placement, blank region): the blank's exact cell does not matter while it moves through
don't-care cells for free, only which connected region of non-pattern cells it is in, named by
the region's lowest cell.  Every state is found at the fewest pattern moves that reach it, so
the first time a placement is seen is its value.  :func:`build_table` is the reference, in
Python; the compiled twin (``levelgen.sliding._native.build_table``) gives the same bytes, and
tests compare the two.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import comb

from .encoding import Encoding

__all__ = [
    "BINOMIAL",
    "Pattern",
    "TablesStopped",
    "build_table",
    "choose_patterns",
    "flood",
    "make_pattern",
    "neighbour_masks",
    "rank",
    "unrank",
]

#: ``BINOMIAL[n][k]`` for 0 <= k <= n <= 64.
BINOMIAL = [[comb(n, k) for k in range(65)] for n in range(65)]
#: The entries of a table of six tiles on 16 cells: Korf and Felner's split of a numbered 4x4
#: board needs a cap of at least this.
SIX_OF_SIXTEEN = 5_765_760
#: The entries of a table of six tiles on 25 cells (127,512,000): Korf and Felner's 6-6-6-6
#: split of a numbered 5x5 board needs a cap of at least this.
SIX_OF_TWENTY_FIVE = 127_512_000
#: A table value that saturates (a placement farther than this is stored as this: still a
#: lower bound).
MAX_VALUE = 255


class TablesStopped(Exception):
    """The budget's ``should_stop`` said to stop while a table was being built (nothing of it
    was kept)."""


@dataclass(frozen=True, slots=True)
class Pattern:
    """A group of classes tabulated together: ``classes`` in ranking order and how many tiles
    each has (``counts``), on a board of ``cells`` cells.  ``radices[j]`` is the number of
    ways to place class ``j`` once the classes before it are placed; ``entries`` their
    product, the length of the table."""

    classes: tuple[int, ...]
    counts: tuple[int, ...]
    cells: int
    radices: tuple[int, ...]
    entries: int


def make_pattern(classes: Sequence[int], counts: Sequence[int], cells: int) -> Pattern:
    """The pattern of ``classes`` (with ``counts`` tiles each) on ``cells`` cells."""
    radices = []
    free = cells
    for n in counts:
        radices.append(BINOMIAL[free][n])
        free -= n
    entries = 1
    for r in radices:
        entries *= r
    return Pattern(tuple(classes), tuple(counts), cells, tuple(radices), entries)


def rank(pattern: Pattern, masks: Sequence[int]) -> int:
    """The index of a placement: ``masks[j]``, the cells of the pattern's class ``j`` as a bit
    mask (bit ``i`` for cell ``i``)."""
    index = 0
    used = 0
    for j, mask in enumerate(masks):
        r = 0
        t = 0
        m = mask
        while m:
            low = m & -m
            p = low.bit_length() - 1
            t += 1
            compact = p - (used & (low - 1)).bit_count()
            r += BINOMIAL[compact][t]
            m ^= low
        index = index * pattern.radices[j] + r
        used |= mask
    return index


def unrank(pattern: Pattern, index: int) -> list[int]:
    """The placement of index ``index``: the cell mask of each class (the inverse of
    :func:`rank`)."""
    digits = [0] * len(pattern.radices)
    for j in range(len(pattern.radices) - 1, -1, -1):
        index, digits[j] = divmod(index, pattern.radices[j])
    masks = []
    used = 0
    for j, n in enumerate(pattern.counts):
        r = digits[j]
        compact = []
        for t in range(n, 0, -1):
            p = t - 1
            while BINOMIAL[p + 1][t] <= r:
                p += 1
            r -= BINOMIAL[p][t]
            compact.append(p)
        mask = 0
        for c in compact:
            # The cell that is the c-th (from 0) among the cells not in `used`.
            cell = -1
            seen = -1
            while seen < c:
                cell += 1
                if not (used >> cell) & 1:
                    seen += 1
            mask |= 1 << cell
        masks.append(mask)
        used |= mask
    return masks


def neighbour_masks(width: int, height: int) -> list[int]:
    """For each cell, the mask of its (up to four) neighbouring cells."""
    out = []
    for i in range(width * height):
        x, y = i % width, i // width
        m = 0
        if y > 0:
            m |= 1 << (i - width)
        if y < height - 1:
            m |= 1 << (i + width)
        if x > 0:
            m |= 1 << (i - 1)
        if x < width - 1:
            m |= 1 << (i + 1)
        out.append(m)
    return out


def flood(cell: int, blocked: int, neighbours: Sequence[int]) -> int:
    """The mask of the cells connected to ``cell`` through cells not in ``blocked``."""
    region = 1 << cell
    todo = region
    while todo:
        low = todo & -todo
        todo ^= low
        grow = neighbours[low.bit_length() - 1] & ~blocked & ~region
        region |= grow
        todo |= grow
    return region


def build_table(width: int, height: int, goal: bytes, pattern: Pattern) -> bytes:
    """The pattern database of ``pattern`` for the goal ``goal`` (classes per cell, 0 the
    blank): one byte per placement index, the fewest moves of the pattern's tiles from that
    placement to the goal's (see the module docstring)."""
    cells = width * height
    neighbours = neighbour_masks(width, height)
    masks = [0] * len(pattern.classes)
    position = {c: j for j, c in enumerate(pattern.classes)}
    for i, c in enumerate(goal):
        if c in position:
            masks[position[c]] |= 1 << i
    occupied = 0
    for m in masks:
        occupied |= m
    region = flood(goal.index(0), occupied, neighbours)
    start = rank(pattern, masks) * cells + ((region & -region).bit_length() - 1)
    table = bytearray([MAX_VALUE]) * pattern.entries
    table[start // cells] = 0
    seen = {start}
    frontier = [start]
    depth = 0
    while frontier:
        depth += 1
        value = min(depth, MAX_VALUE)
        following = []
        for state in frontier:
            index, rep = divmod(state, cells)
            masks = unrank(pattern, index)
            occupied = 0
            for m in masks:
                occupied |= m
            region = flood(rep, occupied, neighbours)
            for j, mask in enumerate(masks):
                m = mask
                while m:
                    low = m & -m
                    m ^= low
                    q = low.bit_length() - 1
                    targets = neighbours[q] & region
                    while targets:
                        target = targets & -targets
                        targets ^= target
                        moved = masks.copy()
                        moved[j] = mask ^ low ^ target
                        after = occupied ^ low ^ target
                        new_region = flood(q, after, neighbours)
                        new_state = rank(pattern, moved) * cells + (
                            (new_region & -new_region).bit_length() - 1
                        )
                        if new_state in seen:
                            continue
                        seen.add(new_state)
                        following.append(new_state)
                        new_index = new_state // cells
                        if table[new_index] == MAX_VALUE and value < MAX_VALUE:
                            table[new_index] = value
        frontier = following
    return bytes(table)


def choose_patterns(encoding: Encoding, cap: int) -> tuple[list[Pattern], list[int]]:
    """How to split a puzzle's classes: patterns of consecutive classes (in goal reading
    order), each as large as a table of at most ``cap`` entries allows, and the classes too
    large for any table (bounded by their crossing counts).  A numbered 4x4 board gets Korf
    and Felner's 6-6-3 split instead when ``cap`` allows its tables (:data:`SIX_OF_SIXTEEN`
    entries)."""
    cells = encoding.size
    classes = list(range(1, encoding.classes + 1))
    counts = encoding.counts
    special = _special_split(encoding, cap)
    if special is not None:
        return [make_pattern(g, [1] * len(g), cells) for g in special], []
    patterns: list[Pattern] = []
    crossing: list[int] = []
    group: list[int] = []
    for c in classes:
        if make_pattern([c], [counts[c]], cells).entries > cap:
            crossing.append(c)
            continue
        wider = [*group, c]
        trial = make_pattern(wider, [counts[k] for k in wider], cells)
        if group and trial.entries > cap:
            patterns.append(make_pattern(group, [counts[k] for k in group], cells))
            group = [c]
        else:
            group.append(c)
    if group:
        patterns.append(make_pattern(group, [counts[k] for k in group], cells))
    return patterns, crossing


#: Korf and Felner's 6-6-3 split of the 15-puzzle whose goal has the blank in the top left
#: cell, as goal cells: the two left columns (and the bottom left cell), the two right columns
#: down to the third row, the bottom row's last three cells.
KORF_FELNER_663 = ((1, 4, 5, 8, 9, 12), (2, 3, 6, 7, 10, 11), (13, 14, 15))
#: Korf and Felner's 6-6-6-6 split of the 24-puzzle whose goal has the blank in the top left
#: cell, as goal cells: the top left block without the blank and the centre, the top right
#: block, and their images about the main diagonal and the centre.  With the reflection of the
#: frame about the main diagonal (:func:`levelgen.sliding.idastar.transposition`) the search
#: takes the larger of the sums over this split and over its mirror image.
KORF_FELNER_6666 = (
    (1, 2, 5, 6, 7, 12),
    (3, 4, 8, 9, 13, 14),
    (10, 11, 15, 16, 20, 21),
    (17, 18, 19, 22, 23, 24),
)
#: The special splits by board side: (groups, the cap they need).
SPECIAL_SPLITS = {4: (KORF_FELNER_663, SIX_OF_SIXTEEN), 5: (KORF_FELNER_6666, SIX_OF_TWENTY_FIVE)}


def _square_symmetries(side: int) -> list[list[int]]:
    """The eight symmetries of a square board as cell maps (identity first)."""
    out = []
    for transpose in (False, True):
        for flip_x in (False, True):
            for flip_y in (False, True):
                mapping = []
                for i in range(side * side):
                    x, y = i % side, i // side
                    if transpose:
                        x, y = y, x
                    if flip_x:
                        x = side - 1 - x
                    if flip_y:
                        y = side - 1 - y
                    mapping.append(y * side + x)
                out.append(mapping)
    return out


def _special_split(encoding: Encoding, cap: int) -> list[list[int]] | None:
    """Korf and Felner's split of a numbered 4x4 (6-6-3) or 5x5 (6-6-6-6) board (None for any
    other puzzle, or when ``cap`` is below the split's tables): theirs, carried by the symmetry
    of the square that takes the goal's blank nearest to the top left cell; when that is not
    the blank's cell, the blank's cell in the split is replaced by the top left cell."""
    side = encoding.width
    if not (encoding.numbered and side == encoding.height and side in SPECIAL_SPLITS):
        return None
    split, needed = SPECIAL_SPLITS[side]
    if cap < needed:
        return None
    blank = encoding.goal.index(0)
    symmetry = min(_square_symmetries(side), key=lambda m: m[blank])
    inverse = [0] * (side * side)
    for i, j in enumerate(symmetry):
        inverse[j] = i
    moved_blank = symmetry[blank]
    groups = []
    for group in split:
        cells = [0 if c == moved_blank else c for c in group]
        groups.append(sorted(encoding.goal[inverse[c]] for c in cells))
    return groups
