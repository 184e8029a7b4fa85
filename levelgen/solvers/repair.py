"""The repair solver: finds removal sequences for large boards fast, and never proves anything.

Why.  The exact search (:mod:`levelgen.solvers.search`) decides a board by pairing decisions,
about one per kind of four tiles, each costing a relaxation over the whole board; on the levels
we generate from 40x40 on (hundreds of kinds of four) that is more than ten seconds.  Yet a
wrong pairing is rarely fatal: measured along known solutions of 40x40 levels, about one wrong
decision in ten (or twenty) made the board unclearable, and the fatal ones showed up hundreds
of moves later, past any relaxation's notice.  So this solver plays quickly and mends the few
decisions that turn out to matter.

How.

1. A *dive* plays greedily.  Safe moves first (by monotonicity, see :mod:`levelgen.rules`): the
   last two tiles of a kind when they link, and a pair of a kind of four when the two other
   tiles link once it is gone (all four go).  When no safe move is left, a *decision*: a
   linkable pair of a kind of four or more tiles, preferring pairs not banned, then the
   smallest sum of the pair's distance and the distance between the two tiles it leaves
   (Manhattan), ties broken by a ``random.Random`` seeded with ``SEED`` (so the answer is
   the same on every run).  The dive ends when no move is left.
2. A dive that ends with tiles left is *repaired*: among the stuck tiles next to a free cell,
   those whose kind has two tiles left and had a pair removed by a decision, one is drawn
   (among those that link now to the cell of a tile of that pair, when there are any: the
   repair then gives the stuck tile a move at once);
   that decision's pair is banned and put back, and the rest of the sequence is replayed as a
   fixed pairing: passes over it in order, each move played as soon as it links (for a fixed
   pairing the moves that can be played form one maximal set, whatever the order: monotonicity
   again), the moves before the decision kept as they were.  Then a new dive goes on from
   there, and the put-back tiles may pair otherwise.  A repair that leaves more than
   ``REVERT_SLACK`` tiles more than before is undone.
3. After ``STALL`` repairs without a new fewest tiles left, it starts again from the full
   board (the bans forgotten, the random choices going on).  It stops when the board is clear
   (``SOLVED``: the sequence with exact best paths, which :func:`levelgen.solvers.solve`
   replays like every answer), when the budget runs out (``UNKNOWN``: ``max_nodes`` counts
   repairs), or when a dive is stuck with no decision to revisit (``UNKNOWN``).  It never
   answers ``UNSOLVABLE``: a failed dive proves nothing.  ``auto`` gives it most of its time
   on large boards, after a quick look for a proof at the exact search's root and before the
   exact search, which can prove a board unsolvable.

Pure: the randomness is the seeded ``random.Random`` above; no clock (``budget.should_stop`` is
polled between repairs and every ``POLL_STEPS`` moves of a dive).
"""

from __future__ import annotations

import random

from ..board import Board, iter_bits
from ..live import LiveLinks
from ..paths import link_cells
from ..reach import linkable_mask
from ..rules import Rules
from .base import Budget, SolveResult, SolveStatus
from .search_common import build_moves, odd_kinds_result, timed_stats

__all__ = ["METHOD", "REVERT_SLACK", "SEED", "solve_repair"]

METHOD = "repair"

#: The seed of the tie-breaks and of the choice of the decision to repair.
SEED = 0

#: A repair that leaves more than this many tiles more than the dive before it is undone.
REVERT_SLACK = 40

#: The budget's ``should_stop`` is asked every this many moves of a dive (and between repairs).
POLL_STEPS = 256

#: A run of this many repairs without a new fewest tiles left starts the solver again.
STALL = 100

#: Of a kind of more than four tiles, a dive weighs only the first this many linked pairs
#: (in bit order): on a board of one kind all of them would make each step quadratic.
PAIR_SAMPLE = 16

#: Tie-breaks add up to this much to a decision's distance.
NOISE = 10.0


class _OutOfBudget(Exception):
    pass


#: A play of the board: the live move list of the position reached, the moves (bit pairs), the
#: free cells each move's link ran in, and the indices of the moves that were decisions.
_State = tuple[LiveLinks, list[tuple[int, int]], list[int], set[int]]


class _Repairer:
    """One run of the solver on one board (see the module docstring)."""

    def __init__(self, board: Board, rules: Rules, budget: Budget) -> None:
        self.board, self.rules, self.budget = board, rules, budget
        self.rng = random.Random(SEED)
        self.bans: set[tuple[int, int]] = set()
        #: The kind of each tile bit of the start.
        self.kind_of = {
            x: kind for kind, mask in board.kind_masks().items() for x in iter_bits(mask)
        }
        self.repairs = 0
        self.restarts = 0

    def _stop(self) -> bool:
        return self.budget.should_stop is not None and self.budget.should_stop()

    def dive(
        self,
        live: LiveLinks,
        seq: list[tuple[int, int]],
        support: list[int],
        decided: set[int],
    ) -> None:
        """Play on from ``live`` until no move is left, appending the moves to ``seq``, the
        cells of their best paths to ``support`` (:func:`levelgen.paths.link_cells`: the link
        holds again whenever they are all free) and the indices of the decisions to
        ``decided``."""
        stride, k = live.stride, live.k
        layout = self.board.layout
        kind_of, kind_mask, links = live.kind_of, live.kind_mask, live.links
        bans, rng = self.bans, self.rng
        movable = {kind_of[a] for a, _ in live.pairs()}
        steps = 0
        while True:
            steps += 1
            if steps % POLL_STEPS == 0 and self._stop():
                raise _OutOfBudget
            safe = None
            best: tuple[tuple[bool, float], tuple[int, int]] | None = None
            for kind in sorted(movable):
                mask = kind_mask[kind]
                n = mask.bit_count()
                pairs: list[tuple[int, int]] = []
                for a in iter_bits(mask):
                    above = links[a] & -(2 << a)
                    if above:
                        pairs += [(a, b) for b in iter_bits(above)]
                        if n > 4 and len(pairs) >= PAIR_SAMPLE:
                            break  # a kind of many tiles: the first few of its pairs will do
                if not pairs:
                    movable.discard(kind)
                    continue
                for a, b in pairs:
                    if n == 2:
                        safe = (a, b)
                        break
                    rest = mask & ~(1 << a | 1 << b)
                    if n == 4:
                        c = rest & -rest
                        d = rest ^ c
                        if links[c.bit_length() - 1] & d or linkable_mask(
                            c, live.free | 1 << a | 1 << b, d, k, stride
                        ):
                            safe = (a, b)  # all four go: the other two link once these left
                            break
                        spread = _distance(a, b, stride) + _distance(
                            c.bit_length() - 1, d.bit_length() - 1, stride
                        )
                    else:
                        spread = _distance(a, b, stride)
                    key = ((a, b) in bans, spread + rng.random() * NOISE)
                    if best is None or key < best[0]:
                        best = (key, (a, b))
                if safe is not None:
                    break
            if safe is None:
                if best is None:
                    return
                safe = best[1]
                decided.add(len(seq))
            a, b = safe
            support.append(link_cells(layout, live.free, a, b, k) or 0)
            live.remove(a, b)
            for x, _ in live.last_gained():
                movable.add(kind_of[x])
            seq.append(safe)

    def replay(self, state: _State, drop: int) -> _State:
        """The moves of ``state`` without move ``drop``, as a fixed pairing: those before it
        as they were, the later ones in passes, each played once it links (at once when the
        cells its link ran in are all free again, else after a link test); a live move list
        of the board left."""
        board, rules = self.board, self.rules
        layout, k = board.layout, rules.max_turns
        _, seq, support, decided = state
        kept, kept_support = seq[:drop], support[:drop]
        kept_decided = {i for i in decided if i < drop}
        free = board.free_mask(rules.outside)
        for a, b in kept:
            free |= 1 << a | 1 << b
        pending = [i for i in range(drop + 1, len(seq))]
        while pending:
            waiting = []
            for i in pending:
                a, b = seq[i]
                cells = support[i]
                if cells & ~free:
                    found = link_cells(layout, free, a, b, k)
                    if found is None:
                        waiting.append(i)
                        continue
                    cells = found
                if i in decided:
                    kept_decided.add(len(kept))
                free |= 1 << a | 1 << b
                kept.append((a, b))
                kept_support.append(cells)
            if len(waiting) == len(pending):
                break
            pending = waiting
        lay = board.layout
        left = board.without(*(lay.pos(bit) for pair in kept for bit in pair))
        live = LiveLinks(left, rules, undo=True)
        return live, kept, kept_support, kept_decided

    def culprit(self, state: _State) -> int | None:
        """The index of a decision to undo: one drawn among those of the kinds of two tiles
        left that have a stuck tile next to a free cell (any stuck tile when none is), among
        those whose stuck tile links now to a cell of the decision's pair when there are any."""
        live, seq, _, decided = state
        by_kind: dict[int, int] = {}
        for i in sorted(decided):
            by_kind[self.kind_of[seq[i][0]]] = i
        occ = 0
        for mask in live.kind_mask.values():
            occ |= mask
        free, stride = live.free, live.stride
        exposed = ((free << 1) | (free >> 1) | (free << stride) | (free >> stride)) & occ
        k = live.k
        for tiles in (exposed, occ):
            found = sorted(
                {
                    (x, by_kind[kind])
                    for x in iter_bits(tiles)
                    if (kind := self.kind_of[x]) in by_kind
                    and live.kind_mask[kind].bit_count() == 2
                }
            )
            # Rather a repair after which the stuck tile links at once to a tile put back.
            ready = [
                i
                for x, i in found
                if linkable_mask(1 << x, free, 1 << seq[i][0] | 1 << seq[i][1], k, stride)
            ]
            pool = ready or [i for _, i in found]
            if pool:
                return pool[self.rng.randrange(len(pool))]
        return None

    def run(self) -> list[tuple[int, int]] | None:
        """The removal sequence as bit pairs, or None when the budget ran out or no decision
        is left to repair."""
        max_repairs = self.budget.max_nodes
        try:
            while True:
                state: _State = (LiveLinks(self.board, self.rules, undo=True), [], [], set())
                self.dive(*state)
                best, since = state[0].tiles, 0
                while state[0].tiles and since < STALL:
                    if self._stop() or (max_repairs is not None and self.repairs >= max_repairs):
                        return None
                    drop = self.culprit(state)
                    if drop is None:
                        return None  # stuck with no decision to revisit
                    self.repairs += 1
                    since += 1
                    self.bans.add(state[1][drop])
                    repaired = self.replay(state, drop)
                    self.dive(*repaired)
                    tiles = repaired[0].tiles
                    if tiles <= state[0].tiles + REVERT_SLACK:
                        state = repaired
                        if tiles < best:
                            best, since = tiles, 0
                if not state[0].tiles:
                    return state[1]
                # Stalled: start again, the bans forgotten and the random choices going on from
                # where they are.
                self.bans.clear()
                self.restarts += 1
        except _OutOfBudget:
            return None


def _distance(a: int, b: int, stride: int) -> int:
    return abs(a // stride - b // stride) + abs(a % stride - b % stride)


def solve_repair(board: Board, rules: Rules, budget: Budget) -> SolveResult:
    """A removal sequence of ``board`` under ``rules`` (``SOLVED``), or ``UNKNOWN`` when the
    budget ran out (see the module docstring); ``UNSOLVABLE`` only for a kind of an odd count
    of tiles.  Classic boards only (no layers, no sliding rule)."""
    stats, finish = timed_stats(budget)
    odd = odd_kinds_result(board, METHOD, stats)
    if odd is not None:
        return finish(odd)
    if board.upper or rules.slide != "none":
        raise ValueError("the repair solver plays the classic game only (no layers or sliding)")
    repairer = _Repairer(board, rules, budget)
    pairs = repairer.run()
    stats.nodes = repairer.repairs
    stats.counters["repairs"] = repairer.repairs
    stats.counters["restarts"] = repairer.restarts
    if pairs is None:
        return finish(
            SolveResult(
                SolveStatus.UNKNOWN,
                stats=stats,
                reason=f"no removal order found after {repairer.repairs} repairs"
                f" and {repairer.restarts} restarts",
                method=METHOD,
            )
        )
    moves = build_moves(board, rules, pairs)
    return finish(SolveResult(SolveStatus.SOLVED, moves=moves, stats=stats, method=METHOD))
