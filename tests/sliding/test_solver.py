"""The solver: its optimal length equals a plain breadth-first search on random small boards
(numbered, colour, square and not), whichever method and heuristic runs, with the same least
solution and count; unsolvable only with the invariant; unknown at the budget with a proved
bound and a valid best-so-far."""

from __future__ import annotations

from hypothesis import given, settings

from levelgen.puzzles import Budget
from levelgen.sliding import bfs, solver
from levelgen.sliding.pdb_cache import TableStore
from levelgen.sliding.rules import Frame, apply_moves

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
