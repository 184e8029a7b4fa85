"""The compiled twins of the sliding-puzzle searches, when built, and the functions to call.

``levelgen/sliding/_native.c`` is an optional extension (built at install when a C compiler is
there) holding twins of :func:`levelgen.sliding.pdb.build_table` and
:func:`levelgen.sliding.idastar.python_bounded_search`: the same answers, byte for byte and node
for node (``tests/sliding/test_native.py`` compares them), about a hundred times faster.  It is
used when it was built, its ``API`` matches :data:`NATIVE_API` (a stale build is left unused)
and ``LEVELGEN_NATIVE=0`` does not turn it off.  :func:`build_table` and :func:`bounded_search`
pick the twin or the Python function; nothing else needs to know which runs.
:func:`weighted_astar` (weighted A*, for a solution within a factor of optimal on large boards)
is compiled only: without the extension it answers None and the solver uses weighted IDA*.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from . import idastar, pdb
from .idastar import Iteration, SearchHeuristic

__all__ = [
    "NATIVE",
    "NATIVE_API",
    "AStar",
    "bounded_search",
    "build_table",
    "native",
    "weighted_astar",
]

#: The version of the twins' contract; ``_native.API`` must match it.
NATIVE_API = 3


def _load_native() -> ModuleType | None:
    """``levelgen.sliding._native`` when built, current and not turned off; else None."""
    if os.environ.get("LEVELGEN_NATIVE", "1") == "0":
        return None
    try:
        from . import _native
    except ImportError:  # not built (no C compiler at install)
        return None
    if getattr(_native, "API", None) != NATIVE_API:
        return None
    return _native


#: The compiled module, or None.
native = _load_native()
#: Whether the compiled twins are in use.
NATIVE = native is not None


def build_table(
    width: int,
    height: int,
    goal: bytes,
    pattern: pdb.Pattern,
    should_stop: Callable[[], bool] | None = None,
) -> bytes | None:
    """The pattern database of ``pattern`` (:func:`levelgen.sliding.pdb.build_table`, compiled
    when built); None when ``should_stop`` (asked every 4,096 states by the compiled
    builder) said to stop."""
    if native is None:
        return pdb.build_table(width, height, goal, pattern)
    built = native.build_table(
        width, height, goal, bytes(pattern.classes), bytes(pattern.counts), should_stop
    )
    return None if built is None else bytes(built)


def bounded_search(
    heuristic: SearchHeuristic,
    start: bytes,
    threshold: int,
    *,
    count_cap: int = 1,
    node_limit: int | None = None,
    should_stop: Callable[[], bool] | None = None,
    weight: tuple[int, int] = (1, 1),
) -> Iteration:
    """One IDA* iteration (:func:`levelgen.sliding.idastar.python_bounded_search`, compiled
    when built); ``weight`` as there."""
    if native is None or threshold >= 4096 * weight[1]:
        return idastar.python_bounded_search(
            heuristic,
            start,
            threshold,
            count_cap=count_cap,
            node_limit=node_limit,
            should_stop=should_stop,
            weight=weight,
        )
    return native_bounded_search(
        native,
        heuristic,
        start,
        threshold,
        count_cap=count_cap,
        node_limit=node_limit,
        should_stop=should_stop,
        weight=weight,
    )


def _board_args(hz: SearchHeuristic, start: bytes) -> tuple[Any, ...]:
    """The leading arguments of the compiled searches: the board, goal, start and tables."""
    patterns = [
        (bytes(p.classes), bytes(p.counts), table)
        for p, table in zip(hz.patterns, hz.tables, strict=True)
    ]
    return (
        hz.width,
        hz.height,
        hz.goal,
        bytes(start),
        patterns,
        bytes(hz.crossing),
        hz.tcell,
        hz.tclass,
    )


def native_bounded_search(
    module: ModuleType,
    heuristic: SearchHeuristic,
    start: bytes,
    threshold: int,
    *,
    count_cap: int = 1,
    node_limit: int | None = None,
    should_stop: Callable[[], bool] | None = None,
    weight: tuple[int, int] = (1, 1),
) -> Iteration:
    """One IDA* iteration by the compiled ``module.search``."""
    path, count, nodes, following, stopped = module.search(
        *_board_args(heuristic, start),
        threshold,
        count_cap,
        -1 if node_limit is None else node_limit,
        should_stop,
        *weight,
    )
    return Iteration(path, count, nodes, following, stopped)


@dataclass(frozen=True, slots=True)
class AStar:
    """What one weighted A* found: a solution (None when none), the frames expanded and
    stored, and whether the frame limit or ``should_stop`` ended it."""

    path: str | None
    expanded: int
    frames: int
    stopped: bool


def weighted_astar(
    heuristic: SearchHeuristic,
    start: bytes,
    weight: tuple[int, int],
    *,
    bound: int | None = None,
    frame_limit: int | None = None,
    should_stop: Callable[[], bool] | None = None,
    frozen: int = 0,
    partial: bool = False,
) -> AStar | None:
    """Weighted A* from ``start`` (compiled; None without the extension): frames are expanded
    in the order of ``g * b + h * a`` for ``weight`` ``(a, b)`` (1..64 each), deeper first on
    ties, then the earlier; a frame met again is not searched again, frames whose ``g + h``
    reaches ``bound`` are left out (only solutions shorter than ``bound`` are looked for).
    At most ``frame_limit`` frames are stored; ``should_stop`` is asked every 4,096
    expansions.  No tile is slid out of a cell of the mask ``frozen``; with ``partial`` any
    frame where the heuristic is 0 is a goal (a stage of :mod:`levelgen.sliding.staged`).
    Not optimal: deterministic, and the first solution met is returned."""
    if native is None:
        return None
    path, expanded, frames, stopped = native.astar(
        *_board_args(heuristic, start),
        *weight,
        -1 if bound is None else bound,
        -1 if frame_limit is None else frame_limit,
        should_stop,
        frozen,
        partial,
    )
    return AStar(path, expanded, frames, stopped)
