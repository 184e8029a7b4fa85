"""Seeded level generation with a certificate: every level comes with its removal sequence.

The method uses occupancy invariance (see :mod:`levelgen.linkup.generate.playout`).  First a random
order that removes every tile *slot* two at a time is found on positions only (preferring partners
that are not direct neighbours, so that the dealt board looks shuffled rather than made of twins);
then kinds are dealt to the removed pairs, both cells of a pair getting the same kind.  The
order is then a solution of the finished board, whatever kinds were dealt.  Each step gets its
exact best path, the level its metrics (:mod:`levelgen.linkup.difficulty`), and the whole solution
is replayed by :func:`levelgen.linkup.verify.replay` before the level is returned: a level that does
not replay is a bug and raises ``AssertionError``; it is never returned.

How kinds are dealt.  A board of ``T`` tiles has ``P = T / 2`` pairs and ``K`` kinds.  The
pairs are dealt to the kinds as evenly as possible: every kind gets ``P // K`` pairs, and kinds
``1 .. P % K`` get one pair more.  ``copies`` (even, at least 2) is the number of tiles a kind
should have:

* ``kinds`` not given: ``K = T // copies``.  When ``T`` is a multiple of ``copies`` every kind
  has exactly ``copies`` tiles; otherwise the ``(T % copies) / 2`` remaining pairs go to kinds
  1, 2, ... one each, so those kinds have ``copies + 2`` tiles (a 10x5 board with copies 4: 12
  kinds, kind 1 with 6 tiles, the others with 4).  Only when there are more remaining pairs
  than kinds (a small board with many copies) does the dealing go round again from kind 1.
* ``kinds`` given: every kind must get at least ``copies`` tiles (``kinds * copies <= T``);
  the tiles beyond ``kinds * copies`` are spread evenly from kind 1 up (12x8, kinds 20,
  copies 4: kinds 1..8 have 6 tiles, kinds 9..20 have 4).  ``kinds * copies == T`` gives
  exactly ``copies`` tiles per kind.

Which pair gets which kind is a seeded shuffle.  Everything random comes from one
``random.Random(seed)``: the same seed, parameters and version give the same level.

Failure.  Impossible requests (bad size or seed, odd or too small ``copies``, odd tile count,
more kinds than pairs or than the tiles allow, a layout without tiles or of another size) raise
``GenerationError`` before any work.  When no playout completes, ``GenerationError`` says
whether no two tiles of the layout can be linked at all under the rules, or the playout met
``max_attempts`` dead ends (each one rewound, see :mod:`levelgen.linkup.generate.playout`) without
clearing the board.  There is no silent fallback.

Progress.  ``generate`` takes an optional ``progress`` callback (:mod:`levelgen.formats.progress`):
it hears ``("removal order", pairs, total)``, ``("paths", moves, total)``, then
``("checking", 0, 0)`` while the solution is replayed and measured.
"""

from __future__ import annotations

import random
from typing import Any

from ...formats.progress import Progress
from ...formats.version import VERSION as __version__
from ..core.board import EMPTY, WALL, Board, iter_bits
from ..core.geometry import MAX_SIDE, Size, format_size
from ..core.level import GeneratorInfo, Level
from ..core.reach import linkable_mask
from ..core.rules import Rules
from ..difficulty import solution_metrics
from ..verify import replay
from .playout import deal, random_removal_order

__all__ = [
    "DEFAULT_MAX_ATTEMPTS",
    "GENERATOR_NAME",
    "SLOT",
    "GenerationError",
    "format_layout",
    "generate",
    "kind_tile_counts",
    "parse_layout",
]

#: The ``name`` recorded in :class:`levelgen.linkup.core.level.GeneratorInfo`.
GENERATOR_NAME = "levelgen"

#: Dead ends the random playout may meet (each rewound) before giving up on a layout.
DEFAULT_MAX_ATTEMPTS = 200

#: The cell value of a tile slot in a layout board (any kind >= 1 marks a slot).
SLOT = 1

_LAYOUT_CHARS = {"o": SLOT, ".": EMPTY, "#": WALL}
_DEFAULT_RULES = Rules()


class GenerationError(ValueError):
    """The request cannot be met: the message says what failed and why."""


# ----- layouts ---------------------------------------------------------------------------------


def parse_layout(text: str) -> Board:
    """Parse a text layout into a template board: ``o`` a tile slot (cell value ``SLOT``),
    ``.`` a hole (``EMPTY``), ``#`` a wall (``WALL``), one line per row.

    Trailing whitespace on a line and blank lines at the end are ignored; every other line must
    have the same number of cells.  Raises ``GenerationError`` naming the line and column
    (counted from 1) of the first problem.

    >>> parse_layout("oo.\\n#oo\\n").to_rows()
    ['11.', '#11']
    """
    lines = [line.rstrip() for line in text.splitlines()]
    while lines and not lines[-1]:
        lines.pop()
    if not lines:
        raise GenerationError("the layout is empty: write one line per row of o . # cells")
    width = len(lines[0])
    if len(lines) > MAX_SIDE:
        raise GenerationError(f"the layout has {len(lines)} lines; at most {MAX_SIDE} allowed")
    cells: list[int] = []
    for y, line in enumerate(lines, 1):
        if not line:
            raise GenerationError(f"line {y} of the layout is empty")
        if len(line) > MAX_SIDE:
            raise GenerationError(
                f"line {y} of the layout has {len(line)} cells; at most {MAX_SIDE} allowed"
            )
        for x, ch in enumerate(line, 1):
            value = _LAYOUT_CHARS.get(ch)
            if value is None:
                raise GenerationError(
                    f"line {y}, column {x} of the layout: unexpected {ch!r}"
                    " (use o for a tile, . for a hole, # for a wall)"
                )
            cells.append(value)
        if len(line) != width:
            raise GenerationError(
                f"line {y} of the layout has {len(line)} cells, but line 1 has {width}:"
                " every line must have the same length"
            )
    return Board(width, len(lines), tuple(cells))


def format_layout(board: Board) -> str:
    """The text layout of ``board`` (inverse of :func:`parse_layout`): ``o`` for every tile,
    ``.`` for empty cells, ``#`` for walls; one line per row, each ending with a newline."""
    chars = {EMPTY: ".", WALL: "#"}
    return "".join("".join(chars.get(v, "o") for v in row) + "\n" for row in board.grid())


# ----- kinds -----------------------------------------------------------------------------------


def kind_tile_counts(tiles: int, *, kinds: int | None = None, copies: int = 4) -> list[int]:
    """How many tiles each kind gets on a board of ``tiles`` tiles: ``counts[i]`` is for kind
    ``i + 1`` (see the module docstring for the rule).  Raises ``GenerationError`` when the
    request is impossible.

    >>> kind_tile_counts(96)
    [4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4]
    >>> kind_tile_counts(50)
    [6, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4]
    >>> kind_tile_counts(96, kinds=20)[:9]
    [6, 6, 6, 6, 6, 6, 6, 6, 4]
    """
    if isinstance(copies, bool) or not isinstance(copies, int) or copies < 2 or copies % 2:
        raise GenerationError(
            f"copies must be an even number of at least 2 (tiles go in pairs), got {copies!r}"
        )
    if tiles % 2:
        raise GenerationError(
            f"the board has {_tile_cells(tiles)}, an odd number: tiles are removed in pairs"
        )
    pairs = tiles // 2
    if kinds is None:
        if tiles < copies:
            raise GenerationError(
                f"the board has {_tile_cells(tiles)}, fewer than copies = {copies}:"
                " ask for fewer copies"
            )
        kinds = tiles // copies
    elif isinstance(kinds, bool) or not isinstance(kinds, int) or kinds < 1:
        raise GenerationError(f"kinds must be a whole number of at least 1, got {kinds!r}")
    elif kinds > pairs:
        raise GenerationError(
            f"kinds = {kinds} is more than the {pairs} pairs of the board's {tiles} tiles"
        )
    elif kinds * copies > tiles:
        raise GenerationError(
            f"kinds {kinds} x copies {copies} = {kinds * copies} tiles, more than the board's"
            f" {_tile_cells(tiles)}: ask for at most {tiles // copies} kinds or fewer copies"
        )
    each, extra = divmod(pairs, kinds)
    return [2 * (each + 1)] * extra + [2 * each] * (kinds - extra)


def _tile_cells(n: int) -> str:
    return f"{n} tile cell" + ("" if n == 1 else "s")


# ----- generation ------------------------------------------------------------------------------


def generate(
    size: Size,
    *,
    kinds: int | None = None,
    copies: int = 4,
    rules: Rules = _DEFAULT_RULES,
    layout: Board | None = None,
    seed: int,
    max_attempts: int = DEFAULT_MAX_ATTEMPTS,
    progress: Progress | None = None,
    symmetry: str | None = None,
    shape: str | None = None,
) -> Level:
    """A level of ``size`` with a replayed solution, exact best paths and metrics.

    ``layout``: a template board of the same size whose tiles (any kind) mark the tile slots,
    with holes and walls kept as they are (see :func:`parse_layout`); None for a full
    rectangle.  ``kinds`` and ``copies``: see the module docstring.  ``seed``: a non-negative
    integer; with the other parameters and the version it fixes the level.  ``max_attempts``:
    dead ends met before giving up (it never changes a level that is found).  ``progress``:
    see the module docstring.  ``symmetry`` (``mirror``, ``rotate`` or ``both``): a symmetric
    level (:func:`levelgen.linkup.generate.symmetric.generate_symmetric`).  ``shape``: the
    name of the shape ``layout`` came from, recorded in the parameters.

    Raises ``GenerationError`` naming what failed for an impossible request or when no
    complete removal order was found.  A sliding rule, or a ``layout`` with layers, goes to
    :mod:`levelgen.linkup.generate.variants` (same parameters, same checks)."""
    if rules.slide != "none" or (layout is not None and layout.upper):
        if symmetry is not None:
            raise GenerationError("symmetric levels are flat boards without sliding tiles")
        return _generate_variant(size, kinds, copies, rules, layout, seed, max_attempts)
    if symmetry is not None:
        from .symmetric import generate_symmetric

        return generate_symmetric(
            size,
            symmetry,
            kinds=kinds,
            copies=copies,
            rules=rules,
            layout=layout,
            seed=seed,
            max_attempts=max_attempts,
            shape=shape,
        )
    width, height = _check_size(size)
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise GenerationError(f"seed must be a non-negative integer, got {seed!r}")
    if isinstance(max_attempts, bool) or not isinstance(max_attempts, int) or max_attempts < 1:
        raise GenerationError(f"max_attempts must be at least 1, got {max_attempts!r}")
    if layout is None:
        template = Board(width, height, (SLOT,) * (width * height))
    elif layout.size != (width, height):
        raise GenerationError(
            f"the layout is {format_size(layout.size)} but the size asked is"
            f" {format_size(Size(width, height))}"
        )
    else:
        template = layout
    tiles = template.tile_count()
    if tiles == 0:
        raise GenerationError("the layout has no tile cell (mark tile cells with o)")
    counts = kind_tile_counts(tiles, kinds=kinds, copies=copies)

    rng = random.Random(seed)
    order = random_removal_order(template, rules, rng, max_attempts=max_attempts, progress=progress)
    if order is None:
        raise GenerationError(_no_order_reason(template, rules, max_attempts))
    pair_kinds = [kind for kind, n in enumerate(counts, 1) for _ in range(n // 2)]
    rng.shuffle(pair_kinds)

    board, moves = deal(template, rules, order, pair_kinds, progress=progress)
    if progress is not None:
        progress("checking", 0, 0)
    problems = replay(board, rules, moves)
    if problems:
        raise AssertionError(f"generated level does not replay (a bug): {problems[0]}")
    parameters: dict[str, Any] = {
        "size": format_size(Size(width, height)),
        "kinds": len(counts),
        "copies": copies,
        "max_turns": rules.max_turns,
        "outside": rules.outside,
        "layout": None if layout is None else format_layout(layout).splitlines(),
    }
    if shape is not None:
        parameters["shape"] = shape
    return Level(
        board=board,
        rules=rules,
        solution=tuple(moves),
        metrics=solution_metrics(board, rules, moves),
        generator=GeneratorInfo(GENERATOR_NAME, __version__, seed, parameters),
    )


def check_request(size: Size, seed: int, max_attempts: int) -> tuple[int, int]:
    """The width and height of ``size``; ``GenerationError`` for a bad size, seed or
    ``max_attempts``."""
    width, height = _check_size(size)
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise GenerationError(f"seed must be a non-negative integer, got {seed!r}")
    if isinstance(max_attempts, bool) or not isinstance(max_attempts, int) or max_attempts < 1:
        raise GenerationError(f"max_attempts must be at least 1, got {max_attempts!r}")
    return width, height


def _check_size(size: Size) -> tuple[int, int]:
    try:
        width, height = size
    except (TypeError, ValueError):
        raise GenerationError(f"size must be a (width, height) pair, got {size!r}") from None
    for name, value in (("width", width), ("height", height)):
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_SIDE:
            raise GenerationError(f"{name} {value!r} is out of range 1..{MAX_SIDE}")
    return width, height


def _no_order_reason(template: Board, rules: Rules, attempts: int) -> str:
    """Why no removal order was found: no link at all, or only dead ends."""
    lay = template.layout
    occ = template.occupied_mask()
    free = template.free_mask(rules.outside)
    where = (
        f"this {format_size(template.size)} layout with max_turns {rules.max_turns}"
        f" and outside {'on' if rules.outside else 'off'}"
    )
    movable = any(
        linkable_mask(1 << a, free, occ ^ (1 << a), rules.max_turns, lay.stride)
        for a in iter_bits(occ)
    )
    if not movable:
        return f"no removal is possible at all on {where}: no two tile cells can be linked"
    return (
        f"no complete removal order found for {where}: the random playout met {attempts}"
        " dead ends (try more turns, outside on, or another layout)"
    )


def _generate_variant(
    size: Size,
    kinds: int | None,
    copies: int,
    rules: Rules,
    layout: Board | None,
    seed: int,
    max_attempts: int,
) -> Level:
    """:func:`generate` for sliding rules and layered layouts (see
    :mod:`levelgen.linkup.generate.variants`): the same checks and errors, then the variant
    playout."""
    from ..core.layers import check_variant, layer_count, layered_tile_count
    from .variants import format_layers_layout, generate_variant

    width, height = _check_size(size)
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise GenerationError(f"seed must be a non-negative integer, got {seed!r}")
    if isinstance(max_attempts, bool) or not isinstance(max_attempts, int) or max_attempts < 1:
        raise GenerationError(f"max_attempts must be at least 1, got {max_attempts!r}")
    template = layout or Board(width, height, (SLOT,) * (width * height))
    if template.size != (width, height):
        raise GenerationError(
            f"the layout is {format_size(template.size)} but the size asked is"
            f" {format_size(Size(width, height))}"
        )
    try:
        check_variant(template, rules)
    except ValueError as exc:
        raise GenerationError(str(exc)) from None
    tiles = layered_tile_count(template)
    if tiles == 0:
        raise GenerationError("the layout has no tile cell (mark tile cells with o)")
    counts = kind_tile_counts(tiles, kinds=kinds, copies=copies)
    parameters: dict[str, Any] = {
        "size": format_size(Size(width, height)),
        "kinds": len(counts),
        "copies": copies,
        "max_turns": rules.max_turns,
        "outside": rules.outside,
        "layout": None if layout is None else format_layers_layout(layout),
    }
    if rules.slide != "none":
        parameters["slide"] = rules.slide
    if template.upper:
        parameters["layers"] = layer_count(template)
    try:
        return generate_variant(
            template,
            counts,
            rules=rules,
            seed=seed,
            max_attempts=max_attempts,
            parameters=parameters,
        )
    except ValueError as exc:
        raise GenerationError(str(exc)) from None
