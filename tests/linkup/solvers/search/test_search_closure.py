"""Safe moves of the search solver: ``clear_group`` against a brute force over removal orders."""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import partial

from hypothesis import given, settings
from hypothesis import strategies as st

from levelgen.linkup.core.board import Board, iter_bits
from levelgen.linkup.core.reach import linkable_mask
from levelgen.linkup.core.rules import Rules
from levelgen.linkup.solvers.search.closure import EXACT_CLEAR_LIMIT, clear_group
from tests.linkup.solvers.search.test_search import hard_rules_st


@st.composite
def crowded_kinds(draw: st.DrawFn) -> Board:
    """Boards 3x2 .. 6x4 holding kinds of 2 to 8 tiles (mostly 6 and 8), a few holes or walls:
    big groups, where the order of the moves inside a group matters."""
    width = draw(st.integers(3, 6))
    height = draw(st.integers(2, 4))
    n = width * height
    cells: list[int] = []
    while True:
        c = draw(st.sampled_from([8, 6, 6, 4, 2]))
        if len(cells) + c > n - draw(st.integers(0, 3)):
            break
        cells += [len(cells) + 1] * c
    cells += [draw(st.sampled_from([0, 0, -1]))] * (n - len(cells))
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    rng.shuffle(cells)
    return Board(width, height, tuple(cells))


def _link(k: int, stride: int, t: int, free: int, targets: int) -> int:
    return linkable_mask(1 << t, free, targets, k, stride)


def _clearable(
    rest: int, free: int, forbid: dict[int, int], link: Callable[[int, int, int], int]
) -> bool:
    """Whether some order of moves inside ``rest`` (no forbidden pair) removes all of it."""
    return not rest or any(
        _clearable(rest & ~(1 << a | 1 << b), free | 1 << a | 1 << b, forbid, link)
        for a in iter_bits(rest)
        for b in iter_bits(link(a, free, rest & ~forbid[a] & ~(1 << a)))
    )


@settings(derandomize=True, deadline=None, max_examples=400)
@given(
    board=crowded_kinds(),
    rules=hard_rules_st,
    seed=st.integers(0, 2**32 - 1),
    rate=st.sampled_from([0.0, 0.2, 0.4]),
)
def test_clear_group_finds_a_valid_sequence_exactly_when_one_exists(
    board: Board, rules: Rules, seed: int, rate: float
) -> None:
    """For each kind (up to the exact limit), with some pairs forbidden at random: a sequence is
    returned exactly when some order of moves inside the group removes all of it now, and the
    sequence returned is such an order."""
    link = partial(_link, rules.max_turns, board.layout.stride)
    rng = random.Random(seed)
    free0 = board.free_mask(rules.outside)
    for mask in board.kind_masks().values():
        if mask.bit_count() > EXACT_CLEAR_LIMIT:
            continue
        tiles = list(iter_bits(mask))
        forbid = dict.fromkeys(tiles, 0)
        for a in tiles:
            for b in tiles:
                if a < b and rng.random() < rate:
                    forbid[a] |= 1 << b
                    forbid[b] |= 1 << a
        links = {t: link(t, free0, mask & ~(1 << t)) for t in tiles}
        seq = clear_group(mask, free0, links, forbid, link)
        assert (seq is not None) == _clearable(mask, free0, forbid, link)
        if seq is not None:
            free, left = free0, mask
            for a, b in seq:
                assert left >> a & 1 and left >> b & 1 and not forbid[a] >> b & 1
                assert link(a, free, 1 << b)
                free |= 1 << a | 1 << b
                left &= ~(1 << a | 1 << b)
            assert not left


def test_a_group_whose_middle_tile_has_no_allowed_higher_mate_is_still_cleared() -> None:
    """Six tiles of kind 3, three pairs forbidden: (1, 1) may pair with no tile after it, yet
    (2, 1) and the tiles after it can still go first; a search that stopped at (1, 1) would
    miss every sequence (found by the random test above only about once in 2,000 boards)."""
    board = Board.from_rows([".1.3.1", "33333."])
    lay = board.layout
    link = partial(_link, 1, lay.stride)
    mask = board.kind_masks()[3]
    forbid = dict.fromkeys(iter_bits(mask), 0)
    for a, b in (((0, 1), (1, 1)), ((0, 1), (4, 1)), ((1, 1), (2, 1))):
        forbid[lay.bit(*a)] |= 1 << lay.bit(*b)
        forbid[lay.bit(*b)] |= 1 << lay.bit(*a)
    free = board.free_mask(False)
    links = {t: link(t, free, mask & ~(1 << t)) for t in iter_bits(mask)}
    assert _clearable(mask, free, forbid, link)
    assert clear_group(mask, free, links, forbid, link) is not None
