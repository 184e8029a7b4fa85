"""How long games last: the distribution of the number of rolls, its median, mode and
percentiles, and the length of a game of several players.

The chance that the game has ended by roll ``k`` comes from a recurrence in floating point:
the probabilities of the settled squares after ``k`` rolls, moved one roll at a time
(``numpy.bincount`` adds each square's share into the squares its rolls reach, in one fixed
order, so the bytes are the same on every machine).  ``absorbed[k]`` is the chance the game
ends on roll ``k``; ``ended[k]`` is their running sum; ``left[k] = left[k - 1] - absorbed[k]``
is the chance it is still on after ``k`` rolls.  The squares' chances, ``absorbed`` and
``ended`` are sums of non-negative terms, so each is off its exact value by at most about
``k * faces`` units in the last place (under 1e-10 for the 100,000 rolls the recurrence may
run); ``left``, made by subtraction, is off by as much in absolute terms, which is all the
sums of the player games need.  Whenever a decision depends on a
float closer than 1e-9 to its threshold (a percentile, the last roll written, the mode
between two near-equal rolls), it is taken on the exact values instead:
:func:`exact_absorbed` runs the same recurrence on integers (the counts of the ``F**k`` roll
sequences), so the integers written are the exact ones.

Percentile ``q``: the first roll ``k`` with ``P(ended by k) >= q``.  Mode: the roll on which the
game most often ends (the first of equals).  A game of ``P`` players takes turns, one roll
each, and ends when the first token reaches N: with ``S(k)`` the chance one token is still
on after ``k`` rolls, the expected number of *rounds* is ``sum_k S(k)**P`` and the expected
number of *rolls* (all players') is ``sum_k sum_{j<P} S(k+1)**j * S(k)**(P-j)``; both are
floats (the exact values need the chain of all ``P`` tokens together), summed until
``S(k) < 1e-7`` and closed with the geometric tail (what that leaves out is well under
1e-12 for two players or more).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from .chain import Chain

__all__ = [
    "MAX_ROLLS",
    "PLAYERS",
    "QUANTILES",
    "Lengths",
    "PlayersFigure",
    "TooLong",
    "chance_within",
    "exact_absorbed",
    "game_lengths",
]

#: The most rolls the recurrence runs; a board whose game is still on with probability 0.001
#: after that many rolls is too long to describe (:class:`TooLong`).
MAX_ROLLS = 100_000
#: The player counts whose game length is given.
PLAYERS = (2, 3, 4, 5, 6)
#: The percentiles given, and the coverage of the written distribution.
QUANTILES = {"median": Fraction(1, 2), "p90": Fraction(9, 10), "p99": Fraction(99, 100)}
COVERAGE = Fraction(999, 1000)
_MARGIN = 1e-9
_TAIL = 1e-7
_POLL = 256


class TooLong(ValueError):
    """The game is still on with probability over 0.001 after :data:`MAX_ROLLS` rolls."""


class Stopped(RuntimeError):
    """The budget's ``should_stop`` said to give up."""


@dataclass(frozen=True, slots=True)
class PlayersFigure:
    """The expected length of a game of ``players`` players: rounds, and rolls in all."""

    players: int
    rounds: float
    rolls: float


@dataclass(frozen=True, slots=True)
class Lengths:
    """The length of one token's game from a square: ``ended[k - 1]`` is the chance it has ended
    by roll ``k``, up to the first roll where that reaches 0.999; the percentiles, the mode,
    the mean of the float recurrence (a check on the exact one, to about 1e-7: its sum stops
    where the chance left is under 1e-7) and the player games."""

    ended: tuple[float, ...]
    median: int
    mode: int
    p90: int
    p99: int
    mean: float
    players: tuple[PlayersFigure, ...]


class _Recurrence:
    """The float recurrence over the settled squares, from one square."""

    def __init__(self, chain: Chain, squares: Sequence[int], start: int) -> None:
        size = len(squares)
        index = {s: i for i, s in enumerate(squares)}
        index[chain.n] = size
        self.faces = chain.faces
        self.size = size
        self.sources = np.repeat(np.arange(size, dtype=np.intp), chain.faces)
        self.targets = np.array([index[t] for s in squares for t in chain.after[s]], dtype=np.intp)
        self.state = np.zeros(size, dtype=np.float64)
        self.state[index[start]] = 1.0

    def step(self) -> float:
        """One roll; the chance the game ends on it."""
        moved: np.ndarray = np.bincount(
            self.targets, weights=self.state.take(self.sources), minlength=self.size + 1
        )
        moved /= self.faces
        self.state = moved[: self.size]
        return float(moved[self.size])


def exact_absorbed(
    chain: Chain,
    squares: Sequence[int],
    start: int,
    rolls: int,
    *,
    should_stop: Callable[[], bool] | None = None,
) -> list[Fraction]:
    """The exact chance the game from ``start`` ends on roll ``k``, for ``k = 1..rolls``
    (``Stopped`` when ``should_stop`` says so)."""
    index = {s: i for i, s in enumerate(squares)}
    counts = [0] * len(squares)
    counts[index[start]] = 1
    moves = [[index.get(t, -1) for t in chain.after[s]] for s in squares]
    out: list[Fraction] = []
    scale = 1
    for k in range(rolls):
        if should_stop is not None and k % _POLL == 0 and should_stop():
            raise Stopped("stopped")
        scale *= chain.faces
        following = [0] * len(squares)
        ended = 0
        for i, c in enumerate(counts):
            if c:
                for j in moves[i]:
                    if j < 0:
                        ended += c
                    else:
                        following[j] += c
        counts = following
        out.append(Fraction(ended, scale))
    return out


def game_lengths(
    chain: Chain,
    squares: Sequence[int],
    start: int = 0,
    *,
    should_stop: Callable[[], bool] | None = None,
) -> Lengths:
    """The distribution of the game's length from settled square ``start`` (see the module
    docstring).  ``TooLong`` past :data:`MAX_ROLLS`; ``Stopped`` when ``should_stop`` says so."""
    if start == chain.n:
        return Lengths((1.0,), 0, 0, 0, 0, 0.0, tuple(PlayersFigure(p, 0.0, 0.0) for p in PLAYERS))
    recurrence = _Recurrence(chain, squares, start)
    absorbed: list[float] = [0.0]
    ended: list[float] = [0.0]
    left: list[float] = [1.0]
    covered = 0
    best = 0
    while True:
        k = len(absorbed)
        if k > MAX_ROLLS:
            if not covered:
                raise TooLong(f"the game is still on with probability over 0.001 after {MAX_ROLLS}")
            break
        if should_stop is not None and k % _POLL == 0 and should_stop():
            raise Stopped("stopped")
        a = recurrence.step()
        absorbed.append(a)
        ended.append(min(1.0, ended[-1] + a))  # a sum of rounded terms may pass 1 by an ulp
        left.append(max(0.0, left[-1] - a))
        if a > absorbed[best]:
            best = k
        if not covered and ended[k] >= float(COVERAGE) - _MARGIN:
            covered = k
        mode_settled = left[k] < absorbed[best] * (1 - _MARGIN)
        if covered and mode_settled and left[k] < _TAIL:
            break
    exact = _Exact(chain, squares, start, should_stop)
    covered = _first_reaching(ended, COVERAGE, exact)
    quantiles = {name: _first_reaching(ended, q, exact) for name, q in QUANTILES.items()}
    mode = _mode(absorbed, exact)
    return Lengths(
        tuple(ended[1 : covered + 1]),
        quantiles["median"],
        mode,
        quantiles["p90"],
        quantiles["p99"],
        math.fsum(left) + _tail(left, 1)[0],
        tuple(_players(left, p) for p in PLAYERS),
    )


class _Exact:
    """The exact chances, computed once and only when a float decision is too close."""

    def __init__(
        self,
        chain: Chain,
        squares: Sequence[int],
        start: int,
        should_stop: Callable[[], bool] | None,
    ) -> None:
        self.args = (chain, squares, start)
        self.should_stop = should_stop
        self.absorbed: list[Fraction] = [Fraction(0)]
        self.ended: list[Fraction] = [Fraction(0)]

    def upto(self, k: int) -> None:
        if k < len(self.absorbed):
            return
        values = exact_absorbed(*self.args, k, should_stop=self.should_stop)
        self.absorbed = [Fraction(0), *values]
        self.ended = [Fraction(0)]
        for value in values:
            self.ended.append(self.ended[-1] + value)


def _first_reaching(ended: list[float], q: Fraction, exact: _Exact) -> int:
    """The first roll ``k`` with ``P(ended by k) >= q``, by the floats where they are clear."""
    target = float(q)
    for k in range(1, len(ended)):
        if ended[k] < target - _MARGIN:
            continue
        if ended[k] > target + _MARGIN:
            return k
        exact.upto(k)
        if exact.ended[k] >= q:
            return k
    raise TooLong(f"the game is still on with probability over {1 - q} after {len(ended) - 1}")


def _mode(absorbed: list[float], exact: _Exact) -> int:
    """The first roll of the largest chance of ending, exactly when floats are close."""
    top = max(absorbed)
    near = [k for k, a in enumerate(absorbed) if a >= top * (1 - _MARGIN)]
    if len(near) == 1:
        return near[0]
    exact.upto(max(near))
    return max(near, key=lambda k: (exact.absorbed[k], -k))


def _power(values: np.ndarray, exponent: int) -> np.ndarray:
    """``values ** exponent`` by repeated multiplication (elementwise IEEE products, the same
    bits on every machine, where ``pow`` of the C library may differ in the last place)."""
    out = np.ones_like(values)
    for _ in range(exponent):
        out = out * values
    return out


def _tail(left: list[float], players: int) -> tuple[float, float]:
    """The rounds and rolls after the last ``left`` value, as a geometric tail."""
    last, before = left[-1], left[-2]
    ratio = last / before if before > 0 else 0.0
    if not 0 < ratio < 1:
        return 0.0, 0.0
    last_p = ratio_p = 1.0
    steps = 0.0  # sum of ratio**j for j < players
    for _ in range(players):
        steps += ratio_p
        last_p *= last
        ratio_p *= ratio
    return last_p * ratio_p / (1 - ratio_p), last_p * steps / (1 - ratio_p)


def _players(left: list[float], players: int) -> PlayersFigure:
    """The expected rounds and rolls of a game of ``players`` players (module docstring)."""
    on = np.array(left, dtype=np.float64)
    now, then = on[:-1], on[1:]
    rounds = math.fsum(_power(on, players).tolist())
    terms = np.zeros_like(now)
    for j in range(players):
        terms = terms + _power(then, j) * _power(now, players - j)
    rolls = math.fsum(terms.tolist())
    tail_rounds, tail_rolls = _tail(left, players)
    return PlayersFigure(players, rounds + tail_rounds, rolls + tail_rolls)


def chance_within(chain: Chain, squares: Sequence[int], start: int, rolls: int) -> float:
    """The chance the game from settled square ``start`` ends within ``rolls`` rolls: exact
    (then rounded) up to 200 rolls, the float recurrence beyond."""
    if rolls <= 0:
        return 0.0
    if rolls <= 200:
        total = sum(exact_absorbed(chain, squares, start, rolls), Fraction(0))
        return total.numerator / total.denominator
    recurrence = _Recurrence(chain, squares, start)
    return math.fsum(recurrence.step() for _ in range(rolls))
