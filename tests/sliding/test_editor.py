"""The sliding-puzzle editor's part (``levelgen/sliding/editor.py``): the family declares it,
its page is built by the shell, and every element its script looks up is in its body (or made
by the script)."""

from __future__ import annotations

import json
import re

from levelgen.formats.scene import PALETTE
from levelgen.player.editor import build_editor_html
from levelgen.puzzles import Capability, family
from levelgen.sliding.editor import CHECK_SECONDS, editor_assets
from levelgen.sliding.rules import MAX_LABEL, MAX_SIDE, MIN_SIDE

GAME = "sliding-puzzle"


def test_the_family_declares_its_editor() -> None:
    item = family(GAME)
    assert Capability.EDIT in item.capabilities
    assert item.editor_size == "4x4"
    assert item.parse_spec({"size": item.editor_size}).width == 4
    part = item.editor(None)
    assert part.title == "levelgen editor: Sliding puzzle"
    assert part.scripts and "LevelgenEditor.register" in part.scripts[0]


def test_the_data_carries_the_limits_and_the_palette() -> None:
    data = editor_assets(None).data
    assert data["limits"]["side"] == [MIN_SIDE, MAX_SIDE]
    assert data["limits"]["label"] == MAX_LABEL
    assert data["palette"] == list(PALETTE)
    assert data["timeLimit"] == CHECK_SECONDS < data["longTimeLimit"]
    assert data["defaults"] == {"width": 4, "height": 4, "colours": 3}


def test_every_element_the_script_looks_up_is_in_the_body() -> None:
    part = editor_assets(None)
    script = part.scripts[0]
    ids = set(re.findall(r'\$\("(sp-[a-z-]+)"\)', script))
    for template in re.findall(r"\$\(`(sp-\$\{frame\}[a-z-]*)`\)", script):
        ids |= {template.replace("${frame}", frame) for frame in ("start", "goal")}
    assert {"sp-width", "sp-start", "sp-goal-text", "sp-start-caption"} <= ids
    made = set(re.findall(r'id: "(sp-[a-z-]+)"', script))  # the panel's, made by the script
    assert "sp-steps" in made
    body_ids = set(re.findall(r'id="([^"]+)"', part.body))
    assert ids - made - body_ids == set()
    # The size menus offer every size the file format allows.
    for side in ("width", "height"):
        menu = re.search(rf'<select id="sp-{side}">(.*?)</select>', part.body)
        assert menu is not None
        values = [int(v) for v in re.findall(r'value="(\d+)"', menu.group(1))]
        assert values == list(range(MIN_SIDE, MAX_SIDE + 1))


def test_the_page_is_self_contained_and_deterministic() -> None:
    item = family(GAME)
    level = item.read(
        {
            "game": GAME,
            "format_version": 1,
            "width": 3,
            "height": 3,
            "start": [[1, 2, 3], [4, 5, 6], [7, 0, 8]],
            "goal": [[1, 2, 3], [4, 5, 6], [7, 8, 0]],
        }
    )
    page = build_editor_html(item, level)
    assert page == build_editor_html(item, level)
    policy = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', page)
    assert policy is not None and "connect-src 'self';" in policy.group(1)
    found = re.search(r'id="levelgen-level">(.*?)</script>', page, re.S)
    assert found is not None
    data = json.loads(found.group(1))
    assert data["document"]["start"] == [[1, 2, 3], [4, 5, 6], [7, 0, 8]]
    assert data["family"]["cell"] == 64
    assert "http://" not in page.replace("http://www.w3.org/2000/svg", "")
