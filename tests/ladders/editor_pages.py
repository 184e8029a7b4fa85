"""The snakes-and-ladders editor's screenshot and its latency figures, on a real service on
loopback (``levelgen serve --port 0``, a throwaway library) in Debian's Chromium.

    python -m tests.ladders.editor_pages screenshot   # levels/preview/editor_ladders.png
    python -m tests.ladders.editor_pages measure      # ms from a change to its verdict

``screenshot``: the page at 1280x800 with ``levels/ladders_chutes_10x10.json`` opened and a
ladder drawn on it by a drag (its verdict, the fewest rolls on the board and the plot shown),
saved as a PNG of 128 colours.  ``measure``: the same level, then 20 changes (a ladder drawn
by a drag, then Undo, ten times), each answered by ``POST /v1/solve``; the median and maximum
of ``LevelgenEditor.latencies()`` over them (debounce included).
"""

from __future__ import annotations

import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

from tests.browser import ARGS, chromium_binary
from tests.editor import open_editor, start_service
from tests.ladders.test_editor_browser import _drag

ROOT = Path(__file__).resolve().parents[2]
LEVEL = ROOT / "levels" / "ladders_chutes_10x10.json"
SCREENSHOT = ROOT / "levels" / "preview" / "editor_ladders.png"
#: Ladders drawn by the measurement: squares free on the level's board.
LADDERS = [
    (2, 23),
    (3, 25),
    (5, 27),
    (7, 29),
    (8, 33),
    (10, 35),
    (12, 39),
    (13, 41),
    (15, 43),
    (17, 45),
]


def _work(page: Any, ed: Any, task: str) -> None:
    ed.after(lambda: page.set_input_files("#open-file", str(LEVEL)))
    if task == "screenshot":
        state, text = ed.after(lambda: _drag(page, 5, 27))
        assert state == "solvable", text
        page.mouse.move(0, 0)
        page.screenshot(path=str(SCREENSHOT))
        from PIL import Image

        with Image.open(SCREENSHOT) as image:
            small = image.convert("RGB").quantize(128)
        small.save(SCREENSHOT, optimize=True)
        print(f"{SCREENSHOT.relative_to(ROOT)}: {SCREENSHOT.stat().st_size} bytes")
        return
    start = len(page.evaluate("LevelgenEditor.latencies()"))
    for a, b in LADDERS:
        state, text = ed.after(lambda a=a, b=b: _drag(page, a, b))
        assert state == "solvable", text
        state, text = ed.after(lambda: page.click("#undo"))
        assert state == "solvable", text
    times = page.evaluate("LevelgenEditor.latencies()")[start:]
    print(
        f"snakes-ladders 10x10: {len(times)} changes, median"
        f" {statistics.median(times):.1f} ms, max {max(times):.1f} ms"
    )


def run(task: str) -> None:
    from playwright.sync_api import sync_playwright

    binary = chromium_binary()
    assert binary is not None, "no Chromium found"
    with tempfile.TemporaryDirectory(prefix="lgedit") as folder:
        for service in start_service(Path(folder)):
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=binary, args=ARGS)
                page = browser.new_page(viewport={"width": 1280, "height": 800})
                _work(page, open_editor(page, service, "snakes-ladders"), task)
                browser.close()


if __name__ == "__main__":
    run(sys.argv[1] if len(sys.argv) > 1 else "screenshot")
