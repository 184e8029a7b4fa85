"""The bounded-suboptimal search of large boards (:mod:`levelgen.sliding.staged`) on small
stand-ins whose optimal lengths are known: the solutions replay, are no shorter than the
optimum, and the answer states its factor over the proved bound."""

from __future__ import annotations

import random

import pytest

from levelgen.puzzles import Budget
from levelgen.sliding import solver, staged
from levelgen.sliding.encoding import encode_puzzle
from levelgen.sliding.generate import random_walk
from levelgen.sliding.native import NATIVE, weighted_astar
from levelgen.sliding.pdb_cache import TableStore
from levelgen.sliding.rules import Frame, apply_moves, reachability, remove_cycles

STORE = TableStore(None)
needs_native = pytest.mark.skipif(not NATIVE, reason="the compiled twins are not built")


def random_start(side: int, seed: int) -> tuple[Frame, Frame]:
    goal = Frame(side, side, (*range(1, side * side), 0))
    cells = list(goal.cells)
    random.Random(seed).shuffle(cells)
    start = Frame(side, side, tuple(cells))
    if not reachability(start, goal).reachable:
        i, j = [k for k, v in enumerate(cells) if v][:2]
        cells[i], cells[j] = cells[j], cells[i]
        start = Frame(side, side, tuple(cells))
    return start, goal


def test_cycles_are_cut() -> None:
    goal = Frame(3, 3, (1, 2, 3, 4, 5, 6, 7, 8, 0))
    start = apply_moves(goal, "ULUL")
    encoded = encode_puzzle(goal)
    cells = encoded.encode(start)
    detour = "DU" + "RL" + "RDRD"
    assert apply_moves(start, detour) == goal
    assert remove_cycles(3, cells, detour) == "RDRD"


@needs_native
@pytest.mark.parametrize("seed", range(4))
def test_weighted_astar_with_weight_one_is_optimal_on_3x3(seed: int) -> None:
    start, goal = random_start(3, seed)
    encoding, heuristic = solver.search_heuristic(goal, STORE)
    found = weighted_astar(heuristic, encoding.encode(start), (1, 1))
    optimal = solver.solve(start, goal, tables=STORE)
    assert found is not None and found.path is not None and not found.stopped
    assert apply_moves(start, found.path) == goal
    assert len(found.path) == optimal.length


@needs_native
def test_weighted_astar_looks_only_below_the_bound() -> None:
    start, goal = random_start(3, 7)
    encoding, heuristic = solver.search_heuristic(goal, STORE)
    optimal = solver.solve(start, goal, tables=STORE).length
    assert optimal is not None
    found = weighted_astar(heuristic, encoding.encode(start), (1, 1), bound=optimal)
    assert found is not None and found.path is None and not found.stopped


@needs_native
@pytest.mark.parametrize(("side", "seed"), [(4, 0), (4, 1), (4, 2), (5, 3)])
def test_staged_solutions_replay_and_are_no_shorter_than_optimal(side: int, seed: int) -> None:
    start, goal = random_start(side, seed)
    encoding = encode_puzzle(goal)
    cells = encoding.encode(start)
    path, expanded = staged.staged_path(side, encoding.goal, cells)
    assert path is not None and expanded > 0
    assert apply_moves(start, path) == goal
    shorter = staged.shorten_windows(side, cells, remove_cycles(side, cells, path))
    assert apply_moves(start, shorter) == goal and len(shorter) <= len(path)
    if side == 4:
        optimal = solver.solve(start, goal, tables=STORE).length
        assert optimal is not None and len(shorter) >= optimal
    assert staged.staged_path(side, encoding.goal, cells)[0] == path  # deterministic


def test_staging_needs_a_numbered_goal_with_its_blank_in_a_corner() -> None:
    assert staged.applies(4, bytes([*range(1, 16), 0]))
    assert staged.applies(4, bytes(range(16)))
    assert not staged.applies(4, bytes([1, 2, 3, 4, 5, 0, *range(6, 16)]))
    assert not staged.applies(4, bytes([1, 1, 2, 2, *range(3, 14), 0]))


@needs_native
def test_a_large_board_answers_a_staged_solution_with_its_factor() -> None:
    """6x6: the optimal search is cut by a node budget; the answer is ``unknown`` with the
    staged solution, the proved bound and their ratio, the same on every run."""
    start, goal = random_start(6, 1)
    found = solver.solve(start, goal, Budget(max_nodes=200_000), tables=STORE)
    assert found.status == "unknown" and found.path is not None
    assert apply_moves(start, found.path) == goal
    assert len(found.path) >= found.lower_bound >= found.heuristic
    assert found.bound_factor == round(len(found.path) / found.lower_bound, 3)
    assert "by staged weighted A*" in found.reason
    assert f"within {found.bound_factor:.2f}x of the proved bound" in found.reason
    again = solver.solve(start, goal, Budget(max_nodes=200_000), tables=STORE)
    assert again.path == found.path and again.lower_bound == found.lower_bound


@needs_native
def test_refine_shortens_a_staged_solution_near_the_goal() -> None:
    """6x6, 60 moves from the goal: staging's detours round its placed lines are cut by the
    whole-board weighted A*; the answer names what found it."""
    goal = Frame(6, 6, (*range(1, 36), 0))
    start, _ = random_walk(goal, 60, random.Random(1))
    encoding, heuristic = solver.search_heuristic(goal, STORE)
    cells = encoding.encode(start)
    path, _ = staged.staged_path(6, encoding.goal, cells)
    assert path is not None
    refined, frames, weight = staged.refine(heuristic, cells, path, 1_000_000, None)
    assert weight is not None and frames > 0
    assert apply_moves(start, refined) == goal and len(refined) <= 60 < len(path)
    assert staged.refine(heuristic, cells, path, 0, None) == (path, 0, None)
    found = solver.solve(start, goal, Budget(max_nodes=400_000), tables=STORE)
    assert found.status == "unknown" and found.path is not None and len(found.path) <= 60
    assert "then whole-board weighted A*" in found.reason
