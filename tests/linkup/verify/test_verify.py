"""The replay's path check against a plain cell-by-cell check, on random axis-aligned paths."""

from __future__ import annotations

import itertools
import random

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from levelgen.linkup.core.geometry import Pos
from levelgen.linkup.core.paths import Path
from levelgen.linkup.verify import _is_clear


def plain_is_clear(path: Path, free: int, max_turns: int, w: int, h: int, stride: int) -> bool:
    if path.turns > max_turns:
        return False
    for c in path.cells()[1:-1]:
        if not (-1 <= c.x <= w and -1 <= c.y <= h):
            return False
        if not free >> ((c.y + 1) * stride + c.x + 1) & 1:
            return False
    return True


@settings(max_examples=2000, derandomize=True, deadline=None)
@given(st.integers(1, 7), st.integers(1, 6), st.integers(0, 2**32 - 1))
def test_fast_path_check_matches_cell_by_cell(w: int, h: int, seed: int) -> None:
    """Includes corners beyond the ring, paths that revisit cells or pass their own ends."""
    rng = random.Random(seed)
    stride = w + 3
    free = 0
    for y in range(-1, h + 1):
        for x in range(-1, w + 1):
            if rng.random() < 0.7:
                free |= 1 << ((y + 1) * stride + x + 1)
    # The ends are cells of the board (the replay checks that first); corners may be anywhere.
    corners = [Pos(rng.randrange(w), rng.randrange(h))]
    segments = rng.randint(1, 4)
    for i in range(segments):
        x, y = corners[-1]
        last = i == segments - 1
        if i % 2 == 0:
            choices = [v for v in (range(w) if last else range(-2, w + 2)) if v != x]
            nxt = Pos(rng.choice(choices), y) if choices else None
        else:
            choices = [v for v in (range(h) if last else range(-2, h + 2)) if v != y]
            nxt = Pos(x, rng.choice(choices)) if choices else None
        if nxt is None:
            break
        corners.append(nxt)
    assume(len(corners) >= 2 and 0 <= corners[-1].x < w and 0 <= corners[-1].y < h)
    length = sum(abs(p.x - q.x) + abs(p.y - q.y) for p, q in itertools.pairwise(corners))
    path = Path(tuple(corners), len(corners) - 2, length)
    for max_turns in range(4):
        expected = plain_is_clear(path, free, max_turns, w, h, stride)
        assert _is_clear(path, free, max_turns, w, h, stride) == expected
