"""One Chromium for the whole suite's browser tests (Playwright driving Debian's ``chromium``;
no browser download).

Playwright's sync API runs its own event loop while it is open, so a second ``sync_playwright()``
in the same process fails; every browser test therefore shares the session fixture ``browser``
(``tests/conftest.py``) launched here. Skipped, with the reason, only when Playwright or a
Chromium binary is missing; with ``LEVELGEN_REQUIRE_BROWSER=1`` (set by ``.ci/run``) a missing
browser is a failure instead.
"""

from __future__ import annotations

import os
import shutil
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
#: The origin the pages are served from (answered by ``page.route``; nothing leaves the machine).
ORIGIN = "http://levelgen.test"


def chromium_binary() -> str | None:
    """``LEVELGEN_CHROMIUM``, Debian's ``/usr/bin/chromium`` or one on the ``PATH``."""
    for candidate in (os.environ.get("LEVELGEN_CHROMIUM"), "/usr/bin/chromium"):
        if candidate and Path(candidate).exists():
            return candidate
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return None


def missing(reason: str) -> None:
    """Skip (with a warning naming the reason), or fail when the browser is required."""
    if os.environ.get("LEVELGEN_REQUIRE_BROWSER") == "1":
        pytest.fail(f"browser tests required but {reason}")
    # The reason shows in the warnings summary of every run (and with -rs in the skip list).
    warnings.warn(f"browser tests skipped: {reason}", UserWarning, stacklevel=2)
    pytest.skip(reason)


def launch() -> Iterator[Any]:
    """Yield a launched Chromium, closed afterwards (the body of the session fixture)."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        missing("playwright is not installed (pip install -e '.[test]')")
    executable = chromium_binary()
    if executable is None:
        missing("no Chromium binary (apt-get install chromium, or set LEVELGEN_CHROMIUM)")
    with sync_playwright() as pw:
        launched = pw.chromium.launch(executable_path=executable, args=ARGS)
        yield launched
        launched.close()
