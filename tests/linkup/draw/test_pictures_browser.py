"""Pictures in a real Chromium (Playwright driving Debian's ``chromium``): the Link-up player
written by ``levelgen play`` shows the built-in pictures by default (an ``<image>`` with a
``data:`` URI per tile, a screenshot unlike the glyph page's) and a studio's images with
``--tiles FOLDER`` (each tile shows its file's colour); a sliding puzzle written with
``--image`` shows the picture's parts on its tiles and the whole picture as the goal and once
solved.  Every page is served from a fake origin and every other request is recorded: none
may leave the page.

Skipped, with the reason, only when Playwright or a Chromium binary is missing here; with
``LEVELGEN_REQUIRE_BROWSER=1`` (set by ``.ci/run``) a missing browser is a failure instead.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from PIL import Image, ImageChops, ImageDraw, ImageStat
from typer.testing import CliRunner

from levelgen.cli import app
from levelgen.formats import parse_json
from levelgen.linkup.files import read_level
from levelgen.sliding import FAMILY
from levelgen.sliding.level import SlidingLevel
from tests.browser import ORIGIN

ROOT = Path(__file__).resolve().parents[3]
LEVELS = ROOT / "levels"
runner = CliRunner()


def _write_page(tmp_path: Path, level: Path, name: str, *options: str) -> Path:
    out = tmp_path / f"{name}.html"
    result = runner.invoke(app, ["play", str(level), "-o", str(out), *options])
    assert result.exit_code == 0, result.output
    return out


def _open(page: Any, html: Path) -> list[str]:
    """Serve the page and record every other request it makes (data: URIs are no request)."""
    body = html.read_text(encoding="utf-8")
    requests: list[str] = []

    def handle(route: Any) -> None:
        if route.request.url == ORIGIN + "/play":
            route.fulfill(status=200, content_type="text/html; charset=utf-8", body=body)
        else:
            requests.append(route.request.url)
            route.abort()

    page.route("**/*", handle)
    page.goto(ORIGIN + "/play")
    page.wait_for_load_state("networkidle")
    return requests


def _shot(locator: Any, path: Path) -> Image.Image:
    locator.screenshot(path=str(path))
    return Image.open(path).convert("RGB")


def _hrefs(page: Any, selector: str) -> list[str]:
    return list(page.eval_on_selector_all(selector, "els => els.map(e => e.getAttribute('href'))"))


def test_linkup_player_shows_pictures_by_default(page: Any, tmp_path: Path) -> None:
    level = LEVELS / "classic_12x8.json"
    tiles = read_level(level).to_core().board.tile_count()
    pictures = _write_page(tmp_path, level, "pictures")
    glyphs = _write_page(tmp_path, level, "glyphs", "--tiles", "glyphs")
    assert _open(page, pictures) == []
    hrefs = _hrefs(page, "#board .tile image")
    assert len(hrefs) == tiles
    assert all(h.startswith("data:image/svg+xml;base64,") for h in hrefs)
    assert page.eval_on_selector_all("#board .tile text", "els => els.length") == 0
    label = page.get_attribute('#board .tile[data-x="0"][data-y="0"]', "aria-label")
    assert label is not None and label.startswith("kind ") and not label.startswith("kind A")
    with_pictures = _shot(page.locator("#board"), tmp_path / "pictures.png")
    # A tile's picture is drawn: its screenshot holds more than the face and the outline.
    tile = _shot(page.locator('#board .tile[data-x="1"][data-y="0"]'), tmp_path / "tile.png")
    assert len(tile.getcolors(4096) or []) > 8
    # Playing works on pictures: the first step of the certificate removes two tiles.
    page.click('#board .tile[data-x="0"][data-y="0"]')
    page.unroute("**/*")
    assert _open(page, glyphs) == []
    assert page.eval_on_selector_all("#board .tile image", "els => els.length") == 0
    with_glyphs = _shot(page.locator("#board"), tmp_path / "glyphs.png")
    assert with_pictures.size == with_glyphs.size
    diff = ImageStat.Stat(ImageChops.difference(with_pictures, with_glyphs)).mean
    assert max(diff) > 10, diff


def test_linkup_player_shows_a_studios_images(page: Any, tmp_path: Path) -> None:
    level = LEVELS / "classic_12x8.json"
    board = read_level(level).to_core().board
    folder = tmp_path / "studio"
    folder.mkdir()
    colours = {}
    for k in range(1, max(board.cells) + 1):
        colours[k] = (15 * k % 256, 200 - 9 * k % 200, 255 - 12 * k % 256)
        buffer = io.BytesIO()
        Image.new("RGB", (32, 32), colours[k]).save(buffer, format="PNG")
        (folder / f"{k}.png").write_bytes(buffer.getvalue())
    html = _write_page(tmp_path, level, "studio", "--tiles", str(folder))
    assert _open(page, html) == []
    hrefs = _hrefs(page, "#board .tile image")
    assert len(hrefs) == board.tile_count()
    assert all(h.startswith("data:image/png;base64,") for h in hrefs)
    for pos in list(board.tiles())[:6]:
        selector = f'#board .tile[data-x="{pos.x}"][data-y="{pos.y}"] image'
        shot = _shot(page.locator(selector), tmp_path / f"t{pos.x}_{pos.y}.png")
        got = shot.getpixel((shot.width // 2, shot.height // 2))
        assert isinstance(got, tuple)
        want = colours[board[pos]]
        assert max(abs(a - b) for a, b in zip(got, want, strict=True)) <= 6, (pos, got, want)


def _photo(path: Path) -> None:
    """A picture with a yellow disc in the middle on a blue to orange ramp."""
    image = Image.new("RGB", (300, 200))
    draw = ImageDraw.Draw(image)
    for x in range(300):
        draw.line([(x, 0), (x, 200)], fill=(x * 255 // 300, 100, 255 - x * 255 // 300))
    draw.ellipse((110, 60, 190, 140), fill=(240, 228, 66))
    image.save(path, quality=95)


def test_sliding_player_shows_the_picture(page: Any, tmp_path: Path) -> None:
    source = LEVELS / "sliding_3x3_numbered.json"
    level = FAMILY.read(parse_json(source.read_text(encoding="utf-8"), str(source)))
    assert isinstance(level, SlidingLevel) and level.solution
    photo = tmp_path / "photo.jpg"
    _photo(photo)
    html = _write_page(tmp_path, source, "picture", "--image", str(photo), "--numbers")
    plain = _write_page(tmp_path, source, "plain")
    assert _open(page, html) == []
    tiles = _hrefs(page, "#board .tile image")
    assert len(tiles) == level.width * level.height - 1
    assert all(h.startswith("data:image/jpeg;base64,") for h in tiles)
    assert page.eval_on_selector_all("#board .tile text", "els => els.length") == len(tiles)
    (whole,) = _hrefs(page, "#goal image.whole")
    assert whole.startswith("data:image/jpeg;base64,")
    goal = _shot(page.locator("#goal"), tmp_path / "goal.png")
    centre = goal.getpixel((goal.width // 2, goal.height // 2))
    assert isinstance(centre, tuple)
    assert centre[0] > 200 and centre[1] > 190 and centre[2] < 120, centre  # the yellow disc
    start = _shot(page.locator("#board"), tmp_path / "start.png")
    frame = level.start
    for move in level.solution:  # play the certificate by clicks
        after = frame.move(move)
        page.click(f'#board [data-cell="{after.blank}"]')
        frame = after
    assert page.evaluate("document.body.dataset.status") == "won"
    solved = _shot(page.locator("#board"), tmp_path / "solved.png")
    assert _hrefs(page, "#board image.whole") == [whole]
    assert max(ImageStat.Stat(ImageChops.difference(start, solved)).mean) > 5
    page.unroute("**/*")
    assert _open(page, plain) == []
    assert page.eval_on_selector_all("#board image", "els => els.length") == 0
    numbers = _shot(page.locator("#board"), tmp_path / "numbers.png")
    assert max(ImageStat.Stat(ImageChops.difference(start, numbers)).mean) > 10


def test_chromium_draws_the_svg_as_pillow_draws_the_png(page: Any, tmp_path: Path) -> None:
    """The two writers of one scene agree: Chromium's rendering of the pictures' SVG differs
    from the PNG about as much as it does for the glyph tiles (antialiasing, line widths
    rounded to pixels, the font), and far less than the pictures differ from the glyphs."""
    level = str(LEVELS / "classic_12x8.json")
    gaps = {}
    pngs = {}
    for name, extra in (("pictures", []), ("glyphs", ["--tiles", "glyphs"])):
        for suffix in ("svg", "png"):
            out = tmp_path / f"{name}.{suffix}"
            result = runner.invoke(app, ["render", level, "-o", str(out), *extra])
            assert result.exit_code == 0, result.output
        pngs[name] = Image.open(tmp_path / f"{name}.png").convert("RGB")
        page.set_viewport_size({"width": pngs[name].width, "height": pngs[name].height})
        svg = (tmp_path / f"{name}.svg").read_text(encoding="utf-8")
        page.set_content(f'<body style="margin:0">{svg}</body>')
        shot = _shot(page.locator("svg"), tmp_path / f"chromium-{name}.png")
        assert shot.size == pngs[name].size
        gaps[name] = max(ImageStat.Stat(ImageChops.difference(shot, pngs[name])).mean)
    apart = max(ImageStat.Stat(ImageChops.difference(pngs["pictures"], pngs["glyphs"])).mean)
    assert gaps["pictures"] < 1.5 * gaps["glyphs"] + 2, gaps
    assert gaps["pictures"] * 3 < apart, (gaps, apart)
