"""The create spec: defaults, strict values from the command line (strings) and over HTTP
(JSON values), each refusal naming its option, bands and ramps."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from levelgen.ladders.spec import band_of, band_window, parse_spec, ramp_specs
from levelgen.puzzles import SpecError


def test_defaults() -> None:
    spec = parse_spec({})
    assert (spec.width, spec.height, spec.snakes, spec.ladders, spec.faces) == (10, 10, 8, 8, 6)
    assert spec.overshoot == "exact" and spec.difficulty == "medium"
    assert spec.window == (Fraction(30), Fraction(40))
    assert spec.fewest == (6, None)
    assert parse_spec(spec.parameters()) == spec
    assert (spec.ladder_crossings, spec.snake_crossings, spec.max_length) == (0, 2, 5)
    assert not spec.shared_ends and spec.thirds
    assert parse_spec({"size": "16x6"}).max_length == 3
    assert parse_spec({"size": "12x7"}).max_length == 4
    # One row of 12: a jump of 2 squares (the shortest) is 2 rows long, more than half a row.
    assert parse_spec({"size": "12x1"}).max_length == 2


def test_layout_rules_from_strings_and_json() -> None:
    cli = parse_spec(
        {
            "ladder_crossings": "1",
            "snake_crossings": "0",
            "max_length": "3",
            "shared_ends": "yes",
            "thirds": "no",
        }
    )
    http = parse_spec(
        {
            "ladder_crossings": 1,
            "snake_crossings": 0,
            "max_length": 3,
            "shared_ends": True,
            "thirds": False,
        }
    )
    assert cli == http
    assert (cli.ladder_crossings, cli.snake_crossings, cli.max_length) == (1, 0, 3)
    assert cli.shared_ends and not cli.thirds
    assert parse_spec(cli.parameters()) == cli


def test_a_length_that_admits_no_jump_contradicts_the_shortest_jump() -> None:
    # 30x4: the shortest jump is 12 squares; one row up at the turn of the rows is enough.
    assert parse_spec({"size": "30x4", "max_length": 1}).max_length == 1
    # 1x30: squares one row apart differ by 1, and the shortest jump is 3.
    with pytest.raises(SpecError, match="the generator's shortest jump") as caught:
        parse_spec({"size": "1x30", "max_length": 2})
    assert caught.value.option == "max_length"
    assert parse_spec({"size": "1x30", "max_length": 3}).max_length == 3


@pytest.mark.parametrize(
    ("values", "option"),
    [
        ({"snakes": True}, "snakes"),
        ({"faces": 1.5}, "faces"),
        ({"faces": "six"}, "faces"),
        ({"faces": 21}, "faces"),
        ({"size": "2x1", "faces": 6}, "faces"),
        ({"size": "40x40"}, "size"),
        ({"size": 10}, "size"),
        ({"colour": "red"}, "colour"),
        ({"overshoot": "wrap"}, "overshoot"),
        ({"difficulty": "insane"}, "difficulty"),
        ({"difficulty": "easy", "expected": "20:30"}, "expected"),
        ({"expected": "35"}, "expected"),
        ({"expected": "40:30"}, "expected"),
        ({"expected": "0.5:3"}, "expected"),
        ({"expected": "nan:3"}, "expected"),
        ({"fewest": "9:3"}, "fewest"),
        ({"fewest": True}, "fewest"),
        ({"fewest": "0:"}, "fewest"),
        ({"snakes": 20, "ladders": 20}, "snakes"),
        ({"final_snakes": "maybe"}, "final_snakes"),
        ({"ladder_crossings": -1}, "ladder_crossings"),
        ({"ladder_crossings": "some"}, "ladder_crossings"),
        ({"snake_crossings": 1.5}, "snake_crossings"),
        ({"max_length": 0}, "max_length"),
        ({"max_length": 65}, "max_length"),
        ({"max_length": True}, "max_length"),
        ({"shared_ends": "perhaps"}, "shared_ends"),
        ({"thirds": 3}, "thirds"),
        ({"seed": -1}, "seed"),
    ],
)
def test_refusals_name_their_option(values: dict[str, Any], option: str) -> None:
    with pytest.raises(SpecError) as caught:
        parse_spec(values)
    assert caught.value.option == option


def test_windows_and_bounds() -> None:
    spec = parse_spec({"expected": "30.5:", "fewest": ":9"})
    assert spec.window == (Fraction(61, 2), None)
    assert spec.fewest == (None, 9)
    assert spec.expected == "30.5:"
    assert parse_spec({"fewest": 7}).fewest == (7, 7)
    assert parse_spec({"fewest": "7"}).fewest == (7, 7)
    assert parse_spec({"expected": ":", "difficulty": None}).window == (None, None)


def test_bands() -> None:
    assert band_window("easy", 100, 6) == (Fraction(20), Fraction(30))
    assert band_window("hard", 100, 6) == (Fraction(40), Fraction(543, 10))
    assert band_window("expert", 100, 6) == (Fraction(543, 10), Fraction(743, 10))
    assert band_of(25.0, 100, 6) == "easy"
    assert band_of(39.2, 100, 6) == "medium"
    assert band_of(60.0, 100, 6) == "expert"
    assert band_of(300.0, 100, 6) == "expert"


def test_ramp_rises_from_band_to_band() -> None:
    specs = [parse_spec(values) for values in ramp_specs({"size": "10x10"}, 5, "easy", "hard")]
    lows = [s.window[0] for s in specs]
    assert lows == sorted(lows)
    first, last = specs[0].window, specs[-1].window
    assert first[0] == 20 and last[1] == Fraction(543, 10)
    assert all(s.window[1] is not None and s.window[0] is not None for s in specs)
    with pytest.raises(SpecError):
        ramp_specs({"expected": "30:40"}, 3, "easy", "hard")
    with pytest.raises(SpecError):
        ramp_specs({}, 3, "hard", "easy")
