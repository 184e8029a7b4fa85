"""Exports: Tiled maps read back by pytiled-parser (a parser we did not write) give the board
cell for cell, their tileset image has one tile per kind, CSV and JSON grids, whole packs."""

from __future__ import annotations

import csv
import hashlib
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
from levelgen.render.png import scene_to_png
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


#: SHA-256 of the Link-up exports written before export went through the family table
#: (``levelgen export levels/NAME.json --format F -o OUT``): the bytes must not change.
LINKUP_BYTES = {
    ("walls_14x8", "tiled", ".tmj"): "be8edd5a3a478448101599305d38e8c8"
    "abcb9bac2ce44fdee4cda9cd83aa5845",
    ("walls_14x8", "tiled", ".tileset.tsj"): "c57a749ef4e01ba07e5002b43ccf8123"
    "c4aa66d678d602a3386c1e2e1755e786",
    ("walls_14x8", "csv", ".csv"): "180b21501d40a487e0571dc2acf8fad0"
    "17c9792a9cc981b2826bc89b668f76dc",
    ("walls_14x8", "json-grid", ".json"): "490c582cc86013abb954f75e0eeaef5a"
    "9ee8b9450a3d8db0f734bed3bacf65f8",
    ("layers_pyramid_16x9", "tiled", ".tmj"): "d0224f0d6727572fb1c734357fefa365"
    "ddb054f691c734d2687c876eeda15813",
    ("layers_pyramid_16x9", "tiled", ".tileset.tsj"): "0a03601388b5b064efee30e6c1e64448"
    "e99dddcd6c4d0ef5ee5f8498ab2e02eb",
}


@pytest.mark.parametrize(("name", "form", "suffix"), sorted(LINKUP_BYTES))
def test_link_up_exports_keep_their_bytes(
    name: str, form: str, suffix: str, tmp_path: Path
) -> None:
    out = tmp_path / (f"{name}.tmj" if form == "tiled" else f"{name}{suffix}")
    result = runner.invoke(
        app, ["export", str(LEVELS / f"{name}.json"), "--format", form, "-o", str(out)]
    )
    assert result.exit_code == 0, result.output
    digest = hashlib.sha256((tmp_path / f"{name}{suffix}").read_bytes()).hexdigest()
    assert digest == LINKUP_BYTES[(name, form, suffix)]


def test_link_up_tileset_image_draws_each_tile_where_it_was(tmp_path: Path) -> None:
    """The tileset image is the wall and kinds 1..K drawn cell by cell, as it always was."""
    from levelgen.formats.scene import Scene
    from levelgen.linkup.draw.svg import cell_shapes

    level = read_level(LEVELS / "walls_14x8.json").to_core()
    grid = export_grid(level)
    top = max(level.board.cells)
    columns = 8
    rows = -(-(top + 1) // columns)
    items = []
    for tile, value in enumerate([WALL, *range(1, top + 1)]):
        x, y = (tile % columns) * TILE_SIZE, (tile // columns) * TILE_SIZE
        items.extend(cell_shapes(value, x, y, TILE_SIZE))
    reference = Scene(columns * TILE_SIZE, rows * TILE_SIZE, tuple(items))
    assert tileset_png(grid.tiles) == scene_to_png(reference)
