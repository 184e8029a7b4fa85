"""Stacked layers: the linking rule against the slow reference, the file format, generation with
a certificate, and the exact solver against the exhaustive one."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from levelgen.linkup.core.board import EMPTY, WALL, Board
from levelgen.linkup.core.geometry import Pos, Size
from levelgen.linkup.core.layers import Stacks
from levelgen.linkup.core.moves import legal_pairs
from levelgen.linkup.core.reference import reference_best
from levelgen.linkup.core.rules import Rules
from levelgen.linkup.generate.generator import GenerationError, generate
from levelgen.linkup.generate.variants import parse_layers_layout, pyramid_layout
from levelgen.linkup.schema import LevelFile, LevelFormatError, parse_level_data
from levelgen.linkup.solvers import Budget, SolveStatus, solve
from levelgen.linkup.verify import replay


def layered_board(seed: int, max_tiles: int = 40, width: int = 0, height: int = 0) -> Board:
    """A random layered board: layer 0 with tiles, holes and walls, up to two layers above on
    random tiles; every kind an even number of times (at most ``max_tiles`` tiles)."""
    rng = random.Random(seed)
    width = width or rng.randint(2, 6)
    height = height or rng.randint(1, 5)
    n = width * height
    layers = [
        [WALL if rng.random() < 0.1 else 1 if rng.random() < 0.8 else EMPTY for _ in range(n)]
    ]
    for _ in range(rng.randint(1, 2)):
        below = layers[-1]
        layers.append([1 if below[i] == 1 and rng.random() < 0.5 else EMPTY for i in range(n)])
    slots = [
        (layer, i) for layer, cells in enumerate(layers) for i, v in enumerate(cells) if v == 1
    ]
    # Keep at most max_tiles, from the top down, so stacks stay gap-free; drop one if odd.
    slots.sort(key=lambda s: -s[0])
    while len(slots) > max_tiles or len(slots) % 2:
        layer, i = slots.pop(0)
        layers[layer][i] = EMPTY
    kinds_n = rng.randint(1, 4)
    order = slots[:]
    rng.shuffle(order)
    for k in range(0, len(order), 2):
        kind = rng.randint(1, kinds_n)
        for layer, i in order[k : k + 2]:
            layers[layer][i] = kind
    return Board(width, height, tuple(layers[0]), tuple(tuple(c) for c in layers[1:]))


def flat_at(board: Board, h: int, a: Pos, b: Pos) -> Board:
    """A one-layer board whose empty cells are those a path at height ``h`` may cross, with
    tiles at ``a`` and ``b``."""
    w = board.width
    layers = [board.cells, *board.upper]
    cells = tuple(
        WALL
        if board.cells[i] == WALL
        else EMPTY
        if sum(1 for layer in layers if layer[i] >= 1) <= h
        else 1
        for i in range(w * board.height)
    )
    return Board(w, board.height, cells).with_cells([(a, 1), (b, 1)])


def reference_pairs(board: Board, rules: Rules) -> set[tuple[Pos, Pos]]:
    """Linkable same-kind top pairs by the slow reference: for each pair on layers i, j with
    |i - j| <= 1, a one-layer board where exactly the cells of stacks no higher than
    max(i, j) are empty (the two ends kept as tiles), asked of the Dijkstra reference."""
    w = board.width
    layers = [board.cells, *board.upper]
    heights = [sum(1 for layer in layers if layer[i] >= 1) for i in range(w * board.height)]
    tops = {
        Pos(i % w, i // w): (heights[i] - 1, layers[heights[i] - 1][i])
        for i in range(len(heights))
        if heights[i]
    }
    out = set()
    for a, (la, ka) in tops.items():
        for b, (lb, kb) in tops.items():
            if (b.y, b.x) <= (a.y, a.x) or ka != kb or abs(la - lb) > 1:
                continue
            h = max(la, lb)
            cells = tuple(
                WALL if board.cells[i] == WALL else EMPTY if heights[i] <= h else 1
                for i in range(len(heights))
            )
            flat = Board(w, board.height, cells).with_cells([(a, 1), (b, 1)])
            if reference_best(flat, a, b, rules) is not None:
                out.add((a, b))
    return out


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 3), st.booleans())
def test_links_match_the_reference(seed: int, max_turns: int, outside: bool) -> None:
    board = layered_board(seed)
    rules = Rules(max_turns, outside)
    stacks = Stacks.of(board, rules)
    lay = board.layout
    fast = {(lay.pos(a), lay.pos(b)) for a, b in stacks.legal_pairs()}
    assert fast == reference_pairs(board, rules)
    # Best paths: turns and length equal the reference's, and the path checker accepts them.
    for a, b in sorted(fast)[:6]:
        path = stacks.find_path(a, b)
        assert path is not None
        assert stacks.path_problem(path) is None
        h = stacks.link_height(a, b)
        assert h is not None
        assert (path.turns, path.length) == reference_best(flat_at(board, h, a, b), a, b, rules)


def test_one_layer_is_the_classic_rule() -> None:
    for seed in range(30):
        rng = random.Random(seed)
        cells = tuple(rng.choice([0, 1, 2, 3, -1]) for _ in range(30))
        board = Board(6, 5, cells)
        rules = Rules(rng.randint(0, 3), rng.random() < 0.5)
        lay = board.layout
        classic = legal_pairs(
            [m for _, m in sorted(board.kind_masks().items())],
            board.free_mask(rules.outside),
            rules.max_turns,
            lay.stride,
        )
        assert sorted(Stacks.of(board, rules).legal_pairs()) == sorted(classic)


def test_a_path_flies_over_lower_stacks_only() -> None:
    # Two tiles of kind 1 on layer 1 at both ends of a row; between them a stack of 1 and one
    # of 2.  At height 1 the path may cross the first, not the second.
    board = Board(4, 1, (2, 4, 3, 2), ((1, 0, 3, 1),))
    stacks = Stacks.of(board, Rules(0, False))
    assert stacks.legal_pairs() == []
    board = Board(4, 1, (2, 3, 5, 2), ((1, 0, 0, 1),))
    stacks = Stacks.of(board, Rules(0, False))
    lay = board.layout
    assert [(lay.pos(a), lay.pos(b)) for a, b in stacks.legal_pairs()] == [(Pos(0, 0), Pos(3, 0))]
    path = stacks.find_path(Pos(0, 0), Pos(3, 0))
    assert path is not None and path.turns == 0 and path.length == 3
    # Layers two apart never link, even side by side.
    board = Board(2, 1, (3, 1), ((3, 0), (1, 0)))
    assert Stacks.of(board, Rules()).link_height(Pos(0, 0), Pos(1, 0)) is None


def test_board_refuses_a_tile_above_a_hole_or_a_wall() -> None:
    with pytest.raises(ValueError, match=r"layer 1 cell \[1, 0\] holds a tile above an empty"):
        Board(2, 1, (1, 0), ((0, 1),))
    with pytest.raises(ValueError, match="above a wall"):
        Board(2, 1, (1, -1), ((0, 1),))


def level_data(**board: object) -> dict[str, object]:
    return {
        "game": "linkup",
        "format_version": 1,
        "rules": {"max_turns": 2, "outside": True},
        "board": {"width": 2, "height": 1, "rows": [[1, 1]], **board},
    }


def test_file_format_layers() -> None:
    data = level_data(layers=[[[2, 2]]])
    level = parse_level_data(data).to_core()
    assert level.board.upper == ((2, 2),)
    again = LevelFile.from_core(level).to_data()
    assert again["board"]["layers"] == [[[2, 2]]]
    assert "slide" not in again["rules"]
    with pytest.raises(LevelFormatError) as err:
        parse_level_data(level_data(rows=[[1, 0]], layers=[[[2, 2]]]))
    assert str(err.value.problems[0]).startswith("/board/layers/0/0/1: a tile on layer 1 above")
    with pytest.raises(LevelFormatError) as err:
        parse_level_data(level_data(layers=[[[-1, 0]]]))
    assert err.value.problems[0].pointer == "/board/layers/0/0/0"
    with pytest.raises(LevelFormatError) as err:
        parse_level_data(level_data(layers=[[[2, 2, 2]]]))
    assert err.value.problems[0].pointer == "/board/layers/0/0"
    bad = level_data(layers=[[[2, 2]]])
    bad["rules"] = {"max_turns": 2, "outside": True, "slide": "down"}
    with pytest.raises(LevelFormatError) as err:
        parse_level_data(bad)
    assert err.value.problems[0].pointer == "/rules/slide"


def test_layout_files_with_layers() -> None:
    board = parse_layers_layout("ooo.\n#ooo\n\n.oo.\n..o.\n")
    assert board.upper == ((0, 1, 1, 0, 0, 0, 1, 0),)
    with pytest.raises(ValueError, match="line 5, column 1 of the layout: a tile on layer 1"):
        parse_layers_layout("ooo.\n#ooo\n\n.oo.\no...\n")
    with pytest.raises(ValueError, match=r"line 3, column 1.*'#'"):
        parse_layers_layout("oo\n\n#o\n")
    with pytest.raises(ValueError, match="has 1 rows"):
        parse_layers_layout("oo\noo\n\noo\n")
    pyramid = pyramid_layout(16, 9, 3)
    assert [sum(1 for v in g if v) for g in (pyramid.cells, *pyramid.upper)] == [144, 98, 60]
    with pytest.raises(ValueError, match="room for at most"):
        pyramid_layout(4, 4, 3)


@pytest.mark.parametrize("seed", range(6))
def test_generated_layered_levels_replay(seed: int) -> None:
    layout = (
        pyramid_layout(8, 6, 3) if seed % 2 else parse_layers_layout("oooo\noooo\n\n.oo.\n.oo.\n")
    )
    size = Size(layout.width, layout.height)
    level = generate(size, seed=seed, layout=layout, rules=Rules(max_turns=seed % 3 + 1))
    assert level.solution is not None
    assert replay(level.board, level.rules, level.solution) == []
    # The same seed gives the same level.
    again = generate(size, seed=seed, layout=layout, rules=Rules(max_turns=seed % 3 + 1))
    assert again == level


def test_generation_refuses_layers_with_sliding() -> None:
    with pytest.raises(GenerationError, match="do not combine"):
        generate(Size(6, 4), seed=1, layout=pyramid_layout(6, 4, 2), rules=Rules(slide="down"))


def test_replay_plays_the_top_tiles_only() -> None:
    from levelgen.linkup.core.moves import Move
    from levelgen.linkup.core.paths import path_from_corners

    board = Board(2, 1, (1, 1), ((2, 2),))
    rules = Rules()
    link = path_from_corners([Pos(0, 0), Pos(1, 0)])
    ones, twos = Move(Pos(0, 0), Pos(1, 0), 1, link), Move(Pos(0, 0), Pos(1, 0), 2, link)
    assert replay(board, rules, [twos, ones]) == []
    problems = replay(board, rules, [ones, twos])
    assert [str(p) for p in problems] == ["/solution/0/kind: kind is 1 but the cells hold kind 2"]
    problems = replay(board, rules, [twos])
    assert problems[0].pointer == "/solution"


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 3), st.booleans())
def test_search_and_exhaustive_agree(seed: int, max_turns: int, outside: bool) -> None:
    board = layered_board(seed, max_tiles=12)
    rules = Rules(max_turns, outside)
    a = solve(board, rules, method="search", budget=Budget(max_nodes=20000))
    b = solve(board, rules, method="exhaustive", budget=Budget(max_nodes=20000))
    assert SolveStatus.UNKNOWN not in (a.status, b.status)
    assert a.status == b.status
    if a.status is SolveStatus.SOLVED:
        assert replay(board, rules, a.moves or ()) == []


def test_stacking_deadlocks() -> None:
    from levelgen.linkup.core.layers_analysis import stacking_deadlock

    def stacks_of(board: Board) -> list[list[int]]:
        return Stacks.of(board, Rules()).stacks

    # Both tiles of a kind in one stack.
    assert stacking_deadlock(stacks_of(Board(2, 1, (1, 2), ((1, 2),)))) is not None
    # Kind 1 on layers 0 and 2: too far apart, whatever the paths.
    board = Board(3, 1, (2, 1, 2), ((3, 0, 3), (1, 0, 0)))
    assert "kind 1" in (stacking_deadlock(stacks_of(board)) or "")
    # Two forced pairs each waiting under the other.
    board = Board(2, 1, (1, 2), ((2, 1),))
    assert "cycle" in (stacking_deadlock(stacks_of(board)) or "")
    result = solve(board, Rules(), method="search")
    assert result.status is SolveStatus.UNSOLVABLE and "cycle" in result.reason
    assert solve(board, Rules(), method="exhaustive").status is SolveStatus.UNSOLVABLE
    # A solvable stack has no deadlock.
    assert stacking_deadlock(stacks_of(Board(2, 1, (1, 1), ((2, 2),)))) is None


def _reference_matchings(
    tiles: list[tuple[int, int]],
) -> list[list[tuple[tuple[int, int], tuple[int, int]]]]:
    """Every perfect matching of ``tiles`` (different cells, layers at most one apart), in the
    order of a plain recursive search: the reference for ``_matchings`` (small inputs only)."""
    if not tiles:
        return [[]]
    first, found = tiles[0], []
    for j in range(1, len(tiles)):
        other = tiles[j]
        if other[0] != first[0] and abs(other[1] - first[1]) <= 1:
            for rest in _reference_matchings(tiles[1:j] + tiles[j + 1 :]):
                found.append([(first, other), *rest])
    return found


@settings(derandomize=True, deadline=None, max_examples=200)
@given(
    st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3)), min_size=0, max_size=8, unique=True)
)
def test_matchings_are_the_first_of_a_plain_search(tiles: list[tuple[int, int]]) -> None:
    from levelgen.linkup.core.layers_analysis import _matchings

    found, complete = _matchings.__wrapped__(tuple(tiles))
    assert complete
    assert found == _reference_matchings(tiles)[:2] if len(tiles) % 2 == 0 else found == []


def test_matchings_of_a_huge_kind_need_no_recursion() -> None:
    """2,048 tiles of one kind over 1,024 stacks of two: no RecursionError, and the search
    either finds matchings or says it proves nothing."""
    from levelgen.linkup.core.layers_analysis import _matchings

    tiles = tuple((cell, layer) for cell in range(1024) for layer in (0, 1))
    found, complete = _matchings.__wrapped__(tiles)
    assert len(found) == 2 or not complete
