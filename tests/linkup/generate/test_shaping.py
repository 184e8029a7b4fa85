"""Difficulty shaping: the measures, the CP-SAT assignment model, and what shaping promises.

The link counts of :func:`levelgen.linkup.generate.shaping.order_links` are checked against a replay
with every legal move listed (:func:`count_moves`, :func:`count_tempting`); the assignment model
against an exhaustive enumeration on tiny orders; and shaping itself on seeded 12x8 layouts: kind
counts kept, the order still a solution (replayed), the start-move count moved the requested
way.
"""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from levelgen.linkup.core.board import Board
from levelgen.linkup.core.geometry import Pos
from levelgen.linkup.core.rules import Rules
from levelgen.linkup.difficulty import count_moves
from levelgen.linkup.generate.playout import deal, random_removal_order
from levelgen.linkup.generate.shaping import count_tempting, measure, order_links, shape_kinds
from levelgen.linkup.solvers.cpsat_assign import Objective, solve_kind_assignment
from levelgen.linkup.verify import replay

FULL_12x8 = Board(12, 8, (1,) * 96)


def seeded_order(template: Board, rules: Rules, seed: int) -> list[tuple[Pos, Pos]]:
    order = random_removal_order(template, rules, random.Random(seed))
    assert order is not None
    return order


@settings(max_examples=150, derandomize=True, deadline=None)
@given(
    st.integers(2, 7),
    st.integers(2, 5),
    st.integers(0, 3),
    st.booleans(),
    st.integers(0, 2**32 - 1),
)
def test_link_counts_match_a_replay(
    width: int, height: int, max_turns: int, outside: bool, seed: int
) -> None:
    rng = random.Random(seed)
    cells = [rng.choice([1, 1, 1, 0, -1]) for _ in range(width * height)]
    if cells.count(1) % 2:
        cells[cells.index(1)] = 0
    template = Board(width, height, tuple(cells))
    rules = Rules(max_turns=max_turns, outside=outside)
    order = random_removal_order(template, rules, rng)
    assume(order is not None)
    assert order is not None
    links = order_links(template, rules, order)
    kinds = [rng.randint(1, 3) for _ in order]
    board, moves = deal(template, rules, order, kinds)
    assert replay(board, rules, moves) == []
    assert links.start_moves(kinds) == count_moves(board, rules)
    assert links.tempting_pairings(kinds) == count_tempting(board, rules, order)


def test_assignment_model_finds_the_lexicographic_optimum() -> None:
    """On tiny orders, compare with every assignment."""
    rng = random.Random(7)
    for _ in range(6):
        n = 6
        counts = [2, 2, 1, 1]
        start = {(p, q): rng.randint(0, 2) for p, q in itertools.combinations(range(n), 2)}
        tempt = {(p, q): rng.randint(0, 3) for p, q in itertools.combinations(range(n), 2)}
        hint = [1, 1, 2, 2, 3, 4]
        for maximize_first in (False, True):
            objectives: list[Objective] = [(start, maximize_first), (tempt, not maximize_first)]
            answer = solve_kind_assignment(counts, objectives, hint, max_deterministic_time=5.0)
            assert answer.status == "optimal"
            assert sorted(answer.kinds) == sorted(hint)

            def key(kinds: tuple[int, ...], objs: list[Objective] = objectives) -> tuple[int, ...]:
                values = []
                for weights, maximize in objs:
                    v = sum(w for (p, q), w in weights.items() if kinds[p] == kinds[q])
                    values.append(v if maximize else -v)
                return tuple(values)

            best = max(key(k) for k in set(itertools.permutations(hint)))
            assert key(answer.kinds) == best


def test_assignment_rejects_a_hint_with_wrong_counts() -> None:
    with pytest.raises(ValueError, match="number of pairs"):
        solve_kind_assignment([2, 1], [({}, True)], [1, 2, 2], max_deterministic_time=1.0)


@pytest.mark.parametrize("outside", [True, False])
def test_shaping_moves_start_moves_the_requested_way(outside: bool) -> None:
    rules = Rules(outside=outside)
    moved = {"easy": 0, "hard": 0}
    for seed in range(3):
        order = seeded_order(FULL_12x8, rules, seed)
        for target in ("easy", "hard"):
            shaped = shape_kinds(FULL_12x8, rules, order, target=target, seed=seed)
            report = shaped.report
            assert set(shaped.board.kind_counts().values()) == {4}
            assert len(shaped.board.kind_counts()) == 24
            assert replay(shaped.board, rules, shaped.moves) == []
            assert [{m.a, m.b} for m in shaped.moves] == [{a, b} for a, b in order]
            assert report.after == measure(shaped.board, rules, order)
            before_board, _ = deal(FULL_12x8, rules, order, _random_deal(seed, 24, 2))
            assert report.before == measure(before_board, rules, order)
            if target == "easy":
                assert report.after.start_moves >= report.before.start_moves
                moved[target] += report.after.start_moves > report.before.start_moves
            else:
                assert report.after.start_moves <= report.before.start_moves
                moved[target] += report.after.start_moves < report.before.start_moves
    assert moved == {"easy": 3, "hard": 3}


def _random_deal(seed: int, kinds: int, pairs_each: int) -> list[int]:
    """The random deal shaping compares with (the same draw as :func:`shape_kinds`)."""
    deal_kinds = [k for k in range(1, kinds + 1) for _ in range(pairs_each)]
    random.Random(seed).shuffle(deal_kinds)
    return deal_kinds


@pytest.mark.parametrize(("max_turns", "outside"), [(0, True), (1, False), (2, True), (3, False)])
def test_shaping_is_deterministic_and_keeps_uneven_counts(max_turns: int, outside: bool) -> None:
    template = Board.from_rows(["111111", "1.11.1", "111111"])
    rules = Rules(max_turns=max_turns, outside=outside)
    order = seeded_order(template, rules, 3)
    counts = [3, 2, 2, 1]
    first = shape_kinds(template, rules, order, target="hard", seed=5, pair_counts=counts)
    again = shape_kinds(template, rules, order, target="hard", seed=5, pair_counts=counts)
    assert first.board == again.board
    assert first.pair_kinds == again.pair_kinds
    assert sorted(first.board.kind_counts().values()) == [2, 4, 4, 6]
    assert replay(first.board, rules, first.moves) == []
    assert first.board[Pos(1, 1)] == 0
    # So small a model is solved to optimality: never worse than the random deal.
    assert first.report.status == "optimal"
    assert first.report.after.start_moves <= first.report.before.start_moves


def test_shaping_rejects_bad_requests() -> None:
    rules = Rules()
    template = Board.from_rows(["1111", "1111"])
    order = seeded_order(template, rules, 0)
    with pytest.raises(ValueError, match="target"):
        shape_kinds(template, rules, order, target="medium", seed=0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="tiles"):
        shape_kinds(template, rules, order, target="easy", seed=0, pair_counts=[2, 1])
    with pytest.raises(ValueError, match="leaves"):
        shape_kinds(template, rules, order[:-1], target="easy", seed=0, copies=2)
    with pytest.raises(ValueError, match="already removed"):
        shape_kinds(template, rules, [*order[:-1], order[0]], target="easy", seed=0, copies=2)
    crossed = Board.from_rows(["11", "11"])
    stuck = [(Pos(0, 0), Pos(1, 1)), (Pos(1, 0), Pos(0, 1))]
    with pytest.raises(ValueError, match="not linked"):
        shape_kinds(crossed, Rules(outside=False), stuck, target="easy", seed=0, copies=2)
