"""The repair solver's choice of the decision to put back (the *culprit*) in a stuck position.

A wrong pairing took ``a, b`` where ``a, x`` and ``b, y`` belonged together: ``x`` and ``y``
(the kind's two tiles left) tend to be far apart and each close to a cell of the pair, and the
decision to be recent and to have been contested.  :func:`_culprit_score` is a logistic score
over those measures, fitted on 2,200 stuck positions of 48x48 and 64x64 levels (see
:mod:`levelgen.linkup.solvers.repair`); :class:`CulpritChoice` ranks the candidates by it and
keeps, among the best, one whose tiles link to a cell of the pair now.
"""

from __future__ import annotations

import math

from ..core.board import iter_bits
from ..core.live import LiveLinks
from ..core.reach import link_hits

__all__ = ["CULPRIT_SHORTLIST", "WORK_SHORTLIST", "CulpritChoice", "distance"]

#: The culprit's score is computed in full (with its link tests) for this many candidates,
#: the best by the rest of the score.
CULPRIT_SHORTLIST = 24

#: The work of each shortlist of the choice of a repair where no candidate links (the link
#: tests of the next one: about 0.4 ms at 64x64; see :meth:`_Repairer._pick`).
WORK_SHORTLIST = 20

#: The link tests of a candidate of the culprit's score: whether its stuck tile ``x`` links to
#: ``a`` and to ``b``, then whether the other tile ``y`` does (bits).
_Hits = tuple[int, int, int, int]

#: A play of the board: the live move list of the position reached, the moves (bit pairs), the
#: cells of a path of each move's link (-1 until a replay finds one, see
#: :meth:`_Repairer.diving`), and the indices of the moves that were decisions.
_State = tuple[LiveLinks, list[tuple[int, int]], list[int], set[int]]


class CulpritChoice:
    """The culprit's choice of a run of the repair solver (mixed into its ``_Repairer``, whose
    state it reads: the kind of each tile, the pairings tried and contested, the work)."""

    kind_of: dict[int, int]
    tried: set[tuple[int, int]]
    contested: set[tuple[int, int]]
    work: int
    _ranked: tuple[_State, list[list[tuple[int, int]]], int, dict[tuple[int, int], _Hits]] | None

    def culprit(self, state: _State) -> int | None:
        """The index of the decision to undo: among the decisions of the kinds of two tiles
        left that have a stuck tile next to a free cell (any stuck tile when none is), not
        tried before when there is such, the one of the highest :func:`_culprit_score`
        among those whose tiles link to a cell of the pair (:meth:`_pick`).

        A repair undone leaves the position as it was, and the next choice is made on it
        again: the candidates ranked by the score without its link tests, and the link tests
        made, are kept with the position (the same choices, without the work twice)."""
        if self._ranked is None or self._ranked[0] is not state:
            self._ranked = (state, *self._rank(state), {})
        _, tiers, exposed, hits = self._ranked
        live, seq = state[0], state[1]
        for ranked in tiers:
            # Those tried before only when every one was.
            fresh = [(x, i) for x, i in ranked if seq[i] not in self.tried] or ranked
            if fresh:
                return self._pick(live, seq, fresh, exposed, hits)
        return None

    def _pick(
        self,
        live: LiveLinks,
        seq: list[tuple[int, int]],
        fresh: list[tuple[int, int]],
        exposed: int,
        hits: dict[tuple[int, int], _Hits],
    ) -> int:
        """The decision of the best candidate of ``fresh`` (ranked by the score without its
        link tests) that has a *link*: its stuck tile ``x`` or the other tile ``y`` links to
        a cell of its pair in this position.  The score in full (with the link tests) decides
        among the first ``CULPRIT_SHORTLIST``, then, when none of them has a link, among the
        next as many, and so on; when no candidate has one, the best of the first.

        Why.  A repair pairs ``x`` or ``y`` with a tile of the pair put back, which is where
        the pair's cell is; when neither reaches such a cell now, in the position of the
        most cells freed on this branch, the repair almost never leaves fewer tiles
        (measured on 64x64 and 40x64 seeds 0-7 with seeds 0 and 1: 10 of 277 repairs kept,
        against 21-56% of the others), and those were a fifth of the repairs."""

        def key(f: tuple[int, int]) -> tuple[bool, float, int]:
            score = _culprit_score(live, seq, f[1], f[0], exposed, self.contested, hits)
            return (not any(hits[f]), -score, f[1])  # the score made the link tests

        first: tuple[int, int] | None = None
        for start in range(0, len(fresh), CULPRIT_SHORTLIST):
            best = min(fresh[start : start + CULPRIT_SHORTLIST], key=key)
            if any(hits[best]):
                return best[1]
            if first is None:
                first = best
            self.work += WORK_SHORTLIST
        assert first is not None
        return first[1]

    def _rank(self, state: _State) -> tuple[list[list[tuple[int, int]]], int]:
        """The candidates of :meth:`culprit` in ``state`` as ``(stuck tile, decision index)``,
        best first by the score without its link tests: those of stuck tiles next to a free
        cell, or when there are none those of all stuck tiles; and the mask of the former."""
        live, seq, _, decided = state
        by_kind: dict[int, int] = {}
        for i in sorted(decided):
            by_kind[self.kind_of[seq[i][0]]] = i
        occ = 0
        for mask in live.kind_mask.values():
            occ |= mask
        free, stride = live.free, live.stride
        exposed = ((free << 1) | (free >> 1) | (free << stride) | (free >> stride)) & occ
        for tiles in (exposed, occ):
            found = sorted(
                {
                    (x, by_kind[kind])
                    for x in iter_bits(tiles)
                    if (kind := self.kind_of[x]) in by_kind
                    and live.kind_mask[kind].bit_count() == 2
                }
            )
            if found:
                found.sort(key=lambda f: (-_culprit_score(live, seq, f[1], f[0], exposed), f[1]))
                return [found], exposed
        return [], exposed


def distance(a: int, b: int, stride: int) -> int:
    """The Manhattan distance between the bits ``a`` and ``b`` of a layout of ``stride``."""
    return abs(a // stride - b // stride) + abs(a % stride - b % stride)


def _culprit_score(
    live: LiveLinks,
    seq: list[tuple[int, int]],
    i: int,
    x: int,
    exposed: int,
    contested: set[tuple[int, int]] | None = None,
    hits: dict[tuple[int, int], _Hits] | None = None,
) -> float:
    """How likely the decision ``seq[i]`` (a pair ``a, b`` of the kind of the stuck tile ``x``,
    whose other tile left is ``y``) was a wrong pairing: a logistic score over what the
    position shows (see the module docstring).  A wrong pairing took ``a, b`` where ``a, x``
    and ``b, y`` belonged together, so ``x`` and ``y`` tend to be far apart and each close to
    a cell of the pair, the decision to be recent and to have been contested.  Without
    ``contested``, the score without its link tests; ``hits`` keeps the link tests made in
    this position, by ``(x, i)``."""
    stride, free, k = live.stride, live.free, live.k
    a, b = seq[i]
    mask = live.kind_mask[live.kind_of[x]]
    y = (mask ^ (1 << x)).bit_length() - 1
    (xr, xc), (yr, yc) = divmod(x, stride), divmod(y, stride)
    (ar, ac), (br, bc) = divmod(a, stride), divmod(b, stride)
    dxa, dxb = abs(xr - ar) + abs(xc - ac), abs(xr - br) + abs(xc - bc)
    dya, dyb = abs(yr - ar) + abs(yc - ac), abs(yr - br) + abs(yc - bc)
    dxy, dab = abs(xr - yr) + abs(xc - yc), abs(ar - br) + abs(ac - bc)
    log = math.log1p
    linked = 0.0
    if contested is not None:
        tests = None if hits is None else hits.get((x, i))
        if tests is None:
            pair = 1 << a | 1 << b
            hit_x = link_hits(1 << x, free, pair, k, stride)
            hit_y = link_hits(1 << y, free, pair, k, stride)
            tests = (hit_x >> a & 1, hit_x >> b & 1, hit_y >> a & 1, hit_y >> b & 1)
            if hits is not None:
                hits[(x, i)] = tests
        xa, xb, ya, yb = map(bool, tests)
        linked = (
            1.02 * (seq[i] in contested)
            + 0.51 * (xa or xb)
            + 0.12 * (ya or yb)
            - 0.37 * ((xa and yb) or (xb and ya))
        )
    return (
        linked
        + 0.54 * bool(exposed >> y & 1)
        + 1.36 * log(dxy)
        - 1.33 * log(min(dxa, dxb))
        - 2.04 * log(min(dya, dyb))
        + 0.12 * log(dab)
        - 0.46 * (log(min(dxa + dyb, dxb + dya)) - log(dxy + dab))
        + 0.54 * i / len(seq)
    )
