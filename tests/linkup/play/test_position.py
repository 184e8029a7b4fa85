"""Position files: the model, replaying ``played``, pointer-named errors, the checked-in JSON
Schema (validated with the independent ``jsonschema`` package) and ``read_position``."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from levelgen.linkup.core.board import Board
from levelgen.linkup.core.geometry import Size
from levelgen.linkup.core.rules import Rules
from levelgen.linkup.files import ReadError, format_level
from levelgen.linkup.generate.generator import generate
from levelgen.linkup.play.answers import position_from_data, read_position
from levelgen.linkup.play.position_file import parse_position_data
from levelgen.linkup.schema.level import LevelFormatError
from levelgen.linkup.schema.position import (
    POSITION_SCHEMA_URI,
    position_json_schema,
    position_to_data,
)
from tests import ROOT

SCHEMA_PATH = ROOT / "schemas" / "position.v1.schema.json"


def level_data(seed: int = 1) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(format_level(generate(Size(6, 4), seed=seed)))
    return data


def position_data(played: int = 3, *, board: bool = False, seed: int = 1) -> dict[str, Any]:
    """A position: a generated level with the first ``played`` moves of its solution."""
    level = level_data(seed)
    steps = level["solution"][:played]
    data: dict[str, Any] = {
        "$schema": POSITION_SCHEMA_URI,
        "game": "linkup",
        "format_version": 1,
        "level": level,
        "played": [{"a": s["a"], "b": s["b"]} for s in steps],
    }
    if board:
        rows = copy.deepcopy(level["board"]["rows"])
        for s in steps:
            for x, y in (s["a"], s["b"]):
                rows[y][x] = 0
        data["rules"] = level["rules"]
        data["board"] = {**level["board"], "rows": rows}
    return data


def problems(data: object) -> list[tuple[str, str]]:
    with pytest.raises(LevelFormatError) as info:
        parse_position_data(data)
    return [(p.pointer, p.message) for p in info.value.problems]


def test_played_moves_are_replayed_from_the_level() -> None:
    data = position_data(3)
    position = parse_position_data(data)
    level = generate(Size(6, 4), seed=1)
    steps = (level.solution or ())[:3]
    assert position.board == level.board.without(*(p for m in steps for p in (m.a, m.b)))
    assert position.rules == level.rules
    assert position.level == level
    assert [(m.a, m.b) for m in position.played] == [(m.a, m.b) for m in steps]
    game = position.game()
    assert game.board == position.board and game.start == level.board
    assert len(game.played) == 3
    # With the board given too, it must agree.
    assert parse_position_data(position_data(3, board=True)).board == position.board


def test_bare_board_position_and_empty_board() -> None:
    board = Board.from_rows(["1..1", "...."])
    data = position_to_data(board, Rules(1, False))
    position = parse_position_data(data)
    assert position == (board, Rules(1, False), None, ())
    empty = position_to_data(Board.from_rows(["..", ".."]), Rules())
    assert parse_position_data(empty).game().hint().status == "won"


def test_errors_name_the_place() -> None:
    data = position_data(4)
    data["played"][2] = {"a": [0, 0], "b": [0, 0]}
    assert problems(data) == [("/played/2", "illegal move: both cells are [0, 0]")]
    data = position_data(2)
    data["played"][1] = data["played"][0]
    [(pointer, message)] = problems(data)
    assert pointer == "/played/1" and "is empty" in message
    data = position_data(2, board=True)
    data["board"]["rows"][0][0] = 99
    [(pointer, message)] = problems(data)
    assert pointer == "/board" and "cell [0, 0] holds 99" in message
    data = position_data(2, board=True)
    data["rules"] = {"max_turns": 1, "outside": True}
    assert problems(data)[0][0] == "/rules"
    bare = position_to_data(Board.from_rows(["11"]), Rules())
    no_board = {k: v for k, v in bare.items() if k != "board"}
    assert problems(no_board)[0][0] == "/board"
    assert problems({**bare, "played": []})[0] == (
        "/played",
        "played moves need the starting level in /level",
    )
    assert problems({**bare, "played": [{"a": [0, 0]}]})[0][0] == "/played/0/b"
    assert problems({**bare, "board": {"width": 3, "height": 1, "rows": [[1, 1]]}}) == [
        ("/board/rows/0", "2 cells, but width is 3")
    ]
    assert problems({**bare, "extra": 1}) == [
        ("/extra", "unknown field (not part of position format v1)")
    ]
    assert problems([1]) == [("", "expected a JSON object")]
    broken = position_data(1)
    broken["level"]["solution"][0]["path"] = [[0, 0], [1, 1]]
    assert problems(broken)[0][0] == "/level/solution/0/path"


def test_checked_in_schema_is_generated_and_validates_samples() -> None:
    stored = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    assert stored == position_json_schema(), (
        "regenerate schemas/position.v1.schema.json from position_json_schema()"
    )
    jsonschema.Draft202012Validator.check_schema(stored)
    validator = jsonschema.Draft202012Validator(stored)
    samples = [
        position_data(0),
        position_data(3),
        position_data(5, board=True),
        position_to_data(Board.from_rows(["1#1", "2.2"]), Rules(0, False)),
        position_to_data(Board.from_rows([".."]), Rules()),
    ]
    for sample in samples:
        assert list(validator.iter_errors(sample)) == []
        parse_position_data(sample)
    bare = samples[3]
    for key, value in [
        ("game", "chess"),
        ("format_version", 2),
        ("extra", True),
        ("rules", {"max_turns": 2}),
        ("played", [{"a": [0, 0], "b": [1, 0], "c": 1}]),
        ("board", {"width": 1, "height": 1, "rows": [[1.5]]}),
    ]:
        bad = {**bare, key: value}
        assert list(validator.iter_errors(bad)), key
        with pytest.raises(LevelFormatError):
            parse_position_data(bad)


def test_read_position_accepts_level_and_position_files(tmp_path: Path) -> None:
    level_file = tmp_path / "level.json"
    level_file.write_text(format_level(generate(Size(6, 4), seed=2)))
    board, rules, level, played = read_position(level_file)
    assert level is not None and board == level.board and played == ()
    pos_file = tmp_path / "pos.json"
    pos_file.write_text(json.dumps(position_data(2)))
    assert len(read_position(pos_file).played) == 2
    bad = position_data(2)
    bad["played"][0]["a"] = [9, 9]
    pos_file.write_text(json.dumps(bad))
    with pytest.raises(ReadError) as info:
        read_position(pos_file)
    assert info.value.is_format
    assert info.value.problems[0].pointer == "/played/0"
    assert "not on the 6x4 board" in info.value.problems[0].message
    # Without the position $schema and without level/played: read as a level file.
    level_like = position_to_data(board, rules) | {"$schema": "urn:levelgen:schema:level:v1"}
    assert position_from_data(level_like).board == board


def test_an_empty_board_is_a_position_but_not_a_level_for_the_checked_in_schemas() -> None:
    """The game is won on an empty board: the position schema accepts it, the level schema
    (a level needs at least one pair) does not."""
    root = ROOT / "schemas"
    board = {"width": 2, "height": 1, "rows": [[0, 0]]}
    head = {"game": "linkup", "format_version": 1, "rules": {"max_turns": 2, "outside": True}}
    position = {"$schema": "urn:levelgen:schema:position:v1", **head, "board": board}
    level = {"$schema": "urn:levelgen:schema:level:v1", **head, "board": board}
    for name, data, ok in (("position", position, True), ("level", level, False)):
        schema = json.loads((root / f"{name}.v1.schema.json").read_text(encoding="utf-8"))
        errors = list(jsonschema.Draft202012Validator(schema).iter_errors(data))
        assert (errors == []) is ok, name


def test_a_position_names_only_its_own_schema_identifier() -> None:
    """``$schema`` of a position is exactly its identifier, in the model and in the checked-in
    JSON Schema (an outside validator refuses another value too)."""
    root = ROOT / "schemas"
    schema = json.loads((root / "position.v1.schema.json").read_text(encoding="utf-8"))
    data = {
        "$schema": "urn:levelgen:schema:position:v2",
        "game": "linkup",
        "format_version": 1,
        "rules": {"max_turns": 2, "outside": True},
        "board": {"width": 2, "height": 1, "rows": [[1, 1]]},
    }
    assert list(jsonschema.Draft202012Validator(schema).iter_errors(data))
    from levelgen.linkup.schema.position import PositionFile

    with pytest.raises(ValueError):
        PositionFile.model_validate(data)
