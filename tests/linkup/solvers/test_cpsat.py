"""The CP-SAT solver against a brute force, the search solver, the link test and known boards.

The brute force below shares nothing with the CP-SAT model but the bitboard link test (which
``test_paths`` checks against the slow reference): it tries every legal move in every state.
The model enumerates paths by itself, so ``test_supports_match_the_link_test`` checks that
enumeration directly against the link test on random partial boards.  Every SOLVED result is
replayed by :func:`levelgen.linkup.verify.replay`, which never trusts a solver.
"""

from __future__ import annotations

import random
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from levelgen.linkup.core.board import Board, iter_bits
from levelgen.linkup.core.geometry import Pos
from levelgen.linkup.core.moves import legal_pairs
from levelgen.linkup.core.reach import linkable_mask
from levelgen.linkup.core.rules import Rules
from levelgen.linkup.solvers import linkgraph, solve
from levelgen.linkup.solvers.base import Budget, SolveResult, SolveStatus
from levelgen.linkup.solvers.cpsat import SweepsModel, solve_cpsat
from levelgen.linkup.solvers.linkgraph import LinkGraph, build_link_graph
from levelgen.linkup.solvers.search import solve_search
from levelgen.linkup.verify import replay
from tests.strategies import BENCH_12x8_01, rules_st, small_boards

#: Rules of 3 to 8 turns (beyond 3 the link graph comes from the walk search).
high_rules_st = st.builds(Rules, max_turns=st.integers(3, 8), outside=st.booleans())


def brute_solvable(board: Board, rules: Rules) -> bool:
    """Every legal move in every state (with a memo of dead states)."""
    lay = board.layout
    kinds = list(board.kind_masks().values())
    base_free = board.free_mask(rules.outside)
    start = board.occupied_mask()
    dead: set[int] = set()

    def clears(occ: int) -> bool:
        if not occ:
            return True
        if occ in dead:
            return False
        free = base_free | (start & ~occ)
        for a, b in legal_pairs([m & occ for m in kinds], free, rules.max_turns, lay.stride):
            if clears(occ & ~((1 << a) | (1 << b))):
                return True
        dead.add(occ)
        return False

    return clears(start)


def check_solved(board: Board, rules: Rules, result: SolveResult) -> None:
    assert result.method == "cpsat"
    assert result.moves is not None
    assert replay(board, rules, result.moves) == []


@settings(max_examples=2000, derandomize=True, deadline=None)
@given(small_boards(), rules_st)
def test_agrees_with_brute_force(board: Board, rules: Rules) -> None:
    result = solve_cpsat(board, rules, Budget())
    assert result.status is not SolveStatus.UNKNOWN, result.reason
    if result.status is SolveStatus.SOLVED:
        check_solved(board, rules, result)
    assert (result.status is SolveStatus.SOLVED) == brute_solvable(board, rules)


@settings(max_examples=1000, derandomize=True, deadline=None)
@given(small_boards(max_tiles=32, max_width=8), rules_st)
def test_agrees_with_search_solver(board: Board, rules: Rules) -> None:
    budget = Budget(max_nodes=200_000)
    ours = solve_cpsat(board, rules, budget)
    theirs = solve_search(board, rules, budget)
    if ours.status is SolveStatus.SOLVED:
        check_solved(board, rules, ours)
    decided = {SolveStatus.SOLVED, SolveStatus.UNSOLVABLE}
    if ours.status in decided and theirs.status in decided:
        assert ours.status is theirs.status


@settings(max_examples=150, derandomize=True, deadline=None)
@given(
    small_boards(max_tiles=16, max_width=6),
    st.one_of(rules_st, high_rules_st),
    st.integers(0, 2**32 - 1),
)
def test_supports_match_the_link_test(board: Board, rules: Rules, seed: int) -> None:
    """A pair is linkable after removing any set of tiles exactly when one of its supports
    lies inside that set: the enumeration of paths misses none and invents none."""
    graph = build_link_graph(board, rules)
    lay = board.layout
    rng = random.Random(seed)
    tile_bits = [lay.bit(p.x, p.y) for p in graph.tiles]
    pairs = set(graph.pairs)
    for _ in range(4):
        removed = 0
        for t in range(len(graph.tiles)):
            if rng.random() < 0.4:
                removed |= 1 << t
        free = board.free_mask(rules.outside)
        for t in iter_bits(removed):
            free |= 1 << tile_bits[t]
        for i in range(len(graph.tiles)):
            for j in range(i + 1, len(graph.tiles)):
                if graph.kinds[i] != graph.kinds[j] or (removed >> i | removed >> j) & 1:
                    continue
                hit = linkable_mask(
                    1 << tile_bits[i], free, 1 << tile_bits[j], rules.max_turns, lay.stride
                )
                supported = (i, j) in pairs and any(
                    q & removed == q for q in graph.supports[graph.pairs.index((i, j))]
                )
                assert bool(hit) == supported, (graph.tiles[i], graph.tiles[j], removed)


def test_crossed_block() -> None:
    board = Board.from_grid([[1, 2], [2, 1]])
    inside = solve_cpsat(board, Rules(outside=False), Budget())
    assert inside.status is SolveStatus.UNSOLVABLE
    assert set(inside.deadlock) == set(board.tiles())
    # Around the ring a pair needs three turns.
    ring2 = solve_cpsat(board, Rules(outside=True), Budget())
    assert ring2.status is SolveStatus.UNSOLVABLE
    ring3 = solve_cpsat(board, Rules(max_turns=3, outside=True), Budget())
    assert ring3.status is SolveStatus.SOLVED
    check_solved(board, Rules(max_turns=3, outside=True), ring3)


def test_crossed_block_inside_an_easy_board() -> None:
    board = Board.from_rows(["334455", "661277", "882199", "AABBCC"])
    result = solve_cpsat(board, Rules(outside=False), Budget())
    assert result.status is SolveStatus.UNSOLVABLE
    assert set(result.deadlock) == {Pos(2, 1), Pos(3, 1), Pos(2, 2), Pos(3, 2)}


@pytest.mark.parametrize(
    ("rows", "rules"),
    [
        (["1122", "2121"], Rules(max_turns=0, outside=True)),
        (["21", "22", "11", "12"], Rules(max_turns=0, outside=False)),
        (["3#223", "3.1.2", "231#."], Rules(max_turns=1, outside=True)),
    ],
)
def test_unsolvable_only_by_pairing(rows: list[str], rules: Rules) -> None:
    """Boards the relaxation lets through: only the progress model proves them stuck."""
    board = Board.from_rows(rows)
    graph = build_link_graph(board, rules)
    assert all(e is not None for e in graph.earliest)
    result = solve_cpsat(board, rules, Budget())
    assert result.status is SolveStatus.UNSOLVABLE
    assert "stalls" in result.reason
    assert not brute_solvable(board, rules)


def test_odd_kind_and_empty_board() -> None:
    odd = solve_cpsat(Board.from_rows(["11.", "1.."]), Rules(), Budget())
    assert odd.status is SolveStatus.UNSOLVABLE
    assert "odd" in odd.reason
    empty = solve_cpsat(Board.from_rows(["..", "#."]), Rules(), Budget())
    assert empty.status is SolveStatus.SOLVED
    assert empty.moves == ()


def test_every_number_of_turns_is_modelled() -> None:
    # A spiral: the only way from one 1 to the other turns five times.
    board = Board.from_rows(["#######", "#1....#", "#####.#", "#1#...#", "#.#.###", "#...###"])
    for turns in range(9):
        result = solve_cpsat(board, Rules(max_turns=turns, outside=False), Budget())
        want = SolveStatus.SOLVED if turns >= 5 else SolveStatus.UNSOLVABLE
        assert result.status is want, (turns, result.reason)
        assert (turns >= 5) == brute_solvable(board, Rules(max_turns=turns, outside=False))


def test_too_many_walks_is_unknown(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(linkgraph, "WALK_LABEL_LIMIT", 10)
    board = Board.from_grid([[1] * 12 for _ in range(8)])
    result = solve_cpsat(board, Rules(max_turns=5), Budget())
    assert result.status is SolveStatus.UNKNOWN
    assert "too many ways" in result.reason


@settings(max_examples=150, derandomize=True, deadline=None)
@given(small_boards(max_tiles=12, max_width=6), st.integers(0, 3), st.booleans())
def test_the_walk_search_finds_the_corner_lists_supports(
    board: Board, turns: int, outside: bool
) -> None:
    """Up to 3 turns both enumerations run: they give the same pairs and minimal supports."""
    rules = Rules(max_turns=turns, outside=outside)
    corners = build_link_graph(board, rules)
    saved = linkgraph.MAX_CORNER_TURNS
    linkgraph.MAX_CORNER_TURNS = -1
    try:
        walks = build_link_graph(board, rules)
    finally:
        linkgraph.MAX_CORNER_TURNS = saved
    assert walks.pairs == corners.pairs
    assert [set(s) for s in walks.supports] == [set(s) for s in corners.supports]


@settings(max_examples=300, derandomize=True, deadline=None)
@given(small_boards(), high_rules_st)
def test_agrees_with_brute_force_on_many_turns(board: Board, rules: Rules) -> None:
    result = solve_cpsat(board, rules, Budget())
    assert result.status is not SolveStatus.UNKNOWN, result.reason
    if result.status is SolveStatus.SOLVED:
        check_solved(board, rules, result)
    assert (result.status is SolveStatus.SOLVED) == brute_solvable(board, rules)


@settings(max_examples=150, derandomize=True, deadline=None)
@given(small_boards(max_tiles=24, max_width=8), st.integers(3, 4), st.booleans())
def test_agrees_with_search_solver_on_three_and_four_turns(
    board: Board, turns: int, outside: bool
) -> None:
    rules = Rules(max_turns=turns, outside=outside)
    budget = Budget(max_nodes=100_000)
    ours = solve_cpsat(board, rules, budget)
    theirs = solve_search(board, rules, budget)
    assert ours.status is not SolveStatus.UNKNOWN, ours.reason
    if ours.status is SolveStatus.SOLVED:
        check_solved(board, rules, ours)
    if theirs.status is not SolveStatus.UNKNOWN:
        assert ours.status is theirs.status


def test_bench_board_decided_both_ways_deterministically() -> None:
    board = Board.from_grid(BENCH_12x8_01)
    rules = Rules(outside=False)
    first = solve(board, rules, budget=Budget(max_nodes=3_000_000), method="cpsat")
    assert first.status is SolveStatus.SOLVED
    check_solved(board, rules, first)
    counters = first.stats.counters
    assert counters["warm_start_cleared"] == 0
    assert counters["variables"] > 0 and counters["constraints"] > 0 and counters["sweeps"] > 0
    again = solve_cpsat(board, rules, Budget(max_nodes=3_000_000))
    assert again.moves == first.moves


def test_budget_exhaustion_is_unknown() -> None:
    board = Board.from_grid(BENCH_12x8_01)
    rules = Rules(outside=False)
    tiny = solve_cpsat(board, rules, Budget(max_nodes=10))
    assert tiny.status is SolveStatus.UNKNOWN
    assert "budget" in tiny.reason
    stopped = solve_cpsat(board, rules, Budget(should_stop=lambda: True))
    assert stopped.status is SolveStatus.UNKNOWN
    assert "while building the link graph" in stopped.reason


@pytest.mark.parametrize("polls", [10, 150, 400])
def test_stopping_while_building_is_unknown(polls: int) -> None:
    """A stop asked while the link graph or a model is being built (big boards take seconds
    there) ends the call at once, undecided."""
    calls = [0]

    def should_stop() -> bool:
        calls[0] += 1
        return calls[0] > polls

    board = Board.from_grid(BENCH_12x8_01)
    result = solve_cpsat(board, Rules(outside=False), Budget(should_stop=should_stop))
    assert result.status is SolveStatus.UNKNOWN
    assert "budget exhausted" in result.reason
    assert calls[0] == polls + 1


def _pairings(graph: LinkGraph) -> list[list[int]]:
    """Every way to split the tiles of ``graph`` into candidate pairs."""
    out: list[list[int]] = []
    full = (1 << len(graph.tiles)) - 1

    def extend(used: int, chosen: list[int]) -> None:
        if used == full:
            out.append(chosen[:])
            return
        t = next(i for i in range(len(graph.tiles)) if not used >> i & 1)
        for p in graph.pairs_of_tile[t]:
            if not used & graph.pair_mask(p):
                chosen.append(p)
                extend(used | graph.pair_mask(p), chosen)
                chosen.pop()

    extend(0, [])
    return out


@pytest.mark.parametrize("sweeps", [1, 2, 4])
def test_progress_model_is_exact_for_a_fixed_pairing(sweeps: int) -> None:
    """With every match fixed the eager sweeps are forced, so the progress model with ``S``
    sweeps is feasible exactly when the pairing's eager sweeps clear the board or do not stall
    within ``S`` sweeps; with ``S`` = number of pairs, exactly when the pairing clears the
    board.  Checked on every pairing of a board where some pairings clear it and others
    stall."""
    from ortools.sat.python import cp_model

    board = Board.from_rows(["1.2.", "1.11", ".121"])
    rules = Rules(max_turns=1, outside=True)
    graph = build_link_graph(board, rules)
    outcomes = []
    for pairing in _pairings(graph):
        schedule, left = graph.eager_sweeps(pairing)
        assert (left == 0) == (graph.eager_rounds(pairing)[1] == 0)
        model = SweepsModel(graph, sweeps, "progress")
        for q, lit in enumerate(model.match):
            if not isinstance(lit, bool):
                model.model.add(lit == int(q in pairing))
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1
        status = solver.solve(model.model)
        feasible = status in (cp_model.OPTIMAL, cp_model.FEASIBLE)
        assert feasible == (left == 0 or len(schedule) >= sweeps), pairing
        outcomes.append(left == 0)
        if sweeps == len(graph.tiles) // 2:
            assert feasible == (left == 0)
    assert len(outcomes) == 15 and any(outcomes) and not all(outcomes)


def test_import_does_not_load_ortools() -> None:
    code = (
        "import sys, levelgen, levelgen.linkup.solvers, levelgen.linkup.solvers.cpsat\n"
        "import levelgen.linkup.generate.shaping\n"
        "import levelgen.linkup.solvers.cpsat_assign, levelgen.linkup.solvers.linkgraph\n"
        "assert not any(m == 'ortools' or m.startswith('ortools.') for m in sys.modules)\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_portfolio_answers_with_search_when_it_decides() -> None:
    board = Board.from_rows(["334455", "661277", "882199", "AABBCC"])
    result = solve(board, Rules(outside=False), method="auto")
    assert result.status is SolveStatus.UNSOLVABLE
    assert result.method == "search"


def test_portfolio_falls_back_to_cpsat_on_the_rest_of_the_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """When the search is undecided, CP-SAT answers with what is left of the time limit."""
    import levelgen.linkup.solvers.search as search_module

    now = [100.0]
    seen: list[Budget] = []

    def undecided(board: Board, rules: Rules, budget: Budget) -> SolveResult:
        seen.append(budget)
        assert budget.should_stop is not None and not budget.should_stop()
        now[0] += 3.0  # the search takes 3 of the 10 seconds, then gives up
        assert not budget.should_stop()
        now[0] += 2.5  # past its half
        assert budget.should_stop()
        return SolveResult(SolveStatus.UNKNOWN, method="search")

    monkeypatch.setattr(search_module, "solve_search", undecided)
    board = Board.from_grid(BENCH_12x8_01)
    rules = Rules(outside=False)
    budget = Budget(max_nodes=3_000_000, clock=lambda: now[0], time_limit=10.0)
    result = solve(board, rules, budget=budget, method="auto")
    assert seen and seen[0].time_limit == 5.0
    assert result.method == "cpsat"
    assert result.status is SolveStatus.SOLVED
    check_solved(board, rules, result)
