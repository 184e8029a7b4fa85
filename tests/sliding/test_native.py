"""The compiled twins (``levelgen.sliding._native``) against their Python references: the same
table bytes, and the same first solution, count, nodes and next threshold of every IDA*
iteration, on random boards numbered and colour, with and without the mirror image, with node
limits; and the solver gives the same answers with the twins turned off.

The extension is optional (built at install when a C compiler is there): without it these
tests are skipped, unless ``LEVELGEN_REQUIRE_NATIVE=1`` (set by ``.ci/run``), which makes a
missing extension a failure."""

from __future__ import annotations

import os
import random
from types import ModuleType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from levelgen.sliding import idastar, native, pdb, solver
from levelgen.sliding.encoding import encode_puzzle
from levelgen.sliding.pdb_cache import TableStore
from levelgen.sliding.rules import Frame

from .strategies import SMALL_SIZES, labels_for, puzzles


def _native() -> ModuleType:
    try:
        from levelgen.sliding import _native
    except ImportError as error:
        if os.environ.get("LEVELGEN_REQUIRE_NATIVE") == "1":
            pytest.fail(f"the compiled extension is required but missing: {error}")
        pytest.skip("levelgen.sliding._native not built (no C compiler at install)")
    assert _native.API == native.NATIVE_API
    return _native


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(SMALL_SIZES), st.sampled_from([None, 2, 3, 5]), st.integers(0, 2**32 - 1))
def test_tables_are_the_same_bytes(size: tuple[int, int], colors: int | None, seed: int) -> None:
    module = _native()
    width, height = size
    rng = random.Random(seed)
    cells = labels_for(width * height, colors)
    rng.shuffle(cells)
    enc = encode_puzzle(Frame(width, height, tuple(cells)))
    patterns, _ = pdb.choose_patterns(enc, rng.choice([30, 500, 3000]))
    for p in patterns:
        twin = module.build_table(width, height, enc.goal, bytes(p.classes), bytes(p.counts))
        assert twin == pdb.build_table(width, height, enc.goal, p)


@settings(max_examples=80, deadline=None)
@given(puzzles(max_cells=16, numbered_cells=16), st.integers(0, 2**32 - 1))
def test_iterations_are_the_same(case: tuple[Frame, Frame], seed: int) -> None:
    module = _native()
    start, goal = case
    rng = random.Random(seed)
    enc = encode_puzzle(goal)
    patterns, crossing = pdb.choose_patterns(enc, rng.choice([0, 60, 3000]))
    tables = [pdb.build_table(goal.width, goal.height, enc.goal, p) for p in patterns]
    for reflect in (False, True):
        heuristic = idastar.make_heuristic(
            goal.width, goal.height, enc.goal, patterns, tables, crossing, reflect=reflect
        )
        cells = enc.encode(start)
        threshold = heuristic.value(cells)
        for _ in range(6):
            for cap in (1, 7, 10**6):
                limit = rng.choice([None, None, 50, 3000])
                ours = idastar.python_bounded_search(
                    heuristic, cells, threshold, count_cap=cap, node_limit=limit
                )
                twin = native.native_bounded_search(
                    module, heuristic, cells, threshold, count_cap=cap, node_limit=limit
                )
                assert ours == twin
            if ours.path is not None or ours.next_threshold is None or ours.stopped:
                break
            threshold = ours.next_threshold


def test_should_stop_is_polled_by_the_twin() -> None:
    module = _native()
    goal = Frame(4, 4, tuple(range(16)))
    enc = encode_puzzle(goal)
    patterns, crossing = pdb.choose_patterns(enc, 0)
    heuristic = idastar.make_heuristic(4, 4, enc.goal, patterns, [], crossing)
    start = enc.encode(Frame(4, 4, (14, 13, 15, 7, 11, 12, 9, 5, 6, 0, 2, 1, 4, 8, 10, 3)))
    calls: list[int] = []

    def stop() -> bool:
        calls.append(1)
        return len(calls) >= 2

    got = native.native_bounded_search(module, heuristic, start, 57, should_stop=stop)
    assert got.stopped and got.path is None
    assert got.nodes == 2 * idastar.POLL_NODES
    with pytest.raises(ZeroDivisionError):
        native.native_bounded_search(module, heuristic, start, 57, should_stop=lambda: 1 / 0 > 0)


def test_bad_arguments_are_refused_not_crashed() -> None:
    module = _native()
    with pytest.raises(ValueError):
        module.build_table(1, 4, b"\x00\x01\x02\x03", b"\x01", b"\x01")
    with pytest.raises(ValueError):
        module.build_table(2, 2, b"\x01\x02\x03\x04", b"\x01", b"\x01")  # no blank
    with pytest.raises(ValueError):
        module.search(2, 2, b"\x00\x01\x02\x03", b"\x00\x01", [], b"", b"", b"", 3, 1, -1, None)
    with pytest.raises(ValueError):
        module.search(
            2,
            2,
            b"\x00\x01\x02\x03",
            b"\x00\x01\x02\x03",
            [(b"\x01", b"\x01", b"x")],
            b"",
            b"",
            b"",
            3,
            1,
            -1,
            None,
        )


@settings(max_examples=15, deadline=None)
@given(puzzles(max_cells=9, numbered_cells=8))
def test_the_solver_answers_alike_without_the_twins(case: tuple[Frame, Frame]) -> None:
    _native()
    start, goal = case
    store = TableStore(None)
    with_twins = solver.solve(start, goal, method="ida*", count_cap=20, tables=store)
    saved = native.native, solver.NATIVE
    try:  # the Python searches, and the smaller tables the solver takes without the twins
        native.native, solver.NATIVE = None, False
        solver._heuristics.clear()
        alone = solver.solve(start, goal, method="ida*", count_cap=20, tables=TableStore(None))
    finally:
        native.native, solver.NATIVE = saved
        solver._heuristics.clear()
    assert (with_twins.path, with_twins.length, with_twins.count) == (
        alone.path,
        alone.length,
        alone.count,
    )


@settings(max_examples=30, deadline=None)
@given(st.sampled_from([(3, 3), (4, 3), (4, 4), (5, 5), (5, 4)]), st.integers(0, 2**32 - 1))
def test_the_layered_builder_gives_the_same_bytes(size: tuple[int, int], seed: int) -> None:
    """The builder of the 5x5 tables (bit sets, layer by layer) against the queue builder and
    the Python reference, on small patterns of the same boards."""
    module = _native()
    width, height = size
    rng = random.Random(seed)
    cells = list(range(width * height))
    rng.shuffle(cells)
    enc = encode_puzzle(Frame(width, height, tuple(cells)))
    tiles = rng.sample(range(1, width * height), rng.choice([1, 2, 3]))
    p = pdb.make_pattern(tiles, [1] * len(tiles), width * height)
    goal, cls, cnt = enc.goal, bytes(p.classes), bytes(p.counts)
    layered = module.build_table(width, height, goal, cls, cnt, None, 2)
    assert layered == module.build_table(width, height, goal, cls, cnt, None, 1)
    assert layered == pdb.build_table(width, height, goal, p)


def test_table_builds_poll_should_stop() -> None:
    module = _native()
    goal = bytes([*range(1, 16), 0])
    for method in (1, 2):
        calls: list[int] = []

        def stop(calls: list[int] = calls) -> bool:
            calls.append(1)
            return True

        assert (
            module.build_table(4, 4, goal, b"\x01\x02\x03\x04\x05", b"\x01" * 5, stop, method)
            is None
        )
        assert len(calls) == 1
        with pytest.raises(ZeroDivisionError):
            module.build_table(
                4, 4, goal, b"\x01\x02\x03\x04\x05", b"\x01" * 5, lambda: 1 / 0 > 0, method
            )


@settings(max_examples=15, deadline=None)
@given(puzzles(max_cells=16, numbered_cells=16), st.sampled_from([(3, 2), (2, 1), (5, 1)]))
def test_weighted_iterations_are_the_same(
    case: tuple[Frame, Frame], weight: tuple[int, int]
) -> None:
    """Weighted IDA* (children of smaller h first): the twin and the reference alike."""
    module = _native()
    start, goal = case
    enc = encode_puzzle(goal)
    patterns, crossing = pdb.choose_patterns(enc, 3000)
    tables = [pdb.build_table(goal.width, goal.height, enc.goal, p) for p in patterns]
    heuristic = idastar.make_heuristic(
        goal.width, goal.height, enc.goal, patterns, tables, crossing
    )
    cells = enc.encode(start)
    threshold = heuristic.value(cells) * weight[0]
    for _ in range(4):
        ours = idastar.python_bounded_search(
            heuristic, cells, threshold, node_limit=5000, weight=weight
        )
        twin = native.native_bounded_search(
            module, heuristic, cells, threshold, node_limit=5000, weight=weight
        )
        assert ours == twin
        if ours.path is not None or ours.next_threshold is None or ours.stopped:
            break
        threshold = ours.next_threshold
