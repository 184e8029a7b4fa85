"""Pack sheets of every game: a pack made by ``levelgen pack --game ...``, packs written as the
uniform manifest (``game``, ``parameters``, ``levels`` with a difficulty or a bare score) or as a
plain folder, and the test family, which draws no pictures, as text thumbnails."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from levelgen import puzzles
from levelgen.cli import app
from levelgen.render.sheet import PackError, read_pack, sheet_scene
from tests import ROOT

LEVELS = ROOT / "levels"
NS = "{http://www.w3.org/2000/svg}"
runner = CliRunner()


def _run(*args: str) -> Any:
    result = runner.invoke(app, list(args))
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


def _placed(svg: Path) -> list[str | None]:
    root = ET.fromstring(svg.read_text(encoding="utf-8"))
    return [e.get("data-file") for e in root.iter(f"{NS}g") if e.get("class") == "level"]


def _uniform_pack(folder: Path, game: str, names: list[str], scores: list[Any]) -> Path:
    """A pack in the uniform manifest format: the ``game``, its ``parameters`` and each
    level's file, id, size and difficulty (an object, a bare ``score``, or none)."""
    folder.mkdir()
    levels = []
    for i, (name, score) in enumerate(zip(names, scores, strict=True)):
        target = folder / f"{i + 1:03}.json"
        shutil.copy(LEVELS / name, target)
        entry: dict[str, Any] = {"file": target.name, "id": json.loads(target.read_text())["id"]}
        entry["sha256"] = hashlib.sha256(target.read_bytes()).hexdigest()
        if isinstance(score, dict):
            entry["difficulty"] = score
        elif score is not None:
            entry["score"] = score
        levels.append(entry)
    manifest = {"game": game, "parameters": {"count": len(names)}, "levels": levels}
    (folder / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    return folder


@pytest.mark.parametrize(
    ("game", "names"),
    [
        ("sliding-puzzle", ["sliding_3x3_numbered.json", "sliding_4x4_colour_3.json"]),
        ("snakes-ladders", ["ladders_chutes_10x10.json", "ladders_wide_16x6.json"]),
        ("linkup", ["classic_12x8.json", "walls_14x8.json"]),
    ],
)
def test_a_sheet_of_each_game(game: str, names: list[str], tmp_path: Path) -> None:
    pack = _uniform_pack(tmp_path / "pack", game, names, [{"score": 20.0, "band": "easy"}, 61])
    entries = read_pack(pack)
    assert [(e.family.name, e.score, e.band) for e in entries] == [
        (game, 20.0, "easy"),
        (game, 61.0, None),
    ]
    assert re.search(entries[0].size, names[0]) and re.fullmatch(r"\d+x\d+", entries[0].size)
    for out in ("sheet.svg", "sheet.png", "sheet.html"):
        result = _run("render", str(pack), "-o", str(tmp_path / out))
        assert result.exit_code == 0, result.output
    assert _placed(tmp_path / "sheet.svg") == ["001.json", "002.json"]
    # Each thumbnail is its family's own picture: a sliding puzzle's tiles, a ladder, a kind.
    svg = (tmp_path / "sheet.svg").read_text(encoding="utf-8")
    marker = {"sliding-puzzle": 'class="tile start"', "snakes-ladders": 'class="ladder"'}
    assert marker.get(game, 'class="tile"') in svg


def test_a_pack_made_by_the_pack_command_gets_a_sheet(tmp_path: Path) -> None:
    pack = tmp_path / "pack"
    made = _run(
        "pack", "--game", "sliding-puzzle", "--count", "2", "--size", "3x3", "--seed", "3",
        "--workers", "1", "-o", str(pack),
    )  # fmt: skip
    assert made.exit_code == 0, made.output
    entries = read_pack(pack)
    assert [e.size for e in entries] == ["3x3", "3x3"]
    assert all(e.score is not None and e.band for e in entries)
    result = _run("render", str(pack), "-o", str(tmp_path / "sheet.svg"))
    assert result.exit_code == 0, result.output
    assert _placed(tmp_path / "sheet.svg") == ["001.json", "002.json"]


def test_difficulty_from_the_level_files_and_a_plain_folder(tmp_path: Path) -> None:
    pack = tmp_path / "pack"
    pack.mkdir()
    made = _run("create", "--size", "6x4", "--difficulty", "easy", "--seed", "1",
                "-o", str(pack / "001.json"))  # fmt: skip
    assert made.exit_code == 0, made.output
    stated = json.loads((pack / "001.json").read_text())["metrics"]["difficulty"]
    level_id = json.loads((pack / "001.json").read_text())["id"]
    manifest = {"game": "linkup", "levels": [{"file": "001.json", "id": level_id}]}
    (pack / "manifest.json").write_text(json.dumps(manifest))
    assert [(e.score, e.band) for e in read_pack(pack)] == [(stated["score"], stated["band"])]
    manifest["levels"][0]["id"] = "sha256:" + "0" * 64
    (pack / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(PackError, match="/levels/0/id"):
        read_pack(pack)
    (pack / "manifest.json").unlink()
    shutil.copy(LEVELS / "ladders_chutes_10x10.json", pack / "002.json")
    entries = read_pack(pack)  # no manifest: the files by name, each of its own game
    assert [e.family.name for e in entries] == ["linkup", "snakes-ladders"]
    assert entries[0].score == stated["score"] and entries[1].score is None
    assert [e.size for e in entries] == ["6x4", "10x10"]


def test_a_level_of_another_game_than_the_manifest_is_named(tmp_path: Path) -> None:
    pack = _uniform_pack(tmp_path / "pack", "sliding-puzzle", ["classic_12x8.json"], [None])
    data = json.loads((pack / "001.json").read_text())
    del data["game"]  # a file without a game is of the manifest's game
    (pack / "001.json").write_text(json.dumps(data))
    manifest = json.loads((pack / "manifest.json").read_text())
    del manifest["levels"][0]["sha256"]
    (pack / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(PackError) as caught:
        read_pack(pack)
    assert caught.value.source.endswith("001.json")
    result = _run("render", str(pack), "-o", str(tmp_path / "s.png"))
    assert result.exit_code == 3 and "001.json" in result.stderr
    assert not (tmp_path / "s.png").exists()


def test_a_game_without_pictures_gets_text_thumbnails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The test family draws no pictures: each thumbnail is what its ``show`` prints."""
    monkeypatch.setenv(puzzles.FAMILIES_VARIABLE, "counting=tests.family_counting:COUNTING")
    try:
        pack = tmp_path / "pack"
        pack.mkdir()
        levels = []
        for i, (start, goal) in enumerate([(3, 40), (1, 99)]):
            name = f"{i + 1:03}.json"
            (pack / name).write_text(json.dumps({"game": "counting", "start": start, "goal": goal}))
            levels.append({"file": name, "score": 10.0 * (i + 1), "band": "easy"})
        manifest = {"game": "counting", "parameters": {}, "levels": levels}
        (pack / "manifest.json").write_text(json.dumps(manifest))
        result = _run("render", str(pack), "-o", str(tmp_path / "sheet.svg"))
        assert result.exit_code == 0, result.output
        svg = (tmp_path / "sheet.svg").read_text(encoding="utf-8")
        assert ">3 -&gt; 40</text>" in svg and ">1 -&gt; 99</text>" in svg
        assert _placed(tmp_path / "sheet.svg") == ["001.json", "002.json"]
        assert sheet_scene(read_pack(pack)).width > 0
    finally:
        puzzles._loaded.pop("counting", None)
