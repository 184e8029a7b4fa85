"""Backjumping of the search solver: explanations of dead states, and the answers they give.

``tests/conftest.py`` turns ``CHECK_EXPLANATIONS`` on for every test, so that each explanation of a
dead node is checked to hold at that node; here the pieces are tested on their own, the answers
with backjumping on and off are compared with each other and with the exhaustive search, and a
board where every pairing stalls early shows the jumps at work.
"""

from __future__ import annotations

from hypothesis import given, settings

from levelgen.linkup.core.board import Board, iter_bits
from levelgen.linkup.core.rules import Rules
from levelgen.linkup.solvers.base import Budget, SolveStats, SolveStatus
from levelgen.linkup.solvers.exhaustive import solve_exhaustive
from levelgen.linkup.solvers.search import engine as engine_module
from levelgen.linkup.solvers.search import solve_search
from levelgen.linkup.solvers.search.explain import (
    Expl,
    Removal,
    Split,
    Transition,
    expl_level,
    explain_no_pairing,
    holds,
    merge,
    resolve,
)
from tests.linkup.solvers.search.test_search import (
    DEFAULT_RESTART_BASE,
    assert_replays,
    dense_boards,
    hard_rules_st,
)
from tests.strategies import STALLS_18x10


def test_resolve_replaces_closure_removals_by_their_reasons() -> None:
    # Partners (3, 4) were removed, then the closure removed group 0b11 << 10 because tiles 5
    # and 6 had gone and tile 12 was apart from both of its tiles.
    step = Transition(True, 3, 4, [Removal(1 << 3 | 1 << 4, 0, frozenset({(3, 8)}))])
    reason = frozenset({(10, 12), (11, 12)})
    step.events.append(Removal(1 << 10 | 1 << 11, 1 << 5 | 1 << 6, reason))
    child = Expl(1 << 3 | 1 << 10 | 1 << 20, frozenset({(30, 31)}), 1 << 40)
    parent = resolve(child, step)
    # The partners' own facts are the decision's: dropped, not explained by their removal.
    assert parent == Expl(1 << 5 | 1 << 6 | 1 << 20, reason | {(30, 31)}, 1 << 40)


def test_resolve_explains_a_removed_group_named_only_by_an_apart_fact() -> None:
    # apart(11, 30) held in the child because 11 was gone; at the parent, 11 is present and
    # may pair with 30, so the removal of {10, 11} must be explained instead.
    step = Transition(False, 1, 2, [Removal(1 << 10 | 1 << 11, 1 << 5, frozenset())])
    assert resolve(Expl(0, frozenset({(11, 30)})), step) == Expl(1 << 5)


def test_resolve_drops_facts_about_the_partners_from_an_earlier_removal() -> None:
    # The closure removed the rest {5, 6} of the kind while the partners 3 and 4 were still
    # there (apart from it only because of the decision), then the partners.
    reason = frozenset({(3, 5), (4, 5), (3, 6), (4, 6)})
    step = Transition(True, 3, 4, [Removal(1 << 5 | 1 << 6, 0, reason)])
    step.events.append(Removal(1 << 3 | 1 << 4, 0, frozenset()))
    assert resolve(Expl(1 << 5 | 1 << 9), step) == Expl(1 << 9)


def test_resolve_replaces_a_forced_split_and_drops_the_ban() -> None:
    made = frozenset({(1, 3), (1, 4), (2, 3), (2, 4)})
    four = 0b1111 << 1
    step = Transition(False, 1, 3, [Split(made, 1 << 9, frozenset({(1, 3), (1, 4)}), four)])
    step.events.append(Removal(1 << 1 | 1 << 2, 0, made))
    child = Expl(1 << 2, frozenset({(3, 7)}))
    # gone(2) <- the removal of {1, 2}, apart from 3 and 4 <- the split <- the four present,
    # tile 9 gone and the bans (1, 3), (1, 4); the decision's ban (1, 3) is dropped.
    assert resolve(child, step) == Expl(1 << 9, frozenset({(1, 4), (3, 7)}), four)


def test_a_fact_unrelated_to_the_step_survives_resolution() -> None:
    step = Transition(False, 1, 2, [])
    child = Expl(1 << 7, frozenset({(5, 6), (1, 2), (3, 4)}), 1 << 9)
    assert resolve(child, step) == Expl(1 << 7, frozenset({(5, 6), (3, 4)}), 1 << 9)
    assert merge(child, Expl(1 << 8, frozenset(), 1 << 10)) == Expl(
        1 << 7 | 1 << 8, frozenset({(5, 6), (1, 2), (3, 4)}), 1 << 9 | 1 << 10
    )


def test_level_is_the_deepest_fact_and_own_depth_without_explanation() -> None:
    removed_at = [0] * 10
    split_at = [0] * 10
    removed_at[2], removed_at[3], removed_at[4], split_at[5], split_at[6] = 4, 1, 6, 2, 2
    banned_at = {(7, 8): 3}
    occ = 0b1111100011
    gid = dict.fromkeys(range(10), 0)
    gid[6] = 1

    def level(expl: Expl | None) -> int:
        return expl_level(expl, 9, occ, gid, removed_at, split_at, banned_at)

    assert level(Expl(1 << 2 | 1 << 3, frozenset({(5, 6), (7, 8)}))) == 4
    assert level(Expl(1 << 3, frozenset(), 1 << 9)) == 1
    # apart(1, 4) holds since tile 4 left, at depth 6.
    assert level(Expl(1 << 3, frozenset({(1, 4)}))) == 6
    assert level(Expl()) == 0
    assert level(None) == 9


def test_holds_needs_every_fact() -> None:
    gid = dict.fromkeys(range(10), 0)
    forbid = dict.fromkeys(range(10), 0)
    expl = Expl(1 << 2, frozenset({(3, 4)}), 1 << 5)
    assert not holds(expl, 1 << 5 | 1 << 3 | 1 << 4, gid, forbid)
    gid[4] = 1
    assert holds(expl, 1 << 5 | 1 << 3 | 1 << 4, gid, forbid)
    # Apart because 4 is gone; not with 5 gone or 2 back.
    gid[4] = 0
    assert holds(expl, 1 << 5 | 1 << 3, gid, forbid)
    assert not holds(expl, 1 << 3, gid, forbid)
    assert not holds(expl, 1 << 5 | 1 << 3 | 1 << 2, gid, forbid)


def test_no_pairing_explanation_names_the_bans_and_the_gone_rest_of_the_kind() -> None:
    four = 0b1111 << 1
    kind = four | 1 << 8 | 1 << 9
    forbid = dict.fromkeys(range(10), 0)
    for a, b in ((1, 2), (1, 3), (1, 4)):
        forbid[a] |= 1 << b
        forbid[b] |= 1 << a
    occ = four
    expl = explain_no_pairing(four, kind, occ, forbid)
    assert expl == Expl(1 << 8 | 1 << 9, frozenset({(1, 2), (1, 3), (1, 4)}), four)
    gid = dict.fromkeys(range(10), 0)
    assert holds(expl, occ, gid, forbid)
    assert not holds(expl, occ | 1 << 8, gid, forbid)
    assert not holds(expl, occ & ~(1 << 2), gid, forbid)


def test_memo_key_keeps_a_forbidden_pair_of_a_group_of_two() -> None:
    # Kind 1 four times: forbid (c, d), then make (a, b) partners and remove them.  The group
    # {c, d} left is dead; the same tiles without the ban are not, so the keys must differ.
    board = Board.from_rows(["1111"])
    engine = engine_module.Engine(board, Rules(), Budget(), SolveStats())
    a, b, c, d = iter_bits(board.occupied_mask())
    engine._ban(0, c, d)
    engine._split(0, a, b)
    engine.occ &= ~(1 << a | 1 << b)
    engine.gmask[1] = 0
    with_ban = engine._key()
    engine._unban(c, d)
    assert engine._key() != with_ban


@settings(derandomize=True, deadline=None, max_examples=400)
@given(board=dense_boards(), rules=hard_rules_st)
def test_backjumping_changes_no_answer(board: Board, rules: Rules) -> None:
    engine_module.RESTART_BASE = 3
    try:
        jumping = solve_search(board, rules, Budget())
        engine_module.BACKJUMP = False
        plain = solve_search(board, rules, Budget())
    finally:
        engine_module.BACKJUMP = True
        engine_module.RESTART_BASE = DEFAULT_RESTART_BASE
    assert jumping.status is plain.status, (str(board), rules)
    slow = solve_exhaustive(board, rules, Budget(max_nodes=100_000))
    if slow.status is not SolveStatus.UNKNOWN:
        assert jumping.status is slow.status, (str(board), rules)
    if jumping.status is SolveStatus.SOLVED:
        assert_replays(board, rules, jumping)


def test_board_that_stalls_early_is_proved_unsolvable_with_backjumps() -> None:
    board = Board.from_grid(STALLS_18x10)
    result = solve_search(board, Rules(2, True), Budget(max_nodes=20_000))
    assert result.status is SolveStatus.UNSOLVABLE
    assert result.stats.counters["backjumps"] > 0
    # Deterministic node counts, not times: without backjumping this board takes 4,544 nodes.
    assert result.stats.nodes < 2_000
