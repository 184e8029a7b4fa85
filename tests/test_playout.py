"""Positions-only random removal orders: complete, legal at every step, seeded, and uniform in
the choice of the first move."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from levelgen.board import EMPTY, WALL, Board
from levelgen.geometry import Pos
from levelgen.playout import random_removal_order
from levelgen.reference import reference_all, reference_best
from levelgen.rules import Rules


def check_order(template: Board, rules: Rules, order: list[tuple[Pos, Pos]]) -> None:
    """Every slot removed once, each pair linked at its moment (by the slow reference)."""
    removed = [p for pair in order for p in pair]
    assert sorted(removed) == sorted(template.tiles())
    board = template
    for a, b in order:
        assert reference_best(board, a, b, rules) is not None
        board = board.without(a, b)


@settings(derandomize=True, deadline=None, max_examples=200)
@given(
    width=st.integers(1, 9),
    height=st.integers(1, 7),
    cells=st.data(),
    max_turns=st.integers(0, 3),
    outside=st.booleans(),
    seed=st.integers(0, 2**32),
)
def test_orders_are_complete_and_legal(
    width: int, height: int, cells: st.DataObject, max_turns: int, outside: bool, seed: int
) -> None:
    values = cells.draw(
        st.lists(
            st.sampled_from([1, 1, 1, EMPTY, WALL]),
            min_size=width * height,
            max_size=width * height,
        )
    )
    template = Board(width, height, tuple(values))
    rules = Rules(max_turns=max_turns, outside=outside)
    order = random_removal_order(template, rules, random.Random(seed), max_attempts=20)
    if template.tile_count() % 2:
        assert order is None
    if order is not None:
        check_order(template, rules, order)


def test_full_board_orders() -> None:
    template = Board(12, 8, (1,) * 96)
    for max_turns in (1, 2, 3):
        for outside in (True, False):
            rules = Rules(max_turns=max_turns, outside=outside)
            order = random_removal_order(template, rules, random.Random(max_turns))
            assert order is not None
            check_order(template, rules, order)


def test_seeded() -> None:
    template = Board(8, 6, (1,) * 48)
    first = random_removal_order(template, Rules(), random.Random(5))
    assert first == random_removal_order(template, Rules(), random.Random(5))
    assert first != random_removal_order(template, Rules(), random.Random(6))


def test_odd_slot_count() -> None:
    assert random_removal_order(Board(3, 1, (1, 1, 1)), Rules(), random.Random(0)) is None


def test_dead_ends_only() -> None:
    template = Board.from_rows(["11#1#1"])
    rules = Rules(max_turns=0, outside=False)
    assert random_removal_order(template, rules, random.Random(0), max_attempts=5) is None


def expected_first_moves(template: Board, rules: Rules) -> dict[tuple[Pos, Pos], float]:
    """The first-move probabilities the docstring promises, from the slow reference: a tile
    uniform among those linking beyond their neighbours, a partner uniform among those links;
    else a tile uniform among those with a neighbour, a partner uniform among its neighbours."""
    tiles = template.tiles()
    far: dict[Pos, list[Pos]] = {}
    near: dict[Pos, list[Pos]] = {}
    for a in tiles:
        links = [b for b in reference_all(template, a, rules) if b != a]
        far[a] = [b for b in links if abs(a.x - b.x) + abs(a.y - b.y) > 1]
        near[a] = [b for b in links if abs(a.x - b.x) + abs(a.y - b.y) == 1]
    pool = {a: bs for a, bs in far.items() if bs} or {a: bs for a, bs in near.items() if bs}
    return {(a, b): 1 / len(pool) / len(bs) for a, bs in pool.items() for b in bs}


@pytest.mark.parametrize(
    ("width", "height", "rules"),
    [(4, 3, Rules(max_turns=1, outside=False)), (5, 4, Rules(max_turns=2, outside=True))],
)
def test_first_move_distribution(width: int, height: int, rules: Rules) -> None:
    """Over many seeds the first move follows the promised distribution (chi-square at the
    0.999 quantile; the seeds are fixed, so the test is deterministic)."""
    template = Board(width, height, (1,) * (width * height))
    expected = expected_first_moves(template, rules)
    runs = 4000
    counts: Counter[tuple[Pos, Pos]] = Counter()
    for seed in range(runs):
        order = random_removal_order(template, rules, random.Random(seed))
        assert order is not None
        counts[order[0]] += 1
    assert set(counts) <= set(expected)
    chi2 = sum((counts[k] - p * runs) ** 2 / (p * runs) for k, p in expected.items())
    dof = len(expected) - 1
    assert chi2 < dof + 4.5 * (2 * dof) ** 0.5  # about the 0.999 quantile for these dof


def test_pairs_are_mostly_not_neighbours() -> None:
    """With the ring on a full board, few pairs are neighbours (the point of the preference)."""
    template = Board(12, 8, (1,) * 96)
    neighbours = 0
    for seed in range(10):
        order = random_removal_order(template, Rules(), random.Random(seed))
        assert order is not None
        neighbours += sum(abs(a.x - b.x) + abs(a.y - b.y) == 1 for a, b in order)
    assert neighbours < 10 * 48 // 4


def test_a_dead_end_rewinds_to_a_checkpoint_instead_of_starting_over(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """On a full 24x24 board with no turns most single playouts meet a dead end; rewinding to
    the last checkpoint rescues some of them, and what comes out is still a removal order."""
    import levelgen.playout as playout

    template = Board.from_rows(["1" * 24] * 24)
    rules = Rules(0, True)

    def single(seed: int) -> list[tuple[Pos, Pos]] | None:
        return random_removal_order(template, rules, random.Random(seed), max_attempts=1)

    rescued = [s for s in range(12) if single(s) is not None]
    monkeypatch.setattr(playout, "MAX_REWINDS", 0)
    plain = [s for s in range(12) if single(s) is not None]
    assert set(plain) < set(rescued)
    monkeypatch.undo()
    seed = min(set(rescued) - set(plain))
    order = single(seed)
    assert order is not None
    check_order(template, rules, order)
