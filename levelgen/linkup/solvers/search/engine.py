"""The engine of the search solver: node expansion, memo, nogoods, runs and the depth-first
search with backjumping.

The soundness of each step is argued in :mod:`levelgen.linkup.solvers.search`; the state with its
make/unmake, decisions and safe-move closure is :mod:`levelgen.linkup.solvers.search.state`, the
relaxed game :mod:`levelgen.linkup.solvers.search.relax`.

Backjumping.  Each node knows its depth; the depth at which each tile was removed, each
group of four split and each pair forbidden is kept, and every branch records its
``Transition`` (the decision, then the groups the closure removed and the splits it forced,
each with its reason).  A dead child comes with an explanation
(:mod:`levelgen.linkup.solvers.search.explain`); the deepest depth among its facts says how many
ancestors are dead with it, and those are left at once (``_child_dead``).  The explanations
of dead nodes are kept as nogoods (:mod:`levelgen.linkup.solvers.search.nogoods`) and asked at every
node before the relaxation; an explanation found to hold already at the node above its own is
used there as it is.

Runs.  A short first dive skips the relaxation (most solvable boards need nothing more); then
runs of ``RESTART_BASE`` times the Luby sequence nodes follow, taking the branching orders of
``SCHEDULE`` in turn, the "tightest" ones with seeded random tie-breaks from ``RANDOM_FROM`` on.
Each order has an engine of its own (``_fork``; they share the dead-state memo, the nogoods,
the relaxation's caches and the counters): a deterministic run is paused at its limit and the next
run of its order goes on from there, a randomized one starts again from the root.  Every run's
limit is eventually exceeded by a later one, so the search stays complete.

Pure: no I/O, no clock; the budget's callables are the only outside calls, and the random
tie-breaks come from a ``random.Random`` seeded with the run number (deterministic).
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from ...core.board import Board, bit_list, iter_bits
from ...core.rules import Rules
from ..base import Budget, SolveStats
from ..common import POLL_NODES, DeadMemo
from .choice import Decision, choose_in_order, choose_tightest, luby
from .explain import (
    Expl,
    Transition,
    expl_level,
    explain_no_pairing,
    explain_stuck,
    holds,
    merge,
    resolve,
)
from .nogoods import NogoodStore
from .relax import Relaxer, Run
from .state import Action, Key, Pair, SearchState

__all__ = [
    "BACKJUMP",
    "BLIND_DIVE",
    "RESTART_BASE",
    "SCHEDULE",
    "Engine",
    "OutOfBudget",
]

#: Nodes of the first run before a restart (later runs: this times the Luby sequence); None
#: runs one depth-first search to the end.
RESTART_BASE: int | None = 200

#: Whether the search starts with a short dive (as many nodes as kinds, plus 8) that skips the
#: relaxation, following the order of the first relaxed run.
BLIND_DIVE = True

#: Link tests between two polls of ``Budget.should_stop`` at most (besides every
#: ``POLL_NODES`` nodes).
POLL_TESTS = 2_000

#: Whether dead ends are explained and the search jumps back over decisions that played no part
#: in them (:mod:`levelgen.linkup.solvers.search.explain`).
BACKJUMP = True

#: Tests set this to check that every explanation of a dead node holds at it.
CHECK_EXPLANATIONS = False

#: Whether explanations of dead states are kept and looked up at later nodes (nogoods).
NOGOODS = True

#: Tests set this to check nogoods: it is called with the engine and each nogood learned or
#: found to hold, at a state where the nogood holds.
CHECK_NOGOOD: Callable[[Engine, Expl], None] | None = None

#: The branching orders (see ``Engine._choose``) taken by runs 0, 1, 2, ... in turn.
SCHEDULE = ("order", "tightest")

#: From this run on, runs of the orders in ``RANDOMIZED`` break ties at random (a
#: ``random.Random`` seeded with the run number).  "order" runs stay deterministic: each one
#: goes on where the last one paused.
RANDOM_FROM = 2
RANDOMIZED = ("tightest",)


class OutOfBudget(Exception):
    """The node budget ran out or the caller asked to stop; the message says which."""


@dataclass(frozen=True, slots=True)
class _Dead:
    """A child found dead on entering it, with its explanation (None: none)."""

    expl: Expl | None


@dataclass(slots=True)
class _Frame:
    """A node on the DFS path: what to restore on leaving it and the branch it is on."""

    occ: int
    free: int
    n_moves: int
    n_trail: int
    n_links: int
    key: Key
    run: Run
    group: int
    tile: int
    partner: int
    stage: int = 0
    action: Action = field(default_factory=lambda: ([], None))
    #: The transition to the child being explored, and the first child's death.
    step: Transition | None = None
    first: tuple[Expl | None, Transition | None] | None = None


class Engine(SearchState):
    """One search over one board; build it, call :meth:`root_relaxation`, then :meth:`search`."""

    def __init__(self, board: Board, rules: Rules, budget: Budget, stats: SolveStats) -> None:
        super().__init__(board, rules)
        self.budget = budget
        self.stats = stats
        size = (board.height + 2) * self.stride
        self.kinds = {b: self.kind_mask[g] for b, g in self.gid.items()}
        self.relaxer = Relaxer(self.kind_mask, self.gid, self.k, self.stride, size)
        self.open_cells = self.free | self.occ
        self.memo = DeadMemo()
        self.nogoods = NogoodStore(self.occ)
        self.root_run = Run()
        self.restart_base: int | None = RESTART_BASE
        self.rng: random.Random | None = None
        self.strategy = "order"
        self.blind = False
        self.polled_at = 0
        #: The DFS path of a run paused to be resumed (see ``_dfs``).
        self.paused: list[_Frame] | None = None

    # ----- bookkeeping ------------------------------------------------------------------------

    def record_counters(self) -> None:
        """Copy the counters into the stats."""
        self.stats.counters.update(self.count)
        self.stats.counters["memo_size"] = len(self.memo)
        self.stats.counters["memo_evictions"] = self.memo.evictions
        self.stats.counters["nogoods"] = len(self.nogoods)
        self.stats.counters["nogood_evictions"] = self.nogoods.evictions

    def _tick(self) -> None:
        stats, budget = self.stats, self.budget
        stats.nodes += 1
        if budget.max_nodes is not None and stats.nodes > budget.max_nodes:
            raise OutOfBudget(f"the node budget of {budget.max_nodes} ran out")
        if budget.should_stop is None:
            return
        # Poll every POLL_NODES nodes, and sooner when nodes are expensive (big boards).
        work = self.count["link_tests"]
        if stats.nodes % POLL_NODES == 1 or work - self.polled_at >= POLL_TESTS:
            self._poll()

    def _poll(self) -> None:
        """Ask the caller whether to stop (between nodes, and during long relaxed runs)."""
        self.polled_at = self.count["link_tests"]
        if self.budget.should_stop is not None and self.budget.should_stop():
            raise OutOfBudget("stopped by the caller (time limit)")

    # ----- memo -------------------------------------------------------------------------------

    def _is_dead(self, key: Key) -> tuple[bool, Expl | None]:
        """Whether the memo knows the state dead, and its explanation when the memo holds the
        state itself.  Decisions only remove solutions: a state with the same tiles and fewer
        decisions proved dead will do (with no explanation)."""
        memo = self.memo
        if key in memo:
            known = memo.get(key)
            return True, known if isinstance(known, Expl) else None
        return (key[0], key[1], ()) in memo or (key[0], (), ()) in memo, None

    # ----- relaxation -------------------------------------------------------------------------

    def _relax(self, parent: Run | None, suspect: int = -1) -> tuple[Run, int]:
        """The relaxed run (see :meth:`Relaxer.run`); ``suspect`` masks the tiles whose steps of
        ``parent`` must be checked one by one (-1: all)."""
        counter = [0]
        poll = self._poll if self.budget.should_stop is not None else None
        found = self.relaxer.run(
            self.occ, self.free, self.gmask, self.gid, self.forbid, parent, suspect, counter, poll
        )
        self.count["link_tests"] += counter[0]
        if parent is not None and counter[0] == 0:
            self.count["relax_replayed"] += 1
        return found

    def _suspect(self, dirty: list[int]) -> int:
        """The tiles whose steps of the parent's run must be checked one by one: those of the
        kinds of the groups ``dirty`` (decided on).  For any other tile, neither its group nor
        its forbidden pairs changed, and the closure removes whole groups: its witness, which
        was in its group, is still there if the tile is (gone tiles are skipped anyway)."""
        kind_mask, gkind = self.kind_mask, self.gkind
        suspect = 0
        for g in dirty:
            suspect |= kind_mask[gkind[g]]
        return suspect

    def root_relaxation(self) -> int:
        """Run the relaxation at the start; the mask of tiles it cannot clear (0: none)."""
        self.root_run, stuck = self._relax(None)
        return stuck

    # ----- choice -----------------------------------------------------------------------------

    def _choose(self, run: Run) -> Decision | None:
        """``(group, tile, partner)``: the linkable pair to decide on, or None when no group of
        four or more has one (with the closure done, there is then no legal move at all)."""
        links, forbid, rng = self.links, self.forbid, self.rng
        if self.strategy == "order":
            return choose_in_order(run, self.gmask, self.gid, links, forbid, rng, self.stride)
        return choose_tightest(self.gmask, links, forbid, rng, self.stride)

    # ----- the search -------------------------------------------------------------------------

    def _enter(self, dirty: list[int], parent: Run) -> _Frame | _Dead | Literal[True]:
        """Expand a node: True when the board got cleared, ``_Dead`` (with its explanation)
        when the node is dead, else its frame.  When dead, the state is already restored."""
        self._tick()
        occ, free = self.occ, self.free
        n_moves, n_trail, n_links = len(self.moves), len(self.trail), len(self.link_log)
        self._closure(dirty)
        if not self.occ:
            return True
        key = self._key()
        choice = None
        dead, expl = self._is_dead(key)
        if not dead and NOGOODS:
            expl = self.nogoods.find(self.occ, self.gid, self.forbid)
            if expl is not None:
                dead = True
                self.count["nogood_hits"] += 1
                if CHECK_NOGOOD is not None:
                    CHECK_NOGOOD(self, expl)
        if dead:
            self.count["memo_hits"] += 1
        else:
            if self.blind:
                occ_now = self.occ
                run, stuck = Run(step for step in parent if occ_now & step[3]), 0
            else:
                run, stuck = self._relax(parent, self._suspect(dirty))
            if stuck:
                self.count["relax_pruned"] += 1
                if BACKJUMP:
                    self.count["link_tests"] += stuck.bit_count()
                    expl = explain_stuck(
                        stuck,
                        self.occ,
                        self.gid,
                        self.forbid,
                        self.open_cells,
                        self.kinds,
                        self.k,
                        self.stride,
                    )
            else:
                choice = self._choose(run)
                if choice is None:
                    self.count["no_move"] += 1
        if choice is None:
            self.memo.add(key, expl)
            if expl is not None and not dead:
                self._learn(expl)
            self._restore(occ, free, n_moves, n_trail, n_links)
            return _Dead(expl)
        g, tile, partner = choice
        return _Frame(occ, free, n_moves, n_trail, n_links, key, run, g, tile, partner)

    def _learn(self, expl: Expl) -> None:
        """Keep ``expl``, which holds in the current state, as a nogood."""
        if NOGOODS:
            if CHECK_NOGOOD is not None:
                CHECK_NOGOOD(self, expl)
            self.nogoods.add(expl)

    def search(self) -> list[Pair] | None:
        """The removal sequence (bit pairs) clearing the board, or None when none exists.
        ``OutOfBudget`` when the budget runs out first.

        See the module docstring for the runs; a dive or run that ends within its limit has
        decided the board either way (a dive lacks only the relaxation's pruning)."""
        gmask, gid, links = self.gmask, self.gid, self.links
        free = self.free
        # Links are symmetric: each tile asks about the mates after it (in bit order) only; the
        # mates before it have told it already.
        tiles = bit_list(self.occ)
        for t in tiles:
            links[t] = 0
        for t in tiles:
            later = gmask[gid[t]] & -(2 << t)
            if later:
                hit = self._link(t, free, later)
                if hit:
                    links[t] |= hit
                    bit = 1 << t
                    for m in iter_bits(hit):
                        links[m] |= bit
        if BLIND_DIVE:
            # A first quick dive without the relaxation: most solvable boards need nothing
            # more, and a dead end found this way is still a dead end.
            self.blind = True
            done, moves = self._dfs(self.n_kinds + 8)
            self.blind = False
            if done:
                return moves
        # Runs of a deterministic order go on where the last one of that order stopped (each
        # order has an engine of its own, sharing the memo, nogoods, caches and counters).
        engines = {strategy: self._fork() for strategy in SCHEDULE[1:]}
        engines[SCHEDULE[0]] = self
        run = 0
        while True:
            strategy = SCHEDULE[run % len(SCHEDULE)]
            engine = engines[strategy]
            engine.strategy = strategy
            randomize = run >= RANDOM_FROM and strategy in RANDOMIZED
            engine.rng = random.Random(run) if randomize else None
            limit = None if self.restart_base is None else self.restart_base * luby(run + 1)
            done, moves = engine._dfs(limit, resume=not randomize)
            if done:
                return moves
            run += 1
            self.count["restarts"] = run

    def _fork(self) -> Engine:
        """An engine at the same (root) state with state of its own, sharing the memo, the
        nogoods, the relaxation's caches, the counters and the statistics."""
        other = copy.copy(self)
        self._copy_state(other)
        other.paused = None
        return other

    def _dfs(self, limit: int | None, resume: bool = False) -> tuple[bool, list[Pair] | None]:
        """One depth-first run: ``(True, moves or None)`` when decided, ``(False, None)`` when
        it expanded ``limit`` nodes first.  The state is then back at the root, unless
        ``resume``: the run is then paused where it stopped, and the next call with ``resume``
        goes on from there (without, a paused run is dropped and this one starts at the root).
        The node at ``stack[d]`` has depth ``d``; ``self.level`` is the depth of the node being
        entered."""
        stop_at = None if limit is None else self.stats.nodes + limit
        stack = self.paused
        self.paused = None
        if stack is not None and not resume:
            self._unwind(stack)
            stack = None
        if stack is None:
            self.level, self.step = 0, None
            top = self._enter(list(range(self.n_kinds)), self.root_run)
            if top is True:
                return True, self.moves
            if isinstance(top, _Dead):
                return True, None
            stack = [top]
        while stack:
            f = stack[-1]
            if stop_at is not None and self.stats.nodes >= stop_at:
                if resume:
                    self.paused = stack
                else:
                    self._unwind(stack)
                return False, None
            g, tile, partner = f.group, f.tile, f.partner
            self.count["branches"] += 1
            self.level = len(stack)
            step = Transition(f.stage == 0, tile, partner) if BACKJUMP else None
            self.step = step
            child: _Frame | _Dead | Literal[True]
            if f.stage == 0:
                f.stage = 1
                action: Action = ([(g, tile, partner)], None)
                ng = self._split(g, tile, partner)
                child = self._enter([g, ng], f.run)
                # The index of the parent's run is made again for its second child: kept on
                # every frame of the path it would cost memory in the tiles squared times the
                # depth.
                f.run.drop_index()
            else:
                f.stage = 2
                forced = self._ban(g, tile, partner)
                if forced is None:
                    # No pairing of the group of four is left.
                    kind = self.kind_mask[self.gkind[g]]
                    four = self.gmask[g]
                    child = _Dead(
                        explain_no_pairing(four, kind, self.occ, self.forbid) if BACKJUMP else None
                    )
                    action = ([], (tile, partner))
                else:
                    action = (forced, (tile, partner))
                    child = self._enter([g, *(len(self.gmask) - 1 for _ in forced)], f.run)
                    f.run.drop_index()
            if child is True:
                return True, self.moves
            if isinstance(child, _Dead):
                self._undo(action)
                if self._child_dead(stack, child.expl, step):
                    return True, None
                continue
            f.action = action
            f.step = step
            stack.append(child)
        return True, None

    def _level(self, expl: Expl | None, own: int) -> int:
        return expl_level(
            expl, own, self.occ, self.gid, self.removed_at, self.split_at, self.banned_at
        )

    def _child_dead(self, stack: list[_Frame], expl: Expl | None, step: Transition | None) -> bool:
        """The child of the top frame reached by ``step`` is dead, explained by ``expl``.

        After the first child, keep its explanation and go on with the second, unless the
        explanation already holds at the frame; after the second, the frame is dead too, with
        the two explanations resolved into one.  A dead frame is left together with every
        ancestor its explanation holds at (they are dead as well, and memoised), and the frame
        above them is told in turn.  Returns True when the root is dead."""
        while True:
            f = stack[-1]
            depth = len(stack) - 1
            node: Expl | None
            if f.stage == 1:
                if expl is None or not holds(expl, self.occ, self.gid, self.forbid):
                    f.first = (expl, step)
                    return False
                node = expl
            else:
                node = self._explain_node(f.first, (expl, step))
            if CHECK_EXPLANATIONS and node is not None:
                assert holds(node, self.occ, self.gid, self.forbid), "explanation does not hold"
            level = self._level(node, depth)
            if level < depth:
                self.count["backjumps"] += 1
                self.count["levels_skipped"] += depth - level
            if node is not None and f.stage == 2:
                self._learn(node)
            while len(stack) > level:
                self.memo.add(stack[-1].key, node)
                self._leave(stack)
            if not stack:
                return True
            expl, step = node, stack[-1].step

    @staticmethod
    def _explain_node(
        first: tuple[Expl | None, Transition | None] | None,
        second: tuple[Expl | None, Transition | None],
    ) -> Expl | None:
        """The explanation of a node whose two children are dead (None when either has
        none)."""
        if first is None:
            return None
        (e1, s1), (e2, s2) = first, second
        if e1 is None or e2 is None or s1 is None or s2 is None:
            return None
        return merge(resolve(e1, s1), resolve(e2, s2))

    def _leave(self, stack: list[_Frame]) -> None:
        f = stack.pop()
        self._restore(f.occ, f.free, f.n_moves, f.n_trail, f.n_links)
        if stack:
            self._undo(stack[-1].action)

    def _unwind(self, stack: list[_Frame]) -> None:
        while stack:
            self._leave(stack)
