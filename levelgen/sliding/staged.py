"""A solution of a large numbered board quickly, then shortened: the bounded-suboptimal
search of :mod:`levelgen.sliding.solver` on 6x6 and larger boards.

Weighted A* over the whole board finds no solution of a random 8x8 start within seconds (the
pattern databases of three tiles are barely above the Manhattan distance), so the board is
solved in stages, as a person would: the row or column farthest from the goal's blank is put
in place tile by tile, its last two tiles together, each stage a weighted A*
(:func:`levelgen.sliding.native.weighted_astar`) over where the stage's tiles and the blank
are (the other tiles not told apart), its heuristic their Manhattan distance, the tiles
already placed frozen; then the next line, until a 2x2 corner is left and solved whole.  The
solution is then shortened, keeping it a solution:

- :func:`~levelgen.sliding.rules.remove_cycles`: a frame met twice on the path, the moves
  between cut out;
- :func:`shorten_windows`: each window of :data:`WINDOW` moves replaced by an optimal path
  between its two end frames (IDA* with the Manhattan distance to the window's last frame,
  at most :data:`WINDOW_NODES` nodes a window): a few moves in a thousand;
- :func:`refine`: weighted A* over the whole board with the solver's heuristic, weights
  falling from 5 to 5/4, each looking only for a solution shorter than the best so far.  On a
  random start it finds none within its frames; on a start a hundred moves or so from the goal,
  where staging takes long detours round the lines it has placed, it halves the solution.

:func:`first_solution` runs them for :mod:`levelgen.sliding.solver`, or, where staging does not
apply, :func:`weighted_path` (weighted IDA*).  Everything here is deterministic (the same
start, the same moves) unless ``should_stop`` cuts it.  Numbered boards whose goal has its blank in
a corner only (:func:`applies`); None otherwise, or without the compiled twins.
"""

from __future__ import annotations

from collections.abc import Callable

from .idastar import SearchHeuristic, make_heuristic
from .native import NATIVE, bounded_search, weighted_astar
from .rules import frames_of, remove_cycles

__all__ = [
    "STAGE_WEIGHT",
    "WEIGHT",
    "WINDOW",
    "WINDOW_NODES",
    "applies",
    "first_solution",
    "refine",
    "shorten_windows",
    "staged_path",
    "weighted_path",
]

#: The weight of the heuristic in the bounded-suboptimal search, as a ratio: 5 (lower weights
#: find no solution of a random 6x6 to 8x8 start in a few million nodes with these tables).
WEIGHT = (5, 1)
#: The weight of the stages' A* (Manhattan distance of one line's tiles).
STAGE_WEIGHT = (2, 1)
#: Tiles placed together in a stage (the last group of a line at least two): one at a time
#: takes 0.3-0.8 s on a random 8x8 start (about 3.1 times the proved bound), pairs 1-8 s
#: (about 2.7 times).
GROUP = 1
#: The frames one stage may store before it gives up (then no staged solution).
STAGE_FRAMES = 2_000_000
#: Moves in a window of :func:`shorten_windows`, and the IDA* nodes each window may use.
WINDOW = 18
WINDOW_NODES = 20_000
#: The weights of :func:`refine`, in turn, and the frames each may store.
REFINE_WEIGHTS = ((5, 1), (3, 1), (2, 1), (3, 2), (5, 4))
REFINE_FRAMES = 150_000
#: The class of the tiles a stage does not look at (above every class of a 64-cell board).
_OTHER = 64


def applies(width: int, goal: bytes) -> bool:
    """Whether staging applies: every class one tile (a numbered board) and the goal's blank
    in a corner."""
    height = len(goal) // width
    if sorted(goal) != list(range(len(goal))):
        return False
    blank = goal.index(0)
    x, y = blank % width, blank // width
    return x in (0, width - 1) and y in (0, height - 1)


def staged_path(
    width: int,
    goal: bytes,
    start: bytes,
    should_stop: Callable[[], bool] | None = None,
) -> tuple[str | None, int]:
    """A solution from ``start`` to ``goal`` (encoded cells, see :func:`applies`) by stages
    and the frames expanded: the solution is None without the compiled twins, when staging
    does not apply, or when ``should_stop`` said to stop before it was complete."""
    if not NATIVE or not applies(width, goal):
        return None, 0
    height = len(goal) // width
    blank = goal.index(0)
    x0, y0, x1, y1 = 0, 0, width, height
    top = blank // width == height - 1  # peel rows from the top (the blank is at the bottom)
    left = blank % width == width - 1
    frozen = 0
    cells = start
    moves: list[str] = []
    expanded = 0
    while True:
        if x1 - x0 == 2 and y1 - y0 == 2:
            line = [y * width + x for y in range(y0, y1) for x in range(x0, x1)]
        elif y1 - y0 >= x1 - x0:
            y = y0 if top else y1 - 1
            line = [y * width + x for x in range(x0, x1)]
            y0, y1 = (y0 + 1, y1) if top else (y0, y1 - 1)
        else:
            x = x0 if left else x1 - 1
            line = [y * width + x for y in range(y0, y1)]
            x0, x1 = (x0 + 1, x1) if left else (x0, x1 - 1)
        final = len([i for i in line if goal[i]]) == len(line) - 1
        groups = [line] if final else _groups(line)
        for group in groups:
            found, spent = _stage(width, height, goal, cells, group, frozen, should_stop)
            expanded += spent
            if found is None:
                return None, expanded
            moves.append(found)
            cells = frames_of(width, cells, found)[-1]
            for i in group:
                frozen |= 1 << i
        if final:
            break
    return "".join(moves), expanded


def _groups(line: list[int]) -> list[list[int]]:
    """The groups of cells a line is placed in: pairs, the last group of two or three."""
    out = [line[i : i + GROUP] for i in range(0, len(line), GROUP)]
    if len(out) > 1 and len(out[-1]) < 2:
        out[-2:] = [out[-2] + out[-1]]
    return out


def _stage(
    width: int,
    height: int,
    goal: bytes,
    cells: bytes,
    group: list[int],
    frozen: int,
    should_stop: Callable[[], bool] | None,
) -> tuple[str | None, int]:
    """The moves that put the tiles of the goal cells ``group`` in place from ``cells``, no
    tile of ``frozen`` moved (weighted A* over where those tiles and the blank are)."""
    classes = bytes(goal[i] for i in group if goal[i])
    keep = set(classes) | {0}
    heuristic = make_heuristic(width, height, _abstract(goal, keep), [], [], classes, reflect=False)
    found = weighted_astar(
        heuristic,
        _abstract(cells, keep),
        STAGE_WEIGHT,
        frame_limit=STAGE_FRAMES,
        should_stop=should_stop,
        frozen=frozen,
        partial=True,
    )
    return (None, 0) if found is None else (found.path, found.expanded)


def _abstract(cells: bytes, keep: set[int]) -> bytes:
    """``cells`` with every class but those of ``keep`` made one (:data:`_OTHER`): a stage
    needs only where its own tiles and the blank are, so frames alike there are one."""
    return bytes(c if c in keep else _OTHER for c in cells)


def shorten_windows(
    width: int,
    start: bytes,
    moves: str,
    should_stop: Callable[[], bool] | None = None,
    window: int = WINDOW,
    passes: int = 1,
) -> str:
    """``moves`` with each window of ``window`` moves replaced by an optimal path between its
    end frames when one is shorter (IDA* of at most :data:`WINDOW_NODES` nodes a window),
    at most ``passes`` passes over the path, while one shortens it; ``should_stop`` ends it
    early (the moves are a solution at every step)."""
    height = len(start) // width
    improved = True
    while improved and passes > 0:
        improved = False
        passes -= 1
        frames = frames_of(width, start, moves)
        out: list[str] = []
        i = 0
        while i < len(moves):
            if should_stop is not None and should_stop():
                return "".join(out) + moves[i:]
            end = min(len(moves), i + window)
            part = moves[i:end]
            if end - i >= 4:
                target = frames[end]
                classes = bytes(c for c in target if c)
                hz = make_heuristic(width, height, target, [], [], classes, reflect=False)
                better = _optimal_within(hz, frames[i], end - i)
                if better is not None and len(better) < len(part):
                    part = better
                    improved = True
            out.append(part)
            i = end
        moves = remove_cycles(width, start, "".join(out))
    return moves


def _optimal_within(hz: SearchHeuristic, start: bytes, length: int) -> str | None:
    """An optimal path from ``start`` to ``hz``'s goal when it is shorter than ``length``
    and IDA* finds it within :data:`WINDOW_NODES` nodes; else None."""
    probe = bounded_search(hz, start, 0, node_limit=1)
    threshold = 0 if probe.next_threshold is None else probe.next_threshold
    nodes = 0
    while threshold < length and nodes < WINDOW_NODES:
        step = bounded_search(hz, start, threshold, node_limit=WINDOW_NODES - nodes)
        nodes += step.nodes
        if step.path is not None:
            return step.path
        if step.stopped or step.next_threshold is None:
            return None
        threshold = step.next_threshold
    return None


def first_solution(
    heuristic: SearchHeuristic,
    cells: bytes,
    h0: int,
    node_limit: int,
    should_stop: Callable[[], bool] | None,
) -> tuple[str | None, int, str]:
    """The solution a large board looks for before the optimal search, the work it took and
    what found it: :func:`staged_path` (numbered boards whose goal has its blank in a corner,
    compiled twins), cycles cut and windows shortened; else weighted IDA* of at most
    ``node_limit`` nodes (:func:`weighted_path`, ``h0`` the heuristic at ``cells``)."""
    width = heuristic.width
    path, spent = staged_path(width, heuristic.goal, cells, should_stop)
    if path is not None:
        path = remove_cycles(width, cells, path)
        path = shorten_windows(width, cells, path, should_stop)
        path, frames, weight = refine(heuristic, cells, path, node_limit, should_stop)
        how = "staged weighted A*, windows shortened"
        if weight is not None:
            how += f", then whole-board weighted A* (weight {weight})"
        return path, spent + frames, how
    found, nodes = weighted_path(heuristic, cells, h0, node_limit, should_stop)
    return found, spent + nodes, "weighted IDA*"


def refine(
    heuristic: SearchHeuristic,
    cells: bytes,
    path: str,
    frame_limit: int,
    should_stop: Callable[[], bool] | None,
) -> tuple[str, int, str | None]:
    """``path`` (a solution from ``cells``) or a shorter one found by weighted A* with each
    weight of :data:`REFINE_WEIGHTS` in turn (at most :data:`REFINE_FRAMES` frames each and
    ``frame_limit`` in all), until one runs out of frames: the solution, the frames expanded
    and the last weight that shortened it (``"a/b"``; None when none did)."""
    spent = 0
    shortened_by = None
    for num, den in REFINE_WEIGHTS:
        limit = min(REFINE_FRAMES, frame_limit - spent)
        if limit <= 0:
            break
        found = weighted_astar(
            heuristic,
            cells,
            (num, den),
            bound=len(path),
            frame_limit=limit,
            should_stop=should_stop,
        )
        if found is None:
            break
        spent += found.expanded
        if found.path is None:
            if found.stopped:
                break
            continue  # every frame below the bound met (closed frames are not reopened)
        path = found.path
        shortened_by = f"{num}/{den}" if den > 1 else str(num)
    return path, spent, shortened_by


def weighted_path(
    heuristic: SearchHeuristic,
    cells: bytes,
    h0: int,
    node_limit: int,
    should_stop: Callable[[], bool] | None,
    weight: tuple[int, int] = WEIGHT,
) -> tuple[str | None, int]:
    """A solution by weighted IDA* (the heuristic weighed by ``weight[0] / weight[1]``; the
    threshold grows by at least a sixteenth each iteration) in at most ``node_limit`` nodes:
    ``(moves or None, nodes)``.  Not optimal: the caller states its length against the
    proved lower bound."""
    num, den = weight
    threshold = h0 * num
    nodes = 0
    while nodes < node_limit and threshold < 4000 * den:
        step = bounded_search(
            heuristic,
            cells,
            threshold,
            node_limit=node_limit - nodes,
            should_stop=should_stop,
            weight=weight,
        )
        nodes += step.nodes
        if step.path is not None:
            return step.path, nodes
        if step.stopped or step.next_threshold is None:
            break
        threshold = max(step.next_threshold, threshold + max(1, threshold // 16))
    return None, nodes
