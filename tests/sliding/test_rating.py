"""The sliding puzzle's difficulty block: the greedy player, the score, create and verify."""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import given, settings

from levelgen.formats.difficulty import BANDS, band_of
from levelgen.puzzles import Budget, DocumentError, SpecError, family
from levelgen.sliding.generate import create_level
from levelgen.sliding.level import SlidingLevel
from levelgen.sliding.rating import (
    LOOKAHEAD,
    PlayResult,
    move_cap,
    play,
    rate,
    rate_level,
    score_of,
)
from levelgen.sliding.rules import BLANK, Frame
from levelgen.sliding.spec import band_of as length_band
from levelgen.sliding.spec import bands_for, parse_spec

from .strategies import puzzles

FAMILY = family("sliding-puzzle")


def _h(frame: Frame, goal: Frame) -> int:
    """The player's heuristic, the plain way: each tile's distance to the nearest goal cell of
    its label."""
    w = frame.width
    total = 0
    for cell, label in enumerate(frame.cells):
        if label == BLANK:
            continue
        total += min(
            abs(cell % w - g % w) + abs(cell // w - g // w)
            for g, other in enumerate(goal.cells)
            if other == label
        )
    return total


_BACK = {"U": "D", "D": "U", "L": "R", "R": "L"}


def reference_play(start: Frame, goal: Frame, cap: int, rng: random.Random) -> PlayResult:
    """The player of :mod:`levelgen.sliding.rating` written with frames and full heuristics."""
    assert LOOKAHEAD == 2
    frame, back = start, ""
    seen = {start: 1}
    for made in range(cap):
        if frame == goal:
            return PlayResult(True, made)
        now = _h(frame, goal)
        choices = []
        for move, after in frame.neighbours():
            if move == back:
                continue
            ahead = [_h(after, goal)]
            ahead += [_h(two, goal) for m2, two in after.neighbours() if m2 != _BACK[move]]
            choices.append((seen.get(after, 0), min(ahead) - now, move, after))
        least = min((v, value) for v, value, _, _ in choices)
        best = [(m, a) for v, value, m, a in choices if (v, value) == least]
        move, frame = best[rng.randrange(len(best))] if len(best) > 1 else best[0]
        back = _BACK[move]
        seen[frame] = seen.get(frame, 0) + 1
    return PlayResult(frame == goal, cap)


@settings(max_examples=60, deadline=None)
@given(puzzles(max_cells=12, numbered_cells=12))
def test_the_player_is_the_reference_player(case: tuple[Frame, Frame]) -> None:
    start, goal = case
    for seed in range(2):
        cap = 40
        fast = play(start, goal, cap=cap, rng=random.Random(seed))
        slow = reference_play(start, goal, cap, random.Random(seed))
        assert fast == slow


def test_the_player_at_the_goal_and_next_to_it() -> None:
    goal = Frame.from_rows([[1, 2, 3], [4, 5, 6], [7, 8, 0]])
    assert play(goal, goal, cap=5, rng=random.Random(0)) == PlayResult(True, 0)
    near = goal.move("U")
    assert play(near, goal, cap=5, rng=random.Random(0)) == PlayResult(True, 1)
    assert play(near, goal, cap=0, rng=random.Random(0)) == PlayResult(False, 0)


def _level(size: str, moves: int, seed: int = 0) -> SlidingLevel:
    return create_level(parse_spec({"size": size, "moves": moves}), seed)


def test_create_by_band_carries_the_block_of_that_band() -> None:
    for band in BANDS:
        level = FAMILY.create(FAMILY.parse_spec({"size": "3x3", "difficulty": band}), 7)
        data = FAMILY.dump(level)
        block = data["metrics"]["difficulty"]
        assert block["band"] == band == band_of(block["score"]) == data["metrics"]["band"]
        assert 0 <= block["score"] <= 100
        assert FAMILY.difficulty(FAMILY.read(data)) == (block["score"], band)
        verdict = FAMILY.verify(FAMILY.read(data), prove=False, budget=Budget(), options={})
        assert verdict.status == "ok", verdict.text


def test_a_plain_create_has_no_block() -> None:
    level = FAMILY.create(FAMILY.parse_spec({"size": "3x3"}), 7)
    assert "difficulty" not in FAMILY.dump(level)["metrics"]
    level = FAMILY.create(FAMILY.parse_spec({"size": "3x3", "moves": 12}), 7)
    assert "difficulty" not in FAMILY.dump(level)["metrics"]


def test_scores_rise_with_the_optimal_length() -> None:
    bands = bands_for(3, 3, True)
    lengths = [lo for lo, _ in bands] + [bands[-1][1]]
    scores = [FAMILY.difficulty(FAMILY.rate(_level("3x3", n), seed=0))[0] for n in lengths]
    assert scores == sorted(scores) and len(set(scores)) == len(scores)
    for n in range(1, 31):
        few = score_of({"optimal_length": n, "finish_rate": 0.5}, 3, 3, True)
        more = score_of({"optimal_length": n + 1, "finish_rate": 0.5}, 3, 3, True)
        assert few <= more
        # the band of the score is the band of the length
        assert band_of(few) == _length_band(n)


def _length_band(n: int) -> str:
    return length_band(n, 3, 3, True)


def test_a_player_who_fails_more_scores_higher() -> None:
    for n in (5, 15, 20, 28):
        rates = [1.0, 0.75, 0.5, 0.25, 0.0]
        scores = [score_of({"optimal_length": n, "finish_rate": r}, 3, 3, True) for r in rates]
        assert scores == sorted(scores) and scores[0] < scores[-1]


def test_the_block_is_seeded_and_measured() -> None:
    level = _level("4x4", 30, seed=2)
    block = rate(level.start, level.goal, 30, seed=5)
    again = rate(level.start, level.goal, 30, seed=5)
    assert block == again
    assert block.measures["move_cap"] == move_cap(30, 4, 4)
    assert block.measures["optimal_length"] == 30
    assert 0 <= block.measures["finish_rate"] <= 1


def test_rate_solves_a_level_without_certificate() -> None:
    level = _level("3x3", 14)
    bare = dataclasses.replace(level, solution=None, metrics=None)
    rated = rate_level(bare, seed=0)
    assert rated.metrics is not None and rated.metrics.optimal_length == 14
    assert rated.metrics.difficulty is not None
    assert rated.metrics.difficulty.band == rated.metrics.band


def test_rate_refuses_a_wrong_certificate() -> None:
    level = _level("3x3", 14)
    wrong = dataclasses.replace(level, solution="UU")
    with pytest.raises(DocumentError) as caught:
        FAMILY.rate(wrong, seed=0)
    assert not caught.value.is_format
    assert caught.value.problems[0].pointer == "/solution"


def test_verify_finds_a_block_that_contradicts_itself() -> None:
    data = FAMILY.dump(FAMILY.rate(_level("3x3", 20), seed=0))
    block = data["metrics"]["difficulty"]
    for change, pointer in (
        ({"band": "easy"}, "/metrics/difficulty/band"),
        ({"score": 40.0 if block["score"] < 40 else 30.0}, "/metrics/difficulty/score"),
        (
            {"measures": {**block["measures"], "optimal_length": 21.0}},
            "/metrics/difficulty/measures/optimal_length",
        ),
    ):
        bad = {**data, "metrics": {**data["metrics"], "difficulty": {**block, **change}}}
        verdict = FAMILY.verify(FAMILY.read(bad), prove=False, budget=Budget(), options={})
        assert verdict.status == "invalid"
        assert pointer in [p.pointer for p in verdict.problems]


def test_the_schema_refuses_a_score_out_of_range() -> None:
    data = FAMILY.dump(FAMILY.rate(_level("3x3", 20), seed=0))
    data["metrics"]["difficulty"]["score"] = 101
    with pytest.raises(DocumentError) as caught:
        FAMILY.read(data)
    assert caught.value.problems[0].pointer == "/metrics/difficulty/score"


def test_recorded_parameters_make_the_level_again_with_or_without_its_block() -> None:
    for values in ({"size": "3x3"}, {"size": "3x3", "difficulty": "hard"}):
        level = FAMILY.create(FAMILY.parse_spec(values), 11)
        data = FAMILY.dump(level)
        assert ("difficulty" in data["metrics"]) == ("difficulty" in values)
        assert data["generator"]["parameters"].get("rated") == ("difficulty" in values or None)
        again = FAMILY.create(FAMILY.parse_spec(data["generator"]["parameters"]), 11)
        assert FAMILY.dump(again) == data
    with pytest.raises(SpecError) as caught:
        FAMILY.parse_spec({"rated": "maybe"})
    assert caught.value.option == "rated"
