"""The game as a graph and a Markov chain: where each roll takes the token, which squares it can
reach, which squares trap it, and the fewest rolls to finish.

:class:`Chain` lists, for every rest square (0 and each square below N that starts no jump),
the square each roll ends on after its jump, and which rolls take a snake or a ladder.  On it:

- :func:`reachable` (the rest squares a token can reach from a square, by breadth-first
  search);
- :func:`trapped_squares`: the rest squares reachable from square 0 from which N cannot be
  reached.  Such a set is the proof that the game may never end: every roll from a trapped
  square lands on another (checkable without trusting the search: :func:`is_closed_trap`);
- :func:`settled_squares`: the rest squares from which the game ends with probability 1 (no
  trapped square of the whole board reachable from them), the states of the exact chain;
- :func:`fewest_rolls`: the fewest rolls from a square to N by a breadth-first search back
  from N, with the roll sequence that achieves it, the smallest in dictionary order (so it
  is one canonical sequence, and :func:`replay_rolls` checks any sequence).

Pure; integer work only.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .rules import Board, Rules, land

__all__ = [
    "Chain",
    "build_chain",
    "fewest_rolls",
    "is_closed_trap",
    "reachable",
    "replay_rolls",
    "rolls_to",
    "settled_squares",
    "trapped_squares",
]


@dataclass(frozen=True, slots=True)
class Chain:
    """Where the rolls go.  ``n``: the goal square N; ``faces``: the die; ``rest``: the rest
    squares, ascending; ``after[s]``: for rest square ``s``, the square each roll 1..faces ends
    on (after its jump; N when it wins); ``snake_rolls[s]`` / ``ladder_rolls[s]``: how many
    rolls from ``s`` take a snake / a ladder; ``jumps``: ``{start: end}``."""

    n: int
    faces: int
    rest: tuple[int, ...]
    after: dict[int, tuple[int, ...]]
    snake_rolls: dict[int, int]
    ladder_rolls: dict[int, int]
    jumps: dict[int, int]

    def resting(self, square: int) -> int:
        """Where a token put on ``square`` (0..N) comes to rest: the end of the jump that starts
        there, or the square itself."""
        return self.jumps.get(square, square)


def build_chain(board: Board, rules: Rules) -> Chain:
    """The chain of a valid board (see :func:`levelgen.ladders.rules.board_problems`)."""
    n, faces = board.squares, rules.faces
    jumps = board.jumps()
    snake_starts = {a for a, _ in board.snakes}
    rest = tuple(s for s in range(n) if s not in jumps)
    after: dict[int, tuple[int, ...]] = {}
    snake_rolls: dict[int, int] = {}
    ladder_rolls: dict[int, int] = {}
    rolls = range(1, faces + 1)
    for s in rest:
        if s + faces <= n:  # no roll overshoots: most squares
            landed: list[int] | range = range(s + 1, s + faces + 1)
        else:
            landed = [land(s, r, n, rules.overshoot) for r in rolls]
        after[s] = tuple([jumps.get(t, t) for t in landed])
        snakes = ladders = 0
        for t in landed:
            if t in jumps:
                if t in snake_starts:
                    snakes += 1
                else:
                    ladders += 1
        snake_rolls[s] = snakes
        ladder_rolls[s] = ladders
    return Chain(n, faces, rest, after, snake_rolls, ladder_rolls, jumps)


def reachable(chain: Chain, starts: Iterable[int]) -> set[int]:
    """The squares (rest squares and N) reachable from the rest squares ``starts`` (included)."""
    seen = set(starts)
    queue = deque(seen)
    while queue:
        s = queue.popleft()
        if s == chain.n:
            continue
        for t in chain.after[s]:
            if t not in seen:
                seen.add(t)
                queue.append(t)
    return seen


def _finishing(chain: Chain) -> set[int]:
    """The rest squares from which N can be reached (a search back from N)."""
    back: dict[int, list[int]] = {}
    for s in chain.rest:
        for t in set(chain.after[s]):
            back.setdefault(t, []).append(s)
    seen = {chain.n}
    queue = deque([chain.n])
    while queue:
        t = queue.popleft()
        for s in back.get(t, ()):
            if s not in seen:
                seen.add(s)
                queue.append(s)
    seen.discard(chain.n)
    return seen


def trapped_squares(chain: Chain, start: int = 0) -> list[int]:
    """The rest squares reachable from ``start`` from which N cannot be reached, ascending;
    empty when the game from ``start`` ends with probability 1."""
    finishing = _finishing(chain)
    return sorted(s for s in reachable(chain, [start]) if s != chain.n and s not in finishing)


def settled_squares(chain: Chain) -> list[int]:
    """The rest squares from which the game ends with probability 1: those from which no square
    that cannot reach N is reachable.  Ascending."""
    finishing = _finishing(chain)
    stuck = [s for s in chain.rest if s not in finishing]
    if not stuck:
        return list(chain.rest)
    back: dict[int, list[int]] = {}
    for s in chain.rest:
        for t in set(chain.after[s]):
            back.setdefault(t, []).append(s)
    doomed = set(stuck)
    queue = deque(stuck)
    while queue:
        t = queue.popleft()
        for s in back.get(t, ()):
            if s not in doomed:
                doomed.add(s)
                queue.append(s)
    return [s for s in chain.rest if s not in doomed]


def is_closed_trap(chain: Chain, squares: Sequence[int]) -> bool:
    """Whether ``squares`` is a non-empty set of rest squares that every roll maps into itself
    (so N is never reached from any of them): the check of an unsolvability proof."""
    members = set(squares)
    if not members or chain.n in members:
        return False
    return all(s in chain.after and set(chain.after[s]) <= members for s in members)


def fewest_rolls(chain: Chain, start: int = 0) -> tuple[int, tuple[int, ...]] | None:
    """The fewest rolls from rest square ``start`` to N and the smallest roll sequence (in
    dictionary order) that takes that many; None when N cannot be reached."""
    back: dict[int, list[int]] = {}
    for s in chain.rest:
        for t in set(chain.after[s]):
            back.setdefault(t, []).append(s)
    distance = {chain.n: 0}
    queue = deque([chain.n])
    while queue and start not in distance:
        t = queue.popleft()
        for s in back.get(t, ()):
            if s not in distance:
                distance[s] = distance[t] + 1
                queue.append(s)
    if start not in distance:
        return None
    rolls: list[int] = []
    s = start
    while s != chain.n:
        want = distance[s] - 1
        for roll, t in enumerate(chain.after[s], start=1):
            if distance.get(t) == want:
                rolls.append(roll)
                s = t
                break
    return len(rolls), tuple(rolls)


def replay_rolls(chain: Chain, rolls: Sequence[int], start: int = 0) -> list[int]:
    """The rest squares a token from ``start`` passes through with ``rolls`` (``start`` first);
    ``ValueError`` for a roll off the die or a roll after the token has reached N."""
    squares = [start]
    s = start
    for i, roll in enumerate(rolls):
        if s == chain.n:
            raise ValueError(f"roll {i + 1} comes after the token reached {chain.n}")
        if not 1 <= roll <= chain.faces:
            raise ValueError(f"roll {i + 1} is {roll}, not a face of a {chain.faces}-faced die")
        s = chain.after[s][roll - 1]
        squares.append(s)
    return squares


def rolls_to(chain: Chain, targets: Sequence[int], start: int = 0) -> tuple[int, ...] | None:
    """The fewest rolls from ``start`` to one of ``targets`` (a breadth-first search trying the
    rolls in order), or None when none can be reached."""
    wanted = set(targets)
    parent: dict[int, tuple[int, int]] = {}
    seen = {start}
    queue = deque([start])
    while queue:
        s = queue.popleft()
        if s in wanted:
            rolls: list[int] = []
            while s != start:
                s, roll = parent[s]
                rolls.append(roll)
            return tuple(reversed(rolls))
        if s == chain.n:
            continue
        for roll, t in enumerate(chain.after[s], start=1):
            if t not in seen:
                seen.add(t)
                parent[t] = (s, roll)
                queue.append(t)
    return None
