"""The repair solver as ``auto`` runs it: a run that pauses and resumes, and the race of two.

:class:`RepairSession` is one run of :mod:`levelgen.linkup.solvers.repair` on a board that can
be paused and resumed within a budget; :class:`RepairRace` runs two with different random
choices (seeds ``SEED`` and ``RIVAL_SEED``) and keeps the one that clears the board after the
least *work* (counted the same on any machine), so the answer is the same bytes wherever the
second run ran: in this process in lockstep (:class:`SessionRival`) or in another process
(:mod:`levelgen.linkup.solvers.rival`).  :func:`solve_repair` is one run alone.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from ...formats.words import plural
from ..core.board import Board
from ..core.rules import Rules
from .base import Budget, SolveResult, SolveStats, SolveStatus
from .common import build_moves, odd_kinds_result, timed_stats
from .repair import METHOD, SEED, STALL, _Repairer

__all__ = [
    "RIVAL_SEED",
    "RepairRace",
    "RepairSession",
    "Rival",
    "RivalEnd",
    "RivalFactory",
    "SessionRival",
    "session_end",
    "solve_repair",
]


class RepairSession:
    """A run of the repair solver on one board that can be paused and resumed: ``auto`` gives
    it a first slice, asks the search's root for a proof, then lets it go on where it stopped.
    Pauses fall between the run's own steps, so the answer is the same however the run was
    sliced.  ``seed`` seeds its random choices (:data:`SEED` by default); ``stall`` repairs
    undone in a row start it again (:data:`STALL` by default)."""

    def __init__(self, board: Board, rules: Rules, seed: int = SEED, stall: int = STALL) -> None:
        self.board, self.rules = board, rules
        self.repairer = _Repairer(board, rules, seed, stall)
        self.run = self.repairer.steps()
        #: Whether the run has ended, and its removal sequence (bit pairs) when it cleared the
        #: board (None when it ended stuck with no decision to revisit).
        self.ended = False
        self.pairs: list[tuple[int, int]] | None = None
        #: Whether the run is paused before a repair (else within a dive, or not started).
        self.at_repair = False
        #: The answer once the run has ended.
        self.done: SolveResult | None = None

    @property
    def settled(self) -> int:
        """At a pause, the work the run has done less one: were it to clear the board, it would
        be after more work than this (:attr:`_Repairer.work`)."""
        return self.repairer.work - 1

    def run_until(
        self,
        stop: Callable[[], bool] | None,
        *,
        settled: int | None = None,
        repairs: int | None = None,
    ) -> bool:
        """Drive the run until it ends (True), until ``stop()`` says so, until :attr:`settled`
        reaches ``settled`` or, before a repair, until ``repairs`` repairs were made (False:
        it can go on)."""
        if self.ended:
            return True
        repairer = self.repairer
        try:
            while True:
                before_repair = self.at_repair = bool(next(self.run))
                if stop is not None and stop():
                    return False
                if settled is not None and repairer.work > settled:
                    return False
                if before_repair and repairs is not None and repairer.repairs >= repairs:
                    return False
        except StopIteration as end:
            self.ended, self.pairs = True, end.value
            return True

    def advance(self, budget: Budget, *, pause_after: int | None = None) -> SolveResult:
        """Go on until the answer (``SOLVED``, or ``UNKNOWN`` when a dive is stuck with no
        decision to revisit), until ``budget`` says stop (``should_stop``, or ``max_nodes``
        repairs in all) or, with ``pause_after``, until that many repairs in all (both
        ``UNKNOWN``, and the session can go on); ``UNSOLVABLE`` only for a kind of an odd count
        of tiles.  Classic boards only (no layers, no sliding rule: ``ValueError``)."""
        stats, finish = timed_stats(budget)
        early = _early_result(self.board, self.rules, stats)
        if early is not None:
            return finish(early)
        if self.done is None:
            self.run_until(budget.should_stop, repairs=_cap(budget, pause_after))
        result = self.done or self.result(stats)
        if self.ended:
            self.done = result
        return finish(result)

    def result(self, stats: SolveStats) -> SolveResult:
        """The answer as the run stands (``UNKNOWN`` until it ends), its counts in ``stats``."""
        repairer = self.repairer
        stats.nodes = stats.counters["repairs"] = repairer.repairs
        stats.counters["restarts"] = repairer.restarts
        if repairer.endgame_searches:
            stats.counters["endgame searches"] = repairer.endgame_searches
        if self.pairs is not None:
            moves = build_moves(self.board, self.rules, self.pairs)
            return SolveResult(SolveStatus.SOLVED, moves=moves, stats=stats, method=METHOD)
        if self.ended:
            return SolveResult(
                SolveStatus.UNKNOWN,
                stats=stats,
                reason="stuck with no decision to revisit after"
                f" {plural(repairer.repairs, 'repair')}",
                method=METHOD,
            )
        return SolveResult(
            SolveStatus.UNKNOWN,
            stats=stats,
            reason=f"no removal order found after {plural(repairer.repairs, 'repair')}"
            f" and {plural(repairer.restarts, 'restart')}",
            method=METHOD,
        )


def _early_result(board: Board, rules: Rules, stats: SolveStats) -> SolveResult | None:
    """``UNSOLVABLE`` for a kind of an odd count of tiles; ``ValueError`` for a board the
    solver does not play (layers, a sliding rule); else None."""
    odd = odd_kinds_result(board, METHOD, stats)
    if odd is None and (board.upper or rules.slide != "none"):
        raise ValueError("the repair solver plays the classic game only (no layers or sliding)")
    return odd


def _cap(budget: Budget, pause_after: int | None) -> int | None:
    """The number of repairs after which a run pauses: ``pause_after`` or the budget's
    ``max_nodes``, whichever is smaller."""
    caps = [n for n in (budget.max_nodes, pause_after) if n is not None]
    return min(caps) if caps else None


#: How a rival's run ended: its work (:attr:`_Repairer.work`), its number of repairs and its
#: removal sequence (bit pairs), or None for the sequence when it ended stuck.
RivalEnd = tuple[int, int, list[tuple[int, int]] | None]


class Rival(Protocol):
    """A second run of the repair solver on the same board with another seed, raced against a
    :class:`RepairRace`'s own.  It runs in this process only when asked (``lockstep``) or
    elsewhere on its own (another process, :mod:`levelgen.linkup.solvers.rival`)."""

    #: Whether it runs only inside :meth:`reach` (then the race keeps it level with its own).
    lockstep: bool

    def poll(self) -> RivalEnd | None:
        """How its run ended, or None while it goes on (never waits)."""
        ...

    def reach(self, settled: int, stop: Callable[[], bool] | None) -> RivalEnd | None:
        """Wait (or run) until its run has ended or :attr:`RepairSession.settled` ``settled``
        work, or until ``stop()``; then :meth:`poll`."""
        ...

    def close(self) -> None:
        """Stop its run (it is not needed any more)."""
        ...


#: Makes the rival run of a race: the board, the rules, the rival's seed and the budget of
#: the whole solve (a run elsewhere stops by itself when its time limit has passed).
RivalFactory = Callable[[Board, Rules, int, Budget], Rival]

#: The rival's seed in ``auto``'s race.
RIVAL_SEED = SEED + 1


def session_end(session: RepairSession) -> RivalEnd | None:
    """How ``session``'s run ended (None while it goes on)."""
    repairer = session.repairer
    return (repairer.work, repairer.repairs, session.pairs) if session.ended else None


class SessionRival:
    """A rival run in this process, driven only by :meth:`reach` (``lockstep``)."""

    lockstep = True

    def __init__(self, board: Board, rules: Rules, seed: int, budget: Budget) -> None:
        self.session = RepairSession(board, rules, seed)

    def poll(self) -> RivalEnd | None:
        return session_end(self.session)

    def reach(self, settled: int, stop: Callable[[], bool] | None) -> RivalEnd | None:
        self.session.run_until(stop, settled=settled)
        return self.poll()

    def close(self) -> None:
        pass


class RepairRace:
    """Two runs of the repair solver raced on one board: its own :class:`RepairSession` and a
    :class:`Rival` of another seed.  The winner is the run that clears the board after the
    least work (:attr:`_Repairer.work`, a count of moves and choices that stands for time;
    the own run on a tie), whichever ran faster: the answer is the same whether the rival
    runs in another process (on a second core the time is about that of the winner, and the
    runs of one seed that take many times the median are mostly cut short by the other's)
    or in this one in lockstep.  Same interface as :class:`RepairSession` (``pause_after`` and
    ``max_nodes`` count the own run's repairs; at a pause the rival is awaited up to the own
    run's work, so the pause changes nothing)."""

    def __init__(self, session: RepairSession, rival: Rival) -> None:
        self.session, self.rival = session, rival
        self.repairer = session.repairer
        self.done: SolveResult | None = None

    def close(self) -> None:
        """Stop the rival's run."""
        self.rival.close()

    def advance(self, budget: Budget, *, pause_after: int | None = None) -> SolveResult:
        """As :meth:`RepairSession.advance`, for the race."""
        stats, finish = timed_stats(budget)
        session, rival = self.session, self.rival
        early = _early_result(session.board, session.rules, stats)
        if early is not None:
            return finish(early)
        if self.done is not None:
            return finish(self.done)
        cap, stop = _cap(budget, pause_after), budget.should_stop
        while not (stop is not None and stop()):
            # The rival wins when it cleared the board with less work than the own run has
            # settled (the own run would clear it after more).
            end = rival.poll()
            if end is not None and end[2] is not None and end[0] <= session.settled:
                return finish(self._won(end, stats))
            if cap is not None and session.at_repair and session.repairer.repairs >= cap:
                # A pause: the rival is awaited up to the own run's work first.
                end = rival.reach(session.settled, stop)
                if end is not None and end[2] is not None and end[0] <= session.settled:
                    return finish(self._won(end, stats))
                break
            if session.run_until(stop, settled=session.settled + 1, repairs=cap):
                # Ended: the rival wins with less work, or when the own run is stuck.  (When
                # the budget stops the wait, the own sequence is still an answer.)
                mine = session.repairer.work if session.pairs is not None else None
                end = rival.reach(mine - 1 if mine is not None else _NEVER, stop)
                if end is not None and end[2] is not None and (mine is None or end[0] < mine):
                    return finish(self._won(end, stats))
                if mine is not None or end is not None:
                    self.done = session.result(stats)
                    return finish(self.done)
                break
            if rival.lockstep:
                rival.reach(session.settled, stop)
        return finish(session.result(stats))

    def _won(self, end: RivalEnd, stats: SolveStats) -> SolveResult:
        """The answer of the rival's run that cleared the board."""
        _, repairs, pairs = end
        assert pairs is not None
        stats.nodes = self.repairer.repairs + repairs
        stats.counters["repairs"] = repairs
        stats.counters["rival"] = 1
        moves = build_moves(self.session.board, self.session.rules, pairs)
        self.done = SolveResult(SolveStatus.SOLVED, moves=moves, stats=stats, method=METHOD)
        return self.done


#: Waits for a run to end, whatever its work.
_NEVER = 1 << 62


def solve_repair(board: Board, rules: Rules, budget: Budget) -> SolveResult:
    """A removal sequence of ``board`` under ``rules`` (``SOLVED``), or ``UNKNOWN`` when the
    budget ran out (see the module docstring); ``UNSOLVABLE`` only for a kind of an odd count
    of tiles.  Classic boards only (no layers, no sliding rule)."""
    return RepairSession(board, rules).advance(budget)
