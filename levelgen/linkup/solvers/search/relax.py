"""The relaxed game of the search solver, run incrementally.

In the relaxed game a tile leaves alone when it is linkable to a tile of its group that is
present, or to the cell of one that already left; why a failure proves the state dead is argued
in :mod:`levelgen.linkup.solvers.search`.  This module computes the greedy run cheaply, using two
exact facts about a link test from a tile ``t`` through the free cells ``F``, whose *support* ``R``
is the set of free cells reachable from ``t`` with at most ``j`` turns, ``j`` the fewest turns
that reach a tile ``t`` may pair with (``max_turns`` when the test fails; a test stops at the
first such ``j``, see the ``stop`` cells of :func:`levelgen.linkup.core.reach.link_reach`):

* every path the test found lies in ``R``; so when a later state frees at least ``R`` again,
  the same link still holds without testing (used to replay the parent's run in a child);
* a cell freed later changes nothing for ``t`` unless it is in the test's *frontier*: the cells
  a path of at most ``max_turns`` turns could step into next (the neighbours of ``t``, the cells
  beyond a horizontal run of ``t`` or of a cell reached horizontally, or vertically with a turn
  to spare, and likewise vertically; see :func:`levelgen.linkup.core.reach.link_reach`).  By
  induction along any path, each step enters a frontier cell of the old test with the same turns, so
  a path through cells that were free then, or lands on a target it could already hit.  So a
  tile that failed its test fails again, with no test, as long as no frontier cell got free
  and it has no new target (used to reach the fixpoint, and across states through the
  ``failed`` cache).  The frontier leaves out the cells beside a run that would need one turn
  too many, which the plain "next to the reach" test would retry for nothing, and the cells
  entered with no turn left that have no cell of the tile's kind straight ahead (the
  ``toward`` masks of :func:`levelgen.linkup.core.reach.link_reach`): by the same induction, no path
  to a cell of the kind goes through them.

A *run* lists, for each tile in the order it left, the tile it linked to (its witness), the
support of that link, and the tile's bit (the replays' masks are unions of them).  In a child
the parent's run is replayed: a step still holds when its witness is still a tile the tile
may pair with and no cell of its support is held by a tile that has not left yet; otherwise
the tile is tested again (or its last link anywhere, kept in the ``linked`` cache, is reused
when its support is free), and deferred when it fails.  A deferred tile is tested again as
soon as a cell of its frontier gets free, so that it holds up the later steps as little as
possible.

The deferred tiles wait in the order they were first deferred and keep their place when a test
fails again; each *scan* goes through them in that order and tests every one with a frontier
cell freed since its last test, until a scan in which none leaves.  A tile with no such cell
cannot leave (by the frontier fact), so which tiles leave, in which order and with which
witness, depends only on which links hold when: not on how tight the frontiers are, nor on
what the ``failed`` cache knows.

The caller names the *suspect* tiles: at least every tile whose group or bans changed since
the parent's run (the kinds the search decided on).  The closure removes whole groups, so any
other tile that is still present still has its witness, in its group: while no tile is
deferred its step holds without a look, and a whole stretch of such steps is copied at once.
Only suspect steps, and every step while a tile is deferred, are checked one by one.  Only the
final fixpoint matters for soundness: the tiles left are exactly those that cannot leave once
everything else has left, by the facts above; a tile is never counted as left without a valid
link.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import suppress
from itertools import accumulate
from operator import itemgetter, or_

from ...core.board import iter_bits
from ...core.reach import Toward, link_reach, toward_masks

__all__ = ["CHECK_REPLAY", "Relaxer", "Run", "TileCells", "relax"]

#: Link tests between two calls of ``relax``'s ``poll``.
POLL_EVERY = 500

#: Tests set this to check that each relaxed run is the same as when every step of the
#: parent's run is checked one by one (no stretch copied whole), and as with plain frontiers.
CHECK_REPLAY = False

#: One step of a relaxed run: (tile, witness, support, the tile's bit).
Step = tuple[int, int, int, int]


class Run(list[Step]):
    """A relaxed run: a step for each tile, in the order the tiles left.  Not changed once
    ``relax`` returns it, so the index its replays need is made once (:meth:`replay_index`)."""

    __slots__ = ("_replay",)
    _replay: tuple[list[int], dict[int, int]]

    def replay_index(self) -> tuple[list[int], dict[int, int]]:
        """``(marks, position)``: ``marks[i]`` masks the tiles of the first ``i`` steps, and
        ``position`` maps each tile to its step."""
        try:
            return self._replay
        except AttributeError:
            marks = list(accumulate(map(itemgetter(3), self), or_, initial=0))
            position = dict(zip(map(itemgetter(0), self), range(len(self)), strict=True))
            self._replay = (marks, position)
            return self._replay

    def drop_index(self) -> None:
        """Forget the index (it holds a mask per step: on a big board, megabytes per run); the
        next :meth:`replay_index` makes it again."""
        with suppress(AttributeError):
            del self._replay


#: What the relaxation needs of a tile's cell: its four neighbours, and the
#: :func:`levelgen.linkup.core.reach.toward_masks` of its kind's cells (None: plain frontiers).
TileCells = tuple[int, Toward | None]
#: A deferred tile: (tile, the cells of its frontier not free at its last test).
Waiting = tuple[int, int]


def relax(
    occ: int,
    free: int,
    gmask: list[int],
    gid: dict[int, int],
    forbid: dict[int, int],
    cells: dict[int, TileCells],
    parent: Run | None,
    suspect: int,
    max_turns: int,
    stride: int,
    counter: list[int],
    failed: dict[int, tuple[int, int, int]],
    linked: dict[int, tuple[int, int]],
    poll: Callable[[], None] | None = None,
) -> tuple[Run, int]:
    """The greedy relaxed run from the state (``occ`` tiles, ``free`` cells, groups ``gmask``
    of present tiles, ``gid`` the group of a tile, ``forbid`` the tiles a tile may not pair
    with, ``cells`` its :data:`TileCells`), replaying ``parent`` first; ``suspect`` masks the
    tiles whose parent steps must be checked one by one (see the module docstring: every
    other step's witness must still be a tile its tile may pair with).

    Returns ``(run, stuck)``: ``stuck`` is the mask of tiles that can never leave (0 when every
    tile can; the run is then complete).  ``counter[0]`` counts link tests.  ``failed`` maps a
    tile to its last failed test, ``(the cells of its frontier not free then, its frontier,
    targets)``, and is read and updated: kept across states, it spares the test whenever none
    of those cells is free now and no target was added, which cannot link either.  ``linked``
    maps a tile to its last successful test, ``(witness, support)``, likewise: while the
    witness is still a target and the support is free, the link holds.  ``poll`` is called every
    ``POLL_EVERY`` link tests (it may raise to stop a long run)."""
    rfree = free
    run = Run()
    deferred = 0
    # The deferred tiles, in the order they were first deferred (see ``Waiting``): a tile can
    # leave only once a cell of its blocked frontier gets free; ``near_any`` is their union.
    waiting: list[Waiting] = []
    near_any = 0
    tests = 0

    def test(t: int, bit: int, targets: int) -> Waiting | None:
        """Let ``t`` leave if it can link now (None), else defer it (its waiting entry)."""
        nonlocal rfree, deferred, tests
        deferred &= ~bit
        known = failed.get(t)
        if known is not None and not rfree & known[0] and not targets & ~known[2]:
            # It failed before with the same free cells around it and more targets.
            deferred |= bit
            return t, known[1] & ~rfree
        good = linked.get(t)
        if good is not None and targets >> good[0] & 1 and not good[1] & ~rfree:
            # A link it made before still has every cell of its support free.
            run.append((t, good[0], good[1], bit))
            rfree |= bit
            return None
        tests += 1
        if poll is not None and not tests % POLL_EVERY:
            poll()
        around, toward = cells[t]
        if around & rfree:
            # Stop at the fewest turns that reach a target (a smaller support).
            hits, support, near = link_reach(
                bit, rfree, targets, max_turns, stride, toward, stop=targets
            )
        else:
            # Boxed in: only an adjacent mate can link, along an empty path.
            hits, support, near = around & targets, 0, around
        if hits:
            witness = (hits & -hits).bit_length() - 1
            run.append((t, witness, support, bit))
            linked[t] = (witness, support)
            rfree |= bit
            # Every present tile it links to may leave too, along the same path reversed.
            rest = hits & ~rfree
            while rest:
                low = rest & -rest
                run.append((low.bit_length() - 1, t, support, low))
                rfree |= low
                rest ^= low
            deferred &= ~rfree
            return None
        deferred |= bit
        blocked = near & ~rfree
        failed[t] = (blocked, near, targets)
        return t, blocked

    def try_leave(t: int, bit: int, targets: int) -> None:
        # Test the tile; when it cannot leave, it waits at the end of the line.
        nonlocal near_any
        entry = test(t, bit, targets)
        if entry is not None:
            waiting.append(entry)
            near_any |= entry[1]

    def settle() -> None:
        # Scan the waiting tiles until a scan in which none leaves (see the module docstring).
        nonlocal waiting, near_any
        while True:
            progress = False
            keep = []
            near = 0
            for w in waiting:
                t = w[0]
                if rfree >> t & 1:
                    continue
                if rfree & w[1]:
                    bit = 1 << t
                    again = test(t, bit, gmask[gid[t]] & ~forbid[t] & ~bit)
                    if again is None:
                        progress = True
                        continue
                    w = again
                keep.append(w)
                near |= w[1]
            waiting = keep
            near_any = near
            if not progress:
                return

    if parent is None:
        for t in iter_bits(occ):
            bit = 1 << t
            if not rfree & bit:
                try_leave(t, bit, gmask[gid[t]] & ~forbid[t] & ~bit)
    else:
        # Steps to check one by one: the suspect ones, and every step while a tile is deferred.
        # Between them, a stretch of steps is copied whole (see the docstring).
        marks, position = parent.replay_index()
        n = len(parent)
        check = sorted(position[t] for t in iter_bits(suspect & marks[n]))
        check.append(n)
        i = c = 0
        while i < n:
            if not deferred:
                while check[c] < i:
                    c += 1
                j = check[c]
                if j > i:
                    leaving = marks[j] ^ marks[i]
                    done = rfree | ~occ
                    if leaving & done:
                        run.extend([step for step in parent[i:j] if not done & step[3]])
                    else:
                        run.extend(parent[i:j])
                    rfree |= leaving
                    i = j
                    continue
            step = parent[i]
            t, witness, support, bit = step
            i += 1
            if not occ & bit or rfree & bit:
                continue
            gm = gmask[gid[t]] & ~forbid[t] & ~bit
            if gm >> witness & 1 and not support & deferred:
                run.append(step)
                rfree |= bit
                # A deferred tile that can leave soon after should not hold up later steps.
                if bit & near_any:
                    settle()
                continue
            known = failed.get(t)
            if known is not None and not rfree & known[0] and not gm & ~known[2]:
                # Known to fail, as in ``test`` (inlined: the commonest case while deferring).
                deferred |= bit
                blocked = known[1] & ~rfree
                waiting.append((t, blocked))
                near_any |= blocked
                continue
            before = rfree
            try_leave(t, bit, gm)
            if rfree & ~before & near_any:
                settle()
    settle()
    counter[0] += tests
    # Every present tile either left or waits (a child's tiles were all in the parent's run).
    return run, occ & ~rfree


class Relaxer:
    """The relaxed runs of one search: the table of the tiles' cells (:data:`TileCells`) and the
    ``failed`` and ``linked`` caches of :func:`relax`, kept across the states of the search."""

    def __init__(
        self, kind_mask: list[int], gid: dict[int, int], max_turns: int, stride: int, size: int
    ) -> None:
        """For the tiles of ``gid`` (tile -> group, the groups of the kinds ``kind_mask``) on a
        padded layout of ``size`` bits."""
        toward = [toward_masks(mask, stride, size) for mask in kind_mask]
        s = stride
        self.cells: dict[int, TileCells] = {
            b: ((1 << b + 1) | (1 << b - 1) | (1 << b + s) | (1 << b - s), toward[g])
            for b, g in gid.items()
        }
        self.max_turns = max_turns
        self.stride = stride
        self.failed: dict[int, tuple[int, int, int]] = {}
        self.linked: dict[int, tuple[int, int]] = {}

    def run(
        self,
        occ: int,
        free: int,
        gmask: list[int],
        gid: dict[int, int],
        forbid: dict[int, int],
        parent: Run | None,
        suspect: int,
        counter: list[int],
        poll: Callable[[], None] | None = None,
    ) -> tuple[Run, int]:
        """:func:`relax` of the state, with this search's table and caches."""
        state = (occ, free, gmask, gid, forbid)
        if CHECK_REPLAY:
            # The same run when every step is checked, and with plain frontiers (on copies of
            # the caches).
            slow = None if parent is None else self._run(state, parent, -1, [0], True, self.cells)
            plain_cells: dict[int, TileCells] = {t: (c[0], None) for t, c in self.cells.items()}
            plain = self._run(state, parent, suspect, [0], True, plain_cells)
        found = self._run(state, parent, suspect, counter, False, self.cells, poll)
        if CHECK_REPLAY:
            assert slow is None or found == slow, "copying stretches of the parent's run changed it"
            assert found == plain, "tighter frontiers changed the run"
        return found

    def _run(
        self,
        state: tuple[int, int, list[int], dict[int, int], dict[int, int]],
        parent: Run | None,
        suspect: int,
        counter: list[int],
        copy_caches: bool,
        cells: dict[int, TileCells],
        poll: Callable[[], None] | None = None,
    ) -> tuple[Run, int]:
        failed, linked = self.failed, self.linked
        if copy_caches:
            failed, linked = dict(failed), dict(linked)
        occ, free, gmask, gid, forbid = state
        return relax(
            occ,
            free,
            gmask,
            gid,
            forbid,
            cells,
            parent,
            suspect,
            self.max_turns,
            self.stride,
            counter,
            failed,
            linked,
            poll,
        )
