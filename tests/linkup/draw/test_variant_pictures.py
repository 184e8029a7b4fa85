"""Pictures and Tiled exports of variant levels: stacks with height badges, the slide rule
named, the board of a step under sliding, one Tiled tile layer per board layer."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

from typer.testing import CliRunner

from levelgen.cli import app
from levelgen.linkup.core.board import Board
from levelgen.linkup.core.level import Level
from levelgen.linkup.core.rules import Rules
from levelgen.linkup.core.variant_state import state_of
from levelgen.linkup.draw.svg import render_svg
from levelgen.linkup.schema import parse_level_data
from tests import ROOT

LEVELS = ROOT / "levels"


def _level(name: str) -> Level:
    return parse_level_data(json.loads((LEVELS / name).read_text())).to_core()


def test_svg_draws_the_top_tile_and_a_height_badge() -> None:
    # layer 0: 1 2 / 3 0; layer 1: 4 0 / 3 0; layer 2: 5 0 / 0 0
    board = Board(2, 2, (1, 2, 3, 0), ((4, 0, 3, 0), (5, 0, 0, 0)))
    svg = render_svg(board, Rules(), cell_size=32)
    kinds = re.findall(r'class="tile" data-kind="(\d+)" data-x="(\d)" data-y="(\d)"', svg)
    assert sorted(kinds) == [("2", "1", "0"), ("3", "0", "1"), ("5", "0", "0")]
    badges = re.findall(r'class="stack" data-height="(\d)" data-x="(\d)" data-y="(\d)"', svg)
    assert sorted(badges) == [("2", "0", "1"), ("3", "0", "0")]
    assert "3 layers" in svg and 'class="hole"' in svg


def test_svg_names_the_slide_rule() -> None:
    board = Board(2, 1, (1, 1))
    svg = render_svg(board, Rules(slide="up-left"))
    assert "slide: up-left" in svg and "slide up-left" in svg
    assert "slide" not in render_svg(board, Rules())


def test_render_step_under_sliding_shows_the_board_of_that_moment(tmp_path: Path) -> None:
    level = _level("slide_down_12x8.json")
    assert level.solution is not None
    state = state_of(level.board, level.rules)
    for move in level.solution[:6]:
        state.remove_pair(move.a, move.b)
    expected = render_svg(state.to_board(), level.rules, path=level.solution[6].path)
    out = tmp_path / "step.svg"
    result = CliRunner().invoke(
        app, ["render", str(LEVELS / "slide_down_12x8.json"), "--step", "6", "-o", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert out.read_text() == expected


def test_render_png_and_sheet_of_variants(tmp_path: Path) -> None:
    pack = tmp_path / "pack"
    pack.mkdir()
    shutil.copy(LEVELS / "slide_center_12x8.json", pack / "001.json")
    shutil.copy(LEVELS / "layers_turtle_12x8.json", pack / "002.json")
    runner = CliRunner()
    sheet = runner.invoke(app, ["render", str(pack), "-o", str(tmp_path / "sheet.svg")])
    assert sheet.exit_code == 0, sheet.output
    png = runner.invoke(app, ["render", str(pack / "002.json"), "-o", str(tmp_path / "t.png")])
    assert png.exit_code == 0, png.output
    assert (tmp_path / "t.png").read_bytes().startswith(b"\x89PNG")


def test_tiled_export_has_one_tile_layer_per_board_layer(tmp_path: Path) -> None:
    source = LEVELS / "layers_turtle_12x8.json"
    level = _level(source.name)
    out = tmp_path / "turtle.tmj"
    result = CliRunner().invoke(app, ["export", str(source), "--format", "tiled", "-o", str(out)])
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    layers = data["layers"]
    assert [la["name"] for la in layers] == ["board"] + [
        f"layer {i}" for i in range(1, len(level.board.upper) + 1)
    ]
    assert data["nextlayerid"] == len(layers) + 1
    for la, cells in zip(layers, (level.board.cells, *level.board.upper), strict=True):
        assert la["data"] == [0 if v == 0 else 1 if v == -1 else v + 1 for v in cells]
    props = {p["name"]: p["value"] for p in data["properties"]}
    assert props["layers"] == len(layers)
    top = max(max(c) for c in (level.board.cells, *level.board.upper))
    tileset = json.loads((tmp_path / "turtle.tileset.tsj").read_text())
    assert tileset["tilecount"] >= top + 1
    slide = tmp_path / "slide.tmj"
    result = CliRunner().invoke(
        app, ["export", str(LEVELS / "slide_down_12x8.json"), "--format", "tiled", "-o", str(slide)]
    )
    assert result.exit_code == 0, result.output
    props = {p["name"]: p["value"] for p in json.loads(slide.read_text())["properties"]}
    assert props["slide"] == "down" and "layers" not in props


def test_service_svg_of_a_variant_level() -> None:
    from levelgen.service.tasks import task_svg

    text = (LEVELS / "layers_pyramid_16x9.json").read_text()
    result = task_svg(text, 20)
    assert result.status == 200 and b'class="stack"' in result.body
