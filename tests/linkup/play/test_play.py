"""The play engine: the live move list against fresh computations, moves and undo, hints
replayed by the verifier and cross-checked by the exhaustive solver, lost-at, shuffles."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from levelgen.linkup.core.board import Board
from levelgen.linkup.core.geometry import Pos, Size
from levelgen.linkup.core.live import LiveLinks
from levelgen.linkup.core.moves import legal_moves, legal_pairs
from levelgen.linkup.core.paths import find_link
from levelgen.linkup.core.rules import Rules
from levelgen.linkup.generate.generator import generate
from levelgen.linkup.play.game import Game, IllegalMove, natural_key
from levelgen.linkup.play.hint import exchange_partners, lost_at
from levelgen.linkup.play.shuffle import shuffle
from levelgen.linkup.solvers import Budget, SolveStatus, solve
from levelgen.linkup.verify import replay
from tests.strategies import boards, rules_st, small_boards

PROPERTY = settings(
    derandomize=True,
    deadline=None,
    max_examples=60,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def fresh(game: Game) -> frozenset[tuple[int, int]]:
    board = game.board
    return frozenset(
        legal_pairs(
            board.kind_masks().values(),
            board.free_mask(game.rules.outside),
            game.rules.max_turns,
            board.layout.stride,
        )
    )


def exhaustive(board: Board, rules: Rules) -> SolveStatus:
    return solve(board, rules, method="exhaustive").status


# ----- the live move list --------------------------------------------------------------------


@PROPERTY
@given(
    board=boards(max_width=24, max_height=14, max_kinds=6),
    rules=rules_st,
    seed=st.integers(0, 2**16),
)
def test_live_list_equals_a_fresh_computation_and_undo_restores_it(
    board: Board, rules: Rules, seed: int
) -> None:
    """After every move of a random play-out the maintained pair set equals all legal pairs
    computed from scratch; undoing every move restores each earlier set exactly."""
    rng = random.Random(seed)
    game = Game(board, rules)
    history = [game.pair_bits()]
    assert history[0] == fresh(game)
    while True:
        pairs = game.legal_pairs()
        if not pairs:
            break
        game.play(*pairs[rng.randrange(len(pairs))])
        history.append(game.pair_bits())
        assert history[-1] == fresh(game)
    assert len(game.played) == len(history) - 1
    while game.played:
        game.undo()
        history.pop()
        assert game.pair_bits() == history[-1]
    assert game.board == board


def _fields(live: LiveLinks) -> tuple[object, ...]:
    return (live.links[:], live.open_mask, live.total, live.free, dict(live.kind_mask))


@settings(PROPERTY, max_examples=30)
@given(board=boards(max_width=12, max_height=8, max_kinds=6), rules=rules_st, seed=st.integers())
def test_live_links_undo_restores_every_field(board: Board, rules: Rules, seed: int) -> None:
    """The shared live move list itself: after every removal of a random play-out its pairs
    equal a fresh computation (in the same order), one built from the position's masks
    (``from_masks``) has the same fields, and undo puts back every field exactly
    (links, open tiles, the count, the free cells and the kind masks), not just the pairs."""
    rng = random.Random(seed)
    live = LiveLinks(board, rules, undo=True)
    kinds, free = board.kind_masks(), board.free_mask(rules.outside)
    history = [_fields(live)]
    while True:
        expected = legal_pairs(kinds.values(), free, rules.max_turns, board.layout.stride)
        assert live.pairs() == expected and live.count == len(expected)
        # Built afresh from the masks of the position (as the repair solver does): the same.
        rebuilt = LiveLinks.from_masks(board.layout, rules.max_turns, free, kinds)
        assert _fields(rebuilt)[:4] == _fields(live)[:4]
        assert {k: m for k, m in rebuilt.kind_mask.items() if m} == {
            k: m for k, m in live.kind_mask.items() if m
        }
        if not expected:
            break
        a, b = expected[rng.randrange(len(expected))]
        live.remove(a, b)
        pair = (1 << a) | (1 << b)
        kinds = {k: m & ~pair for k, m in kinds.items()}
        free |= pair
        history.append(_fields(live))
    while len(history) > 1:
        live.undo()
        history.pop()
        assert _fields(live) == history[-1]
    with pytest.raises(IndexError):
        live.undo()
    with pytest.raises(ValueError, match="undo=True"):
        LiveLinks(board, rules).undo()


@settings(PROPERTY, max_examples=60)
@given(board=boards(max_width=12, max_height=8, max_kinds=6), rules=rules_st, seed=st.integers())
def test_live_links_from_a_dead_end_with_tiles_put_back(
    board: Board, rules: Rules, seed: int
) -> None:
    """``from_masks(..., linked=...)``, as the repair solver rebuilds: a random play-out to a
    dead end (or a clear board), some of its pairs put back, then testing only the tiles put
    back gives the same live move list as testing every tile; and so does looking only at
    the kinds of those tiles (``tiles=``) when every kind holds an even number of tiles."""
    rng = random.Random(seed)
    live = LiveLinks(board, rules, undo=True)
    removed = []
    while pairs := live.pairs():
        a, b = pairs[rng.randrange(len(pairs))]
        live.remove(a, b)
        removed.append((a, b))
    back = [pair for pair in removed if rng.random() < 0.5]
    masks, free = dict(live.kind_mask), live.free
    put_back = 0
    for a, b in back:
        masks[live.kind_of[a]] |= 1 << a | 1 << b
        put_back |= 1 << a | 1 << b
    free &= ~put_back
    layout, k = board.layout, rules.max_turns
    full = LiveLinks.from_masks(layout, k, free, masks)
    for kinds in (None, live.kind_of):
        fast = LiveLinks.from_masks(layout, k, free, masks, linked=put_back, kind_of=kinds)
        assert _fields(fast) == _fields(full)
        assert fast.pairs() == full.pairs()
    if all(mask.bit_count() % 2 == 0 for mask in masks.values()):
        tiles = 0
        for mask in masks.values():
            tiles |= mask
        fast = LiveLinks.from_masks(
            layout, k, free, masks, linked=put_back, kind_of=live.kind_of, tiles=tiles
        )
        assert _fields(fast) == _fields(full)
        assert fast.pairs() == full.pairs()


def test_legal_moves_match_the_board_function() -> None:
    level = generate(Size(12, 8), seed=4)
    game = Game(level.board, level.rules)
    for move in level.solution or ():
        assert game.legal_moves() == legal_moves(game.board, game.rules)
        game.play(move.a, move.b)
    assert game.is_won() and game.legal_moves() == []


def test_play_refuses_illegal_moves_with_the_reason() -> None:
    game = Game(Board.from_rows(["12.", "#21", "33."]), Rules(2, False))
    cases = [
        ((0, 0), (5, 0), "not on the 3x3 board"),
        ((0, 0), (0, 0), "both cells are [0, 0]"),
        ((2, 0), (0, 0), "cell [2, 0] is empty"),
        ((0, 1), (0, 0), "cell [0, 1] is a wall"),
        ((0, 0), (1, 0), "different kinds 1 and 2"),
        ((0, 0), (2, 1), "no path with at most 2 turns joins [0, 0] and [2, 1] inside"),
    ]
    for a, b, reason in cases:
        with pytest.raises(IllegalMove, match=reason.replace("[", r"\[").replace("]", r"\]")):
            game.play(Pos(*a), Pos(*b))
    assert game.played == ()
    move = game.play(Pos(0, 2), Pos(1, 2))
    assert move.kind == 3 and move.path.turns == 0
    with pytest.raises(IllegalMove):
        game.apply(move)  # the cells are empty now
    game.undo()
    with pytest.raises(IndexError):
        game.undo()


def test_natural_key_orders_by_turns_then_length_then_reading_order() -> None:
    game = Game(Board.from_rows(["1..1", "2..2", "3333"]), Rules())
    keys = sorted(natural_key(m) for m in game.legal_moves())
    assert keys[0][:2] == (0, 1)  # two 3s side by side: no turn, one step


# ----- hints ------------------------------------------------------------------------------------


def check_hint(game: Game) -> str:
    """Ask a hint and check it with independent means; returns the status."""
    board, rules = game.board, game.rules
    result = game.hint(Budget(max_nodes=200_000))
    truth = exhaustive(board, rules) if board.tile_count() else SolveStatus.SOLVED
    if result.status == "won":
        assert board.is_cleared()
    elif result.status == "hint":
        assert result.proved and result.move == result.solution[0]
        assert replay(board, rules, result.solution) == []
        assert (result.move.a, result.move.b) in game.legal_pairs()
        after = board.without(result.move.a, result.move.b)
        assert not after.tile_count() or exhaustive(after, rules) is SolveStatus.SOLVED
        assert truth is SolveStatus.SOLVED
    elif result.status == "lost":
        assert truth is SolveStatus.UNSOLVABLE, str(board)
        # No legal move keeps it solvable.
        for a, b in game.legal_pairs():
            assert exhaustive(board.without(a, b), rules) is SolveStatus.UNSOLVABLE
    else:  # pragma: no cover - the budget is ample for these boards
        raise AssertionError(f"undecided on a small board: {result.reason}")
    return result.status


@settings(PROPERTY, max_examples=80)
@given(board=small_boards(max_tiles=12, max_width=5), rules=rules_st, seed=st.integers(0, 999))
def test_hints_are_safe_and_lost_is_confirmed_exhaustively(
    board: Board, rules: Rules, seed: int
) -> None:
    """Along a random play-out: every hint's proof replays and the exhaustive solver agrees
    that the hint keeps the game winnable; every ``lost`` is confirmed by it, and its lost-at
    move is the one after which the exhaustive solver first finds no solution."""
    rng = random.Random(seed)
    game = Game(board, rules)
    while True:
        status = check_hint(game)
        if status == "lost" and game.played:
            result = game.hint(Budget(max_nodes=200_000))
            prefix = [exhaustive(_prefix(game, k), rules) for k in range(len(game.played) + 1)]
            if prefix[0] is SolveStatus.UNSOLVABLE:
                assert result.lost_at is None and "starting position" in result.reason
            else:
                first = prefix.index(SolveStatus.UNSOLVABLE)
                assert result.lost_at == first - 1
                assert result.undo == len(game.played) - first + 1
        pairs = game.legal_pairs()
        if not pairs:
            break
        game.play(*pairs[rng.randrange(len(pairs))])


def _prefix(game: Game, k: int) -> Board:
    return game.start.without(*(p for m in game.played[:k] for p in (m.a, m.b)))


def test_hints_on_generated_levels_replay_and_follow_through() -> None:
    """Following hints wins a generated 12x8 level; each proof replays."""
    level = generate(Size(12, 8), seed=11)
    game = Game(level.board, level.rules)
    while not game.is_won():
        result = game.hint()
        assert result.status == "hint" and result.move is not None
        assert replay(game.board, game.rules, result.solution) == []
        game.play(result.move.a, result.move.b)
    assert game.hint().status == "won"


def test_hint_prefers_the_most_natural_move_of_the_solution() -> None:
    """The hint is the most natural legal move among those of its own proof's solution."""
    level = generate(Size(12, 8), seed=2)
    game = Game(level.board, level.rules)
    result = game.hint()
    assert result.move is not None
    legal = {frozenset(p) for p in game.legal_pairs()}
    candidates = [
        m
        for m in legal_moves(game.board, game.rules)
        if frozenset((m.a, m.b)) in legal and any({s.a, s.b} == {m.a, m.b} for s in result.solution)
    ]
    assert natural_key(result.move) == min(natural_key(m) for m in candidates)


def test_undecided_offers_a_legal_move_marked_unproved() -> None:
    level = generate(Size(18, 10), seed=1)
    game = Game(level.board, level.rules)
    result = game.hint(Budget(should_stop=lambda: True))
    assert result.status == "undecided" and not result.proved and result.move is not None
    assert (result.move.a, result.move.b) in game.legal_pairs()


def test_lost_at_with_a_known_start_and_undecided_probes() -> None:
    # 1 2 / 2 1 with the ring: playing the 2s ... every move keeps it winnable; a stuck
    # board without the ring is lost from the start.
    stuck = Board.from_rows(["12", "21"])
    game = Game(stuck, Rules(2, False))
    result = game.hint()
    assert result.status == "lost" and result.lost_at is None and result.undo is None
    level = generate(Size(6, 4), seed=3)
    moves = list(level.solution or ())
    assert lost_at(level.board, level.rules, moves) == (None, "the game is not lost")


# ----- shuffles ---------------------------------------------------------------------------------


def positions(count: int, size: Size) -> list[Game]:
    out = []
    for seed in range(count):
        level = generate(size, seed=seed, rules=Rules(seed % 3 + 1, seed % 2 == 0))
        game = Game(level.board, level.rules)
        rng = random.Random(seed)
        for _ in range(rng.randint(0, level.board.tile_count() // 2)):
            pairs = game.legal_pairs()
            if not pairs:
                break
            game.play(*pairs[rng.randrange(len(pairs))])
        out.append(game)
    return out


def test_shuffles_are_solvable_deterministic_and_new() -> None:
    """On positions after random play (some stuck or lost): the shuffle keeps every cell's
    occupancy and the kind counts, replays, has the legal moves asked for, differs from the
    input, and the same seed gives the same board."""
    stuck = lost = 0
    games = positions(16, Size(8, 6))
    games.append(Game(Board.from_rows(["12", "21"]), Rules(2, False)))  # stuck
    games.append(Game(Board.from_rows(["1.2", "#.#", "2.1"]), Rules(1, False)))  # lost
    for game in games:
        board = game.board
        if not game.is_won():
            stuck += not game.legal_pairs()
            lost += game.hint().status == "lost"
        for min_moves in (1, 3) if board.tile_count() >= 12 else (1,):
            result = game.shuffle(7, min_moves=min_moves)
            if not board.tile_count():
                assert result.status == "impossible"
                continue
            assert result.status == "shuffled", result.reason
            new = result.board
            assert new is not None
            assert new.occupied_mask() == board.occupied_mask()
            assert new.wall_mask() == board.wall_mask()
            assert new.kind_counts() == board.kind_counts()
            assert replay(new, game.rules, result.solution) == []
            assert result.legal_moves == len(legal_moves(new, game.rules)) >= min_moves
            if len(board.kind_counts()) > 1:
                assert new != board and not result.same_as_input
            assert game.shuffle(7, min_moves=min_moves) == result
    assert stuck and lost


@settings(PROPERTY, max_examples=60)
@given(board=small_boards(max_tiles=10, max_width=4), rules=rules_st, seed=st.integers(0, 99))
def test_shuffle_never_returns_the_input_when_another_arrangement_exists(
    board: Board, rules: Rules, seed: int
) -> None:
    """Small boards: when the exhaustive enumeration of all arrangements finds another
    solvable one, the shuffle does not answer with the input (nor fail), and what it answers
    is solvable."""
    result = shuffle(board, rules, seed, max_attempts=200)
    if result.status == "shuffled":
        assert result.board is not None
        assert replay(result.board, rules, result.solution) == []
        assert result.board != board or len(board.kind_counts()) == 1
        return
    if result.status == "impossible":
        return
    # failed: check that no other solvable arrangement exists (small boards only)
    for other in _arrangements(board):
        if other != board:
            assert exhaustive(other, rules) is not SolveStatus.SOLVED, str(other)


def _arrangements(board: Board) -> list[Board]:
    """Every board with the tiles of ``board`` permuted over its tile cells (distinct)."""
    import itertools

    cells = [i for i, v in enumerate(board.cells) if v >= 1]
    kinds = [board.cells[i] for i in cells]
    seen = set()
    out = []
    for perm in itertools.permutations(kinds):
        if perm in seen:
            continue
        seen.add(perm)
        new = list(board.cells)
        for i, k in zip(cells, perm, strict=True):
            new[i] = k
        out.append(Board(board.width, board.height, tuple(new)))
        if len(out) > 400:
            break
    return out


def test_shuffle_impossible_cases_and_bad_arguments() -> None:
    odd = shuffle(Board.from_rows(["111", "22."]), Rules(), 1)
    assert odd.status == "impossible" and "kind 1 has 3 tiles" in odd.reason
    apart = shuffle(Board.from_rows(["1.", ".1"]), Rules(0, False), 1)
    assert apart.status == "impossible" and "no two" in apart.reason
    one_kind = shuffle(Board.from_rows(["11", "11"]), Rules(), 5)
    assert one_kind.status == "shuffled" and one_kind.same_as_input
    for kwargs in ({"seed": -1}, {"seed": 1, "min_moves": -2}, {"seed": True}):
        with pytest.raises(ValueError):
            shuffle(Board.from_rows(["11"]), Rules(), **kwargs)  # type: ignore[arg-type]
    level = generate(Size(6, 4), seed=1)
    too_many = shuffle(level.board, level.rules, 1, min_moves=999, max_attempts=3)
    assert too_many.status == "failed" and "fewer than 999" in too_many.reason
    stopped = shuffle(level.board, level.rules, 1, budget=Budget(should_stop=lambda: True))
    assert stopped.status == "failed" and "budget" in stopped.reason


@pytest.mark.parametrize("seed", [15, 35, 50])
def test_lost_games_on_larger_boards_agree_with_cpsat(seed: int) -> None:
    """Random play-outs of 10x6 levels that end stuck: ``lost`` is confirmed by CP-SAT, and
    so is its lost-at move (CP-SAT solves the position before it and not the one after)."""
    rules = Rules(2, seed == 50)
    level = generate(Size(10, 6), seed=seed, rules=rules)
    game = Game(level.board, rules)
    rng = random.Random(seed)
    while game.legal_pairs():
        pairs = game.legal_pairs()
        game.play(*pairs[rng.randrange(len(pairs))])
    assert not game.is_won()
    result = game.hint()
    assert result.status == "lost" and result.lost_at is not None
    assert result.undo == len(game.played) - result.lost_at
    assert solve(game.board, rules, method="cpsat").status is SolveStatus.UNSOLVABLE
    before = _prefix(game, result.lost_at)
    after = _prefix(game, result.lost_at + 1)
    assert solve(before, rules, method="cpsat").status is SolveStatus.SOLVED
    assert solve(after, rules, method="cpsat").status is SolveStatus.UNSOLVABLE


def test_exchange_partners_gives_solutions_that_start_with_the_move() -> None:
    """A solution repaired to start with a legal move outside it replays, starts with that
    move, and gives every step the exact best path at its moment (the path finder's own, tie
    rule included, also for the steps whose paths it kept); on these positions the repair
    succeeds for many such moves."""
    made = 0
    for game in positions(6, Size(12, 8)):
        board, rules = game.board, game.rules
        found = solve(board, rules, budget=Budget(max_nodes=20_000), method="search")
        if found.status is not SolveStatus.SOLVED or not found.moves:
            continue
        solution = found.moves
        steps = {frozenset((m.a, m.b)) for m in solution}
        for move in legal_moves(board, rules):
            if frozenset((move.a, move.b)) in steps:
                continue
            repaired = exchange_partners(board, rules, solution, move)
            if repaired is None:
                continue
            made += 1
            assert repaired[0] == move
            assert replay(board, rules, repaired) == []
            assert sorted(p for m in repaired for p in (m.a, m.b)) == sorted(board.tiles())
            lay, free = board.layout, board.free_mask(rules.outside)
            for m in repaired:
                assert m.path == find_link(lay, free, m.a, m.b, rules)
                free |= 1 << lay.bit(*m.a) | 1 << lay.bit(*m.b)
    assert made >= 5
