"""Checks switched on for the whole suite."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from levelgen.solvers import search_engine


@pytest.fixture(autouse=True)
def _check_explanations() -> Iterator[None]:
    """Every explanation of a dead node the search solver finds is checked to hold there."""
    search_engine.CHECK_EXPLANATIONS = True
    yield
    search_engine.CHECK_EXPLANATIONS = False
