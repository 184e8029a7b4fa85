"""The player page without a browser: one self-contained file (no external script, style,
font or request; a Content Security Policy that forbids connections unless an API base is
given), the level and certificate embedded safely, deterministic bytes, ``levelgen play``."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from levelgen.cli import app
from levelgen.linkup.core.board import Board
from levelgen.linkup.core.level import Level
from levelgen.linkup.core.rules import Rules
from levelgen.linkup.files import read_level
from tests import ROOT
from tests.linkup.draw.pages import build_player_html

LEVEL = ROOT / "levels" / "classic_12x8.json"
runner = CliRunner()


def _embedded(page: str) -> dict[str, object]:
    found = re.search(r'<script type="application/json" id="levelgen-level">(.*?)</script>', page)
    assert found is not None
    data = json.loads(found.group(1))
    assert isinstance(data, dict)
    return data


def test_page_is_self_contained_and_carries_the_level() -> None:
    level = read_level(LEVEL).to_core()
    page = build_player_html(level)
    assert page == build_player_html(level)
    # Nothing is fetched: no src/href attributes, no @import or url() in the style.
    assert not re.search(r"\b(src|href)\s*=", page)
    assert "@import" not in page and "url(" not in page
    assert "connect-src 'none'" in page and "default-src 'none'" in page
    assert 'id="hint"' not in page and 'id="shuffle"' not in page
    data = _embedded(page)
    assert data["board"] == {"width": 12, "height": 8, "rows": level.board.grid()}
    assert data["rules"] == {"max_turns": 2, "outside": True}
    assert data["apiBase"] is None
    solution = data["solution"]
    assert isinstance(solution, list) and len(solution) == len(level.solution or ())
    first = (level.solution or ())[0]
    assert solution[0] == {
        "a": list(first.a),
        "b": list(first.b),
        "kind": first.kind,
        "path": [list(p) for p in first.path.corners],
    }


def test_api_base_adds_hint_and_shuffle() -> None:
    level = Level(Board.from_grid([[1, 1]]), Rules())
    page = build_player_html(level, api_base="https://api.example.org/base/")
    assert 'id="hint"' in page and 'id="shuffle"' in page
    assert "connect-src 'self' https://api.example.org;" in page
    assert _embedded(page)["apiBase"] == "https://api.example.org/base"
    assert "connect-src 'self';" in build_player_html(level, api_base="")
    for bad in ('http://a"b', "https://user@host", '/x"onload="y'):
        with pytest.raises(ValueError, match="api_base"):
            build_player_html(level, api_base=bad)


def test_script_closing_tags_cannot_escape_the_json() -> None:
    level = Level(Board.from_grid([[1, 1]]), Rules())
    page = build_player_html(level, title="</script><script>alert(1)</script>")
    assert "<script>alert(1)" not in page
    assert page.count("</script>") == 4


def test_play_command(tmp_path: Path) -> None:
    out = tmp_path / "level.html"
    result = runner.invoke(app, ["play", str(LEVEL), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert _embedded(out.read_text(encoding="utf-8"))["board"] is not None
    again = runner.invoke(app, ["play", str(LEVEL), "-o", str(out), "--no-clobber"])
    assert again.exit_code == 3 and "exists" in again.output
    wrong = runner.invoke(app, ["play", str(LEVEL), "-o", str(tmp_path / "x.txt")])
    assert wrong.exit_code == 2
    api = runner.invoke(app, ["play", str(LEVEL), "-o", str(out), "--api-base", "ftp://x"])
    assert api.exit_code == 2 and "--api-base" in api.output
    api = runner.invoke(app, ["play", str(LEVEL), "-o", str(out), "--api-base", "http://u@h"])
    assert api.exit_code == 2 and "--api-base" in api.output
    bad = tmp_path / "bad.json"
    bad.write_text("{", encoding="utf-8")
    broken = runner.invoke(app, ["play", str(bad), "-o", str(tmp_path / "b.html")])
    assert broken.exit_code == 3 and not (tmp_path / "b.html").exists()


@pytest.mark.parametrize(
    ("name", "pointer"),
    [("slide_down_12x8.json", "slide"), ("layers_turtle_12x8.json", "layers")],
)
def test_variant_levels_build_a_page(name: str, pointer: str, tmp_path: Path) -> None:
    """Sliding and layered levels get a page (no refusal) whose embedded rules and board are
    the level file's own objects (``rules.slide``, ``board.layers``), with the slide script."""
    path = ROOT / "levels" / name
    level = read_level(path).to_core()
    page = build_player_html(level, api_base="")
    data = _embedded(page)
    written = json.loads(path.read_text(encoding="utf-8"))
    assert data["rules"] == written["rules"] and data["board"] == written["board"]
    assert (pointer == "slide") == ("slide" in data["rules"])  # type: ignore[operator]
    assert (pointer == "layers") == ("layers" in data["board"])  # type: ignore[operator]
    assert "LinkupSlide" in page and page == build_player_html(level, api_base="")
    assert ("slide down after every removal" in page) == (pointer == "slide")
    assert ("4 stacked layers" in page) == (pointer == "layers")
    out = tmp_path / "variant.html"
    result = runner.invoke(app, ["play", str(path), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert _embedded(out.read_text(encoding="utf-8"))["rules"] == written["rules"]


def test_layers_with_sliding_do_not_combine() -> None:
    stacked = Board(2, 1, (1, 1), ((1, 1),))
    with pytest.raises(ValueError, match="do not combine"):
        build_player_html(Level(stacked, Rules(slide="down")))
