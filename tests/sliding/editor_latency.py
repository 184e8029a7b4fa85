"""The time from an edit to its verdict in the sliding-puzzle editor, on a numbered 4x4 board.

    python -m tests.sliding.editor_latency [EDITS]

Starts ``levelgen serve`` on 127.0.0.1 (a throwaway library; the pattern databases of the
user's cache: ``levelgen tables build 4x4`` puts them there ahead), opens the editor in
Chromium at 1280x800, types the start of ``levels/sliding_4x4_numbered_40.json`` into the start
frame, then drags the blank onto a neighbouring cell EDITS times (20 by default; a walk drawn
from a fixed seed that never steps straight back), each a change the page checks with
``POST /v1/solve``.  Prints the median and maximum of ``LevelgenEditor.latencies()`` over the
drags (milliseconds from the change to its shown verdict, the page's 60 ms debounce included)
and how many verdicts of each kind were shown.
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import tempfile
from collections import Counter
from pathlib import Path

from tests import ROOT
from tests.browser import launch
from tests.editor import open_editor, start_service

LEVEL = ROOT / "levels" / "sliding_4x4_numbered_40.json"


def main(edits: int) -> None:
    start = json.loads(LEVEL.read_text(encoding="utf-8"))["start"]
    rows = " / ".join(" ".join(str(v) for v in row) for row in start)
    rng = random.Random(44)
    with tempfile.TemporaryDirectory(prefix="lglat") as folder:
        service = start_service(Path(folder))
        running = next(service)
        browsers = launch()
        browser = next(browsers)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            ed = open_editor(page, running, "sliding-puzzle")
            ed.after(
                lambda: (page.fill("#sp-start-text", rows), page.press("#sp-start-text", "Enter"))
            )
            first = len(page.evaluate("LevelgenEditor.latencies()"))
            states: Counter[str] = Counter()
            last = -1
            for _ in range(edits):
                cells = [v for row in page.evaluate("LevelgenEditor.level().start") for v in row]
                blank = cells.index(0)
                x, y = blank % 4, blank // 4
                near = [
                    (x + dx) + 4 * (y + dy)
                    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
                    if 0 <= x + dx < 4 and 0 <= y + dy < 4 and (x + dx) + 4 * (y + dy) != last
                ]
                target = rng.choice(near)
                last = blank
                states[ed.after(lambda a=blank, b=target: _drag(page, a, b))[0]] += 1
            times: list[float] = page.evaluate("LevelgenEditor.latencies()")[first:]
            print(
                f"{len(times)} edits on 4x4: median {statistics.median(times):.0f} ms,"
                f" max {max(times):.0f} ms; verdicts {dict(states)}"
            )
        finally:
            for generator in (browsers, service):
                generator.close()


def _drag(page: object, a: int, b: int) -> None:
    def centre(cell: int) -> tuple[float, float]:
        box = page.locator(f'#sp-start g[data-cell="{cell}"]').bounding_box()  # type: ignore[attr-defined]
        return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2

    (x0, y0), (x1, y1) = centre(a), centre(b)
    mouse = page.mouse  # type: ignore[attr-defined]
    mouse.move(x0, y0)
    mouse.down()
    mouse.move(x1, y1, steps=3)
    mouse.up()


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20)
