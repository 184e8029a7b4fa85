"""The absorbing chain solved exactly: the expected rolls to finish, and the expected snakes and
ladders taken, from every settled square, as fractions.

With ``F`` faces, the expected rolls ``x[s]`` from a settled square ``s`` satisfy
``F * x[s] - sum(x[t] for t in after[s] if t != N) = F`` (one equation per settled square;
``after[s]`` lists the square each roll ends on).  The expected snakes taken satisfy the same
equations with the number of rolls from ``s`` that take a snake on the right, and likewise for
ladders.  The matrix is an integer one, nonsingular because the game ends with probability 1
from every settled square, and the three right-hand sides are solved together.

The solve is FLINT's (python-flint ``fmpz_mat.solve``, exact, in C: for more than 15
squares and three right-hand sides FLINT solves modulo many primes and rebuilds the fractions
by the Chinese remainder theorem; Dixon's p-adic lifting for one).  It takes about 2 ms for a
10x10 board and 0.1 s for a 20x20 one, where Gaussian elimination over Python fractions takes
40 ms and 1.4 s even when it first eliminates along the squares and is left with one unknown
per snake's end, and SymPy's ``DomainMatrix`` takes 0.6 s and 29 s on its own pure-Python
integers (with python-flint installed SymPy uses FLINT, at the same speed as this module).
:func:`check_expectations` is the check that does not trust the solver: it puts the values
back into the equations in exact arithmetic (the equations have one solution, so values
that satisfy them are the expectations).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

import flint

from .chain import Chain

__all__ = [
    "Expectations",
    "StartValues",
    "check_expectations",
    "nearest_float",
    "solve_expectations",
    "solve_start",
]


class Expectations:
    """Per settled square: the expected rolls to finish, snakes taken and ladders taken (kept as
    FLINT's fractions, turned into Python ones when asked for)."""

    def __init__(self, solution: flint.fmpq_mat, index: Mapping[int, int]) -> None:
        self._solution = solution
        self._index = index

    @property
    def squares(self) -> list[int]:
        """The settled squares, ascending."""
        return sorted(self._index)

    def _value(self, square: int, column: int) -> Fraction:
        value = self._solution[self._index[square], column]
        return Fraction(int(value.p), int(value.q))

    def rolls(self, square: int) -> Fraction:
        """The expected rolls to finish from ``square`` (``KeyError`` for an unsettled one)."""
        return self._value(square, 0)

    def snakes(self, square: int) -> Fraction:
        """The expected snakes taken from ``square`` to the end."""
        return self._value(square, 1)

    def ladders(self, square: int) -> Fraction:
        """The expected ladders taken from ``square`` to the end."""
        return self._value(square, 2)

    def rolls_float(self, square: int) -> float:
        """:meth:`rolls` as the nearest float (``inf`` past the float range)."""
        return nearest_float(self.rolls(square))

    def columns(self) -> tuple[dict[int, Fraction], dict[int, Fraction], dict[int, Fraction]]:
        """Every expectation as Python fractions: rolls, snakes, ladders by square."""
        return (
            {s: self.rolls(s) for s in self._index},
            {s: self.snakes(s) for s in self._index},
            {s: self.ladders(s) for s in self._index},
        )


def solve_expectations(chain: Chain, squares: Sequence[int]) -> Expectations:
    """The exact expectations from each of ``squares`` (settled squares: the game ends from each
    with probability 1, and every roll from one lands on another or on N)."""
    size = len(squares)
    index = {s: i for i, s in enumerate(squares)}
    faces, goal = chain.faces, chain.n
    # Set entry by entry: the matrix is sparse, and a list of all its zeros converts slowly.
    matrix = flint.fmpz_mat(size, size)
    rhs = flint.fmpz_mat(size, 3)
    for i, s in enumerate(squares):
        row: dict[int, int] = {i: faces}
        for t in chain.after[s]:
            if t != goal:
                j = index[t]
                row[j] = row.get(j, 0) - 1
        for j, value in row.items():
            matrix[i, j] = value
        rhs[i, 0] = faces
        rhs[i, 1] = chain.snake_rolls[s]
        rhs[i, 2] = chain.ladder_rolls[s]
    solution = matrix.solve(rhs)
    assert isinstance(solution, flint.fmpq_mat)
    return Expectations(solution, index)


@dataclass(frozen=True, slots=True)
class StartValues:
    """The expected rolls, snakes and ladders from one square."""

    rolls: Fraction
    snakes: Fraction
    ladders: Fraction


def solve_start(chain: Chain, squares: Sequence[int], start: int = 0) -> StartValues:
    """The exact expectations from settled square ``start`` alone, by one solve of the
    transposed system: ``y`` with ``A^T y = e_start`` is the row of ``A^-1`` for ``start`` (the
    expected visits to each square, over ``F``), so the expected rolls are ``F * sum(y)`` and
    the expected snakes and ladders ``y`` against the rolls that take one.  One right-hand side
    (Dixon's lifting) instead of three: about a third faster than :func:`solve_expectations`."""
    size = len(squares)
    index = {s: i for i, s in enumerate(squares)}
    faces, goal = chain.faces, chain.n
    transposed = flint.fmpz_mat(size, size)
    for i, s in enumerate(squares):
        column: dict[int, int] = {i: faces}
        for t in chain.after[s]:
            if t != goal:
                j = index[t]
                column[j] = column.get(j, 0) - 1
        for j, value in column.items():
            transposed[j, i] = value
    unit = flint.fmpz_mat(size, 1)
    unit[index[start], 0] = 1
    visits = transposed.solve(unit)
    rolls = snakes = ladders = flint.fmpq(0)
    for i, s in enumerate(squares):
        y = visits[i, 0]
        rolls += y
        if chain.snake_rolls[s]:
            snakes += y * chain.snake_rolls[s]
        if chain.ladder_rolls[s]:
            ladders += y * chain.ladder_rolls[s]
    rolls *= faces
    return StartValues(_fraction(rolls), _fraction(snakes), _fraction(ladders))


def nearest_float(value: Fraction) -> float:
    """The float nearest ``value`` (correctly rounded), or ``inf`` when it is past the range of
    floats (a game may be that long: nothing bounds it below ``faces ** squares``)."""
    try:
        return value.numerator / value.denominator
    except OverflowError:
        return math.inf


def _fraction(value: flint.fmpq) -> Fraction:
    return Fraction(int(value.p), int(value.q))


def check_expectations(
    chain: Chain,
    squares: Sequence[int],
    columns: tuple[Mapping[int, Fraction], Mapping[int, Fraction], Mapping[int, Fraction]],
) -> list[str]:
    """The equations (see the module docstring) that ``columns`` (the expected rolls, snakes
    and ladders by square) break, one line each; empty when all three satisfy theirs exactly."""
    wrong: list[str] = []
    goal = chain.n
    named = (
        ("rolls", columns[0], None),
        ("snakes", columns[1], chain.snake_rolls),
        ("ladders", columns[2], chain.ladder_rolls),
    )
    for name, column, counts in named:
        for s in squares:
            needed = [t for t in (s, *chain.after[s]) if t != goal]
            missing = [t for t in needed if t not in column]
            if missing:
                wrong.append(f"no expected {name} from square {missing[0]}")
                continue
            total = sum((column[t] for t in chain.after[s] if t != goal), Fraction(0))
            want = chain.faces if counts is None else counts[s]
            if chain.faces * column[s] - total != want:
                wrong.append(f"the expected {name} from square {s} break its equation")
    return wrong
