"""The length distribution: floats against the exact integer recurrence, percentiles and mode
taken exactly, and player games against a direct sum."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from levelgen.ladders.bench import CHUTES_AND_LADDERS
from levelgen.ladders.chain import build_chain, settled_squares
from levelgen.ladders.distribution import MAX_ROLLS, chance_within, exact_absorbed, game_lengths
from levelgen.ladders.rules import Board, Rules


def _exact_ended(board: Board, rules: Rules, rolls: int) -> list[Fraction]:
    chain = build_chain(board, rules)
    out: list[Fraction] = []
    total = Fraction(0)
    for value in exact_absorbed(chain, settled_squares(chain), 0, rolls):
        total += value
        out.append(total)
    return out


def test_chutes_and_ladders_distribution_is_the_exact_one() -> None:
    chain = build_chain(CHUTES_AND_LADDERS, Rules())
    settled = settled_squares(chain)
    lengths = game_lengths(chain, settled)
    exact = _exact_ended(CHUTES_AND_LADDERS, Rules(), len(lengths.ended))
    for got, want in zip(lengths.ended, exact, strict=True):
        assert abs(Fraction(got) - want) < Fraction(1, 10**13)
    assert exact[-1] >= Fraction(999, 1000) > exact[-2]
    assert lengths.median == next(k + 1 for k, e in enumerate(exact) if e >= Fraction(1, 2))
    assert lengths.p90 == next(k + 1 for k, e in enumerate(exact) if e >= Fraction(9, 10))
    assert lengths.p99 == next(k + 1 for k, e in enumerate(exact) if e >= Fraction(99, 100))
    assert lengths.ended[6] > 0 and lengths.ended[5] == 0  # the fewest rolls are 7
    absorbed = exact_absorbed(chain, settled, 0, len(lengths.ended))
    assert lengths.mode == absorbed.index(max(absorbed)) + 1


def test_a_threshold_met_exactly_is_decided_exactly() -> None:
    # Two squares, a two-faced die, exact rule: P(ended by 1) = 1/2 exactly, so the median is
    # roll 1 (the float sits on the threshold; the exact recurrence decides).
    chain = build_chain(Board(2, 1), Rules(2))
    lengths = game_lengths(chain, settled_squares(chain))
    assert lengths.ended[0] == 0.5
    assert lengths.median == 1
    # Ends on roll 1 with 1/2, on roll 2 with 1/4: the mode is roll 1.
    assert lengths.mode == 1


def test_player_games_against_a_direct_sum() -> None:
    chain = build_chain(CHUTES_AND_LADDERS, Rules())
    settled = settled_squares(chain)
    lengths = game_lengths(chain, settled)
    absorbed = exact_absorbed(chain, settled, 0, 700)
    left = [1.0]
    for a in absorbed:
        left.append(left[-1] - float(a))
    for figure in lengths.players:
        p = figure.players
        rounds = math.fsum(s**p for s in left)
        rolls = math.fsum(
            left[k + 1] ** j * left[k] ** (p - j) for k in range(len(left) - 1) for j in range(p)
        )
        assert figure.rounds == pytest.approx(rounds, rel=1e-9)
        assert figure.rolls == pytest.approx(rolls, rel=1e-9)
    rounds = [f.rounds for f in lengths.players]
    assert rounds == sorted(rounds, reverse=True)  # more players, a shorter game
    assert lengths.players[0].rounds < lengths.mean


def test_chance_within() -> None:
    chain = build_chain(CHUTES_AND_LADDERS, Rules())
    settled = settled_squares(chain)
    lengths = game_lengths(chain, settled)
    assert chance_within(chain, settled, 0, 6) == 0.0
    assert chance_within(chain, settled, 0, 30) == pytest.approx(lengths.ended[29], abs=1e-12)
    assert chance_within(chain, settled, 0, 250) == pytest.approx(1 - 1e-5, abs=1e-4)
    assert MAX_ROLLS == 100_000


def test_a_game_certain_to_end_ends_at_one() -> None:
    # Six squares, a three-faced die, passing allowed: over within six rolls, surely.  The
    # running sum of rounded chances must not pass 1.
    chain = build_chain(Board(6, 1), Rules(3, "pass"))
    lengths = game_lengths(chain, settled_squares(chain))
    assert all(0 <= e <= 1 for e in lengths.ended)
    assert lengths.ended[-1] == 1.0
    assert lengths.players[0].rounds < lengths.mean
