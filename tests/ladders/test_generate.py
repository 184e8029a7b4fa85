"""The generator: same seed same bytes, the window and bounds met exactly, the design rules
kept, and its fast parts (the rank-one float chain, the bit-mask BFS) against the exact ones."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given, settings

from levelgen.formats import format_json
from levelgen.ladders import FAMILY
from levelgen.ladders.analysis import parse_fraction, solve_board
from levelgen.ladders.chain import build_chain, fewest_rolls
from levelgen.ladders.generate import (
    design_rules_problems,
    final_squares,
    generate_board,
    third_of,
    third_squares,
)
from levelgen.ladders.geometry import board_crossings, jump_length
from levelgen.ladders.rules import OVERSHOOTS, Board, Rules, board_problems
from levelgen.ladders.spec import Design
from levelgen.ladders.steer import FloatChain, fewest_by_masks
from levelgen.puzzles import CreateError

from .reference import boards


@pytest.mark.parametrize(
    "values",
    [
        {"expected": "30:35"},
        {"overshoot": "bounce", "difficulty": "hard"},
        {"overshoot": "pass", "faces": 4, "size": "8x6", "expected": "18:24", "fewest": "4:"},
        {"size": "16x6", "snakes": 5, "ladders": 7, "difficulty": "easy", "final_snakes": "yes"},
    ],
)
def test_created_levels_meet_their_spec(values: dict[str, object]) -> None:
    spec = FAMILY.parse_spec(values)
    for seed in (1, 2):
        level = FAMILY.create(spec, seed)
        assert level.analysis is not None
        expected = parse_fraction(level.analysis.expected_rolls.fraction)
        low, high = spec.window
        assert (low is None or expected >= low) and (high is None or expected <= high)
        lo, hi = spec.fewest
        assert (lo is None or level.analysis.fewest_rolls >= lo) and (
            hi is None or level.analysis.fewest_rolls <= hi
        )
        assert len(level.board.snakes) == spec.snakes and len(level.board.ladders) == spec.ladders
        problems = design_rules_problems(level.board, level.rules, spec.design)
        assert problems == []
        assert level.generator is not None and level.generator.seed == seed


def test_same_seed_same_bytes() -> None:
    spec = FAMILY.parse_spec({"expected": "32:37"})
    first = format_json(FAMILY.dump(FAMILY.create(spec, 99)))
    again = format_json(FAMILY.dump(FAMILY.create(spec, 99)))
    other = format_json(FAMILY.dump(FAMILY.create(spec, 100)))
    assert first == again != other
    # From the parameters written in the file, the same level again.
    level = FAMILY.read(FAMILY.dump(FAMILY.create(spec, 99)))
    assert level.generator is not None
    params = dict(level.generator.parameters)
    remade = FAMILY.create(FAMILY.parse_spec(params), 99)
    assert format_json(FAMILY.dump(remade)) == first


def test_no_snake_on_the_final_squares_unless_asked() -> None:
    spec = FAMILY.parse_spec({"snakes": 12, "ladders": 4, "expected": "40:"})
    for seed in range(4):
        level = FAMILY.create(spec, seed)
        final = final_squares(10, 100, 6)
        assert not [a for a, _ in level.board.snakes if a in final]


def test_an_impossible_window_is_refused_with_its_option() -> None:
    spec = FAMILY.parse_spec({"size": "4x3", "snakes": 1, "ladders": 1, "expected": "1:1.5"})
    with pytest.raises(CreateError, match=r"^expected: no board with an expected length in"):
        FAMILY.create(spec, 1)


def test_generate_board_takes_the_first_accepted_board() -> None:
    spec = FAMILY.parse_spec({"expected": "30:35"})
    seen: list[Board] = []

    def accept(board: Board) -> Fraction | None:
        seen.append(board)
        return None if len(seen) < 2 else solve_board(board, Rules()).start.rolls  # type: ignore[union-attr]

    board = generate_board(spec, 5, accept=accept)
    assert board == seen[-1] and len(seen) >= 2


@pytest.mark.parametrize("overshoot", OVERSHOOTS)
@settings(max_examples=30, deadline=None)
@given(data=boards(max_side=7))
def test_bit_mask_fewest_against_the_chain(overshoot: str, data: tuple[Board, Rules]) -> None:
    board, rules = data[0], Rules(data[1].faces, overshoot)
    found = fewest_rolls(build_chain(board, rules))
    assert fewest_by_masks(board.squares, rules.faces, overshoot, board.jumps()) == (
        None if found is None else found[0]
    )


@pytest.mark.parametrize("overshoot", OVERSHOOTS)
def test_float_chain_follows_rank_one_changes(overshoot: str) -> None:
    rng = random.Random(3)
    spec = FAMILY.parse_spec({"overshoot": overshoot})
    level = FAMILY.create(spec, 4)
    rules = Rules(6, overshoot)
    chain = FloatChain(100, 6, overshoot)
    for a, b in (*level.board.ladders, *level.board.snakes):
        assert chain.apply(chain.change(a, a, b))
    start = solve_board(level.board, rules).start
    assert start is not None
    exact = float(start.rolls)
    assert float(chain.expected[0]) == pytest.approx(exact, rel=1e-9)
    # A candidate move evaluated without applying it: the same as solving the moved board.
    jumps = dict((*level.board.ladders, *level.board.snakes))
    for _ in range(10):
        start = rng.choice(sorted(jumps))
        end = jumps[start]
        new_end = end + rng.choice((-3, -2, 2, 3))
        moved = dict(jumps)
        moved[start] = new_end
        ladders = tuple(sorted((a, b) for a, b in moved.items() if b > a))
        snakes = tuple(sorted((a, b) for a, b in moved.items() if b < a))
        board = Board(10, 10, ladders, snakes)
        if board_problems(board, rules) or not 1 <= new_end <= 100:
            continue
        solved = solve_board(board, rules)
        value = chain.evaluate([chain.change(start, end, new_end)])
        if solved.start is None:
            assert value is None
        else:
            assert value == pytest.approx(float(solved.start.rolls), rel=1e-9)


def test_the_design_rules_name_what_a_board_breaks() -> None:
    from levelgen.ladders.bench import CHUTES_AND_LADDERS

    found = design_rules_problems(CHUTES_AND_LADDERS, Rules())
    assert "the jump 56 -> 53 is shorter than 10" in found
    assert "a snake starts on the final square 95" in found
    assert "a snake starts on the final square 98" in found
    # Milton Bradley's board: no ladders cross, 10 pairs with a snake do; two jumps of 6 rows.
    assert "10 pairs of a snake and a jump cross (at most 2)" in found
    assert "the jump 28 -> 84 is 7.2 rows long (at most 5)" in found
    assert "the jump 87 -> 24 is 6.7 rows long (at most 5)" in found
    assert not [line for line in found if "of ladders cross" in line]
    free = Design(final_snakes=True, snake_crossings=10, max_length=8)
    found = design_rules_problems(CHUTES_AND_LADDERS, Rules(), free)
    assert not [line for line in found if "final" in line or "cross" in line or "rows" in line]
    crowded = Board(10, 10, ((2, 40), (3, 50), (20, 60)), ((30, 5), (31, 6), (33, 7)))
    found = design_rules_problems(crowded, Rules())
    assert "jumps start on neighbouring squares 2 and 3" in found
    assert "a third of the board lacks a jump, a ladder or a snake" in found
    assert "a third of the board lacks" not in " ".join(
        design_rules_problems(crowded, Rules(), Design(thirds=False))
    )
    # Two ladders and a snake, none in the top third: fewer than three of a kind, but three
    # jumps, so each third needs one.
    low = Board(10, 10, ((2, 30), (40, 60)), ((50, 20),))
    assert "a third of the board lacks a jump, a ladder or a snake" in design_rules_problems(
        low, Rules()
    )
    shared = Board(10, 10, ((2, 40),), ((60, 40),))
    assert "two jumps share an end square" in design_rules_problems(shared, Rules())
    assert design_rules_problems(shared, Rules(), Design(shared_ends=True)) == []
    crossed = Board(10, 10, ((2, 39), (9, 32)), ())  # columns 1 -> 2 and 8 -> 7: no cross
    assert design_rules_problems(crossed, Rules()) == []
    crossed = Board(10, 10, ((2, 32), (9, 39)), ())  # columns 1 -> 8 and 8 -> 1: they cross
    assert "1 pair of ladders cross (at most 0)" in design_rules_problems(crossed, Rules())


def test_the_layout_rules_on_100_seeds() -> None:
    """The issue's board (10x10, 8 snakes, 8 ladders, expected 30:40) with the default layout
    rules, seeds 0..99: no ladders cross, at most 2 pairs with a snake do, no jump spans more
    than 5 rows long, no two jumps share a square, a jump starts in each third, and the expected
    length is in the window.  (About 40 ms a board.)"""
    spec = FAMILY.parse_spec({"snakes": 8, "ladders": 8, "expected": "30:40"})
    rules = Rules()
    for seed in range(100):
        board = generate_board(spec, seed, accept=lambda b: _exact(b, rules))
        ladder_ladder, ladder_snake, snake_snake = board_crossings(board)
        assert ladder_ladder == 0, seed
        assert ladder_snake + snake_snake <= 2, seed
        jumps = [*board.ladders, *board.snakes]
        assert max(jump_length(a, b, 10, 10) for a, b in jumps) <= 5, seed
        squares = [s for jump in jumps for s in jump]
        assert len(set(squares)) == len(squares), seed
        assert {min(2, 3 * (a - 1) // 100) for a, _ in jumps} == {0, 1, 2}, seed
        expected = _exact(board, rules)
        assert expected is not None and 30 <= expected <= 40, seed
        assert design_rules_problems(board, rules, spec.design) == [], seed


def _exact(board: Board, rules: Rules) -> Fraction | None:
    start = solve_board(board, rules).start
    return None if start is None else start.rolls


def test_layout_rules_given_are_kept() -> None:
    spec = FAMILY.parse_spec(
        {"expected": "28:38", "max_length": 3, "snake_crossings": 0, "shared_ends": "yes"}
    )
    for seed in range(5):
        level = FAMILY.create(spec, seed)
        assert board_crossings(level.board) == (0, 0, 0)
        jumps = [*level.board.ladders, *level.board.snakes]
        assert max(jump_length(a, b, 10, 10) for a, b in jumps) <= 3
        assert design_rules_problems(level.board, level.rules, spec.design) == []
        assert level.generator is not None
        params = level.generator.parameters
        assert (params["max_length"], params["snake_crossings"], params["shared_ends"]) == (
            3,
            0,
            True,
        )
        assert (params["ladder_crossings"], params["thirds"]) == (0, True)


def test_no_layout_keeps_the_rules() -> None:
    # Seven jumps on 8x4, each at most one row long and four squares or more, none crossing:
    # the search finds no such layout from seed 1.
    spec = FAMILY.parse_spec(
        {
            "size": "8x4",
            "snakes": 4,
            "ladders": 3,
            "max_length": 1,
            "snake_crossings": 0,
            "expected": "1:",
        }
    )
    with pytest.raises(CreateError, match=r"^max_length: no layout of 4 snakes and 3 ladders"):
        FAMILY.create(spec, 1)


def test_the_refusal_names_the_target_given() -> None:
    # Only --fewest was given: the window is the default band's, and it says so.
    spec = FAMILY.parse_spec({"fewest": "50:"})
    with pytest.raises(CreateError) as caught:
        FAMILY.create(spec, 1)
    text = str(caught.value)
    assert text.startswith("fewest: no board with an expected length in the medium band (30:40)")
    assert "fewest rolls 50:" in text


def test_the_thirds_placed_are_the_thirds_checked() -> None:
    for n in (6, 10, 64, 100, 101, 1024):
        for third in range(3):
            first, last = third_squares(third, n)
            found = [s for s in range(1, n + 1) if third_of(s, n) == third]
            assert found == list(range(first, last + 1))
