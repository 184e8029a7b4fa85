"""The sliding-puzzle editor's screenshot for the README: ``levels/preview/editor_sliding.png``.

    python -m tests.sliding.editor_screenshot [OUT.png]

Starts ``levelgen serve`` on 127.0.0.1 (a throwaway library; the pattern databases of the
user's cache: ``levelgen tables build 4x4`` puts a numbered 4x4 board's there ahead), opens
the editor in Chromium at 1280x800, types the start of ``levels/sliding_4x4_numbered_40.json``
into the start frame's field, waits for the verdict, steps three moves into the solution and
saves the page as a PNG.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

from tests import ROOT
from tests.browser import launch
from tests.editor import open_editor, start_service

LEVEL = ROOT / "levels" / "sliding_4x4_numbered_40.json"
OUT = ROOT / "levels" / "preview" / "editor_sliding.png"


def main(out: Path) -> None:
    start = json.loads(LEVEL.read_text(encoding="utf-8"))["start"]
    rows = " / ".join(" ".join(str(v) for v in row) for row in start)
    with tempfile.TemporaryDirectory(prefix="lgshot") as folder:
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
            state, text = ed.verdict()
            if state != "solvable":
                raise SystemExit(f"no optimal length shown ({state}: {text})")
            for _ in range(3):
                page.click('#sp-steps button[data-go="next"]')
            page.mouse.move(0, 0)
            page.screenshot(path=str(out))
            print(f"{out}: {text}")
        finally:
            for generator in (browsers, service):
                generator.close()


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else OUT)
