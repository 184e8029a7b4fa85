"""Fast reachability on int bitboards: the hot loops of the solver and the generator.

Masks use the padded layout of :mod:`levelgen.linkup.core.board` (stride ``S = W + 3``; shift by 1 =
one column, by ``S`` = one row).  ``free`` is the mask of cells a path may cross (empty board cells,
plus the ring when the rules allow ``outside``); it never contains the guard column, so rays
stop there.

Why the levels are correct.  Let ``H_t`` (``V_t``) be the free cells a path from the source can
reach with at most ``t`` turns while moving horizontally (vertically) on its last step.  A path
reaching a free cell horizontally with ``t`` turns either started horizontally at the source or
turned there from a vertical segment, so ``H_0 = ray_h(src)`` and
``H_t = H_{t-1} | ray_h(V_{t-1})`` (likewise for ``V``).  A tile ``b`` is linkable with at most
``k`` turns when its last step is horizontal from a cell of ``src | V_{k-1} | H_k`` or vertical
from a cell of ``src | H_{k-1} | V_k``: the seeds themselves are included because a segment may
end on ``b`` right after a turn.  Shifting a whole horizontal run both ways is safe: a run that
holds a seed is reachable end to end, so both of its blocking end cells are real hits.

Rays are computed bit-parallel for all seeds at once.  Towards higher bits along a row the carry
of an addition runs through a run of free cells in one operation (``((p + x) ^ p) & p | x``);
the other three directions use a Kogge-Stone doubling fill that stops as soon as a doubling step
adds nothing (rays are contiguous, so no later step can add anything either).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from functools import lru_cache
from types import ModuleType

from .board import iter_bits

__all__ = [
    "NATIVE",
    "NATIVE_API",
    "axis_hits",
    "fill_down",
    "fill_up",
    "hits_by_level",
    "levels",
    "link_hits",
    "link_reach",
    "linkable_mask",
    "native",
    "python_axis_hits",
    "python_link_hits",
    "python_link_reach",
    "ray_h",
    "ray_v",
    "reachable_empty_mask",
    "toward_masks",
]

#: ``(right, left, down, up)``: the cells from which a cell of some set lies straight ahead
#: when moving in that direction (see :func:`toward_masks`).
Toward = tuple[int, int, int, int]


def fill_up(g: int, p: int, s: int) -> int:
    """Close ``g`` under steps of ``+s`` bits through the cells of ``p`` (``g`` included)."""
    while True:
        n = g | (p & (g << s))
        if n == g:
            return g
        g = n
        p &= p << s
        if not p:
            return g
        s += s


def fill_down(g: int, p: int, s: int) -> int:
    """Close ``g`` under steps of ``-s`` bits through the cells of ``p`` (``g`` included)."""
    while True:
        n = g | (p & (g >> s))
        if n == g:
            return g
        g = n
        p &= p >> s
        if not p:
            return g
        s += s


def ray_h(seeds: int, free: int) -> int:
    """Free cells reached from ``seeds`` by one or more horizontal steps through ``free``."""
    x = (seeds << 1) & free
    right = (((free + x) ^ free) & free) | x
    x = (seeds >> 1) & free
    if x:
        return right | fill_down(x, free, 1)
    return right


def ray_v(seeds: int, free: int, stride: int) -> int:
    """Free cells reached from ``seeds`` by one or more vertical steps through ``free``."""
    out = 0
    x = (seeds << stride) & free
    if x:
        out = fill_up(x, free, stride)
    x = (seeds >> stride) & free
    if x:
        out |= fill_down(x, free, stride)
    return out


def levels(src: int, free: int, max_turns: int, stride: int) -> tuple[list[int], list[int]]:
    """``(H, V)``: ``H[t]`` / ``V[t]`` are the free cells reached from the cells of ``src`` with
    at most ``t`` turns, last step horizontal / vertical, for ``t = 0 .. max_turns``."""
    h = ray_h(src, free)
    v = ray_v(src, free, stride)
    hs, vs = [h], [v]
    for _ in range(max_turns):
        h, v = h | ray_h(v, free), v | ray_v(h, free, stride)
        hs.append(h)
        vs.append(v)
    return hs, vs


def hits_by_level(src: int, hs: list[int], vs: list[int], t: int, stride: int) -> int:
    """Cells one step beyond a path of at most ``t`` turns from ``src`` (given its levels):
    occupied cells in this mask are linkable with ``<= t`` turns."""
    vp = vs[t - 1] if t else 0
    hp = hs[t - 1] if t else 0
    xh = src | vp | hs[t]
    xv = src | hp | vs[t]
    near = (xh << 1) | (xh >> 1) | (xv << stride) | (xv >> stride)
    return near ^ (near & src)


def linkable_mask(src: int, free: int, targets: int, max_turns: int, stride: int) -> int:
    """The cells of ``targets`` linkable from the one-bit mask ``src``: joined by a path of at
    most ``max_turns`` turns whose interior cells are all in ``free``.  ``src`` itself is never
    in the result.  Pass a kind's mask as ``targets`` for "same kind", or the occupied mask for
    the positions-only question.  (:func:`link_reach` without the reach.)"""
    return link_reach(src, free, targets, max_turns, stride)[0]


def link_reach(
    src: int,
    free: int,
    targets: int,
    max_turns: int,
    stride: int,
    toward: Toward | None = None,
    stop: int = 0,
) -> tuple[int, int, int]:
    """``(hits, reach, frontier)``: :func:`linkable_mask`; the free cells reached from ``src``
    with at most ``max_turns`` turns (every path to a hit runs inside them); and the cells a
    path of at most ``max_turns`` turns could step into next (``src``'s neighbours, the cells
    beyond a horizontal run of ``src | V[k-1] | H[k]``, and beyond a vertical run of
    ``src | H[k-1] | V[k]``).  The hits are the frontier's cells in ``targets``; freeing a cell
    outside the frontier changes neither the reach nor the hits, since no such path can enter
    it.

    With ``toward`` (:func:`toward_masks` of a set of cells ``K`` that holds ``targets``), the
    frontier leaves out the cells a path would enter with no turn left and from which no cell
    of ``K`` lies straight ahead: such a path can only go on in a straight line, so it never
    reaches a cell of ``K`` through them.  Freeing any cells outside this smaller frontier still
    changes no link to a cell of ``K``: the first such cell on a new path is entered from the
    old reach, with a turn to spare (it is then in the frontier) or with none, and then a cell
    of ``K`` lies straight ahead (it is in the frontier too).

    With ``stop`` (a set of cells within ``targets``, say the tiles ``src`` may pair with), the
    answer is that of the fewest turns ``j`` at which a cell of ``stop`` is hit, when there is
    one: the hits (of ``targets``), the reach and the plain frontier of the paths of at most
    ``j`` turns.  Every path to those hits still runs inside that smaller reach, so a link
    stays valid whenever its cells are free again; when no cell of ``stop`` is hit at all, the
    answer is the same as without ``stop``.  The relaxation of the search solver asks this way:
    its link tests end sooner, and its copies of a link hold more often.

    This is :func:`levels` followed by :func:`hits_by_level`, fused and with the fills inlined
    (it is the hottest function of the project): :func:`python_link_reach`, or its compiled
    twin (see :data:`NATIVE`).
    """
    if _native_link_reach is not None:
        return _native_link_reach(src, free, targets, max_turns, stride, toward, stop)
    return python_link_reach(src, free, targets, max_turns, stride, toward, stop)


def python_link_reach(
    src: int,
    free: int,
    targets: int,
    max_turns: int,
    stride: int,
    toward: Toward | None = None,
    stop: int = 0,
) -> tuple[int, int, int]:
    """The Python body of :func:`link_reach` (the reference of its compiled twin).

    Each level only casts rays from the cells that the previous level newly reached (rays
    from older seeds are already in the sets), and the loop stops early at a fixed point
    (which leaves no cell that only the last turn reaches: the frontier is then the plain
    one)."""
    h = v = hp = vp = hpp = vpp = 0
    hseeds = vseeds = src
    level = 0
    if stop:
        # Cells from which a step right or left / down or up lands on a cell of ``stop``.
        stop_h = (stop << 1) | (stop >> 1)
        stop_v = (stop << stride) | (stop >> stride)
    while True:
        # Horizontal rays from hseeds: right by the carry trick, left by doubling.
        nh = h
        if hseeds:
            x = (hseeds << 1) & free
            nh |= (((free + x) ^ free) & free) | x
            g = (hseeds >> 1) & free
            if g:
                p, s = free, 1
                while True:
                    n = g | (p & (g >> s))
                    if n == g:
                        break
                    g = n
                    p &= p >> s
                    if not p:
                        break
                    s += s
                nh |= g
        # Vertical rays from vseeds: down and up by doubling.
        nv = v
        if vseeds:
            g = (vseeds << stride) & free
            if g:
                p, s = free, stride
                while True:
                    n = g | (p & (g << s))
                    if n == g:
                        break
                    g = n
                    p &= p << s
                    if not p:
                        break
                    s += s
                nv |= g
            g = (vseeds >> stride) & free
            if g:
                p, s = free, stride
                while True:
                    n = g | (p & (g >> s))
                    if n == g:
                        break
                    g = n
                    p &= p >> s
                    if not p:
                        break
                    s += s
                nv |= g
        hpp = hp
        vpp = vp
        hp = h
        vp = v
        h = nh
        v = nv
        # A fixed point, or a cell of ``stop`` linkable with ``level`` turns (see
        # hits_by_level): the answer for paths of at most that many turns, plain frontier.
        hit = stop and (src | vp | h) & stop_h | (src | hp | v) & stop_v
        if hit or (h == hp and v == vp):
            toward = None
            break
        if level == max_turns:
            break
        level += 1
        # Seeds of the next level: cells newly reached along the other axis.
        hseeds, vseeds = v ^ vp, h ^ hp  # each level holds the one before
    if toward is None:
        xh = src | vp | h
        xv = src | hp | v
        frontier = (xh << 1) | (xh >> 1) | (xv << stride) | (xv >> stride)
        frontier ^= frontier & src
        return frontier & targets, h | v, frontier
    # Steps taken with a turn to spare (from src, H[k-1], V[k-2] horizontally; src, V[k-1],
    # H[k-2] vertically), then those that use the last turn or follow it.
    right, left, down, up = toward
    yh = src | vpp | hp
    yv = src | hpp | vp
    xh = vp | h
    xv = hp | v
    frontier = (
        (yh << 1)
        | (yh >> 1)
        | (yv << stride)
        | (yv >> stride)
        | ((xh << 1) & right)
        | ((xh >> 1) & left)
        | ((xv << stride) & down)
        | ((xv >> stride) & up)
    )
    frontier ^= frontier & src
    return frontier & targets, h | v, frontier


def python_link_hits(src: int, free: int, targets: int, max_turns: int, stride: int) -> int:
    """:func:`linkable_mask`, ending as soon as every cell of ``targets`` is hit (the Python
    body of :data:`link_hits`).

    The all-pairs question (:func:`levelgen.linkup.core.moves.legal_pairs`) asks about a few tiles
    of one kind at a time, and most links need fewer turns than allowed: after each level the hits
    of the paths of at most that many turns (see :func:`hits_by_level`) are checked, and once they
    hold all of ``targets`` no further level can add anything."""
    h = v = hp = vp = 0
    hseeds = vseeds = src
    level = 0
    while True:
        nh = h
        if hseeds:
            x = (hseeds << 1) & free
            nh |= (((free + x) ^ free) & free) | x
            g = (hseeds >> 1) & free
            if g:
                p, s = free, 1
                while True:
                    n = g | (p & (g >> s))
                    if n == g:
                        break
                    g = n
                    p &= p >> s
                    if not p:
                        break
                    s += s
                nh |= g
        nv = v
        if vseeds:
            g = (vseeds << stride) & free
            if g:
                p, s = free, stride
                while True:
                    n = g | (p & (g << s))
                    if n == g:
                        break
                    g = n
                    p &= p << s
                    if not p:
                        break
                    s += s
                nv |= g
            g = (vseeds >> stride) & free
            if g:
                p, s = free, stride
                while True:
                    n = g | (p & (g >> s))
                    if n == g:
                        break
                    g = n
                    p &= p >> s
                    if not p:
                        break
                    s += s
                nv |= g
        hp = h
        vp = v
        h = nh
        v = nv
        xh = src | vp | h
        xv = src | hp | v
        hit = ((xh << 1) | (xh >> 1) | (xv << stride) | (xv >> stride)) & targets
        if hit == targets or level == max_turns or (h == hp and v == vp):
            return hit ^ (hit & src)
        level += 1
        hseeds, vseeds = v ^ vp, h ^ hp  # each level holds the one before


def python_axis_hits(
    src: int, free: int, targets: int, max_turns: int, stride: int
) -> tuple[list[int], list[int]]:
    """``(by_h, by_v)``: ``by_h[t]`` holds the cells of ``targets`` linkable from the one-bit
    mask ``src`` by a path of at most ``t`` turns whose *first* step is horizontal, ``by_v[t]``
    those whose first step is vertical, for ``t = 0 .. max_turns`` (after a fixed point the
    last answer repeats).  The last level (``max_turns``) of an axis is left out when no cell
    of ``targets`` lies straight ahead along it (its level 0 is empty): the caller that pairs
    the hits of no turn with those of ``max_turns`` needs it only then.

    Each axis is a fill of :func:`levels` with one axis only at the start (``H_0 =
    ray_h(src)``, ``V_0`` empty, or the other way round), so each level casts rays along one
    axis only, from the cells the previous level newly reached along the other, and ``src``
    starts paths along its axis only in :func:`hits_by_level`: the two together cost about
    one fill of :func:`levels`.  The live move list (:mod:`levelgen.linkup.core.live`) splits new
    links at a freed cell with these."""
    answer: list[list[int]] = []
    c = src.bit_length() - 1
    below = src - 1
    targets ^= targets & src  # (a complement, ``targets & ~src``, costs more)
    for horizontal in (True, False):
        # Level 0, the straight rays from the one cell: the run of free cells around it
        # found with bit lengths instead of a fill.
        if horizontal:
            x = (src << 1) & free
            ray = ((((free + x) ^ free) & free) | x) | below ^ (
                (1 << (below ^ (below & free)).bit_length()) - 1
            )
            xh, h, v, vseeds, hseeds = src | ray, ray, 0, ray, 0
            first = ((xh << 1) | (xh >> 1)) & targets
        else:
            column = _column(stride, free.bit_length() // stride + 2) << (c % stride)
            blocked = column ^ (column & free)
            beyond = blocked >> (c + 1) << (c + 1)
            low = (blocked & below).bit_length()
            ray = (column & below) >> low << low
            ray |= (column & ((beyond ^ (beyond & (beyond - 1))) - 1)) >> (c + 1) << (c + 1)
            xv, h, v, vseeds, hseeds = src | ray, 0, ray, 0, ray
            first = ((xv << stride) | (xv >> stride)) & targets
        if not ray:
            # No step along this axis: only the neighbours, whatever the turns.
            answer.append([first] * (max_turns + 1))
            continue
        sh, sv = (src, 0) if horizontal else (0, src)
        out = [first]
        last = max_turns - 1 if max_turns and not first else max_turns
        if last == 0:
            answer.append(out)
            continue
        hp = vp = 0
        while True:
            nh = h
            if hseeds:
                x = (hseeds << 1) & free
                nh |= (((free + x) ^ free) & free) | x
                g = (hseeds >> 1) & free
                if g:
                    p, s = free, 1
                    while True:
                        n = g | (p & (g >> s))
                        if n == g:
                            break
                        g = n
                        p &= p >> s
                        if not p:
                            break
                        s += s
                    nh |= g
            nv = v
            if vseeds:
                g = (vseeds << stride) & free
                if g:
                    p, s = free, stride
                    while True:
                        n = g | (p & (g << s))
                        if n == g:
                            break
                        g = n
                        p &= p << s
                        if not p:
                            break
                        s += s
                    nv |= g
                g = (vseeds >> stride) & free
                if g:
                    p, s = free, stride
                    while True:
                        n = g | (p & (g >> s))
                        if n == g:
                            break
                        g = n
                        p &= p >> s
                        if not p:
                            break
                        s += s
                    nv |= g
            hp = h
            vp = v
            h = nh
            v = nv
            xh = sh | vp | h
            xv = sv | hp | v
            out.append(((xh << 1) | (xh >> 1) | (xv << stride) | (xv >> stride)) & targets)
            if len(out) > last:
                break
            hseeds, vseeds = v ^ vp, h ^ hp  # each level holds the one before
            if not (hseeds or vseeds):
                out += [out[-1]] * (last + 1 - len(out))
                break
        answer.append(out)
    return answer[0], answer[1]


#: The version of the compiled twins' contract this code expects (``API`` in
#: ``levelgen/linkup/core/_native.c``): a build that does not match, or lacks one of them, is not
#: used.
NATIVE_API = 2
_TWINS = (
    "axis_hits",
    "link_hits",
    "link_reach",
    "remove_pair",
    "fill_links",
    "replay_moves",
    "direct_path",
)


def _load_native() -> ModuleType | None:
    """``levelgen.linkup.core._native`` when it was built at install, is current
    (:data:`NATIVE_API`) and is not turned off with ``LEVELGEN_NATIVE=0``; else None (the Python
    functions)."""
    if os.environ.get("LEVELGEN_NATIVE", "1") == "0":
        return None
    try:
        from . import _native
    except ImportError:  # not built (no C compiler at install)
        return None
    if getattr(_native, "API", None) != NATIVE_API or not all(
        hasattr(_native, name) for name in _TWINS
    ):
        return None  # a stale build next to newer Python code
    return _native


#: The compiled twins (``levelgen.linkup.core._native``, from ``levelgen/linkup/core/_native.c``: an
#: optional extension built at install when a C compiler is there), or None.  They give the same
#: answers as the Python functions (``tests/test_native.py`` compares them on random masks,
#: boards and play-outs) and make the repair solver about twice as fast at 64x64.  Used here
#: and by :mod:`levelgen.linkup.core.live`, :mod:`levelgen.linkup.core.paths` and
#: :mod:`levelgen.linkup.solvers.repair`.
native = _load_native()
#: Whether the compiled twins are in use.
NATIVE = native is not None
#: :func:`python_axis_hits` or its compiled twin.  The live move list's removals spent about
#: half their time here.
axis_hits: Callable[[int, int, int, int, int], tuple[list[int], list[int]]] = python_axis_hits
#: :func:`python_link_hits` or its compiled twin.
link_hits: Callable[[int, int, int, int, int], int] = python_link_hits
_native_link_reach: (
    Callable[[int, int, int, int, int, Toward | None, int], tuple[int, int, int]] | None
) = None
if native is not None:
    axis_hits = native.axis_hits
    link_hits = native.link_hits
    _native_link_reach = native.link_reach


@lru_cache(maxsize=64)
def _column(stride: int, rows: int) -> int:
    """The first column of ``rows`` rows of a layout of ``stride`` (bit 0, ``stride``, ...)."""
    return sum(1 << (r * stride) for r in range(rows))


def reachable_empty_mask(src: int, free: int, max_turns: int, stride: int) -> int:
    """Free cells a path from ``src`` reaches with at most ``max_turns`` turns."""
    return link_reach(src, free, 0, max_turns, stride)[1]


def toward_masks(cells: int, stride: int, size: int) -> Toward:
    """``(right, left, down, up)`` for the cells of ``cells`` in a padded layout of ``size``
    bits: the cells of the layout with a cell of ``cells`` at or beyond them, in their row
    to the right / to the left, or in their column below / above (see :func:`link_reach`)."""
    right = left = down = up = 0
    first_column = sum(1 << c for c in range(0, size, stride))
    for b in iter_bits(cells):
        x = b % stride
        row = b - x
        column = first_column << x
        right |= (1 << (b + 1)) - (1 << row)
        left |= (1 << (row + stride - 1)) - (1 << b)
        down |= column & ((2 << b) - 1)
        up |= column & -(1 << b)
    return right, left, down, up
