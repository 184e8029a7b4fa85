"""The solver: its optimal length equals a plain breadth-first search on random small boards
(numbered, colour, square and not), whichever method and heuristic runs, with the same least
solution and count; unsolvable only with the invariant; unknown at the budget with a proved
bound and a valid best-so-far."""

from __future__ import annotations

import random
import time
from pathlib import Path

from hypothesis import given, settings

from levelgen.formats.reports import wall_clock_budget
from levelgen.puzzles import Budget
from levelgen.sliding import bfs, solver
from levelgen.sliding.pdb_cache import TableStore
from levelgen.sliding.rules import Frame, apply_moves, reachability

from .strategies import puzzles

STORE = TableStore(None)


@settings(max_examples=150, deadline=None)
@given(puzzles(max_cells=12))
def test_optimal_length_equals_plain_bfs(case: tuple[Frame, Frame]) -> None:
    start, goal = case
    plain = bfs.plain_distance(bytes(start.cells), bytes(goal.cells), start.width, start.height)
    answers = []
    for method in ("bidirectional-bfs", "ida*"):
        found = solver.solve(start, goal, method=method, count_cap=50, tables=STORE)
        assert found.status == "solved"
        assert found.length == plain == found.lower_bound
        assert found.path is not None and len(found.path) == plain
        assert apply_moves(start, found.path) == goal
        answers.append((found.path, found.count))
    assert answers[0] == answers[1]


@settings(max_examples=60, deadline=None)
@given(puzzles(max_cells=12))
def test_the_heuristic_changes_only_the_work(case: tuple[Frame, Frame]) -> None:
    """Crossing counts alone, small tables, larger tables: the same least solution."""
    start, goal = case
    results = set()
    plain = solver.solve(start, goal, tables=STORE).length
    assert plain is not None
    # Crossing counts alone are weak: IDA* with them only on short solutions.
    for cap in (0, 200, 5_000) if plain <= 14 else (200, 5_000):
        solver._heuristics.clear()
        enc, heuristic = solver.search_heuristic(goal, STORE, cap=cap)
        threshold = heuristic.value(enc.encode(start))
        parity = plain % 2
        threshold += (threshold - parity) % 2
        while True:
            step = solver.bounded_search(heuristic, enc.encode(start), threshold)
            if step.path is not None:
                break
            assert step.next_threshold is not None
            threshold = step.next_threshold + (step.next_threshold - parity) % 2
        results.add(step.path)
    solver._heuristics.clear()
    assert len(results) == 1


@settings(max_examples=60, deadline=None)
@given(puzzles(max_cells=9, numbered_cells=8, reachable=False))
def test_unsolvable_only_with_the_invariant(case: tuple[Frame, Frame]) -> None:
    start, goal = case
    found = solver.solve(start, goal, tables=STORE)
    plain = bfs.plain_distance(bytes(start.cells), bytes(goal.cells), start.width, start.height)
    if plain is None:
        assert found.status == "unsolvable"
        assert found.invariant["invariant"] == "parity"
        assert found.path is None
    else:
        assert found.status == "solved" and found.length == plain


def test_unknown_at_the_budget_keeps_a_proved_bound_and_a_valid_solution() -> None:
    goal = Frame(4, 4, tuple(range(16)))
    start = Frame(4, 4, (14, 13, 15, 7, 11, 12, 9, 5, 6, 0, 2, 1, 4, 8, 10, 3))  # Korf's 1: 57
    found = solver.solve(start, goal, Budget(max_nodes=2_000))
    assert found.status == "unknown"
    assert found.length is None
    assert 0 < found.lower_bound <= 57
    assert found.path is not None  # the greedy search's
    assert apply_moves(start, found.path) == goal
    assert len(found.path) >= found.lower_bound
    assert found.lower_bound % 2 == len(found.path) % 2
    calls = []

    def stop() -> bool:
        calls.append(1)
        return True

    stopped = solver.solve(start, goal, Budget(should_stop=stop))
    assert stopped.status == "unknown" and calls


def test_a_bound_proved_by_a_greedy_solution_is_solved() -> None:
    goal = Frame(3, 3, (1, 2, 3, 4, 5, 6, 7, 8, 0))
    start = apply_moves(goal, "ULUL")
    found = solver.solve(start, goal, Budget(max_nodes=1), method="ida*", tables=STORE)
    assert found.status == "solved" and found.length == 4 and found.method == "ida*+greedy"


def test_start_at_the_goal_and_space_sizes() -> None:
    goal = Frame(3, 3, (1, 2, 3, 4, 5, 6, 7, 8, 0))
    found = solver.solve(goal, goal)
    assert (found.status, found.path, found.length, found.count) == ("solved", "", 0, 1)
    assert solver.space_size(goal) == 181_440
    assert solver.space_size(Frame(2, 2, (1, 1, 2, 0))) == 12


def test_count_optimal_agrees_between_methods() -> None:
    goal = Frame(3, 3, (1, 1, 2, 2, 1, 2, 1, 2, 0))
    start = apply_moves(goal, "ULLURDRUL")
    length = solver.solve(start, goal, tables=STORE).length
    assert length is not None
    counted = solver.count_optimal(start, goal, length, 1000, tables=STORE)
    both = solver.solve(start, goal, method="ida*", count_cap=1000, tables=STORE)
    assert counted == both.count and counted is not None and counted >= 1


def test_a_time_limit_stops_table_building(tmp_path: Path) -> None:
    """Tables not built yet and the budget spent: ``unknown`` at once with the bound of a
    heuristic without tables (the builder polls ``should_stop``; nothing is written)."""
    store = TableStore(tmp_path)
    goal = Frame(4, 4, tuple(range(16)))
    start = Frame(4, 4, (14, 13, 15, 7, 11, 12, 9, 5, 6, 0, 2, 1, 4, 8, 10, 3))
    solver._heuristics.clear()
    found = solver.solve(start, goal, Budget(should_stop=lambda: True), tables=store)
    assert found.status == "unknown" and found.method == "tables"
    assert 0 < found.lower_bound <= 57 and "building the pattern databases" in found.reason
    assert not list(tmp_path.iterdir())
    if found.path is not None:
        assert apply_moves(start, found.path) == goal
        assert found.bound_factor == round(len(found.path) / found.lower_bound, 3)


def test_a_wall_clock_limit_is_kept_on_a_large_board(tmp_path: Path) -> None:
    """A correctness bound, not a performance figure: an 8x8 solve with a 0.3 s limit (its 21
    tables not built) ends well within 2 s."""
    store = TableStore(tmp_path)
    goal = Frame(8, 8, (*range(1, 64), 0))
    cells = list(goal.cells)
    random.Random(5).shuffle(cells)
    start = Frame(8, 8, tuple(cells))
    if not reachability(start, goal).reachable:
        i, j = [k for k, v in enumerate(cells) if v][:2]
        cells[i], cells[j] = cells[j], cells[i]
        start = Frame(8, 8, tuple(cells))
    solver._heuristics.clear()
    t0 = time.perf_counter()
    found = solver.solve(start, goal, wall_clock_budget(0.3), tables=store)
    assert time.perf_counter() - t0 < 2.0
    assert found.status in ("unknown", "unsolvable")


def test_an_unknown_answer_states_its_factor() -> None:
    goal = Frame(4, 4, tuple(range(16)))
    start = Frame(4, 4, (14, 13, 15, 7, 11, 12, 9, 5, 6, 0, 2, 1, 4, 8, 10, 3))
    found = solver.solve(start, goal, Budget(max_nodes=2_000), tables=STORE)
    assert found.status == "unknown" and found.path is not None
    assert found.bound_factor == round(len(found.path) / found.lower_bound, 3)
    assert f"within {found.bound_factor:.2f}x of the proved bound" in found.reason


def test_large_boards_try_a_weighted_solution_first() -> None:
    """6x6 and up: the weighted search's solution is returned with the proved bound when the
    optimal search runs out (here with tiny tables, a node budget)."""
    goal = Frame(6, 6, (*range(1, 36), 0))
    start = apply_moves(goal, "ULDLUURDLLURDDLULURRRDLDLUUULLDRDR")
    found = solver.solve(start, goal, Budget(max_nodes=400_000), tables=STORE)
    assert found.path is not None and apply_moves(start, found.path) == goal
    if found.status == "unknown":
        assert found.bound_factor is not None and found.bound_factor >= 1
    else:
        assert found.length == len(found.path)
