"""One-line verdicts stay short: a Link-up deadlock core (thousands of cells on a shuffled
64x64 board) and a list of kinds with odd counts are named up to a dozen, then "and N more";
``--json`` keeps every cell."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from levelgen.cli import app

runner = CliRunner()


def _board(tmp_path: Path, rows: list[list[int]], max_turns: int = 0) -> str:
    data = {
        "game": "linkup",
        "format_version": 1,
        "rules": {"max_turns": max_turns, "outside": False},
        "board": {"width": len(rows[0]), "height": len(rows), "rows": rows},
    }
    path = tmp_path / "board.json"
    path.write_text(json.dumps(data))
    return str(path)


def _checkerboard(tmp_path: Path) -> str:
    """8x6, two kinds alternating, no turn, no ring: no tile ever has a path (48 cells dead)."""
    return _board(tmp_path, [[1 + (x + y) % 2 for x in range(8)] for y in range(6)])


@pytest.mark.parametrize(
    "args",
    [["verify"], ["hint"], ["solve", "-o", "-"]],
)
def test_a_deadlock_core_is_capped_in_the_line(tmp_path: Path, args: list[str]) -> None:
    source = _checkerboard(tmp_path)
    result = runner.invoke(app, [*args, source])
    assert result.exit_code == 1, result.output
    lines = result.output.splitlines()
    assert len(lines) == 1
    assert "deadlock core: [0, 0], [1, 0]," in lines[0]
    assert lines[0].endswith("[3, 1] and 36 more")  # 12 cells shown of 48
    assert len(lines[0]) < 400


@pytest.mark.parametrize("command", ["verify", "hint"])
def test_json_keeps_the_whole_core(tmp_path: Path, command: str) -> None:
    source = _checkerboard(tmp_path)
    result = runner.invoke(app, [command, source, "--json"])
    assert result.exit_code == 1, result.output
    data = json.loads(result.output)
    report = data["files"][0] if command == "verify" else data
    assert len(report["deadlock"]) == 48


def test_odd_kinds_are_capped_too(tmp_path: Path) -> None:
    """20 kinds of one tile each: a dozen named, "and 8 more kinds"; every tile in the core."""
    source = _board(tmp_path, [list(range(1, 21))], max_turns=2)
    result = runner.invoke(app, ["hint", source])
    assert result.exit_code == 1, result.output
    (line,) = result.output.splitlines()
    assert "kind 12 has 1 tiles (an odd number), and 8 more kinds too;" in line
    assert "kind 13 has" not in line and line.endswith("[11, 0] and 8 more")
    data = json.loads(runner.invoke(app, ["hint", source, "--json"]).output)
    assert len(data["deadlock"]) == 20
