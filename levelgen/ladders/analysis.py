"""The analysis of a board, the certificate its level file carries, and the check of a written
one.

:func:`analyse` answers, for one token from square 0, either an :class:`AnalysisFile` (the
fewest rolls and a sequence that takes them, the exact expected rolls, snakes and ladders
taken, the distribution of the length with its median, mode and percentiles, and games of
2..6 players) or an :class:`Unsolvable` (the trapped squares and rolls that reach one).
:func:`analysis_problems` compares a written analysis with a computed one: integers and
fractions exactly (fractions as fractions: ``"4/2"`` is ``"2/1"``), the float beside a
fraction within 1e-9 of it (relative), the distribution within 1e-9 and the player figures
within 1e-9 (relative), so that another program's floats pass; and the roll sequence by
replaying it (any sequence of the fewest rolls that reaches N is right).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from ..puzzles import Problem
from .chain import (
    Chain,
    build_chain,
    fewest_rolls,
    replay_rolls,
    rolls_to,
    settled_squares,
    trapped_squares,
)
from .distribution import game_lengths
from .exact import Expectations, StartValues, solve_expectations, solve_start
from .files import AnalysisFile, FractionFile, PlayersFile
from .rules import Board, Rules

__all__ = [
    "TOLERANCE",
    "Unsolvable",
    "analyse",
    "analysis_problems",
    "board_expectations",
    "fraction_file",
    "parse_fraction",
    "solve_board",
]

#: How far a written float may be from the computed one (relative for expectations and player
#: games, absolute for probabilities).
TOLERANCE = 1e-9


@dataclass(frozen=True, slots=True)
class Unsolvable:
    """The proof that the game may never end: the trapped squares (reachable from square 0, N
    unreachable from each: every roll from one lands on one) and rolls from 0 to the first."""

    trapped: tuple[int, ...]
    rolls: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Solved:
    """A board's chain, its settled squares and the exact expectations from square 0 (None when
    square 0 is not settled: the game may never end)."""

    chain: Chain
    settled: tuple[int, ...]
    start: StartValues | None


def solve_board(board: Board, rules: Rules) -> Solved:
    """The chain of a valid board and its exact expectations from square 0 (one solve)."""
    chain = build_chain(board, rules)
    settled = tuple(settled_squares(chain))
    start = solve_start(chain, settled) if 0 in settled else None
    return Solved(chain, settled, start)


def board_expectations(board: Board, rules: Rules) -> tuple[Chain, tuple[int, ...], Expectations]:
    """The chain of a valid board, its settled squares and the exact expectations from each
    (for hints and the player's table)."""
    chain = build_chain(board, rules)
    settled = tuple(settled_squares(chain))
    return chain, settled, solve_expectations(chain, settled)


def fraction_file(value: Fraction) -> FractionFile:
    """``value`` as written: ``"p/q"`` in lowest terms and its nearest float."""
    return FractionFile(
        fraction=f"{value.numerator}/{value.denominator}",
        value=value.numerator / value.denominator,
    )


def parse_fraction(text: str) -> Fraction:
    """The fraction ``"p/q"`` (the schema has checked its form)."""
    numerator, _, denominator = text.partition("/")
    return Fraction(int(numerator), int(denominator or "1"))


def analyse(
    board: Board, rules: Rules, *, should_stop: Callable[[], bool] | None = None
) -> AnalysisFile | Unsolvable:
    """The analysis of a valid board, or the proof that its game may never end.  Raises
    :class:`levelgen.ladders.distribution.TooLong` for a game too long to describe and
    :class:`levelgen.ladders.distribution.Stopped` when ``should_stop`` says so."""
    chain = build_chain(board, rules)
    trapped = trapped_squares(chain)
    if trapped:
        rolls = rolls_to(chain, trapped)
        assert rolls is not None, "a trapped square is reachable by definition"
        return Unsolvable(tuple(trapped), rolls)
    settled = tuple(settled_squares(chain))
    return analysis_of(Solved(chain, settled, solve_start(chain, settled)), should_stop=should_stop)


def analysis_of(solved: Solved, *, should_stop: Callable[[], bool] | None = None) -> AnalysisFile:
    """The analysis from square 0 of a solved board whose square 0 is settled."""
    chain, settled, start = solved.chain, solved.settled, solved.start
    assert start is not None, "square 0 is settled"
    fewest = fewest_rolls(chain)
    assert fewest is not None, "N is reachable from a settled square"
    lengths = game_lengths(chain, settled, 0, should_stop=should_stop)
    return AnalysisFile(
        fewest_rolls=fewest[0],
        fewest_sequence=list(fewest[1]),
        expected_rolls=fraction_file(start.rolls),
        distribution=list(lengths.ended),
        median=lengths.median,
        mode=lengths.mode,
        p90=lengths.p90,
        p99=lengths.p99,
        expected_snakes=fraction_file(start.snakes),
        expected_ladders=fraction_file(start.ladders),
        players=[
            PlayersFile(players=p.players, rounds=p.rounds, rolls=p.rolls) for p in lengths.players
        ],
    )


def _close(written: float, computed: float, *, relative: bool) -> bool:
    scale = max(1.0, abs(computed)) if relative else 1.0
    return math.isfinite(written) and abs(written - computed) <= TOLERANCE * scale


def _fraction_problems(here: str, written: FractionFile, computed: FractionFile) -> list[Problem]:
    want = parse_fraction(computed.fraction)
    got = parse_fraction(written.fraction)
    if got != want:
        return [
            Problem(
                f"{here}/fraction",
                f"is {written.fraction}, but the board gives {computed.fraction}",
            )
        ]
    if not _close(written.value, got.numerator / got.denominator, relative=True):
        return [
            Problem(f"{here}/value", f"{written.value!r} is not the value of {written.fraction}")
        ]
    return []


def analysis_problems(chain: Chain, written: AnalysisFile, computed: AnalysisFile) -> list[Problem]:
    """Where the written analysis differs from the computed one (see the module docstring)."""
    here = "/analysis"
    problems: list[Problem] = []
    if written.fewest_rolls != computed.fewest_rolls:
        problems.append(
            Problem(
                f"{here}/fewest_rolls",
                f"is {written.fewest_rolls}, but the fewest rolls are {computed.fewest_rolls}",
            )
        )
    problems.extend(_sequence_problems(chain, written))
    for name in ("expected_rolls", "expected_snakes", "expected_ladders"):
        problems.extend(
            _fraction_problems(f"{here}/{name}", getattr(written, name), getattr(computed, name))
        )
    if len(written.distribution) != len(computed.distribution):
        problems.append(
            Problem(
                f"{here}/distribution",
                f"{len(written.distribution)} rolls, but the chance of an end passes 0.999 at roll"
                f" {len(computed.distribution)}",
            )
        )
    else:
        for k, (got, want) in enumerate(
            zip(written.distribution, computed.distribution, strict=True)
        ):
            if not _close(got, want, relative=False):
                problems.append(
                    Problem(f"{here}/distribution/{k}", f"is {got!r}, but the board gives {want!r}")
                )
                break
    for name in ("median", "mode", "p90", "p99"):
        got_n, want_n = getattr(written, name), getattr(computed, name)
        if got_n != want_n:
            problems.append(Problem(f"{here}/{name}", f"is {got_n}, but the board gives {want_n}"))
    for i, (got_p, want_p) in enumerate(zip(written.players, computed.players, strict=True)):
        at = f"{here}/players/{i}"
        if got_p.players != want_p.players:
            problems.append(
                Problem(f"{at}/players", f"is {got_p.players}, expected {want_p.players}")
            )
            continue
        for name in ("rounds", "rolls"):
            got_f, want_f = getattr(got_p, name), getattr(want_p, name)
            if not _close(got_f, want_f, relative=True):
                problems.append(
                    Problem(f"{at}/{name}", f"is {got_f!r}, but the board gives {want_f!r}")
                )
    return problems


def _sequence_problems(chain: Chain, written: AnalysisFile) -> list[Problem]:
    at = "/analysis/fewest_sequence"
    rolls = written.fewest_sequence
    if len(rolls) != written.fewest_rolls:
        return [Problem(at, f"{len(rolls)} rolls, but fewest_rolls is {written.fewest_rolls}")]
    try:
        squares = replay_rolls(chain, rolls)
    except ValueError as exc:
        return [Problem(at, str(exc))]
    if squares[-1] != chain.n:
        return [Problem(at, f"ends on square {squares[-1]}, not on {chain.n}")]
    return []
