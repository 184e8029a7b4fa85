"""What the stacked-layers rule allows to compute cheaply: exact move counts along a solution
and static deadlocks.

Both rest on the facts proved in :mod:`levelgen.linkup.core.layers`: removing tiles only lowers
stacks (monotonicity), and tiles never change layer.  :func:`stacked_move_counts` is what the
generator's metrics need (one count per state along a solution, incrementally);
:func:`stacking_deadlock` is a sound pruning of the variant search (a relaxation that ignores
paths).
"""

from __future__ import annotations

from functools import lru_cache

from .board import Board
from .geometry import Pos
from .layers import Stacks
from .reach import linkable_mask
from .rules import Rules

__all__ = ["stacked_move_counts", "stacking_deadlock"]


def stacked_move_counts(board: Board, rules: Rules, pairs: list[tuple[Pos, Pos]]) -> list[int]:
    """The number of legal moves before each removal of ``pairs`` (a valid removal sequence of
    the layered ``board``), counted incrementally.

    Why it is exact.  ``links[x]`` holds the same-kind tops linkable from the top at cell bit
    ``x``.  Removing the tops at ``a`` and ``b`` (a) ends their links, (b) uncovers new tops at
    ``a`` and ``b``, whose links are computed afresh, and (c) may create links between the
    other tops; by monotonicity no other link ends.  A new link in (c) runs at some height
    ``h`` through a cell that entered ``free[h]`` just now, and ``a`` (whose stack went from
    ``t`` to ``t - 1`` tiles) entered exactly ``free[t - 1]``: so both ends of such a link
    are tops on layers ``h - 1`` or ``h`` that a path of at most ``max_turns`` turns inside
    ``free[h]`` joins to ``a`` (or ``b``).  Those tops are found with one reach query from
    each emptied cell, and only their links are recomputed."""
    state = Stacks.of(board, rules)
    lay = state.layout
    stride, k = lay.stride, rules.max_turns
    n_layers = len(state.tops)
    kind_tops = {kind: list(masks) for kind, masks in state.top_kind_masks().items()}
    state.kind_tops = None  # this function keeps its own copy up to date
    kind_at: dict[int, int] = {}
    layer_at: dict[int, int] = {}
    for kind, by_layer in kind_tops.items():
        for layer, mask in enumerate(by_layer):
            m = mask
            while m:
                low = m & -m
                m ^= low
                kind_at[low.bit_length() - 1] = kind
                layer_at[low.bit_length() - 1] = layer
    links: dict[int, int] = {}
    total = 0

    def relink(x: int) -> None:
        nonlocal total
        old = links.get(x, 0)
        new = state.linkable_from(x, layer_at[x], kind_tops[kind_at[x]])
        links[x] = new
        for changed, sign in ((new & ~old, 1), (old & ~new, -1)):
            total += 2 * sign * changed.bit_count()
            while changed:
                low = changed & -changed
                changed ^= low
                y = low.bit_length() - 1
                links[y] = links.get(y, 0) ^ (1 << x)

    for x in list(kind_at):
        links[x] = state.linkable_from(x, layer_at[x], kind_tops[kind_at[x]])
        total += links[x].bit_count()  # each link once from each end
    counts: list[int] = []
    for a, b in pairs:
        counts.append(total // 2)
        cells = (lay.bit(a.x, a.y), lay.bit(b.x, b.y))
        for c in cells:
            kind, layer = kind_at.pop(c), layer_at.pop(c)
            kind_tops[kind][layer] &= ~(1 << c)
            gone = links.pop(c, 0)
            total -= 2 * gone.bit_count()
            while gone:
                low = gone & -gone
                gone ^= low
                y = low.bit_length() - 1
                if y in links:
                    links[y] &= ~(1 << c)
        state.remove_pair(a, b)
        fresh: list[int] = []
        for c in cells:
            stack = state.stacks[lay.pos(c).y * lay.width + lay.pos(c).x]
            if stack:
                layer = len(stack) - 1
                kind_at[c], layer_at[c] = stack[-1], layer
                kind_tops.setdefault(stack[-1], [0] * n_layers)[layer] |= 1 << c
                fresh.append(c)
        touched = 0
        for c in cells:
            h = len(state.stacks[lay.pos(c).y * lay.width + lay.pos(c).x])
            tops = state.tops[h] if h < n_layers else 0
            if h:
                tops |= state.tops[h - 1]
            if tops:
                touched |= linkable_mask(1 << c, state.free[h], tops, k, stride)
        for c in fresh:
            relink(c)
        # A new link joins two touched tops of one kind that were not linked yet.
        rest = touched
        while rest:
            low = rest & -rest
            rest ^= low
            x = low.bit_length() - 1
            same = 0
            for m in kind_tops[kind_at[x]]:
                same |= m
            if same & touched & ~links.get(x, 0) & ~low:
                relink(x)
    return counts


def stacking_deadlock(stacks: list[list[int]]) -> str | None:
    """Why the layered position ``stacks`` (per cell, its kinds bottom first) can never be
    cleared, whatever the paths, or None when this test finds no reason.

    Two tiles can only ever be removed together when they are of one kind, in different
    stacks (both must be on top at once) and on layers at most one apart (layers never
    change).  So every kind's remaining tiles need a perfect matching in that graph; when
    there is none, the kind can never be cleared.  When a kind's matching is unique, its pairs
    are forced; a forced pair can only go after every pair with a tile above one of its
    tiles, so a cycle of forced pairs in that order is a deadlock too.  Both arguments ignore
    paths altogether (a relaxation), so a reason found here is a proof."""
    by_kind: dict[int, list[tuple[int, int]]] = {}
    for cell, stack in enumerate(stacks):
        for layer, kind in enumerate(stack):
            by_kind.setdefault(kind, []).append((cell, layer))
    pair_of: dict[tuple[int, int], int] = {}
    n_pairs = 0
    for kind, tiles in sorted(by_kind.items()):
        found, complete = _matchings(tuple(tiles))
        if not complete:
            continue
        if not found:
            return (
                f"the {len(tiles)} tiles of kind {kind} cannot be paired: tiles that pair must"
                " be in different stacks and on layers at most one apart"
            )
        if len(found) == 1:
            for a, b in found[0]:
                pair_of[a] = pair_of[b] = n_pairs
                n_pairs += 1
    if not n_pairs:
        return None
    after: list[set[int]] = [set() for _ in range(n_pairs)]
    for tile, p in pair_of.items():
        cell, layer = tile
        for upper in range(layer + 1, len(stacks[cell])):
            q = pair_of.get((cell, upper))
            if q is not None:
                after[p].add(q)
    # A cycle in "p goes after q": depth-first search with colours.
    colour = [0] * n_pairs
    for root in range(n_pairs):
        if colour[root]:
            continue
        colour[root] = 1
        todo = [(root, iter(after[root]))]
        while todo:
            node, rest = todo[-1]
            nxt = next(rest, None)
            if nxt is None:
                colour[node] = 2
                todo.pop()
            elif colour[nxt] == 1:
                return "forced pairs wait for each other through their stacks (a cycle)"
            elif colour[nxt] == 0:
                colour[nxt] = 1
                todo.append((nxt, iter(after[nxt])))
    return None


#: Search steps :func:`_matchings` may take for one kind before it gives up (no proof then).
MATCHING_STEPS = 20_000


@lru_cache(maxsize=65536)
def _matchings(
    tiles: tuple[tuple[int, int], ...], limit: int = 2
) -> tuple[list[list[tuple[tuple[int, int], tuple[int, int]]]], bool]:
    """Up to ``limit`` perfect matchings of ``tiles`` ((cell, layer) pairs) in which paired
    tiles are in different cells and on layers at most one apart, and whether that list is
    complete (False when ``MATCHING_STEPS`` ran out first: then it proves nothing).

    A depth-first search with an explicit stack (a kind may have thousands of tiles): each
    frame pairs the first unpaired tile with the next candidate partner."""
    out: list[list[tuple[tuple[int, int], tuple[int, int]]]] = []
    if len(tiles) % 2:
        return out, True
    chosen: list[tuple[tuple[int, int], tuple[int, int]]] = []
    # A frame: the tiles still unpaired, and the index of the next partner to try for rest[0].
    stack: list[tuple[list[tuple[int, int]], int]] = [(list(tiles), 1)]
    steps = 0
    while stack:
        steps += 1
        if steps > MATCHING_STEPS:
            return out, False
        rest, j = stack.pop()
        if not rest:
            out.append(list(chosen))
            if len(out) >= limit:
                return out, True
            if chosen:
                chosen.pop()
            continue
        first = rest[0]
        while j < len(rest) and not (rest[j][0] != first[0] and abs(rest[j][1] - first[1]) <= 1):
            j += 1
        if j >= len(rest):
            if chosen:
                chosen.pop()  # this frame is exhausted: undo the pair that led to it
            continue
        stack.append((rest, j + 1))
        chosen.append((first, rest[j]))
        stack.append((rest[1:j] + rest[j + 1 :], 1))
    return out, True
