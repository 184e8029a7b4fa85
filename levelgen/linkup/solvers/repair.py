"""The repair solver: finds removal sequences for large boards fast, and never proves anything.

Why.  The exact search (:mod:`levelgen.linkup.solvers.search`) decides a board by pairing decisions,
about one per kind of four tiles, each costing a relaxation over the whole board; on the levels
we generate from 40x40 on (hundreds of kinds of four) that is more than ten seconds.  Yet a
wrong pairing is rarely fatal: measured along known solutions of 40x40 levels, about one wrong
decision in ten (or twenty) made the board unclearable, and the fatal ones showed up hundreds
of moves later, past any relaxation's notice.  So this solver plays quickly and mends the few
decisions that turn out to matter.

How.

1. A *dive* plays greedily.  Safe moves first (by monotonicity, see
   :mod:`levelgen.linkup.core.rules`): the last two tiles of a kind when they link, and a pair of a
   kind of four when the two other tiles link once it is gone (all four go).  When no safe move is
   left, a *decision*: a linkable pair of a kind of four or more tiles, preferring pairs not banned,
   then kinds whose four tiles hold a single linked pair (a *contested* kind, with two or more,
   waits: it chose wrong about one time in three, against one in fourteen), then the smallest sum of
   the pair's distance and the distance between the two tiles it leaves (Manhattan), ties broken
   by a ``random.Random`` seeded with ``SEED`` (so the answer is the same on every run).  The
   dive ends when no move is left.  It is incremental: a kind is weighed again only when it
   lost a pair or gained a link (:meth:`levelgen.linkup.core.live.LiveLinks.last_gained`).
2. A dive that ends with tiles left is *repaired*: one decision is put back and banned, and
   the rest of the sequence is replayed as a fixed pairing: passes over it in order, each move
   played as soon as it links (for a fixed pairing the moves that can be played form one
   maximal set, whatever the order: monotonicity again), the moves before the decision kept
   as they were.  Then a new dive goes on from there, and the put-back tiles may pair
   otherwise.  A repair is kept only when it leaves fewer tiles than before; otherwise it is
   undone and its ban lifted (most decisions are right: a ban that stays forces a wrong
   pairing on its kind; measured on 24 unseen large levels, keeping repairs that left up to
   40 tiles more, with their bans, took the sum of the times from 33 s to 124 s and left one
   level undecided in 10 s).  The decision is chosen among those of the kinds with two tiles
   left and a stuck tile ``x`` next to a free cell, not put back before when there are such,
   by :func:`_culprit_score`: a wrong decision took ``a, b`` where ``a, x`` and ``b, y`` belonged
   together, which leaves ``x`` and ``y`` far apart and each near a cell of the pair.  Its
   weights were fitted (logistic regression) on the candidates of stuck positions of
   generated 48x48 and 64x64 levels, labelled by whether the decision differed from the
   generator's certificate: the best-scored candidate was such a decision about 79% of the
   time, against about 10% for a candidate drawn at random.  Choosing well is what counts:
   with a perfect choice (the certificate known) a 64x64 level needed 12 to 25 repairs,
   against 15 to 170 with the earlier random choice.  A candidate whose tiles ``x`` and
   ``y`` both fail to link to a cell of the pair comes after those where one does
   (:meth:`_Repairer._pick`): such a repair was kept 10 times in 277, against 21-56% for
   the others (measured by work, 108 levels of 40x64 to 64x64 seeds 0 and 1: the race's
   total 5.82 M -> 4.21 M, and no run left undecided, against 4 of 216).
3. After ``STALL`` repairs in a row undone, it starts again from the full board (the bans
   and the decisions tried forgotten, the random choices going on): a run that stalled is
   stuck in a lock its choices keep making, and a fresh dive makes other ones.  Every dive
   breaks its ties with a noise of up to ``NOISE`` added to the distance.  Both were
   chosen by work (the race's count, each run capped at 700,000, about 12 s here) against
   the earlier setting, a restart after 100 repairs undone (35 for the race's rival) and a
   noise of 10 (30 after every other restart).  On 180 levels (64x64 seeds 0-63, 64x36 and
   40x64 0-39, 60x40 0-35): the race's total 8.28 M -> 6.07 M, one level capped by both
   runs (64x64 seed 53) -> none (it is now the largest, 213,000; the largest of the rest
   was 396,000), median 21,800 -> 22,200.
   On 160 levels not used in the choice (64x36 and 40x64 seeds 40-79, 56x56 and 48x27
   0-39): 7.63 M -> 3.67 M, two levels capped -> none, largest 423,000 -> 153,000, median
   13,400 -> 13,700.  The noise alone (both stalls 35) on 64x64 seeds 64-127: 4.34 M ->
   2.53 M, one level capped -> none, median 32,100 -> 29,000.  A noise of 10 makes the
   first dive of most levels a little better (single runs at 64x64: median work 41,000
   against 50,000), but the race is decided by the levels that stall; a noise of 50 did
   better on the 17 hardest of the 180 levels but worse on the others (3.98 M on the 160,
   2.97 M on 64x64 seeds 64-127).  It stops
   when the board is clear (``SOLVED``: the sequence with exact best paths, which
   :func:`levelgen.linkup.solvers.solve` replays like every answer), when the budget runs out
   (``UNKNOWN``: ``max_nodes`` counts repairs), or when a dive is stuck with no decision to
   revisit (``UNKNOWN``).  It never answers ``UNSOLVABLE``: a failed dive proves nothing.
   ``auto`` gives it most of its time on large boards: a first slice, then a quick look for
   a proof at the exact search's root, then the rest of the run (:class:`RepairSession`
   pauses and resumes it), then the exact search, which can prove a board unsolvable.
4. ``auto`` races two runs of different seeds (:class:`RepairRace`): which seed is fast
   varies from level to level, by up to twenty times on large ones.  The winner is the run
   that clears the board after the least *work* (moves and choices counted, a stand-in for
   time that any machine counts the same), so the answer does not depend on where or how
   fast the second run ran: on another core (:mod:`levelgen.linkup.solvers.rival`) or in turns with
   the first.
5. *The endgame* (:meth:`_Repairer.endgame`).  A run that gets down to a few hundred tiles
   can stall there for long: repairs that each must leave fewer tiles, and a restart that
   throws the progress away.  There the lock is often in the last hundred or so moves, and
   the exact search settles it: after ``ENDGAME_AFTER`` repairs undone in a row in a
   position of at most ``ENDGAME_TILES`` tiles, the search gets the longest prefix of the
   play that its root relaxation does not rule out, with ``ENDGAME_NODES`` nodes.  Measured
   by work: 64x64 seed 229, which neither run of the race cleared within
   700,000, is cleared by the run of seed 0 at 461,898 (1,033,985 without the endgame).
   Of the 288 runs of 64x64 seeds 0-111 and 200-231, seven others changed, six of them by
   2,000 to 61,000 more work (an endgame that found nothing), and three other races took
   longer (58,002 -> 90,410, 59,260 -> 61,620, 70,518 -> 91,648); the median over the 144
   levels stayed 29,487.

Pure: the randomness is the seeded ``random.Random`` above; no clock.  The run is a generator
(:meth:`_Repairer.steps`) that pauses before each repair and every ``POLL_STEPS`` moves of a
dive; whoever drives it polls its budget there, so where it stops never changes what it
computes.
"""

from __future__ import annotations

import heapq
import random
from collections.abc import Callable, Generator, Iterator
from itertools import compress

from ..core.board import Board, Layout, iter_bits
from ..core.live import LiveLinks
from ..core.moves import move_bits
from ..core.paths import link_cells
from ..core.reach import link_hits, link_reach, native
from ..core.rules import Rules
from .base import Budget, SolveResult, SolveStatus
from .culprit import CulpritChoice, _Hits, _State, distance

__all__ = ["METHOD", "POLL_STEPS", "SEED", "STALL"]

METHOD = "repair"

#: The compiled twin of :meth:`_Repairer.python_replay_moves` when the extension is in use
#: (see :data:`levelgen.linkup.core.reach.NATIVE`), else None.
_native_replay_moves: (
    Callable[
        [
            list[tuple[int, int]],
            list[int],
            set[int],
            int,
            int,
            Callable[[Layout, int, int, int, int], int | None],
            Layout,
            int,
            int,
            int,
        ],
        tuple[list[tuple[int, int]], list[int], set[int], int],
    ]
    | None
) = None
if native is not None:
    _native_replay_moves = native.replay_moves

#: The seed of the tie-breaks and of the choice of the decision to repair.
SEED = 0


#: The run pauses (and its budget is asked) every this many moves of a dive, and before each
#: repair.
POLL_STEPS = 256

#: A run of this many repairs undone in a row starts the solver again.
STALL = 35

#: Of a kind of more than four tiles, a dive weighs only the first this many linked pairs
#: (in bit order): on a board of one kind all of them would make each step quadratic.
PAIR_SAMPLE = 16


#: Tie-breaks add up to this much to a decision's distance.
NOISE = 30.0

#: The work of a move of a dive and of the choice of a repair, in units of a move replayed
#: (measured at 64x64: about 90 us, 2 ms and 15 us).
WORK_MOVE = 6
WORK_CULPRIT = 130


#: The endgame (:meth:`_Repairer.endgame`): after this many repairs undone in a row in a
#: position of at most ``ENDGAME_TILES`` tiles left, the exact search is asked to finish from
#: a prefix of the position's play that leaves at most ``ENDGAME_SPAN`` more tiles, with
#: ``ENDGAME_NODES`` nodes.
ENDGAME_AFTER = 6
ENDGAME_TILES = 300
ENDGAME_SPAN = 300
ENDGAME_NODES = 60

#: The work of the endgame's search: per tile of each prefix it looks at (its root
#: relaxation: about 40 ms at 500 tiles) and per node (about 3.6 ms at 500 tiles).
WORK_ENDGAME_TILE = 4
WORK_ENDGAME_NODE = 200


class _Repairer(CulpritChoice):
    """One run of the solver on one board (see the module docstring)."""

    def __init__(self, board: Board, rules: Rules, seed: int = SEED, stall: int = STALL) -> None:
        self.board, self.rules = board, rules
        self.rng = random.Random(seed)
        self.stall = stall
        self.bans: set[tuple[int, int]] = set()
        self.start_free = board.free_mask(rules.outside)
        #: The free cells of the start as a byte per cell (the replay's look at neighbours).
        self.start_free_bytes = bytearray((board.layout.height + 3) * board.layout.stride)
        for x in iter_bits(self.start_free):
            self.start_free_bytes[x] = 1
        self.start_masks = board.kind_masks()
        self.start_tiles = board.occupied_mask()
        #: The kind of each tile bit of the start.
        self.kind_of = {x: kind for kind, mask in self.start_masks.items() for x in iter_bits(mask)}
        #: The decisions taken while their kind had more than one linked pair.
        self.contested: set[tuple[int, int]] = set()
        #: The decisions put back so far (since the last start): chosen again only when every
        #: candidate was.
        self.tried: set[tuple[int, int]] = set()
        #: The position :meth:`culprit` last chose in, its ranked candidates, the mask of
        #: stuck tiles next to a free cell, and the link tests made there.
        self._ranked: (
            tuple[_State, list[list[tuple[int, int]]], int, dict[tuple[int, int], _Hits]] | None
        ) = None
        self.repairs = 0
        #: The endgame searches made (:meth:`endgame`), one per prefix looked at.
        self.endgame_searches = 0
        #: The work done so far, in units of about 15 us at 64x64 (``WORK_*``): the race's
        #: clock (:class:`RepairRace`), a count that any machine counts the same.
        self.work = 0
        self.restarts = 0

    def dive(
        self,
        live: LiveLinks,
        seq: list[tuple[int, int]],
        support: list[int],
        decided: set[int],
    ) -> None:
        """:meth:`diving` to the end, without pauses."""
        for _ in self.diving(live, seq, support, decided):
            pass

    def diving(
        self,
        live: LiveLinks,
        seq: list[tuple[int, int]],
        support: list[int],
        decided: set[int],
    ) -> Iterator[None]:
        """Play on from ``live`` until no move is left, appending the moves to ``seq``, their
        *support* to ``support`` and the indices of the decisions to ``decided``; a pause
        (``yield``) every ``POLL_STEPS`` moves.  A move's support is the cells of a path of
        its link (the link holds again whenever they are all free), 0 for neighbours, or -1
        until a :meth:`replay` first tests the move and finds one
        (:func:`levelgen.linkup.core.paths.link_cells`): most moves are never replayed, and finding
        the path was about a sixth of a dive's time.

        Incremental: a kind is weighed again only when its tiles or links changed (it lost a
        pair, or the last removal gave one of its tiles a link: ``LiveLinks.last_gained``);
        its safe pair waits in a list, its best decision in a heap, both stamped with the
        kind's version so that stale entries are skipped."""
        stride, k = live.stride, live.k
        # The four neighbours of a cell ``x`` as bits of ``mask >> (x - stride)``.
        around = 1 | 1 << (stride - 1) | 1 << (stride + 1) | 1 << (2 * stride)
        kind_of, kind_mask, links = live.kind_of, live.kind_mask, live.links
        bans, rng, contested = self.bans, self.rng, self.contested
        dirty = {kind_of[x] for x in compress(range(len(links)), links)}  # the tiles with links
        version: dict[int, int] = dict.fromkeys(kind_mask, 0)
        safe_list: list[tuple[int, int, tuple[int, int]]] = []
        heap: list[tuple[tuple[bool, bool, float], int, int, tuple[int, int]]] = []
        steps = 0
        while True:
            steps += 1
            self.work += WORK_MOVE
            if steps % POLL_STEPS == 0:
                yield
            for kind in sorted(dirty):
                version[kind] = ver = version[kind] + 1
                mask = kind_mask[kind]
                n = mask.bit_count()
                pairs: list[tuple[int, int]] = []
                for a in iter_bits(mask):
                    above = links[a] >> (a + 1) << (a + 1)
                    if above:
                        pairs += [(a, b) for b in iter_bits(above)]
                        if n > 4 and len(pairs) >= PAIR_SAMPLE:
                            break  # a kind of many tiles: the first few of its pairs will do
                if not pairs:
                    continue
                safe: tuple[int, int] | None = None
                best: tuple[tuple[bool, bool, float], tuple[int, int]] | None = None
                for a, b in pairs:
                    if n == 2:
                        safe = (a, b)
                        break
                    rest = mask ^ (mask & (1 << a | 1 << b))
                    if n == 4:
                        dx = rest.bit_length() - 1
                        d = 1 << dx
                        c = rest ^ d
                        cx = c.bit_length() - 1
                        if links[cx] & d:
                            safe = (a, b)  # all four go: the other two link once these left
                            break
                        # Not neighbours (those are linked): a link needs a free cell next to
                        # each of the two, which costs a shift to see and spares a fill.
                        after = live.free | 1 << a | 1 << b
                        if (
                            after >> (cx - stride) & around
                            and after >> (dx - stride) & around
                            and link_hits(c, after, d, k, stride)
                        ):
                            safe = (a, b)
                            break
                        spread = distance(a, b, stride) + distance(cx, dx, stride)
                    else:
                        spread = distance(a, b, stride)
                    # A kind of four with more than one linked pair waits: one more removal
                    # elsewhere may settle it (safe) or show which pairing is right.
                    key = ((a, b) in bans, n == 4 and len(pairs) > 1, spread + rng.random() * NOISE)
                    if best is None or key < best[0]:
                        best = (key, (a, b))
                if safe is not None:
                    safe_list.append((kind, ver, safe))
                elif best is not None:
                    heapq.heappush(heap, (best[0], ver, kind, best[1]))
            dirty.clear()
            move: tuple[int, int] | None = None
            while safe_list:
                kind, ver, pair = safe_list.pop()
                if version[kind] == ver:
                    move = pair
                    break
            if move is None:
                while heap:
                    key, ver, kind, pair = heapq.heappop(heap)
                    if version[kind] == ver:
                        move = pair
                        if key[1]:
                            contested.add(pair)
                        break
                if move is None:
                    return
                decided.add(len(seq))
            a, b = move
            # A path's cells only when a replay first needs them (most moves are never
            # replayed): -1, no cells known (a subset test always fails).
            support.append(0 if abs(a - b) in (1, stride) else -1)
            live.remove(a, b)
            kind = kind_of[a]
            version[kind] += 1  # its entries are stale until it is weighed again
            dirty.add(kind)
            for x, _ in live.last_gained():
                dirty.add(kind_of[x])
            seq.append(move)

    def replay(self, state: _State, drop: int) -> _State:
        """The moves of ``state`` without move ``drop``, as a fixed pairing: those before it
        as they were, the later ones in passes, each played once it links (at once when the
        cells of its support are all free, else after a link test); a live move list of the
        board left.  The supports found are written into ``state`` too (a support holds in
        any position), for its next replay when this repair is undone.  The passes are
        :meth:`python_replay_moves`, or its compiled twin (see
        :data:`levelgen.linkup.core.reach.NATIVE`)."""
        layout, k = self.board.layout, self.rules.max_turns
        stride = layout.stride
        _, seq, support, decided = state
        self.work += len(seq) - drop
        if _native_replay_moves is None:
            kept, kept_support, kept_decided, free = self.python_replay_moves(
                seq, support, decided, drop
            )
        else:
            kept, kept_support, kept_decided, free = _native_replay_moves(
                seq,
                support,
                decided,
                drop,
                self.start_free,
                link_cells,
                layout,
                k,
                stride,
                (layout.height + 3) * stride,
            )
        # The tiles are the start's that are not free now (each mask one operation).
        tiles = self.start_tiles ^ (self.start_tiles & free)
        masks = {kind: mask & tiles for kind, mask in self.start_masks.items()}
        # The position repaired is a dead end (no pair): then only the tiles put back (free
        # there) can be in a pair now, and only they are tested, and only their kinds looked
        # at: every kind holds an even number of tiles (pairs removed from a board the solver
        # plays only when each kind is even).
        stuck = state[0]
        linked = tiles & stuck.free if stuck.total == 0 else None
        live = LiveLinks.from_masks(
            layout, k, free, masks, undo=True, linked=linked, kind_of=stuck.kind_of, tiles=tiles
        )
        return live, kept, kept_support, kept_decided

    def python_replay_moves(
        self, seq: list[tuple[int, int]], support: list[int], decided: set[int], drop: int
    ) -> tuple[list[tuple[int, int]], list[int], set[int], int]:
        """The passes of :meth:`replay`: ``(kept, kept_support, kept_decided, free)``, the moves
        played in order, their supports, the indices of the decisions among them and the free
        cells after them (``support`` updated in place).  The Python reference of the compiled
        twin ``levelgen.linkup.core._native.replay_moves``, which does the same step for step."""
        layout, k = self.board.layout, self.rules.max_turns
        stride = layout.stride
        kept, kept_support = seq[:drop], support[:drop]
        kept_decided = {i for i in decided if i < drop}
        free = self.start_free
        is_free = bytearray(self.start_free_bytes)
        for a, b in kept:
            free |= 1 << a | 1 << b
            is_free[a] = is_free[b] = 1
        pending = list(range(drop + 1, len(seq)))
        # A move whose reach test failed: the free cells then and the frontier of the reach
        # (:func:`levelgen.linkup.core.reach.link_reach`); until a cell of that frontier is freed,
        # the test fails again.
        failed: dict[int, tuple[int, int]] = {}
        while pending:
            waiting = []
            for i in pending:
                a, b = seq[i]
                cells = support[i]
                if cells & free != cells:
                    # Most fail: a look at the cells next to the two tiles (a link leaves each
                    # through a free one, or joins neighbours), then a reach test, the path's
                    # cells only for a link.
                    if abs(a - b) not in (1, stride) and not (
                        (
                            is_free[a + 1]
                            or is_free[a - 1]
                            or is_free[a + stride]
                            or is_free[a - stride]
                        )
                        and (
                            is_free[b + 1]
                            or is_free[b - 1]
                            or is_free[b + stride]
                            or is_free[b - stride]
                        )
                    ):
                        waiting.append(i)
                        continue
                    before = failed.get(i)
                    if before is not None and not (free ^ before[0]) & before[1]:
                        waiting.append(i)
                        continue
                    # A move with no path known yet: the path search straight away (most of
                    # these link); a reach test only when it finds none, or for a move whose
                    # known path is blocked (most of those fail), to remember why.
                    found = None
                    if cells < 0:
                        found = link_cells(layout, free, a, b, k)
                    if found is None:
                        hits, _, frontier = link_reach(1 << a, free, 1 << b, k, stride)
                        if not hits:
                            failed[i] = (free, frontier)
                            waiting.append(i)
                            continue
                        found = link_cells(layout, free, a, b, k)
                    # Any path's cells will do (the pair links whenever they are free): kept
                    # in the state replayed too, for its next replay.
                    cells = support[i] = found or 0
                if i in decided:
                    kept_decided.add(len(kept))
                free |= 1 << a | 1 << b
                is_free[a] = is_free[b] = 1
                kept.append((a, b))
                kept_support.append(cells)
            if len(waiting) == len(pending):
                break
            pending = waiting
        return kept, kept_support, kept_decided, free

    def endgame(self, seq: list[tuple[int, int]], left: int) -> list[tuple[int, int]] | None:
        """A removal sequence that clears the board, made of a prefix of ``seq`` (the play of a
        stuck position with ``left`` tiles) and the exact search's answer from there; None
        when the search finds none within ``ENDGAME_NODES`` nodes.

        Why.  A run that gets down to a few hundred tiles can stall there for a long time: the
        lock is then often in its last hundred or so moves, and the exact search
        (:mod:`levelgen.linkup.solvers.search`) settles a position of a few hundred tiles in tens of
        nodes.  Measured on 64x64 seed 229, whose run of seed 0 stalled at 176 tiles: from the
        prefix that leaves 500 tiles the search found the rest in 84 nodes (0.31 s), and the
        prefix that leaves 300 was dead at the search's root.

        Which prefix.  The search's root relaxation proves a position dead when it is stuck
        (see :mod:`levelgen.linkup.solvers.search`).  A prefix that is not stuck leaves every
        shorter prefix not stuck (the relaxed game can play the real moves in between), so the
        longest prefix that is not stuck, among those leaving at most ``ENDGAME_SPAN`` more
        tiles, is found by bisection with root relaxations alone (no node); the search then
        gets that position, the one of the fewest tiles that the relaxation does not rule
        out.  Pure: the search is exact and deterministic under a node budget alone."""
        from .search import solve_search

        board, lay = self.board, self.board.layout

        def finish(n: int, nodes: int) -> SolveResult:
            rest = board.without(*(lay.pos(bit) for pair in seq[:n] for bit in pair))
            result = solve_search(rest, self.rules, Budget(nodes))
            self.endgame_searches += 1
            self.work += WORK_ENDGAME_TILE * rest.tile_count()
            self.work += WORK_ENDGAME_NODE * result.stats.nodes
            return result

        total = self.start_tiles.bit_count()
        low, high = max(0, (total - left - ENDGAME_SPAN) // 2), len(seq)  # high: stuck
        n, result = low, finish(low, 0)
        if result.status is SolveStatus.UNSOLVABLE:
            return None
        while result.status is not SolveStatus.SOLVED and high - low > 1:
            n = (low + high) // 2
            result = finish(n, 0)
            if result.status is SolveStatus.UNSOLVABLE:
                high = n
            elif result.status is SolveStatus.UNKNOWN:
                low = n
        if result.status is not SolveStatus.SOLVED:
            n, result = low, finish(low, ENDGAME_NODES)
        if result.status is not SolveStatus.SOLVED:
            return None
        return seq[:n] + move_bits(lay, result.moves or ())

    def tiles_left(self, live: LiveLinks) -> int:
        """The tiles left in ``live``: the start's tiles that are not free (a few operations;
        :attr:`LiveLinks.tiles` runs over every kind)."""
        return (self.start_tiles ^ (self.start_tiles & live.free)).bit_count()

    def steps(self) -> Generator[bool | None, None, list[tuple[int, int]] | None]:
        """The whole run, pausing before each repair (``yield True``) and every ``POLL_STEPS``
        moves of a dive (``yield None``); it returns the removal sequence as bit pairs, or
        None when a dive is stuck with no decision to revisit.  Whoever drives it decides when
        to stop (a budget) and may resume it later: a pause changes nothing it computes."""
        while True:
            state: _State = (LiveLinks(self.board, self.rules, undo=True), [], [], set())
            yield from self.diving(*state)
            left = self.tiles_left(state[0])
            since = 0
            while left and since < self.stall:
                yield True  # a pause before a repair (where a cap on repairs may stop it)
                if since == ENDGAME_AFTER and left <= ENDGAME_TILES:
                    # Once per plateau (``since`` passes here once between kept repairs).
                    done = self.endgame(state[1], left)
                    if done is not None:
                        return done
                    yield True
                drop = self.culprit(state)
                self.work += WORK_CULPRIT
                if drop is None:
                    return None  # stuck with no decision to revisit
                self.repairs += 1
                since += 1
                pair = state[1][drop]
                self.bans.add(pair)
                self.tried.add(pair)
                repaired = self.replay(state, drop)
                yield from self.diving(*repaired)
                now = self.tiles_left(repaired[0])
                if now < left:
                    state, since, left = repaired, 0, now
                else:
                    # Undone: the decision was most likely right, so it may be taken again
                    # (a ban would force a wrong pairing on its kind in later dives).
                    self.bans.discard(pair)
            if not left:
                return state[1]
            # Stalled: start again, the bans and the decisions tried forgotten and the random
            # choices going on from where they are.
            self.bans.clear()
            self.tried.clear()
            self.restarts += 1
