"""Symmetric levels (``create --symmetry``): the layout always symmetric, the kinds symmetric
where the counts guarantee it, every level replayed by the verifier; the kind sharing against an
exhaustive search; the refusals of layouts no symmetric order can clear."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from levelgen.formats.reports import wall_clock_budget
from levelgen.linkup.core.board import Board
from levelgen.linkup.core.geometry import Pos, Size
from levelgen.linkup.core.level import Level
from levelgen.linkup.core.rules import Rules
from levelgen.linkup.family import FAMILY, LinkupDocument
from levelgen.linkup.generate.generator import GenerationError, generate, parse_layout
from levelgen.linkup.generate.playout_symmetric import symmetric_removal_order
from levelgen.linkup.generate.symmetry import (
    _greedy,
    board_symmetry,
    cell_maps,
    is_symmetric,
    symmetric_kinds,
    symmetric_layout,
    symmetry_problem,
)

SIZES = [(12, 8), (11, 7), (10, 10), (9, 6), (14, 9), (6, 4), (5, 5), (18, 10)]


def verdict(level: Level) -> str:
    """The verifier's verdict on ``level`` (its solution replayed, its metrics checked)."""
    document = LinkupDocument(level)
    return FAMILY.verify(document, budget=wall_clock_budget(10), options={}).status


def image_moves_follow(level: Level, symmetry: str) -> bool:
    """Whether every move's images (under the symmetry's maps) are moves of the solution."""
    board = level.board
    maps = cell_maps(board.width, board.height, symmetry)
    moves = {frozenset((m.a, m.b)) for m in level.solution or ()}
    return all(
        frozenset((Pos(*g(*m.a)), Pos(*g(*m.b)))) in moves
        for m in level.solution or ()
        for g in maps
    )


@pytest.mark.parametrize("symmetry", ["mirror", "rotate", "both"])
@pytest.mark.parametrize(("width", "height"), SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_symmetric_levels_verify_with_a_symmetric_layout(
    symmetry: str, width: int, height: int
) -> None:
    for seed in range(4):
        level = generate(Size(width, height), seed=seed, symmetry=symmetry)
        board = level.board
        assert is_symmetric(board, symmetry), (symmetry, width, height, seed)
        assert verdict(level) == "ok"
        assert level.generator is not None
        params = level.generator.parameters
        assert params["symmetry"] == symmetry
        assert params["kinds_symmetry"] == board_symmetry(board)
        assert params["layout"] is None  # drawn from the seed: made again by it
        tiles = board.tile_count()
        if tiles % 4 == 0:  # 4 copies of each kind: the kinds are guaranteed symmetric
            guaranteed = "mirror" if symmetry == "both" else symmetry
            assert is_symmetric(board, guaranteed, kinds=True), (symmetry, width, height, seed)
        assert image_moves_follow(level, symmetry)


@pytest.mark.parametrize("symmetry", ["mirror", "rotate", "both"])
def test_eight_copies_give_fully_symmetric_kinds(symmetry: str) -> None:
    for seed in range(5):
        level = generate(Size(12, 8), seed=seed, symmetry=symmetry, copies=8)
        assert level.board.tile_count() % 8 == 0
        assert is_symmetric(level.board, symmetry, kinds=True)
        assert verdict(level) == "ok"


def test_the_same_seed_gives_the_same_symmetric_level() -> None:
    one = generate(Size(12, 8), seed=9, symmetry="rotate")
    two = generate(Size(12, 8), seed=9, symmetry="rotate")
    assert one == two
    assert one.board != generate(Size(12, 8), seed=10, symmetry="rotate").board


def test_plain_generation_is_not_symmetric_by_accident() -> None:
    """The property the tests above check fails without ``symmetry`` (so it can fail)."""
    level = generate(Size(12, 8), seed=0)
    assert not is_symmetric(level.board, "mirror", kinds=True)


@pytest.mark.parametrize(
    ("rules", "layout"),
    [
        (Rules(1, True), "oooooooo\noooooooo\noo....oo\noooooooo\n"),
        (Rules(2, False), "oooooooo\noooooooo\noooooooo\noooooooo\n"),
        (Rules(3, True), "o#oooo#o\noooooooo\noooooooo\no#oooo#o\n"),
        (Rules(2, True), "ooooooo\nooo.ooo\nooooooo\nooo.ooo\n"),
    ],
)
def test_given_layouts_and_rules(rules: Rules, layout: str) -> None:
    template = parse_layout(layout)
    for seed in range(3):
        level = generate(template.size, seed=seed, rules=rules, layout=template, symmetry="mirror")
        assert is_symmetric(level.board, "mirror")
        assert verdict(level) == "ok"


def test_symmetric_orders_remove_orbits() -> None:
    template = parse_layout("oooooo\noooooo\noooooo\noooooo\n")
    order = symmetric_removal_order(template, Rules(), "both", random.Random(3))
    assert order is not None
    maps = cell_maps(6, 4, "both")
    for step in order:
        first = step[0]
        images = {frozenset((g(*first[0]), g(*first[1]))) for g in maps}
        images.add(frozenset(first))
        assert {frozenset(p) for p in step} == images
        cells = [c for pair in step for c in pair]
        assert len(cells) == len(set(cells))


# ----- refusals --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("layout", "symmetry", "words"),
    [
        ("oo.\nooo\n", "mirror", "not mirror-symmetric"),
        ("ooo\no.o\nooo\n", "rotate", None),
        ("ooo\nooo\nooo\n", "rotate", "centre cell [1, 1]"),
        ("ooo\nooo\nooo\n", "both", "centre cell"),
        ("ooo\no.o\nooo\n", "mirror", None),
        ("o.o\nooo\nooo\n", "mirror", None),
        ("o.o\nooo\n", "mirror", "middle column (x = 1) holds 1 tiles"),
        ("ooo\nooo\nooo\n", "mirror", "middle column (x = 1) holds 3"),
        ("o.o\no.o\no.o\n", "both", None),
        ("oo\n#o\n", "mirror", "cell [0, 1] is a wall but its image [1, 1] is a tile"),
    ],
)
def test_symmetry_problems(layout: str, symmetry: str, words: str | None) -> None:
    problem = symmetry_problem(parse_layout(layout), symmetry)
    if words is None:
        assert problem is None
    else:
        assert problem is not None and words in problem, problem


def test_an_odd_middle_column_is_refused_by_generate() -> None:
    template = parse_layout("ooooo\nooooo\nooooo\nooooo\n.....\n")  # no: 20 tiles, even column
    level = generate(template.size, seed=1, layout=template, symmetry="mirror")
    assert verdict(level) == "ok"
    odd = parse_layout("ooooo\nooooo\nooooo\nooooo\noo.oo\nooooo\n")
    with pytest.raises(GenerationError, match="middle column"):
        generate(odd.size, seed=1, layout=odd, symmetry="mirror")


# ----- symmetric layouts -----------------------------------------------------------------------


@pytest.mark.parametrize("symmetry", ["mirror", "rotate", "both"])
@pytest.mark.parametrize(("width", "height"), SIZES)
def test_drawn_layouts_are_symmetric_with_room_for_the_kinds(
    symmetry: str, width: int, height: int
) -> None:
    for seed in range(10):
        layout = symmetric_layout(width, height, symmetry, random.Random(seed), copies=4, least=8)
        assert is_symmetric(layout, symmetry)
        assert symmetry_problem(layout, symmetry) is None
        assert layout.tile_count() >= min(8, width * height - 1)
        assert layout.tile_count() % 4 == 0 or width * height <= 25
        tiles = layout.tile_count()
        again = symmetric_layout(
            width, height, symmetry, random.Random(seed), copies=4, least=tiles
        )
        assert again == layout  # asking for the kinds it gave makes the same layout


# ----- sharing the orbits among the kinds ------------------------------------------------------


def exhaustive(sizes: dict[int, int], demands: list[int]) -> bool:
    """Whether orbits of these sizes fill the demands exactly (every assignment tried)."""
    items = [s for s, n in sizes.items() for _ in range(n)]
    if sum(items) != sum(demands):
        return False
    for choice in itertools.product(range(len(demands)), repeat=len(items)):
        got = [0] * len(demands)
        for item, kind in zip(items, choice, strict=True):
            got[kind] += item
        if got == demands:
            return True
    return False


@settings(max_examples=150, deadline=None)
@given(
    st.dictionaries(st.sampled_from([1, 2, 4]), st.integers(0, 3)),
    st.lists(st.integers(1, 6), min_size=1, max_size=3),
)
def test_greedy_sharing_matches_an_exhaustive_search(
    sizes: dict[int, int], demands: list[int]
) -> None:
    sizes = {1: sizes.get(1, 0), 2: sizes.get(2, 0), 4: sizes.get(4, 0)}
    if sum(sizes.values()) > 7:
        return
    ordered = sorted(demands, reverse=True)
    assert (_greedy(sizes, ordered) is not None) == exhaustive(sizes, ordered)


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.sampled_from([1, 2, 4]), min_size=1, max_size=30),
    st.integers(1, 4),
    st.integers(0, 1000),
)
def test_symmetric_kinds_keep_the_counts(sizes: list[int], copies_half: int, seed: int) -> None:
    pairs = sum(sizes)
    kinds = max(1, pairs // copies_half)
    each, extra = divmod(pairs, kinds)
    counts = [2 * (each + 1)] * extra + [2 * each] * (kinds - extra)
    orbits, start = [], 0
    for size in sizes:
        orbits.append(list(range(start, start + size)))
        start += size
    dealt, whole = symmetric_kinds(orbits, counts, random.Random(seed))
    for kind, count in enumerate(counts, 1):
        assert 2 * dealt.count(kind) == count
    one_kind = all(len({dealt[p] for p in orbit}) == 1 for orbit in orbits)
    assert whole == one_kind
    if all(c % 8 == 0 for c in counts) or (
        all(c % 4 == 0 for c in counts) and 4 not in sizes and sizes.count(1) % 2 == 0
    ):
        assert whole


def test_board_symmetry_names_the_largest() -> None:
    assert board_symmetry(Board.from_rows(["1221", "3443"])) == "mirror"
    assert board_symmetry(Board.from_rows(["1234", "4321"])) == "rotate"
    assert board_symmetry(Board.from_rows(["1221", "1221"])) == "both"
    assert board_symmetry(Board.from_rows(["1212", "3434"])) == "none"
    assert board_symmetry(Board.from_rows(["1212", "3434"]), kinds=False) == "both"


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(["mirror", "rotate", "both"]),
    st.integers(2, 16),
    st.integers(2, 12),
    st.sampled_from([2, 4, 6, 8]),
    st.integers(0, 2**53 - 1),
)
def test_any_symmetric_level_verifies(
    symmetry: str, width: int, height: int, copies: int, seed: int
) -> None:
    """Random sizes, copies and seeds: the layout symmetric, the kinds as the parameters say
    (symmetric when every kind has a multiple of 4 tiles, 8 under both), the level verified."""
    try:
        level = generate(Size(width, height), seed=seed, symmetry=symmetry, copies=copies)
    except GenerationError as exc:
        assert width * height < 3 * copies or "removal order" in str(exc), exc
        return
    board = level.board
    assert is_symmetric(board, symmetry)
    assert verdict(level) == "ok"
    assert level.generator is not None
    assert level.generator.parameters["kinds_symmetry"] == board_symmetry(board)
    counts = board.kind_counts().values()
    if all(c % (8 if symmetry == "both" else 4) == 0 for c in counts):
        assert is_symmetric(board, symmetry, kinds=True)
