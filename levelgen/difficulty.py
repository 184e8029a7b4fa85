"""Measured difficulty: facts about a level observed along its solution.

Pure: only counts legal moves on states.  ``count_moves`` counts one state from scratch;
``solution_move_counts`` counts every state along a solution incrementally, which is what the
generator needs (a 24x14 level has 168 states).  Richer measures (dead-end rate of random play,
forced moves) belong here too.
"""

from __future__ import annotations

from collections.abc import Sequence

from .board import Board, iter_bits
from .level import Difficulty, Metrics
from .moves import Move, legal_pairs
from .reach import hits_by_level, levels, linkable_mask
from .rules import Rules
from .verify import Problem

__all__ = [
    "LiveLinks",
    "count_moves",
    "difficulty_problems",
    "metrics_problems",
    "solution_metrics",
    "solution_move_counts",
]


def count_moves(board: Board, rules: Rules) -> int:
    """The number of legal moves (linkable same-kind pairs) on ``board`` now."""
    lay = board.layout
    return len(
        legal_pairs(
            board.kind_masks().values(), board.free_mask(rules.outside), rules.max_turns, lay.stride
        )
    )


def solution_move_counts(board: Board, rules: Rules, moves: Sequence[Move]) -> list[int]:
    """The number of legal moves on each state along ``moves``, before each step (so one count
    per move, the first being ``count_moves(board, rules)``).

    ``moves`` must be a valid solution (or prefix of one) of ``board``: this does not check
    legality, it only counts, with :class:`LiveLinks`."""
    live = LiveLinks(board, rules)
    stride = live.stride
    counts = []
    for move in moves:
        counts.append(live.count)
        live.remove((move.a.y + 1) * stride + move.a.x + 1, (move.b.y + 1) * stride + move.b.x + 1)
    return counts


class LiveLinks:
    """The legal moves of a position kept up to date as pairs are removed: the live move list
    on bit indices of the padded layout (see :class:`levelgen.board.Layout`).

    How it stays cheap.  ``links[x]`` is the mask of same-kind tiles linkable from tile bit
    ``x``, and ``total`` the sum of their sizes (each move counted from both ends).  Removing
    the pair ``a, b`` only adds free cells, so a link between two remaining tiles never breaks;
    the links that vanish are those of ``a`` and ``b``, recorded in ``links[a]`` and
    ``links[b]``.  A link that appears must run across ``a`` or ``b``: both of its ends are
    reached by paths from those two cells (the reach levels of :mod:`levelgen.reach` from the
    seeds ``a | b`` at once), with turns adding up to at most ``max_turns``.  Both ends are
    also *open*: not yet linked to every other tile of their kind (``open_mask``; a tile once
    closed stays closed).  Only such pairs are tested: a handful of link tests per step
    instead of one per tile.  Counts and pairs are checked against a recount
    (:func:`levelgen.moves.legal_pairs`) on every state in the tests."""

    __slots__ = ("free", "k", "kind_mask", "kind_of", "links", "open_mask", "stride", "total")

    def __init__(self, board: Board, rules: Rules) -> None:
        lay = board.layout
        self.stride = stride = lay.stride
        self.k = k = rules.max_turns
        self.free = free = board.free_mask(rules.outside)
        size = (lay.height + 2) * stride
        self.kind_of = kind_of = [0] * size
        self.links = links = [0] * size
        self.kind_mask = kind_mask = board.kind_masks()
        open_mask = total = 0
        for kind, mask in kind_mask.items():
            rest = mask
            while rest:
                low = rest & -rest
                rest ^= low
                x = low.bit_length() - 1
                kind_of[x] = kind
                if rest:
                    # A tile with no free neighbour (most of a full board) links only to
                    # neighbours.
                    near = (low << 1) | (low >> 1) | (low << stride) | (low >> stride)
                    hit = linkable_mask(low, free, rest, k, stride) if near & free else near & rest
                    if hit:
                        links[x] |= hit
                        total += 2 * hit.bit_count()
                        for y in iter_bits(hit):
                            links[y] |= low
                if links[x] != mask ^ low:
                    open_mask |= low
        self.open_mask = open_mask
        self.total = total

    def copy(self) -> LiveLinks:
        other = LiveLinks.__new__(LiveLinks)
        other.stride, other.k, other.free = self.stride, self.k, self.free
        other.kind_of = self.kind_of  # never written after construction
        other.links = self.links[:]
        other.kind_mask = dict(self.kind_mask)
        other.open_mask, other.total = self.open_mask, self.total
        return other

    @property
    def count(self) -> int:
        """The number of legal moves now."""
        return self.total // 2

    @property
    def tiles(self) -> int:
        """Tiles left."""
        return sum(m.bit_count() for m in self.kind_mask.values())

    def pairs(self) -> list[tuple[int, int]]:
        """Every legal move as ``(a, b)`` bit indices with ``a < b``, in the order of
        :func:`levelgen.moves.legal_pairs` (kinds in board order, then bit order)."""
        out: list[tuple[int, int]] = []
        links = self.links
        for mask in self.kind_mask.values():
            rest = mask
            while rest:
                low = rest & -rest
                rest ^= low
                x = low.bit_length() - 1
                above = links[x] & ~((low << 1) - 1)
                while above:
                    top = above & -above
                    above ^= top
                    out.append((x, top.bit_length() - 1))
        return out

    def remove(self, a: int, b: int) -> None:
        """Remove the legal pair of tile bits ``a`` and ``b`` (one kind)."""
        stride, k, links = self.stride, self.k, self.links
        kind_mask, kind_of = self.kind_mask, self.kind_of
        pair = (1 << a) | (1 << b)
        # The links of a and b vanish, at both of their ends; open tiles of their kind whose
        # only missing partners were a and b close.
        total = self.total - links[a].bit_count() - links[b].bit_count()
        rest = (links[a] | links[b]) & ~pair
        links[a] = links[b] = 0
        while rest:
            low = rest & -rest
            rest ^= low
            x = low.bit_length() - 1
            lost = links[x] & pair
            links[x] ^= lost
            total -= lost.bit_count()
        mask = kind_mask[kind_of[a]] = kind_mask[kind_of[a]] & ~pair
        open_mask = self.open_mask
        rest = mask & open_mask
        while rest:
            low = rest & -rest
            rest ^= low
            if links[low.bit_length() - 1] == mask ^ low:
                open_mask ^= low
        open_mask &= ~pair
        free = self.free = self.free | pair
        if open_mask:
            # New links run across a or b, between open tiles of one kind reaching them.  With
            # ``reach[t]`` those reaching a or b with at most t turns, a new link x-y splits
            # there into paths of t1 + t2 <= k turns, so its end of fewer turns is in
            # reach[k // 2].  Those ends are taken in order of turns; each is tested against
            # the partners its turns allow that were not taken before it, so every candidate
            # pair once.
            hs, vs = levels(pair, free, k, stride)
            reach = [hits_by_level(pair, hs, vs, t, stride) & open_mask for t in range(k + 1)]
            done = 0
            for t in range(k // 2 + 1):
                ends = reach[t] & ~done
                while ends:
                    low = ends & -ends
                    ends ^= low
                    done |= low
                    x = low.bit_length() - 1
                    mask = kind_mask[kind_of[x]]
                    unlinked = mask & reach[k - t] & ~done & ~links[x]
                    if not unlinked:
                        continue
                    hit = linkable_mask(low, free, unlinked, k, stride)
                    if hit:
                        links[x] |= hit
                        total += 2 * hit.bit_count()
                        while hit:
                            other = hit & -hit
                            hit ^= other
                            y = other.bit_length() - 1
                            links[y] |= low
                            if links[y] == mask ^ other:
                                open_mask &= ~other
                        if links[x] == mask ^ low:
                            open_mask &= ~low
        self.open_mask = open_mask
        self.total = total


def solution_metrics(board: Board, rules: Rules, moves: Sequence[Move]) -> Metrics:
    """Moves available at the start, their mean along ``moves`` (before each step), and the
    turn histogram of the solution's paths.  ``moves`` must be a valid solution."""
    if board.upper or rules.slide != "none":  # variants: levelgen.variants_verify
        from .variants_verify import variant_metrics

        return variant_metrics(board, rules, moves)
    counts = solution_move_counts(board, rules, moves)
    hist = [0] * (rules.max_turns + 1)
    for move in moves:
        hist[move.path.turns] += 1
    start = counts[0] if counts else 0
    mean = round(sum(counts) / len(counts), 4) if counts else 0.0
    return Metrics(start_moves=start, mean_moves=mean, turn_histogram=tuple(hist))


def metrics_problems(
    board: Board, rules: Rules, moves: Sequence[Move], stated: Metrics
) -> list[Problem]:
    """Where the ``stated`` metrics of a level differ from those measured along its solution
    ``moves`` (which must be valid): one problem per field, pointing into ``/metrics``.
    ``extra`` measurements are not checked (they may come from other tools)."""
    measured = solution_metrics(board, rules, moves)
    out: list[tuple[str, object, object]] = []
    if stated.start_moves != measured.start_moves:
        out.append(("start_moves", stated.start_moves, measured.start_moves))
    if abs(stated.mean_moves - measured.mean_moves) > 0.5e-4:
        out.append(("mean_moves", stated.mean_moves, measured.mean_moves))
    if tuple(stated.turn_histogram) != measured.turn_histogram:
        out.append(("turn_histogram", list(stated.turn_histogram), list(measured.turn_histogram)))
    problems = [
        Problem(f"/metrics/{name}", f"states {said} but the solution gives {real}")
        for name, said, real in out
    ]
    if stated.difficulty is not None:
        problems.extend(difficulty_problems(stated.difficulty))
    return problems


def difficulty_problems(stated: Difficulty) -> list[Problem]:
    """Where a stated difficulty contradicts itself: a score that its stated measures do not
    give, or a band that is not the score's.  (The measures themselves come from seeded play
    and are not measured again here: that would cost as much as making the level.)"""
    from .difficulty_score import SCORED, band_of, score_of

    out = []
    if all(name in stated.measures for name in SCORED):
        score = score_of(stated.measures)
        if abs(score - stated.score) > 0.05:
            out.append(
                Problem(
                    "/metrics/difficulty/score",
                    f"states {stated.score} but its measures give {score}",
                )
            )
    band = band_of(stated.score)
    if stated.band != band:
        out.append(
            Problem(
                "/metrics/difficulty/band",
                f"states {stated.band!r} but a score of {stated.score} is {band!r}",
            )
        )
    return out
