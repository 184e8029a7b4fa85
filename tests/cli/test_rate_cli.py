"""``levelgen rate``: any game's level gets its difficulty block; bad input in one line."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from typer.testing import CliRunner

from levelgen.cli import app
from levelgen.formats.difficulty import band_of

runner = CliRunner()
LEVELS = Path(__file__).resolve().parents[2] / "levels"
FILES = {
    "linkup": LEVELS / "classic_12x8.json",
    "sliding-puzzle": LEVELS / "sliding_3x3_numbered.json",
    "snakes-ladders": LEVELS / "ladders_medium_10x10.json",
}


def _block(data: dict[str, object]) -> dict[str, object]:
    metrics = data["metrics"]
    assert isinstance(metrics, dict)
    block = metrics["difficulty"]
    assert isinstance(block, dict)
    return block


def test_one_file_of_each_game_is_written_with_its_block() -> None:
    for game, path in FILES.items():
        result = runner.invoke(app, ["rate", str(path)])
        assert result.exit_code == 0, result.output
        data = json.loads(result.stdout)
        assert data.get("game", "linkup") == game
        block = _block(data)
        assert 0 <= block["score"] <= 100  # type: ignore[operator]
        assert block["band"] == band_of(block["score"])  # type: ignore[arg-type]
        assert block["measures"]
        again = runner.invoke(app, ["rate", str(path)])
        assert again.stdout == result.stdout  # the same seed, the same bytes


def test_json_summary_of_several_files() -> None:
    result = runner.invoke(app, ["rate", "--json", "--seed", "3", *map(str, FILES.values())])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert [e["game"] for e in summary] == list(FILES)
    for entry in summary:
        assert entry["status"] == "rated" and entry["band"] == band_of(entry["score"])


def test_in_place_and_output(tmp_path: Path) -> None:
    copies = []
    for path in FILES.values():
        copy = tmp_path / path.name
        shutil.copy(path, copy)
        copies.append(str(copy))
    result = runner.invoke(app, ["rate", "--in-place", *copies])
    assert result.exit_code == 0, result.output
    assert result.stdout == ""
    for copy in copies:
        _block(json.loads(Path(copy).read_text()))
    verified = runner.invoke(app, ["verify", *copies])
    assert verified.exit_code == 0, verified.output
    out = tmp_path / "rated.json"
    result = runner.invoke(app, ["rate", str(FILES["snakes-ladders"]), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_text() == runner.invoke(app, ["rate", str(FILES["snakes-ladders"])]).stdout


def test_usage_errors() -> None:
    paths = [str(p) for p in FILES.values()]
    for args in (
        ["rate", *paths],
        ["rate", "-o", "x.json", *paths],
        ["rate", "--in-place", "-"],
        ["rate", "--json", "-o", "-", paths[0]],
        ["rate", "--seed", "-1", paths[0]],
    ):
        result = runner.invoke(app, args)
        assert result.exit_code == 2, (args, result.output)
        assert "Traceback" not in result.output


def test_bad_files_get_one_line_and_their_exit_code(tmp_path: Path) -> None:
    not_json = tmp_path / "broken.json"
    not_json.write_text("{")
    bad_schema = tmp_path / "wide.json"
    data = json.loads(FILES["sliding-puzzle"].read_text())
    data["width"] = "three"
    bad_schema.write_text(json.dumps(data))
    unknown = tmp_path / "chess.json"
    unknown.write_text(json.dumps({"game": "chess"}))
    unsolved = tmp_path / "unsolved.json"
    data = json.loads(FILES["linkup"].read_text())
    del data["solution"]
    data.pop("metrics", None)
    unsolved.write_text(json.dumps(data))
    for path, code, pointer in (
        (not_json, 3, ""),
        (bad_schema, 3, "/width"),
        (unknown, 3, "/game"),
        (unsolved, 1, "/solution"),
        (tmp_path / "missing.json", 3, ""),
    ):
        result = runner.invoke(app, ["rate", str(path)])
        assert result.exit_code == code, (path, result.output)
        assert result.stdout == ""
        lines = result.stderr.splitlines()
        assert lines and all(line.startswith(f"{path}: ") for line in lines), lines
        if pointer:
            assert lines[0].startswith(f"{path}: {pointer}: "), lines
        assert "Traceback" not in result.output


def test_one_bad_file_among_good_ones(tmp_path: Path) -> None:
    missing = str(tmp_path / "missing.json")
    good = str(FILES["sliding-puzzle"])
    result = runner.invoke(app, ["rate", "--json", good, missing])
    assert result.exit_code == 3, result.output
    summary = json.loads(result.stdout)
    assert [e["status"] for e in summary] == ["rated", "unreadable"]
    assert summary[1]["problems"]
