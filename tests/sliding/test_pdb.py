"""Pattern databases: the ranking of placements, the tables against an independent 0-1
breadth-first search over (placement, blank cell), their values against true distances, and the
split of each kind of board."""

from __future__ import annotations

import random
from collections import deque

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from levelgen.sliding import bfs, pdb
from levelgen.sliding.encoding import encode_puzzle
from levelgen.sliding.rules import Frame

from .strategies import labels_for


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(4, 16))
def test_rank_and_unrank_are_inverse_and_dense(seed: int, cells: int) -> None:
    rng = random.Random(seed)
    k = rng.randint(1, min(4, cells - 1))
    counts = [rng.randint(1, 3) for _ in range(k)]
    while sum(counts) >= cells:
        counts[counts.index(max(counts))] -= 1
        counts = [c for c in counts if c]
    pattern = pdb.make_pattern(list(range(1, len(counts) + 1)), counts, cells)
    for _ in range(30):
        index = rng.randrange(pattern.entries)
        masks = pdb.unrank(pattern, index)
        assert [m.bit_count() for m in masks] == counts
        assert sum(masks) == _or(masks)  # no cell twice
        assert pdb.rank(pattern, masks) == index


def _or(masks: list[int]) -> int:
    out = 0
    for m in masks:
        out |= m
    return out


def _reference_table(width: int, height: int, goal: bytes, pattern: pdb.Pattern) -> list[int]:
    """Per placement index: the fewest moves of pattern tiles from it to the goal placement,
    by a 0-1 breadth-first search over (placement, blank cell) from the goal."""
    n = width * height
    neighbours = pdb.neighbour_masks(width, height)
    masks = tuple(sum(1 << i for i, c in enumerate(goal) if c == cls) for cls in pattern.classes)
    start = (masks, goal.index(0))
    dist = {start: 0}
    queue = deque([start])
    while queue:
        state = queue.popleft()
        placement, blank = state
        here = dist[state]
        for cell in range(n):
            if not (neighbours[blank] >> cell) & 1:
                continue
            moved = list(placement)
            cost = 0
            for j, m in enumerate(placement):
                if (m >> cell) & 1:
                    moved[j] = m ^ (1 << cell) ^ (1 << blank)
                    cost = 1
            nxt = (tuple(moved), cell)
            if nxt not in dist or dist[nxt] > here + cost:
                dist[nxt] = here + cost
                if cost:
                    queue.append(nxt)
                else:
                    queue.appendleft(nxt)
    table = [255] * pattern.entries
    for (placement, _), d in dist.items():
        index = pdb.rank(pattern, list(placement))
        table[index] = min(table[index], d)
    return table


CASES = [
    (2, 3, None, 2),
    (3, 2, None, 3),
    (3, 3, None, 3),
    (2, 4, 2, 1),
    (3, 3, 2, 1),
    (3, 3, 3, 2),
    (4, 3, 3, 1),
]


@pytest.mark.parametrize(("width", "height", "colors", "per_pattern"), CASES)
def test_tables_equal_the_reference(
    width: int, height: int, colors: int | None, per_pattern: int
) -> None:
    rng = random.Random(width * 31 + height)
    cells = labels_for(width * height, colors)
    rng.shuffle(cells)
    goal = Frame(width, height, tuple(cells))
    enc = encode_puzzle(goal)
    classes = list(range(1, enc.classes + 1))
    for first in range(0, len(classes), per_pattern):
        group = classes[first : first + per_pattern]
        pattern = pdb.make_pattern(group, [enc.counts[c] for c in group], width * height)
        built = pdb.build_table(width, height, enc.goal, pattern)
        assert list(built) == _reference_table(width, height, enc.goal, pattern)


def test_table_values_never_pass_the_true_distance() -> None:
    goal = Frame(3, 3, (1, 2, 3, 4, 5, 6, 7, 8, 0))
    enc = encode_puzzle(goal)
    patterns, crossing = pdb.choose_patterns(enc, 3000)
    assert crossing == []
    tables = [pdb.build_table(3, 3, enc.goal, p) for p in patterns]
    dist = bfs.distances_from(bytes(goal.cells), 3, 3)
    for frame, d in list(dist.items())[::37]:
        cells = enc.encode(Frame(3, 3, tuple(frame)))
        masks = [0] * 9
        for i, c in enumerate(cells):
            masks[c] |= 1 << i
        total = sum(
            t[pdb.rank(p, [masks[c] for c in p.classes])]
            for p, t in zip(patterns, tables, strict=True)
        )
        assert total <= d


def test_the_four_by_four_split_is_korf_and_felners() -> None:
    for blank, expected in [
        (0, [[1, 4, 5, 8, 9, 12], [2, 3, 6, 7, 10, 11], [13, 14, 15]]),
        (15, [[3, 6, 7, 10, 11, 14], [4, 5, 8, 9, 12, 13], [0, 1, 2]]),
        (5, [[0, 1, 4, 8, 9, 12], [2, 3, 6, 7, 10, 11], [13, 14, 15]]),
    ]:
        cells = list(range(1, 16))
        cells.insert(blank, 0)
        enc = encode_puzzle(Frame(4, 4, tuple(cells)))
        patterns, crossing = pdb.choose_patterns(enc, pdb.SIX_OF_SIXTEEN)
        assert crossing == []
        groups = [sorted(enc.goal.index(c) for c in p.classes) for p in patterns]
        assert groups == expected
        assert [p.entries for p in patterns] == [5_765_760, 5_765_760, 3_360]
    small, _ = pdb.choose_patterns(enc, 1_000_000)
    assert [p.entries for p in small] == [524_160, 524_160, 524_160]


def test_colour_classes_too_large_go_to_crossing_counts() -> None:
    goal = Frame(8, 8, tuple([0] + [1 + i % 2 for i in range(63)]))
    enc = encode_puzzle(goal)
    patterns, crossing = pdb.choose_patterns(enc, 20_000)
    assert patterns == [] and crossing == [1, 2]
    small = Frame(4, 4, tuple([0] + [1 + i % 5 for i in range(15)]))
    patterns, crossing = pdb.choose_patterns(encode_puzzle(small), 20_000)
    assert crossing == [] and all(p.entries <= 20_000 for p in patterns)


def test_the_five_by_five_split_is_korf_and_felners() -> None:
    """Korf and Felner's 6-6-6-6 split of the 24-puzzle (blank top left), and carried to the
    blank in the last cell by the half turn; the tables are not built here."""
    for blank, expected in [
        (
            0,
            [
                [1, 2, 5, 6, 7, 12],
                [3, 4, 8, 9, 13, 14],
                [10, 11, 15, 16, 20, 21],
                [17, 18, 19, 22, 23, 24],
            ],
        ),
        (
            24,
            [
                [12, 17, 18, 19, 22, 23],
                [10, 11, 15, 16, 20, 21],
                [3, 4, 8, 9, 13, 14],
                [0, 1, 2, 5, 6, 7],
            ],
        ),
    ]:
        cells = list(range(1, 25))
        cells.insert(blank, 0)
        enc = encode_puzzle(Frame(5, 5, tuple(cells)))
        patterns, crossing = pdb.choose_patterns(enc, pdb.SIX_OF_TWENTY_FIVE)
        assert crossing == []
        groups = [sorted(enc.goal.index(c) for c in p.classes) for p in patterns]
        assert sorted(groups) == sorted(expected)
        assert [p.entries for p in patterns] == [127_512_000] * 4
    small, _ = pdb.choose_patterns(enc, 1_000_000)
    assert max(p.entries for p in small) <= 1_000_000
