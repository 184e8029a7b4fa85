"""The snakes-and-ladders editor in a real Chromium on a real service (``tests/editor.py``):
jumps drawn by drags get the exact expected rolls the family computes, the fewest rolls with
the squares they visit and the distribution plot; a trap is highlighted; an invalid jump is
marked with its problem; selection and deletion, undo and redo; the downloaded level passes
``levelgen verify``; no request leaves for elsewhere; the board fits a phone's width.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from levelgen.ladders.analysis import Unsolvable, analyse
from levelgen.ladders.rules import Board, Rules
from tests.editor import EditorPage, mouse_drag, only_to

GAME = "snakes-ladders"
ROOT = Path(__file__).resolve().parents[2]


def _drag(page: Any, a: int, b: int) -> None:
    """A drag with the mouse from the centre of square ``a`` to that of square ``b``."""
    square = '#sl-board rect[data-square="{}"]'
    mouse_drag(page, "#sl-board", square.format(a), square.format(b))


def _touch_drag(page: Any, a: int, b: int) -> None:
    """The same drag with a finger (touch events through the DevTools protocol)."""
    page.locator("#sl-board").scroll_into_view_if_needed()
    boxes = [page.locator(f'#sl-board rect[data-square="{s}"]').bounding_box() for s in (a, b)]
    (x0, y0), (x1, y1) = [(r["x"] + r["width"] / 2, r["y"] + r["height"] / 2) for r in boxes if r]
    cdp = page.context.new_cdp_session(page)
    cdp.send("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 1})
    cdp.send(
        "Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x0, "y": y0}]}
    )
    for k in range(1, 7):
        x, y = x0 + (x1 - x0) * k / 6, y0 + (y1 - y0) * k / 6
        cdp.send(
            "Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]}
        )
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


def _board(ed: EditorPage) -> dict[str, Any]:
    board: dict[str, Any] = ed.page.evaluate("LevelgenEditor.level().board")
    return board


def test_drawn_jumps_get_the_exact_analysis(editor: Any, tmp_path: Path) -> None:
    ed = editor(GAME)
    page = ed.page
    assert ed.verdict()[0] == "solvable"  # the new, empty 10x10 board
    assert ed.after(lambda: _drag(page, 3, 22))[0] == "solvable"
    state, text = ed.after(lambda: _drag(page, 40, 5))
    assert _board(ed) == {"width": 10, "height": 10, "ladders": [[3, 22]], "snakes": [[40, 5]]}
    found = analyse(Board(10, 10, ((3, 22),), ((40, 5),)), Rules())
    assert not isinstance(found, Unsolvable)
    assert state == "solvable"
    assert f"{found.expected_rolls.value:.4f}" in text
    fraction = found.expected_rolls.fraction
    assert page.get_attribute("#sl-fraction", "data-fraction") == fraction
    # A long fraction is abbreviated, its full digits a click away.
    assert len(fraction) > 40 and "digits" in page.inner_text("#sl-fraction summary")
    page.click("#sl-fraction summary")
    assert page.inner_text("#sl-fraction .sl-full") == fraction
    assert float(page.inner_text("#sl-decimal")) == found.expected_rolls.value
    assert int(page.inner_text("#sl-fewest")) == found.fewest_rolls
    assert page.inner_text("#sl-sequence") == ", ".join(map(str, found.fewest_sequence))
    # The squares the fewest rolls visit are marked on the board.
    visited = [int(s) for s in page.inner_text("#sl-visits").split(" → ")]
    assert visited[0] == 0 and visited[-1] == 100 and len(visited) == found.fewest_rolls + 1
    marked = page.eval_on_selector_all("rect.sl-path", "rs => rs.map(r => +r.dataset.square)")
    assert sorted(marked) == sorted({s for s in visited if s})
    # The plot: one point per roll written, the median and p90 marked.
    points = page.get_attribute("#sl-plot polyline", "points")
    assert points is not None and len(points.split()) == len(found.distribution) + 1
    assert page.locator("#sl-plot .sl-median").count() == 1
    assert page.locator("#sl-plot .sl-p90").count() == 1

    # Undo takes the snake away, redo brings it back.
    ed.after(lambda: page.click("#undo"))
    assert _board(ed)["snakes"] == []
    ed.after(lambda: page.click("#redo"))
    assert _board(ed)["snakes"] == [[40, 5]]

    # The downloaded level carries its analysis and passes the verifier.
    with page.expect_download() as got:
        page.click("#download")
    path = tmp_path / "level.json"
    got.value.save_as(path)
    run = subprocess.run(
        [sys.executable, "-m", "levelgen", "verify", str(path)], capture_output=True, text=True
    )
    assert run.returncode == 0, run.stdout + run.stderr

    # A tap on a square a jump starts on selects it; Delete removes it.
    page.locator("#sl-board").scroll_into_view_if_needed()
    page.locator('#sl-board rect[data-square="40"]').click(force=True)
    assert "snake 40 → 5" in page.inner_text("#sl-selected")
    ed.after(lambda: page.keyboard.press("Delete"))
    assert _board(ed)["snakes"] == []

    # A lower board keeps the jumps that fit on it.
    ed.after(lambda: _drag(page, 60, 70))
    state, _ = ed.after(lambda: (page.fill("#sl-height", "5"), page.press("#sl-height", "Enter")))
    assert state == "solvable"
    assert _board(ed) == {"width": 10, "height": 5, "ladders": [[3, 22]], "snakes": []}
    assert page.locator("#sl-board rect.sl-square").count() == 50
    assert "removed 1 jump" in page.inner_text("#message")

    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    only_to(ed)


def test_a_trap_and_an_invalid_jump_are_shown(editor: Any) -> None:
    ed = editor(GAME)
    page = ed.page
    # A two-faced die, exact overshoot: the snakes on 41 and 42 make a wall that no roll
    # from 11..40 passes; only the ladder from 10 leads on to the end.
    ed.after(lambda: (page.fill("#sl-faces", "2"), page.press("#sl-faces", "Enter")))
    ed.after(lambda: _touch_drag(page, 10, 80))
    assert _board(ed)["ladders"] == [[10, 80]]
    ed.after(lambda: _drag(page, 41, 40))
    state, text = ed.after(lambda: _drag(page, 42, 40))
    assert state == "unsolvable", text
    found = analyse(Board(10, 10, ((10, 80),), ((41, 40), (42, 40))), Rules(2))
    assert isinstance(found, Unsolvable)
    assert found.trapped == tuple(range(11, 41))
    trapped = page.eval_on_selector_all("rect.sl-trap", "rs => rs.map(r => +r.dataset.square)")
    assert sorted(trapped) == list(found.trapped)
    assert ", ".join(map(str, found.rolls)) in page.inner_text("#details")
    # A jump from the last square is invalid: its problem names it and the jump is marked.
    state, text = ed.after(lambda: _drag(page, 100, 90))
    assert state == "invalid", text
    assert "/board/snakes/2/0" in text and "last square" in text
    assert page.locator(".sl-jump.sl-bad").get_attribute("data-index") == "2"
    assert "/board/snakes/2/0" in page.inner_text("#sl-problems")
    # The keyboard form draws a jump too.
    page.fill("#sl-from", "12")
    page.fill("#sl-to", "30")
    ed.after(lambda: page.click("#sl-add"))
    assert [12, 30] in _board(ed)["ladders"]
    # The arrows on the focused board select a jump, Delete removes it.
    page.focus("#sl-board")
    page.keyboard.press("Escape")
    assert page.inner_text("#sl-selected") == "no jump selected"
    page.keyboard.press("ArrowLeft")
    assert "snake 100 → 90" in page.inner_text("#sl-selected")
    page.keyboard.press("ArrowRight")
    assert "ladder 10 → 80" in page.inner_text("#sl-selected")
    ed.after(lambda: page.keyboard.press("Delete"))
    assert _board(ed)["ladders"] == [[12, 30]]
    # A level file opens with its board and rules.
    path = ROOT / "levels" / "ladders_bounce_10x10.json"
    state, _ = ed.after(lambda: page.set_input_files("#open-file", str(path)))
    assert state == "solvable"
    saved = json.loads(path.read_text(encoding="utf-8"))
    assert _board(ed) == saved["board"]
    assert page.input_value("#sl-overshoot") == "bounce"
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    only_to(ed)
