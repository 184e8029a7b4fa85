"""The CP-SAT solver: a second, independent decision procedure.

This module and :mod:`levelgen.linkup.solvers.cpsat_assign` (the kind-assignment model of difficulty
shaping) are the only ones that import ``ortools``, inside the functions that build and solve
models, so importing them costs nothing.

Glossary.  A *pair* is two tiles of one kind that might leave together.  A *support* of a pair
is the set of tiles lying on one of its candidate paths: the pair can go as soon as every tile of
one support is gone.  A *pairing* picks, for every tile, the partner it leaves with.  A *sweep*
visits the pairs in a fixed order (the *rank* of a pair is the smallest rank of its tiles, tiles
being ranked by their optimistic earliest round, then row order) and removes each matched pair
whose support is clear, counting tiles of lower rank removed earlier in the same sweep.

Supports and optimistic rounds come from the link graph (:mod:`levelgen.linkup.solvers.linkgraph`,
pure); this module builds and solves the models.  Every ``max_turns`` the rules allow is
modelled; a board whose walks are too many to list is UNKNOWN, with the reason.

The sweeps model (``SweepsModel``).  ``gone[i][s]``: tile ``i`` is gone after sweep ``s``;
``match[p]``: pair ``p`` is in the pairing.  A matched pair gone after sweep ``s`` needs a support
whose tiles of lower rank than the pair are gone after sweep ``s`` and whose other tiles are gone
after sweep ``s - 1``.  In ``clear`` mode every tile is gone after the last sweep.  In
``progress`` mode the schedule is *eager* (a matched pair goes in the first sweep where it can)
and every sweep must remove a tile unless the board is already clear.

Why the answers are sound.
- SOLVED: the solver's pairing is replayed in Python with rounds (each round removes every
  matched pair linkable at its start); by monotonicity that clears the board whenever any order
  for the pairing does, and a pairing that does not clear is a model bug (``AssertionError``).
  Each move gets its exact best path from :func:`levelgen.linkup.core.paths.find_path` on the board
  of that moment, and the dispatcher replays the sequence again.
- UNSOLVABLE, three ways.  (1) Some kind has an odd number of tiles.  (2) A relaxation never
  removes some tile: round by round, let a tile leave with *any* tile of its kind once a support
  of theirs is clear; every real removal order removes tiles no earlier than this (induction on
  the rounds), so a tile it never removes can never go.  (3) The ``progress`` model with ``S``
  sweeps is infeasible.  With a fixed pairing, removing a matched pair as soon as it is linkable
  never hurts (monotonicity), so the pairing clears the board exactly when its eager sweeps do.
  Eager sweeps are determined by the pairing, and a sweep that removes nothing changes nothing,
  so every later sweep is empty too and the board is never cleared.  Hence the eager sweeps of a
  pairing that clears the board remove something in every sweep until the board is clear, and
  satisfy the ``progress`` model for *every* ``S``.  Infeasibility therefore proves that no
  pairing, so no removal order, clears the board.
- ``S`` grows (by half, at least 2) from the optimistic lower bound on the sweeps needed; at
  ``S`` = number of pairs a feasible ``progress`` model removes a pair in every sweep, i.e.
  clears the board, so the loop always ends with a decision when the budget allows.

The schedule.  For each ``S``: the ``clear`` model (a solution is SOLVED), then, on the first
``S``, every other one and the last, the ``progress`` model (infeasible is UNSOLVABLE; a
solution whose pairing clears the board in Python is SOLVED too).  Sweeps rather than rounds
(each pair sees the removals of lower rank made earlier in its own sweep) cut the number of time
steps two- to threefold on the benchmark boards, and the model size with it.

Warm start.  A greedy pass (sweeps taking, in sweep order, every pair whose tiles are both still
there and which may leave) gives a partial or complete schedule that CP-SAT gets as a hint and
that sets the first ``S`` to try; a ``progress`` solution that keeps going longer replaces it.
CP-SAT's presolve is off: on these models (built with constants folded and minimal supports)
its clique merging and probing cost more than they saved, measured on the benchmark boards.

Determinism and budget.  One worker, ``random_seed`` fixed, and a deterministic time limit:
``budget.max_nodes`` nodes give ``max_nodes / NODES_PER_DTIME`` units, ``budget.time_limit``
seconds give ``time_limit * DTIME_PER_SECOND`` units (CP-SAT calibrates its unit to be roughly
a second; 0.75 leaves room so that the deterministic limit, not the wall clock, normally ends
a run, and the answer does not depend on the machine's load), the smaller one when both are
set, unlimited when neither is.  The units are shared by
all the models one call solves.  ``budget.time_limit`` is also a wall-clock limit, at the edge:
measured with ``budget.clock`` when given (model building included), else with CP-SAT's own wall
time, and passed to CP-SAT as ``max_time_in_seconds``; ``budget.should_stop`` is polled between
models.  ``workers`` > 1 runs CP-SAT's interleaved search, deterministic too, but without the
hint: CP-SAT 9.15 aborted the whole process ("Check failed: heuristics.fixed_search !=
nullptr") on hinted models with interleaved search and presolve off.  It was slower than one
hinted worker on the benchmark boards.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from ...formats.words import plural
from ..core.board import Board, iter_bits
from ..core.moves import Move
from ..core.paths import find_path
from ..core.rules import Rules
from .base import Budget, SolveResult, SolveStats, SolveStatus
from .common import odd_kinds_text
from .linkgraph import (
    MAX_MODELLED_TURNS,
    LinkGraph,
    Stopped,
    TooManyWalks,
    build_link_graph,
    poll,
)

if TYPE_CHECKING:  # pragma: no cover - typing only
    from ortools.sat.python import cp_model

__all__ = ["DTIME_PER_SECOND", "NODES_PER_DTIME", "SEED", "SweepsModel", "solve_cpsat"]

METHOD = "cpsat"
#: Search nodes of ``Budget.max_nodes`` per unit of CP-SAT deterministic time.
NODES_PER_DTIME = 100_000
#: Units of CP-SAT deterministic time per second of ``Budget.time_limit``.
DTIME_PER_SECOND = 0.75
#: The seed of every CP-SAT run.
SEED = 20240607

#: A literal of a model, or a Python bool for one fixed before solving.
Lit = Any
_MISSING = object()


# ----- the sweeps model -------------------------------------------------------------------------


def _neg(lit: Lit) -> Lit:
    return (not lit) if isinstance(lit, bool) else ~lit


class SweepsModel:
    """The time-indexed model of one board over ``sweeps`` sweeps (see the module docstring).

    ``mode="clear"``: every tile is gone after the last sweep, and a pair may leave later than
    it could.  ``mode="progress"``: the schedule is eager and every sweep removes a tile unless
    the board is already clear.  Owns the variables; each ``add_*`` method adds one family of
    constraints.  Literals fixed before solving are Python bools and are folded away."""

    def __init__(
        self,
        graph: LinkGraph,
        sweeps: int,
        mode: Literal["clear", "progress"],
        should_stop: Callable[[], bool] | None = None,
    ) -> None:
        from ortools.sat.python import cp_model

        self.should_stop = should_stop  # polled per tile and per pair: ``Stopped``
        self.graph = graph
        self.sweeps = sweeps
        self.mode = mode
        self.model = cp_model.CpModel()
        self._avail: dict[tuple[tuple[int, int], int], Lit] = {}
        self.match: list[Lit] = [
            True if graph.is_forced(p) else self.model.new_bool_var(f"match_{i}_{j}")
            for p, (i, j) in enumerate(graph.pairs)
        ]
        first = graph.first_sweeps()
        self.gone: list[list[Lit]] = []
        for i, f in enumerate(first):
            poll(should_stop)
            row: list[Lit] = []
            for s in range(sweeps + 1):
                if f is None or s < f:
                    row.append(False)
                elif s == sweeps and mode == "clear":
                    row.append(True)
                else:
                    row.append(self.model.new_bool_var(f"gone_{i}_{s}"))
            self.gone.append(row)
        # For each support: its tiles below and above the pair's rank, and the first sweep in
        # which all of them can be gone as needed (before it, the support is never clear).
        never = sweeps + 1
        self._supports: list[list[tuple[list[int], list[int], int]]] = []
        for splits in graph.split:
            infos = []
            for lo, hi in splits:
                lo_tiles, hi_tiles = list(iter_bits(lo)), list(iter_bits(hi))
                ready = max(
                    [first[t] or never for t in lo_tiles]
                    + [(first[t] or never) + 1 for t in hi_tiles]
                    + [1]
                )
                infos.append((lo_tiles, hi_tiles, ready))
            self._supports.append(infos)
        self.add_pairing()
        self.add_monotone()
        self.add_pair_sync()
        self.add_support()
        if mode == "progress":
            self.add_eagerness()
            self.add_progress()

    # --- literal helpers ---

    def _clause(self, lits: Sequence[Lit]) -> None:
        """At least one of ``lits`` holds (constants folded; no literal left is infeasible)."""
        if any(lit is True for lit in lits):
            return
        self.model.add_bool_or([lit for lit in lits if lit is not False])

    def avail(self, p: int, k: int, s: int) -> Lit:
        """Literal: support ``k`` of pair ``p`` is clear for the pair in sweep ``s``."""
        lo_tiles, hi_tiles, ready = self._supports[p][k]
        if s < ready:  # some tile of the support cannot be gone yet
            return False
        key = (self.graph.split[p][k], s)
        result = self._avail.get(key, _MISSING)
        if result is not _MISSING:
            return result
        gone = self.gone
        open_lits = [gone[t][s] for t in lo_tiles if gone[t][s] is not True]
        open_lits += [gone[t][s - 1] for t in hi_tiles if gone[t][s - 1] is not True]
        if not open_lits:
            result = True
        elif len(open_lits) == 1:
            result = open_lits[0]
        else:
            result = self.model.new_bool_var(f"avail_{p}_{k}_{s}")
            self.model.add_bool_and(open_lits).only_enforce_if(result)
            if self.mode == "progress":  # eagerness needs the converse too
                self.model.add_bool_or([result, *[~lit for lit in open_lits]])
        self._avail[key] = result
        return result

    # --- constraint families ---

    def add_pairing(self) -> None:
        """Every tile leaves with exactly one partner."""
        for pair_ids in self.graph.pairs_of_tile:
            lits = [self.match[p] for p in pair_ids]
            if any(lit is True for lit in lits):
                for lit in lits:
                    if lit is not True:
                        self.model.add_bool_or([~lit])
            else:
                self.model.add_exactly_one(lits)

    def add_monotone(self) -> None:
        """A tile once gone stays gone."""
        for row in self.gone:
            for s in range(1, self.sweeps + 1):
                self._clause([_neg(row[s - 1]), row[s]])

    def add_pair_sync(self) -> None:
        """The two tiles of a matched pair leave in the same sweep."""
        for p, (i, j) in enumerate(self.graph.pairs):
            poll(self.should_stop)
            m = _neg(self.match[p])
            for s in range(1, self.sweeps + 1):
                gi, gj = self.gone[i][s], self.gone[j][s]
                self._clause([m, _neg(gi), gj])
                self._clause([m, gi, _neg(gj)])

    def add_support(self) -> None:
        """A matched pair gone after sweep ``s`` had a support clear for it in sweep ``s``
        (clear then in its own sweep too, since tiles never come back)."""
        for p, (i, _j) in enumerate(self.graph.pairs):
            poll(self.should_stop)
            m = _neg(self.match[p])
            n = len(self.graph.split[p])
            for s in range(1, self.sweeps + 1):
                gone = self.gone[i][s]
                if gone is not False:
                    self._clause([m, _neg(gone), *[self.avail(p, k, s) for k in range(n)]])

    def add_eagerness(self) -> None:
        """A matched pair leaves in the first sweep where one of its supports is clear."""
        for p, (i, _j) in enumerate(self.graph.pairs):
            poll(self.should_stop)
            m = _neg(self.match[p])
            for k in range(len(self.graph.split[p])):
                for s in range(1, self.sweeps + 1):
                    self._clause([m, _neg(self.avail(p, k, s)), self.gone[i][s]])

    def add_progress(self) -> None:
        """Every sweep removes some tile unless the board was already clear."""
        for s in range(1, self.sweeps + 1):
            poll(self.should_stop)
            removed: list[Lit] = []
            for i, row in enumerate(self.gone):
                before, after = row[s - 1], row[s]
                if after is False or before is True:
                    continue
                if before is False:
                    removed.append(after)
                    continue
                rem = self.model.new_bool_var(f"removed_{i}_{s}")
                self.model.add_implication(rem, after)
                self.model.add_implication(rem, ~before)
                removed.append(rem)
            prev = [row[s - 1] for row in self.gone]
            cleared: Lit = False
            if not any(lit is False for lit in prev):
                cleared = self.model.new_bool_var(f"cleared_{s - 1}")
                self.model.add_bool_and([lit for lit in prev if lit is not True]).only_enforce_if(
                    cleared
                )
            self._clause([cleared, *removed])

    # --- hints and solutions ---

    def hint(self, sweeps: Sequence[Sequence[int]]) -> None:
        """Hint the pairs and removal sweeps of a (partial) schedule in this model's terms."""
        graph = self.graph
        chosen = {p for sweep in sweeps for p in sweep}
        taken = 0
        for s, pairs in enumerate(sweeps, 1):
            for p in pairs:
                taken |= graph.pair_mask(p)
                for t in graph.pairs[p]:
                    for r, lit in enumerate(self.gone[t]):
                        if not isinstance(lit, bool):
                            self.model.add_hint(lit, r >= s)
        for p, lit in enumerate(self.match):
            if not isinstance(lit, bool) and (p in chosen or taken & graph.pair_mask(p)):
                self.model.add_hint(lit, p in chosen)

    def size(self) -> tuple[int, int]:
        """(variables, constraints) of the model."""
        proto = self.model.proto
        return len(proto.variables), len(proto.constraints)

    def pairing(self, solver: cp_model.CpSolver) -> list[int]:
        """The matched pairs of a solution, in pair order."""
        return [
            p
            for p, lit in enumerate(self.match)
            if lit is True or (lit is not False and solver.boolean_value(lit))
        ]


# ----- running CP-SAT -----------------------------------------------------------------------------


@dataclass(slots=True)
class _Allowance:
    """What is left of a call's budget (deterministic units, wall seconds, the edge's stop
    callable) and the totals reported in the statistics."""

    dtime: float | None
    wall_limit: float | None
    should_stop: Callable[[], bool] | None
    clock: Callable[[], float] | None
    workers: int
    start: float = 0.0
    used_dtime: float = 0.0
    used_wall: float = 0.0
    conflicts: int = 0
    models: int = 0

    @classmethod
    def from_budget(cls, budget: Budget, workers: int) -> _Allowance:
        limits = []
        if budget.max_nodes is not None:
            limits.append(budget.max_nodes / NODES_PER_DTIME)
        if budget.time_limit is not None:
            limits.append(budget.time_limit * DTIME_PER_SECOND)
        clock = budget.clock
        return cls(
            dtime=min(limits) if limits else None,
            wall_limit=budget.time_limit,
            should_stop=budget.should_stop,
            clock=clock,
            workers=max(1, workers),
            start=clock() if clock is not None else 0.0,
        )

    def wall_left(self) -> float | None:
        if self.wall_limit is None:
            return None
        used = self.clock() - self.start if self.clock is not None else self.used_wall
        return self.wall_limit - used

    def dtime_left(self) -> float | None:
        return None if self.dtime is None else self.dtime - self.used_dtime

    def exhausted(self) -> bool:
        if self.should_stop is not None and self.should_stop():
            return True
        return any(left is not None and left <= 0 for left in (self.dtime_left(), self.wall_left()))

    def solver(self) -> cp_model.CpSolver:
        """A CP-SAT solver set up for a deterministic run within what is left."""
        from ortools.sat.python import cp_model

        solver = cp_model.CpSolver()
        params = solver.parameters
        params.random_seed = SEED
        params.num_workers = self.workers
        params.interleave_search = self.workers > 1
        # The models arrive simplified (constants folded, supports minimal); on the benchmark
        # boards CP-SAT's presolve (clique merging, probing) cost more than it saved.
        params.cp_model_presolve = False
        dtime, wall = self.dtime_left(), self.wall_left()
        if dtime is not None:
            params.max_deterministic_time = max(dtime, 1e-3)
        if wall is not None:
            params.max_time_in_seconds = max(wall, 1e-3)
        return solver

    def charge(self, solver: cp_model.CpSolver) -> None:
        self.models += 1
        self.used_dtime += solver.deterministic_time
        self.used_wall += solver.wall_time
        self.conflicts += solver.num_conflicts


def _run(model: cp_model.CpModel, allowance: _Allowance) -> tuple[str, cp_model.CpSolver]:
    """Solve ``model`` within ``allowance``: ``"solution"``, ``"infeasible"`` or ``"unknown"``.
    ``AssertionError`` for ``MODEL_INVALID`` (a bug in the model, never the user's fault)."""
    from ortools.sat.python import cp_model

    solver = allowance.solver()
    status = solver.solve(model)
    allowance.charge(solver)
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return "solution", solver
    if status == cp_model.INFEASIBLE:
        return "infeasible", solver
    if status == cp_model.UNKNOWN:
        return "unknown", solver
    if status == cp_model.MODEL_INVALID:
        raise AssertionError(f"CP-SAT rejected the model: {model.validate()}")
    raise AssertionError(f"unexpected CP-SAT status {solver.status_name(status)}")


def _moves(graph: LinkGraph, rounds: Sequence[Sequence[int]]) -> tuple[Move, ...]:
    """The removal sequence of eager rounds, each move with its exact best path.

    Inside a round every pair has a support cleared by the earlier rounds, so any order works;
    pairs go in the row order of their first tile, then of their second."""
    board, rules = graph.board, graph.rules
    moves = []
    for pairs in rounds:
        ends = []
        for p in pairs:
            i, j = graph.pairs[p]
            a, b = sorted((graph.tiles[i], graph.tiles[j]), key=lambda q: (q.y, q.x))
            ends.append((a, b))
        for a, b in sorted(ends, key=lambda e: (e[0].y, e[0].x, e[1].y, e[1].x)):
            path = find_path(board, a, b, rules)
            if path is None:
                raise AssertionError(f"CP-SAT schedule removes {a} {b} while they are not linked")
            moves.append(Move(a, b, board[a], path))
            board = board.without(a, b)
    return tuple(moves)


def _grow(sweeps: int, limit: int) -> int:
    """The next number of sweeps to try."""
    return min(limit, sweeps + max(2, sweeps // 2))


def solve_cpsat(board: Board, rules: Rules, budget: Budget, *, workers: int = 1) -> SolveResult:
    """Decide ``board`` with the CP-SAT sweeps model (see the module docstring).

    ``SOLVED`` with moves and exact best paths, ``UNSOLVABLE`` with the reason (and the tiles
    that can never go, when the relaxation found them), ``UNKNOWN`` when the budget ran out or
    ``rules.max_turns`` exceeds ``MAX_MODELLED_TURNS``.  ``workers`` above 1 runs CP-SAT's
    interleaved (still deterministic) parallel search.

    Statistics: ``nodes`` is the number of CP-SAT conflicts over all models; ``counters`` has
    ``pairs`` and ``supports`` (the link graph), ``warm_start_sweeps`` / ``warm_start_cleared``,
    ``sweeps`` (of the last model), ``variables`` and ``constraints`` (of the largest model),
    ``models`` solved, ``deterministic_time`` used, and ``solution_rounds`` when solved."""
    allowance = _Allowance.from_budget(budget, workers)
    stats = SolveStats()
    counters = stats.counters

    def done(status: SolveStatus, **fields: Any) -> SolveResult:
        if allowance.clock is not None:
            stats.elapsed = allowance.clock() - allowance.start
        counters["models"] = allowance.models
        counters["deterministic_time"] = round(allowance.used_dtime, 3)
        stats.nodes = allowance.conflicts
        return SolveResult(status, stats=stats, method=METHOD, **fields)

    odd = {k: n for k, n in board.kind_counts().items() if n % 2}
    if odd:
        named = odd_kinds_text(odd)
        return done(
            SolveStatus.UNSOLVABLE,
            reason=f"tiles leave in pairs, but {named}",
            deadlock=tuple(p for p in board.tiles() if board[p] in odd),
        )
    if rules.max_turns > MAX_MODELLED_TURNS:
        return done(
            SolveStatus.UNKNOWN,
            reason=f"the CP-SAT model enumerates paths of at most {MAX_MODELLED_TURNS} turns;"
            f" these rules allow {rules.max_turns}",
        )
    try:
        graph = build_link_graph(board, rules, allowance.exhausted)
    except Stopped:
        return done(SolveStatus.UNKNOWN, reason="budget exhausted while building the link graph")
    except TooManyWalks:
        return done(
            SolveStatus.UNKNOWN,
            reason=f"too many ways to link tiles with {plural(rules.max_turns, 'turn')} to model"
            " (the walk search gave up)",
        )
    counters["pairs"] = len(graph.pairs)
    counters["supports"] = sum(len(s) for s in graph.supports)
    never = tuple(graph.tiles[i] for i, e in enumerate(graph.earliest) if e is None)
    if never:
        return done(
            SolveStatus.UNSOLVABLE,
            reason=f"{plural(len(never), 'tile')} can never be removed, even if every tile could"
            " leave with any tile of its kind as soon as a path to it opens",
            deadlock=never,
        )
    if not graph.tiles:
        return done(SolveStatus.SOLVED, moves=())

    def solved(pairing: Sequence[int]) -> SolveResult | None:
        rounds, left = graph.eager_rounds(pairing)
        if left:
            return None
        counters["solution_rounds"] = len(rounds)
        return done(SolveStatus.SOLVED, moves=_moves(graph, rounds))

    n_pairs = len(graph.tiles) // 2
    lower = max(f or 0 for f in graph.first_sweeps())
    warm, stalled = graph.greedy_sweeps()
    counters["warm_start_sweeps"] = len(warm)
    counters["warm_start_cleared"] = int(not stalled)
    sweeps = min(max(lower, len(warm)), n_pairs)
    step = 0
    while True:
        # The progress model is the costlier one (eagerness triples the constraints) and rarely
        # needed on solvable boards: it runs on the first number of sweeps, then on every other
        # one, and always on the last (number of pairs), where it decides.
        modes: list[Literal["clear", "progress"]] = ["clear"]
        if step % 2 == 0 or sweeps >= n_pairs:
            modes.append("progress")
        for mode in modes:
            if allowance.exhausted():
                return done(
                    SolveStatus.UNKNOWN,
                    reason=f"budget exhausted after {allowance.models} CP-SAT models"
                    f" (up to {sweeps} sweeps)",
                )
            try:
                sm = SweepsModel(graph, sweeps, mode, allowance.exhausted)
            except Stopped:
                return done(
                    SolveStatus.UNKNOWN,
                    reason=f"budget exhausted while building a CP-SAT model of {sweeps} sweeps",
                )
            if allowance.workers == 1:
                # CP-SAT 9.15 aborts the whole process ("Check failed:
                # heuristics.fixed_search != nullptr") on some hinted models with interleaved
                # search, so parallel runs go without the warm start.
                sm.hint(warm)
            outcome, solver = _run(sm.model, allowance)
            variables, constraints = sm.size()
            counters["sweeps"] = sweeps
            counters["variables"] = max(int(counters.get("variables", 0)), variables)
            counters["constraints"] = max(int(counters.get("constraints", 0)), constraints)
            if outcome == "unknown":
                continue  # the allowance ran out: reported at the top of the loop
            if outcome == "infeasible":
                if mode == "progress":
                    return done(
                        SolveStatus.UNSOLVABLE,
                        reason=f"CP-SAT proved that every pairing of the tiles stalls within"
                        f" {sweeps} sweeps of eager removal, so no removal order clears the board",
                    )
                continue
            pairing = sm.pairing(solver)
            result = solved(pairing)
            if result is not None:
                return result
            if mode == "clear" or sweeps >= n_pairs:
                raise AssertionError("a CP-SAT pairing that should clear the board does not")
            # A pairing that keeps going for all these sweeps: a better warm start.
            partial, _ = graph.eager_sweeps(pairing)
            if sum(map(len, partial)) > sum(map(len, warm)):
                warm = partial
        sweeps = _grow(sweeps, n_pairs)
        step += 1
