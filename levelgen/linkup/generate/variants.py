"""Seeded generation with a certificate for the variants: sliding tiles and stacked layers.

The classic generator's method (:mod:`levelgen.linkup.generate.generator`) with tiles tracked by
identity. Every tile slot of the template gets a distinct identity (1, 2, ... in row-major order,
layer by layer); a random playout removes two linkable tiles at a time on identities alone, kinds
ignored, letting the tiles slide after each removal (sliding) or taking tiles off the tops of
the stacks (layers).  Then kinds are dealt to the removed pairs, both tiles of a pair getting
one kind, and the board is the template with each identity replaced by its kind.  By occupancy
invariance with identities (proved in :mod:`levelgen.linkup.core.slide` for sliding, in
:mod:`levelgen.linkup.core.layers` for stacks) the playout's order is a solution of that board
whatever kinds were dealt: the slides move the kinds exactly as they moved the identities.  The
order is written as moves (positions of the moment, exact best paths), replayed by
:func:`levelgen.linkup.verify.variants.replay_variant` before the level is returned (a level that
does not replay is a bug: ``AssertionError``), and measured.

Each playout step draws tiles uniformly without replacement until one links to a tile other
than a direct neighbour (then a partner uniformly among those), falling back to neighbours
only when no tile has such a link, as the classic playout does so that boards do not look
made of twins.  Everything random comes from one ``random.Random(seed)``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from ...formats.version import VERSION as __version__
from ..core.board import EMPTY, WALL, Board, bit_list
from ..core.geometry import MAX_SIDE, Pos, format_size
from ..core.layers import MAX_LAYERS, check_variant
from ..core.level import GeneratorInfo, Level
from ..core.moves import Move
from ..core.reach import linkable_mask
from ..core.rules import Rules
from ..core.variant_state import SlidingState, VariantState, state_of
from ..verify.variants import replay_variant, variant_metrics, variant_move_counts

__all__ = [
    "format_layers_layout",
    "generate_variant",
    "parse_layers_layout",
    "pyramid_layout",
]

_LAYOUT_CHARS = {"o": 1, ".": EMPTY, "#": WALL}


def pyramid_layout(width: int, height: int, layers: int) -> Board:
    """A template of ``layers`` layers: layer 0 fills the board, layer ``i`` the cells at least
    ``i`` cells from every edge (a pyramid, like the arcade machines' boards).  ``ValueError``
    when the board is too small for that many layers."""
    if not 1 <= layers <= MAX_LAYERS:
        raise ValueError(f"layers must be between 1 and {MAX_LAYERS}, got {layers}")
    if 2 * (layers - 1) >= min(width, height):
        raise ValueError(
            f"a {width}x{height} board has room for at most {(min(width, height) + 1) // 2}"
            f" pyramid layers, not {layers}"
        )
    upper = []
    for i in range(1, layers):
        upper.append(
            tuple(
                1 if i <= x < width - i and i <= y < height - i else EMPTY
                for y in range(height)
                for x in range(width)
            )
        )
    return Board(width, height, (1,) * (width * height), tuple(upper))


def parse_layers_layout(text: str) -> Board:
    """Parse a layout of one or more layers, bottom first, separated by blank lines (each layer
    as in :func:`levelgen.linkup.generate.generator.parse_layout`: ``o`` a tile, ``.`` a hole, ``#``
    a wall; walls only on the first layer).  ``ValueError`` naming the line (counted from 1) of the
    first problem, including a tile above a hole or a wall."""
    blocks: list[list[tuple[int, str]]] = [[]]
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.rstrip()
        if line:
            blocks[-1].append((n, line))
        elif blocks[-1]:
            blocks.append([])
    blocks = [b for b in blocks if b]
    if not blocks:
        raise ValueError("the layout is empty: write one line per row of o . # cells")
    if len(blocks) > MAX_LAYERS:
        raise ValueError(f"the layout has {len(blocks)} layers; at most {MAX_LAYERS} allowed")
    width, height = len(blocks[0][0][1]), len(blocks[0])
    if height > MAX_SIDE or width > MAX_SIDE:
        raise ValueError(f"the layout is larger than {MAX_SIDE}x{MAX_SIDE}")
    grids: list[tuple[int, ...]] = []
    for layer, block in enumerate(blocks):
        if len(block) != height:
            raise ValueError(
                f"layer {layer} of the layout (line {block[0][0]}) has {len(block)} rows,"
                f" but layer 0 has {height}"
            )
        cells: list[int] = []
        for n, line in block:
            if len(line) != width:
                raise ValueError(
                    f"line {n} of the layout has {len(line)} cells, but the first line has"
                    f" {width}: every line must have the same length"
                )
            for x, ch in enumerate(line, 1):
                value = _LAYOUT_CHARS.get(ch)
                if value is None or (layer and value == WALL):
                    allowed = "o or ." if layer else "o, . or #"
                    raise ValueError(
                        f"line {n}, column {x} of the layout: unexpected {ch!r} (use {allowed};"
                        " walls only on the first layer)"
                    )
                if value == 1 and layer and grids[-1][len(cells)] != 1:
                    raise ValueError(
                        f"line {n}, column {x} of the layout: a tile on layer {layer} above a"
                        " hole or a wall"
                    )
                cells.append(value)
        grids.append(tuple(cells))
    return Board(width, height, grids[0], tuple(grids[1:]))


def format_layers_layout(board: Board) -> list[str]:
    """The lines of ``board``'s layout, layers bottom first separated by an empty line."""
    chars = {EMPTY: ".", WALL: "#"}
    out: list[str] = []
    w = board.width
    for layer, cells in enumerate((board.cells, *board.upper)):
        if layer:
            out.append("")
        out += [
            "".join(chars.get(v, "o") for v in cells[y * w : (y + 1) * w])
            for y in range(board.height)
        ]
    return out


def generate_variant(
    template: Board,
    counts: Sequence[int],
    *,
    rules: Rules,
    seed: int,
    max_attempts: int,
    parameters: dict[str, Any],
) -> Level:
    """A level on ``template`` (tile slots on every layer; walls and holes kept) with
    ``counts[i]`` tiles of kind ``i + 1``, a replayed solution and metrics.  ``ValueError``
    (to be reported as a generation error) when no playout completes."""
    check_variant(template, rules)
    rng = random.Random(seed)
    ids = _identities(template)
    order: list[tuple[Pos, Pos, int, int]] | None = None
    for _ in range(max_attempts):
        order = _playout(state_of(ids, rules), rng)
        if order is not None:
            break
    if order is None:
        raise ValueError(
            f"no complete removal order found in {max_attempts} random playouts for this"
            f" {format_size(template.size)} layout with max_turns {rules.max_turns}, outside"
            f" {'on' if rules.outside else 'off'}"
            + (f" and slide {rules.slide}" if rules.slide != "none" else "")
            + " (try more turns, outside on, or another layout)"
        )
    pair_kinds = [kind for kind, n in enumerate(counts, 1) for _ in range(n // 2)]
    rng.shuffle(pair_kinds)
    kind_of = {0: EMPTY, WALL: WALL}
    for (_a, _b, ida, idb), kind in zip(order, pair_kinds, strict=True):
        kind_of[ida] = kind_of[idb] = kind
    board = Board(
        template.width,
        template.height,
        tuple(kind_of[v] for v in ids.cells),
        tuple(tuple(kind_of[v] for v in layer) for layer in ids.upper),
    )
    moves, move_counts = _moves(board, rules, [(a, b) for a, b, _, _ in order])
    if board.upper:
        move_counts = variant_move_counts(board, rules, moves)
    problems = replay_variant(board, rules, moves)
    if problems:
        raise AssertionError(f"generated level does not replay (a bug): {problems[0]}")
    return Level(
        board=board,
        rules=rules,
        solution=moves,
        metrics=variant_metrics(board, rules, moves, move_counts),
        generator=GeneratorInfo("levelgen", __version__, seed, parameters),
    )


def _identities(template: Board) -> Board:
    """The template with its tile slots numbered 1, 2, ... (layer 0 row by row, then up)."""
    n = 0
    layers = []
    for cells in (template.cells, *template.upper):
        out = []
        for v in cells:
            if v >= 1:
                n += 1
                out.append(n)
            else:
                out.append(v)
        layers.append(tuple(out))
    return Board(template.width, template.height, layers[0], tuple(layers[1:]))


def _moves(
    board: Board, rules: Rules, pairs: list[tuple[Pos, Pos]]
) -> tuple[tuple[Move, ...], list[int]]:
    """The pairs as moves with exact best paths, and the move count before each."""
    state = state_of(board, rules)
    moves = []
    counts = []
    for i, (a, b) in enumerate(pairs):
        if not board.upper:  # layers: counted incrementally afterwards
            counts.append(state.move_count())
        path = state.find_path(a, b)
        if path is None or state.top(a) != state.top(b):  # pragma: no cover - invariance
            raise AssertionError(f"order step {i}: {a} and {b} are not a move on the dealt board")
        moves.append(Move(a, b, state.top(a), path))
        state.remove_pair(a, b)
    return tuple(moves), counts


def _playout(state: VariantState, rng: random.Random) -> list[tuple[Pos, Pos, int, int]] | None:
    """One playout on identities: ``(a, b, id_a, id_b)`` per step (positions of the moment,
    ``a`` before ``b`` in row order), or None at a dead end."""
    lay = state.layout
    stride, k = lay.stride, state.rules.max_turns
    order: list[tuple[Pos, Pos, int, int]] = []
    while True:
        if isinstance(state, SlidingState):
            tiles = state.occupied
            by_layer: list[int] = []
        else:
            by_layer = state.tops
            tiles = 0
            for m in by_layer:
                tiles |= m
        if not tiles:
            return order
        bits = bit_list(tiles)
        free = state.free[-1] if not isinstance(state, SlidingState) else state.free
        # A tile with no free neighbour is only ever the end of a one-step path.
        reachable = tiles & ((free << 1) | (free >> 1) | (free << stride) | (free >> stride))
        near_a = -1
        near_hit = 0
        chosen = -1
        hit = 0
        n = len(bits)
        while n:
            i = rng.randrange(n)
            a = bits[i]
            bits[i] = bits[n - 1]
            n -= 1
            src = 1 << a
            if isinstance(state, SlidingState):
                near = (src << 1) | (src >> 1) | (src << stride) | (src >> stride)
                targets = (reachable | near) & tiles & ~src
                if near & free and targets & ~near:
                    links = linkable_mask(src, free, targets, k, stride)
                else:
                    links = near & tiles
            else:
                layer = next(j for j, m in enumerate(by_layer) if m & src)
                links = state.linkable_from(a, layer, by_layer)
            if not links:
                continue
            around = (src << 1) | (src >> 1) | (src << stride) | (src >> stride)
            far = links & ~around
            if far:
                chosen, hit = a, far
                break
            if near_a < 0:
                near_a, near_hit = a, links
        if chosen < 0:
            if near_a < 0:
                return None
            chosen, hit = near_a, near_hit
        for _ in range(rng.randrange(hit.bit_count())):
            hit &= hit - 1
        b_bit = (hit & -hit).bit_length() - 1
        a_bit = chosen
        if b_bit < a_bit:
            a_bit, b_bit = b_bit, a_bit
        pa, pb = lay.pos(a_bit), lay.pos(b_bit)
        order.append((pa, pb, state.top(pa), state.top(pb)))
        state.remove_pair(pa, pb)
