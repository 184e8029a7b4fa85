"""The level file: the checked-in JSON Schema is the models' (and validates the sample levels),
bad files get one-line problems with JSON pointers (format problems apart from game problems),
and writing then reading gives the same level."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from levelgen.formats import format_json, parse_json
from levelgen.puzzles import DocumentError
from levelgen.sliding import FAMILY
from levelgen.sliding.schema import dump_level, level_json_schema, parse_level

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = ROOT / "schemas" / "sliding-puzzle.level.v1.schema.json"
LEVELS = sorted((ROOT / "levels").glob("sliding_*.json"))

GOOD: dict[str, Any] = {
    "$schema": "urn:levelgen:schema:sliding-puzzle:level:v1",
    "game": "sliding-puzzle",
    "format_version": 1,
    "width": 3,
    "height": 2,
    "start": [[1, 2, 3], [4, 0, 5]],
    "goal": [[1, 2, 3], [4, 5, 0]],
    "solution": "R",
}


def test_the_checked_in_schema_is_the_models() -> None:
    assert SCHEMA.read_text(encoding="utf-8") == format_json(level_json_schema())
    assert FAMILY.schemas["level"].file_name == SCHEMA.name


def test_sample_levels_validate_against_the_schema_and_round_trip() -> None:
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    assert len(LEVELS) >= 5
    for path in LEVELS:
        text = path.read_text(encoding="utf-8")
        data = parse_json(text, str(path))
        jsonschema.validate(data, schema)
        level = parse_level(data)
        assert format_json(dump_level(level)) == text


def _problem(data: object) -> DocumentError:
    with pytest.raises(DocumentError) as err:
        parse_level(data)
    assert len(str(err.value).splitlines()) == 1
    return err.value


def _with(**changes: Any) -> dict[str, Any]:
    data = copy.deepcopy(GOOD)
    for key, value in changes.items():
        if value is None:
            del data[key]
        else:
            data[key] = value
    return data


FORMAT_CASES = [
    (_with(game="linkup"), "/game", "expected 'sliding-puzzle'"),
    (_with(format_version=True), "/format_version", "expected the integer 1"),
    (_with(width=True), "/width", "expected an integer, got true"),
    (_with(width=9), "/width", "9 is over the limit of 8"),
    (_with(start=[[1, 2, 3], [4, 0, 5.0]]), "/start/1/2", "expected an integer, got 5.0"),
    (_with(start=[[1, 2, 3], [4, 0, "5"]]), "/start/1/2", "expected an integer"),
    (_with(goal=None), "/goal", "required field is missing"),
    (_with(extra=1), "/extra", "unknown field"),
    (_with(solution="RX"), "/solution", "'X' is not a move"),
    (_with(id="sha256:xyz"), "/id", "sha256"),
    (_with(start=[[1, 2, 3], [4, 0]]), "/start/1", "2 cells, but width is 3"),
    (_with(start=[[1, 2, 3]]), "/start", "at least 2 items"),
    (_with(goal=[[1, 2, 3], [4, 5, 0], [6, 7, 8]]), "/goal", "3 rows, but height is 2"),
    (_with(start=[[1, 2, 3], [4, 0, 65]]), "/start/1/2", "65 is over the limit of 64"),
    (_with(metrics={"optimal_length": 1}), "/metrics/solutions_cap", "required field"),
    ([1, 2], "", "expected a JSON object, got an array"),
]


@pytest.mark.parametrize(("data", "pointer", "words"), FORMAT_CASES)
def test_format_problems_name_the_place(data: object, pointer: str, words: str) -> None:
    err = _problem(data)
    assert err.is_format
    assert err.problems[0].pointer == pointer
    assert words in err.problems[0].message


GAME_CASES = [
    (_with(start=[[1, 2, 0], [4, 0, 5]]), "/start/1/1", "a second blank"),
    (_with(start=[[1, 2, 3], [4, 6, 5]]), "/start", "no blank"),
    (_with(goal=[[1, 2, 3], [4, 6, 0]]), "/goal", "other labels than the start: label 5"),
    (_with(goal=[[1, 2, 3], [4, 4, 0]]), "/goal", "label 4 appears twice here and once"),
    (_with(solution="RR"), "/solution", "move 1 ('R') takes the blank off the board"),
    (_with(solution="D"), "/solution", "move 0 ('D') takes the blank off the board"),
    (_with(played="UU"), "/played", "move 1 ('U') takes the blank off the board"),
    (_with(current=[[1, 2, 3], [4, 5, 0]], played="L"), "/current", "is not the frame"),
    (_with(current=[[1, 2, 3], [4, 5, 5]]), "/current", "no blank"),
    (_with(current=[[1, 2, 3], [4, 6, 0]]), "/current", "other labels"),
]


@pytest.mark.parametrize(("data", "pointer", "words"), GAME_CASES)
def test_game_problems_are_not_format_problems(data: object, pointer: str, words: str) -> None:
    err = _problem(data)
    assert not err.is_format
    assert err.problems[0].pointer == pointer
    assert words in err.problems[0].message


def test_positions_read_and_write() -> None:
    level = parse_level(_with(played="L", current=[[1, 2, 3], [0, 4, 5]]))
    assert level.is_position
    assert level.frame_now().rows() == [[1, 2, 3], [0, 4, 5]]
    again = parse_level(dump_level(level))
    assert again.played == "L" and again.current == level.current


def test_ids_are_of_the_content_only() -> None:
    a = parse_level(GOOD)
    b = parse_level(_with(solution=None, generator={"name": "x", "version": "1"}))
    assert dump_level(a)["id"] == dump_level(b)["id"]
    c = parse_level(_with(goal=[[1, 2, 3], [0, 4, 5]], solution="L"))
    assert dump_level(c)["id"] != dump_level(a)["id"]


def test_generator_parameters_take_scalars_and_frames_only() -> None:
    ok = _with(
        generator={
            "name": "levelgen",
            "version": "1",
            "seed": 3,
            "parameters": {"size": "3x2", "goal": [[1, 2, 3], [4, 5, 0]], "moves": None, "x": 1.5},
        }
    )
    assert parse_level(ok).generator is not None
    bad = _with(generator={"name": "levelgen", "version": "1", "parameters": {"x": {"a": 1}}})
    err = _problem(bad)
    assert err.problems[0].pointer == "/generator/parameters/x"
