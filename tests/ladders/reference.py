"""Simple references for the family's fast code, written from the rules alone (none of
``levelgen.ladders.chain``, ``exact`` or ``distribution`` is used): a plain forward BFS for the
fewest rolls, Gauss-Jordan elimination over Python fractions for the expected rolls, a seeded
simulation of games, and a Hypothesis strategy of random valid boards of every rule."""

from __future__ import annotations

import random
from collections import deque
from fractions import Fraction

from hypothesis import strategies as st

from levelgen.ladders.rules import OVERSHOOTS, Board, Rules, board_problems


def step(square: int, roll: int, board: Board, rules: Rules) -> int:
    """Where one roll takes a token, from the rules as the README states them."""
    n = board.squares
    target = square + roll
    if target > n:
        if rules.overshoot == "exact":
            target = square
        elif rules.overshoot == "bounce":
            target = n - (target - n)
        else:
            target = n
    return dict([*board.ladders, *board.snakes]).get(target, target)


def plain_fewest(board: Board, rules: Rules) -> int | None:
    """The fewest rolls from 0 to N by a forward breadth-first search."""
    n = board.squares
    distance = {0: 0}
    queue = deque([0])
    while queue:
        s = queue.popleft()
        if s == n:
            return distance[s]
        for roll in range(1, rules.faces + 1):
            t = step(s, roll, board, rules)
            if t not in distance:
                distance[t] = distance[s] + 1
                queue.append(t)
    return None


def fraction_expected(board: Board, rules: Rules) -> Fraction | None:
    """The exact expected rolls from 0 by Gauss-Jordan over fractions on the squares reachable
    from 0; None when the system is singular (the game may never end)."""
    n = board.squares
    seen = {0}
    queue = deque([0])
    while queue:
        s = queue.popleft()
        for roll in range(1, rules.faces + 1):
            t = step(s, roll, board, rules)
            if t != n and t not in seen:
                seen.add(t)
                queue.append(t)
    states = sorted(seen)
    index = {s: i for i, s in enumerate(states)}
    size = len(states)
    rows = []
    for s in states:
        row = [Fraction(0)] * (size + 1)
        row[index[s]] += 1
        for roll in range(1, rules.faces + 1):
            t = step(s, roll, board, rules)
            if t != n:
                row[index[t]] -= Fraction(1, rules.faces)
        row[size] = Fraction(1)
        rows.append(row)
    for col in range(size):
        pivot = next((r for r in range(col, size) if rows[r][col] != 0), None)
        if pivot is None:
            return None
        rows[col], rows[pivot] = rows[pivot], rows[col]
        lead = rows[col][col]
        rows[col] = [v / lead for v in rows[col]]
        for r in range(size):
            if r != col and rows[r][col] != 0:
                factor = rows[r][col]
                rows[r] = [a - factor * b for a, b in zip(rows[r], rows[col], strict=True)]
    return rows[index[0]][size]


def simulate(board: Board, rules: Rules, games: int, seed: int) -> list[int]:
    """The lengths of ``games`` seeded games of one token (each stopped at 100,000 rolls)."""
    rng = random.Random(seed)
    n = board.squares
    jumps = dict([*board.ladders, *board.snakes])
    lengths = []
    for _ in range(games):
        s = 0
        rolls = 0
        while s != n and rolls < 100_000:
            rolls += 1
            target = s + rng.randint(1, rules.faces)
            if target > n:
                target = (
                    s
                    if rules.overshoot == "exact"
                    else 2 * n - target
                    if rules.overshoot == "bounce"
                    else n
                )
            s = jumps.get(target, target)
        lengths.append(rolls)
    return lengths


@st.composite
def boards(draw: st.DrawFn, max_side: int = 6, overshoot: str | None = None) -> tuple[Board, Rules]:
    """A random valid board and rules (jumps added one at a time while the board stays valid)."""
    width = draw(st.integers(1, max_side))
    height = draw(st.integers(2 if width == 1 else 1, max_side))
    n = width * height
    faces = draw(st.integers(2, min(8, n)))
    rule = overshoot or draw(st.sampled_from(OVERSHOOTS))
    rules = Rules(faces, rule)
    ladders: list[tuple[int, int]] = []
    snakes: list[tuple[int, int]] = []
    for _ in range(draw(st.integers(0, max(0, n // 3)))):
        a = draw(st.integers(1, n - 1))
        b = draw(st.integers(1, n))
        if a == b:
            continue
        trial_l, trial_s = list(ladders), list(snakes)
        (trial_l if b > a else trial_s).append((a, b))
        if not board_problems(Board(width, height, tuple(trial_l), tuple(trial_s)), rules):
            ladders, snakes = trial_l, trial_s
    return Board(width, height, tuple(sorted(ladders)), tuple(sorted(snakes))), rules
