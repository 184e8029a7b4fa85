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

Lengths above the expert band's first top (:func:`levelgen.sliding.spec.first_tops`; below
it levels are made as above, byte for byte as before) are made in one of two ways:

- on a board with a whole-space table (:mod:`levelgen.sliding.space`: numbered boards of at
  most 12 cells, colour boards of few arrangements), the start is a random frame of the layer
  at exactly ``d`` (the ``k``-th in the table's order, ``k`` drawn from the seed); the table
  gives its least optimal solution and the count of optimal solutions, and refuses a length
  beyond the goal's farthest frame, naming it;
- otherwise (4x4, 5x5, ...) a *heuristic walk* leaves the goal: each move (never undoing one,
  never back to a frame of the walk) is the one that raises the solver's lower bound most,
  ties and one move in :data:`WANDER` drawn from the seed, until the bound comes within
  :data:`WALK_SLACK` of ``d`` or :data:`WALK_STEPS` moves were made.  The frame of the walk
  with the highest bound is then solved optimally within :data:`WALK_NODES` nodes; at
  ``D >= d`` moves its solution is cut as above (the count of optimal solutions gets
  :data:`COUNT_NODES`, and is left out when they do not suffice).  A frame the walk made look
  far tends to be far, with a bound near its distance, so the proof is quick.

  On boards of at least :data:`TIGHT_CELLS` cells (5x5 and up) a *tight walk* is tried
  first: a depth-first search from the goal (moves in an order drawn from the seed) that takes
  only moves raising the lower bound by exactly one, at most :data:`TIGHT_NODES` frames a try,
  :data:`TIGHT_TRIES` tries.  A frame it reaches at depth ``d`` has a bound of ``d`` and a
  path of ``d`` moves back to the goal (the walk undone), so it is exactly ``d`` moves away:
  the bound proves it, no search has to.  Its least optimal solution is then found by the
  solver, whose first threshold is already ``d``.

The metrics (:class:`levelgen.sliding.level.Metrics`) count the optimal solutions up to
:data:`levelgen.sliding.solver.COUNT_CAP` (and, for a level asked for by
``difficulty``, hold its difficulty block: :mod:`levelgen.sliding.rating`), and the level is
replayed by the family's verifier before it is returned.  Everything random comes from
``random.Random(seed)``, and the solvers are deterministic: the same spec and seed give the
same level, byte for byte.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from ..formats.version import VERSION
from ..puzzles import Budget, Progress, SpecError
from . import bfs, space
from .heuristics import lower_bound
from .level import GeneratorInfo, Metrics, SlidingLevel
from .rating import rate
from .rules import BLANK, DIRECTIONS, OPPOSITE, Frame, apply_moves, is_numbered
from .solver import (
    BFS_SPACE,
    COUNT_CAP,
    TableSource,
    count_optimal,
    search_heuristic,
    solve,
    space_size,
    tables_for,
)
from .spec import BANDS, CreateSpec, band_of, bands_for, first_tops
from .verify import certificate_problems

__all__ = [
    "MAX_SOLVES",
    "WALKS",
    "create_level",
    "draw_colour_goal",
    "find_start",
    "numbered_goal",
    "random_walk",
    "walk_away",
]

#: How many walks (each ended by an optimal solve) may be tried before the breadth-first
#: fallback.
MAX_SOLVES = 60
#: Heuristic walks tried for one level, the most moves of one, and the nodes of each proof.
WALKS = 40
WALK_STEPS = 1500
#: 5x5 numbered levels longer than this build (once) and use Korf and Felner's 6-6-6-6 tables.
LARGE_TABLES_MOVES = 50
WALK_NODES = 15_000_000
#: A walk stops once the bound is this close to the length asked for (a walk's frames are
#: usually several moves farther than their bound).
WALK_SLACK = 6
#: The nodes the count of optimal solutions of a walk's level may take (else it is left out).
COUNT_NODES = 3_000_000
#: One move in this many of a heuristic walk is drawn at random.
WANDER = 4
#: Boards of at least this many cells try tight walks first; their tries and frames a try.
TIGHT_CELLS = 25
TIGHT_TRIES = 6
TIGHT_NODES = 100_000


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


def random_walk(frame: Frame, steps: int, rng: random.Random, last: str = "") -> tuple[Frame, str]:
    """The frame ``steps`` blank moves from ``frame`` along a walk that never steps straight
    back (nor back over ``last``), and its last move."""
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
    start, path, _ = _find(goal, moves, rng, tables, progress)
    return start, path


def _find(
    goal: Frame,
    moves: int,
    rng: random.Random,
    tables: TableSource | None,
    progress: Progress | None,
) -> tuple[Frame, str, int | None]:
    """:func:`find_start`, with the count of optimal solutions when a table gave it."""
    if moves > first_tops(goal.width, goal.height, is_numbered(goal)):
        if space.available(goal):
            return _from_table(goal, moves, rng, progress)
        if goal.width == goal.height == 5 and moves > LARGE_TABLES_MOVES and is_numbered(goal):
            # Long 5x5 starts need the 6-6-6-6 tables: built here on first use (announced on
            # standard error), read from the cache afterwards.
            from .pdb_cache import default_store

            tables_for(goal, tables if tables is not None else default_store())
        start, path = walk_away(goal, moves, rng, tables=tables, progress=progress)
        return start, path, None
    frame, last = goal, ""
    steps = moves
    for attempt in range(MAX_SOLVES):
        if progress is not None:
            progress("search", attempt, MAX_SOLVES)
        frame, last = random_walk(frame, steps, rng, last)
        found = solve(frame, goal, tables=tables)
        assert found.status == "solved" and found.path is not None and found.length is not None
        if found.length >= moves:
            cut = found.length - moves
            return apply_moves(frame, found.path[:cut]), found.path[cut:], None
        steps = max(2, 2 * (moves - found.length))
    return _farthest(goal, moves, rng, tables, progress)


def _farthest(
    goal: Frame,
    moves: int,
    rng: random.Random,
    tables: TableSource | None,
    progress: Progress | None,
) -> tuple[Frame, str, int | None]:
    """The breadth-first fallback of :func:`find_start`."""
    if space_size(goal) > BFS_SPACE:
        if space.available(goal):
            return _from_table(goal, moves, rng, progress)
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
    return start, found.path, None


def _from_table(
    goal: Frame, moves: int, rng: random.Random, progress: Progress | None
) -> tuple[Frame, str, int]:
    """A random frame of the whole-space table's layer at ``moves`` (see the module
    docstring), its least optimal solution and its count of optimal solutions."""

    def told(text: str) -> None:
        if progress is not None:
            progress(text, 0, 1)

    table = space.table_for(goal, told)
    layers = table.layers()
    if moves >= len(layers):
        raise SpecError(
            "moves", f"no frame is {moves} moves from this goal: the farthest is {len(layers) - 1}"
        )
    start = table.pick(moves, rng.randrange(layers[moves]))
    return start, table.least_path(start), table.count_optimal(start, COUNT_CAP)


def walk_away(
    goal: Frame,
    moves: int,
    rng: random.Random,
    *,
    tables: TableSource | None = None,
    progress: Progress | None = None,
    walks: int = WALKS,
    nodes: int = WALK_NODES,
) -> tuple[Frame, str]:
    """A frame exactly ``moves`` moves from ``goal`` and its least optimal solution, by the
    heuristic walk of the module docstring: at most ``walks`` walks, each proof within
    ``nodes`` nodes; :class:`SpecError` on ``moves`` when none gets there."""
    encoding, heuristic = search_heuristic(goal, tables)

    def bound(frame: Frame) -> int:
        return heuristic.value(encoding.encode(frame))

    if goal.width * goal.height >= TIGHT_CELLS:
        for _ in range(TIGHT_TRIES):
            far = tight_walk(goal, moves, bound, rng)
            if far is None:
                continue
            found = solve(far, goal, Budget(max_nodes=nodes), tables=tables)
            if found.status == "solved" and found.path is not None and found.length == moves:
                return far, found.path
    for attempt in range(walks):
        if progress is not None:
            progress("search", attempt, walks)
        frame, last = goal, ""
        seen = {goal}
        best, farthest = 0, goal
        for _ in range(WALK_STEPS):
            options = []
            for move in DIRECTIONS:
                if move != OPPOSITE.get(last) and frame.can_move(move):
                    after = frame.move(move)
                    if after not in seen:
                        options.append((bound(after), move, after))
            if not options:
                break
            if rng.randrange(WANDER) == 0:
                h, last, frame = rng.choice(options)
            else:
                top = max(o[0] for o in options)
                h, last, frame = rng.choice([o for o in options if o[0] == top])
            seen.add(frame)
            if h >= best:
                best, farthest = h, frame
            if h >= moves - WALK_SLACK:
                break
        found = solve(farthest, goal, Budget(max_nodes=nodes), tables=tables)
        length = found.length if found.status == "solved" else None
        if found.path is not None and length is not None and length >= moves:
            cut = length - moves
            return apply_moves(farthest, found.path[:cut]), found.path[cut:]
    raise SpecError(
        "moves", f"found no frame {moves} moves from the goal in {walks} walks; ask for fewer"
    )


def tight_walk(
    goal: Frame, moves: int, bound: Callable[[Frame], int], rng: random.Random
) -> Frame | None:
    """A frame ``moves`` moves from ``goal`` reached by moves that each raise ``bound`` (a
    lower bound of the distance to ``goal``) by exactly one, so that ``bound`` of it is
    ``moves``: exactly ``moves`` away, as the walk back is a path that long.  A
    depth-first search over at most :data:`TIGHT_NODES` frames, moves tried in an order
    drawn from ``rng``; None when it found none."""
    path = [goal]
    on_path = {goal}
    # One list of the moves still to try per depth (an explicit stack: no recursion).
    untried: list[list[Frame]] = [_rising(goal, 0, bound, on_path, rng)]
    for _ in range(TIGHT_NODES):
        if not untried:
            return None
        if not untried[-1]:
            untried.pop()
            on_path.discard(path.pop())
            continue
        frame = untried[-1].pop()
        path.append(frame)
        on_path.add(frame)
        if len(path) - 1 == moves:
            return frame
        untried.append(_rising(frame, len(path) - 1, bound, on_path, rng))
    return None


def _rising(
    frame: Frame, depth: int, bound: Callable[[Frame], int], on_path: set[Frame], rng: random.Random
) -> list[Frame]:
    """The frames one move from ``frame`` (at ``depth``) whose bound is ``depth + 1``, off the
    path, in an order drawn from ``rng`` (the last is tried first)."""
    rising = [
        after
        for move in DIRECTIONS
        if frame.can_move(move)
        and (after := frame.move(move)) not in on_path
        and bound(after) == depth + 1
    ]
    rng.shuffle(rising)
    return rising


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
    goal_size = (goal.width, goal.height, numbered)
    if spec.moves is not None:
        moves = spec.moves
    else:
        bands = bands_for(spec.width, spec.height, numbered)
        low, high = bands[BANDS.index(spec.difficulty or "medium")]
        if not numbered and space_size(goal) <= BFS_SPACE:
            # A drawn colour goal on a small board may have no frame as far as the band's top.
            farthest = max(
                bfs.distances_from(bytes(goal.cells), goal.width, goal.height, high).values()
            )
            high = min(high, farthest)
            low = min(low, high)
        moves = rng.randint(low, high)
    start, solution, count = _find(goal, moves, rng, tables, progress)
    if count is None:
        budget = Budget(max_nodes=COUNT_NODES) if moves > first_tops(*goal_size) else None
        count = count_optimal(start, goal, moves, COUNT_CAP, budget, tables=tables)
    metrics = Metrics(
        moves,
        count,
        COUNT_CAP,
        lower_bound(start, goal),
        band_of(moves, spec.width, spec.height, numbered),
        rate(start, goal, moves, seed=seed) if spec.rated else None,
    )
    level = SlidingLevel(
        start,
        goal,
        solution,
        metrics,
        GeneratorInfo("levelgen", VERSION, seed, spec.parameters()),
    )
    problems = certificate_problems(level)
    if problems:  # pragma: no cover - the solver's certificate always replays
        raise AssertionError(f"the generated level does not verify: {problems[0]}")
    if progress is not None:
        progress("search", MAX_SOLVES, MAX_SOLVES)
    return level
