"""The generator's fast float parts: the chain's inverse kept through rank-one changes, and the
fewest rolls by a breadth-first search on bit masks.

:class:`FloatChain` keeps, in floating point, the inverse of the chain's matrix
``A = F (I - Q)`` over *all* squares 0..N-1 (a square that starts a jump keeps a row nobody
reaches, so the matrix keeps its shape while jumps move) and the expected rolls
``x = A^-1 F``.  A jump from ``t`` to ``u`` changes only where the rolls that land on ``t`` go:
``A`` changes by ``c (e_t - e_u)^T`` with ``c[s]`` the rolls from ``s`` that land on ``t``, a
change of rank one.  So the expected length after moving a jump (one or two such changes)
comes from the Sherman-Morrison-Woodbury formula in a few dozen multiplications
(:meth:`FloatChain.evaluate`), without solving anything, and only the moves the search keeps
update the inverse (:meth:`FloatChain.apply`, ``O(N^2)``).  The inverse of the board without
jumps is made once per size, die and rule by Gauss-Jordan elimination (the matrix is an
M-matrix: no pivoting needed).  Every float operation is an elementwise one (numpy's
``multiply``/``subtract``/``divide``, or Python's), never a BLAS product, so the search takes
the same steps on every machine.

:func:`fewest_by_masks` is the fewest rolls of a board with the squares reached after ``k``
rolls held in one integer, the die's faces as shifts.
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from .rules import land

__all__ = ["Change", "FloatChain", "fewest_by_masks"]

_SINGULAR = 1e-9

#: A rank-one change ``(c, a, b)``: ``A += c (e_a - e_b)^T``, ``c`` as ``((square, rolls), ...)``
#: and ``N`` standing for no column.
Change = tuple[tuple[tuple[int, int], ...], int, int]


@lru_cache(maxsize=16)
def _base(
    n: int, faces: int, overshoot: str
) -> tuple[np.ndarray, np.ndarray, tuple[tuple[tuple[int, int], ...], ...]]:
    """The inverse of the board without jumps, its expected rolls, and for each square ``t``
    (1..N) the rolls landing on it as ``((s, count), ...)``."""
    into: list[dict[int, int]] = [{} for _ in range(n + 1)]
    matrix = np.zeros((n, 2 * n + 1), dtype=np.float64)
    for s in range(n):
        matrix[s, s] += faces
        matrix[s, n + s] = 1.0
        matrix[s, 2 * n] = float(faces)
        for r in range(1, faces + 1):
            t = land(s, r, n, overshoot)
            into[t][s] = into[t].get(s, 0) + 1
            if t != n:
                matrix[s, t] -= 1.0
    for i in range(n):  # Gauss-Jordan; the matrix is an M-matrix, so no pivoting is needed
        matrix[i] = matrix[i] / matrix[i, i]
        factors = matrix[:, i].copy()
        factors[i] = 0.0
        matrix = matrix - np.multiply.outer(factors, matrix[i])
    inverse = np.ascontiguousarray(matrix[:, n : 2 * n])
    expected = matrix[:, 2 * n].copy()
    landing = tuple(tuple(sorted(d.items())) for d in into)
    return inverse, expected, landing


class FloatChain:
    """The inverse and expected rolls of the current layout, with rank-one changes."""

    def __init__(self, n: int, faces: int, overshoot: str) -> None:
        inverse, expected, landing = _base(n, faces, overshoot)
        self.n = n
        self.inverse = inverse.copy()
        self.expected = expected.copy()
        self.landing = landing

    def change(self, start: int, old: int, new: int) -> Change:
        """The rank-one change ``(c, a, b)`` when the rolls landing on ``start`` go to ``new``
        instead of ``old``: ``A += c (e_a - e_b)^T`` (``N`` stands for no column)."""
        return self.landing[start], old, new

    def evaluate(self, changes: list[Change]) -> float | None:
        """The expected rolls from square 0 after ``changes`` (at most two); None when they make
        the game endless (a singular matrix)."""
        entry, x, n = self.inverse.item, self.expected.item, self.n
        k = len(changes)
        gram = [[0.0] * k for _ in range(k)]
        y = [0.0] * k
        w = [0.0] * k
        for i, (_c, a, b) in enumerate(changes):
            w[i] = (x(a) if a != n else 0.0) - (x(b) if b != n else 0.0)
        for j, (c, _a, _b) in enumerate(changes):
            y[j] = sum(count * entry(0, s) for s, count in c)
            for i, (_ci, a, b) in enumerate(changes):
                total = 0.0
                for s, count in c:
                    total += count * (
                        (entry(a, s) if a != n else 0.0) - (entry(b, s) if b != n else 0.0)
                    )
                gram[i][j] = total + (1.0 if i == j else 0.0)
        if k == 1:
            det = gram[0][0]
            if det < _SINGULAR:
                return None
            value = x(0) - y[0] * w[0] / det
        else:
            det = gram[0][0] * gram[1][1] - gram[0][1] * gram[1][0]
            if det < _SINGULAR:
                return None
            v0 = (gram[1][1] * w[0] - gram[0][1] * w[1]) / det
            v1 = (gram[0][0] * w[1] - gram[1][0] * w[0]) / det
            value = x(0) - (y[0] * v0 + y[1] * v1)
        return value if value > 0 and math.isfinite(value) else None

    def apply(self, change: Change) -> bool:
        """Make one change; False (nothing changed) when it would make the matrix singular."""
        c, a, b = change
        n = self.n
        column = np.zeros(n, dtype=np.float64)
        for s, count in c:
            column = column + count * self.inverse[:, s]
        row = np.zeros(n, dtype=np.float64)
        if a != n:
            row = row + self.inverse[a]
        if b != n:
            row = row - self.inverse[b]
        denominator = (
            1.0 + (float(column[a]) if a != n else 0.0) - (float(column[b]) if b != n else 0.0)
        )
        if denominator < _SINGULAR:
            return False
        shift = (float(self.expected[a]) if a != n else 0.0) - (
            float(self.expected[b]) if b != n else 0.0
        )
        self.inverse = self.inverse - np.multiply.outer(column / denominator, row)
        self.expected = self.expected - column * (shift / denominator)
        return True


def fewest_by_masks(n: int, faces: int, overshoot: str, jumps: dict[int, int]) -> int | None:
    """The fewest rolls from 0 to N, or None (a breadth-first search over sets of squares)."""
    full = (1 << (n + 1)) - 1
    seen = frontier = 1
    steps = 0
    starts = 0
    for a in jumps:
        starts |= 1 << a
    while frontier:
        steps += 1
        reached = 0
        for r in range(1, faces + 1):
            reached |= frontier << r
        over = reached >> (n + 1)
        reached &= full
        if over:
            if overshoot == "pass":
                reached |= 1 << n
            elif overshoot == "bounce":
                i = 0
                while over:
                    if over & 1:
                        reached |= 1 << (n - 1 - i)
                    over >>= 1
                    i += 1
        hits = reached & starts
        reached ^= hits  # the token moves on from every jump's start it reached
        while hits:
            low = hits & -hits
            reached |= 1 << jumps[low.bit_length() - 1]
            hits ^= low
        if reached >> n & 1:
            return steps
        frontier = reached & ~seen
        seen |= frontier
    return None
