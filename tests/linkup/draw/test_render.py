"""Pictures: the SVG of a board (XML, one element per tile with its kind, walls, holes, ring,
path), the PNG drawn from the same scene (size, deterministic bytes, a golden image), pack
sheets (manifest and plain folders, broken manifests) and the ``levelgen render`` command."""

from __future__ import annotations

import hashlib
import io
import json
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image, ImageChops, ImageStat
from typer.testing import CliRunner

from levelgen.cli import app
from levelgen.linkup.core.board import EMPTY, WALL, Board
from levelgen.linkup.core.geometry import Pos
from levelgen.linkup.core.paths import find_path
from levelgen.linkup.core.rules import Rules
from levelgen.linkup.draw.glyphs import GLYPHS
from levelgen.linkup.draw.svg import PALETTE, board_scene, kind_glyph, kind_style, render_svg
from levelgen.linkup.draw.tiles import GLYPH_TILES
from levelgen.linkup.files import read_level
from levelgen.render.png import scene_to_png
from levelgen.render.sheet import PackError, read_pack, sheet_html, sheet_scene
from tests import ROOT
from tests.strategies import boards, rules_st

LEVELS = ROOT / "levels"
#: ``levelgen render levels/classic_12x8.json --step 0 -o ...``: the built-in tile pictures
#: (levelgen.linkup.draw.icons), the default.
GOLDEN = Path(__file__).parent / "data" / "classic_12x8_step0.png"
NS = "{http://www.w3.org/2000/svg}"
runner = CliRunner()


def _tiles(svg: str) -> list[ET.Element]:
    return [e for e in ET.fromstring(svg).iter(f"{NS}g") if e.get("class") == "tile"]


def test_svg_has_one_element_per_tile_with_its_kind() -> None:
    board = Board.from_grid([[1, 2, 0, -1], [2, 1, 70, 70]])
    svg = render_svg(board, Rules(), tiles=GLYPH_TILES)
    tiles = _tiles(svg)
    seen = {(int(e.get("data-x", "")), int(e.get("data-y", ""))): e for e in tiles}
    assert len(tiles) == len(seen) == board.tile_count()
    for pos in board.tiles():
        element = seen[(pos.x, pos.y)]
        assert int(element.get("data-kind", "")) == board[pos]
        text = element.find(f"{NS}text")
        assert text is not None and text.text == kind_glyph(board[pos])
    root = ET.fromstring(svg)
    classes = [e.get("class") for e in root.iter()]
    assert classes.count("wall") == 1 and classes.count("hole") == 1 and "ring" in classes
    assert kind_glyph(70) == "70" and kind_glyph(1) == "A" and kind_glyph(10) == "K"


def test_glyphs_keep_kinds_apart_beyond_the_palette() -> None:
    kinds = range(1, 200)
    assert len({kind_glyph(k) for k in kinds}) == len(kinds)
    assert all(len(kind_glyph(k)) == 1 for k in range(1, len(GLYPHS) + 1))
    assert kind_glyph(len(GLYPHS) + 1) == str(len(GLYPHS) + 1)
    assert {kind_style(k)[0] for k in kinds} == set(PALETTE)
    assert kind_style(5)[1] == "#FFFFFF" and kind_style(4)[1] == "#000000"  # blue / yellow


#: Characters easily taken for one another at a tile's size: no two of a group may both be
#: glyphs (an 18x10 level of 45 kinds drawn with ``1``, ``I`` and ``l`` was hard to read).
LOOK_ALIKES = [
    "Il1ij|!",
    "O0oQ",
    "O0oD",
    "S5s$",
    "Z2z",
    "B8",
    "G6",
    "b6",
    "bdpq",
    "g9q",
    "Yy",
    # A small letter that is its capital made smaller.
    "Cc",
    "Kk",
    "Pp",
    "Uu",
    "Vv",
    "Ww",
    "Xx",
]


@pytest.mark.parametrize("group", LOOK_ALIKES)
def test_glyphs_have_no_look_alikes(group: str) -> None:
    assert len(set(group) & set(GLYPHS)) <= 1, set(group) & set(GLYPHS)


def test_every_picture_uses_the_same_glyphs(tmp_path: Path) -> None:
    """The terminal picture, the SVG (and so the PNG, drawn from the same scene) and the
    player's data draw kind k as ``kind_glyph(k)``; the level file itself is unchanged."""
    from levelgen.linkup.draw.player import player_assets
    from levelgen.linkup.draw.terminal import render_board

    grid = [list(range(1, 24)), list(range(24, 47))] * 2
    board = Board.from_grid(grid)
    shown = render_board(board, Rules()).splitlines()
    assert shown[3].split()[2:-1] == [kind_glyph(k) for k in range(1, 24)]
    assert shown[4].split()[2:-1] == [kind_glyph(k) for k in range(24, 47)]
    tiles = _tiles(render_svg(board, Rules(), tiles=GLYPH_TILES))
    for element in tiles:
        text = element.find(f"{NS}text")
        assert text is not None and text.text == kind_glyph(int(element.get("data-kind", "")))
    level = read_level(LEVELS / "classic_12x8.json").to_core()
    assert player_assets(level).data["glyphs"] == GLYPHS


def test_path_is_drawn_through_its_corner_points() -> None:
    board = Board.from_grid([[1, 2, 1], [3, 3, 2]])
    rules = Rules()
    path = find_path(board, Pos(0, 0), Pos(2, 0), rules)
    assert path is not None
    root = ET.fromstring(render_svg(board, rules, path=path))
    lines = [e for e in root.iter(f"{NS}polyline") if e.get("class") == "path"]
    assert len(lines) == 1
    corners = [tuple(map(int, c.split(","))) for c in lines[0].get("data-corners", "").split()]
    assert corners == [tuple(p) for p in path.corners] == [(0, 0), (0, -1), (2, -1), (2, 0)]
    points = lines[0].get("points", "").split()
    assert len(points) == len(corners)


def test_closed_ring_and_determinism() -> None:
    board = read_level(LEVELS / "no_ring_16x9.json").to_core().board
    a = render_svg(board, Rules(outside=False), cell_size=20)
    assert a == render_svg(board, Rules(outside=False), cell_size=20)
    assert 'class="ring closed"' in a
    scene = board_scene(board, Rules(outside=False), cell_size=20)
    assert scene_to_png(scene) == scene_to_png(scene)


def test_png_size_matches_the_scene() -> None:
    level = read_level(LEVELS / "walls_14x8.json").to_core()
    for cell in (8, 24):
        scene = board_scene(level.board, level.rules, cell_size=cell)
        image = Image.open(io.BytesIO(scene_to_png(scene)))
        assert image.format == "PNG" and image.size == (scene.width, scene.height)
        root = ET.fromstring(render_svg(level.board, level.rules, cell_size=cell))
        assert (root.get("width"), root.get("height")) == (str(scene.width), str(scene.height))


def test_golden_image_of_the_12x8_sample(tmp_path: Path) -> None:
    out = tmp_path / "step0.png"
    args = ["render", str(LEVELS / "classic_12x8.json"), "-o", str(out), "--step", "0"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    got = Image.open(out).convert("RGB")
    want = Image.open(GOLDEN).convert("RGB")
    assert got.size == want.size
    diff = ImageStat.Stat(ImageChops.difference(got, want))
    assert max(diff.mean) < 2.0, diff.mean  # font rasterising may move a few edge pixels


def test_render_command(tmp_path: Path) -> None:
    level = str(LEVELS / "walls_14x8.json")
    svg = tmp_path / "a.svg"
    assert runner.invoke(app, ["render", level, "-o", str(svg), "--step", "3"]).exit_code == 0
    root = ET.fromstring(svg.read_text(encoding="utf-8"))
    tiles = read_level(level).to_core().board.tile_count()
    assert len([e for e in root.iter(f"{NS}g") if e.get("class") == "tile"]) == tiles - 6
    assert any(e.get("class") == "path" for e in root.iter(f"{NS}polyline"))
    plain = tmp_path / "b.svg"
    assert (
        runner.invoke(
            app, ["render", level, "-o", str(plain), "--step", "3", "--no-path"]
        ).exit_code
        == 0
    )
    assert "data-corners" not in plain.read_text(encoding="utf-8")
    again = runner.invoke(app, ["render", level, "-o", str(svg), "--no-clobber"])
    assert again.exit_code == 3 and "exists" in again.output
    for bad, hint in (
        (["-o", str(tmp_path / "a.gif")], "--output"),
        (["-o", str(svg), "--step", "999"], "--step"),
        (["-o", str(svg), "--cell-size", "2"], "--cell-size"),
    ):
        result = runner.invoke(app, ["render", level, *bad])
        assert result.exit_code == 2 and hint in result.output
    missing = runner.invoke(app, ["render", str(tmp_path / "nope.json"), "-o", str(svg)])
    assert missing.exit_code == 3 and "no such file" in missing.output
    assert not list(tmp_path.glob(".*.tmp"))


def _pack(tmp_path: Path) -> Path:
    pack = tmp_path / "pack"
    pack.mkdir()
    levels = []
    names = ["classic_12x8.json", "walls_14x8.json", "diamond_12x8.json"]
    for i, (name, score) in enumerate(zip(names, (12.5, None, 80.0), strict=True)):
        target = pack / f"{i + 1:03}.json"
        shutil.copy(LEVELS / name, target)
        data = json.loads(target.read_text(encoding="utf-8"))
        difficulty = None if score is None else {"score": score, "band": "easy"}
        levels.append(
            {
                "file": target.name,
                "id": data["id"],
                "size": "x".join(map(str, (data["board"]["width"], data["board"]["height"]))),
                "difficulty": difficulty,
                "sha256": hashlib.sha256(target.read_bytes()).hexdigest(),
            }
        )
    manifest = {"$schema": "urn:levelgen:schema:pack-manifest:v1", "pack_id": "t", "levels": levels}
    (pack / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    return pack


def test_pack_sheet_from_a_manifest(tmp_path: Path) -> None:
    pack = _pack(tmp_path)
    entries = read_pack(pack)
    assert [e.file for e in entries] == ["001.json", "002.json", "003.json"]
    assert [e.score for e in entries] == [12.5, None, 80.0]
    assert entries[1].size == "14x8"
    scene = sheet_scene(entries, title="t")
    png = scene_to_png(scene)
    assert Image.open(io.BytesIO(png)).size == (scene.width, scene.height)
    page = sheet_html(entries, title="t")
    assert (
        "<svg" in page
        and "001.json" in page
        and "http" not in page.replace("http://www.w3.org/2000/svg", "")
    )
    for out in ("sheet.png", "sheet.html", "sheet.svg"):
        result = runner.invoke(app, ["render", str(pack), "-o", str(tmp_path / out)])
        assert result.exit_code == 0, result.output
    root = ET.fromstring((tmp_path / "sheet.svg").read_text(encoding="utf-8"))
    placed = [e.get("data-file") for e in root.iter(f"{NS}g") if e.get("class") == "level"]
    assert placed == ["001.json", "002.json", "003.json"]


def test_pack_sheet_refuses_a_broken_manifest(tmp_path: Path) -> None:
    pack = _pack(tmp_path)
    manifest = json.loads((pack / "manifest.json").read_text(encoding="utf-8"))
    manifest["levels"][1]["sha256"] = "0" * 64
    (pack / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    with pytest.raises(PackError, match="/levels/1/sha256"):
        read_pack(pack)
    manifest["levels"][1]["file"] = "../x.json"
    (pack / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    result = runner.invoke(app, ["render", str(pack), "-o", str(tmp_path / "s.png")])
    assert result.exit_code == 3 and "/levels/1/file" in result.output
    assert not (tmp_path / "s.png").exists()


def test_plain_folder_is_read_in_name_order(tmp_path: Path) -> None:
    folder = tmp_path / "plain"
    folder.mkdir()
    shutil.copy(LEVELS / "walls_14x8.json", folder / "b.json")
    shutil.copy(LEVELS / "classic_12x8.json", folder / "a.json")
    assert [e.file for e in read_pack(folder)] == ["a.json", "b.json"]
    empty = tmp_path / "empty"
    empty.mkdir()
    result = runner.invoke(app, ["render", str(empty), "-o", str(tmp_path / "s.png")])
    assert result.exit_code == 3 and "no manifest.json" in result.output


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(board=boards(max_kinds=70), rules=rules_st, cell=st.sampled_from([8, 14, 20]))
def test_svg_cells_match_any_board(board: Board, rules: Rules, cell: int) -> None:
    """Every cell of any board is drawn once as what it holds, inside the picture."""
    svg = render_svg(board, rules, cell_size=cell)
    root = ET.fromstring(svg)
    width, height = int(root.get("width", "")), int(root.get("height", ""))
    drawn: dict[tuple[int, int], int] = {}
    values = {"tile": None, "hole": EMPTY, "wall": WALL}
    for e in root.iter():
        cls = e.get("class")
        if cls in values and e.get("data-x") is not None:
            where = (int(e.get("data-x", "")), int(e.get("data-y", "")))
            assert where not in drawn
            value = values[cls]
            drawn[where] = int(e.get("data-kind", "")) if value is None else value
    assert drawn == {(p.x, p.y): board[p] for p in map(Pos._make, _cells(board))}
    for e in root.iter(f"{NS}rect"):
        x, y = int(e.get("x", "0")), int(e.get("y", "0"))
        assert 0 <= x <= width and 0 <= y <= height


def _cells(board: Board) -> list[tuple[int, int]]:
    return [(x, y) for y in range(board.height) for x in range(board.width)]


def test_huge_pictures_are_refused(tmp_path: Path) -> None:
    rows = [[(x + y) % 30 + 1 for x in range(64)] for y in range(64)]
    level = {
        "$schema": "urn:levelgen:schema:level:v1",
        "game": "linkup",
        "format_version": 1,
        "rules": {"max_turns": 2, "outside": True},
        "board": {"width": 64, "height": 64, "rows": rows},
    }
    source = tmp_path / "big.json"
    source.write_text(json.dumps(level), encoding="utf-8")
    out = tmp_path / "big.png"
    result = runner.invoke(app, ["render", str(source), "-o", str(out), "--cell-size", "256"])
    assert result.exit_code == 2 and "--cell-size" in result.output and not out.exists()
