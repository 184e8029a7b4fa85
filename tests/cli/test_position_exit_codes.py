"""A position file of the right form whose played moves are illegal is "well-formed but
invalid" (the README's exit 1) in every game: Link-up as the sliding puzzle, for every command
that reads a position; a position that breaks its schema stays exit 3."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from levelgen.cli import app

runner = CliRunner()
LEVELS = Path(__file__).resolve().parents[2] / "levels"


def _linkup_position(tmp_path: Path, *, board_too: bool = False) -> str:
    level = json.loads((LEVELS / "classic_12x8.json").read_text())
    step = level["solution"][0]
    played = [{"a": step["a"], "b": step["b"]}, {"a": step["a"], "b": step["b"]}]  # gone now
    data = {"game": "linkup", "format_version": 1, "level": level, "played": played}
    path = tmp_path / "linkup-position.json"
    path.write_text(json.dumps(data))
    return str(path)


def _linkup_wrong_board(tmp_path: Path) -> str:
    """Legal played moves, but a board that is not where they lead."""
    level = json.loads((LEVELS / "classic_12x8.json").read_text())
    step = level["solution"][0]
    data = {
        "game": "linkup",
        "format_version": 1,
        "level": level,
        "played": [{"a": step["a"], "b": step["b"]}],
        "board": {"width": 12, "height": 8, "rows": level["board"]["rows"]},
    }
    path = tmp_path / "linkup-board.json"
    path.write_text(json.dumps(data))
    return str(path)


def _sliding_position(tmp_path: Path) -> str:
    data = json.loads((LEVELS / "sliding_3x3_numbered.json").read_text())
    data["played"] = "UUUUUU"  # the blank starts on the bottom row: the third U (move 2) leaves
    path = tmp_path / "sliding-position.json"
    path.write_text(json.dumps(data))
    return str(path)


@pytest.mark.parametrize("command", ["hint", "show", "shuffle"])
def test_an_illegal_played_move_in_a_linkup_position_exits_1(tmp_path: Path, command: str) -> None:
    for source, where in (
        (_linkup_position(tmp_path), "/played/1: illegal move"),
        (_linkup_wrong_board(tmp_path), "/board:"),
    ):
        args = [command, source] + (
            ["-o", str(tmp_path / "s.json")] if command == "shuffle" else []
        )
        result = runner.invoke(app, args)
        assert result.exit_code == 1, result.output
        assert where in result.output


@pytest.mark.parametrize("command", ["hint", "show"])
def test_the_sliding_puzzle_agrees(tmp_path: Path, command: str) -> None:
    result = runner.invoke(app, [command, _sliding_position(tmp_path)])
    assert result.exit_code == 1, result.output
    assert "/played: move 2 ('U') takes the blank off the board" in result.output


def test_a_position_that_breaks_its_schema_still_exits_3(tmp_path: Path) -> None:
    source = tmp_path / "broken.json"
    level = json.loads((LEVELS / "classic_12x8.json").read_text())
    source.write_text(json.dumps({"game": "linkup", "level": level, "played": [{"a": [0]}]}))
    for command in ("hint", "show", "shuffle"):
        result = runner.invoke(app, [command, str(source)])
        assert result.exit_code == 3, (command, result.output)
