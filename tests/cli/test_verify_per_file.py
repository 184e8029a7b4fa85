"""``verify`` over files of several games: an option a file's game does not have is refused
for that file alone, and every other file still gets its verdict."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from levelgen.cli import app

runner = CliRunner()
LEVELS = Path(__file__).resolve().parents[2] / "levels"
FILES = [
    str(LEVELS / "classic_12x8.json"),
    str(LEVELS / "sliding_3x3_numbered.json"),
    str(LEVELS / "ladders_medium_10x10.json"),
]


def test_method_search_gives_each_file_its_verdict() -> None:
    result = runner.invoke(app, ["verify", "--method", "search", *FILES])
    assert result.exit_code == 2, result.output
    assert f"{FILES[0]}: ok: solution replayed" in result.stdout
    for refused in FILES[1:]:
        (line,) = [x for x in result.stderr.splitlines() if x.startswith(refused)]
        assert line.startswith(f"{refused}: --method: ")
    report = json.loads(
        runner.invoke(app, ["verify", "--json", "--method", "search", *FILES]).stdout
    )
    assert report["exit_code"] == 2
    assert [f["status"] for f in report["files"]] == ["ok", "refused", "refused"]
    assert [f["exit_code"] for f in report["files"]] == [0, 2, 2]


def test_a_worse_file_still_wins(tmp_path: Path) -> None:
    missing = str(tmp_path / "missing.json")
    result = runner.invoke(app, ["verify", "--method", "search", FILES[1], missing, FILES[0]])
    assert result.exit_code == 3, result.output
    assert f"{FILES[0]}: ok" in result.stdout


def test_the_option_alone_is_still_accepted_where_the_game_has_it() -> None:
    result = runner.invoke(app, ["verify", "--method", "search", FILES[0]])
    assert result.exit_code == 0, result.output
