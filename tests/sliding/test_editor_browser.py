"""The sliding-puzzle editor in a real Chromium on a real service (``tests/editor.py``): frames
set by drags (mouse and touch), by clicks and typed labels, by a colour brush and by typed
rows get the optimal length the family's solver gives, with the solution to step through;
two tiles swapped make a numbered board unsolvable, and the parity invariant shows with the
tiles out of place and the pair that fixes it marked; a goal with other colour counts shows
the counts and marks their tiles; the downloaded level passes ``levelgen verify``; undo and
redo; a file opened; no request leaves for elsewhere; the boards fit a phone's width.

A numbered 4x4 board is solved only when its 6-6-3 pattern databases are at hand (tests use a
throwaway cache), so numbered boards are solved here on 3x3; on 4x4 the unsolvable verdict
(the invariant: no tables) and colour boards (tables built for their goal) are checked.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from levelgen.puzzles import Budget
from levelgen.sliding import Frame, solve
from tests import ROOT
from tests.editor import EditorPage, mouse_drag, only_to, open_editor

GAME = "sliding-puzzle"
STANDARD_4X4 = [*range(1, 16), 0]


def _drag(page: Any, frame: str, a: int, b: int) -> None:
    """A drag with the mouse from the centre of cell ``a`` of a frame to that of cell ``b``."""
    cell = f'#sp-{frame} g[data-cell="{{}}"]'
    mouse_drag(page, f"#sp-{frame}", cell.format(a), cell.format(b), steps=5)


def _frame(ed: EditorPage, name: str) -> list[int]:
    rows: list[list[int]] = ed.page.evaluate(f"LevelgenEditor.level().{name}")
    return [v for row in rows for v in row]


def _marked(page: Any, frame: str, cls: str) -> list[int]:
    return sorted(
        page.eval_on_selector_all(f"#sp-{frame} g.{cls}", "gs => gs.map(g => +g.dataset.cell)")
    )


def _optimal(ed: EditorPage) -> int:
    level = ed.page.evaluate("LevelgenEditor.level()")
    found = solve(Frame.from_rows(level["start"]), Frame.from_rows(level["goal"]), Budget())
    assert found.status == "solved" and found.length is not None
    return found.length


def _fits_a_phone(page: Any) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_a_colour_board_set_by_drags_and_a_brush(editor: Any) -> None:
    ed = editor(GAME)
    page = ed.page
    assert ed.verdict() == ("solvable", "solved already: the start is the goal")
    ed.after(lambda: page.select_option("#sp-kind", "colour"))
    ed.after(lambda: page.select_option("#sp-colours", "2"))
    assert _frame(ed, "goal") == [1] * 8 + [2] * 7 + [0]
    # Drags swap two cells of the start: the blank to the corner, two tiles across the board.
    ed.after(lambda: _drag(page, "start", 15, 0))
    ed.after(lambda: _drag(page, "start", 2, 13))
    state, text = ed.after(lambda: _drag(page, "start", 5, 10))
    start = _frame(ed, "start")
    assert start[0] == 0 and start[15] == 1 and start[13] == 1 and start[2] == 2
    assert state == "solvable"
    assert text == f"optimal: {_optimal(ed)} moves"
    assert page.inner_text("#sp-optimal") == f"{_optimal(ed)} moves (proved)"

    # Three colours; a brush paints a goal cell: the counts differ, their tiles are marked.
    ed.after(lambda: page.select_option("#sp-colours", "3"))
    goal = _frame(ed, "goal")
    assert goal == [1] * 5 + [2] * 5 + [3] * 5 + [0]
    page.click('#sp-brush-list [data-brush="1"]')
    state, text = ed.after(lambda: page.locator('#sp-goal g[data-cell="6"]').click())
    assert _frame(ed, "goal")[6] == 1
    assert state == "invalid" and "/goal" in text and "label 1" in text
    differ = page.eval_on_selector_all(
        "#sp-counts tr.sp-differ", "rs => rs.map(r => r.dataset.label)"
    )
    assert differ == ["1", "2"]
    assert "6 / 5" not in page.inner_text("#sp-counts")  # start 5 of label 1, goal 6
    assert "5 / 6" in page.inner_text("#sp-counts")
    for frame in ("start", "goal"):
        cells = _frame(ed, frame)
        assert _marked(page, frame, "sp-count") == [i for i, v in enumerate(cells) if v in (1, 2)]
    assert "never changes" in page.inner_text("#sp-count-text")
    # The brush paints it back; the blank is never painted over.
    page.click('#sp-brush-list [data-brush="2"]')
    state, _ = ed.after(lambda: page.locator('#sp-goal g[data-cell="6"]').click())
    assert state == "solvable"
    page.locator('#sp-goal g[data-cell="15"]').click()
    assert _frame(ed, "goal")[15] == 0
    assert "blank" in page.inner_text("#message")
    _fits_a_phone(page)
    only_to(ed)


def test_two_tiles_swapped_make_it_unsolvable_and_the_parity_shows(editor: Any) -> None:
    ed = editor(GAME)
    page = ed.page
    # A click on a cell and a typed label: tile 3 swaps into the first cell.
    page.locator('#sp-start g[data-cell="0"]').click()
    state, text = ed.after(lambda: page.keyboard.type("3"))
    assert _frame(ed, "start") == [3, 2, 1, *STANDARD_4X4[3:]]
    assert state == "unsolvable" and "permutation is odd" in text
    assert page.inner_text("#sp-invariant") == "parity"
    assert _marked(page, "start", "sp-misplaced") == [0, 2]
    assert _marked(page, "start", "sp-pair") == [0, 2]
    assert "exchange tiles 3 and 1" in page.inner_text("#sp-pair-text")
    # The panel's fix exchanges the pair: the start is the goal again.
    assert ed.after(lambda: page.click("#sp-fix"))[0] == "solvable"
    assert _frame(ed, "start") == STANDARD_4X4
    # Two digits typed into a cell make one label: tile 12 swaps into the first cell.
    page.locator('#sp-start g[data-cell="0"]').click()
    assert ed.after(lambda: page.keyboard.type("12"))[0] == "unsolvable"
    assert _frame(ed, "start")[0] == 12 and _frame(ed, "start")[11] == 1
    assert ed.after(lambda: page.click("#undo"))[0] == "solvable"
    # A drag swaps two tiles: unsolvable again, the two marked.
    state, _ = ed.after(lambda: _drag(page, "start", 12, 13))
    assert state == "unsolvable"
    start = _frame(ed, "start")
    assert start[12:14] == [14, 13]
    assert _marked(page, "start", "sp-misplaced") == [12, 13]
    assert _marked(page, "start", "sp-pair") == [12, 13]
    # Undo brings the solved start back, redo the swapped one.
    assert ed.after(lambda: page.click("#undo"))[0] == "solvable"
    assert _frame(ed, "start") == STANDARD_4X4
    assert ed.after(lambda: page.click("#redo"))[0] == "unsolvable"
    assert _frame(ed, "start") == start
    after = start

    # A typed goal with another label: invalid, its problem and the labels' tiles shown.
    typed = "1 2 3 4 / 5 6 7 8 / 9 10 11 12 / 13 14 16 0"
    state, text = ed.after(
        lambda: (page.fill("#sp-goal-text", typed), page.press("#sp-goal-text", "Enter"))
    )
    assert state == "invalid" and "/goal" in text
    assert "/goal" in page.inner_text("#sp-problems")
    assert _marked(page, "goal", "sp-count") == [14]
    assert _marked(page, "start", "sp-count") == [after.index(15)]
    # A frame that cannot be read is not applied, and says why.
    before = ed.count()
    page.fill("#sp-goal-text", "1 2 3 / 4 5 6")
    page.press("#sp-goal-text", "Enter")
    assert "2 rows, but the board is 4 high" in page.inner_text("#sp-goal-error")
    assert ed.count() == before and _frame(ed, "goal")[14] == 16
    _fits_a_phone(page)
    only_to(ed)


def test_a_typed_frame_is_solved_stepped_through_and_downloaded(
    editor: Any, tmp_path: Path
) -> None:
    ed = editor(GAME)
    page = ed.page
    ed.after(lambda: page.select_option("#sp-width", "3"))
    ed.after(lambda: page.select_option("#sp-height", "3"))
    assert _frame(ed, "goal") == [1, 2, 3, 4, 5, 6, 7, 8, 0]
    state, text = ed.after(
        lambda: (
            page.fill("#sp-start-text", "8 1 4 / 6 7 5 / 0 3 2"),
            page.press("#sp-start-text", "Enter"),
        )
    )
    assert _frame(ed, "start") == [8, 1, 4, 6, 7, 5, 0, 3, 2]
    assert (state, text) == ("solvable", f"optimal: {_optimal(ed)} moves")
    assert _optimal(ed) == 22  # levels/sliding_3x3_numbered.json
    # Step through the solution on the start board.
    page.click('#sp-steps button[data-go="last"]')
    shown = page.eval_on_selector_all("#sp-start g", "gs => gs.map(g => +g.dataset.label)")
    assert shown == [1, 2, 3, 4, 5, 6, 7, 8, 0]
    assert page.inner_text("#sp-step") == "22 / 22"
    page.click('#sp-steps button[data-go="back"]')
    assert page.inner_text("#sp-step") == "21 / 22"
    assert page.locator("#sp-start g.sp-next").count() == 1

    with page.expect_download() as got:
        page.click("#download")
    path = tmp_path / "level.json"
    got.value.save_as(path)
    saved = json.loads(path.read_text(encoding="utf-8"))
    assert saved["metrics"]["optimal_length"] == 22 and len(saved["solution"]) == 22
    run = subprocess.run(
        [sys.executable, "-m", "levelgen", "verify", str(path)], capture_output=True, text=True
    )
    assert run.returncode == 0, run.stdout + run.stderr

    # A file opened replaces the level; undo goes back to the typed one.
    level = ROOT / "levels" / "sliding_3x4_colour_2.json"
    state, text = ed.after(lambda: page.set_input_files("#open-file", str(level)))
    assert (state, text) == ("solvable", "optimal: 16 moves")
    assert page.input_value("#sp-kind") == "colour"
    ed.after(lambda: page.click("#undo"))
    assert _frame(ed, "start") == [8, 1, 4, 6, 7, 5, 0, 3, 2]
    _fits_a_phone(page)
    only_to(ed)


def test_a_touch_drag_swaps_two_tiles(browser: Any, editor_service: Any) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    try:
        page = context.new_page()
        ed = open_editor(page, editor_service, GAME)
        cdp = context.new_cdp_session(page)

        def centre(cell: int) -> dict[str, float]:
            box = page.locator(f'#sp-start g[data-cell="{cell}"]').bounding_box()
            assert box is not None
            return {"x": box["x"] + box["width"] / 2, "y": box["y"] + box["height"] / 2}

        def touch_drag() -> None:
            a, b = centre(0), centre(5)
            cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [a]})
            for k in range(1, 6):
                point = {key: a[key] + (b[key] - a[key]) * k / 5 for key in a}
                cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [point]})
            cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})

        state, _ = ed.after(touch_drag)
        start = _frame(ed, "start")
        assert start[0] == 6 and start[5] == 1
        assert state == "unsolvable"
        only_to(ed)
    finally:
        context.close()
