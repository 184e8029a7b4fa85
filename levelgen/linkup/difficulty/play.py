"""Difficulty from play: seeded players run on a level, and what they meet is measured.

Pure and deterministic: every random choice comes from ``random.Random`` seeded from the
``seed`` argument, and the only solver calls have a node budget (never a clock), so the same
level and seed always give the same numbers.  Boards are played on masks with
a live move list (:class:`levelgen.linkup.core.live.LiveLinks`, updated after each removal); a move
is a pair of bit indices of the padded layout.

The measures (:func:`play_measures`):

- ``trap_rate``: the share of legal moves, over the states of seeded *careful* play-outs (a
  random player that only takes moves keeping the board solvable, so every state visited is
  alive), after which the board can no longer be cleared (at most ``trap_moves`` moves per
  state are classified, a seeded sample when there are more).  A move is proved safe cheaply when
  it removes two tiles that the state's known solution pairs (monotonicity: removing tiles
  never blocks a path, so the rest of that solution still replays), or when the solution
  *repaired* for it replays (the two abandoned partners paired instead, as early as they
  link); only the others go to the search solver with a node budget (at most ``trap_calls``
  calls per level).  Moves left undecided are counted in ``trap_undecided`` and left out of
  the rate.
- ``random_win_rate``: the share of seeded play-outs of a player taking a uniformly random
  legal move that empty the board.
- ``greedy_win_rate``: the same for a player always taking the most natural move by the
  hint's rule (:func:`levelgen.linkup.core.natural.natural_rank`: fewest turns, then the shortest
  path, then reading order), without the hint's safety check; deterministic, so one play-out (0 or
  1).
- ``choice``: mean legal moves per state along the level's solution (fewer is harder: less to
  see, and each choice weighs more); ``start_moves`` the moves at the start.
- ``pair_distance``: mean Manhattan distance between the two tiles of each solution step (far
  partners are harder to spot); ``kinds``: distinct tile kinds (more to tell apart).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from ..core.board import Board, Layout
from ..core.geometry import Pos
from ..core.level import Difficulty
from ..core.live import LiveLinks
from ..core.moves import Move, move_bits
from ..core.natural import natural_rank
from ..core.paths import find_link
from ..core.reach import linkable_mask
from ..core.rules import Rules
from ..solvers import Budget, SolveStatus, solve

__all__ = [
    "DEFAULT_PLAY",
    "PlaySettings",
    "TrapCount",
    "careful_playouts",
    "classify_move",
    "measure_difficulty",
    "play_measures",
    "playout_win_rate",
]

Pair = tuple[int, int]


@dataclass(frozen=True, slots=True)
class PlaySettings:
    """How much play the measures use: ``random_playouts`` and ``greedy_playouts`` per level,
    ``trap_playouts`` careful play-outs, at most ``trap_moves`` legal moves classified per
    state (a seeded sample when there are more), ``trap_nodes`` the solver's node budget per
    undecided move, ``trap_calls`` the most solver calls per level (moves beyond it that need
    the solver count as undecided: the cost stays bounded on boards with many copies)."""

    random_playouts: int = 8
    greedy_playouts: int = 2
    trap_playouts: int = 1
    trap_moves: int = 4
    trap_nodes: int = 200
    trap_calls: int = 8


DEFAULT_PLAY = PlaySettings()


class _State:
    """A position in play: its live move list (:class:`levelgen.linkup.core.live.LiveLinks`) and
    the number of tiles left."""

    __slots__ = ("live", "tiles")

    def __init__(self, board: Board, rules: Rules) -> None:
        self.live = LiveLinks(board, rules)
        self.tiles = board.tile_count()

    @property
    def free(self) -> int:
        return self.live.free

    def copy(self) -> _State:
        other = _State.__new__(_State)
        other.live = self.live.copy()
        other.tiles = self.tiles
        return other

    def remove(self, a: int, b: int) -> None:
        self.live.remove(a, b)
        self.tiles -= 2


def playout_win_rate(
    board: Board, rules: Rules, *, seed: int, playouts: int, greedy: bool = False
) -> float:
    """The share of ``playouts`` seeded play-outs that empty ``board``: each takes a uniformly
    random legal move, or with ``greedy`` the most natural one (see the module docstring).
    Seeds ``seed``, ``seed + 1``, ... (one per play-out)."""
    if playouts < 1:
        raise ValueError(f"playouts must be at least 1, got {playouts}")
    from ..core.variant_support import refuse_variants

    refuse_variants(board, rules, "the difficulty measure")
    layout = board.layout
    start = _State(board, rules)
    wins = 0
    for i in range(1 if greedy else playouts):  # the greedy player is deterministic
        rng = random.Random(seed * 1_000_003 + i)
        state = start.copy()
        while state.tiles:
            pair = _natural(state, layout, rules) if greedy else _random_pair(state, rng)
            if pair is None:
                break
            state.remove(*pair)
        wins += state.tiles == 0
    return wins / (1 if greedy else playouts)


def _random_pair(state: _State, rng: random.Random) -> Pair | None:
    pairs = state.live.pairs()
    return pairs[rng.randrange(len(pairs))] if pairs else None


def _natural(state: _State, layout: Layout, rules: Rules) -> Pair | None:
    """The most natural legal move, by the hint's rule
    (:func:`levelgen.linkup.core.natural.natural_rank`: fewest turns, then the shortest path, then
    reading order), without its safety check."""
    pairs = state.live.pairs()
    if not pairs:
        return None
    free = state.free
    best: tuple[tuple[int, int, int, int, int, int], Pair] | None = None
    for x, y in pairs:
        a, b = layout.pos(x), layout.pos(y)
        path = find_link(layout, free, a, b, rules)
        if path is None:  # pragma: no cover - a live pair is linked
            raise AssertionError(f"live pair {a} {b} has no path")
        rank = natural_rank(a, b, path)
        if best is None or rank < best[0]:
            best = (rank, (x, y))
    assert best is not None
    return best[1]


def _distance(a: int, b: int, stride: int) -> int:
    (ay, ax), (by, bx) = divmod(a, stride), divmod(b, stride)
    return abs(ax - bx) + abs(ay - by)


@dataclass(frozen=True, slots=True)
class TrapCount:
    """Legal moves classified over careful play-outs: ``moves`` in all, ``traps`` proved to
    leave an unsolvable board, ``undecided`` the solver could not settle within its budget,
    ``solver_calls`` moves that needed the solver at all."""

    moves: int
    traps: int
    undecided: int
    solver_calls: int

    @property
    def rate(self) -> float:
        decided = self.moves - self.undecided
        return self.traps / decided if decided else 0.0


def careful_playouts(
    board: Board,
    rules: Rules,
    solution: Sequence[Move],
    *,
    seed: int,
    settings: PlaySettings = DEFAULT_PLAY,
) -> TrapCount:
    """Classify legal moves along ``settings.trap_playouts`` careful play-outs of ``board``
    (whose valid ``solution`` is known) as safe, traps or undecided (see the module
    docstring)."""
    lay = board.layout
    first = move_bits(lay, solution)
    moves = traps = undecided = calls = 0
    start = _State(board, rules)
    for i in range(settings.trap_playouts):
        rng = random.Random(seed * 1_000_003 + 7919 + i)
        state, order, cur = start.copy(), first, board
        while state.tiles:
            pairs = state.live.pairs()
            if len(pairs) > settings.trap_moves:
                pairs = rng.sample(pairs, settings.trap_moves)
            safe: list[tuple[Pair, list[Pair]]] = []
            for pair in pairs:
                moves += 1
                verdict, rest = _classify(
                    state, cur, order, pair, rules, settings.trap_nodes, calls < settings.trap_calls
                )
                calls += verdict.endswith("solver")
                if verdict.startswith("trap"):
                    traps += 1
                elif verdict.startswith("undecided"):
                    undecided += 1
                else:
                    assert rest is not None
                    safe.append((pair, rest))
            # The solution's next step is always safe: follow a random safe move.
            if not safe:
                safe.append((order[0], order[1:]))
            (x, y), order = safe[rng.randrange(len(safe))]
            state.remove(x, y)
            cur = cur.without(lay.pos(x), lay.pos(y))
    return TrapCount(moves, traps, undecided, calls)


def _classify(
    state: _State,
    board: Board,
    order: list[Pair],
    pair: Pair,
    rules: Rules,
    nodes: int,
    may_solve: bool,
) -> tuple[str, list[Pair] | None]:
    """``("safe", rest)`` / ``("safe-solver", rest)`` with a solution ``rest`` of the state
    after ``pair``, ``("trap-solver", None)`` when the solver proved it unsolvable, else
    ``("undecided", None)`` or ``("undecided-solver", None)``.  ``board`` is the state as a
    board (for the solver)."""
    lay = board.layout
    rest = _continuation(state, order, pair, rules.max_turns, lay.stride)
    if rest is not None:
        return "safe", rest
    if not may_solve:
        return "undecided", None
    after = board.without(lay.pos(pair[0]), lay.pos(pair[1]))
    result = solve(after, rules, budget=Budget(max_nodes=nodes), method="search")
    if result.status is SolveStatus.UNSOLVABLE:
        return "trap-solver", None
    if result.status is SolveStatus.UNKNOWN:
        return "undecided-solver", None
    moves = result.moves or ()
    return "safe-solver", move_bits(lay, moves)


def classify_move(
    board: Board,
    rules: Rules,
    solution: Sequence[Move],
    a: Pos,
    b: Pos,
    *,
    nodes: int = DEFAULT_PLAY.trap_nodes,
) -> tuple[str, list[tuple[Pos, Pos]] | None]:
    """Whether removing the legal pair ``a``, ``b`` of ``board`` (whose valid ``solution`` is
    known) keeps it solvable: ``"safe"`` with a removal order of what is left, ``"trap"``
    (proved), or ``"undecided"`` within ``nodes`` search nodes; the verdict ends in
    ``"-solver"`` when the search solver was needed."""
    lay = board.layout
    order = move_bits(lay, solution)
    pair = (lay.bit(a.x, a.y), lay.bit(b.x, b.y))
    verdict, rest = _classify(_State(board, rules), board, order, pair, rules, nodes, True)
    if rest is None:
        return verdict, None
    return verdict, [(lay.pos(x), lay.pos(y)) for x, y in rest]


def _continuation(
    state: _State, order: list[Pair], pair: Pair, k: int, stride: int
) -> list[Pair] | None:
    """A solution of the state after ``pair`` derived from ``order`` (a solution of the state),
    or None when the cheap tests fail.  Either ``order`` pairs the two tiles (drop that step)
    or it pairs them with ``u`` and ``v`` (of their kind): then the two steps go, and ``u, v``
    are removed together as early as they link, the rest replayed on positions."""
    a, b = pair
    steps: dict[int, int] = {}
    for n, (x, y) in enumerate(order):
        if x in pair or y in pair:
            steps[x] = steps[y] = n
    if steps[a] == steps[b]:
        return [p for p in order if p[0] != a and p[0] != b]
    i, j = sorted((steps[a], steps[b]))
    u = order[i][0] if order[i][1] in pair else order[i][1]
    v = order[j][0] if order[j][1] in pair else order[j][1]
    rest = [p for n, p in enumerate(order) if n not in (i, j)]
    # Steps before i only gain free cells: monotonicity keeps them linked.  From step i on, u
    # and v stay until they link; the earliest such place frees the most for the steps after.
    free = state.free | (1 << a) | (1 << b)
    for x, y in rest[:i]:
        free |= (1 << x) | (1 << y)
    src, dst = 1 << u, 1 << v
    at = i
    while not linkable_mask(src, free, dst, k, stride):
        if at == len(rest):
            return None
        x, y = rest[at]
        if not linkable_mask(1 << x, free, 1 << y, k, stride):
            return None
        free |= (1 << x) | (1 << y)
        at += 1
    free |= src | dst
    for x, y in rest[at:]:
        if not linkable_mask(1 << x, free, 1 << y, k, stride):
            return None
        free |= (1 << x) | (1 << y)
    return [*rest[:at], (u, v), *rest[at:]]


def play_measures(
    board: Board,
    rules: Rules,
    solution: Sequence[Move],
    *,
    seed: int = 0,
    settings: PlaySettings = DEFAULT_PLAY,
    move_counts: Sequence[int] | None = None,
    with_random: bool = True,
) -> dict[str, float]:
    """The named measures of the module docstring for ``board`` with its valid ``solution``.
    ``move_counts``: legal moves before each solution step when already known (see
    :func:`levelgen.linkup.difficulty.solution_move_counts`).  ``with_random``: also play the random
    player (the score does not use it; steering leaves it out of its candidates)."""
    from ..core.variant_support import refuse_variants
    from . import solution_move_counts

    refuse_variants(board, rules, "the difficulty measure")
    counts = list(move_counts) if move_counts is not None else None
    if counts is None:
        counts = solution_move_counts(board, rules, solution)
    traps = careful_playouts(board, rules, solution, seed=seed, settings=settings)
    stride = board.layout.stride
    dist = [
        _distance(board.layout.bit(m.a.x, m.a.y), board.layout.bit(m.b.x, m.b.y), stride)
        for m in solution
    ]
    out = {
        "trap_rate": round(traps.rate, 4),
        "trap_moves": float(traps.moves),
        "trap_undecided": float(traps.undecided),
        "greedy_win_rate": round(
            playout_win_rate(
                board, rules, seed=seed, playouts=settings.greedy_playouts, greedy=True
            ),
            4,
        ),
        "choice": round(sum(counts) / len(counts), 4) if counts else 0.0,
        "start_moves": float(counts[0] if counts else 0),
        "pair_distance": round(sum(dist) / len(dist), 4) if dist else 0.0,
        "kinds": float(len(board.kind_counts())),
        "tiles": float(board.tile_count()),
    }
    if with_random:
        out["random_win_rate"] = round(
            playout_win_rate(board, rules, seed=seed, playouts=settings.random_playouts), 4
        )
    return out


def measure_difficulty(
    board: Board,
    rules: Rules,
    solution: Sequence[Move],
    *,
    seed: int = 0,
    settings: PlaySettings = DEFAULT_PLAY,
    with_random: bool = True,
) -> Difficulty:
    """The :class:`levelgen.linkup.core.level.Difficulty` of ``board`` with its valid ``solution``:
    the measures of :func:`play_measures` and the score and band of
    :mod:`levelgen.linkup.difficulty.score`.  Same board, rules, solution and seed: same numbers."""
    from .score import band_of, score_of

    measures = play_measures(
        board, rules, solution, seed=seed, settings=settings, with_random=with_random
    )
    score = score_of(measures)
    return Difficulty(score, band_of(score), measures)
