"""Tile pictures: the built-in set (size, colours, no two alike at 32 pixels), kinds past the
set, the SVG and PNG of a board with pictures, and a studio's tile folder (``--tiles``)."""

from __future__ import annotations

import io
import itertools
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat
from typer.testing import CliRunner

from levelgen.cli import app
from levelgen.formats.scene import INK, PALETTE, Figure, Part, Scene
from levelgen.linkup.core.board import Board
from levelgen.linkup.core.rules import Rules
from levelgen.linkup.draw.icons import BG, ICONS, with_face
from levelgen.linkup.draw.player import player_assets
from levelgen.linkup.draw.svg import render_svg
from levelgen.linkup.draw.tiles import (
    DARK_FACE,
    GLYPH_TILES,
    LIGHT_FACE,
    kind_face,
    kind_name,
)
from levelgen.linkup.files import read_level
from levelgen.render.images import ImageFileError, read_numbered_images
from levelgen.render.png import scene_to_image
from tests import ROOT

LEVELS = ROOT / "levels"
NS = "{http://www.w3.org/2000/svg}"
runner = CliRunner()
#: The least share of the 32 x 32 pixels that differ between two pictures: as silhouettes
#: (every fill black, holes white; shape alone) and as drawn, in grey levels.  Measured
#: minimums: 0.057 (cat and owl) and 0.096 (strawberry and balloon).
MIN_SILHOUETTE = 0.05
MIN_GREY = 0.09


def _raster(parts: tuple[Part, ...], silhouette: bool) -> list[int]:
    if silhouette:
        parts = tuple(
            Part(p.kind, p.points, "#FFFFFF" if p.fill == BG else "#000000", p.width, False)
            for p in parts
        )
    else:
        parts = with_face(parts, LIGHT_FACE)
    image = scene_to_image(Scene(32, 32, (Figure(0, 0, 32, parts),))).convert("L")
    return list(image.tobytes())


def test_the_set_has_at_least_48_distinct_named_pictures() -> None:
    assert len(ICONS) >= 48
    assert len({name for name, _ in ICONS}) == len(ICONS)
    assert len({parts for _, parts in ICONS}) == len(ICONS)


def test_pictures_use_the_okabe_ito_palette_ink_and_white_only() -> None:
    allowed = {*PALETTE, INK, "#FFFFFF", BG}
    for name, parts in ICONS:
        assert {p.fill for p in parts} <= allowed, name
        assert any(p.fill in PALETTE for p in parts), name


@pytest.mark.parametrize("silhouette", [True, False])
def test_no_two_pictures_alike_at_32_pixels(silhouette: bool) -> None:
    rasters = [(name, _raster(parts, silhouette)) for name, parts in ICONS]
    worst = (2.0, "", "")
    for (a, x), (b, y) in itertools.combinations(rasters, 2):
        if silhouette:
            d = sum((u < 128) != (v < 128) for u, v in zip(x, y, strict=True)) / len(x)
        else:
            d = sum(abs(u - v) for u, v in zip(x, y, strict=True)) / len(x) / 255
        worst = min(worst, (d, a, b))
    print(f"closest pair ({'silhouettes' if silhouette else 'grey levels'}): {worst}")
    assert worst[0] >= (MIN_SILHOUETTE if silhouette else MIN_GREY), worst


def test_kinds_past_the_set_differ_by_face_and_badge() -> None:
    n = len(ICONS)
    names = [kind_name(k) for k in range(1, 4 * n + 1)]
    assert len(set(names)) == len(names)
    assert kind_face(1) == LIGHT_FACE and kind_face(n + 1) == DARK_FACE
    assert kind_face(2 * n + 1) == LIGHT_FACE and kind_face(3 * n + 1) == DARK_FACE
    assert kind_name(1) == ICONS[0][0] and kind_name(n + 1) == f"{ICONS[0][0]} 2"
    # The same icon in rounds 0, 1, 2: three different tiles.
    board = Board.from_grid([[1, n + 1, 2 * n + 1], [1, n + 1, 2 * n + 1]])
    root = ET.fromstring(render_svg(board, Rules(), cell_size=40))
    tiles = {e.get("data-kind"): e for e in root.iter(f"{NS}g") if e.get("class") == "tile"}
    faces = {k: tiles[k].find(f"{NS}rect").get("fill") for k in tiles}  # type: ignore[union-attr]
    assert faces == {"1": LIGHT_FACE, str(n + 1): DARK_FACE, str(2 * n + 1): LIGHT_FACE}
    badge = [t.text for t in tiles[str(2 * n + 1)].iter(f"{NS}text")]
    assert badge == ["3"] and list(tiles["1"].iter(f"{NS}text")) == []


def test_svg_tiles_are_vector_pictures_and_png_draws_them(tmp_path: Path) -> None:
    level = str(LEVELS / "classic_12x8.json")
    runner.invoke(app, ["render", level, "-o", str(tmp_path / "p.svg")])
    runner.invoke(app, ["render", level, "-o", str(tmp_path / "g.svg"), "--tiles", "glyphs"])
    root = ET.fromstring((tmp_path / "p.svg").read_text(encoding="utf-8"))
    tiles = [e for e in root.iter(f"{NS}g") if e.get("class") == "tile"]
    assert len(tiles) == read_level(level).to_core().board.tile_count()
    for tile in tiles:
        assert list(tile.iter(f"{NS}text")) == []  # no glyph: a picture
        assert list(tile.iter(f"{NS}polygon")) or list(tile.iter(f"{NS}ellipse"))
    glyphs = ET.fromstring((tmp_path / "g.svg").read_text(encoding="utf-8"))
    assert all(
        len(list(e.iter(f"{NS}text"))) == 1
        for e in glyphs.iter(f"{NS}g")
        if e.get("class") == "tile"
    )
    for tiles_option in ([], ["--tiles", "glyphs"]):
        out = tmp_path / f"{len(tiles_option)}.png"
        result = runner.invoke(app, ["render", level, "-o", str(out), *tiles_option])
        assert result.exit_code == 0, result.output
    pictures = Image.open(tmp_path / "0.png").convert("RGB")
    letters = Image.open(tmp_path / "2.png").convert("RGB")
    assert pictures.size == letters.size
    assert max(ImageStat.Stat(ImageChops.difference(pictures, letters)).mean) > 10


def _studio(folder: Path, kinds: range, *, svg: int | None = None) -> dict[int, tuple[int, ...]]:
    """PNG tiles of one plain colour each (kind ``svg`` as an SVG): their colours."""
    folder.mkdir()
    colours = {}
    for k in kinds:
        colour = (20 * k % 256, 255 - 15 * k % 256, 90)
        colours[k] = colour
        if k == svg:
            (folder / f"{k}.svg").write_text(
                '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">'
                '<rect width="10" height="10" fill="#123456"/></svg>',
                encoding="utf-8",
            )
            continue
        buffer = io.BytesIO()
        Image.new("RGB", (24, 24), colour).save(buffer, format="PNG")
        (folder / f"{k:02d}.png").write_bytes(buffer.getvalue())
    (folder / "README.txt").write_text("ignored", encoding="utf-8")
    return colours


def test_tile_folder_names_kinds_by_number(tmp_path: Path) -> None:
    _studio(tmp_path / "t", range(1, 5), svg=3)
    images = read_numbered_images(str(tmp_path / "t"))
    assert sorted(images) == [1, 2, 3, 4]
    assert images[3].mime == "image/svg+xml" and images[1].name == "01.png"
    (tmp_path / "t" / "2.svg").write_text("<svg/>", encoding="utf-8")
    with pytest.raises(ImageFileError, match="second picture of kind 2"):
        read_numbered_images(str(tmp_path / "t"))
    (tmp_path / "e").mkdir()
    with pytest.raises(ImageFileError, match="no tile pictures"):
        read_numbered_images(str(tmp_path / "e"))


def test_render_with_a_studio_folder_embeds_its_images(tmp_path: Path) -> None:
    level = LEVELS / "classic_12x8.json"
    board = read_level(level).to_core().board
    kinds = range(1, max(board.cells) + 1)
    colours = _studio(tmp_path / "t", kinds)
    svg, png = tmp_path / "s.svg", tmp_path / "s.png"
    for out in (svg, png):
        args = ["render", str(level), "-o", str(out), "--tiles", str(tmp_path / "t")]
        result = runner.invoke(app, [*args, "--cell-size", "40"])
        assert result.exit_code == 0, result.output
    root = ET.fromstring(svg.read_text(encoding="utf-8"))
    tiles = [e for e in root.iter(f"{NS}g") if e.get("class") == "tile"]
    assert len(tiles) == board.tile_count()
    for tile in tiles:
        (image,) = tile.iter(f"{NS}image")
        assert image.get("href", "").startswith("data:image/png;base64,")
    picture = Image.open(png).convert("RGB")
    # Cell (x, y) of a 40-pixel board: its centre shows its kind's colour.
    margin = max(10, 40 * 3 // 4)
    for pos in board.tiles():
        cx, cy = margin + 40 + pos.x * 40 + 20, margin + 40 + pos.y * 40 + 20
        got = picture.getpixel((cx, cy))
        assert isinstance(got, tuple)
        want = colours[board[pos]]
        assert max(abs(a - b) for a, b in zip(got, want, strict=True)) <= 3, (pos, got, want)


def test_tile_folder_refusals(tmp_path: Path) -> None:
    level = str(LEVELS / "classic_12x8.json")
    top = max(read_level(level).to_core().board.cells)
    _studio(tmp_path / "short", range(1, top))  # the last kind missing
    out = tmp_path / "x.svg"
    result = runner.invoke(
        app, ["render", level, "-o", str(out), "--tiles", str(tmp_path / "short")]
    )
    assert result.exit_code == 2 and f"no picture of kind {top}" in result.output
    assert "--tiles" in result.output and not out.exists()
    played = runner.invoke(
        app, ["play", level, "-o", str(tmp_path / "p.html"), "--tiles", str(tmp_path / "short")]
    )
    assert played.exit_code == 2 and f"kind {top}" in played.output
    _studio(tmp_path / "vector", range(1, top + 1), svg=1)
    png = runner.invoke(
        app, ["render", level, "-o", str(tmp_path / "x.png"), "--tiles", str(tmp_path / "vector")]
    )
    assert png.exit_code == 0, png.output
    with Image.open(tmp_path / "x.png") as drawn:  # kind 1, the SVG's colour, drawn by resvg
        assert (0x12, 0x34, 0x56) in {c for _, c in drawn.convert("RGB").getcolors(1 << 20) or []}
    broken = tmp_path / "broken"
    _studio(broken, range(1, top + 1))
    (broken / "03.png").write_bytes(b"not a png")
    bad = runner.invoke(app, ["render", level, "-o", str(out), "--tiles", str(broken)])
    assert bad.exit_code == 3 and "03.png: not a readable PNG or JPEG image" in bad.output
    assert len(bad.output.strip().splitlines()) == 1
    missing = runner.invoke(
        app, ["render", level, "-o", str(out), "--tiles", str(tmp_path / "nope")]
    )
    assert (
        missing.exit_code == 3 and "--tiles" in missing.output and "not a folder" in missing.output
    )
    sliding = str(LEVELS / "sliding_3x3_numbered.json")
    other = runner.invoke(app, ["render", sliding, "-o", str(out), "--tiles", "glyphs"])
    assert other.exit_code == 2 and "--tiles" in other.output
    assert not list(tmp_path.glob(".*.tmp"))


def test_player_data_carries_one_data_uri_per_kind() -> None:
    level = read_level(LEVELS / "classic_12x8.json").to_core()
    top = max(level.board.cells)
    data = player_assets(level).data
    assert len(data["pictures"]) == len(data["faces"]) == len(data["names"]) == top
    assert all(uri.startswith("data:image/svg+xml;base64,") for uri in data["pictures"])
    assert len(set(data["pictures"])) == top and data["names"][0] == ICONS[0][0]
    glyphs = player_assets(level, tiles=GLYPH_TILES).data
    assert glyphs["pictures"] is None and glyphs["names"] is None
