"""``levelgen fix`` and ``levelgen fill``: the level written (atomically) verifies, exit codes
as documented, bad input in one line, a game without the operation refused with exit 2."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from levelgen.cli import app

runner = CliRunner()
LEVELS = Path(__file__).resolve().parents[2] / "levels"


def _level(rows: list[list[int]], *, max_turns: int = 0, outside: bool = False) -> dict[str, Any]:
    return {
        "$schema": "urn:levelgen:schema:level:v1",
        "game": "linkup",
        "format_version": 1,
        "rules": {"max_turns": max_turns, "outside": outside},
        "board": {"width": len(rows[0]), "height": len(rows), "rows": rows},
    }


def _write(tmp_path: Path, name: str, data: dict[str, Any]) -> str:
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return str(path)


def test_fix_writes_a_fixed_level_that_verifies(tmp_path: Path) -> None:
    stuck = _write(tmp_path, "stuck.json", _level([[1, 2], [2, 1]]))
    out = tmp_path / "fixed.json"
    result = runner.invoke(app, ["fix", stuck, "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "1 swap makes the board solvable" in result.stderr
    assert "every board of fewer swaps was proved unsolvable" in result.stderr
    checked = runner.invoke(app, ["verify", str(out)])
    assert checked.exit_code == 0 and "solution replayed" in checked.stdout
    assert json.loads(out.read_text())["generator"]["name"] == "levelgen-fix"


def test_fix_json_report(tmp_path: Path) -> None:
    stuck = _write(tmp_path, "stuck.json", _level([[1, 2], [2, 1]]))
    result = runner.invoke(app, ["fix", stuck, "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["status"] == "fixed" and report["count"] == 1 == len(report["swaps"])
    assert report["fewer_ruled_out"] is True and report["problems"] == []
    assert report["level"]["solution"]


def test_fix_of_a_solvable_level_writes_it_solved(tmp_path: Path) -> None:
    fine = _write(tmp_path, "fine.json", _level([[1, 2], [1, 2]]))
    result = runner.invoke(app, ["fix", fine, "--json"])
    assert result.exit_code == 0
    assert json.loads(result.stdout)["status"] == "solvable"


def test_fix_exit_codes(tmp_path: Path) -> None:
    odd = _write(tmp_path, "odd.json", _level([[1, 2], [2, 2]]))
    result = runner.invoke(app, ["fix", odd])
    assert result.exit_code == 1 and "odd" in result.stderr
    stuck = _write(tmp_path, "stuck.json", _level([[1, 2], [2, 1]]))
    result = runner.invoke(app, ["fix", stuck, "--max-swaps", "0"])
    assert result.exit_code == 4 and "no fix found" in result.stderr
    result = runner.invoke(app, ["fix", str(tmp_path / "missing.json")])
    assert result.exit_code == 3
    result = runner.invoke(app, ["fix", str(LEVELS / "ladders_medium_10x10.json")])
    assert result.exit_code == 2 and "has no fix operation" in result.stderr
    result = runner.invoke(app, ["fix", stuck, "--max-swaps", "17"])
    assert result.exit_code == 2
    out = tmp_path / "there.json"
    out.write_text("keep")
    result = runner.invoke(app, ["fix", stuck, "-o", str(out), "--no-clobber"])
    assert result.exit_code == 3 and out.read_text() == "keep"


def test_fill_writes_a_level_that_verifies(tmp_path: Path) -> None:
    part = _write(tmp_path, "part.json", _level([[1, 0, 0], [0, 0, 1]], max_turns=2, outside=True))
    out = tmp_path / "filled.json"
    result = runner.invoke(app, ["fill", part, "--slots", "1,0 2,0 0,1 1,1", "-o", str(out)])
    assert result.exit_code == 0, result.output
    checked = runner.invoke(app, ["verify", str(out)])
    assert checked.exit_code == 0, checked.output
    rows = json.loads(out.read_text())["board"]["rows"]
    assert rows[0][0] == 1 == rows[1][2] and all(v >= 1 for row in rows for v in row)
    report = runner.invoke(
        app, ["fill", part, "--slots", "1,0 2,0 0,1 1,1", "--json", "--seed", "4"]
    )
    assert report.exit_code == 0
    data = json.loads(report.stdout)
    assert data["status"] == "filled" and [p["at"] for p in data["placed"]] == [
        [1, 0],
        [2, 0],
        [0, 1],
        [1, 1],
    ]


def test_fill_refuses_bad_slots_in_one_line(tmp_path: Path) -> None:
    part = _write(tmp_path, "part.json", _level([[1, 0, 0], [0, 0, 1]], max_turns=2, outside=True))
    for slots, words in (
        ("1,0 2,0 0,1", "cannot make every kind's count even"),
        ("0,0 1,0", "item 0: [0, 0] holds a tile of kind 1"),
        ("1,0 x", "item 1 ('x') is not a cell"),
    ):
        result = runner.invoke(app, ["fill", part, "--slots", slots])
        assert result.exit_code == 2, (slots, result.output)
        assert words in result.stderr and len(result.stderr.strip().splitlines()) == 1
    result = runner.invoke(
        app, ["fill", str(LEVELS / "ladders_medium_10x10.json"), "--slots", "0,0"]
    )
    assert result.exit_code == 2 and "has no fill operation" in result.stderr


def test_fill_not_found_exits_4(tmp_path: Path) -> None:
    walled = _write(tmp_path, "walled.json", _level([[1, -1, 0, 0], [-1, 1, 0, 0]]))
    result = runner.invoke(app, ["fill", walled, "--slots", "2,0 3,0", "--time-limit", "0.5"])
    assert result.exit_code == 4 and "no fill found" in result.stderr
