"""``levelgen bench editor``: the time from a change in the browser editor to its verdict.

Starts ``levelgen serve`` on 127.0.0.1 (a free port, a throwaway library), opens each game's
editor (``/edit/{game}``) in Chromium driven by Playwright (the test extra; Debian's
``/usr/bin/chromium`` or ``LEVELGEN_CHROMIUM``), opens two generated levels of the game's
typical size (:attr:`levelgen.puzzles.Family.editor_size`: seeds 1 and 2) one after the other,
then clicks Undo and Redo in turn: each click is a change the page checks through the service
(the game's own check: a solve, a rating, ...).  The page measures each change to its shown
verdict (``LevelgenEditor.latencies()``, debounce included); reported as the median, p90 and
maximum over ``--edits`` changes.  Loopback only; the server is stopped at the end.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import tempfile
from pathlib import Path
from typing import Annotated, Any

import typer

from ..puzzles import Capability, Family, families
from .serve import start_server, stop_server

__all__ = ["register"]

#: Milliseconds a change may take to be answered before the benchmark gives up on it.
TIMEOUT_MS = 60_000


def _chromium() -> str:
    for candidate in (os.environ.get("LEVELGEN_CHROMIUM"), "/usr/bin/chromium"):
        if candidate and Path(candidate).exists():
            return candidate
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        raise typer.BadParameter(
            "no Chromium found (apt-get install chromium, or set LEVELGEN_CHROMIUM)"
        )
    return found


def _levels(item: Family, folder: Path) -> list[Path]:
    """Two generated levels of the game's typical size, written to ``folder``."""
    from ..formats import format_json

    paths = []
    for seed in (1, 2):
        spec = item.parse_spec({"size": item.editor_size})
        path = folder / f"{item.name}-{seed}.json"
        path.write_text(format_json(item.dump(item.create(spec, seed))), encoding="utf-8")
        paths.append(path)
    return paths


def _checked(page: Any, after: int) -> int:
    page.wait_for_function(
        f"() => Number(document.body.dataset.checked || 0) > {after}", timeout=TIMEOUT_MS
    )
    return int(page.evaluate("Number(document.body.dataset.checked)"))


def _measure(page: Any, base: str, item: Family, paths: list[Path], edits: int) -> list[float]:
    page.goto(f"{base}/edit/{item.name}")
    seen = _checked(page, 0)
    for path in paths:
        page.set_input_files("#open-file", str(path))
        seen = _checked(page, seen)
    start = len(page.evaluate("LevelgenEditor.latencies()"))
    for edit in range(edits):
        page.click("#undo" if edit % 2 == 0 else "#redo")
        seen = _checked(page, seen)
    found: list[float] = page.evaluate("LevelgenEditor.latencies()")[start:]
    return found


def register(app: typer.Typer) -> None:
    """Add ``editor`` to the bench app."""

    @app.command("editor")
    def bench_editor(
        edits: Annotated[int, typer.Option(min=2, max=1000, help="Changes per game.")] = 20,
        as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    ) -> None:
        """Milliseconds from a change in each game's browser editor to its verdict (median,
        p90, max), against `levelgen serve` on loopback.  Needs Playwright (the test extra)
        and Chromium."""
        try:
            from playwright.sync_api import sync_playwright
        except ImportError:
            raise typer.BadParameter(
                "needs Playwright: pip install -e '.[test]' (and Chromium)"
            ) from None
        executable = _chromium()
        editable = [f for f in families().values() if Capability.EDIT in f.capabilities]
        report: dict[str, Any] = {}
        with tempfile.TemporaryDirectory(prefix="lgedit") as name:
            folder = Path(name)
            process, base = start_server(folder, os.cpu_count() or 1)
            try:
                with sync_playwright() as pw:
                    browser = pw.chromium.launch(executable_path=executable, args=["--no-sandbox"])
                    page = browser.new_page(viewport={"width": 1280, "height": 800})
                    for item in editable:
                        times = _measure(page, base, item, _levels(item, folder), edits)
                        ordered = sorted(times)
                        report[item.name] = {
                            "size": item.editor_size,
                            "edits": len(times),
                            "median_ms": round(statistics.median(times), 1),
                            "p90_ms": round(ordered[int(0.9 * (len(ordered) - 1))], 1),
                            "max_ms": round(ordered[-1], 1),
                        }
                    browser.close()
            finally:
                stop_server(process)
        if as_json:
            typer.echo(json.dumps(report, indent=2))
            return
        for game, row in report.items():
            typer.echo(
                f"{game:<16} {row['size']:>6}  median {row['median_ms']:7.1f} ms"
                f"  p90 {row['p90_ms']:7.1f} ms  max {row['max_ms']:7.1f} ms"
                f"  ({row['edits']} changes)"
            )
