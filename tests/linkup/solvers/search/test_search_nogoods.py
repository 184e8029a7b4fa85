"""Nogoods of the search solver: the store, and that a nogood kills only dead states.

An explanation claims that *every* state where its facts hold is dead, not only the one it was
found at or the states below it; the search relies on that when it prunes a state of a later
run with it.  Here every nogood learned or used while solving benchmark-like boards with
frequent restarts is checked on the weakest states it claims: the tiles it holds at, or fewer
(pairs of tiles it does not need removed), every kind one group again, and only the pairs it
names as apart and present forbidden.  Each such state is decided by brute force over every
removal order when small, else by the search solver without nogoods (which the other tests
check against the exhaustive search); it must not be solvable.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from functools import cache

import pytest

from levelgen.linkup.core.board import EMPTY, Board, iter_bits
from levelgen.linkup.core.reach import linkable_mask
from levelgen.linkup.core.rules import Rules
from levelgen.linkup.solvers.base import Budget, SolveStats, SolveStatus
from levelgen.linkup.solvers.search import engine as engine_module
from levelgen.linkup.solvers.search.engine import Engine, OutOfBudget
from levelgen.linkup.solvers.search.explain import Expl, holds
from levelgen.linkup.solvers.search.nogoods import NogoodStore
from tests.linkup.solvers.search.test_search import assert_replays, solve_with_runs_at_once
from tests.strategies import BENCH_12x8_01

#: States with at most this many tiles are decided by brute force.
BRUTE_TILES = 16


def brute_force_solvable(
    occ0: int, free0: int, forbid: dict[int, int], kinds: dict[int, int], rules: Rules, stride: int
) -> bool:
    """Whether some removal order clears the tiles ``occ0`` (kinds ``kinds``, never a pair in
    ``forbid``), every path crossing only ``free0`` and removed tiles; with a memo."""

    @cache
    def solvable(occ: int) -> bool:
        if not occ:
            return True
        free = free0 | (occ0 & ~occ)
        for a in iter_bits(occ):
            mates = occ & kinds[a] & ~forbid.get(a, 0)
            for b in iter_bits(linkable_mask(1 << a, free, mates, rules.max_turns, stride)):
                if a < b and solvable(occ & ~(1 << a | 1 << b)):
                    return True
        return False

    return solvable(occ0)


def weakest_states(engine: Engine, expl: Expl, rng: random.Random) -> Iterator[int]:
    """The tiles of states the nogood claims dead: those it holds at; with every tile it does
    not need present removed, in pairs of a kind; and twice with some such pairs removed."""
    occ = engine.occ
    yield occ
    for share in (1.0, 0.3, 0.6):
        fewer = occ
        for kind in {engine.kinds[t] for t in iter_bits(occ)}:
            spare = list(iter_bits(kind & occ & ~expl.present))
            rng.shuffle(spare)
            for i in range(0, len(spare) - 1, 2):
                if rng.random() < share:
                    fewer &= ~(1 << spare[i] | 1 << spare[i + 1])
        yield fewer


class Checker:
    """Checks each nogood handed to ``CHECK_NOGOOD`` while ``board`` is solved under ``rules``."""

    def __init__(self, board: Board, rules: Rules) -> None:
        self.board, self.rules = board, rules
        self.rng = random.Random(7)
        self.decided = 0

    def __call__(self, engine: Engine, expl: Expl) -> None:
        assert holds(expl, engine.occ, engine.gid, engine.forbid)
        for occ in weakest_states(engine, expl, self.rng):
            forbid: dict[int, int] = {}
            for a, b in expl.apart:
                if occ >> a & 1 and occ >> b & 1:
                    forbid[a] = forbid.get(a, 0) | 1 << b
                    forbid[b] = forbid.get(b, 0) | 1 << a
            solvable = self._solvable(engine, occ, forbid)
            assert solvable is not True, f"{expl} holds in a solvable state"
            self.decided += solvable is False

    def _solvable(self, engine: Engine, occ: int, forbid: dict[int, int]) -> bool | None:
        """Whether the state is solvable; None when the search ran out of nodes."""
        if occ.bit_count() <= BRUTE_TILES:
            free = engine.open_cells & ~occ
            return brute_force_solvable(occ, free, forbid, engine.kinds, self.rules, engine.stride)
        lay = self.board.layout
        cells = list(self.board.cells)
        for t in iter_bits(self.board.occupied_mask() & ~occ):
            p = lay.pos(t)
            cells[p.y * self.board.width + p.x] = EMPTY
        probe = Engine(
            Board(self.board.width, self.board.height, tuple(cells)),
            self.rules,
            Budget(max_nodes=3_000),
            SolveStats(),
        )
        for a, mask in forbid.items():
            probe.forbid[a] |= mask
            for b in iter_bits(mask):
                if a < b:
                    probe.forbidden.append((a, b))
                    probe.banned_at[(a, b)] = 0
        saved = engine_module.NOGOODS
        engine_module.NOGOODS = False
        try:
            if probe.root_relaxation():
                return False
            return probe.search() is not None
        except OutOfBudget:
            return None
        finally:
            engine_module.NOGOODS = saved


def full_board(seed: int, width: int, height: int) -> Board:
    """A full board, four tiles of each kind shuffled (like ``shared/bench``), from ``seed``."""
    cells = [kind for kind in range(1, width * height // 4 + 1) for _ in range(4)]
    random.Random(seed).shuffle(cells)
    return Board(width, height, tuple(cells))


#: Boards, rules, and how many nogood hits at least.
CASES = {
    "12x8 without outside": ([Board.from_grid(BENCH_12x8_01)], Rules(2, outside=False), 0),
    "10x6 with one turn": ([full_board(seed, 10, 6) for seed in range(6)], Rules(1), 10),
}


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("base", [1, 3])
def test_every_nogood_kills_only_dead_states(case: str, base: int) -> None:
    boards, rules, min_hits = CASES[case]
    decided = hits = 0
    for board in boards:
        check = Checker(board, rules)
        engine_module.CHECK_NOGOOD = check
        try:
            result = solve_with_runs_at_once(board, rules, base)
        finally:
            engine_module.CHECK_NOGOOD = None
        assert result.status is not SolveStatus.UNKNOWN
        if result.status is SolveStatus.SOLVED:
            assert_replays(board, rules, result)
        decided += check.decided
        hits += result.stats.counters["nogood_hits"]
    # Enough claims were decided (not out of nodes), and nogoods were used.
    assert decided >= 30 and hits >= min_hits, (decided, hits)


def test_store_finds_only_nogoods_that_hold() -> None:
    tiles = 0b111111 << 1
    store = NogoodStore(tiles)
    gid = dict.fromkeys(range(1, 7), 0)
    forbid = dict.fromkeys(range(1, 7), 0)
    needs_2_gone = Expl(1 << 2, frozenset(), 1 << 1)
    needs_3_and_4_apart = Expl(0, frozenset({(3, 4)}), 1 << 5)
    store.add(needs_2_gone)
    store.add(needs_3_and_4_apart)
    assert store.find(tiles, gid, forbid) is None
    assert store.find(tiles & ~(1 << 2), gid, forbid) is needs_2_gone
    assert store.find(tiles & ~(1 << 2 | 1 << 1), gid, forbid) is None
    gid[4] = 1
    assert store.find(tiles, gid, forbid) is needs_3_and_4_apart
    assert store.find(tiles & ~(1 << 5), gid, forbid) is None


def test_store_is_bounded_and_keeps_the_newest() -> None:
    store = NogoodStore(0b1111, limit=4)
    for t in range(4):
        store.add(Expl(1 << t))
    newest = Expl(1 << 1, frozenset(), 1 << 3)
    store.add(newest)
    assert len(store) == 3 and store.evictions == 1
    gid = dict.fromkeys(range(4), 0)
    forbid = dict.fromkeys(range(4), 0)
    assert store.find(0b1110, gid, forbid) is None  # Expl(1 << 0) was dropped
    assert store.find(0b1011, gid, forbid) == Expl(1 << 2)
    assert store.find(0b1101, gid, forbid) is newest
