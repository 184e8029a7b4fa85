"""The editor's browser tests: one real service (``levelgen serve --port 0`` on loopback, its
own library in a temporary folder) for the session, and pages opened on it that record every
request they make (all must go to that service: nothing leaves the machine).

The fixtures ``editor_service`` and ``editor`` are in ``tests/conftest.py``; a test calls
``editor(game)`` for a page of that game's editor (phone-sized, see the ``page`` fixture) and
checks ``requests`` at its end with :func:`only_to`.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

#: Seconds a verdict may take to show in a test (generous: the machine may be loaded).
VERDICT_TIMEOUT_MS = 30_000


@dataclass
class Service:
    """A running service: its base URL and its library's URL."""

    url: str
    db: str


@dataclass
class EditorPage:
    """An editor page and every URL it asked for."""

    page: Any
    base: str
    requests: list[str] = field(default_factory=list)

    def checked(self, after: int) -> int:
        """Wait until a check newer than ``after`` has been shown; its number."""
        self.page.wait_for_function(
            f"() => Number(document.body.dataset.checked || 0) > {after}",
            timeout=VERDICT_TIMEOUT_MS,
        )
        return int(self.page.evaluate("document.body.dataset.checked"))

    def count(self) -> int:
        """The number of the latest check shown (0 before the first)."""
        return int(self.page.evaluate("Number(document.body.dataset.checked || 0)"))

    def verdict(self) -> tuple[str, str]:
        """``(state, text)`` of the verdict shown now."""
        state = self.page.get_attribute("#verdict", "data-state")
        return str(state), str(self.page.inner_text("#verdict-text"))

    def after(self, action: Any) -> tuple[str, str]:
        """Do ``action()`` (an edit), wait for its verdict, return it."""
        before = self.count()
        action()
        self.checked(before)
        return self.verdict()


def start_service(folder: Path) -> Iterator[Service]:
    """Run ``levelgen serve`` on 127.0.0.1 (a free port, one worker) until the session ends."""
    db = f"sqlite:///{folder / 'library.db'}"
    process = subprocess.Popen(
        [sys.executable, "-m", "levelgen", "serve", "--port", "0", "--workers", "1", "--db", db],
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        env=dict(os.environ),
    )
    try:
        assert process.stderr is not None
        deadline = time.monotonic() + 120
        url = None
        while url is None and time.monotonic() < deadline:
            line = process.stderr.readline()
            if not line:
                raise RuntimeError(f"levelgen serve ended with {process.wait()}")
            try:
                event = json.loads(line)
            except ValueError:
                continue
            if event.get("event") == "started":
                url = str(event["url"])
        assert url is not None, "the service did not start within 120 s"
        # Its log (a line per request) is read on, so that a full pipe never stops it.
        threading.Thread(target=lambda: list(process.stderr), daemon=True).start()  # type: ignore[arg-type]
        yield Service(url, db)
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def open_editor(page: Any, service: Service, game: str) -> EditorPage:
    """Open ``game``'s editor on ``page``, recording every request, and wait for the first
    verdict."""
    opened = EditorPage(page, service.url)
    page.on("request", lambda request: opened.requests.append(request.url))
    page.goto(f"{service.url}/edit/{game}")
    opened.checked(0)
    return opened


def only_to(opened: EditorPage) -> None:
    """Every request of the page went to the service that served it."""
    elsewhere = [url for url in opened.requests if not url.startswith(opened.base + "/")]
    assert elsewhere == [], elsewhere


def mouse_drag(page: Any, board: str, first: str, second: str, steps: int = 6) -> None:
    """A drag with the mouse from the centre of the element ``first`` to that of ``second``
    (CSS selectors), the ``board`` scrolled into view first."""
    page.locator(board).scroll_into_view_if_needed()

    def centre(selector: str) -> tuple[float, float]:
        box = page.locator(selector).bounding_box()
        assert box is not None
        return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2

    (x0, y0), (x1, y1) = centre(first), centre(second)
    page.mouse.move(x0, y0)
    page.mouse.down()
    page.mouse.move(x1, y1, steps=steps)
    page.mouse.up()
