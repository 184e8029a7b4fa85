"""Property tests on random boards of every overshoot rule: the fast code against the simple
references of ``reference.py`` (plain BFS, Gauss-Jordan over fractions, seeded simulation)."""

from __future__ import annotations

import math
import statistics

import pytest
from hypothesis import HealthCheck, given, settings

from levelgen.ladders.analysis import Unsolvable, analyse
from levelgen.ladders.chain import (
    build_chain,
    fewest_rolls,
    is_closed_trap,
    settled_squares,
    trapped_squares,
)
from levelgen.ladders.distribution import game_lengths
from levelgen.ladders.exact import check_expectations, solve_expectations
from levelgen.ladders.rules import OVERSHOOTS, Board, Rules

from .reference import boards, fraction_expected, plain_fewest, simulate

PROPERTY = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("overshoot", OVERSHOOTS)
@PROPERTY
@given(data=boards())
def test_fewest_rolls_against_plain_bfs(overshoot: str, data: tuple[Board, Rules]) -> None:
    board, rules = data[0], Rules(data[1].faces, overshoot)
    found = fewest_rolls(build_chain(board, rules))
    want = plain_fewest(board, rules)
    assert (None if found is None else found[0]) == want


@pytest.mark.parametrize("overshoot", OVERSHOOTS)
@PROPERTY
@given(data=boards())
def test_exact_expectation_against_fractions(overshoot: str, data: tuple[Board, Rules]) -> None:
    board, rules = data[0], Rules(data[1].faces, overshoot)
    chain = build_chain(board, rules)
    want = fraction_expected(board, rules)
    trapped = trapped_squares(chain)
    if trapped:
        assert is_closed_trap(chain, trapped) or want is None
        assert isinstance(analyse(board, rules), Unsolvable)
        return
    settled = settled_squares(chain)
    found = solve_expectations(chain, settled)
    assert found.rolls(0) == want
    assert check_expectations(chain, settled, found.columns()) == []


@pytest.mark.parametrize("overshoot", OVERSHOOTS)
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=boards(max_side=5))
def test_exact_expectation_within_a_simulations_interval(
    overshoot: str, data: tuple[Board, Rules]
) -> None:
    board, rules = data[0], Rules(data[1].faces, overshoot)
    found = analyse(board, rules)
    if isinstance(found, Unsolvable):
        return
    expected = found.expected_rolls.value
    lengths = simulate(board, rules, 4000, seed=board.squares * 31 + rules.faces)
    mean = statistics.fmean(lengths)
    spread = statistics.pstdev(lengths)
    half = 4.5 * spread / math.sqrt(len(lengths))  # a fixed seed: the same games every run
    assert abs(mean - expected) <= half + 1e-12, (mean, expected, half)


@pytest.mark.parametrize("overshoot", OVERSHOOTS)
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=boards())
def test_float_recurrence_mean_is_the_exact_expectation(
    overshoot: str, data: tuple[Board, Rules]
) -> None:
    board, rules = data[0], Rules(data[1].faces, overshoot)
    chain = build_chain(board, rules)
    if trapped_squares(chain):
        return
    settled = settled_squares(chain)
    exact = solve_expectations(chain, settled).rolls_float(0)
    lengths = game_lengths(chain, settled, 0)
    # The float sum stops once S(k) < 1e-7 and closes with a geometric tail, which is exact
    # only once the slowest mode of the chain dominates: a check to about 1e-7, not to the ulp.
    assert lengths.mean == pytest.approx(exact, rel=1e-6)
    assert lengths.ended[-1] >= 0.999 - 1e-9
    assert lengths.median <= lengths.p90 <= lengths.p99 <= len(lengths.ended)
