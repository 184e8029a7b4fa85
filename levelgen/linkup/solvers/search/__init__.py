"""The exact search solver: a removal sequence, or a proof that none exists.

``solve_search`` decides a board by a depth-first search over *pairings*, on int occupancy masks
with make/unmake (the state is :mod:`levelgen.linkup.solvers.search.state`, the engine
:mod:`levelgen.linkup.solvers.search.engine`, the relaxed game
:mod:`levelgen.linkup.solvers.search.relax`). It returns ``SOLVED`` with every move and its exact
best path, ``UNSOLVABLE`` only with a proof, and ``UNKNOWN`` when the budget runs out.

Glossary.  A *group* is a set of tiles of one kind that must be removed among themselves: at
the start each kind is one group.  A *decision* on a linkable pair ``(t, p)`` of a group of four
or more either makes ``{t, p}`` a group of two (they are partners) or *forbids* them to pair.  A
state is the occupancy mask plus the groups and the forbidden pairs.

Why it is exact.  Every solution pairs the tiles of each kind somehow, and in it ``t`` and ``p``
are partners or they are not: the two branches of a decision lose nothing.  A group of four
whose pairings are all forbidden but one is split into that pairing; with none left the state
is dead.  A dead end with no linkable pair in any group has no legal move at all.  The
shortcuts, each resting on the two facts of the game (legality depends only on occupancy;
removing tiles never blocks a path):

* Safe-move closure.  If all remaining tiles of a group can be removed now by allowed moves
  inside the group, remove them without branching.  Proof: take any solution from this state
  that respects the decisions; the group's tiles are removed in it by some moves.  Do our moves
  first, then the solution's other moves in their order.  Each of those now runs on a subset of
  the tiles it ran on before, so by monotonicity its path is still free; and our pairing
  respects the decisions.  A linkable group of two is the simplest case.
* Relaxation pruning.  In the *relaxed* game a tile may leave alone when it is linkable to a
  tile it may still pair with (same group, not forbidden) that is present, or to the now-empty
  cell of one that already left in the relaxed game.  Every real move (a, b) is two relaxed
  moves (a to b, then b to the cell of a along the same path reversed), so a real solution is a
  relaxed one.  The relaxed game is monotone (leaving only frees cells and keeps every target a
  target), so its greedy run reaches the unique maximal result: if even that cannot clear every
  tile, no real order can, and the state is dead.  At the root, with no decision made, the tiles
  it cannot clear are the *deadlock core* reported to the user.
* Dead-state memo.  A dead state stays dead; a bounded memo of them (two generations of
  ``MEMO_LIMIT`` states) cuts transpositions.  A state is also dead when the same occupancy with
  fewer decisions (no forbidden pairs, or no decision at all) is dead, since decisions only
  remove solutions.
* Backjumping.  A dead node gets an explanation: facts (tiles present, tiles gone, pairs of
  tiles that cannot be partners) such that every state of the board where they all hold is dead
  too (a stuck relaxation is explained by its stuck tiles and the kind cells they can see; a
  node whose two branches are dead, by theirs with the facts each branch itself made replaced
  by their reasons).  The ancestors where all the facts already held are dead as well, so the
  search leaves them at once instead of trying their other branches.  The argument is in
  :mod:`levelgen.linkup.solvers.search.explain`.
* Nogoods.  Since an explanation holds for every state, not only those below its node, a
  bounded store of them (:mod:`levelgen.linkup.solvers.search.nogoods`) is asked at each node before
  the relaxation: a state of a later run, or one the memo misses because it differs in tiles or
  decisions the explanation does not name, is dead at once.
* Incremental relaxation.  The relaxed run of a child starts from its parent's, and link tests
  are skipped when an earlier test already decides them (the argument is in
  :mod:`levelgen.linkup.solvers.search.relax`): these shortcuts are exact, never approximations.
* Runs.  A short first dive skips the relaxation (losing pruning, never correctness); then
  runs stop after ``RESTART_BASE`` times the Luby sequence nodes, alternating two branching
  orders: follow the relaxed run (deterministic: such a run is only paused, and the next one
  goes on from where it stopped) and the group whose best-linked tile has the fewest linkable
  mates (after its first run, with random tie-breaks from a ``random.Random`` seeded with the
  run number, so results are deterministic; each such run starts again from the root).  What
  a run proved dead stays in the memo, and the limits grow without bound, so some run is
  eventually exhaustive: restarts cost completeness nothing and save the solvable boards where
  an early choice was wrong.

Move ordering: the first choice of a decision is always "partners", which removes the pair at
once (progress); the pair is taken from the front of the relaxed run, where the relaxation
itself found a way out.
"""

from __future__ import annotations

from ....formats.words import plural
from ...core.board import Board
from ...core.rules import Rules
from ..base import Budget, SolveResult, SolveStatus
from ..common import build_moves, odd_kinds_result, timed_stats
from ..exhaustive import solve_exhaustive
from .engine import Engine, OutOfBudget

__all__ = ["METHOD", "solve_exhaustive", "solve_search"]

METHOD = "search"


def solve_search(board: Board, rules: Rules, budget: Budget) -> SolveResult:
    """Decide ``board`` under ``rules`` within ``budget`` (see the module docstring).

    Returns ``SOLVED`` with the removal sequence, ``UNSOLVABLE`` with a reason (and, when the
    relaxation already fails at the start, the deadlock core), or ``UNKNOWN`` when the node
    budget ran out or ``budget.should_stop`` said so."""
    stats, finish = timed_stats(budget)

    odd = odd_kinds_result(board, METHOD, stats)
    if odd is not None:
        return finish(odd)
    if board.tile_count() == 0:
        return finish(SolveResult(SolveStatus.SOLVED, moves=(), stats=stats, method=METHOD))
    engine = Engine(board, rules, budget, stats)
    try:
        stuck = engine.root_relaxation()
        pairs = None if stuck else engine.search()
    except OutOfBudget as stop:
        engine.record_counters()
        return finish(
            SolveResult(
                SolveStatus.UNKNOWN,
                stats=stats,
                reason=f"undecided after {plural(stats.nodes, 'node')}: {stop}",
                method=METHOD,
            )
        )
    if stuck:
        lay = board.layout
        where = lay.positions(stuck)
        n = len(where)
        engine.record_counters()
        return finish(
            SolveResult(
                SolveStatus.UNSOLVABLE,
                stats=stats,
                reason=(
                    f"{plural(n, 'tile')} can never be removed (first at {where[0]}): even if"
                    " every tile could pair with any tile of its kind, present or already gone,"
                    " none of them ever gets a free path"
                ),
                deadlock=tuple(where),
                method=METHOD,
            )
        )
    engine.record_counters()
    if pairs is None:
        return finish(
            SolveResult(
                SolveStatus.UNSOLVABLE,
                stats=stats,
                reason=(
                    "every tile could leave if it might pair with any tile of its kind, but an"
                    f" exhaustive search of the pairings ({plural(stats.nodes, 'node')}) found no"
                    " order that clears the board"
                ),
                method=METHOD,
            )
        )
    moves = build_moves(board, rules, pairs)
    return finish(SolveResult(SolveStatus.SOLVED, moves=moves, stats=stats, method=METHOD))
