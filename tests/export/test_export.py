"""Exports: Tiled maps read back by pytiled-parser (a parser we did not write) give the board
cell for cell, their tileset image has one tile per kind, CSV and JSON grids, whole packs."""

from __future__ import annotations

import csv
import json
import shutil
import tempfile
from pathlib import Path

import pytest
import pytiled_parser
from hypothesis import HealthCheck, given, settings
from PIL import Image
from typer.testing import CliRunner

from levelgen.cli import app
from levelgen.export import TILE_SIZE, grid_csv, grid_json, map_data, tileset_data, tileset_png
from levelgen.linkup.core.board import EMPTY, WALL, Board
from levelgen.linkup.core.level import Level
from levelgen.linkup.core.rules import Rules
from levelgen.linkup.draw.export import export_grid, gid_of
from levelgen.linkup.files import read_level
from levelgen.linkup.schema import content_id
from tests import ROOT
from tests.strategies import boards, rules_st

ROOT = ROOT
LEVELS = ROOT / "levels"
runner = CliRunner()


def _board_from_tiled(path: Path) -> tuple[list[list[int]], dict[str, object]]:
    """The grid of cell values read back through pytiled-parser: each gid's tile gives its
    ``kind`` property; gid 0 is a hole."""
    tmap = pytiled_parser.parse_map(path)
    (layer,) = tmap.layers
    assert isinstance(layer, pytiled_parser.TileLayer) and layer.data is not None
    kinds: dict[int, int] = {}
    for firstgid, tileset in tmap.tilesets.items():
        assert tileset.tiles is not None
        for tile_id, tile in tileset.tiles.items():
            assert tile.properties is not None
            kind = tile.properties["kind"]
            assert isinstance(kind, int)
            kinds[firstgid + tile_id] = kind
            assert tile.class_ == ("wall" if kind == WALL else "tile")
        assert tileset.image is not None and tileset.image.exists()
        with Image.open(tileset.image) as image:
            assert image.size == (tileset.image_width, tileset.image_height)
            assert tileset.tile_count <= (image.width // TILE_SIZE) * (image.height // TILE_SIZE)
    grid = [[EMPTY if gid == 0 else kinds[gid] for gid in row] for row in layer.data]
    assert tmap.orientation == "orthogonal"
    return grid, dict(tmap.properties or {})


@pytest.mark.parametrize("name", ["walls_14x8.json", "no_ring_16x9.json", "diamond_12x8.json"])
def test_tiled_export_reads_back_as_the_board(name: str, tmp_path: Path) -> None:
    out = tmp_path / "map.tmj"
    result = runner.invoke(app, ["export", str(LEVELS / name), "--format", "tiled", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "map.tileset.tsj").exists() and (tmp_path / "map.tileset.png").exists()
    level = read_level(LEVELS / name).to_core()
    grid, properties = _board_from_tiled(out)
    assert grid == level.board.grid()
    assert properties == {
        "id": content_id(level.board, level.rules),
        "max_turns": level.rules.max_turns,
        "outside": level.rules.outside,
    }


def test_gids() -> None:
    assert [gid_of(v) for v in (EMPTY, WALL, 1, 7)] == [0, 1, 2, 8]
    level = Level(Board.from_grid([[1, 0], [-1, 1]]), Rules(max_turns=1))
    data = map_data(export_grid(level), tileset="t.tsj")
    assert data["layers"][0]["data"] == [2, 0, 1, 2]
    assert data["tilesets"] == [{"firstgid": 1, "source": "t.tsj"}]


def test_csv_and_json_grid(tmp_path: Path) -> None:
    level = read_level(LEVELS / "walls_14x8.json").to_core()
    grid = export_grid(level)
    rows = [[int(v) for v in row] for row in csv.reader(grid_csv(grid).splitlines())]
    assert rows == level.board.grid()
    data = json.loads(grid_json(grid))
    assert data["grid"] == level.board.grid() and data["rules"] == {"max_turns": 2, "outside": True}
    assert data["id"] == content_id(level.board, level.rules)
    assert (data["width"], data["height"]) == (14, 8)
    out = tmp_path / "g.csv"
    args = ["export", str(LEVELS / "walls_14x8.json"), "--format", "csv", "-o", str(out)]
    assert runner.invoke(app, args).exit_code == 0
    assert out.read_text(encoding="utf-8") == grid_csv(grid)
    again = runner.invoke(app, [*args, "--no-clobber"])
    assert again.exit_code == 3 and "exists" in again.output
    wrong = runner.invoke(app, [*args[:-1], str(tmp_path / "g.txt")])
    assert wrong.exit_code == 2 and "--output" in wrong.output
    bad = runner.invoke(app, [*args[:3], "xml", "-o", str(out)])
    assert bad.exit_code == 2


def test_pack_export_shares_one_tileset(tmp_path: Path) -> None:
    pack = tmp_path / "pack"
    pack.mkdir()
    for name in ("classic_12x8.json", "walls_14x8.json"):
        shutil.copy(LEVELS / name, pack / name)
    out = tmp_path / "out"
    result = runner.invoke(app, ["export", str(pack), "--format", "tiled", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in out.iterdir()) == [
        "classic_12x8.tmj",
        "tileset.png",
        "tileset.tsj",
        "walls_14x8.tmj",
    ]
    for name in ("classic_12x8", "walls_14x8"):
        grid, properties = _board_from_tiled(out / f"{name}.tmj")
        assert grid == read_level(LEVELS / f"{name}.json").to_core().board.grid()
        assert str(properties["level_file"]) == f"{name}.json"


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(board=boards(max_width=10, max_height=8, max_kinds=70), rules=rules_st)
def test_any_board_reads_back_from_tiled(board: Board, rules: Rules) -> None:
    with tempfile.TemporaryDirectory() as folder:
        grid = export_grid(Level(board, rules))
        out = Path(folder)
        (out / "t.png").write_bytes(tileset_png(grid.tiles))
        tileset = tileset_data(grid.tiles, image="t.png")
        (out / "t.tsj").write_text(json.dumps(tileset), encoding="utf-8")
        (out / "m.tmj").write_text(json.dumps(map_data(grid, tileset="t.tsj")), encoding="utf-8")
        grid, properties = _board_from_tiled(out / "m.tmj")
    assert grid == board.grid()
    assert (properties["max_turns"], properties["outside"]) == (rules.max_turns, rules.outside)


def test_tiled_export_writes_no_file_it_was_not_asked_for(tmp_path: Path) -> None:
    """Beside the map only its tileset is written, under names no other output has
    (level.tileset.png, not the level.png a user may have rendered), under the rules of -o,
    and the command says which files it wrote."""
    picture = tmp_path / "level.png"
    picture.write_bytes(b"the user's own picture")
    out = tmp_path / "level.tmj"
    source = str(LEVELS / "walls_14x8.json")
    result = runner.invoke(app, ["export", source, "--format", "tiled", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert picture.read_bytes() == b"the user's own picture"
    written = [tmp_path / n for n in ("level.tileset.png", "level.tileset.tsj", "level.tmj")]
    assert sorted(tmp_path.iterdir()) == sorted([picture, *written])
    assert result.output.splitlines() == [
        f"levelgen export: wrote 3 files: {', '.join(str(p) for p in written)}"
    ]
    tileset = json.loads((tmp_path / "level.tileset.tsj").read_text())
    assert tileset["image"] == "level.tileset.png"
    assert json.loads(out.read_text())["tilesets"][0]["source"] == "level.tileset.tsj"
    # --no-clobber covers the tileset too: nothing is written when any file exists.
    out.unlink()
    again = runner.invoke(
        app, ["export", source, "--format", "tiled", "-o", str(out), "--no-clobber"]
    )
    assert again.exit_code == 3 and "level.tileset.png exists" in again.output
    assert not out.exists()
