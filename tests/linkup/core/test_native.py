"""The compiled twins of ``levelgen.linkup.core._native`` against the Python functions of
:mod:`levelgen.linkup.core.reach` and :meth:`levelgen.linkup.core.live.LiveLinks.python_remove`: the
same answers on random masks (any stride, any width, multi-word and heap-sized ints), on the masks
of random boards and along random play-outs, every ``max_turns`` 0..8.

The extension is optional (built at install when a C compiler is there): without it these
tests are skipped, unless ``LEVELGEN_REQUIRE_NATIVE=1`` (set by ``.ci/run``), which makes a
missing extension a failure."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from collections.abc import Callable
from types import ModuleType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from levelgen.linkup.core import live, reach
from levelgen.linkup.core.board import Board
from levelgen.linkup.core.geometry import Size
from levelgen.linkup.core.live import LiveLinks
from levelgen.linkup.core.paths import _column_unit, _direct, link_cells
from levelgen.linkup.core.rules import Rules
from levelgen.linkup.generate.generator import generate
from levelgen.linkup.solvers import Budget, repair
from levelgen.linkup.solvers.culprit import _State
from levelgen.linkup.solvers.race import RepairSession
from levelgen.linkup.solvers.repair import _Repairer
from tests.strategies import boards


def _native() -> ModuleType:
    try:
        from levelgen.linkup.core import _native
    except ImportError as error:
        if os.environ.get("LEVELGEN_REQUIRE_NATIVE") == "1":
            pytest.fail(f"the compiled extension is required but missing: {error}")
        pytest.skip("levelgen.linkup.core._native not built (no C compiler at install)")
    return _native


@st.composite
def masks(draw: st.DrawFn) -> tuple[int, int, int, int, int]:
    """``(src bit, free, targets, max_turns, stride)`` of any shape: random bits, sparse or
    dense, up to 12,000 bits (past the extension's stack arrays)."""
    stride = draw(st.integers(1, 140))
    size = draw(st.integers(1, 12_000))
    rnd = draw(st.randoms(use_true_random=False))
    a, b = rnd.getrandbits(size), rnd.getrandbits(size)
    free = draw(st.sampled_from([a & b, a | b, a, a & b & rnd.getrandbits(size)]))
    targets = rnd.getrandbits(draw(st.integers(1, size + 80)))
    c = draw(st.integers(0, size + 30))
    if draw(st.booleans()):
        free |= 1 << c
    return c, free, targets, draw(st.integers(0, 8)), stride


def _playouts(test: Callable[[Board, int, bool, random.Random], None]) -> Any:
    """The play-out tests' examples: random boards up to 40x30, every ``max_turns`` 0..8, both
    rings and a random source for the moves played on them."""
    cases = given(
        boards(max_width=40, max_height=30, max_kinds=8),
        st.integers(0, 8),
        st.booleans(),
        st.randoms(use_true_random=False),
    )
    return settings(max_examples=120, deadline=None)(cases(test))


def _board_masks(board: Board, rules: Rules) -> tuple[int, int, int]:
    """``(free, tiles, stride)`` of a board in its padded layout."""
    free = board.free_mask(rules.outside)
    tiles = 0
    for mask in board.kind_masks().values():
        tiles |= mask
    return free, tiles, board.layout.stride


@settings(max_examples=300, deadline=None)
@given(masks())
def test_twins_agree_on_random_masks(case: tuple[int, int, int, int, int]) -> None:
    native = _native()
    c, free, targets, k, stride = case
    src = 1 << c
    assert native.axis_hits(src, free, targets, k, stride) == reach.python_axis_hits(
        src, free, targets, k, stride
    )
    assert native.link_hits(src, free, targets, k, stride) == reach.python_link_hits(
        src, free, targets, k, stride
    )
    stop = targets & (free >> 3)
    for toward in (None, reach.toward_masks(targets | stop, stride, free.bit_length() + 1)):
        for s in (0, stop):
            assert native.link_reach(
                src, free, targets, k, stride, toward, s
            ) == reach.python_link_reach(src, free, targets, k, stride, toward, s)


@settings(max_examples=150, deadline=None)
@given(boards(max_width=64, max_height=64, max_kinds=6), st.integers(0, 8), st.booleans())
def test_twins_agree_on_boards(board: Board, k: int, outside: bool) -> None:
    """Every tile of a random board as the source, freed as the live move list frees it."""
    native = _native()
    free, tiles, stride = _board_masks(board, Rules(max_turns=k, outside=outside))
    size = (board.layout.height + 2) * stride
    rest = tiles
    for _ in range(12):
        if not rest:
            break
        low = rest & -rest
        rest ^= low
        freed = free | low
        assert native.axis_hits(low, freed, tiles, k, stride) == reach.python_axis_hits(
            low, freed, tiles, k, stride
        )
        assert native.link_hits(low, free, tiles, k, stride) == reach.python_link_hits(
            low, free, tiles, k, stride
        )
        toward = reach.toward_masks(tiles, stride, size)
        for tw in (None, toward):
            for stop in (0, tiles):
                assert native.link_reach(
                    low, free, tiles, k, stride, tw, stop
                ) == reach.python_link_reach(low, free, tiles, k, stride, tw, stop)


@settings(max_examples=150, deadline=None)
@given(boards(max_width=40, max_height=30, max_kinds=6), st.booleans(), st.integers(0, 2**32))
def test_direct_path_twin_agrees(board: Board, outside: bool, seed: int) -> None:
    """The compiled ``direct_path`` against :func:`levelgen.linkup.core.paths._direct`: the same
    best path (corners and length) or None, between random cells of a random board with random cells
    freed, every ``max_turns`` 0..3."""
    native = _native()
    free, tiles, stride = _board_masks(board, Rules(outside=outside))
    lay = board.layout
    unit = _column_unit(stride, lay.height + 2)
    size = (lay.height + 2) * stride
    rnd = random.Random(seed)
    for _ in range(40):
        a, b = rnd.randrange(size), rnd.randrange(size)
        if rnd.random() < 0.5 and tiles:
            bits = [x for x in range(size) if tiles >> x & 1]
            a, b = rnd.choice(bits), rnd.choice(bits)
        cells = free | (tiles & rnd.getrandbits(size))
        k = rnd.randrange(4)
        want = _direct(cells, a, b, k, stride, unit)
        assert native.direct_path(cells, a, b, k, stride) == want


@_playouts
def test_remove_twin_agrees_along_random_playouts(
    board: Board, k: int, outside: bool, rnd: random.Random
) -> None:
    """The compiled ``remove_pair`` against :meth:`LiveLinks.python_remove`, move after move
    of a random play-out with undos: the same links, open tiles, total, kinds, free cells and
    new links recorded."""
    _native()
    rules = Rules(max_turns=k, outside=outside)
    fast, slow = LiveLinks(board, rules, undo=True), LiveLinks(board, rules, undo=True)
    while pairs := fast.pairs():
        a, b = rnd.choice(pairs)
        if rnd.random() < 0.5:
            a, b = b, a
        fast.remove(a, b)
        gained: list[tuple[int, int]] = []
        assert slow.journal is not None and fast.journal is not None
        slow.journal.append(
            (a, b, slow.links[a], slow.links[b], slow.open_mask, slow.total, gained)
        )
        slow.python_remove(a, b, gained)
        assert fast.links == slow.links
        assert (fast.open_mask, fast.total, fast.free) == (slow.open_mask, slow.total, slow.free)
        assert fast.kind_mask == slow.kind_mask
        assert fast.last_gained() == gained
        if rnd.random() < 0.1:
            assert fast.undo() == slow.undo()
            assert fast.links == slow.links


def _state(live_links: LiveLinks) -> tuple[object, ...]:
    return (
        live_links.links,
        live_links.open_mask,
        live_links.total,
        live_links.kind_of,
        live_links.kind_mask,
    )


@_playouts
def test_fill_links_twin_agrees(board: Board, k: int, outside: bool, rnd: random.Random) -> None:
    """The compiled ``fill_links`` against :meth:`LiveLinks.python_fill_links`: a board's
    move list, and positions rebuilt from masks as the repair solver rebuilds them (only the
    tiles of ``linked`` tested, the kinds shared, the tiles given), after random moves."""
    _native()
    rules = Rules(max_turns=k, outside=outside)
    fast = LiveLinks(board, rules)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(live, "_native_fill_links", None)
        slow = LiveLinks(board, rules)
    assert _state(fast) == _state(slow)
    for _ in range(rnd.randrange(0, 30)):
        pairs = fast.pairs()
        if not pairs:
            break
        fast.remove(*rnd.choice(pairs))
    tiles = 0
    for mask in fast.kind_mask.values():
        tiles |= mask
    linked = tiles & rnd.getrandbits(max(tiles.bit_length(), 1))
    for args in (
        {},
        {"linked": linked},
        {"linked": linked, "kind_of": fast.kind_of},
        {"linked": linked, "kind_of": fast.kind_of, "tiles": tiles},
    ):
        built = []
        for compiled in (True, False):
            with pytest.MonkeyPatch.context() as patch:
                if not compiled:
                    patch.setattr(live, "_native_fill_links", None)
                kind_of = args.get("kind_of")
                extra = dict(args, kind_of=list(kind_of)) if isinstance(kind_of, list) else args
                built.append(
                    LiveLinks.from_masks(board.layout, k, fast.free, fast.kind_mask, **extra)
                )
        assert _state(built[0]) == _state(built[1])


@pytest.mark.parametrize(("size", "seed", "k"), [(24, 3, 2), (16, 5, 1), (20, 2, 3), (12, 7, 0)])
def test_replay_twin_agrees(size: int, seed: int, k: int) -> None:
    """The compiled ``replay_moves`` against :meth:`_Repairer.python_replay_moves`: from every
    decision of a dive (and a few other moves) the same moves kept in the same order, the
    same supports (kept and written back into the state), decisions and free cells; then a
    whole repair run gives the same answer and the same work either way."""
    _native()
    level = generate(Size(size, size), seed=seed, rules=Rules(max_turns=k))
    rules = level.rules
    rep = _Repairer(level.board, rules)
    state: _State = (LiveLinks(level.board, rules, undo=True), [], [], set())
    rep.dive(*state)
    _, seq, support, decided = state
    layout = level.board.layout
    drops = sorted(decided)[:12] + list(range(0, len(seq), max(len(seq) // 6, 1)))
    for drop in drops:
        mine, theirs = list(support), list(support)
        compiled = repair._native_replay_moves
        assert compiled is not None
        fast = compiled(
            seq,
            mine,
            decided,
            drop,
            rep.start_free,
            link_cells,
            layout,
            rules.max_turns,
            layout.stride,
            (layout.height + 3) * layout.stride,
        )
        slow = rep.python_replay_moves(seq, theirs, decided, drop)
        assert fast == slow
        assert mine == theirs
    answers = []
    for compiled_replay in (True, False):
        with pytest.MonkeyPatch.context() as patch:
            if not compiled_replay:
                patch.setattr(repair, "_native_replay_moves", None)
            session = RepairSession(level.board, rules)
            result = session.advance(Budget(max_nodes=50_000))
            answers.append((result.status, result.moves, session.repairer.work))
    assert answers[0] == answers[1]


def test_the_twins_are_in_use_when_built() -> None:
    native = _native()
    assert reach.NATIVE
    assert reach.axis_hits is native.axis_hits
    assert reach.link_hits is native.link_hits
    assert live._native_remove_pair is native.remove_pair
    assert live._native_fill_links is native.fill_links
    assert repair._native_replay_moves is native.replay_moves


def test_bad_arguments_are_refused_not_crashed() -> None:
    native = _native()
    with pytest.raises(TypeError, match="non-negative ints"):
        native.axis_hits(1, -1, 1, 2, 5)
    with pytest.raises(TypeError, match="non-negative ints"):
        native.link_hits(1, 1.0, 1, 2, 5)
    with pytest.raises(ValueError, match="one-bit mask"):
        native.axis_hits(0, 1, 1, 2, 5)
    with pytest.raises(ValueError, match="stride must be an int >= 1"):
        native.link_hits(1, 1, 1, 2, 0)
    with pytest.raises(ValueError, match="max_turns must be an int >= 0"):
        native.axis_hits(1, 1, 1, -1, 5)
    with pytest.raises(TypeError, match="toward must be None or 4 masks"):
        native.link_reach(1, 1, 1, 2, 5, (1, 2), 0)
    with pytest.raises(TypeError):
        native.link_reach(1, 1, 1, 2, 5)
    links = [0] * 10
    with pytest.raises(ValueError, match="two tiles of the layout"):
        native.remove_pair(links, [1] * 10, {1: 6}, [0] * 5, 1, 1, 0, 0, 0, 2, 5, None)
    with pytest.raises(ValueError, match="past the layout"):
        native.remove_pair(links, [1] * 10, {1: 6}, [0] * 5, 1, 2, 1 << 700, 0, 0, 2, 5, None)
    with pytest.raises(KeyError):
        native.remove_pair(links, [1] * 10, {2: 6}, [0] * 5, 1, 2, 0, 0, 0, 2, 5, None)
    with pytest.raises(TypeError, match="must be lists"):
        native.remove_pair((), [1] * 10, {1: 6}, [0] * 5, 1, 2, 0, 0, 0, 2, 5, None)
    with pytest.raises(ValueError, match="drop be one of its moves"):
        native.replay_moves([(8, 9)], [0], set(), 1, 0, link_cells, None, 2, 5, 40)
    with pytest.raises(ValueError, match="a move outside the layout"):
        native.replay_moves([(8, 900)], [0], set(), 0, 0, link_cells, None, 2, 5, 40)
    with pytest.raises(TypeError, match="decided a set"):
        native.replay_moves([(8, 9)], [0], [], 0, 0, link_cells, None, 2, 5, 40)
    with pytest.raises(ValueError, match="kind_of must cover"):
        native.fill_links(links, [1] * 3, {1: 6}, 0, -1, True, None, 2, 5)
    with pytest.raises(ValueError, match="past the layout"):
        native.fill_links(links, [1] * 10, {1: 1 << 900}, 0, -1, True, None, 2, 5)


def test_a_stale_or_partial_build_is_not_used(monkeypatch: pytest.MonkeyPatch) -> None:
    """A compiled module of another contract version, or without one of the twins (a build
    left from an older checkout), leaves the Python functions in use instead of failing."""
    import levelgen.linkup.core as core_package

    for api, names in ((reach.NATIVE_API + 1, reach._TWINS), (reach.NATIVE_API, reach._TWINS[:-1])):
        fake = ModuleType("levelgen.linkup.core._native")
        fake.API = api  # type: ignore[attr-defined]
        for name in names:
            setattr(fake, name, len)
        monkeypatch.setitem(sys.modules, "levelgen.linkup.core._native", fake)
        monkeypatch.setattr(core_package, "_native", fake, raising=False)
        assert reach._load_native() is None
    setattr(fake, reach._TWINS[-1], len)
    assert reach._load_native() is fake


def test_levelgen_native_0_turns_them_off() -> None:
    """``LEVELGEN_NATIVE=0``: the Python functions, whether or not the extension is built."""
    code = (
        "from levelgen.linkup.core import reach; "
        "from levelgen.linkup.core import live; "
        "print(reach.NATIVE, reach.axis_hits is reach.python_axis_hits, "
        "reach.link_hits is reach.python_link_hits, live._native_remove_pair is None, "
        "live._native_fill_links is None); "
        "from levelgen.linkup.solvers import repair; print(repair._native_replay_moves is None)"
    )
    env = dict(os.environ, LEVELGEN_NATIVE="0")
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    assert out.stdout.split() == ["False", "True", "True", "True", "True", "True"]
