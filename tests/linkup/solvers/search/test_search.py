"""The exact search solver against the plain exhaustive search, known classics and budgets.

The exhaustive search shares nothing with the search solver but the link test (no closure, no
relaxation, no memo of pairings), so agreement on thousands of small boards is the main check
that every shortcut of the search is sound and that it never misses a solution.  Every SOLVED
result is replayed by :func:`levelgen.linkup.verify.replay`, which never trusts a solver.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from levelgen.linkup.core.board import EMPTY, WALL, Board, iter_bits
from levelgen.linkup.core.geometry import Pos
from levelgen.linkup.core.reference import reference_all
from levelgen.linkup.core.rules import Rules
from levelgen.linkup.solvers import solve
from levelgen.linkup.solvers.base import Budget, SolveResult, SolveStats, SolveStatus
from levelgen.linkup.solvers.common import DeadMemo
from levelgen.linkup.solvers.exhaustive import solve_exhaustive
from levelgen.linkup.solvers.search import engine as engine_module
from levelgen.linkup.solvers.search import solve_search
from levelgen.linkup.solvers.search.choice import luby
from levelgen.linkup.verify import replay
from tests.strategies import BENCH_12x8_01, rules_st, small_boards

DEFAULT_RESTART_BASE = engine_module.RESTART_BASE

CROSSED = [[1, 2], [2, 1]]

#: An easy 6x4 board (every other pair adjacent) with the crossed block in its middle.
EMBEDDED = Board.from_rows(
    [
        "334455",
        "661277",
        "882199",
        "AABBCC",
    ]
)
BLOCK = {Pos(2, 1), Pos(3, 1), Pos(2, 2), Pos(3, 2)}


@st.composite
def dense_boards(draw: st.DrawFn) -> Board:
    """Boards 3x2 .. 6x4 nearly full (up to 20 tiles, 4 copies of most kinds, a few holes or
    walls): the boards where the search has to branch, force pairings and prove deadness."""
    width = draw(st.integers(3, 6))
    height = draw(st.integers(2, 4))
    n = width * height
    holes = draw(st.integers(0, 2))
    room = min(n, 20) - holes
    counts: list[int] = []
    while sum(counts) + 4 <= room:
        counts.append(draw(st.sampled_from([4, 4, 4, 2, 6])) if sum(counts) + 6 <= room else 4)
    cells = [kind for kind, c in enumerate(counts, 1) for _ in range(c)]
    filler = draw(st.sampled_from([EMPTY, EMPTY, WALL]))
    cells += [filler] * (n - len(cells))
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    rng.shuffle(cells)
    return Board(width, height, tuple(cells))


hard_rules_st = st.builds(
    Rules, max_turns=st.sampled_from([0, 1, 1, 2, 2, 3]), outside=st.booleans()
)


def assert_replays(board: Board, rules: Rules, result: SolveResult) -> None:
    assert result.moves is not None
    assert replay(board, rules, result.moves) == []


@settings(derandomize=True, deadline=None, max_examples=2500)
@given(board=small_boards(), rules=rules_st)
def test_search_agrees_with_exhaustive(board: Board, rules: Rules) -> None:
    fast = solve_search(board, rules, Budget())
    slow = solve_exhaustive(board, rules, Budget())
    assert fast.status is slow.status, (str(board), rules, fast.reason, slow.reason)
    assert fast.method == "search" and slow.method == "exhaustive"
    if fast.status is SolveStatus.SOLVED:
        assert_replays(board, rules, fast)
        assert_replays(board, rules, slow)
    else:
        assert fast.status is SolveStatus.UNSOLVABLE and fast.reason
        # The deadlock core is made of tiles of the board.
        assert all(board[p] >= 1 for p in fast.deadlock)


@settings(derandomize=True, deadline=None, max_examples=150)
@given(board=small_boards(max_tiles=20), rules=rules_st)
def test_search_on_denser_boards_agrees(board: Board, rules: Rules) -> None:
    fast = solve_search(board, rules, Budget())
    slow = solve_exhaustive(board, rules, Budget(max_nodes=20_000))
    if slow.status is not SolveStatus.UNKNOWN:
        assert fast.status is slow.status, (str(board), rules)
    if fast.status is SolveStatus.SOLVED:
        assert_replays(board, rules, fast)


@settings(derandomize=True, deadline=None, max_examples=1500)
@given(board=dense_boards(), rules=hard_rules_st)
def test_search_agrees_with_exhaustive_on_dense_boards(board: Board, rules: Rules) -> None:
    fast = solve_search(board, rules, Budget())
    slow = solve_exhaustive(board, rules, Budget(max_nodes=100_000))
    assert slow.status is not SolveStatus.UNKNOWN
    assert fast.status is slow.status, (str(board), rules, fast.reason)
    if fast.status is SolveStatus.SOLVED:
        assert_replays(board, rules, fast)


@settings(derandomize=True, deadline=None, max_examples=300)
@given(board=dense_boards(), rules=hard_rules_st, seed=st.integers(0, 2**32 - 1))
def test_closure_keeps_every_link_of_every_group(board: Board, rules: Rules, seed: int) -> None:
    """After random decisions (two tiles made partners) and the closure that follows each, the
    links the engine keeps, read through each tile's group, are exactly the tiles of its group
    it is linkable to, as the slow reference finds them on the board of the tiles left."""
    engine = engine_module.Engine(board, rules, Budget(), SolveStats())
    for t in iter_bits(engine.occ):
        engine.links[t] = engine._link(t, engine.free, engine.gmask[engine.gid[t]] ^ 1 << t)
    engine._closure(list(range(engine.n_kinds)))
    rng = random.Random(seed)
    lay = board.layout
    while True:
        now = board.without(*(lay.pos(b) for b in iter_bits(board.occupied_mask() & ~engine.occ)))
        for t in iter_bits(engine.occ):
            group = engine.gmask[engine.gid[t]] & ~(1 << t)
            found = {lay.pos(b) for b in iter_bits(engine.links[t] & group)}
            truth = {p for p in reference_all(now, lay.pos(t), rules) if group >> lay.bit(*p) & 1}
            assert found == truth, (str(now), lay.pos(t))
        choices = [
            (engine.gid[t], t, p)
            for t in iter_bits(engine.occ)
            for p in iter_bits(engine.links[t] & engine.gmask[engine.gid[t]])
            if t < p and engine.gmask[engine.gid[t]].bit_count() >= 4
        ]
        if not choices:
            return
        g, t, p = rng.choice(choices)
        engine._closure([g, engine._split(g, t, p)])


@pytest.mark.parametrize("max_turns", [0, 1, 2, 3])
def test_crossed_block_without_outside_is_unsolvable(max_turns: int) -> None:
    board = Board.from_grid(CROSSED)
    result = solve_search(board, Rules(max_turns, outside=False), Budget())
    assert result.status is SolveStatus.UNSOLVABLE
    assert set(result.deadlock) == BLOCK_2x2
    assert "can never be removed" in result.reason


BLOCK_2x2 = {Pos(0, 0), Pos(1, 0), Pos(0, 1), Pos(1, 1)}


def test_crossed_block_with_outside_needs_three_turns() -> None:
    # Through the ring, a diagonal pair of a 2x2 block needs three turns.
    board = Board.from_grid(CROSSED)
    assert solve_search(board, Rules(2, outside=True), Budget()).status is SolveStatus.UNSOLVABLE
    rules = Rules(3, outside=True)
    result = solve_search(board, rules, Budget())
    assert result.status is SolveStatus.SOLVED
    assert_replays(board, rules, result)


def test_embedded_crossed_block_is_unsolvable_and_core_is_the_block() -> None:
    rules = Rules(2, outside=False)
    result = solve_search(EMBEDDED, rules, Budget())
    assert result.status is SolveStatus.UNSOLVABLE
    assert set(result.deadlock) == BLOCK
    # Without the block, the rest of the board is easy.
    rest = EMBEDDED.without(*BLOCK)
    assert solve_search(rest, rules, Budget()).status is SolveStatus.SOLVED
    # Three turns go around the block.
    assert solve_search(EMBEDDED, Rules(3, outside=False), Budget()).status is SolveStatus.SOLVED


def test_unsolvable_after_search_says_so() -> None:
    # Every tile can leave in the relaxed game, yet no order works: only the search proves it.
    board = Board.from_rows(["311", "12.", "231"])
    for rules in (Rules(2, outside=False), Rules(2, outside=True)):
        assert solve_exhaustive(board, rules, Budget()).status is SolveStatus.UNSOLVABLE
        result = solve_search(board, rules, Budget())
        assert result.status is SolveStatus.UNSOLVABLE
        assert result.deadlock == ()
        assert "exhaustive search of the pairings" in result.reason
        assert result.stats.nodes > 0


def test_odd_kind_is_unsolvable_with_reason() -> None:
    board = Board.from_rows(["112", "1.."])
    for solver in (solve_search, solve_exhaustive):
        result = solver(board, Rules(), Budget())
        assert result.status is SolveStatus.UNSOLVABLE
        assert "kind 1 has 3" in result.reason and "kind 2 has 1" in result.reason
        assert set(result.deadlock) == set(board.tiles())


def test_empty_board_is_solved_with_no_moves() -> None:
    board = Board.from_rows(["..#", "#.."])
    for solver in (solve_search, solve_exhaustive):
        result = solver(board, Rules(), Budget())
        assert result.status is SolveStatus.SOLVED
        assert result.moves == ()


def test_node_budget_gives_unknown() -> None:
    board = Board.from_grid(BENCH_12x8_01)
    rules = Rules(2, outside=False)
    result = solve_search(board, rules, Budget(max_nodes=3))
    assert result.status is SolveStatus.UNKNOWN
    assert "node budget" in result.reason
    assert result.stats.nodes <= 4
    assert solve_exhaustive(board, rules, Budget(max_nodes=3)).status is SolveStatus.UNKNOWN


def test_should_stop_gives_unknown_and_clock_is_used() -> None:
    board = Board.from_grid(BENCH_12x8_01)
    ticks = iter(range(1000))
    budget = Budget(should_stop=lambda: True, clock=lambda: float(next(ticks)))
    result = solve_search(board, Rules(2, outside=False), budget)
    assert result.status is SolveStatus.UNKNOWN
    assert "stopped" in result.reason
    assert result.stats.elapsed > 0


def test_hard_board_is_decided_deterministically_through_solve() -> None:
    board = Board.from_grid(BENCH_12x8_01)
    rules = Rules(2, outside=False)
    first = solve(board, rules, method="search")
    second = solve(board, rules, method="search")
    assert first.status is SolveStatus.SOLVED and first.method == "search"
    assert first.moves == second.moves
    assert first.stats.nodes == second.stats.nodes
    assert first.stats.counters["branches"] > 0
    assert_replays(board, rules, first)


def test_six_copies_of_a_kind() -> None:
    board = Board.from_rows(["111", "111", "222", "2.2"])
    for rules in (Rules(2, True), Rules(1, False), Rules(0, False)):
        fast = solve_search(board, rules, Budget())
        slow = solve_exhaustive(board, rules, Budget())
        assert fast.status is slow.status
        if fast.status is SolveStatus.SOLVED:
            assert_replays(board, rules, fast)


def test_luby_sequence() -> None:
    assert [luby(i) for i in range(1, 16)] == [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]


def solve_with_runs_at_once(board: Board, rules: Rules, base: int) -> SolveResult:
    """The search solver without the first dive and with runs of ``base`` times Luby nodes."""
    engine_module.RESTART_BASE = base
    engine_module.BLIND_DIVE = False
    try:
        return solve_search(board, rules, Budget())
    finally:
        engine_module.RESTART_BASE = DEFAULT_RESTART_BASE
        engine_module.BLIND_DIVE = True


@settings(derandomize=True, deadline=None, max_examples=400)
@given(board=dense_boards(), rules=hard_rules_st, base=st.sampled_from([1, 3]))
def test_tiny_restart_limits_stay_exact(board: Board, rules: Rules, base: int) -> None:
    # Restarting after every few nodes exercises the pausing, the unwinding, the engines of
    # each order and the memo they share; the answer must not change.  Without the first
    # dive (which decides most small boards), the runs start at once.
    fast = solve_with_runs_at_once(board, rules, base)
    slow = solve_exhaustive(board, rules, Budget(max_nodes=100_000))
    assert fast.status is slow.status, (str(board), rules)
    if fast.status is SolveStatus.SOLVED:
        assert_replays(board, rules, fast)


@pytest.mark.parametrize("base", [5, 10])
def test_paused_runs_on_a_full_board_stay_exact(base: int) -> None:
    # A 12x8 board that needs several runs without the first dive: the "tightest" engine must
    # start from the root, not from wherever the paused "order" run stands.
    board = Board.from_grid(BENCH_12x8_01)
    rules = Rules(2, outside=False)
    result = solve_with_runs_at_once(board, rules, base)
    assert result.status is SolveStatus.SOLVED
    assert result.stats.counters["restarts"] >= 2
    assert_replays(board, rules, result)


def test_dead_memo_is_bounded_and_keeps_the_newest() -> None:
    memo = DeadMemo(limit=3)
    for key in range(10):
        memo.add(key)
    assert len(memo) <= 6
    assert 9 in memo and 8 in memo and 0 not in memo
    assert memo.evictions == 3
