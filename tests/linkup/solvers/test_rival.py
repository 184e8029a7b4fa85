"""The repair race of ``auto`` on large boards (:class:`levelgen.linkup.solvers.race.RepairRace`)
and its rival in another process (:mod:`levelgen.linkup.solvers.rival`): the winner is the run that
clears the board after the least work, so the answer is the same wherever the rival ran and however
the race was sliced; a rival process that fails is an internal error, one that dies never
wins, and none is left behind."""

from __future__ import annotations

import multiprocessing
import os
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from levelgen.cli import app
from levelgen.linkup.core.board import Board
from levelgen.linkup.core.geometry import Size
from levelgen.linkup.core.level import Level
from levelgen.linkup.core.rules import Rules
from levelgen.linkup.files import write_level
from levelgen.linkup.generate.generator import generate
from levelgen.linkup.solvers import Budget, SolveStatus, solve
from levelgen.linkup.solvers.race import RIVAL_SEED, RepairRace, RepairSession, SessionRival
from levelgen.linkup.solvers.repair import POLL_STEPS, WORK_CULPRIT
from levelgen.linkup.solvers.rival import can_fork, process_rival, rival_for

needs_fork = pytest.mark.skipif(not can_fork(), reason="the rival process needs fork (Linux)")

#: Generated levels over 500 tiles: on the first the rival (seed 1) wins, on the second the
#: own run (seed 0), on the third the two tie (different sequences after the same work, and
#: the own run wins); checked by ``test_the_winner_is_the_run_of_least_work``.
RIVAL_WINS = (Size(28, 28), 4)
OWN_WINS = (Size(32, 32), 5)
TIE = (Size(24, 24), 1)


def _board(case: tuple[Size, int]) -> Board:
    return generate(case[0], seed=case[1]).board


def _alone(board: Board, seed: int) -> RepairSession:
    session = RepairSession(board, Rules(), seed)
    assert session.run_until(None)
    return session


@pytest.mark.parametrize("case", [RIVAL_WINS, OWN_WINS, TIE, (Size(32, 32), 2)])
def test_the_winner_is_the_run_of_least_work(case: tuple[Size, int]) -> None:
    """Each seed's run alone, then the race: the answer is the sequence of the run that ended
    with less work (the own run on a tie), and the loser stopped about where the winner
    ended (the two took turns)."""
    board = _board(case)
    own, other = _alone(board, 0), _alone(board, 1)
    assert own.pairs is not None and other.pairs is not None
    if case == TIE:
        assert own.repairer.work == other.repairer.work and own.pairs != other.pairs
    race = RepairRace(RepairSession(board, Rules()), SessionRival(board, Rules(), 1, Budget()))
    found = race.advance(Budget())
    assert found.status is SolveStatus.SOLVED and found.moves is not None
    rival_won = other.repairer.work < own.repairer.work
    assert ("rival" in found.stats.counters) == rival_won
    winner = other if rival_won else own
    assert [(m.a, m.b) for m in found.moves] == [
        (m.a, m.b) for m in winner.result(found.stats).moves or ()
    ]
    assert (case == RIVAL_WINS) == rival_won or case not in (RIVAL_WINS, OWN_WINS)
    loser = race.rival.session if not rival_won else race.session  # type: ignore[attr-defined]
    moves = board.tile_count() // 2
    slack = 6 * min(POLL_STEPS, moves) + WORK_CULPRIT + moves  # one step of a run
    assert loser.repairer.work <= winner.repairer.work + slack


def test_a_race_paused_and_resumed_gives_the_same_answer() -> None:
    """Pauses after a few repairs at a time, or whenever the budget says stop, change
    nothing."""
    board = _board(RIVAL_WINS)
    whole = solve(board, budget=Budget())
    race = RepairRace(RepairSession(board, Rules()), SessionRival(board, Rules(), 1, Budget()))
    asked = 0

    def every_fifth() -> bool:
        nonlocal asked
        asked += 1
        return asked % 5 == 0

    answers = 0
    repairs = 0
    while True:
        repairs += 1
        found = race.advance(Budget(should_stop=every_fifth), pause_after=repairs)
        if found.status is SolveStatus.SOLVED:
            break
        answers += 1
    assert answers > 1  # it did pause
    assert found.moves == whole.moves


@needs_fork
@pytest.mark.parametrize("case", [RIVAL_WINS, OWN_WINS])
def test_the_rival_in_another_process_gives_the_same_answer(case: tuple[Size, int]) -> None:
    board = _board(case)
    here = solve(board, budget=Budget())
    there = solve(board, budget=Budget(), rival=process_rival)
    assert there.status is SolveStatus.SOLVED and there.moves == here.moves
    assert there.stats.counters.get("rival") == here.stats.counters.get("rival")
    assert multiprocessing.active_children() == []  # the rival was ended


class _Failing(RepairSession):
    def run_until(self, *args: Any, **kwargs: Any) -> bool:
        raise ZeroDivisionError("on purpose")


class _Dying(RepairSession):
    def run_until(self, *args: Any, **kwargs: Any) -> bool:
        os._exit(9)


@needs_fork
def test_a_failing_rival_process_is_an_internal_error(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Its exception reaches the parent as a ``RuntimeError``: ``levelgen verify`` exits 70
    (a bug), never with a verdict."""
    monkeypatch.setattr("levelgen.linkup.solvers.rival.RepairSession", _Failing)
    board = _board(RIVAL_WINS)
    with pytest.raises(RuntimeError, match="rival process failed: ZeroDivisionError: on purpose"):
        solve(board, budget=Budget(), rival=process_rival)
    path = tmp_path / "level.json"
    write_level(Level(board, Rules()), path)
    result = CliRunner().invoke(app, ["verify", str(path), "--workers", "2"])
    assert result.exit_code == 70, result.output
    assert "internal error" in result.stderr
    assert multiprocessing.active_children() == []


@needs_fork
def test_a_rival_process_that_dies_never_wins(monkeypatch: pytest.MonkeyPatch) -> None:
    """A child killed without a word: the own run's answer, as if the rival never ended."""
    monkeypatch.setattr("levelgen.linkup.solvers.rival.RepairSession", _Dying)
    board = _board(RIVAL_WINS)
    found = solve(board, budget=Budget(), rival=process_rival)
    own = _alone(board, 0)
    assert found.status is SolveStatus.SOLVED and "rival" not in found.stats.counters
    assert found.moves == own.result(found.stats).moves


def test_workers_choose_where_the_rival_runs() -> None:
    assert rival_for(1) is None
    assert rival_for(2) is (process_rival if can_fork() else None)
    result = CliRunner().invoke(app, ["verify", "x.json", "--workers", "0"])
    assert result.exit_code == 2 and "--workers" in result.stderr


def test_hint_takes_workers_and_its_race_uses_the_rival(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """``levelgen hint --workers N`` hands the rival to the solver of a large board (576 tiles:
    the race runs), and the hint is the same bytes with the rival here or in another process."""
    level = generate(Size(24, 24), seed=0)
    path = tmp_path / "level.json"
    write_level(Level(level.board, level.rules), path)
    made: list[int] = []

    def spy(board: Board, rules: Rules, seed: int, budget: Budget) -> SessionRival:
        made.append(seed)
        return SessionRival(board, rules, seed, budget)

    with monkeypatch.context() as patch:
        patch.setattr("levelgen.linkup.solvers.rival.rival_for", lambda workers: spy)
        spied = CliRunner().invoke(app, ["hint", str(path), "--json", "--workers", "2"])
    assert spied.exit_code == 0, spied.output
    assert made == [RIVAL_SEED]  # the hint's solve raced with the rival given
    here = CliRunner().invoke(app, ["hint", str(path), "--json", "--workers", "1"])
    there = CliRunner().invoke(app, ["hint", str(path), "--json", "--workers", "2"])
    assert here.exit_code == there.exit_code == 0
    assert here.stdout == there.stdout == spied.stdout
    assert '"status": "hint"' in here.stdout
    assert multiprocessing.active_children() == []
    refused = CliRunner().invoke(app, ["hint", str(path), "--workers", "0"])
    assert refused.exit_code == 2 and "--workers" in refused.stderr
