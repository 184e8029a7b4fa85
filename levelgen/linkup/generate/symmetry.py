"""Symmetric boards: the symmetries, symmetric layouts, and kinds dealt to symmetric moves.

A symmetry is a group of cell maps of a ``W x H`` board:

* ``mirror``: the left-right reflection ``(x, y) -> (W-1-x, y)``;
* ``rotate``: the half turn ``(x, y) -> (W-1-x, H-1-y)``;
* ``both``: both reflections (left-right and top-bottom), hence the half turn too.

A layout is symmetric when every map sends tile cells to tile cells, holes to holes and walls to
walls.  Paths map to paths with as many turns (the ring around the board maps to itself), so on
a symmetric position a pair ``{a, b}`` links exactly when its image ``{g(a), g(b)}`` does.

Removal orders (:mod:`levelgen.linkup.generate.playout_symmetric`) remove a whole *orbit* of a
pair at once: the pair and its images, when they are the same pair or share no cell.  The
occupancy stays symmetric, and by monotonicity (removing tiles never blocks a path) each pair
of the orbit still links when its turn comes.  A cell that every map fixes (the centre of an
odd by odd board under ``rotate`` or ``both``) can never be in such an orbit, and under
``mirror`` a cell of the middle column of an odd-width board pairs only with another cell of
that column; :func:`symmetry_problem` says when a layout breaks these rules.

Kinds (:func:`symmetric_kinds`): giving every pair of an orbit the same kind makes the kinds
symmetric too.  Each kind has a number of pairs fixed by ``kinds`` and ``copies``
(:func:`levelgen.linkup.generate.generator.kind_tile_counts`), so the orbits (of 1, 2 or 4
pairs) must be shared out among the kinds exactly.  When they cannot be, orbits are split into
halves (a 4-pair orbit into two mirror images, still mirror-symmetric), then into single pairs,
as few as needed; those kinds are then not symmetric.  Pure: randomness only from the
``random.Random`` passed in.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from ..core.board import EMPTY, WALL, Board
from ..core.geometry import Pos

__all__ = [
    "SYMMETRIES",
    "board_symmetry",
    "cell_maps",
    "is_symmetric",
    "symmetric_kinds",
    "symmetric_layout",
    "symmetry_problem",
]

#: The symmetries ``--symmetry`` takes.
SYMMETRIES: tuple[str, ...] = ("mirror", "rotate", "both")

CellMap = Callable[[int, int], tuple[int, int]]


def cell_maps(width: int, height: int, symmetry: str) -> list[CellMap]:
    """The maps of ``symmetry`` other than the identity: ``mirror`` [left-right]; ``rotate``
    [half turn]; ``both`` [left-right, top-bottom, half turn] (in that order)."""
    w, h = width - 1, height - 1

    def mirror(x: int, y: int) -> tuple[int, int]:
        return w - x, y

    def flip(x: int, y: int) -> tuple[int, int]:
        return x, h - y

    def turn(x: int, y: int) -> tuple[int, int]:
        return w - x, h - y

    maps: dict[str, list[CellMap]] = {
        "mirror": [mirror],
        "rotate": [turn],
        "both": [mirror, flip, turn],
    }
    if symmetry not in maps:
        raise ValueError(f"{symmetry!r} is not one of {', '.join(SYMMETRIES)}")
    return maps[symmetry]


def _kind_class(value: int) -> int:
    return value if value in (EMPTY, WALL) else 1


def _first_break(board: Board, symmetry: str, exact: bool) -> tuple[Pos, Pos] | None:
    width = board.width
    cells = board.cells
    for g in cell_maps(board.width, board.height, symmetry):
        for y in range(board.height):
            for x in range(width):
                gx, gy = g(x, y)
                a, b = cells[y * width + x], cells[gy * width + gx]
                if (a != b) if exact else (_kind_class(a) != _kind_class(b)):
                    return Pos(x, y), Pos(gx, gy)
    return None


def is_symmetric(board: Board, symmetry: str, *, kinds: bool = False) -> bool:
    """Whether the layout of ``board`` (with ``kinds``: its cell values) has ``symmetry``."""
    return _first_break(board, symmetry, kinds) is None


def board_symmetry(board: Board, *, kinds: bool = True) -> str:
    """The largest symmetry ``board`` has: ``both``, ``mirror``, ``rotate`` or ``none``
    (of its cell values, or with ``kinds`` False of its layout alone)."""
    mirror = is_symmetric(board, "mirror", kinds=kinds)
    rotate = is_symmetric(board, "rotate", kinds=kinds)
    if mirror and rotate:
        return "both"
    return "mirror" if mirror else "rotate" if rotate else "none"


_WHAT = {EMPTY: "a hole", WALL: "a wall"}


def symmetry_problem(template: Board, symmetry: str) -> str | None:
    """Why no symmetric removal order can exist on ``template`` (a layout board), or None:
    the layout is not symmetric, a fixed centre cell holds a tile, or the middle column holds
    an odd number of tiles under ``mirror``."""
    broken = _first_break(template, symmetry, False)
    if broken is not None:
        (x, y), (gx, gy) = broken
        what = _WHAT.get(template.cells[y * template.width + x], "a tile")
        other = _WHAT.get(template.cells[gy * template.width + gx], "a tile")
        return (
            f"the layout is not {_NAMES[symmetry]}: cell [{x}, {y}] is {what} but its image"
            f" [{gx}, {gy}] is {other}"
        )
    width, height = template.size
    if symmetry != "mirror" and width % 2 and height % 2:
        cx, cy = width // 2, height // 2
        if template.cells[cy * width + cx] not in (EMPTY, WALL):
            return (
                f"the centre cell [{cx}, {cy}] holds a tile, which has no symmetric partner under"
                f" {symmetry}: make it a hole or a wall"
            )
    if symmetry == "mirror" and width % 2:
        c = width // 2
        column = sum(1 for y in range(height) if template.cells[y * width + c] not in (EMPTY, WALL))
        if column % 2:
            return (
                f"the middle column (x = {c}) holds {column} tiles, an odd number: under mirror"
                " its tiles pair only with each other"
            )
    if template.tile_count() % 2:
        return f"the layout has {template.tile_count()} tile cells, an odd number"
    return None


_NAMES = {
    "mirror": "mirror-symmetric (left-right)",
    "rotate": "symmetric under a half turn",
    "both": "symmetric left-right and top-bottom",
}


# ----- symmetric layouts -----------------------------------------------------------------------


def _units(width: int, height: int, symmetry: str) -> list[list[tuple[int, int]]]:
    """The cells grouped into units that may become holes together without breaking
    :func:`symmetry_problem`'s rules: the orbits of the cells, the middle column of an
    odd-width board under ``mirror`` in twos.  The centre cell of an odd by odd board is left
    out: no symmetric order removes it (under ``mirror`` it would be the odd one out of the
    middle column), so it is always a hole."""
    maps = cell_maps(width, height, symmetry)
    seen: set[tuple[int, int]] = set()
    units: list[list[tuple[int, int]]] = []
    column: list[tuple[int, int]] = []
    for y in range(height):
        for x in range(width):
            if (x, y) in seen:
                continue
            orbit = sorted({(x, y), *(g(x, y) for g in maps)})
            seen.update(orbit)
            if len(orbit) > 1:
                units.append(orbit)
            elif symmetry == "mirror":
                column.append((x, y))
    if len(column) % 2:
        del column[len(column) // 2]  # the centre: always a hole
    units.extend(column[i : i + 2] for i in range(0, len(column), 2))
    return units


def symmetric_layout(
    width: int, height: int, symmetry: str, rng: random.Random, *, copies: int, least: int
) -> Board:
    """A layout with ``symmetry``: the ``width x height`` rectangle with small clusters of
    holes (about a sixth of the cells, drawn from ``rng``) placed symmetrically, every cell
    that no symmetric order could remove made a hole.  A few more holes are made when that
    brings the tile count to a multiple of ``copies`` (so that every kind gets exactly that
    many); then the last holes are filled again until there are at least ``least`` tiles.
    The holes drawn depend on the size, symmetry, ``copies`` and ``rng`` alone: asking for
    the kinds a layout gave (``least``) makes the same layout again."""
    units = _units(width, height, symmetry)
    cells = [1] * (width * height)
    if width % 2 and height % 2:
        cells[(height // 2) * width + width // 2] = EMPTY  # the centre: see _units
    unit_of = {cell: i for i, unit in enumerate(units) for cell in unit}
    tiles = sum(cells)
    target = tiles - round(width * height * rng.uniform(0.12, 0.22))
    holes: set[int] = set()

    def take(i: int) -> None:
        nonlocal tiles
        holes.add(i)
        taken.append(i)
        tiles -= len(units[i])
        for x, y in units[i]:
            cells[y * width + x] = EMPTY

    taken: list[int] = []
    multiple = copies

    def free(i: int) -> bool:
        return i not in holes and tiles - len(units[i]) >= copies

    order = list(range(len(units)))
    rng.shuffle(order)
    for i in order:
        if tiles <= target:
            break
        if not free(i):
            continue
        take(i)
        x, y = rng.choice(units[i])  # grow a cluster: a neighbour's unit, now and then
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            near = unit_of.get((x + dx, y + dy))
            if near is not None and tiles > target and free(near) and rng.random() < 0.5:
                take(near)
    for i in order:
        if tiles % multiple == 0:
            break
        if free(i) and any(
            unit_of.get((x + dx, y + dy)) in holes
            for x, y in units[i]
            for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
        ):
            take(i)  # next to a cluster first
    for i in order:
        if tiles % multiple == 0:
            break
        if free(i):
            take(i)
    while tiles < least and taken:
        i = taken.pop()
        tiles += len(units[i])
        for x, y in units[i]:
            cells[y * width + x] = 1
    return Board(width, height, tuple(cells))


# ----- kinds -----------------------------------------------------------------------------------


def _greedy(sizes: dict[int, int], demands: Sequence[int]) -> list[list[int]] | None:
    """The orbit sizes each kind gets (kinds in the order of ``demands``, in pairs), taking
    the largest orbits first; None when ``sizes`` (how many orbits of 1, 2 and 4 pairs) cannot
    fill every demand exactly, every orbit used.  With sizes that divide one another this
    finds a way whenever there is one (tests check it against an exhaustive search)."""
    left = dict(sizes)
    out: list[list[int]] = []
    for need in demands:
        got: list[int] = []
        for size in (4, 2, 1):
            n = min(left.get(size, 0), need // size)
            got += [size] * n
            left[size] = left.get(size, 0) - n
            need -= n * size
        if need:
            return None
        out.append(got)
    return out if not any(left.values()) else None


def _split(sizes: dict[int, int], fours: int, twos: int) -> dict[int, int]:
    return {4: sizes[4] - fours, 2: sizes[2] + 2 * fours - twos, 1: sizes[1] + 2 * twos}


def _least(high: int, works: Callable[[int], bool]) -> int | None:
    """The least ``n`` in ``0..high`` with ``works(n)`` (``works`` is monotone), or None."""
    if not works(high):
        return None
    low = 0
    while low < high:
        mid = (low + high) // 2
        if works(mid):
            high = mid
        else:
            low = mid + 1
    return low


def symmetric_kinds(
    orbits: Sequence[Sequence[int]], counts: Sequence[int], rng: random.Random
) -> tuple[list[int], bool]:
    """The kind of each pair of a removal order made of ``orbits`` (each the indices of its
    pairs in the order: 1, 2 or 4 of them, a 4-pair orbit listed as a pair and its images
    left-right, top-bottom and turned), with kind ``i + 1`` on ``counts[i]`` tiles; and
    whether every orbit got one kind (the kinds then as symmetric as the order).

    Orbits are split only as much as the counts force: first the fewest 4-pair orbits into two
    halves (the pair with its left-right image, the other two), then the fewest 2-pair orbits
    into single pairs (halves last)."""
    pools: dict[int, list[list[int]]] = {1: [], 2: [], 4: []}
    for orbit in orbits:
        pools[len(orbit)].append(list(orbit))
    sizes = {s: len(p) for s, p in pools.items()}
    demands = [c // 2 for c in counts]
    order = sorted(range(len(demands)), key=lambda i: -demands[i])
    wanted = [demands[i] for i in order]
    fours = _least(sizes[4], lambda n: _greedy(_split(sizes, n, 0), wanted) is not None)
    twos = 0
    if fours is None:
        fours = sizes[4]
        full = _split(sizes, fours, 0)
        found = _least(full[2], lambda n: _greedy(_split(sizes, fours, n), wanted) is not None)
        assert found is not None, "single pairs always fill the kinds"
        twos = found
    for size in (4, 2, 1):
        rng.shuffle(pools[size])
    halves = []
    for _ in range(fours):
        orbit = pools[4].pop()
        halves += [orbit[:2], orbit[2:]]
    rng.shuffle(halves)
    pools[2] = halves + pools[2]  # whole 2-pair orbits are split before halves
    for _ in range(twos):
        orbit = pools[2].pop()
        pools[1] += [orbit[:1], orbit[1:]]
    rng.shuffle(pools[1])
    plan = _greedy({s: len(p) for s, p in pools.items()}, wanted)
    assert plan is not None
    kinds = [0] * sum(len(o) for o in orbits)
    for index, got in zip(order, plan, strict=True):
        for size in got:
            for pair in pools[size].pop():
                kinds[pair] = index + 1
    return kinds, fours == 0 and twos == 0
