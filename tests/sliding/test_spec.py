"""Create specs: every option checked strictly with the option named, the bands of each size,
and ramps."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from levelgen.puzzles import SpecError
from levelgen.sliding.rules import Frame
from levelgen.sliding.spec import BANDS, band_of, bands_for, first_bands, parse_spec, ramp


def test_defaults_and_values() -> None:
    spec = parse_spec({})
    assert (spec.width, spec.height, spec.moves, spec.difficulty, spec.colors, spec.goal) == (
        4,
        4,
        None,
        "medium",
        None,
        None,
    )
    spec = parse_spec({"size": "5x3", "moves": "12", "colors": 3})
    assert (spec.width, spec.height, spec.moves, spec.colors) == (5, 3, 12, 3)
    assert not spec.numbered
    goal = [[1, 1, 2], [2, 0, 1]]
    spec = parse_spec({"goal": goal, "difficulty": "easy", "size": None})
    assert spec.goal == Frame.from_rows(goal) and (spec.width, spec.height) == (3, 2)
    assert spec.parameters()["goal"] == goal


BAD: list[tuple[dict[str, Any], str, str]] = [
    ({"moves": True}, "moves", "got true"),
    ({"moves": 2.0}, "moves", "got the number 2.0"),
    ({"moves": "ten"}, "moves", "got 'ten'"),
    ({"moves": 0}, "moves", "1..74"),
    ({"moves": 75}, "moves", "1..74 (what levelgen can prove)"),
    ({"size": "3x3", "moves": 32}, "moves", "1..31 (its largest distance)"),
    ({"size": "3x4", "moves": 54}, "moves", "1..53 (its largest distance)"),
    ({"size": "3x3", "colors": 2, "moves": 32}, "moves", "1..31"),
    ({"goal": {"game": "linkup"}}, "goal", "got a 'linkup' file"),
    ({"goal": {"width": 3}}, "goal", "got an object without a game"),
    ({"goal": {"game": "sliding-puzzle"}}, "goal", "has no goal (/goal)"),
    ({"moves": 10, "difficulty": "easy"}, "difficulty", "not both"),
    ({"difficulty": "impossible"}, "difficulty", "expected one of"),
    ({"size": 4}, "size", "got int"),
    ({"size": "9x9"}, "size", "2..8"),
    ({"size": "4by4"}, "size", "WIDTHxHEIGHT"),
    ({"colors": 1}, "colors", "2..7"),
    ({"colors": 8}, "colors", "2..7"),
    ({"size": "2x2", "colors": 3}, "colors", "2..2"),
    ({"colors": False}, "colors", "got false"),
    ({"goal": "1 2 0"}, "goal", "expected rows"),
    ({"goal": [[1, True], [2, 0]]}, "goal", "expected a label, got true"),
    ({"goal": [[1, 2], [3, 4]]}, "goal", "exactly one blank"),
    ({"goal": [[1, 2], [3, 0]], "size": "3x3"}, "goal", "the goal is 2x2 but size is 3x3"),
    ({"goal": [[1, 2], [3, 0]], "colors": 2}, "colors", "leave colors out"),
    ({"seed": 3}, "seed", "unknown option"),
    ({"colours": 2}, "colours", "unknown option"),
]


@pytest.mark.parametrize(("values", "option", "words"), BAD)
def test_bad_options_name_themselves(values: dict[str, Any], option: str, words: str) -> None:
    with pytest.raises(SpecError) as err:
        parse_spec(values)
    assert err.value.option == option
    assert words in err.value.reason


def test_moves_are_checked_against_the_sizes_largest_distance() -> None:
    with pytest.raises(SpecError, match=r"1\.\.21 \(its largest distance\)"):
        parse_spec({"size": "3x2", "moves": 22})
    assert parse_spec({"size": "3x2", "moves": 21}).moves == 21


def test_bands_cover_ranges_without_gaps() -> None:
    for w in range(2, 9):
        for h in range(2, 9):
            for numbered in (True, False):
                bands = bands_for(w, h, numbered)
                assert len(bands) == 4
                for (lo, hi), (nlo, _) in itertools.pairwise(bands):
                    assert lo <= hi and nlo == hi + 1
                assert bands[0][0] >= 1
    # The expert bands reach the boards' largest distances (66 on 4x4); below them nothing moved.
    assert bands_for(4, 4, True) == ((10, 20), (21, 32), (33, 44), (45, 66))
    assert first_bands(4, 4, True) == ((10, 20), (21, 32), (33, 44), (45, 55))
    assert bands_for(3, 3, True)[-1] == (24, 31) and bands_for(4, 3, True)[-1][1] == 53
    assert bands_for(3, 3, False) == first_bands(3, 3, False)
    assert bands_for(3, 2, True) == bands_for(2, 3, True)
    assert band_of(40, 4, 4, True) == "hard"
    assert band_of(1, 4, 4, True) == "easy" and band_of(70, 4, 4, True) == "expert"


def test_ramps_rise_from_low_to_high() -> None:
    specs = [parse_spec(v) for v in ramp({"size": "3x3", "moves": 5}, 5, "easy", "hard")]
    assert [s.moves for s in specs] == [4, 9, 14, 18, 23]
    assert all(s.difficulty is None for s in specs)
    assert [v["moves"] for v in ramp({}, 1, "expert", "expert")] == [45]
    with pytest.raises(SpecError) as err:
        ramp({}, 3, "hard", "easy")
    assert err.value.option == "high"
    with pytest.raises(SpecError):
        ramp({}, 0, "easy", "easy")
    assert BANDS == ("easy", "medium", "hard", "expert")
