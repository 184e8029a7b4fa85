"""Positions-only random removal orders: complete, legal at every step, seeded, and uniform in
the choice of the first move."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from levelgen.linkup.core.board import EMPTY, WALL, Board, iter_bits
from levelgen.linkup.core.geometry import Pos
from levelgen.linkup.core.reach import linkable_mask
from levelgen.linkup.core.reference import reference_all, reference_best
from levelgen.linkup.core.rules import Rules
from levelgen.linkup.generate.playout import random_removal_order
from levelgen.linkup.generate.playout_guard import StrandGuard


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


# ----- the stranding guard and rewinds -------------------------------------------------------


@settings(derandomize=True, deadline=None, max_examples=60)
@given(
    width=st.integers(2, 9),
    height=st.integers(1, 7),
    walls=st.sets(st.integers(0, 62), max_size=12),
    seed=st.integers(0, 2**32),
)
def test_guard_counts_follow_removals_and_undos(
    width: int, height: int, walls: set[int], seed: int
) -> None:
    """The bit-sliced counts always equal |reach[t] & occ|, through removals and undos; the
    forced tiles are those with one possible partner; ``strands`` agrees with a recount."""
    cells = [WALL if i in walls else 1 for i in range(width * height)]
    template = Board(width, height, tuple(cells))
    lay = template.layout
    occ = template.occupied_mask()
    guard = StrandGuard(
        {
            t: linkable_mask(1 << t, template.free_mask(True) | occ, occ ^ (1 << t), 0, lay.stride)
            for t in iter_bits(occ)
        },
        occ,
    )

    def count(t: int) -> int:
        return sum((p >> t & 1) << i for i, p in enumerate(guard.planes))

    rng = random.Random(seed)
    removed: list[tuple[int, int, int]] = []
    for _ in range(12):
        tiles = list(iter_bits(occ))
        if len(tiles) >= 2 and (not removed or rng.random() < 0.7):
            a, b = rng.sample(tiles, 2)
            stranded = any(
                not guard.reach[t] & (occ & ~(1 << a) & ~(1 << b))
                for t in iter_bits(occ & ~(1 << a) & ~(1 << b))
                if guard.reach[t] & (occ & ((1 << a) | (1 << b)))
            )
            if stranded:
                assert guard.strands(a, b, occ)
            occ &= ~((1 << a) | (1 << b))
            guard.removed(a, b, occ)
            removed.append((a, b, occ))
        elif removed:
            a, b, after = removed.pop()
            guard.restored(a, b, after)
            occ = after | (1 << a) | (1 << b)
        for t in iter_bits(occ):
            assert count(t) == (guard.reach[t] & occ).bit_count()
            assert bool(guard.single >> t & 1) == ((guard.reach[t] & occ).bit_count() == 1)


@pytest.mark.parametrize("outside", [True, False])
def test_64x64_without_turns_completes(outside: bool) -> None:
    """The case that needed up to 200 restarts (and failed) before the guard and rewinds."""
    template = Board(64, 64, (1,) * 4096)
    seen: list[tuple[str, int, int]] = []
    order = random_removal_order(
        template,
        Rules(max_turns=0, outside=outside),
        random.Random(5),
        max_attempts=200,
        progress=lambda *report: seen.append(report),
    )
    assert order is not None and len(order) == 2048
    occupied = set(template.tiles())
    for a, b in order:  # each pair in one row or column with nothing between (0 turns)
        assert a in occupied and b in occupied
        if a.x == b.x:
            between = {Pos(a.x, y) for y in range(min(a.y, b.y) + 1, max(a.y, b.y))}
        else:
            assert a.y == b.y
            between = {Pos(x, a.y) for x in range(min(a.x, b.x) + 1, max(a.x, b.x))}
        assert not between & occupied
        occupied -= {a, b}
    assert not occupied
    assert seen[-1] == ("removal order", 2048, 2048)
    assert all(stage == "removal order" and 0 < done <= 2048 for stage, done, _ in seen)
