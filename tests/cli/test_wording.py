"""What a new user reads says what is so: a snakes board trapped from the start, a window of
expected lengths the user never gave, the size of every level in a pack's manifest, and the
help of levelgen, create and solve for every game."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from levelgen.cli import app
from levelgen.pack import verify_pack

runner = CliRunner()


def _trap(tmp_path: Path) -> str:
    """A 5x4 board whose six snakes send every roll of the first rows back: the token is
    trapped before its first roll."""
    data = {
        "game": "snakes-ladders",
        "format_version": 1,
        "rules": {"faces": 6, "overshoot": "exact"},
        "board": {
            "width": 5,
            "height": 4,
            "ladders": [],
            "snakes": [[14, 1], [15, 2], [16, 3], [17, 4], [18, 5], [19, 6]],
        },
    }
    path = tmp_path / "trap.json"
    path.write_text(json.dumps(data))
    return str(path)


@pytest.mark.parametrize("command", ["verify", "solve"])
def test_a_board_trapped_from_the_start_says_so(tmp_path: Path, command: str) -> None:
    result = runner.invoke(app, [command, _trap(tmp_path)])
    assert result.exit_code == 1, result.output
    (line,) = result.output.splitlines()
    assert "rolls  reach" not in line and "rolls reach" not in line
    assert line.endswith("; the token starts on square 0, one of them")
    assert "from squares 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 and 2 more" in line


def test_the_window_named_is_the_one_the_user_knows(tmp_path: Path) -> None:
    base = ["create", "--game", "snakes-ladders", "--size", "4x4", "--seed", "1"]
    result = runner.invoke(app, [*base, "--fewest", "50:"])
    assert result.exit_code == 1, result.output
    assert "expected length in the medium band (4.8:6.4) and fewest rolls 50:" in result.output
    given = runner.invoke(app, [*base, "--expected", "3:4", "--fewest", "50:"])
    assert given.exit_code == 1, given.output
    assert "expected length in 3:4 and fewest rolls 50:" in given.output


@pytest.mark.parametrize(("game", "size"), [("sliding-puzzle", "4x4"), ("snakes-ladders", "10x10")])
def test_a_pack_manifest_records_the_default_size(tmp_path: Path, game: str, size: str) -> None:
    out = tmp_path / "pack"
    args = ["pack", "--game", game, "--count", "2", "--seed", "1", "--workers", "1"]
    result = runner.invoke(app, [*args, "-o", str(out)])
    assert result.exit_code == 0, result.output
    manifest = json.loads((out / "manifest.json").read_text())
    assert [entry["size"] for entry in manifest["levels"]] == [size, size]
    report = verify_pack(out)
    assert not report.problems, report.problems


def test_the_help_names_every_game() -> None:
    top = " ".join(runner.invoke(app, ["--help"]).output.split())
    assert "Link-up" in top and "sliding-tile puzzles" in top and "snakes and ladders" in top
    create = " ".join(runner.invoke(app, ["create", "--help"]).output.split())
    assert "at most 64x64" not in create
    assert "linkup: 1..64" in create and "sliding-puzzle: 2..8" in create
    assert "snakes-ladders: 1..32" in create
    solve = " ".join(runner.invoke(app, ["solve", "--help"]).output.split())
    assert "a sliding puzzle or a snakes-and-ladders board keeps its own" in solve
