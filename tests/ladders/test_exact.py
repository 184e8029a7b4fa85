"""The exact expectations: the published Chutes and Ladders fraction, snakes and ladders taken
against a simulation, and the check that does not trust the solver."""

from __future__ import annotations

import statistics
from fractions import Fraction

from levelgen.ladders.bench import CHUTES_AND_LADDERS, PUBLISHED_EXPECTED
from levelgen.ladders.chain import build_chain, settled_squares
from levelgen.ladders.exact import check_expectations, solve_expectations
from levelgen.ladders.rules import Board, Rules

from .reference import fraction_expected, simulate


def test_chutes_and_ladders_is_the_published_fraction() -> None:
    chain = build_chain(CHUTES_AND_LADDERS, Rules())
    found = solve_expectations(chain, settled_squares(chain))
    assert found.rolls(0) == PUBLISHED_EXPECTED
    assert fraction_expected(CHUTES_AND_LADDERS, Rules()) == PUBLISHED_EXPECTED


def test_chutes_and_ladders_against_a_long_simulation() -> None:
    lengths = simulate(CHUTES_AND_LADDERS, Rules(), 20_000, seed=1993)
    mean = statistics.fmean(lengths)
    half = 4.5 * statistics.pstdev(lengths) / len(lengths) ** 0.5
    assert abs(mean - float(PUBLISHED_EXPECTED)) <= half


def test_the_smallest_board_by_hand() -> None:
    # Two squares, a two-faced die.  Pass: a 2 wins at once, a 1 goes to square 1, from where
    # any roll wins: 1 + 1/2 = 3/2.  Exact: from square 1 only a 1 wins (2 rolls on average),
    # so 1 + 1/2 * 2 = 2; bounce: from 1 a 2 bounces back onto 1, the same.
    for overshoot, want in (
        ("pass", Fraction(3, 2)),
        ("exact", Fraction(2)),
        ("bounce", Fraction(2)),
    ):
        chain = build_chain(Board(2, 1), Rules(2, overshoot))
        assert solve_expectations(chain, settled_squares(chain)).rolls(0) == want


def test_snakes_and_ladders_taken() -> None:
    chain = build_chain(CHUTES_AND_LADDERS, Rules())
    found = solve_expectations(chain, settled_squares(chain))
    # A long simulation that counts jumps: within its interval.
    import random

    rng = random.Random(7)
    jumps = CHUTES_AND_LADDERS.jumps()
    snakes_start = {a for a, _ in CHUTES_AND_LADDERS.snakes}
    counts = []
    for _ in range(20_000):
        s = taken = 0
        while s != 100:
            t = s + rng.randint(1, 6)
            if t > 100:
                continue
            if t in snakes_start:
                taken += 1
            s = jumps.get(t, t)
        counts.append(taken)
    half = 4.5 * statistics.pstdev(counts) / len(counts) ** 0.5
    assert abs(statistics.fmean(counts) - float(found.snakes(0))) <= half
    assert found.ladders(0) > 0


def test_the_check_catches_a_wrong_value() -> None:
    chain = build_chain(CHUTES_AND_LADDERS, Rules())
    settled = settled_squares(chain)
    rolls, snakes, ladders = solve_expectations(chain, settled).columns()
    assert check_expectations(chain, settled, (rolls, snakes, ladders)) == []
    rolls[50] += Fraction(1, 10**30)
    wrong = check_expectations(chain, settled, (rolls, snakes, ladders))
    assert wrong and all("rolls" in w for w in wrong)
    del snakes[50]
    assert any(
        "no expected snakes" in w
        for w in check_expectations(chain, settled, (rolls, snakes, ladders))
    )


def test_the_transposed_solve_agrees_with_the_full_one() -> None:
    from levelgen.ladders.bench import random_board
    from levelgen.ladders.exact import solve_start

    for board, rules in (
        (CHUTES_AND_LADDERS, Rules()),
        (random_board("12x8", 1), Rules(4, "bounce")),
        (random_board("9x9", 2), Rules(6, "pass")),
    ):
        chain = build_chain(board, rules)
        settled = settled_squares(chain)
        full = solve_expectations(chain, settled)
        for square in (0, settled[len(settled) // 2]):
            start = solve_start(chain, settled, square)
            assert (start.rolls, start.snakes, start.ladders) == (
                full.rolls(square),
                full.snakes(square),
                full.ladders(square),
            )


def test_nearest_float() -> None:
    import math

    from levelgen.ladders.exact import nearest_float

    assert nearest_float(Fraction(1, 3)) == 1 / 3
    assert nearest_float(Fraction(10**400, 3)) == math.inf
    assert nearest_float(Fraction(10**400 + 1, 10**400)) == 1.0
