"""The level file: round trips, the content id, the checked-in JSON Schema, and bad files (schema
breaks with ``is_format`` True, breaches of the rules with False), each with its pointer."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from levelgen.formats import format_json, parse_json
from levelgen.ladders import FAMILY
from levelgen.ladders.files import content_id, dump_level, level_json_schema, parse_level
from levelgen.puzzles import DocumentError

ROOT = Path(__file__).resolve().parents[2]
CHUTES = ROOT / "levels" / "ladders_chutes_10x10.json"
SCHEMA = ROOT / "schemas" / "snakes-ladders.level.v1.schema.json"


def _data() -> dict[str, Any]:
    value = parse_json(CHUTES.read_text(encoding="utf-8"))
    assert isinstance(value, dict)
    return value


def test_the_checked_in_schema_is_the_generated_one() -> None:
    assert SCHEMA.read_text(encoding="utf-8") == format_json(level_json_schema())
    assert FAMILY.schemas["level"].file_name == SCHEMA.name


def test_round_trip_is_canonical() -> None:
    text = CHUTES.read_text(encoding="utf-8")
    level = parse_level(_data())
    assert format_json(dump_level(level)) == text
    jsonschema.validate(_data(), json.loads(SCHEMA.read_text(encoding="utf-8")))


def test_the_id_ignores_the_order_of_jumps() -> None:
    data = _data()
    data["board"]["ladders"].reverse()
    level = parse_level(data)
    assert level.id == content_id(level.board, level.rules) == _data()["id"]
    assert dump_level(level)["board"]["ladders"] == _data()["board"]["ladders"]


def _refused(change: Any) -> DocumentError:
    data = copy.deepcopy(_data())
    change(data)
    with pytest.raises(DocumentError) as caught:
        parse_level(data)
    return caught.value


@pytest.mark.parametrize(
    ("change", "pointer"),
    [
        (lambda d: d.update(game="linkup"), "/game"),
        (lambda d: d.update(format_version=True), "/format_version"),
        (lambda d: d["rules"].update(faces=True), "/rules/faces"),
        (lambda d: d["rules"].update(faces=1), "/rules/faces"),
        (lambda d: d["rules"].update(overshoot="wrap"), "/rules/overshoot"),
        (lambda d: d["board"].update(width=33), "/board/width"),
        (lambda d: d["board"]["snakes"].append([5]), "/board/snakes/10"),
        (lambda d: d["board"]["snakes"].append([5, -1]), "/board/snakes/10/1"),
        (lambda d: d["board"]["snakes"].append([5.0, 2]), "/board/snakes/10/0"),
        (lambda d: d["board"].update(extra=1), "/board/extra"),
        (lambda d: d["analysis"].update(median="32"), "/analysis/median"),
        (
            lambda d: d["analysis"]["expected_rolls"].update(fraction="1.5"),
            "/analysis/expected_rolls/fraction",
        ),
        (lambda d: d["analysis"]["players"].pop(), "/analysis/players"),
        (
            lambda d: d["analysis"]["expected_snakes"].update(fraction="7" * 4001 + "/3"),
            "/analysis/expected_snakes/fraction",
        ),
        (lambda d: d["analysis"]["distribution"].append(1.5), "/analysis/distribution/184"),
        (lambda d: d.update(id="sha1:00"), "/id"),
    ],
)
def test_schema_breaks(change: Any, pointer: str) -> None:
    error = _refused(change)
    assert error.is_format
    assert pointer in [p.pointer for p in error.problems], error.problems


@pytest.mark.parametrize(
    ("change", "pointer", "words"),
    [
        (lambda d: d["board"]["ladders"].append([0, 5]), "/board/ladders/9/0", "from square 0"),
        (lambda d: d["board"]["snakes"].append([100, 2]), "/board/snakes/10/0", "square 100"),
        (lambda d: d["board"]["snakes"].append([3, 0]), "/board/snakes/10/1", "onto square 0"),
        (lambda d: d["board"]["snakes"].append([3, 40]), "/board/snakes/10", "goes down"),
        (lambda d: d["board"]["ladders"].append([40, 3]), "/board/ladders/9", "goes up"),
        (lambda d: d["board"]["snakes"].append([9, 2]), "/board/snakes/10/0", "already starts"),
        (lambda d: d["board"]["snakes"].append([38, 2]), "/board/snakes/10/0", "no chains"),
        (lambda d: d["board"]["ladders"].append([3, 101]), "/board/ladders/9/1", "off the board"),
        (lambda d: d["board"].update(width=1, height=1), "/board", "two squares"),
    ],
)
def test_game_breaches(change: Any, pointer: str, words: str) -> None:
    error = _refused(change)
    assert not error.is_format
    assert any(p.pointer == pointer and words in p.message for p in error.problems), error.problems


def test_not_an_object() -> None:
    with pytest.raises(DocumentError) as caught:
        parse_level([1, 2])
    assert caught.value.problems[0].pointer == ""
