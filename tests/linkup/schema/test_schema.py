"""The level file models: round trips, strictness, JSON pointers, the checked-in JSON Schema."""

from __future__ import annotations

import copy
import json
from typing import Any

import jsonschema
import pytest

from levelgen.linkup.core.board import Board
from levelgen.linkup.core.geometry import Size
from levelgen.linkup.core.level import Level
from levelgen.linkup.core.rules import Rules
from levelgen.linkup.files import format_level
from levelgen.linkup.generate.generator import generate
from levelgen.linkup.schema import (
    SCHEMA_URI,
    LevelFile,
    LevelFormatError,
    content_id,
    level_json_schema,
    level_problems,
    parse_level_data,
)
from tests import ROOT

SCHEMA_PATH = ROOT / "schemas" / "level.v1.schema.json"


SMALL = Size(6, 4)


def level_data(seed: int = 1, size: Size = SMALL, **kwargs: Any) -> dict[str, Any]:
    """A generated level as its JSON value."""
    data: dict[str, Any] = json.loads(format_level(generate(size, seed=seed, **kwargs)))
    return data


def problems_of(data: object) -> list[tuple[str, str]]:
    with pytest.raises(LevelFormatError) as info:
        parse_level_data(data)
    return [(p.pointer, p.message) for p in info.value.problems]


def test_round_trip_core_file_core() -> None:
    level = generate(Size(6, 4), seed=3, rules=Rules(2, False))
    file = LevelFile.from_core(level)
    again = parse_level_data(json.loads(json.dumps(file.to_data()))).to_core()
    assert again == level
    assert file.to_data()["$schema"] == SCHEMA_URI
    assert list(file.to_data())[:4] == ["$schema", "game", "format_version", "id"]


def test_hand_made_level_needs_only_game_version_rules_board() -> None:
    data = {
        "game": "linkup",
        "format_version": 1,
        "rules": {"max_turns": 2, "outside": True},
        "board": {"width": 4, "height": 1, "rows": [[1, 1, 0, -1]]},
    }
    level = parse_level_data(data).to_core()
    assert level.board == Board.from_rows(["11.#"])
    assert level.solution is None and level.metrics is None and level.generator is None
    assert parse_level_data({**data, "solution": None}).solution is None


def test_content_id_depends_only_on_board_and_rules() -> None:
    a = level_data(seed=5)
    b = copy.deepcopy(a)
    b["generator"]["seed"] = 99
    b["solution"] = None
    assert parse_level_data(a).id == parse_level_data(b).id
    board = Board.from_grid(a["board"]["rows"])
    assert a["id"] == content_id(board, Rules(**a["rules"]))
    assert a["id"] != content_id(board, Rules(2, not a["rules"]["outside"]))
    assert a["id"].startswith("sha256:") and len(a["id"]) == 7 + 64


@pytest.mark.parametrize(
    ("where", "value", "pointer", "reason"),
    [
        (("board", "width"), True, "/board/width", "expected an integer, got true"),
        (("board", "width"), 6.0, "/board/width", "expected an integer, got 6.0"),
        (("board", "width"), "6", "/board/width", "expected an integer, got the string '6'"),
        (("board", "width"), -3, "/board/width", "-3 is under the minimum of 1"),
        (("board", "width"), 1000, "/board/width", "1000 is over the limit of 64"),
        (("rules", "outside"), 1, "/rules/outside", "expected true or false, got 1"),
        (("rules", "max_turns"), 9, "/rules/max_turns", "9 is over the limit of 8"),
        (("game",), "chess", "/game", "expected 'linkup', got the string 'chess'"),
        (("format_version",), 2, "/format_version", "expected 1, got 2"),
        (("format_version",), True, "/format_version", "expected the integer 1"),
        (("generator", "seed"), -1, "/generator/seed", "-1 is under the minimum of 0"),
        (("solution", 0, "kind"), 0, "/solution/0/kind", "0 is under the minimum of 1"),
        (("solution", 0, "a"), [1], "/solution/0/a", "a cell is [x, y]: 1 number given"),
        (("metrics", "mean_moves"), "2", "/metrics/mean_moves", "expected a number"),
    ],
)
def test_wrong_values_get_pointers_and_short_reasons(
    where: tuple[Any, ...], value: object, pointer: str, reason: str
) -> None:
    data = level_data()
    target = data
    for key in where[:-1]:
        target = target[key]
    target[where[-1]] = value
    found = problems_of(data)
    assert found[0][0] == pointer
    assert reason in found[0][1]


def test_a_bad_cell_is_named_by_row_and_column() -> None:
    data = level_data()
    data["board"]["rows"][2][3] = -2
    data["board"]["rows"][1][0] = "x"
    assert problems_of(data) == [
        ("/board/rows/1/0", "expected an integer, got the string 'x'"),
        ("/board/rows/2/3", "-2 is under the minimum of -1"),
    ]


def test_unknown_and_missing_fields() -> None:
    data = level_data()
    data["colour"] = "red"
    data["board"]["depth"] = 2
    del data["rules"]["outside"]
    found = dict(problems_of(data))
    assert found["/colour"].startswith("unknown field")
    assert found["/board/depth"].startswith("unknown field")
    assert found["/rules/outside"] == "required field is missing"


def test_not_an_object() -> None:
    assert problems_of([1, 2]) == [("", "expected a JSON object, got an array")]


def test_rows_must_match_width_and_height() -> None:
    data = level_data()
    data["board"]["rows"][1].append(1)
    data["board"]["rows"].pop()
    assert problems_of(data) == [
        ("/board/rows", "3 rows, but height is 4"),
        ("/board/rows/1", "7 cells, but width is 6"),
    ]


def test_sizes_are_capped() -> None:
    data = level_data()
    data["board"]["rows"] = [[1] * 65]
    found = dict(problems_of(data))
    assert found["/board/rows/0"] == "row 0 is 65 cells wide, at most 64"


def test_generator_parameters_are_json_scalars_or_arrays() -> None:
    data = level_data()
    data["generator"]["name"] = "another-tool"  # free-form parameters
    data["generator"]["parameters"]["layout"] = None
    data["generator"]["parameters"]["rows"] = ["oo", "o."]
    parse_level_data(data)
    data["generator"]["parameters"]["nested"] = {"a": 1}
    assert problems_of(data)[0][0] == "/generator/parameters/nested"


@pytest.mark.parametrize(
    ("key", "value", "reason"),
    [
        ("rows", ["oo"], "unknown parameter of generator 'levelgen'"),
        ("size", "１２x8", "ASCII digits"),
        ("size", "65x8", "1..64"),
        ("kinds", 0, ">= 1"),
        ("copies", 3, "even"),
        ("max_turns", 9, "0..8"),
        ("outside", 1, "true or false"),
        ("layout", ["oo", "ox"], "o . #"),
    ],
)
def test_levelgen_parameters_are_checked(key: str, value: object, reason: str) -> None:
    data = level_data()
    data["generator"]["parameters"][key] = value
    found = problems_of(data)
    assert found[0][0] == f"/generator/parameters/{key}"
    assert reason in found[0][1]
    errors = list(jsonschema.Draft202012Validator(level_json_schema()).iter_errors(data))
    assert errors, "the JSON Schema refuses it too"


def test_reserved_parameters_are_accepted() -> None:
    data = level_data()
    data["generator"]["parameters"]["difficulty"] = "hard"
    parse_level_data(data)


def test_a_board_without_tiles_is_refused() -> None:
    data = level_data()
    data["board"]["rows"] = [[0 if v > 0 else v for v in row] for row in data["board"]["rows"]]
    data.pop("solution")
    data.pop("id")
    assert problems_of(data) == [
        ("/board/rows", "the board has no tile: a level needs at least one pair")
    ]
    errors = list(jsonschema.Draft202012Validator(level_json_schema()).iter_errors(data))
    assert errors, "the JSON Schema refuses it too"


def test_schema_identifier_is_exact() -> None:
    data = level_data()
    data["$schema"] = "urn:levelgen:schema:level:v2"
    assert problems_of(data)[0][0] == "/$schema"
    data["$schema"] = SCHEMA_URI
    parse_level_data(data)
    data.pop("$schema")
    parse_level_data(data)


def test_level_problems_odd_kind_and_stale_id() -> None:
    data = level_data()
    assert level_problems(parse_level_data(data)) == []
    rows = data["board"]["rows"]
    old_kind, rows[0][0] = rows[0][0], 40
    found = {p.pointer: p.message for p in level_problems(parse_level_data(data))}
    assert found["/board/rows/0/0"].startswith("kind 40 has 1 tile, an odd number")
    assert any(f"kind {old_kind} has 3 tiles" in message for message in found.values())
    assert found["/id"].startswith("does not match the board and rules; expected sha256:")


def test_a_path_that_is_not_straight_lines_is_named() -> None:
    data = level_data()
    data["solution"][1]["path"] = [[0, 0], [2, 1]]
    with pytest.raises(LevelFormatError) as info:
        parse_level_data(data).to_core()
    assert info.value.problems[0].pointer == "/solution/1/path"
    assert "not on one row or column" in info.value.problems[0].message


def test_checked_in_schema_is_generated_from_the_models() -> None:
    stored = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    assert stored == level_json_schema(), "regenerate: levelgen schema -o schemas/level.v1..."
    jsonschema.Draft202012Validator.check_schema(stored)


def test_json_schema_agrees_with_the_models() -> None:
    """Every document the models accept, the schema accepts; the mutations the models refuse
    (apart from what a JSON Schema cannot say) the schema refuses too."""
    validator = jsonschema.Draft202012Validator(level_json_schema())
    good = level_data(seed=2, size=Size(8, 5), rules=Rules(3, False))
    assert list(validator.iter_errors(good)) == []
    mutations = [
        ("game", "chess"),
        ("format_version", 2),
        ("format_version", True),
        ("id", "md5:abc"),
        ("extra", 1),
        ("rules", {"max_turns": 2}),
        ("board", {"width": 0, "height": 1, "rows": [[1]]}),
        ("board", {"width": 1, "height": 1, "rows": [[True]]}),
        ("solution", [{"a": [0, 0], "b": [1, 0], "kind": 1, "path": [[0, 0]]}]),
        ("metrics", {"start_moves": -1, "mean_moves": 0, "turn_histogram": []}),
    ]
    for key, value in mutations:
        bad = {**good, key: value}
        with pytest.raises(LevelFormatError):
            parse_level_data(bad)
        assert list(validator.iter_errors(bad)), (key, value)


def test_from_core_refuses_what_the_format_cannot_hold() -> None:
    level = generate(Size(4, 2), seed=1)
    assert level.generator is not None
    odd = Level(
        level.board,
        level.rules,
        level.solution,
        level.metrics,
        type(level.generator)("levelgen", "0", 1, {"bad": {"nested": 1}}),
    )
    with pytest.raises(LevelFormatError):
        LevelFile.from_core(odd)
