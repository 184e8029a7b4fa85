"""Link-up's editor in a real Chromium against a real service (``levelgen serve`` on loopback,
the ``editor`` fixture): a 12x8 board drawn by clicks gets its verdict and its solution steps
on the board; a deadlocked board shows its core, the suggested fix applied makes it solvable;
odd counts are marked; fill the rest; layers and rules; keyboard; undo and redo; open and
download (the file passes ``levelgen verify``); a phone's width, painted by taps; an undecided
answer said as such; the steps of a sliding level shown as the core slides them; no request
goes anywhere but the service.

The screenshot ``levels/preview/editor_linkup.png`` (1280x800) is made by::

    LEVELGEN_SCREENSHOT=1 pytest tests/linkup/draw/test_editor_browser.py -k screenshot -n 0
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from levelgen.linkup.core.slide import slide_cells
from tests import ROOT
from tests.editor import EditorPage, Service, only_to, open_editor

LEVEL = ROOT / "levels" / "classic_12x8.json"
SCREENSHOT = ROOT / "levels" / "preview" / "editor_linkup.png"

#: A 2x2 cross of two kinds in the corner: with at most two turns no tile of it ever gets a free
#: path (a deadlock of four tiles); one swap makes it solvable.
CROSS = [(0, 0, 1), (1, 1, 1), (1, 0, 2), (0, 1, 2)]


def _brush(ed: EditorPage, value: object) -> None:
    ed.page.click(f'#brushes [data-brush="{value}"]')


def _cell(x: int, y: int) -> str:
    return f'#board [data-x="{x}"][data-y="{y}"]'


def _paint(ed: EditorPage, cells: list[tuple[int, int, object]]) -> tuple[str, str]:
    """Click each cell with its brush; the verdict after the last one."""
    verdict = ed.verdict()
    for x, y, brush in cells:
        _brush(ed, brush)
        verdict = ed.after(lambda x=x, y=y: ed.page.click(_cell(x, y)))
    return verdict


def _centre(ed: EditorPage, x: int, y: int) -> tuple[float, float]:
    box = ed.page.locator(_cell(x, y)).bounding_box()
    assert box is not None
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def _rows(ed: EditorPage) -> list[list[int]]:
    rows: list[list[int]] = ed.page.evaluate("LevelgenEditor.level().board.rows")
    return rows


def _solve_body(ed: EditorPage) -> dict[str, Any]:
    body: dict[str, Any] = ed.page.evaluate("LevelgenEditor.answer().solve.body")
    return body


def _marked(ed: EditorPage, what: str) -> set[tuple[int, int]]:
    cells = ed.page.eval_on_selector_all(
        f"#board .{what}", "els => els.map(e => [Number(e.dataset.x), Number(e.dataset.y)])"
    )
    return {(x, y) for x, y in cells}


def _cross(ed: EditorPage) -> tuple[str, str]:
    return _paint(ed, [(x, y, k) for x, y, k in CROSS])


def test_drawn_board_is_solved_and_its_solution_steps(editor: Any) -> None:
    ed = editor("linkup")
    assert ed.verdict()[0] == "invalid"  # a new 12x8 board has no tile yet
    assert _rows(ed) == [[0] * 12 for _ in range(8)]
    cells: list[tuple[int, int, object]] = [(0, 0, 1), (11, 7, 1), (5, 3, 2), (5, 6, 2)]
    cells += [(2, 2, "wall"), (3, 0, 3), (3, 5, 3)]
    state, text = _paint(ed, cells)
    assert (state, text) == ("solvable", "solvable: 3 steps")
    rows = _rows(ed)
    assert rows[0][0] == rows[7][11] == 1 and rows[2][2] == -1 and rows[6][5] == 2
    solution = _solve_body(ed)["level"]["solution"]
    ed.page.click("#next-step")
    assert ed.page.get_attribute("body", "data-step") == "0"
    assert _marked(ed, "step") == {tuple(solution[0]["a"]), tuple(solution[0]["b"])}
    corners = ed.page.get_attribute("#board .path", "points")
    assert corners is not None and len(corners.split()) == len(solution[0]["path"])
    ed.page.click("#next-step")
    # The second step is shown on the position after the first: its tiles are gone.
    gone = {tuple(solution[0]["a"]), tuple(solution[0]["b"])}
    assert gone <= _marked(ed, "hole")
    assert ed.page.inner_text("#step-text") == "step 2 of 3"
    ed.page.click("#prev-step")
    assert ed.page.inner_text("#step-text") == "step 1 of 3"
    ed.page.wait_for_selector("#score:has-text('(')")
    assert ed.page.inner_text("#score").startswith("difficulty: ")
    # An odd count: the kind is flagged and the cell named by the problem marked.
    state, text = _paint(ed, [(8, 1, 4)])
    assert state == "invalid"
    assert (8, 1) in _marked(ed, "problem")
    odd = ed.page.eval_on_selector_all("#counts li.odd", "els => els.map(e => e.dataset.kind)")
    assert odd == ["4"]
    assert "/board/rows/1/8" in ed.page.inner_text("#details")
    # A drag paints every cell it crosses, as one change.
    _brush(ed, 6)
    start, end = (_centre(ed, x, 7) for x in (0, 3))
    before = _rows(ed)

    def drag() -> None:
        ed.page.mouse.move(*start)
        ed.page.mouse.down()
        ed.page.mouse.move(*end, steps=12)
        ed.page.mouse.up()

    ed.after(drag)
    assert _rows(ed)[7][:4] == [6, 6, 6, 6]
    ed.after(lambda: ed.page.click("#undo"))
    assert _rows(ed) == before
    only_to(ed)


def test_deadlock_core_fix_undo_redo_and_download(editor: Any, tmp_path: Path) -> None:
    ed = editor("linkup")
    state, _ = _cross(ed)
    assert state == "unsolvable"
    core = {tuple(p) for p in _solve_body(ed)["deadlock"]}
    assert core == {(0, 0), (1, 0), (0, 1), (1, 1)}
    assert _marked(ed, "core") == core
    ed.page.click("#suggest-fix")
    ed.page.wait_for_selector("#apply-fix")
    assert "1 swap make" in ed.page.inner_text("#fix-result")
    assert len(_marked(ed, "swap")) == 2
    broken = _rows(ed)
    assert ed.after(lambda: ed.page.click("#apply-fix"))[0] == "solvable"
    fixed = _rows(ed)
    changed = [(x, y) for y in range(8) for x in range(12) if broken[y][x] != fixed[y][x]]
    assert len(changed) == 2
    assert ed.after(lambda: ed.page.click("#undo"))[0] == "unsolvable"
    assert _rows(ed) == broken
    assert ed.after(lambda: ed.page.click("#redo"))[0] == "solvable"
    assert _rows(ed) == fixed
    with ed.page.expect_download() as got:
        ed.page.click("#download")
    saved = tmp_path / "level.json"
    got.value.save_as(saved)
    level = json.loads(saved.read_text())
    assert level["board"]["rows"] == fixed and level["solution"]
    run = subprocess.run(
        [sys.executable, "-m", "levelgen", "verify", str(saved)], capture_output=True, text=True
    )
    assert run.returncode == 0, run.stdout + run.stderr
    only_to(ed)


def test_fill_the_rest_layers_rules_and_keys(editor: Any) -> None:
    ed = editor("linkup")
    _paint(ed, [(0, 0, 1), (4, 4, 1), (2, 2, 3)])
    _brush(ed, "slot")
    for x, y in [(6, 1), (7, 1), (6, 2)]:
        ed.page.click(_cell(x, y))
    assert _marked(ed, "slot") == {(6, 1), (7, 1), (6, 2)}
    state, _ = ed.after(lambda: ed.page.click("#fill"))
    assert state == "solvable"
    rows = _rows(ed)
    assert all(rows[y][x] >= 1 for x, y in [(6, 1), (7, 1), (6, 2)])
    assert rows[0][0] == rows[4][4] == 1 and rows[2][2] == 3
    assert _marked(ed, "slot") == set()
    # Rules: no ring, no turn; a layer above; keys paint.
    ed.after(lambda: ed.page.uncheck("#outside"))
    ed.page.fill("#max-turns", "0")
    ed.after(lambda: ed.page.press("#max-turns", "Enter"))
    assert ed.page.evaluate("LevelgenEditor.level().rules") == {"max_turns": 0, "outside": False}
    ed.after(lambda: ed.page.click("#add-layer"))
    assert ed.page.input_value("#layer") == "1"
    assert ed.page.is_disabled("#slide")
    _brush(ed, 1)
    ed.page.click(_cell(9, 6))  # nothing beneath: refused, no change
    assert "needs a tile beneath" in ed.page.inner_text("#message")
    ed.after(lambda: ed.page.click(_cell(0, 0)))
    assert ed.page.evaluate("LevelgenEditor.level().board.layers[0][0][0]") == 1
    ed.after(lambda: ed.page.click("#remove-layer"))
    assert "layers" not in ed.page.evaluate("LevelgenEditor.level().board")
    board = ed.page.locator("#board")
    board.focus()
    ed.page.keyboard.press("ArrowRight")
    ed.page.keyboard.press("ArrowDown")
    ed.page.keyboard.press("#")
    ed.after(lambda: ed.page.keyboard.press(" "))
    ed.page.keyboard.press("c")
    ed.page.keyboard.press("ArrowRight")
    ed.after(lambda: ed.page.keyboard.press(" "))
    rows = _rows(ed)
    assert rows[1][1] == -1 and rows[1][2] == 12
    ed.page.fill("#width", "6")
    ed.after(lambda: ed.page.press("#width", "Enter"))
    assert len(_rows(ed)[0]) == 6
    only_to(ed)


def test_open_file_phone_width_and_taps(browser: Any, editor_service: Service) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    try:
        ed = open_editor(context.new_page(), editor_service, "linkup")
        state, text = ed.after(lambda: ed.page.set_input_files("#open-file", str(LEVEL)))
        assert (state, text) == ("solvable", "solvable: 48 steps")
        assert _rows(ed) == json.loads(LEVEL.read_text())["board"]["rows"]
        assert ed.page.evaluate("document.documentElement.scrollWidth") <= 390
        box = ed.page.locator("#board").bounding_box()
        assert box is not None and box["x"] + box["width"] <= 390
        _brush(ed, "hole")
        ed.after(lambda: ed.page.tap(_cell(0, 0)))
        assert _rows(ed)[0][0] == 0
        assert ed.page.evaluate("document.documentElement.scrollWidth") <= 390
        only_to(ed)
    finally:
        context.close()


@pytest.mark.skipif(
    os.environ.get("LEVELGEN_SCREENSHOT") != "1", reason="makes the README's screenshot"
)
def test_screenshot(browser: Any, editor_service: Service) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        ed = open_editor(context.new_page(), editor_service, "linkup")
        ed.after(lambda: ed.page.set_input_files("#open-file", str(LEVEL)))
        for _ in range(3):
            ed.page.click("#next-step")
        ed.page.wait_for_selector("#score:has-text('(')")
        ed.page.mouse.move(0, 0)
        png = ed.page.screenshot()
    finally:
        context.close()
    from PIL import Image  # fewer colours: the picture stays small

    Image.open(io.BytesIO(png)).quantize(colors=96).save(SCREENSHOT, optimize=True)
    assert SCREENSHOT.stat().st_size < 150_000


def test_undecided_is_said_honestly(editor: Any) -> None:
    ed = editor("linkup")
    undecided = {
        "status": "undecided",
        "exit_code": 4,
        "message": "undecided: no answer within the time limit",
        "problems": [],
        "deadlock": [],
        "level": None,
    }
    ed.page.route(
        "**/v1/solve",
        lambda route: route.fulfill(
            status=200, content_type="application/json", body=json.dumps(undecided)
        ),
    )
    state, text = _paint(ed, [(0, 0, 1), (3, 3, 1)])
    assert (state, text) == ("unknown", "undecided: no answer within the time limit")
    assert _marked(ed, "core") == set() and ed.page.locator("#next-step").count() == 0
    only_to(ed)


def test_steps_replay_a_sliding_level(editor: Any) -> None:
    path = ROOT / "levels" / "slide_down_12x8.json"
    ed = editor("linkup")
    assert ed.after(lambda: ed.page.set_input_files("#open-file", str(path)))[0] == "solvable"
    level = _solve_body(ed)["level"]
    width, height, rule = 12, 8, level["rules"]["slide"]
    cells = [v for row in level["board"]["rows"] for v in row]
    for _ in range(6):
        ed.page.click("#next-step")
    for move in level["solution"][:5]:  # the position before step 6, as the core slides it
        for x, y in (move["a"], move["b"]):
            cells[y * width + x] = 0
        cells = slide_cells(cells, width, height, rule)
    shown = ed.page.eval_on_selector_all(
        "#board [data-x]",
        """els => els.map(e => [Number(e.dataset.x), Number(e.dataset.y),
            e.classList.contains('wall') ? -1 : Number(e.dataset.kind || 0)])""",
    )
    assert len(shown) == width * height
    assert all(cells[y * width + x] == kind for x, y, kind in shown)
    step = level["solution"][5]
    assert _marked(ed, "step") == {tuple(step["a"]), tuple(step["b"])}
    assert cells[step["a"][1] * width + step["a"][0]] == step["kind"]
