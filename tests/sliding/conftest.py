"""Switches for the sliding-puzzle tests.

Pattern databases go to a throwaway folder, and a numbered 4x4 board gets the general split
(three tables of five tiles, 524,160 entries each, built in about a second) instead of Korf and
Felner's 6-6-3 split (two tables of 5,765,760 entries, about 20 s to build the first time),
and a numbered 5x5 board the same instead of the 6-6-6-6 split (four tables of 127,512,000).
Every answer is the same either way, only the time differs: the solvers return the least
optimal solution whatever the heuristic (``test_idastar.py`` checks it across splits), and
``test_pdb.py`` checks the 6-6-3 split's groups without building them.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from levelgen.sliding import pdb_cache, solver


@pytest.fixture(autouse=True, scope="session")
def _small_tables(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    old_env = os.environ.get(pdb_cache.CACHE_ENV)
    old_cap = solver.FOUR_BY_FOUR_ENTRIES
    old_five = solver.FIVE_BY_FIVE_ENTRIES
    os.environ[pdb_cache.CACHE_ENV] = str(tmp_path_factory.mktemp("pdb-cache"))
    solver.FOUR_BY_FOUR_ENTRIES = solver.TABLE_ENTRIES
    solver.FIVE_BY_FIVE_ENTRIES = solver.TABLE_ENTRIES
    pdb_cache._default = None
    solver._heuristics.clear()
    yield
    solver.FOUR_BY_FOUR_ENTRIES = old_cap
    solver.FIVE_BY_FIVE_ENTRIES = old_five
    if old_env is None:
        os.environ.pop(pdb_cache.CACHE_ENV, None)
    else:
        os.environ[pdb_cache.CACHE_ENV] = old_env
    pdb_cache._default = None
    solver._heuristics.clear()
