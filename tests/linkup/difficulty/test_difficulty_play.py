"""Difficulty from play: move classification against the exhaustive solver, the players, the
score's properties, determinism, and the validation of the score against the random player's
win rate on held-out seeds."""

from __future__ import annotations

import random
import statistics

from hypothesis import given, settings
from hypothesis import strategies as st

from levelgen.linkup.core.board import Board
from levelgen.linkup.core.geometry import Size
from levelgen.linkup.core.level import Difficulty
from levelgen.linkup.core.moves import Move, legal_moves
from levelgen.linkup.core.rules import Rules
from levelgen.linkup.difficulty import difficulty_problems, metrics_problems
from levelgen.linkup.difficulty.play import (
    PlaySettings,
    careful_playouts,
    classify_move,
    measure_difficulty,
    playout_win_rate,
)
from levelgen.linkup.difficulty.score import BAND_EDGES, BANDS, band_bounds, band_of, score_of
from levelgen.linkup.generate.generator import SLOT, GenerationError, generate
from levelgen.linkup.generate.playout import deal, random_removal_order
from levelgen.linkup.generate.steer import RUNGS, apply_density
from levelgen.linkup.solvers import SolveStatus, solve
from levelgen.linkup.verify import replay
from tests.linkup.difficulty.test_difficulty import moves_along


def dealt(
    width: int, height: int, rules: Rules, seed: int, walls: float, copies: int
) -> tuple[Board, list[Move]] | None:
    """A board dealt on a random order (some slots turned into walls) and its solution."""
    rng = random.Random(seed)
    template = apply_density(Board(width, height, (SLOT,) * (width * height)), walls, rng)
    order = random_removal_order(template, rules, rng)
    if order is None:
        return None
    tiles = 2 * len(order)
    if tiles < copies:
        return None
    kinds = [1 + i // (copies // 2) for i in range(len(order))]
    kinds = [min(k, tiles // copies) for k in kinds]
    rng.shuffle(kinds)
    board, moves = deal(template, rules, order, kinds)
    return board, list(moves)


@settings(derandomize=True, deadline=None, max_examples=60)
@given(
    width=st.integers(3, 6),
    height=st.integers(2, 4),
    outside=st.booleans(),
    walls=st.sampled_from([0.0, 0.15, 0.3]),
    seed=st.integers(0, 2**32),
)
def test_classification_agrees_with_the_exhaustive_solver(
    width: int, height: int, outside: bool, walls: float, seed: int
) -> None:
    """Every legal first move: "safe" comes with an order that replays, "trap" is unsolvable
    for the exhaustive solver, and the exhaustive solver agrees with every decided verdict."""
    if width * height % 2:
        width += 1
    rules = Rules(2, outside)
    made = dealt(width, height, rules, seed, walls, 4)
    if made is None:
        return
    board, solution = made
    for move in legal_moves(board, rules):
        verdict, rest = classify_move(board, rules, solution, move.a, move.b, nodes=100_000)
        after = board.without(move.a, move.b)
        truth = solve(after, rules, method="exhaustive").status
        if verdict.startswith("safe"):
            assert rest is not None
            assert not replay(after, rules, moves_along(after, rules, rest))
            assert truth is SolveStatus.SOLVED
        elif verdict.startswith("trap"):
            assert truth is SolveStatus.UNSOLVABLE
        else:  # pragma: no cover - 100000 nodes decide boards this small
            raise AssertionError(f"undecided on a {width}x{height} board")


def test_a_pair_of_the_solution_is_safe_without_the_solver() -> None:
    level = generate(Size(8, 6), seed=4)
    assert level.solution is not None
    for move in level.solution[:5]:
        verdict, rest = classify_move(level.board, level.rules, level.solution, move.a, move.b)
        assert verdict == "safe"
        assert rest is not None and len(rest) == len(level.solution) - 1


@settings(derandomize=True, deadline=None, max_examples=15)
@given(seed=st.integers(0, 2**32), outside=st.booleans())
def test_two_copies_never_trap(seed: int, outside: bool) -> None:
    """With one pair per kind no move can spoil a pairing: by monotonicity every legal move is
    safe, so the random player always wins and the trap rate is 0."""
    rules = Rules(2, outside)
    made = dealt(6, 4, rules, seed, 0.0, 2)
    if made is None:
        return
    board, solution = made
    assert playout_win_rate(board, rules, seed=seed, playouts=6) == 1.0
    count = careful_playouts(board, rules, solution, seed=seed)
    assert count.traps == 0 and count.rate == 0.0


def test_players_on_a_hand_made_board() -> None:
    """Boards worked out by hand (ring off): two that every player clears, one where no move
    exists at all."""
    board = Board.from_rows(["#1212#", "#....#"])
    rules = Rules(2, False)
    # The two 1s link through the empty row below (two turns), after which 2 2 link too.
    assert playout_win_rate(board, rules, seed=0, playouts=4) == 1.0
    stuck = Board.from_rows(["1221"])
    assert playout_win_rate(stuck, Rules(2, False), seed=0, playouts=4) == 1.0
    trap = Board.from_rows(["1212"])
    assert playout_win_rate(trap, Rules(2, False), seed=0, playouts=3) == 0.0
    assert playout_win_rate(trap, Rules(2, False), seed=0, playouts=3, greedy=True) == 0.0


def test_measures_are_deterministic_and_complete() -> None:
    level = generate(Size(8, 6), seed=11, rules=Rules(2, False))
    assert level.solution is not None
    one = measure_difficulty(level.board, level.rules, level.solution, seed=3)
    two = measure_difficulty(level.board, level.rules, level.solution, seed=3)
    assert one == two
    for name in ("trap_rate", "random_win_rate", "greedy_win_rate", "choice", "pair_distance"):
        assert name in one.measures
    assert 0 <= one.score <= 100 and one.band == band_of(one.score)
    assert one.measures["choice"] == level.metrics.mean_moves  # type: ignore[union-attr]


measures_strategy = st.fixed_dictionaries(
    {
        "trap_rate": st.floats(0, 1),
        "greedy_win_rate": st.floats(0, 1),
        "choice": st.floats(0, 200),
        "tiles": st.integers(2, 4096).map(float),
        "kinds": st.integers(1, 2048).map(float),
        "pair_distance": st.floats(0, 130),
    }
)


@settings(derandomize=True, max_examples=200)
@given(measures=measures_strategy, more=st.floats(0, 1))
def test_score_bounds_and_monotone_in_risk(measures: dict[str, float], more: float) -> None:
    score = score_of(measures)
    assert 0 <= score <= 100
    riskier = dict(measures, trap_rate=min(1.0, measures["trap_rate"] + more))
    assert score_of(riskier) >= score
    worse_greedy = dict(measures, greedy_win_rate=max(0.0, measures["greedy_win_rate"] - more))
    assert score_of(worse_greedy) >= score
    fewer_moves = dict(measures, choice=measures["choice"] * (1 - more))
    assert score_of(fewer_moves) >= score


def test_bands_cover_the_scale() -> None:
    assert [band_of(0), band_of(100)] == ["easy", "expert"]
    for band in BANDS:
        low, high = band_bounds(band)
        assert band_of(low) == band and band_of(high - 0.1) == band
    assert sorted(BAND_EDGES) == list(BAND_EDGES)


def test_stated_difficulty_is_checked() -> None:
    level = generate(Size(6, 4), seed=2)
    assert level.solution is not None and level.metrics is not None
    real = measure_difficulty(level.board, level.rules, level.solution, seed=0)
    assert difficulty_problems(real) == []
    wrong_band = Difficulty(
        real.score, "expert" if real.band != "expert" else "easy", real.measures
    )
    assert [p.pointer for p in difficulty_problems(wrong_band)] == ["/metrics/difficulty/band"]
    wrong_score = Difficulty(real.score + 1, band_of(real.score + 1), real.measures)
    assert [p.pointer for p in difficulty_problems(wrong_score)] == ["/metrics/difficulty/score"]
    import dataclasses

    stated = dataclasses.replace(level.metrics, difficulty=wrong_score)
    problems = metrics_problems(level.board, level.rules, level.solution, stated)
    assert [p.pointer for p in problems] == ["/metrics/difficulty/score"]


def _held_out_random_rate(board: Board, rules: Rules, solution: list[Move]) -> float:
    del solution
    return playout_win_rate(board, rules, seed=10**9 + 7, playouts=24)


def test_score_predicts_the_random_player_on_held_out_seeds() -> None:
    """The independent check: over levels of every rung of the steering ladder (8x6, ring on
    and off), those the score calls hard or expert lose far more often to a random player
    (played with seeds the score never saw, three times as many play-outs) than those it
    calls easy.  The score itself never reads the random player."""
    by_band: dict[str, list[float]] = {band: [] for band in BANDS}
    quick = PlaySettings(random_playouts=1)
    for outside in (True, False):
        rules = Rules(2, outside)
        for i, rung in enumerate(RUNGS):
            for seed in range(3):
                s = 100 * i + seed
                template = apply_density(Board(8, 6, (SLOT,) * 48), rung.density, random.Random(s))
                try:
                    level = generate(
                        Size(8, 6), copies=rung.copies, rules=rules, layout=template, seed=s
                    )
                except ValueError:
                    continue
                assert level.solution is not None
                diff = measure_difficulty(
                    level.board, rules, level.solution, seed=s, settings=quick, with_random=False
                )
                rate = _held_out_random_rate(level.board, rules, list(level.solution))
                by_band[diff.band].append(rate)
    easy = by_band["easy"]
    hard = by_band["hard"] + by_band["expert"]
    assert len(easy) >= 10 and len(hard) >= 5, {b: len(v) for b, v in by_band.items()}
    assert statistics.mean(hard) < statistics.mean(easy) - 0.15, (
        statistics.mean(easy),
        statistics.mean(hard),
    )


def test_difficulty_in_the_file_round_trips_and_fits_the_schema() -> None:
    import jsonschema

    from levelgen.linkup.generate.steer import parse_target, steered_generate
    from levelgen.linkup.schema import LevelFile, level_json_schema

    level = steered_generate(Size(6, 4), parse_target("easy"), seed=5).level
    file = LevelFile.from_core(level)
    data = file.to_data()
    jsonschema.validate(data, level_json_schema())
    assert list(data["metrics"]["difficulty"]) == ["score", "band", "measures"]
    assert file.to_core() == level
    old = dict(data, metrics={k: v for k, v in data["metrics"].items() if k != "difficulty"})
    jsonschema.validate(old, level_json_schema())  # files without a difficulty stay valid


@settings(derandomize=True, deadline=None, max_examples=150)
@given(
    rows=st.lists(st.text("11223.#", min_size=6, max_size=6), min_size=1, max_size=5),
    max_turns=st.integers(0, 3),
    outside=st.booleans(),
    seed=st.integers(0, 2**32),
)
def test_live_links_match_a_recount_along_random_play(
    rows: list[str], max_turns: int, outside: bool, seed: int
) -> None:
    """The live move list equals :func:`legal_pairs` (same pairs, same order) on every state
    of a random play-out, copies included."""
    from levelgen.linkup.core.moves import legal_pairs
    from levelgen.linkup.difficulty import LiveLinks

    board = Board.from_rows(rows)
    rules = Rules(max_turns=max_turns, outside=outside)
    live = LiveLinks(board, rules)
    masks = dict(board.kind_masks())
    free = board.free_mask(outside)
    stride = board.layout.stride
    rng = random.Random(seed)
    while True:
        expected = legal_pairs(masks.values(), free, max_turns, stride)
        assert live.pairs() == expected and live.count == len(expected)
        if not expected:
            break
        a, b = expected[rng.randrange(len(expected))]
        branch = live.copy()
        live.remove(a, b)
        assert branch.pairs() == expected  # a copy is not touched by the original's moves
        pair = (1 << a) | (1 << b)
        masks = {k: m & ~pair for k, m in masks.items()}
        free |= pair


@settings(derandomize=True, deadline=None, max_examples=15)
@given(seed=st.integers(0, 10_000), turns=st.integers(0, 3), outside=st.booleans())
def test_the_greedy_player_takes_the_hints_most_natural_move(
    seed: int, turns: int, outside: bool
) -> None:
    """Along a whole greedy play-out, every move the greedy player takes is the legal move
    that comes first in the hint's natural order (levelgen.linkup.core.natural.natural_key),
    computed independently from all legal moves with their exact paths; the play-out is the same
    whatever the seed (the player is deterministic)."""
    from levelgen.linkup.core.natural import natural_key
    from levelgen.linkup.difficulty.play import _natural, _State, playout_win_rate

    rules = Rules(turns, outside)
    try:
        level = generate(Size(6, 4), rules=rules, seed=seed)
    except GenerationError:  # pragma: no cover - no removal order under these rules
        return
    board = level.board
    layout = board.layout
    state = _State(board, rules)
    while state.tiles:
        chosen = _natural(state, layout, rules)
        moves = legal_moves(board, rules)
        if not moves:
            assert chosen is None
            break
        best = min(moves, key=natural_key)
        assert chosen is not None
        assert {layout.pos(chosen[0]), layout.pos(chosen[1])} == {best.a, best.b}
        state.remove(*chosen)
        board = board.without(best.a, best.b)
    rates = {playout_win_rate(level.board, rules, seed=s, playouts=3, greedy=True) for s in (1, 2)}
    assert len(rates) == 1 and rates <= {0.0, 1.0}
