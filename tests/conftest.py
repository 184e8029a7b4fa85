"""Checks switched on for the whole suite."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from levelgen.linkup.solvers.search import engine as search_engine
from levelgen.linkup.solvers.search import relax as search_relax
from tests.browser import launch
from tests.editor import EditorPage, Service, open_editor, start_service


@pytest.fixture(autouse=True)
def _check_explanations() -> Iterator[None]:
    """Every explanation of a dead node the search solver finds is checked to hold there, and
    every relaxed run to be the one a replay checking each step would give."""
    search_engine.CHECK_EXPLANATIONS = True
    search_relax.CHECK_REPLAY = True
    yield
    search_engine.CHECK_EXPLANATIONS = False
    search_relax.CHECK_REPLAY = False


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """The one Chromium every browser test shares (see ``tests/browser.py``)."""
    yield from launch()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A new page the size of a phone; the test fails on any script error the page logs (a
    resource the browser could not load aside: some tests answer errors on purpose)."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda exc: errors.append(str(exc)))
    opened.on(
        "console",
        lambda msg: (
            errors.append(msg.text)
            if msg.type == "error" and not msg.text.startswith("Failed to load resource")
            else None
        ),
    )
    yield opened
    context.close()
    assert errors == []


@pytest.fixture(scope="session")
def editor_service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Service]:
    """One real service on loopback for the editor's browser tests (see ``tests/editor.py``)."""
    yield from start_service(tmp_path_factory.mktemp("editor-service"))


@pytest.fixture
def editor(page: Any, editor_service: Service) -> Any:
    """``editor(game)``: a phone-sized page of that game's editor, its first verdict shown."""

    def opened(game: str) -> EditorPage:
        return open_editor(page, editor_service, game)

    return opened
