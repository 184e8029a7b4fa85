"""Picture puzzles: the image cut into the tiles (cropped to the board's aspect, the tiles put
back in goal order give the whole picture), ``render`` and ``play`` with ``--image`` and
``--numbers``, and the refusals (not an image, a colour puzzle, another game, --numbers
alone), each one line naming the option."""

from __future__ import annotations

import base64
import io
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageDraw, ImageStat
from typer.testing import CliRunner

from levelgen.cli import app
from levelgen.sliding.picture import PictureError, cut_picture, read_picture
from levelgen.sliding.rules import Frame
from tests import ROOT

LEVELS = ROOT / "levels"
NS = "{http://www.w3.org/2000/svg}"
runner = CliRunner()


def _image(w: int, h: int, fmt: str = "PNG", alpha: bool = False) -> bytes:
    image = Image.new("RGBA" if alpha else "RGB", (w, h), (0, 0, 0, 255) if alpha else "black")
    draw = ImageDraw.Draw(image)
    for x in range(w):  # a ramp left to right, and a red band across the middle third
        draw.line([(x, 0), (x, h)], fill=(0, x * 255 // w, 255 - x * 255 // w))
    draw.rectangle((0, h // 3, w, 2 * h // 3), fill=(255, 0, 0))
    buffer = io.BytesIO()
    image.save(buffer, format=fmt)
    return buffer.getvalue()


def test_tiles_in_goal_order_make_the_whole_picture() -> None:
    goal = Frame(3, 2, (1, 2, 3, 4, 5, 0))
    cut = cut_picture(_image(90, 60), goal, 20)
    assert cut.mime == "image/png" and sorted(cut.tiles) == [1, 2, 3, 4, 5]
    whole = Image.open(io.BytesIO(cut.whole)).convert("RGB")
    assert whole.size == (60, 40)
    for label, data in cut.tiles.items():
        i = goal.cells.index(label)
        x, y = (i % 3) * 20, (i // 3) * 20
        tile = Image.open(io.BytesIO(data)).convert("RGB")
        assert tile.size == (20, 20)
        part = whole.crop((x, y, x + 20, y + 20))
        assert ImageStat.Stat(ImageChops.difference(tile, part)).mean == [0, 0, 0]
    assert cut_picture(_image(90, 60), goal, 20) == cut  # the same bytes every time


def test_the_picture_is_cropped_about_its_centre_to_the_board() -> None:
    # A wide image on a square board: the middle square is kept (the ramp's middle).
    cut = cut_picture(_image(300, 100, "JPEG"), Frame(2, 2, (1, 2, 3, 0)), 50)
    assert cut.mime == "image/jpeg"
    whole = Image.open(io.BytesIO(cut.whole)).convert("RGB")
    left = whole.getpixel((2, 10))
    right = whole.getpixel((97, 10))
    assert isinstance(left, tuple) and isinstance(right, tuple)
    assert 70 < left[1] < 110 and 150 < right[1] < 190  # green runs 0..255 over the full width
    assert cut_picture(_image(40, 40, alpha=True), Frame(2, 2, (1, 2, 3, 0)), 8).mime == (
        "image/png"
    )


@pytest.mark.parametrize("data", [b"", b"not an image", _image(10, 10, "GIF")])
def test_bytes_that_are_no_png_or_jpeg_are_refused(data: bytes) -> None:
    with pytest.raises(PictureError):
        read_picture(data)


def test_render_with_an_image(tmp_path: Path) -> None:
    level = str(LEVELS / "sliding_4x4_numbered_40.json")
    (tmp_path / "p.png").write_bytes(_image(120, 120))
    svg, png = tmp_path / "s.svg", tmp_path / "s.png"
    for out, extra in ((svg, ["--numbers"]), (png, [])):
        args = ["render", level, "-o", str(out), "--image", str(tmp_path / "p.png"), *extra]
        result = runner.invoke(app, args)
        assert result.exit_code == 0, result.output
    root = ET.fromstring(svg.read_text(encoding="utf-8"))
    start = [e for e in root.iter(f"{NS}g") if (e.get("class") or "").startswith("tile start")]
    assert len(start) == 15
    for tile in start:
        (image,) = tile.iter(f"{NS}image")
        assert image.get("href", "").startswith("data:image/png;base64,")
        assert [t.text for t in tile.iter(f"{NS}text")] == [tile.get("data-label")]
    wholes = [e for e in root.iter(f"{NS}image") if e.get("class") == "whole"]
    assert len(wholes) == 1  # the goal
    picture = Image.open(png).convert("RGB")
    plain = tmp_path / "n.png"
    assert runner.invoke(app, ["render", level, "-o", str(plain)]).exit_code == 0
    numbers = Image.open(plain).convert("RGB")
    assert picture.size == numbers.size
    assert max(ImageStat.Stat(ImageChops.difference(picture, numbers)).mean) > 10


def test_play_with_an_image_embeds_it(tmp_path: Path) -> None:
    level = str(LEVELS / "sliding_3x3_numbered.json")
    (tmp_path / "p.jpg").write_bytes(_image(64, 64, "JPEG"))
    out = tmp_path / "p.html"
    result = runner.invoke(app, ["play", level, "-o", str(out), "--image", str(tmp_path / "p.jpg")])
    assert result.exit_code == 0, result.output
    html = out.read_text(encoding="utf-8")
    start = html.index('id="levelgen-level">') + len('id="levelgen-level">')
    data = json.loads(html[start : html.index("</script>", start)])
    picture = data["picture"]
    assert sorted(picture["tiles"], key=int) == [str(v) for v in range(1, 9)]
    assert data["pictureNumbers"] is False
    whole = picture["whole"]
    assert whole.startswith("data:image/jpeg;base64,")
    assert Image.open(io.BytesIO(base64.b64decode(whole.split(",", 1)[1]))).size == (384, 384)


def test_bad_images_and_misplaced_options(tmp_path: Path) -> None:
    numbered = str(LEVELS / "sliding_3x3_numbered.json")
    colour = str(LEVELS / "sliding_3x4_colour_2.json")
    (tmp_path / "bad.png").write_bytes(b"\x89PNG not really")
    (tmp_path / "ok.png").write_bytes(_image(30, 30))
    out = str(tmp_path / "o.html")
    cases = [
        (["play", numbered, "--image", str(tmp_path / "bad.png")], 3, "--image"),
        (["play", numbered, "--image", str(tmp_path / "none.png")], 3, "--image"),
        (["play", colour, "--image", str(tmp_path / "ok.png")], 2, "numbered puzzle"),
        (["play", numbered, "--numbers"], 2, "--numbers"),
        (
            ["play", str(LEVELS / "classic_12x8.json"), "--image", str(tmp_path / "ok.png")],
            2,
            "--image",
        ),
        (
            [
                "play",
                str(LEVELS / "ladders_medium_10x10.json"),
                "--image",
                str(tmp_path / "ok.png"),
            ],
            2,
            "--image",
        ),
    ]
    for args, code, needle in cases:
        result = runner.invoke(app, [*args, "-o", out])
        assert result.exit_code == code, (args, result.output)
        assert needle in result.output, (args, result.output)
        assert "Traceback" not in result.output
    assert not Path(out).exists()
