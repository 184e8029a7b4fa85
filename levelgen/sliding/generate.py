"""Making levels: a start whose optimal distance to the goal is exactly the length asked for.

The goal is given, or the numbered one (tiles 1, 2, ... in reading order, the blank in the
last cell), or a drawn colour pattern (``K`` colours as even in number as the cells allow,
shuffled with the blank).  The start is found by the *cut* of an optimal path: walk from the
goal at random (never undoing the last move) and solve the frame reached optimally; while it
is nearer than ``d`` moves, walk on.  Once it is ``D >= d`` moves away, the frame ``D - d``
moves along its least optimal solution is exactly ``d`` moves from the goal, because every
part of a shortest path is a shortest path; the rest of that solution is its least optimal
solution, the certificate.  The length is therefore proved by the solve itself.  When walks do
not get far enough (a length near the largest the goal allows), a board of at most
:data:`levelgen.sliding.solver.BFS_SPACE` frames is searched breadth first from the goal for a
frame at exactly ``d``, and a length no frame has is refused with the largest one there is.

The metrics (:class:`levelgen.sliding.level.Metrics`) count the optimal solutions up to
:data:`levelgen.sliding.solver.COUNT_CAP`, and the level is replayed by the family's verifier
before it is returned.  Everything random comes from ``random.Random(seed)``, and the solvers
are deterministic: the same spec and seed give the same level, byte for byte.
"""

from __future__ import annotations

import random

from .. import __version__
from ..puzzles import Progress, SpecError
from . import bfs
from .heuristics import lower_bound
from .level import GeneratorInfo, Metrics, SlidingLevel
from .rules import BLANK, DIRECTIONS, OPPOSITE, Frame, apply_moves, is_numbered
from .solver import BFS_SPACE, COUNT_CAP, TableSource, count_optimal, solve, space_size
from .spec import BANDS, CreateSpec, band_of, bands_for
from .verify import certificate_problems

__all__ = ["MAX_SOLVES", "create_level", "draw_colour_goal", "find_start", "numbered_goal"]

#: How many walks (each ended by an optimal solve) may be tried before the breadth-first
#: fallback.
MAX_SOLVES = 60


def numbered_goal(width: int, height: int) -> Frame:
    """Tiles 1, 2, ... in reading order and the blank in the last cell."""
    n = width * height
    return Frame(width, height, (*range(1, n), BLANK))


def draw_colour_goal(width: int, height: int, colors: int, rng: random.Random) -> Frame:
    """A goal of ``colors`` colours (labels 1..colors) as even in number as the cells allow
    (the first colours get the odd ones), shuffled with the blank by ``rng``."""
    tiles = width * height - 1
    cells = [BLANK]
    for c in range(colors):
        cells += [c + 1] * (tiles // colors + (1 if c < tiles % colors else 0))
    rng.shuffle(cells)
    return Frame(width, height, tuple(cells))


def _walk(frame: Frame, steps: int, last: str, rng: random.Random) -> tuple[Frame, str]:
    for _ in range(steps):
        moves = [d for d in DIRECTIONS if d != OPPOSITE.get(last) and frame.can_move(d)]
        last = rng.choice(moves)
        frame = frame.move(last)
    return frame, last


def find_start(
    goal: Frame,
    moves: int,
    rng: random.Random,
    *,
    tables: TableSource | None = None,
    progress: Progress | None = None,
) -> tuple[Frame, str]:
    """A frame exactly ``moves`` moves from ``goal`` and its least optimal solution (see the
    module docstring); :class:`SpecError` on ``moves`` when no such frame can be found."""
    frame, last = goal, ""
    steps = moves
    for attempt in range(MAX_SOLVES):
        if progress is not None:
            progress("search", attempt, MAX_SOLVES)
        frame, last = _walk(frame, steps, last, rng)
        found = solve(frame, goal, tables=tables)
        assert found.status == "solved" and found.path is not None and found.length is not None
        if found.length >= moves:
            cut = found.length - moves
            return apply_moves(frame, found.path[:cut]), found.path[cut:]
        steps = max(2, 2 * (moves - found.length))
    return _farthest(goal, moves, rng, tables)


def _farthest(
    goal: Frame, moves: int, rng: random.Random, tables: TableSource | None
) -> tuple[Frame, str]:
    """The breadth-first fallback of :func:`find_start`."""
    if space_size(goal) > BFS_SPACE:
        raise SpecError(
            "moves",
            f"found no frame {moves} moves from the goal in {MAX_SOLVES} tries; ask for fewer",
        )
    distances = bfs.distances_from(bytes(goal.cells), goal.width, goal.height, moves)
    layer = sorted(frame for frame, d in distances.items() if d == moves)
    if not layer:
        farthest = max(distances.values())
        raise SpecError(
            "moves", f"no frame is {moves} moves from this goal: the farthest is {farthest}"
        )
    start = Frame(goal.width, goal.height, tuple(rng.choice(layer)))
    found = solve(start, goal, tables=tables)
    assert found.path is not None and found.length == moves
    return start, found.path


def create_level(
    spec: CreateSpec,
    seed: int,
    progress: Progress | None = None,
    *,
    tables: TableSource | None = None,
) -> SlidingLevel:
    """A level for ``spec`` from ``seed`` (see the module docstring)."""
    rng = random.Random(seed)
    if spec.goal is not None:
        goal = spec.goal
    elif spec.colors is not None:
        goal = draw_colour_goal(spec.width, spec.height, spec.colors, rng)
    else:
        goal = numbered_goal(spec.width, spec.height)
    numbered = is_numbered(goal)
    if spec.moves is not None:
        moves = spec.moves
    else:
        bands = bands_for(spec.width, spec.height, numbered)
        moves = rng.randint(*bands[BANDS.index(spec.difficulty or "medium")])
    start, solution = find_start(goal, moves, rng, tables=tables, progress=progress)
    count = count_optimal(start, goal, moves, COUNT_CAP, tables=tables)
    metrics = Metrics(
        moves,
        count,
        COUNT_CAP,
        lower_bound(start, goal),
        band_of(moves, spec.width, spec.height, numbered),
    )
    level = SlidingLevel(
        start,
        goal,
        solution,
        metrics,
        GeneratorInfo("levelgen", __version__, seed, spec.parameters()),
    )
    problems = certificate_problems(level)
    if problems:  # pragma: no cover - the solver's certificate always replays
        raise AssertionError(f"the generated level does not verify: {problems[0]}")
    if progress is not None:
        progress("search", MAX_SOLVES, MAX_SOLVES)
    return level
