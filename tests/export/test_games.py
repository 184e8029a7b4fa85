"""Exports of every game: the Tiled map and tileset of a sliding puzzle and of snakes and
ladders read back by pytiled-parser give the level's frames, squares and jumps; the CSV and
JSON grids have the level's shape; a pack's maps share one tileset; a game without export and
a pack manifest are refused in one line."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path
from typing import Any

import pytest
import pytiled_parser
from PIL import Image
from typer.testing import CliRunner

from levelgen import family
from levelgen.cli import app
from levelgen.ladders.rules import square_cell
from levelgen.puzzles import FAMILIES_VARIABLE
from tests import ROOT

LEVELS = ROOT / "levels"
runner = CliRunner()


def _run(*args: str) -> Any:
    result = runner.invoke(app, list(args))
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


def _document(name: str) -> tuple[Any, Any]:
    data = json.loads((LEVELS / name).read_text(encoding="utf-8"))
    item = family(data["game"])
    return item, item.read(data)


def _tiled(path: Path) -> tuple[pytiled_parser.TiledMap, dict[int, pytiled_parser.Tile]]:
    """The map and its tiles by gid, the tileset image checked against the tileset."""
    tmap = pytiled_parser.parse_map(path)
    tiles: dict[int, pytiled_parser.Tile] = {}
    for firstgid, tileset in tmap.tilesets.items():
        assert tileset.tiles is not None and tileset.image is not None
        with Image.open(tileset.image) as image:
            assert image.size == (tileset.image_width, tileset.image_height)
            columns, rows = image.width // 32, image.height // 32
            assert tileset.tile_count == len(tileset.tiles) <= columns * rows
        for tile_id, tile in tileset.tiles.items():
            tiles[firstgid + tile_id] = tile
    return tmap, tiles


def _layer(tmap: pytiled_parser.TiledMap, name: str) -> Any:
    (found,) = [layer for layer in tmap.layers if layer.name == name]
    return found


@pytest.mark.parametrize(
    "name", ["sliding_3x3_numbered.json", "sliding_4x4_colour_3.json", "sliding_5x3_numbered.json"]
)
def test_a_sliding_puzzle_reads_back_from_tiled(name: str, tmp_path: Path) -> None:
    _, level = _document(name)
    out = tmp_path / "map.tmj"
    result = _run("export", str(LEVELS / name), "--format", "tiled", "-o", str(out))
    assert result.exit_code == 0, result.output
    tmap, tiles = _tiled(out)
    assert (tmap.map_size.width, tmap.map_size.height) == (level.width, level.height)
    prop = "number" if level.numbered else "label"
    for layer_name, frame, visible in (("start", level.start, True), ("goal", level.goal, False)):
        layer = _layer(tmap, layer_name)
        assert layer.visible is visible
        labels = [
            [0 if gid == 0 else tiles[gid].properties[prop] for gid in row] for row in layer.data
        ]
        assert labels == frame.rows()
    klass = "tile" if level.numbered else "colour"
    assert {tile.class_ for tile in tiles.values()} == {klass}
    assert tmap.properties is not None and tmap.properties["id"] == level.content_id
    assert tmap.properties["kind"] == level.kind


@pytest.mark.parametrize("name", ["ladders_chutes_10x10.json", "ladders_wide_16x6.json"])
def test_snakes_and_ladders_read_back_from_tiled(name: str, tmp_path: Path) -> None:
    _, level = _document(name)
    board = level.board
    out = tmp_path / "map.tmj"
    result = _run("export", str(LEVELS / name), "--format", "tiled", "-o", str(out))
    assert result.exit_code == 0, result.output
    tmap, tiles = _tiled(out)
    squares = _layer(tmap, "squares")
    for square in range(1, board.squares + 1):
        x, y = square_cell(square, board.width, board.height)
        tile = tiles[squares.data[y][x]]
        assert tile.properties is not None and tile.properties["square"] == square
        assert tile.class_ == ("goal" if square == board.squares else "square")
    jumps = _layer(tmap, "jumps")
    found = set()
    for item in jumps.tiled_objects:
        assert isinstance(item, pytiled_parser.tiled_object.Polyline)
        start, end = item.properties["start"], item.properties["end"]
        found.add((item.class_, start, end))
        for square, point in ((start, item.points[0]), (end, item.points[-1])):
            x, y = square_cell(int(square), board.width, board.height)
            centre = ((x + 0.5) * 32, (y + 0.5) * 32)
            assert (item.coordinates.x + point.x, item.coordinates.y + point.y) == centre
    expected = {("ladder", a, b) for a, b in board.ladders}
    expected |= {("snake", a, b) for a, b in board.snakes}
    assert found == expected and len(jumps.tiled_objects) == len(expected)
    assert tmap.properties is not None and tmap.properties["faces"] == level.rules.faces


def test_csv_and_json_grids_of_each_game(tmp_path: Path) -> None:
    for name in ("sliding_4x4_colour_3.json", "ladders_chutes_10x10.json"):
        item, level = _document(name)
        source = str(LEVELS / name)
        out = tmp_path / f"{name}.csv"
        assert _run("export", source, "--format", "csv", "-o", str(out)).exit_code == 0
        rows = [[int(v) for v in row] for row in csv.reader(out.read_text().splitlines())]
        out = tmp_path / f"{name}.grid.json"
        written = _run("export", source, "--format", "json-grid", "-o", str(out))
        assert written.exit_code == 0 and "(cells: " in written.stderr
        data = json.loads(out.read_text())
        assert data["grid"] == rows and data["game"] == item.name
        assert data["id"] == item.dump(level)["id"]
        if item.name == "sliding-puzzle":
            assert rows == level.start.rows() and data["goal"] == level.goal.rows()
            assert set(data["colours"]) == {str(k) for k in set(level.goal.cells) - {0}}
        else:
            board = level.board
            assert (data["width"], data["height"]) == (board.width, board.height)
            assert sorted(v for row in rows for v in row) == list(range(1, board.squares + 1))
            assert rows[-1][0] == 1 and rows[-2][0] == 2 * board.width  # boustrophedon
            assert data["ladders"] == [list(j) for j in board.ladders]
            assert data["snakes"] == [list(j) for j in board.snakes]


def test_a_pack_of_two_sizes_shares_one_tileset(tmp_path: Path) -> None:
    pack = tmp_path / "pack"
    pack.mkdir()
    for name in ("sliding_3x3_numbered.json", "sliding_5x3_numbered.json"):
        shutil.copy(LEVELS / name, pack / name)
    out = tmp_path / "out"
    result = _run("export", str(pack), "--format", "tiled", "-o", str(out))
    assert result.exit_code == 0, result.output
    tileset = json.loads((out / "tileset.tsj").read_text())
    numbers = [tile["properties"][0]["value"] for tile in tileset["tiles"]]
    assert numbers == list(range(1, 15))  # 1..8 of the 3x3, then 9..14 of the 5x3: each once
    for name in ("sliding_3x3_numbered", "sliding_5x3_numbered"):
        _, level = _document(f"{name}.json")
        tmap, tiles = _tiled(out / f"{name}.tmj")
        data = _layer(tmap, "start").data
        assert [[0 if g == 0 else tiles[g].properties["number"] for g in r] for r in data] == (
            level.start.rows()
        )


def test_a_game_without_export_is_refused_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from levelgen import puzzles

    monkeypatch.setenv(FAMILIES_VARIABLE, "counting=tests.family_counting:COUNTING")
    level = tmp_path / "count.json"
    level.write_text(json.dumps({"game": "counting", "start": 3, "goal": 40}))
    try:
        for form, out in (("tiled", "c.tmj"), ("csv", "c.csv")):
            result = _run("export", str(level), "--format", form, "-o", str(tmp_path / out))
            assert result.exit_code == 2
            assert result.stderr == f"{level}: game 'counting' has no export operation\n"
        pack = tmp_path / "pack"
        pack.mkdir()
        shutil.copy(level, pack / "001.json")
        result = _run("export", str(pack), "--format", "tiled", "-o", str(tmp_path / "o"))
        assert result.exit_code == 2 and "has no export operation" in result.stderr
        assert len(result.stderr.splitlines()) == 1
    finally:
        puzzles._loaded.pop("counting", None)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["count.json", "pack"]


def test_a_manifest_given_as_a_level_says_what_it_is(tmp_path: Path) -> None:
    manifest = tmp_path / "manifest.json"
    manifest.write_text(
        json.dumps({"game": "sliding-puzzle", "parameters": {}, "levels": [{"file": "001.json"}]})
    )
    for args in (
        ["render", str(manifest), "-o", str(tmp_path / "m.png")],
        ["export", str(manifest), "--format", "csv", "-o", str(tmp_path / "m.csv")],
        ["play", str(manifest), "-o", str(tmp_path / "m.html")],
    ):
        result = _run(*args)
        assert result.exit_code == 3
        assert result.stderr == (
            f"{manifest}: a pack manifest, not a level: {args[0]} the pack's directory\n"
        )
    assert [p.name for p in tmp_path.iterdir()] == ["manifest.json"]
