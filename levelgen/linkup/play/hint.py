"""Hints that keep the game winnable, and where a lost game was lost.

A *safe* move is one after which the position is still solvable; a hint gives one, with the
rest of a solution as its proof.  How it is found: the solver
(:func:`levelgen.linkup.solvers.solve`) solves the current position.  Every legal move that occurs
anywhere in the solution it returns is safe, not only its first one: play that move first, then the
solution's other moves in their order; each of them then finds a subset of the tiles it found in the
solution, so its path is still clear (monotonicity, see :mod:`levelgen.linkup.core.rules`).  The
hint is the most natural safe move found (:func:`levelgen.linkup.core.natural.natural_key`: fewest
turns, then the shortest path, then reading order of the first tile, then of the second), so that
hints do not look random: the legal moves are walked in that order, a move of the solution is taken
at once, and the first ``NATURAL_TRIES`` moves before it are each tried on their own: first by
exchanging partners in the solution found (the move's two tiles pair with each other, their two
partners with each other, and the steps are played as soon as they are legal:
:func:`exchange_partners`), then, when that does not give a solution, by a small search of the
position after the move; a solution makes it safe, its proof that move and the solution.  It is
deterministic.  The proof is given with the exact best path of each step at its moment, and replayed
by :func:`levelgen.linkup.verify.replay` before it is returned (once: the solver's own sequence is
not replayed again on its way).

The answers: ``hint``; ``won`` (no tile left); ``lost`` (the solver proved the position
unsolvable, so no move keeps it solvable: its reason and deadlock core are given);
``undecided`` (the budget ran out: the most natural legal move is offered, marked unproved).

Where the game was lost.  Solvability over the prefixes of the played moves is monotone: if
the position after ``k + 1`` moves is solvable, so is the one after ``k`` (play move ``k``,
then that solution).  So the first position that cannot be won is found by a binary search
over the prefixes; ``lost_at`` is the index (into the played moves) of the move that led
there, and ``undo`` how many moves to take back to reach a winnable position again.  A
solution found for a prefix also proves every longer prefix whose further played moves all
occur in it (they can be played first, as above), so the search often jumps ahead.  When a
probe is undecided within the budget, ``lost_at`` stays unknown (None); when the start itself
cannot be won, ``lost_at`` is None and the reason says so.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from ..core.board import Board
from ..core.geometry import Pos
from ..core.moves import Move
from ..core.natural import natural_key
from ..core.paths import find_link
from ..core.reach import link_reach
from ..core.rules import Rules
from ..verify import replay

if TYPE_CHECKING:
    from ..solvers import Budget, SolveResult
    from ..solvers.race import RivalFactory


class GameView(Protocol):
    """What a hint reads of a game in progress (:class:`levelgen.linkup.play.game.Game` has it):
    its starting board, rules, current board, the moves played and the legal moves now."""

    start: Board
    rules: Rules

    @property
    def board(self) -> Board: ...

    @property
    def played(self) -> tuple[Move, ...]: ...

    def is_won(self) -> bool: ...

    def legal_moves(self) -> list[Move]: ...


__all__ = [
    "HINT_STATUSES",
    "NATURAL_NODES",
    "NATURAL_TRIES",
    "HintResult",
    "hint",
    "lost_at",
    "search_lost_at",
]

#: The statuses of a :class:`HintResult`.
HINT_STATUSES = ("hint", "won", "lost", "undecided")
#: Legal moves more natural than every move of the solution found that are tried on their own.
NATURAL_TRIES = 2
#: Search nodes for each of those tries.
NATURAL_NODES = 400
#: Path searches a try may spend repairing the solution found before it searches
#: (:func:`exchange_partners`), per step of the solution.
REPAIR_TESTS_PER_STEP = 4


@dataclass(frozen=True, slots=True)
class HintResult:
    """The answer to "what should I play now?".

    ``status``: one of :data:`HINT_STATUSES`.  ``move``: the hint (for ``undecided``, a legal
    move offered without proof, or None when there is none).  ``proved``: True when ``move``
    is proved safe.  ``solution``: for ``hint``, the remaining moves of a solution starting
    with ``move`` (the proof), each with its exact best path.  ``reason``: one sentence
    (why it is lost or undecided, or why the hint is safe).  ``deadlock``: for ``lost``, tiles
    that can never be cleared, when the solver found such a set.  ``lost_at`` / ``undo``: for
    ``lost`` with played moves, the index of the move after which no solution exists and how
    many moves to take back, when found.  ``method``: the solver that answered."""

    status: str
    move: Move | None = None
    proved: bool = False
    solution: tuple[Move, ...] = ()
    reason: str = ""
    deadlock: tuple[Pos, ...] = ()
    lost_at: int | None = None
    undo: int | None = None
    method: str = ""


def hint(
    game: GameView,
    budget: Budget | None = None,
    *,
    method: str = "search",
    natural_tries: int = NATURAL_TRIES,
    rival: RivalFactory | None = None,
) -> HintResult:
    """The hint for the current position of ``game`` (see the module docstring).

    ``budget`` bounds every solver call (the same budget is shared by the lost-at search);
    ``method`` is the solver (``"search"``, ``"auto"``, ``"cpsat"`` or ``"exhaustive"``).
    ``natural_tries``: legal moves more natural than every move of the solution that are
    tried on their own (:func:`exchange_partners`, then a search of at most
    :data:`NATURAL_NODES` nodes each).  ``rival``: where ``auto``'s repair race runs its second
    run on large boards (:func:`levelgen.linkup.solvers.solve`; in this process by default)."""
    from ..solvers import Budget, SolveStatus, solve

    if game.is_won():
        return HintResult("won", proved=True, reason="no tiles are left: the game is won")
    board, rules = game.board, game.rules
    # The solution is not replayed here: the proof made of it is (``safe_order``).
    result = solve(board, rules, budget=budget, method=method, checked=False, rival=rival)
    if result.status is SolveStatus.SOLVED:
        solution = result.moves or ()
        legal = sorted(game.legal_moves(), key=natural_key)
        in_solution = {frozenset((m.a, m.b)) for m in solution}
        tries = 0
        for move in legal:
            if frozenset((move.a, move.b)) not in in_solution:
                if tries == natural_tries:
                    continue
                tries += 1
                swapped = exchange_partners(board, rules, solution, move)
                if swapped is not None:
                    solution = swapped
                else:
                    limit = NATURAL_NODES
                    if budget is not None and budget.max_nodes is not None:
                        limit = min(limit, budget.max_nodes)
                    stop = budget.should_stop if budget is not None else None
                    after = board.without(move.a, move.b)
                    rest = solve(
                        after, rules, budget=Budget(limit, stop), method="search", checked=False
                    )
                    if rest.status is not SolveStatus.SOLVED:
                        continue
                    solution = (move, *(rest.moves or ()))
                in_solution = {frozenset((m.a, m.b)) for m in solution}
                # The most natural legal move of this solution (it may hold one that was
                # tried before without an answer).
                move = next(m for m in legal if frozenset((m.a, m.b)) in in_solution)
            order = safe_order(board, rules, solution, move)
            why = f"the rest of a solution ({len(order)} moves) starts with this move"
            return HintResult("hint", order[0], True, order, why, method=result.method)
        raise AssertionError("no move of the solution is legal now")  # pragma: no cover
    if result.status is SolveStatus.UNSOLVABLE:
        reason = result.reason or "no removal order clears the board"
        at: int | None = None
        undo: int | None = None
        played = game.played
        if played:
            at, note = lost_at(
                game.start, rules, played, budget, method, known_lost=True, rival=rival
            )
            if at is not None:
                undo = len(played) - at
                reason += f"; the game was lost by move {at} (undo {undo})"
            elif note:
                reason += f"; {note}"
        return HintResult(
            "lost",
            reason=reason,
            deadlock=result.deadlock,
            lost_at=at,
            undo=undo,
            method=result.method,
        )
    moves = game.legal_moves()
    offer = min(moves, key=natural_key) if moves else None
    why = result.reason or "the solver ran out of budget"
    return HintResult(
        "undecided",
        offer,
        False,
        reason=f"undecided: {why}" + ("; the move offered is legal but unproved" if offer else ""),
        method=result.method,
    )


def exchange_partners(
    board: Board, rules: Rules, solution: Sequence[Move], move: Move
) -> tuple[Move, ...] | None:
    """A solution of ``board`` that starts with ``move`` (legal now, not a step of
    ``solution``), made from ``solution`` (of ``board``, each step with its exact best path at
    its moment) by exchanging partners, or None when this quick repair does not give one.

    In ``solution`` the tiles of ``move`` leave with partners of their kind: ``a`` with ``c``,
    ``b`` with ``d``.  Play ``move`` first, then the other steps of ``solution`` in their order
    with ``c``-``d`` as one more step, each as soon as it is legal: a step that is not (``c``
    or ``d`` may still be in its way) waits, and the waiting steps are tried again, in order,
    after every step played that freed a cell of their frontier (no other freed cell can give
    them a path, see :func:`levelgen.linkup.core.reach.link_reach`).  Each step gets its exact best
    path at its moment.  Once nothing waits and both steps of ``a`` and ``b`` are past, the tiles
    gone are those gone at the same point of ``solution``, so the steps left keep their paths.
    None when steps still wait at the end, or after ``REPAIR_TESTS_PER_STEP`` path searches
    per step of ``solution``.  The caller replays the result (:func:`safe_order` does)."""
    a, b = move.a, move.b
    at: dict[Pos, int] = {}
    for k, m in enumerate(solution):
        at[m.a] = at[m.b] = k
    i, j = at.get(a), at.get(b)
    if i is None or j is None or i == j:
        return None
    c = solution[i].b if solution[i].a == a else solution[i].a
    d = solution[j].b if solution[j].a == b else solution[j].a
    hi = max(i, j)
    lay = board.layout
    free = board.free_mask(rules.outside)
    free |= (1 << lay.bit(*a)) | (1 << lay.bit(*b))
    out = [move]
    stride, turns = lay.stride, rules.max_turns
    tests = REPAIR_TESTS_PER_STEP * len(solution)

    def attempt(step: Move) -> int | None:
        """Play ``step`` when it is legal now (None); else the frontier of its first tile's
        paths (:func:`levelgen.linkup.core.reach.link_reach`): no path can appear before a cell of
        it gets free."""
        nonlocal free, tests
        tests -= 1
        path = find_link(lay, free, step.a, step.b, rules)
        if path is None:
            src, target = 1 << lay.bit(*step.a), 1 << lay.bit(*step.b)
            return link_reach(src, free, target, turns, stride)[2]
        out.append(Move(step.a, step.b, step.kind, path))
        free |= (1 << lay.bit(*step.a)) | (1 << lay.bit(*step.b))
        return None

    # The steps that wait, each with its frontier and the free cells when it was last tried
    # (a frontier of -1: try it now).  c-d is first; its path is found when it is played.
    waiting: list[tuple[Move, int, int]] = [(Move(c, d, move.kind, move.path), -1, 0)]
    for k, m in enumerate(solution):
        if k > hi and not waiting:
            out.extend(solution[k:])
            return tuple(out)
        if k in (i, j):
            continue
        waiting.append((m, -1, 0))
        # A step played frees cells, which may open a path for a waiting one: those with a
        # cell of their frontier freed since they were tried are tried again.
        played = True
        while played:
            played = False
            for n, (step, frontier, seen) in enumerate(waiting):
                if not frontier & free & ~seen:
                    continue
                if tests <= 0:
                    return None
                found = attempt(step)
                if found is None:
                    del waiting[n]
                    played = True
                    break
                waiting[n] = (step, found, free)
    return None if waiting else tuple(out)


def safe_order(
    board: Board, rules: Rules, solution: Sequence[Move], first: Move
) -> tuple[Move, ...]:
    """``solution`` (of ``board``, each step with its exact best path at its moment, as the
    solvers give it) with its move ``first`` (legal now, given with its path now) played first,
    every other step given its exact best path at its moment.  ``AssertionError`` when the
    result does not replay (a bug).

    The steps after ``first``'s place in ``solution`` keep their paths: they are played on the
    same free cells as before (the same steps are gone), so their best paths are the same.
    Only the steps before it are found again (``first``'s cells are free for them now)."""
    lay = board.layout
    free = board.free_mask(rules.outside)
    out = [first]
    free |= (1 << lay.bit(*first.a)) | (1 << lay.bit(*first.b))
    pair = {first.a, first.b}
    moved = False
    for m in solution:
        if {m.a, m.b} == pair:
            moved = True
            continue
        if moved:
            out.append(m)
            continue
        path = find_link(lay, free, m.a, m.b, rules)
        if path is None:  # pragma: no cover - monotonicity
            raise AssertionError(f"step {m.a} {m.b} lost its path when played later")
        out.append(Move(m.a, m.b, m.kind, path))
        free |= (1 << lay.bit(*m.a)) | (1 << lay.bit(*m.b))
    problems = replay(board, rules, out)
    if problems:  # pragma: no cover - a bug
        raise AssertionError(f"hint proof does not replay: {problems[0]}")
    return tuple(out)


def lost_at(
    start: Board,
    rules: Rules,
    played: Sequence[Move],
    budget: Budget | None = None,
    method: str = "search",
    *,
    known_lost: bool = False,
    rival: RivalFactory | None = None,
) -> tuple[int | None, str]:
    """``(index, note)``: the index into ``played`` of the move after which the game can no
    longer be won, found by binary search over the prefixes (see the module docstring), or
    None with a note saying why (the start is unsolvable, a probe was undecided, or the game
    is not lost).  ``known_lost``: the position after all of ``played`` is known unsolvable."""
    from ..solvers import solve

    def probe(k: int) -> SolveResult:
        board = start.without(*(p for m in played[:k] for p in (m.a, m.b)))
        return solve(board, rules, budget=budget, method=method, rival=rival)

    def extend(k: int, result: SolveResult) -> int:
        """The largest prefix known solvable from a solution of prefix ``k``: the played
        moves after it that occur in the solution can be played first (monotonicity)."""
        steps = {frozenset((m.a, m.b)) for m in result.moves or ()}
        while k < len(played) and frozenset((played[k].a, played[k].b)) in steps:
            k += 1
        return k

    return search_lost_at(len(played), probe, extend, known_lost=known_lost)


def search_lost_at(
    n: int,
    probe: Callable[[int], SolveResult],
    extend: Callable[[int, SolveResult], int],
    *,
    known_lost: bool = False,
) -> tuple[int | None, str]:
    """The binary search of :func:`lost_at` over the prefixes ``0 .. n`` of ``n`` played
    moves, for any rule: ``probe(k)`` solves the position after ``k`` moves, ``extend(k,
    result)`` gives the largest prefix that a solution of prefix ``k`` proves solvable (at
    least ``k``).  Valid whatever the rule: a solvable prefix ``k + 1`` makes prefix ``k``
    solvable (play move ``k``, then that solution)."""
    from ..solvers import SolveStatus

    hi = n  # the smallest prefix known unsolvable
    if not known_lost:
        end = probe(n).status
        if end is SolveStatus.SOLVED:
            return None, "the game is not lost"
        if end is SolveStatus.UNKNOWN:
            return None, "undecided whether the game is lost"
    first = probe(0)
    if first.status is SolveStatus.UNSOLVABLE:
        return None, "the starting position itself cannot be won"
    if first.status is SolveStatus.UNKNOWN:
        return None, "could not decide the starting position within the budget"
    lo = extend(0, first)  # the largest prefix known solvable
    while hi - lo > 1:
        mid = (lo + hi) // 2
        result = probe(mid)
        if result.status is SolveStatus.SOLVED:
            lo = extend(mid, result)
        elif result.status is SolveStatus.UNSOLVABLE:
            hi = mid
        else:
            return None, f"could not locate the losing move within the budget (after {mid})"
    return hi - 1, ""
