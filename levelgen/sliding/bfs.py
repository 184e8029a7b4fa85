"""Breadth-first searches over whole frames, with the frames hashed as bytes.

- :func:`plain_distance` is the reference every other solver is checked against: a plain
  breadth-first search from the start with a visited set, nothing clever.
- :func:`distances_from` maps every frame within reach (or within a depth) to its distance.
- :func:`bidirectional_search` grows a ball around the start and one around the goal, always
  the smaller frontier first, until they meet.  If no frame lies in both balls of radii
  ``a`` and ``b``, every solution is longer than ``a + b`` (a shortest path's frame at
  distance ``min(a, d)`` from the start would be in both), so the first layer that meets the
  other ball meets it in its outermost layer and fixes the optimal length ``d = a + 1 + b``.
  Counting the shortest paths to every frame of each ball (a frame's count is the sum of its
  parents' in the previous layer) gives the number of optimal solutions (the sum over the
  meeting frames of the product of the two counts).  Walking back from the meeting frames
  marks every frame on an optimal path; the least optimal solution in the order ``U D L R``
  is then read off greedily from the start.  That is the solution IDA* returns too (see
  :mod:`levelgen.sliding.idastar`).

Frames are ``bytes`` of labels (or classes) here; a move swaps the blank with a neighbour.  The
work is counted in expanded frames; ``should_stop`` is polled every 1,024 of them.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass

__all__ = [
    "BidirectionalResult",
    "bidirectional_search",
    "distances_from",
    "neighbours_of",
    "plain_distance",
]

_POLL = 1024


def _steps(width: int, height: int) -> list[list[tuple[str, int]]]:
    """For each blank cell, the moves ``U D L R`` it has and the blank's next cell."""
    out = []
    for i in range(width * height):
        x, y = i % width, i // width
        moves = []
        if y > 0:
            moves.append(("U", i - width))
        if y < height - 1:
            moves.append(("D", i + width))
        if x > 0:
            moves.append(("L", i - 1))
        if x < width - 1:
            moves.append(("R", i + 1))
        out.append(moves)
    return out


def neighbours_of(frame: bytes, width: int, height: int) -> Iterator[tuple[str, bytes]]:
    """Every move from ``frame`` (bytes, 0 the blank) and the frame after it, in ``U D L R``
    order."""
    b = frame.index(0)
    for d, t in _steps(width, height)[b]:
        cells = bytearray(frame)
        cells[b], cells[t] = cells[t], 0
        yield d, bytes(cells)


def plain_distance(start: bytes, goal: bytes, width: int, height: int) -> int | None:
    """The fewest moves from ``start`` to ``goal``, or None when the goal cannot be reached:
    a plain breadth-first search over every frame (use on small boards only)."""
    if start == goal:
        return 0
    steps = _steps(width, height)
    seen = {start}
    queue = deque([(start, 0)])
    while queue:
        frame, d = queue.popleft()
        b = frame.index(0)
        for _, t in steps[b]:
            cells = bytearray(frame)
            cells[b], cells[t] = cells[t], 0
            nxt = bytes(cells)
            if nxt == goal:
                return d + 1
            if nxt not in seen:
                seen.add(nxt)
                queue.append((nxt, d + 1))
    return None


def distances_from(
    origin: bytes, width: int, height: int, max_depth: int | None = None
) -> dict[bytes, int]:
    """Every frame within ``max_depth`` moves of ``origin`` (all reachable ones when None),
    mapped to its distance."""
    steps = _steps(width, height)
    dist = {origin: 0}
    layer = [origin]
    depth = 0
    while layer and (max_depth is None or depth < max_depth):
        depth += 1
        following = []
        for frame in layer:
            b = frame.index(0)
            for _, t in steps[b]:
                cells = bytearray(frame)
                cells[b], cells[t] = cells[t], 0
                nxt = bytes(cells)
                if nxt not in dist:
                    dist[nxt] = depth
                    following.append(nxt)
        layer = following
    return dist


@dataclass(frozen=True, slots=True)
class BidirectionalResult:
    """What :func:`bidirectional_search` found: the least optimal solution and its length
    (None when stopped), how many optimal solutions there are (up to ``count_cap``), the proved
    lower bound on the length, and the frames expanded."""

    path: str | None
    length: int | None
    count: int
    lower_bound: int
    nodes: int
    stopped: bool


class _Stopped(Exception):
    pass


def bidirectional_search(
    start: bytes,
    goal: bytes,
    width: int,
    height: int,
    *,
    count_cap: int = 1,
    node_limit: int | None = None,
    should_stop: Callable[[], bool] | None = None,
) -> BidirectionalResult:
    """The least optimal solution from ``start`` to ``goal`` (frames with the same labels;
    the goal must be reachable: check with :func:`levelgen.sliding.rules.reachability`
    first, or the search runs until the budget stops it), by a breadth-first search from both
    ends (see the module docstring).  Stopped by ``node_limit`` expanded frames or
    ``should_stop``: ``stopped``, with the lower bound proved so far."""
    if start == goal:
        return BidirectionalResult("", 0, 1, 0, 0, False)
    steps = _steps(width, height)
    # Layers: one dict per distance, frame -> number of shortest paths from that side's end.
    fwd: list[dict[bytes, int]] = [{start: 1}]
    bwd: list[dict[bytes, int]] = [{goal: 1}]
    seen_f = {start: 0}
    seen_b = {goal: 0}
    nodes = 0
    meeting: dict[bytes, int] = {}
    try:
        while not meeting:
            grow_forward = len(fwd[-1]) <= len(bwd[-1])
            layers, seen = (fwd, seen_f) if grow_forward else (bwd, seen_b)
            other_layers = bwd if grow_forward else fwd
            depth = len(layers)
            # No frame is in both balls yet: every solution is longer than both radii.
            outer = len(fwd) + len(bwd) - 2
            following: dict[bytes, int] = {}
            for frame, count in layers[-1].items():
                nodes += 1
                if node_limit is not None and nodes > node_limit:
                    raise _Stopped(outer + 1)
                if should_stop is not None and nodes % _POLL == 0 and should_stop():
                    raise _Stopped(outer + 1)
                b = frame.index(0)
                for _, t in steps[b]:
                    cells = bytearray(frame)
                    cells[b], cells[t] = cells[t], 0
                    nxt = bytes(cells)
                    known = seen.get(nxt)
                    if known is None:
                        seen[nxt] = depth
                        following[nxt] = count
                    elif known == depth:
                        following[nxt] += count
            if not following:
                raise _Stopped(-1)  # the whole component was explored: no path at all
            layers.append(following)
            last = other_layers[-1]
            meeting = {f: 0 for f in following if f in last}
    except _Stopped as stop:
        bound = int(str(stop.args[0]))
        if bound < 0:
            raise ValueError("the goal cannot be reached from the start") from None
        return BidirectionalResult(None, None, 0, bound, nodes, True)
    a, b = len(fwd) - 1, len(bwd) - 1
    length = a + b
    count = sum(fwd[a][f] * bwd[b][f] for f in meeting)
    on_path = _optimal_frames(fwd, bwd, set(meeting), steps)
    path = _least_path(start, goal, on_path, steps)
    return BidirectionalResult(path, length, min(count, count_cap), length, nodes, False)


def _optimal_frames(
    fwd: list[dict[bytes, int]],
    bwd: list[dict[bytes, int]],
    meeting: set[bytes],
    steps: list[list[tuple[str, int]]],
) -> list[set[bytes]]:
    """``on[i]``: the frames at distance ``i`` from the start that lie on an optimal path."""
    a, b = len(fwd) - 1, len(bwd) - 1
    on: list[set[bytes]] = [set() for _ in range(a + b + 1)]
    on[a] = meeting
    for i in range(a - 1, -1, -1):
        on[i] = {f for f in fwd[i] if any(n in on[i + 1] for n in _around(f, steps))}
    for j in range(b - 1, -1, -1):  # bwd[j] is at distance a + b - j from the start
        i = a + b - j
        on[i] = {f for f in bwd[j] if any(n in on[i - 1] for n in _around(f, steps))}
    return on


def _around(frame: bytes, steps: list[list[tuple[str, int]]]) -> Iterator[bytes]:
    b = frame.index(0)
    for _, t in steps[b]:
        cells = bytearray(frame)
        cells[b], cells[t] = cells[t], 0
        yield bytes(cells)


def _least_path(
    start: bytes, goal: bytes, on: list[set[bytes]], steps: list[list[tuple[str, int]]]
) -> str:
    moves = []
    frame = start
    for i in range(1, len(on)):
        b = frame.index(0)
        for d, t in steps[b]:
            cells = bytearray(frame)
            cells[b], cells[t] = cells[t], 0
            nxt = bytes(cells)
            if nxt in on[i]:
                moves.append(d)
                frame = nxt
                break
    if frame != goal:  # pragma: no cover - the marks always lead to the goal
        raise AssertionError("the optimal frames do not lead to the goal")
    return "".join(moves)
