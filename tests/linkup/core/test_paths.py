"""Exact best paths and fast reachability, cross-checked against the slow reference."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from levelgen.linkup.core.board import Board, iter_bits
from levelgen.linkup.core.geometry import Pos
from levelgen.linkup.core.moves import Move, legal_pairs
from levelgen.linkup.core.paths import (
    Path,
    _column_unit,
    _direct,
    _remembered_corners,
    find_link,
    find_path,
    is_linkable,
    linkable_positions,
    path_from_corners,
    path_problem,
)
from levelgen.linkup.core.reach import (
    link_hits,
    link_reach,
    linkable_mask,
    reachable_empty_mask,
    toward_masks,
)
from levelgen.linkup.core.reference import reference_all, reference_best
from levelgen.linkup.core.rules import Rules
from levelgen.linkup.verify import replay
from tests.strategies import boards, rules_st

PROPERTY = settings(
    derandomize=True,
    deadline=None,
    max_examples=300,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def _corners(path: Path | None) -> list[tuple[int, int]] | None:
    return None if path is None else [tuple(p) for p in path.corners]


@PROPERTY
@given(board=boards(), rules=rules_st, pick=st.randoms(use_true_random=False))
def test_fast_exact_and_reference_agree(board: Board, rules: Rules, pick: object) -> None:
    """From one tile: the bitboard linkable set, the exact path's (turns, length) and the
    Dijkstra reference agree for every other tile, kinds ignored; every path found is legal."""
    tiles = board.tiles()
    if len(tiles) < 2:
        return
    a = tiles[pick.randrange(len(tiles))]  # type: ignore[attr-defined]
    lay = board.layout
    free = board.free_mask(rules.outside)
    ref = reference_all(board, a, rules)
    fast = linkable_positions(board, a, rules, same_kind=False)
    assert sorted(fast) == sorted(ref)
    for b in tiles:
        if b == a:
            continue
        path = find_link(lay, free, a, b, rules)
        got = None if path is None else (path.turns, path.length)
        assert got == ref.get(b), (a, b)
        if path is not None:
            # The path is legal once both ends hold one kind (positions-only query).
            same = board.with_cells([(a, 1), (b, 1)])
            assert path_problem(same, path, rules) is None
            assert path.corners[0] == a and path.corners[-1] == b


@PROPERTY
@given(board=boards(max_kinds=3), rules=rules_st)
def test_same_kind_queries_match_reference(board: Board, rules: Rules) -> None:
    """find_path / is_linkable / same-kind linkable sets agree with the reference."""
    tiles = board.tiles()
    for a in tiles[:6]:
        ref = reference_all(board, a, rules)
        want = sorted(b for b in ref if board[b] == board[a])
        assert sorted(linkable_positions(board, a, rules)) == want
        for b in tiles:
            expect = ref.get(b) if (b != a and board[b] == board[a]) else None
            path = find_path(board, a, b, rules)
            assert (None if path is None else (path.turns, path.length)) == expect
            assert is_linkable(board, a, b, rules) == (expect is not None)


@settings(PROPERTY, max_examples=150)
@given(
    board=boards(max_width=10, max_height=6),
    rules=rules_st,
    pick=st.randoms(use_true_random=False),
)
def test_freeing_a_tile_outside_the_frontier_changes_no_link(
    board: Board, rules: Rules, pick: object
) -> None:
    """The search's relaxation tests a tile again only when a cell of its frontier got free:
    removing any other tile leaves every link of the tile as the reference finds it."""
    assert hasattr(pick, "choice") and hasattr(pick, "sample")
    tiles = board.tiles()
    if len(tiles) < 2:
        return
    a = pick.choice(tiles)
    lay = board.layout
    free = board.free_mask(rules.outside)
    hits, _, frontier = link_reach(
        1 << lay.bit(*a), free, board.occupied_mask(), rules.max_turns, lay.stride
    )
    before = set(reference_all(board, a, rules))
    assert set(lay.positions(hits)) == before
    outside = [c for c in tiles if c != a and not frontier >> lay.bit(*c) & 1]
    for c in pick.sample(outside, min(6, len(outside))):
        assert set(reference_all(board.without(c), a, rules)) == before - {c}, (str(board), a, c)


#: Small boards with a few kinds, and a seeded random picker: the ``link_reach`` option tests.
SMALL_KINDED = given(
    board=boards(max_width=10, max_height=6, max_kinds=6),
    rules=rules_st,
    pick=st.randoms(use_true_random=False),
)


@settings(PROPERTY, max_examples=200)
@SMALL_KINDED
def test_freeing_tiles_outside_the_narrowed_frontier_changes_no_link_to_the_kind(
    board: Board, rules: Rules, pick: object
) -> None:
    """From each tile, with the ``toward`` masks of its kind: ``link_reach`` finds the same hits
    and reach and a frontier no larger; removing tiles outside that frontier (every one not of
    the kind, then a random few of any kind) leaves the tile's links to tiles of its kind as
    the reference finds them."""
    assert hasattr(pick, "sample")
    tiles = board.tiles()
    lay = board.layout
    free = board.free_mask(rules.outside)
    for a in tiles[:30]:
        mates = {p for p in tiles if board[p] == board[a]}
        kind = sum(1 << lay.bit(*p) for p in mates)
        toward = toward_masks(kind, lay.stride, (board.height + 2) * lay.stride)
        src = 1 << lay.bit(*a)
        hits, reach, frontier = link_reach(src, free, kind, rules.max_turns, lay.stride, toward)
        plain = link_reach(src, free, kind, rules.max_turns, lay.stride)
        assert (hits, reach) == plain[:2] and not frontier & ~plain[2]
        before = {p for p in reference_all(board, a, rules) if p in mates}
        assert set(lay.positions(hits)) == before
        outside = [c for c in tiles if c != a and not frontier >> lay.bit(*c) & 1]
        others = [c for c in outside if c not in mates]
        for gone in (others, pick.sample(outside, min(4, len(outside)))):
            after = {p for p in reference_all(board.without(*gone), a, rules) if p in mates}
            assert after == before - set(gone), (str(board), a, gone)


@settings(PROPERTY, max_examples=200)
@SMALL_KINDED
def test_stopping_at_the_first_hit_answers_for_the_fewest_turns(
    board: Board, rules: Rules, pick: object
) -> None:
    """With ``stop`` (some tiles of the kind), ``link_reach`` answers as with ``max_turns`` set
    to the fewest turns that hit a cell of ``stop``: the same hits and reach, so its hits are
    real links whose paths lie in that reach (the links hold with only the reach free).
    Without a hit in ``stop`` the answer is the one without ``stop``."""
    assert hasattr(pick, "random")
    tiles = board.tiles()
    lay = board.layout
    free = board.free_mask(rules.outside)
    k, s = rules.max_turns, lay.stride
    for a in tiles[:30]:
        src = 1 << lay.bit(*a)
        mates = [lay.bit(*p) for p in tiles if board[p] == board[a] and p != a]
        kind = sum(1 << b for b in mates)
        stop = sum(1 << b for b in mates if pick.random() < 0.6) or kind
        toward = toward_masks(kind, s, (board.height + 2) * s)
        got = link_reach(src, free, kind, k, s, toward, stop)
        full = link_reach(src, free, kind, k, s, toward)
        if not full[0] & stop:
            assert got == full
            continue
        fewest = next(j for j in range(k + 1) if linkable_mask(src, free, stop, j, s))
        assert got[:2] == link_reach(src, free, kind, fewest, s)[:2]
        assert got[0] & stop
        assert linkable_mask(src, got[1], kind, k, s) & got[0] == got[0]


def test_toward_masks_mark_the_cells_with_the_set_straight_ahead() -> None:
    lay = Board.from_rows([".....", "..1..", "....."]).layout
    right, left, down, up = toward_masks(1 << lay.bit(2, 1), lay.stride, 5 * lay.stride)
    row = {(x, 1) for x in range(-1, 6)}
    col = {(2, y) for y in range(-1, 4)}

    def cells(mask: int) -> set[tuple[int, int]]:
        return {(p.x, p.y) for p in lay.positions(mask)}

    assert cells(right) == {c for c in row if c[0] <= 2}
    assert cells(left) == {c for c in row if c[0] >= 2}
    assert cells(down) == {c for c in col if c[1] <= 1}
    assert cells(up) == {c for c in col if c[1] >= 1}


@PROPERTY
@given(board=boards(max_width=12, max_height=8), rules=rules_st)
def test_reachable_empty_cells_match_reference(board: Board, rules: Rules) -> None:
    """The empty cells reachable from a tile are exactly those the reference reaches."""
    tiles = board.tiles()
    if not tiles:
        return
    a = tiles[0]
    lay = board.layout
    got = set(
        lay.positions(
            reachable_empty_mask(
                1 << lay.bit(*a), board.free_mask(rules.outside), rules.max_turns, lay.stride
            )
        )
    )
    expected = set()
    for y in range(-1, board.height + 1):
        for x in range(-1, board.width + 1):
            p = Pos(x, y)
            inside = board.is_inside(p)
            if (inside and board[p] == 0) or (not inside and rules.outside):
                # p is reachable when a tile placed there would be linkable from a.
                probe = board.with_cells([(p, 99)]) if inside else None
                if probe is not None and reference_best(probe, a, p, rules) is not None:
                    expected.add(p)
    inside_got = {p for p in got if board.is_inside(p)}
    assert inside_got == expected


def test_best_path_is_deterministic_and_lexicographically_smallest() -> None:
    # An empty 5x4 board with tiles in opposite corners: many 2-turn paths of length 7 tie.
    board = Board.from_rows(["1....", ".....", ".....", "....1"])
    path = find_path(board, Pos(0, 0), Pos(4, 3), Rules())
    assert path is not None and path.turns == 1 and path.length == 7
    # Two 1-turn paths tie; the one whose second corner is smaller as (x, y) wins: (0, 3).
    assert _corners(path) == [(0, 0), (0, 3), (4, 3)]
    assert find_path(board, Pos(0, 0), Pos(4, 3), Rules()) == path


# ----- named tricky cases (all boards non-square) ------------------------------------------


def _rotate(rows: list[str]) -> list[str]:
    """Rotate a text board a quarter turn clockwise."""
    return ["".join(row[x] for row in reversed(rows)) for x in range(len(rows[0]))]


def _find_kind(board: Board, kind: int) -> list[Pos]:
    return [p for p in board.tiles() if board[p] == kind]


def test_ring_path_on_each_side() -> None:
    rows = ["1221", "3443", "5665"]  # 1s on top corners, blocked inside: only the top ring links
    for side in range(4):
        board = Board.from_rows(rows)
        a, b = _find_kind(board, 1)
        path = find_path(board, a, b, Rules())
        assert path is not None, side
        assert (path.turns, path.length) == (2, 5)
        assert any(not board.is_inside(p) for p in path.corners)
        assert find_path(board, a, b, Rules(outside=False)) is None
        rows = _rotate(rows)


def test_adjacent_tiles_have_no_interior() -> None:
    board = Board.from_rows(["11.", "2#2"])
    path = find_path(board, Pos(0, 0), Pos(1, 0), Rules(max_turns=0, outside=False))
    assert path is not None
    assert (path.turns, path.length, _corners(path)) == (0, 1, [(0, 0), (1, 0)])


def test_blocked_straight_line() -> None:
    board = Board.from_rows(["121", "3.3"])
    assert find_path(board, Pos(0, 0), Pos(2, 0), Rules(outside=False)) is None
    via_ring = find_path(board, Pos(0, 0), Pos(2, 0), Rules())
    assert via_ring is not None and (via_ring.turns, via_ring.length) == (2, 4)
    assert _corners(via_ring) == [(0, 0), (0, -1), (2, -1), (2, 0)]
    # max_turns 0: only the straight line, which is blocked.
    assert find_path(board, Pos(0, 0), Pos(2, 0), Rules(max_turns=0)) is None
    # The 3s link under the 2 with 2 turns only when the middle cell is free below: it is.
    under = find_path(board, Pos(0, 1), Pos(2, 1), Rules(max_turns=0, outside=False))
    assert under is not None and under.length == 2


def test_fewest_turns_beats_shorter_path_with_more_turns() -> None:
    # A 3-turn path of 6 steps exists (over the top row), but the best path is the 2-turn
    # U through the ring below the board, 8 steps.
    board = Board.from_rows(["....2", "1.2.1", "..2.."])
    path = find_path(board, Pos(0, 1), Pos(4, 1), Rules(max_turns=3))
    assert path is not None and (path.turns, path.length) == (2, 8)
    assert reference_best(board, Pos(0, 1), Pos(4, 1), Rules(max_turns=3)) == (2, 8)
    legal_3 = path_from_corners([Pos(0, 1), Pos(0, 0), Pos(3, 0), Pos(3, 1), Pos(4, 1)])
    assert path_problem(board, legal_3, Rules(max_turns=3)) is None
    assert legal_3.length == 6


def test_the_verifier_replay_reuses_the_paths_a_solution_was_built_with() -> None:
    """Building a solution's paths and then replaying it asks the same questions in the same
    positions; the second asking is a look-up (the verifier's answer unchanged), also for a
    path of four turns, found by the walk."""
    board = Board.from_rows(["1#...", ".#.#.", "...#1"])
    rules = Rules(max_turns=8, outside=False)
    lay, free = board.layout, board.free_mask(rules.outside)
    a, b = lay.bit(0, 0), lay.bit(4, 2)
    assert _direct(free, a, b, 2, lay.stride, _column_unit(lay.stride, lay.height + 2)) is None
    _remembered_corners.cache_clear()
    path = find_link(lay, free, Pos(0, 0), Pos(4, 2), rules)
    assert path is not None and (path.turns, path.length) == (4, 10)
    assert replay(board, rules, [Move(Pos(0, 0), Pos(4, 2), 1, path)]) == []
    info = _remembered_corners.cache_info()
    assert (info.misses, info.hits) == (1, 1)


def test_equal_turn_arrivals_from_different_directions() -> None:
    # A per-cell minimum-turn BFS that forgets the arrival direction answers "no" here.
    board = Board.from_rows(["#.#.2#", "1..21."])
    path = find_path(board, Pos(0, 1), Pos(4, 1), Rules())
    assert path is not None
    assert (path.turns, path.length) == reference_best(board, Pos(0, 1), Pos(4, 1), Rules())


def test_same_cell_different_kinds_walls_and_non_tiles() -> None:
    board = Board.from_rows(["1.2#", ".1#2"])
    assert find_path(board, Pos(0, 0), Pos(0, 0), Rules()) is None
    assert find_path(board, Pos(0, 0), Pos(2, 0), Rules()) is None  # different kinds
    assert find_path(board, Pos(0, 0), Pos(1, 0), Rules()) is None  # empty cell
    assert find_path(board, Pos(3, 0), Pos(3, 0), Rules()) is None  # wall
    assert find_path(board, Pos(2, 0), Pos(3, 1), Rules()) is None  # walls fence the 2s in
    around = find_path(board, Pos(2, 0), Pos(3, 1), Rules(max_turns=3))  # round the walls
    assert around is not None and (around.turns, around.length) == (3, 6)
    assert reference_best(board, Pos(2, 0), Pos(3, 1), Rules(max_turns=3)) == (3, 6)
    path = find_path(board, Pos(0, 0), Pos(1, 1), Rules(max_turns=1, outside=False))
    assert path is not None and path.turns == 1


def test_max_turns_zero_and_one() -> None:
    board = Board.from_rows(["1.2", "..1", "2.."])
    a, b = Pos(0, 0), Pos(2, 1)
    assert find_path(board, a, b, Rules(max_turns=0)) is None
    one = find_path(board, a, b, Rules(max_turns=1, outside=False))
    assert one is not None and (one.turns, one.length) == (1, 3)
    assert _corners(one) == [(0, 0), (0, 1), (2, 1)]


def test_out_of_board_position_raises() -> None:
    board = Board.from_rows(["11", ".."])
    try:
        find_path(board, Pos(0, 0), Pos(5, 0), Rules())
    except IndexError as exc:
        assert "outside" in str(exc)
    else:  # pragma: no cover
        raise AssertionError("expected IndexError")


def test_linkable_mask_excludes_source_and_respects_targets() -> None:
    board = Board.from_rows(["1111", "...."])
    lay = board.layout
    src = 1 << lay.bit(1, 0)
    free = board.free_mask(True)
    hit = linkable_mask(src, free, board.occupied_mask(), 2, lay.stride)
    assert not hit & src
    assert set(lay.positions(hit)) == {Pos(0, 0), Pos(2, 0), Pos(3, 0)}
    only = 1 << lay.bit(3, 0)
    assert linkable_mask(src, free, only, 2, lay.stride) == only


def test_path_problem_reports_reasons() -> None:
    board = Board.from_rows(["1#1", "..."])
    bad = path_from_corners([Pos(0, 0), Pos(2, 0)])
    assert "wall" in (path_problem(board, bad, Rules()) or "")
    ring = path_from_corners([Pos(0, 0), Pos(0, -1), Pos(2, -1), Pos(2, 0)])
    assert path_problem(board, ring, Rules()) is None
    assert "outside" in (path_problem(board, ring, Rules(outside=False)) or "")
    assert "turns" in (path_problem(board, ring, Rules(max_turns=1)) or "")


def test_largest_boards_agree_with_reference() -> None:
    """64x64 (the size cap) and a 64x1 strip: bit layout and rays at full width."""
    import random

    from levelgen.linkup.bench.common import random_board

    rng = random.Random(64)
    for width, height, density in ((64, 64, 0.5), (64, 1, 0.4), (1, 64, 0.4)):
        board = random_board(rng, width, height, density, 0.05, 2)
        for rules in (Rules(), Rules(max_turns=1, outside=False)):
            tiles = board.tiles()
            for a in tiles[:: max(1, len(tiles) // 4)]:
                ref = reference_all(board, a, rules)
                assert sorted(linkable_positions(board, a, rules, same_kind=False)) == sorted(ref)
                for b in list(ref)[:5]:
                    path = find_link(board.layout, board.free_mask(rules.outside), a, b, rules)
                    assert path is not None and (path.turns, path.length) == ref[b]


@settings(PROPERTY, max_examples=200)
@SMALL_KINDED
def test_all_legal_pairs_match_reference(board: Board, rules: Rules, pick: object) -> None:
    """``legal_pairs`` (exposed tiles only, fills that end once every target is hit) gives
    exactly the same-kind pairs the reference links, in kind order then bit order; and
    ``link_hits`` equals ``linkable_mask`` for any target set."""
    assert hasattr(pick, "random")
    lay = board.layout
    free = board.free_mask(rules.outside)
    masks = board.kind_masks()
    got = legal_pairs(masks.values(), free, rules.max_turns, lay.stride)
    want = []
    for kind in masks:
        mates = sorted((p for p in board.tiles() if board[p] == kind), key=lambda p: lay.bit(*p))
        for i, a in enumerate(mates):
            ref = reference_all(board, a, rules)
            want.extend((lay.bit(*a), lay.bit(*b)) for b in mates[i + 1 :] if b in ref)
    assert got == want
    occ = board.occupied_mask()
    for a in board.tiles()[:10]:
        src = 1 << lay.bit(*a)
        targets = sum(1 << b for b in iter_bits(occ) if pick.random() < 0.5) & ~src
        assert link_hits(src, free, targets, rules.max_turns, lay.stride) == linkable_mask(
            src, free, targets, rules.max_turns, lay.stride
        )


@settings(PROPERTY, max_examples=150)
@given(board=boards(), rules=rules_st, pick=st.randoms(use_true_random=False))
def test_paths_of_up_to_two_turns_found_directly_are_those_of_the_level_walk(
    board: Board, rules: Rules, pick: object
) -> None:
    """The direct finder of paths with up to two turns gives the level walk's exact answer
    (corners included, so the tie rule too) for every turn limit, or None exactly when the
    walk finds no path of that few turns."""
    from levelgen.linkup.core.paths import _by_levels, _column_unit, _direct

    tiles = board.tiles()
    if len(tiles) < 2:
        return
    lay = board.layout
    free = board.free_mask(rules.outside)
    unit = _column_unit(lay.stride, board.height + 2)
    a = tiles[pick.randrange(len(tiles))]  # type: ignore[attr-defined]
    for b in tiles:
        if b == a:
            continue
        for turns in (0, 1, 2, 3):
            want = _by_levels(lay, free, lay.bit(*a), lay.bit(*b), turns)
            if want is not None and len(want[0]) > 4:
                want = None
            assert _direct(free, lay.bit(*a), lay.bit(*b), turns, lay.stride, unit) == want
