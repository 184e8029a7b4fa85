"""The snakes-and-ladders difficulty block: exact measures, the score, create and verify."""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path

import pytest

from levelgen.formats import parse_json
from levelgen.formats.difficulty import BANDS, band_of
from levelgen.ladders import FAMILY
from levelgen.ladders.files import Level, dump_level, parse_level
from levelgen.ladders.rating import rate_level, score_of, target_rolls
from levelgen.ladders.rules import Board, Rules
from levelgen.ladders.spec import band_of as expected_band
from levelgen.puzzles import Budget, DocumentError

ROOT = Path(__file__).resolve().parents[2]
#: A wall of snakes below square 14: the game from square 0 never ends.
TRAP = Board(5, 4, (), ((14, 1), (15, 2), (16, 3), (17, 4), (18, 5), (19, 6)))


def _level(name: str = "ladders_chutes_10x10.json") -> Level:
    return parse_level(parse_json((ROOT / "levels" / name).read_text(encoding="utf-8")))


@pytest.mark.parametrize(
    "name",
    ["ladders_chutes_10x10.json", "ladders_medium_10x10.json", "ladders_wide_16x6.json"],
)
def test_the_block_agrees_with_the_exact_analysis(name: str) -> None:
    level = _level(name)
    rated = rate_level(level)
    block = rated.difficulty
    assert block is not None and level.analysis is not None
    squares, faces = level.board.squares, level.rules.faces
    assert block.measures["expected"] == level.analysis.expected_rolls.value
    target = target_rolls(squares, faces)
    assert block.measures["target_rolls"] == target
    # the chance to finish within the target is the analysis's distribution at that roll
    assert block.measures["chance_within"] == pytest.approx(
        level.analysis.distribution[target - 1], abs=1e-4
    )
    assert 0 <= block.score <= 100 and block.band == band_of(block.score)
    assert block.band == expected_band(block.measures["expected"], squares, faces)
    assert block.score == score_of(block.measures, squares, faces)


def test_target_rolls() -> None:
    assert target_rolls(100, 6) == 40
    assert target_rolls(96, 4) == math.ceil(1.4 * 2 * 96 / 5)


def test_scores_rise_with_the_expected_length_and_fall_with_the_chance() -> None:
    previous = -1.0
    for expected in range(10, 90):
        score = score_of({"expected": expected, "chance_within": 0.5}, 100, 6)
        assert score >= previous
        previous = score
    for expected in (22.0, 35.0, 45.0, 60.0):
        scores = [
            score_of({"expected": expected, "chance_within": c}, 100, 6)
            for c in (1.0, 0.75, 0.5, 0.25, 0.0)
        ]
        assert scores == sorted(scores) and scores[0] < scores[-1]


@pytest.mark.parametrize("band", BANDS)
def test_create_by_band_carries_the_block_of_that_band(band: str) -> None:
    level = FAMILY.create(FAMILY.parse_spec({"difficulty": band}), 3)
    data = dump_level(level)
    block = data["metrics"]["difficulty"]
    assert block["band"] == band == band_of(block["score"])
    again = parse_level(data)
    assert again.difficulty == level.difficulty
    assert FAMILY.difficulty(again) == (block["score"], band)
    assert FAMILY.verify(again, prove=False, budget=Budget()).status == "ok"


def test_a_plain_create_has_no_block() -> None:
    for values in ({}, {"expected": "30:35"}):
        level = FAMILY.create(FAMILY.parse_spec(values), 3)
        assert "metrics" not in dump_level(level)


def test_a_game_that_may_never_end_is_refused() -> None:
    level = Level(TRAP, Rules())
    with pytest.raises(DocumentError) as caught:
        FAMILY.rate(level, seed=0)
    assert not caught.value.is_format
    assert caught.value.problems[0].pointer == "/board"
    assert FAMILY.difficulty(level) == (100.0, "expert")


def test_verify_finds_a_block_that_contradicts_itself() -> None:
    data = dump_level(rate_level(_level()))
    block = data["metrics"]["difficulty"]
    for change, pointer in (
        ({"band": "expert"}, "/metrics/difficulty/band"),
        ({"score": 20.0 if block["score"] < 20 else 15.0}, "/metrics/difficulty/score"),
        (
            {"measures": {**block["measures"], "expected": 30.0}},
            "/metrics/difficulty/measures/expected",
        ),
    ):
        bad = {**data, "metrics": {"difficulty": {**block, **change}}}
        verdict = FAMILY.verify(parse_level(bad), prove=False, budget=Budget())
        assert verdict.status == "invalid"
        assert pointer in [p.pointer for p in verdict.problems]


def test_solve_keeps_the_block() -> None:
    rated = rate_level(_level())
    bare = dataclasses.replace(rated, analysis=None)
    solved = FAMILY.solve(bare, budget=Budget())
    assert solved.document is not None and solved.document.difficulty == rated.difficulty


def test_the_schema_refuses_a_bad_block() -> None:
    data = dump_level(rate_level(_level()))
    data["metrics"]["difficulty"]["band"] = "impossible"
    with pytest.raises(DocumentError) as caught:
        parse_level(data)
    assert caught.value.problems[0].pointer == "/metrics/difficulty/band"


def test_recorded_parameters_make_the_level_again_with_or_without_its_block() -> None:
    for values in ({}, {"difficulty": "easy"}):
        level = FAMILY.create(FAMILY.parse_spec(values), 4)
        data = dump_level(level)
        assert ("metrics" in data) == ("difficulty" in values)
        again = FAMILY.create(FAMILY.parse_spec(data["generator"]["parameters"]), 4)
        assert dump_level(again) == data
