"""The repair solver (:mod:`levelgen.linkup.solvers.repair`) and its place in ``auto``: it only ever
answers with a sequence that replays (checked against the exhaustive search on small boards),
it is deterministic, its repairs are what finds the sequence of a generated 32x32 level whose
first dive fails, and ``auto`` on a large board uses it after a quick look for a proof."""

from __future__ import annotations

import time

import pytest
from hypothesis import given, settings

from levelgen.linkup.core.board import EMPTY, WALL, Board, iter_bits
from levelgen.linkup.core.geometry import Size
from levelgen.linkup.core.live import LiveLinks
from levelgen.linkup.core.moves import move_bits
from levelgen.linkup.core.reach import link_hits
from levelgen.linkup.core.rules import Rules
from levelgen.linkup.generate.generator import generate
from levelgen.linkup.solvers import Budget, SolveStatus, repair, solve
from levelgen.linkup.solvers.common import build_moves
from levelgen.linkup.solvers.culprit import CULPRIT_SHORTLIST, _culprit_score, _State
from levelgen.linkup.solvers.exhaustive import solve_exhaustive
from levelgen.linkup.solvers.race import RepairSession, solve_repair
from levelgen.linkup.solvers.repair import _Repairer
from levelgen.linkup.verify import replay
from tests.strategies import rules_st, small_boards


def _unsolved(size: Size, seed: int) -> Board:
    """The board of a generated level (its solution is not given to the solvers)."""
    return generate(size, seed=seed).board


@settings(derandomize=True, deadline=None, max_examples=400)
@given(board=small_boards(max_tiles=16), rules=rules_st)
def test_repair_answers_only_with_a_sequence_that_replays(board: Board, rules: Rules) -> None:
    """``SOLVED`` only with a sequence the verifier replays, never on a board the exhaustive
    search proves unsolvable; ``UNSOLVABLE`` only for a kind of an odd count."""
    found = solve_repair(board, rules, Budget(max_nodes=30))
    exact = solve_exhaustive(board, rules, Budget(max_nodes=50_000))
    assert found.method == "repair"
    if found.status is SolveStatus.SOLVED:
        assert found.moves is not None and replay(board, rules, found.moves) == []
        assert exact.status is not SolveStatus.UNSOLVABLE
    elif found.status is SolveStatus.UNSOLVABLE:
        assert any(n % 2 for n in board.kind_counts().values())
    else:
        assert "repairs" in found.reason


def test_repairs_find_what_the_first_dive_misses() -> None:
    """Generated 32x32 seed 2: the first greedy dive gets stuck; repairs then clear the board,
    the same way on every run."""
    board = _unsolved(Size(32, 32), 2)
    rules = Rules()
    first = solve_repair(board, rules, Budget(max_nodes=0))
    assert first.status is SolveStatus.UNKNOWN  # the dive alone does not clear it
    found = solve_repair(board, rules, Budget(max_nodes=2_000))
    assert found.status is SolveStatus.SOLVED and found.moves is not None
    assert found.stats.counters["repairs"] > 0
    assert replay(board, rules, found.moves) == []
    again = solve_repair(board, rules, Budget(max_nodes=2_000))
    assert again.moves == found.moves


def test_a_run_that_stalls_starts_again_with_a_clean_slate() -> None:
    """After ``stall`` repairs undone in a row the run starts again from the full board, the
    bans and the decisions tried forgotten and the random choices going on: on generated
    24x24 seed 0, restarting after every repair undone, the run restarts and still clears
    the board, the same way on every run; with the default stall it needs no restart."""

    def run(stall: int) -> tuple[int, list[tuple[int, int]]]:
        session = RepairSession(_unsolved(Size(24, 24), 0), Rules(), stall=stall)
        repairer, restarts = session.repairer, 0
        while not session.run_until(None, repairs=repairer.repairs + 1):
            if repairer.restarts > restarts:  # paused before the first repair of a new start
                assert not repairer.bans and not repairer.tried
                restarts = repairer.restarts
        assert session.pairs is not None and repairer.repairs > 0
        assert repairer.restarts == restarts
        return restarts, session.pairs

    restarts, pairs = run(1)
    assert restarts > 0 and run(1) == (restarts, pairs)
    assert run(repair.STALL)[0] == 0


def test_supports_are_found_by_the_first_replay_and_kept() -> None:
    """A dive records no path for a move (-1) unless its tiles are neighbours (0); a replay
    finds a path for each later move it tests and keeps it in the state replayed too.  Every
    support found is the cells of a link: free those cells alone and the two tiles link."""
    level = generate(Size(24, 24), seed=3)
    rules, stride = level.rules, level.board.layout.stride
    rep = _Repairer(level.board, rules)
    state: _State = (LiveLinks(level.board, rules, undo=True), [], [], set())
    rep.dive(*state)
    seq, support = state[1], state[2]
    assert support == [0 if abs(a - b) in (1, stride) else -1 for a, b in seq]
    drop = min(state[3])
    repaired = rep.replay(state, drop)
    found = [i for i in range(drop + 1, len(seq)) if support[i] > 0]
    assert len(found) > 10
    for i in found:
        a, b = seq[i]
        assert link_hits(1 << a, support[i], 1 << b, rules.max_turns, stride)
    for (a, b), cells in zip(repaired[1], repaired[2], strict=True):
        assert (
            (cells == 0 and abs(a - b) in (1, stride))
            or cells == -1
            or link_hits(1 << a, cells, 1 << b, rules.max_turns, stride)
        )


def test_repair_refuses_variants() -> None:
    with pytest.raises(ValueError, match="classic game only"):
        solve_repair(Board.from_rows(["11"]), Rules(slide="down"), Budget())


def test_auto_uses_repair_on_large_boards() -> None:
    """A generated 32x32 level (1024 tiles, over ``AUTO_CPSAT_MAX_TILES``): ``auto`` answers
    through the repair solver, replayed."""
    board = _unsolved(Size(32, 32), 2)
    clock = time.perf_counter
    start = clock()
    found = solve(
        board,
        budget=Budget(None, lambda: clock() - start > 120, clock, 120.0),
        method="auto",
    )
    assert found.status is SolveStatus.SOLVED and found.method == "repair"


def test_auto_proves_a_large_dead_board() -> None:
    """A large board with a tile walled in: the probe (the search's root relaxation, after the
    repair race's first slice) proves it unsolvable, naming the tile; the answer is the
    probe's, not the repair solver's."""
    width, height = 24, 24
    cells = [1 + (i // 2) % 200 for i in range(width * height)]
    # Kind 999 twice: one copy boxed in by walls, the other free in a corner.
    for x, y in ((10, 9), (9, 10), (11, 10), (10, 11)):
        cells[y * width + x] = WALL
    cells[10 * width + 10] = 999
    cells[0] = 999
    for kind in {v for v in cells if v >= 1}:  # every other kind an even number of times
        where = [i for i, v in enumerate(cells) if v == kind]
        if len(where) % 2:
            cells[where[-1]] = EMPTY
    board = Board(width, height, tuple(cells))
    assert board.tile_count() > 500 and board.kind_counts()[999] == 2
    clock = time.perf_counter
    start = clock()
    found = solve(board, budget=Budget(None, lambda: clock() - start > 60, clock, 60.0))
    assert found.status is SolveStatus.UNSOLVABLE and found.method == "search"
    assert (10, 10) in found.deadlock
    assert found.stats.counters.get("repairs") is None


def test_culprit_score_finds_wrong_decisions() -> None:
    """The choice of the decision to put back: on generated 40x40 levels (their certificate
    known to the test only), the decision the score picks at a stuck position differs from the
    certificate's pairing far more often than a decision drawn at random does (measured: 17 of
    30 picks, against 784 of 9,773 decisions)."""
    picked_wrong = picks = wrong = decisions = 0
    for seed in range(8):
        level = generate(Size(40, 40), seed=seed)
        lay = level.board.layout
        assert level.solution is not None
        cert = {frozenset((lay.bit(*m.a), lay.bit(*m.b))) for m in level.solution}
        rep = _Repairer(level.board, level.rules)
        state: _State = (LiveLinks(level.board, level.rules, undo=True), [], [], set())
        rep.dive(*state)
        for _ in range(5):
            if not state[0].tiles:
                break
            _, seq, _, decided = state
            drop = rep.culprit(state)
            assert drop is not None and drop in decided
            picks += 1
            picked_wrong += frozenset(seq[drop]) not in cert
            wrong += sum(frozenset(seq[i]) not in cert for i in decided)
            decisions += len(decided)
            rep.bans.add(seq[drop])
            state = rep.replay(state, drop)
            rep.dive(*state)
    assert picks >= 15 and decisions > 1000
    assert wrong / decisions < 0.2
    assert picked_wrong / picks > max(0.4, 3 * wrong / decisions)


def _reaches_the_pair(state: _State, x: int, i: int, max_turns: int) -> bool:
    """Whether a tile of the kind of ``x`` links to a cell of the pair of move ``i`` in the
    position of ``state`` (a fresh link test)."""
    live, seq = state[0], state[1]
    a, b = seq[i]
    pair = 1 << a | 1 << b
    return any(
        link_hits(1 << t, live.free, pair, max_turns, live.stride)
        for t in iter_bits(live.kind_mask[live.kind_of[x]])
    )


def test_a_repair_whose_tiles_reach_the_pair_comes_first() -> None:
    """The decision put back is one whose stuck tile ``x`` or other tile ``y`` links to a cell
    of its pair now, whenever a candidate has such a link (tested here with fresh link tests,
    not the solver's), even where the score alone prefers one without: such repairs were kept
    far more often (see ``_Repairer._pick``).  Repairs as the solver makes them (kept when
    they leave fewer tiles, else undone) on generated 32x32 seeds 2, 3 and 8."""
    picks = mattered = 0
    for seed in (2, 3, 8):
        level = generate(Size(32, 32), seed=seed)
        rules = level.rules
        rep = _Repairer(level.board, rules)
        state: _State = (LiveLinks(level.board, rules, undo=True), [], [], set())
        rep.dive(*state)
        for _ in range(10):
            live, seq = state[0], state[1]
            left = rep.tiles_left(live)
            if not left:
                break
            tiers, exposed = rep._rank(state)
            fresh = [(x, i) for x, i in tiers[0] if seq[i] not in rep.tried] or tiers[0]

            def reaches(x: int, i: int, state: _State = state, k: int = rules.max_turns) -> bool:
                return _reaches_the_pair(state, x, i, k)

            by_score = min(
                fresh[:CULPRIT_SHORTLIST],
                key=lambda f, live=live: (
                    -_culprit_score(live, seq, f[1], f[0], exposed, rep.contested, {})
                ),
            )
            drop = rep.culprit(state)
            assert drop is not None
            if any(reaches(x, i) for x, i in fresh):
                picks += 1
                assert reaches(next(x for x, i in fresh if i == drop), drop)
                mattered += not reaches(*by_score)
            pair = seq[drop]
            rep.bans.add(pair)
            rep.tried.add(pair)
            repaired = rep.replay(state, drop)
            rep.dive(*repaired)
            if rep.tiles_left(repaired[0]) < left:
                state = repaired
            else:
                rep.bans.discard(pair)
    assert picks >= 10 and mattered >= 1


def test_a_session_paused_and_resumed_gives_the_same_answer() -> None:
    """``auto`` slices the repair solver's run: pausing it (after some repairs, or whenever a
    budget says stop, here every seventh time it is asked) and going on gives the same
    sequence as one run without pauses, and its repairs are counted once."""
    board = _unsolved(Size(32, 32), 8)  # the race's own run wins here
    rules = Rules()
    whole = solve_repair(board, rules, Budget())
    assert whole.status is SolveStatus.SOLVED and whole.stats.counters["repairs"] > 3
    session = RepairSession(board, rules)
    first = session.advance(Budget(), pause_after=3)
    assert first.status is SolveStatus.UNKNOWN and first.stats.counters["repairs"] == 3
    asked = 0

    def every_seventh() -> bool:
        nonlocal asked
        asked += 1
        return asked % 7 == 0

    answers = []
    while (found := session.advance(Budget(should_stop=every_seventh))).status is not (
        SolveStatus.SOLVED
    ):
        answers.append(found)
    assert answers  # it did pause
    assert found.moves == whole.moves
    assert found.stats.counters["repairs"] == whole.stats.counters["repairs"]
    again = solve(board, budget=Budget(max_nodes=10_000), method="auto")
    assert again.method == "repair" and again.moves == whole.moves
    assert again.stats.nodes == whole.stats.counters["repairs"]


def _certificate(size: Size, seed: int) -> tuple[Board, Rules, list[tuple[int, int]]]:
    """A generated level's board, rules and solution as bit pairs."""
    level = generate(size, seed=seed)
    return level.board, level.rules, move_bits(level.board.layout, level.solution)


def test_the_endgame_finishes_from_the_longest_prefix_not_stuck() -> None:
    """Along a play every prefix of which can be finished (generated 24x24 seed 1's
    certificate without its last 40 moves), the bisection keeps all but the last move (the
    play given stands for a stuck one, so its end is not tested), and the exact search
    finishes from there: a sequence that clears the board, the same on every call."""
    board, rules, pairs = _certificate(Size(24, 24), 1)
    play = pairs[:-40]
    rep = _Repairer(board, rules)
    done = rep.endgame(play, 80)
    assert done is not None and done[: len(play) - 1] == play[:-1]
    assert replay(board, rules, build_moves(board, rules, done)) == []
    assert rep.endgame_searches >= 2
    assert rep.work >= repair.WORK_ENDGAME_TILE * 82 * rep.endgame_searches
    again = _Repairer(board, rules)
    assert again.endgame(play, 80) == done and again.work == rep.work


def test_the_endgame_gives_up_when_the_first_prefix_is_dead() -> None:
    """A prefix whose root relaxation is stuck ends the endgame at once (one search)."""
    board, rules = Board.from_rows(["12", "21"]), Rules(outside=False)
    rep = _Repairer(board, rules)
    assert rep.endgame([], 4) is None
    assert rep.endgame_searches == 1


def test_a_run_asks_the_endgame_once_per_plateau(monkeypatch: pytest.MonkeyPatch) -> None:
    """The run calls the endgame when ``ENDGAME_AFTER`` repairs in a row were undone in a
    position of at most ``ENDGAME_TILES`` tiles, once per position kept; what the endgame
    returns is the run's answer.  Generated 24x24 seed 0, with the endgame after 0 repairs
    undone: it is asked once after the first dive and once after each kept repair."""
    board, rules, pairs = _certificate(Size(24, 24), 0)
    calls: list[int] = []

    def record(self: _Repairer, seq: list[tuple[int, int]], left: int) -> None:
        calls.append(left)

    monkeypatch.setattr(repair, "ENDGAME_AFTER", 0)
    monkeypatch.setattr(_Repairer, "endgame", record)
    plain = RepairSession(board, rules).advance(Budget())
    assert plain.status is SolveStatus.SOLVED
    assert calls and calls == sorted(set(calls), reverse=True)  # once per plateau, fewer tiles
    monkeypatch.setattr(repair, "ENDGAME_TILES", 0)
    calls.clear()
    never = RepairSession(board, rules).advance(Budget())
    assert not calls and never.moves == plain.moves  # an endgame that finds nothing: no change
    monkeypatch.setattr(repair, "ENDGAME_TILES", 10_000)
    monkeypatch.setattr(_Repairer, "endgame", lambda self, seq, left: pairs)
    given = RepairSession(board, rules)
    assert given.advance(Budget()).status is SolveStatus.SOLVED
    assert given.pairs == pairs and given.repairer.repairs == 0


def test_the_endgame_bisects_to_the_longest_prefix_not_stuck(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """From the stuck end of generated 24x24 seed 0's first dive: the root relaxations asked
    (searches with no node) are stuck for every prefix longer than one that is not (the
    relaxed game is monotone), and the search with nodes gets the longest prefix found not
    stuck, the next one (one move more) being stuck or the play's end."""
    from levelgen.linkup.solvers import search

    board, rules = _unsolved(Size(24, 24), 0), Rules()
    rep = _Repairer(board, rules)
    state: _State = (LiveLinks(board, rules, undo=True), [], [], set())
    rep.dive(*state)
    left = rep.tiles_left(state[0])
    asked: list[tuple[int, int | None, SolveStatus]] = []
    plain = search.solve_search

    def recorded(board: Board, rules: Rules, budget: Budget) -> object:
        result = plain(board, rules, budget)
        asked.append((board.tile_count(), budget.max_nodes, result.status))
        return result

    monkeypatch.setattr(search, "solve_search", recorded)
    rep.endgame(state[1], left)
    probes = sorted((tiles, status) for tiles, nodes, status in asked if nodes == 0)
    stuck = [tiles for tiles, status in probes if status is SolveStatus.UNSOLVABLE]
    alive = [tiles for tiles, status in probes if status is SolveStatus.UNKNOWN]
    assert stuck and alive and max(stuck) < min(alive)  # fewer tiles: a longer prefix
    searched = [tiles for tiles, nodes, _ in asked if nodes]
    assert searched == [min(alive)]
    assert min(alive) - 2 in stuck or min(alive) - 2 == left
