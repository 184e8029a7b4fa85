"""How hard a sliding puzzle is for a player: its difficulty block on the one scale.

Two measures make the score (:mod:`levelgen.formats.difficulty`):

- the *optimal length* against the size's range: the length bands of
  :func:`levelgen.sliding.spec.bands_for` are laid onto the scale's bands (the top of easy at
  the scale's first edge, and so on; a band's lengths spread evenly over its part of the
  scale), which gives the **band** and ``length_position``, where the length lies in it (0..1);
- the *player*: a simple human-like player (:func:`play`) tries the level :data:`RUNS` times
  with seeded tie-breaks; ``finish_rate`` is the share of tries that reach the goal within
  :func:`move_cap` moves.

``score = place_in_band(band, LENGTH_WEIGHT * length_position + PLAYER_WEIGHT * (1 -
finish_rate))``: the length decides the band (so the block's band is the file's
``metrics.band``), the player places the level within it (a level the player rarely finishes
scores higher than one of the same length the player solves).  Every figure is in
``measures``, so the score can be recomputed (:func:`score_of`).

The player sees the board and a *heuristic*: for each tile the Manhattan distance to its goal
cell (a colour tile: to the nearest goal cell of its colour), summed.  Each move it looks
:data:`LOOKAHEAD` moves ahead and takes the move whose best continuation has the smallest
heuristic; it never undoes the move it just made, prefers frames it has not seen, and breaks
ties at random (``random.Random`` seeded from the seed and the try).  Pure and deterministic.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from ..formats.difficulty import DifficultyBlock, place_in_band, scale_score
from .rules import BLANK, Frame, is_numbered
from .spec import bands_for

if TYPE_CHECKING:
    from .level import SlidingLevel

__all__ = [
    "LENGTH_WEIGHT",
    "LOOKAHEAD",
    "PLAYER_WEIGHT",
    "RUNS",
    "PlayResult",
    "length_edges",
    "level_difficulty",
    "move_cap",
    "play",
    "rate",
    "rate_level",
    "score_of",
]

#: Tries of the player per level, its look-ahead in moves (this move and the next), and the
#: weights of the score.
RUNS = 12
LOOKAHEAD = 2
LENGTH_WEIGHT = 0.6
PLAYER_WEIGHT = 0.4


def move_cap(optimal: int, width: int, height: int) -> int:
    """The moves a try may take: three times the optimal length and one per cell."""
    return 3 * optimal + width * height


def length_edges(width: int, height: int, numbered: bool) -> tuple[float, ...]:
    """The five edges of :func:`levelgen.formats.difficulty.scale_score` for optimal lengths of
    this size and kind: 0, then the top of each length band plus a half (so a length's band on
    the scale is its band in :func:`levelgen.sliding.spec.band_of`)."""
    bands = bands_for(width, height, numbered)
    return (0.0, *(hi + 0.5 for _, hi in bands))


@dataclass(frozen=True, slots=True)
class PlayResult:
    """One try: whether it reached the goal and the moves it made."""

    finished: bool
    moves: int


_STEPS = {"U": (0, -1), "D": (0, 1), "L": (-1, 0), "R": (1, 0)}
_BACK = {"U": "D", "D": "U", "L": "R", "R": "L"}


class _Board:
    """The precomputed neighbours and per-label distance tables of one board and goal."""

    def __init__(self, goal: Frame) -> None:
        w, h = goal.width, goal.height
        self.goal = goal.cells
        self.next: list[list[tuple[str, int]]] = []
        for cell in range(w * h):
            x, y = cell % w, cell // w
            out = []
            for move, (dx, dy) in _STEPS.items():
                nx, ny = x + dx, y + dy
                if 0 <= nx < w and 0 <= ny < h:
                    out.append((move, ny * w + nx))
            self.next.append(out)
        homes: dict[int, list[int]] = {}
        for cell, label in enumerate(goal.cells):
            if label != BLANK:
                homes.setdefault(label, []).append(cell)
        self.dist: dict[int, list[int]] = {
            label: [
                min(abs(c % w - g % w) + abs(c // w - g // w) for g in goals) for c in range(w * h)
            ]
            for label, goals in homes.items()
        }

    def heuristic(self, cells: Sequence[int]) -> int:
        return sum(self.dist[v][c] for c, v in enumerate(cells) if v != BLANK)

    def delta(self, cells: Sequence[int], blank: int, target: int) -> int:
        """The change of the heuristic when the tile at ``target`` slides into ``blank``."""
        d = self.dist[cells[target]]
        return d[blank] - d[target]


def _best_next(board: _Board, cells: list[int], blank: int, back: str) -> int:
    """The smallest heuristic change one more move can make (0: stay), never undoing
    ``back``: the second move of the look-ahead."""
    best = 0
    for move, target in board.next[blank]:
        if move != back:
            best = min(best, board.delta(cells, blank, target))
    return best


def play(start: Frame, goal: Frame, *, cap: int, rng: random.Random) -> PlayResult:
    """One try of the player (see the module docstring) from ``start``, at most ``cap``
    moves."""
    board = _Board(goal)
    cells = list(start.cells)
    blank = cells.index(BLANK)
    h = board.heuristic(cells)
    seen: dict[tuple[int, ...], int] = {tuple(cells): 1}
    back = ""
    for made in range(cap):
        if h == 0 and tuple(cells) == board.goal:
            return PlayResult(True, made)
        choices: list[tuple[int, int, str, int]] = []
        for move, target in board.next[blank]:
            if move == back:
                continue
            change = board.delta(cells, blank, target)
            cells[blank], cells[target] = cells[target], BLANK
            ahead = _best_next(board, cells, target, _BACK[move])
            visits = seen.get(tuple(cells), 0)
            cells[target], cells[blank] = cells[blank], BLANK
            choices.append((visits, change + min(0, ahead), move, target))
        least = min((v, value) for v, value, _, _ in choices)
        best = [(m, t) for v, value, m, t in choices if (v, value) == least]
        move, target = best[rng.randrange(len(best))] if len(best) > 1 else best[0]
        h += board.delta(cells, blank, target)
        cells[blank], cells[target] = cells[target], BLANK
        blank, back = target, _BACK[move]
        key = tuple(cells)
        seen[key] = seen.get(key, 0) + 1
    return PlayResult(h == 0 and tuple(cells) == board.goal, cap)


def score_of(measures: Mapping[str, float], width: int, height: int, numbered: bool) -> float:
    """The score of ``measures`` (``optimal_length`` and ``finish_rate``) on a board of this
    size and kind (see the module docstring); ``KeyError`` names a missing measure."""
    edges = length_edges(width, height, numbered)
    band, position = scale_score(float(measures["optimal_length"]), edges)
    t = LENGTH_WEIGHT * min(1.0, max(0.0, position))
    t += PLAYER_WEIGHT * (1.0 - float(measures["finish_rate"]))
    return place_in_band(band, t)


def rate(start: Frame, goal: Frame, optimal: int, *, seed: int) -> DifficultyBlock:
    """The difficulty block of a level from ``start`` to ``goal`` whose optimal length is
    ``optimal`` (proved by the caller), the player's tries seeded from ``seed``."""
    width, height = goal.width, goal.height
    numbered = is_numbered(goal)
    cap = move_cap(optimal, width, height)
    finished = 0
    for run in range(RUNS):
        result = play(start, goal, cap=cap, rng=random.Random(f"sliding-rating:{seed}:{run}"))
        finished += result.finished
    edges = length_edges(width, height, numbered)
    _, position = scale_score(float(optimal), edges)
    measures = {
        "optimal_length": float(optimal),
        "length_position": round(min(1.0, max(0.0, position)), 4),
        "finish_rate": round(finished / RUNS, 4),
        "runs": float(RUNS),
        "move_cap": float(cap),
        "lookahead": float(LOOKAHEAD),
    }
    return DifficultyBlock.of(score_of(measures, width, height, numbered), measures)


def rate_level(level: SlidingLevel, *, seed: int) -> SlidingLevel:
    """``level`` with its difficulty block in ``metrics.difficulty``.  A level with a
    certificate keeps it (its stated optimal length is used: the caller has checked it, see
    :func:`levelgen.sliding.verify.certificate_problems`); one without is solved optimally
    first, and gets the certificate and figures ``solve`` writes.  :class:`DocumentError` (not
    a format error) when the level has no solution."""
    from ..puzzles import Budget, DocumentError, Problem
    from .heuristics import lower_bound
    from .level import Metrics
    from .solver import COUNT_CAP, solve
    from .spec import band_of

    metrics = level.metrics
    solution = level.solution
    if metrics is None or solution is None:
        found = solve(level.start, level.goal, Budget(), count_cap=COUNT_CAP)
        if found.status != "solved" or found.length is None or found.path is None:
            raise DocumentError([Problem("/start", f"no rating: {found.reason}")], is_format=False)
        solution = found.path
        metrics = Metrics(
            found.length,
            found.count,
            COUNT_CAP,
            lower_bound(level.start, level.goal),
            band_of(found.length, level.width, level.height, level.numbered),
        )
    block = rate(level.start, level.goal, metrics.optimal_length, seed=seed)
    return replace(level, solution=solution, metrics=replace(metrics, difficulty=block))


def level_difficulty(level: SlidingLevel) -> tuple[float, str]:
    """The level's score and band: its block's when it has one, else rated from seed 0."""
    if level.metrics is not None and level.metrics.difficulty is not None:
        return level.metrics.difficulty.score, level.metrics.difficulty.band
    block = rate_level(level, seed=0).metrics
    assert block is not None and block.difficulty is not None
    return block.difficulty.score, block.difficulty.band
