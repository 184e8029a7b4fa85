"""The editor's shell in a real Chromium against a real service, whatever the game: a proved
level saved to the library from the page and opened again by its id in another page; a draft
not proved solvable is not saved; a file of another game opens in that game's editor; quick
changes are checked once, the last one's answer alone shown; no request goes anywhere but the
service."""

from __future__ import annotations

import json
from typing import Any

from tests import ROOT
from tests.editor import Service, only_to, open_editor

LEVEL = ROOT / "levels" / "classic_12x8.json"
LADDERS = ROOT / "levels" / "ladders_chutes_10x10.json"


def test_save_to_the_library_then_open_it_by_its_id(
    editor: Any, browser: Any, editor_service: Service
) -> None:
    ed = editor("linkup")
    state, _ = ed.after(lambda: ed.page.set_input_files("#open-file", str(LEVEL)))
    assert state == "solvable"
    ed.page.click("#save")
    ed.page.wait_for_function(
        "() => /saved|not saved/.test(document.getElementById('message').textContent)"
    )
    level_id = json.loads(LEVEL.read_text(encoding="utf-8"))["id"]
    assert ed.page.inner_text("#message") == f"saved to the library as {level_id}"
    only_to(ed)

    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        other = open_editor(context.new_page(), editor_service, "linkup")
        other.page.fill("#level-id", level_id)
        state, _ = other.after(lambda: other.page.click("#open-stored"))
        assert state == "solvable"
        shown = other.page.evaluate("LevelgenEditor.level()")
        assert shown["board"] == json.loads(LEVEL.read_text(encoding="utf-8"))["board"]
        only_to(other)
    finally:
        context.close()


def test_a_draft_is_not_saved(editor: Any) -> None:
    ed = editor("linkup")
    assert ed.verdict()[0] != "solvable"  # a new board is no proved level
    ed.page.click("#save")
    ed.page.wait_for_function("() => document.getElementById('message').textContent !== ''")
    assert ed.page.inner_text("#message").startswith("not saved: only a level proved solvable")
    only_to(ed)


def test_a_file_of_another_game_opens_in_its_editor(editor: Any) -> None:
    ed = editor("linkup")
    with ed.page.expect_navigation():
        ed.page.set_input_files("#open-file", str(LADDERS))
    ed.checked(0)
    assert ed.page.url.endswith("/edit/snakes-ladders")
    board = ed.page.evaluate("LevelgenEditor.level()")["board"]
    assert board == json.loads(LADDERS.read_text(encoding="utf-8"))["board"]
    only_to(ed)


def test_quick_changes_are_checked_once_and_the_last_answer_wins(editor: Any) -> None:
    ed = editor("linkup")
    ed.after(lambda: ed.page.set_input_files("#open-file", str(LEVEL)))
    before = ed.count()
    ed.page.evaluate(
        "() => { document.getElementById('undo').click(); document.getElementById('redo').click();"
        " document.getElementById('undo').click(); }"
    )
    after = ed.checked(before)
    assert after == before + 3  # the answer shown is the third change's
    ed.page.wait_for_timeout(500)  # any answer to an older change would arrive by now
    assert ed.count() == after
    # The level shown and checked is the one before the file: the new board.
    assert (
        ed.page.evaluate("LevelgenEditor.level()")["board"]
        != json.loads(LEVEL.read_text(encoding="utf-8"))["board"]
    )
    only_to(ed)
