"""Difficulty shaping: choosing which kind each pair of a removal order gets.

A generator first finds a removal order on tile *slots* (:mod:`levelgen.linkup.generate.playout`);
by occupancy invariance the order solves the board whatever kinds are dealt, as long as both cells
of a pair get the same kind.  Which pairs share a kind is then free, and it decides how the level
plays. This module measures that and asks CP-SAT
(:func:`levelgen.linkup.solvers.cpsat_assign.solve_kind_assignment`, imported only when shaping
runs) for the assignment that suits a target.

What is measured, for a board dealt on an order:
- *start moves*: same-kind pairs of tiles linkable at the start (:func:`count_moves`); the
  planned first pairs are among them;
- *tempting pairings*: pairs of same-kind tiles that are not partners in the order but are
  both present and linkable at some step of it (before that step's pair goes).  Taking one
  changes how the kind pairs up, which may lead to a dead end: a cheap stand-in for "tempting
  wrong move" that needs no solver.  Each pair of tiles counts once.

Both depend on the kinds only through "pairs ``P`` and ``Q`` of the order share a kind", since
links between tiles depend on occupancy alone.  So the links are computed once on positions
(:func:`order_links`) and each measure is a weighted sum over pairs ``(P, Q)`` of the order.

Targets (lexicographic, the first measure dominates):
- ``"hard"``: fewest start moves, then most tempting pairings;
- ``"easy"``: most start moves, then fewest tempting pairings.

The result is reported against a seeded random deal (what the generator does without shaping).
Pure and deterministic: randomness only from ``random.Random(seed)``, CP-SAT with a fixed seed,
one worker and a deterministic time limit (``time_limit`` is a wall-clock guard for the edges).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from ..core.board import Board
from ..core.geometry import Pos
from ..core.moves import Move, legal_pairs
from ..core.reach import linkable_mask
from ..core.rules import Rules
from ..difficulty import count_moves
from .playout import deal

__all__ = [
    "DEFAULT_DETERMINISTIC_TIME",
    "TARGETS",
    "OrderLinks",
    "ShapeMeasure",
    "ShapeReport",
    "ShapedKinds",
    "count_tempting",
    "measure",
    "order_links",
    "shape_kinds",
]

Target = Literal["easy", "hard"]
TARGETS: tuple[str, ...] = ("easy", "hard")

#: CP-SAT deterministic time for one shaping: about a second of wall time for a 12x8 layout
#: on the 2-core benchmark machine.  Larger layouts need more (the model grows with the
#: number of pairs times the number of kinds).
DEFAULT_DETERMINISTIC_TIME = 0.6


@dataclass(frozen=True, slots=True)
class OrderLinks:
    """Links between the pairs of a removal order, on positions only.

    ``start_pairs``: pairs of the order linkable at the start (always same-kind moves).
    ``start[P, Q]`` (``P < Q``): links at the start between a tile of pair ``P`` and one of
    ``Q``.  ``tempting[P, Q]``: links between a tile of ``P`` and one of ``Q`` at some step of
    the order where both are present."""

    start_pairs: int
    start: dict[tuple[int, int], int]
    tempting: dict[tuple[int, int], int]

    def start_moves(self, kinds: Sequence[int]) -> int:
        """Start moves of the board dealing ``kinds[P]`` to pair ``P``."""
        return self.start_pairs + sum(n for (p, q), n in self.start.items() if kinds[p] == kinds[q])

    def tempting_pairings(self, kinds: Sequence[int]) -> int:
        """Tempting pairings of the board dealing ``kinds[P]`` to pair ``P``."""
        return sum(n for (p, q), n in self.tempting.items() if kinds[p] == kinds[q])


@dataclass(frozen=True, slots=True)
class ShapeMeasure:
    """Start moves and tempting pairings of one deal (see the module docstring)."""

    start_moves: int
    tempting: int


@dataclass(frozen=True, slots=True)
class ShapeReport:
    """How shaping went: the target, the measures of the seeded random deal (``before``) and of
    the shaped one (``after``), CP-SAT's status (``"optimal"``, ``"feasible"`` when the time
    limit stopped it, ``"unknown"`` when it found nothing and the random deal was kept), the
    model size and the deterministic time used."""

    target: str
    before: ShapeMeasure
    after: ShapeMeasure
    status: str
    variables: int
    constraints: int
    deterministic_time: float


@dataclass(frozen=True, slots=True)
class ShapedKinds:
    """A shaped deal: the board, the kind of each pair of the order, the order as moves with
    exact best paths (a solution of the board), and the report."""

    board: Board
    pair_kinds: tuple[int, ...]
    moves: tuple[Move, ...]
    report: ShapeReport


def _check_order(template: Board, rules: Rules, order: Sequence[tuple[Pos, Pos]]) -> None:
    """``ValueError`` unless ``order`` removes every tile slot of ``template`` once, two at a
    time, each pair linked (positions only) at its moment."""
    lay = template.layout
    occ = template.occupied_mask()
    free = template.free_mask(rules.outside)
    seen: set[Pos] = set()
    for i, (a, b) in enumerate(order):
        for p in (a, b):
            if not template.is_inside(p) or template[p] < 1:
                raise ValueError(f"order step {i}: {p} is not a tile slot of the template")
            if p in seen:
                raise ValueError(f"order step {i}: {p} was already removed")
            seen.add(p)
        if a == b:
            raise ValueError(f"order step {i}: both cells are {a}")
        src = 1 << lay.bit(a.x, a.y)
        dst = 1 << lay.bit(b.x, b.y)
        if not linkable_mask(src, free, dst, rules.max_turns, lay.stride):
            raise ValueError(f"order step {i}: {a} and {b} are not linked at that moment")
        occ &= ~(src | dst)
        free |= src | dst
    if occ:
        raise ValueError(f"the order leaves {occ.bit_count()} tile slots of the template")


def order_links(template: Board, rules: Rules, order: Sequence[tuple[Pos, Pos]]) -> OrderLinks:
    """The links of ``order`` on ``template`` (see :class:`OrderLinks`); ``ValueError`` when
    ``order`` is not a removal order of the template's slots.

    A link between two present tiles never breaks while both stay (monotonicity), so a pair of
    tiles is linkable at some step exactly when it is at the step removing the first of them:
    only the two tiles leaving at each step need their links computed."""
    _check_order(template, rules, order)
    lay = template.layout
    stride, k = lay.stride, rules.max_turns
    pair_of: dict[int, int] = {}
    for n, (a, b) in enumerate(order):
        pair_of[lay.bit(a.x, a.y)] = pair_of[lay.bit(b.x, b.y)] = n
    occ = template.occupied_mask()
    free = start_free = template.free_mask(rules.outside)

    def cross_links(bits: Sequence[int], occ: int, free: int) -> dict[tuple[int, int], int]:
        """Links from the tiles ``bits`` to the other tiles of ``occ`` outside their pair."""
        out: dict[tuple[int, int], int] = {}
        for bit in bits:
            hit = linkable_mask(1 << bit, free, occ & ~(1 << bit), k, stride)
            while hit:
                low = hit & -hit
                hit ^= low
                p, q = pair_of[bit], pair_of[low.bit_length() - 1]
                if p != q:
                    key = (p, q) if p < q else (q, p)
                    out[key] = out.get(key, 0) + 1
        return out

    start_twice = cross_links(sorted(pair_of), occ, free)  # each link seen from both ends
    start = {pq: n // 2 for pq, n in start_twice.items()}
    start_pairs = 0
    tempting: dict[tuple[int, int], int] = {}
    for a, b in order:
        src, dst = lay.bit(a.x, a.y), lay.bit(b.x, b.y)
        if linkable_mask(1 << src, start_free, 1 << dst, k, stride):
            start_pairs += 1
        for pq, count in cross_links((src, dst), occ, free).items():
            tempting[pq] = tempting.get(pq, 0) + count
        both = (1 << src) | (1 << dst)
        occ &= ~both
        free |= both
    return OrderLinks(start_pairs, start, tempting)


def count_tempting(board: Board, rules: Rules, order: Sequence[tuple[Pos, Pos]]) -> int:
    """Tempting pairings of ``board`` along ``order`` (see the module docstring), counted by
    replaying the order with every legal move listed at each step: independent of
    :func:`order_links`, which the tests check it against."""
    lay = board.layout
    partners = {frozenset((lay.bit(a.x, a.y), lay.bit(b.x, b.y))) for a, b in order}
    kind_masks = board.kind_masks()
    free = board.free_mask(rules.outside)
    seen: set[frozenset[int]] = set()
    for a, b in order:
        for x, y in legal_pairs(kind_masks.values(), free, rules.max_turns, lay.stride):
            pair = frozenset((x, y))
            if pair not in partners:
                seen.add(pair)
        gone = (1 << lay.bit(a.x, a.y)) | (1 << lay.bit(b.x, b.y))
        kind_masks = {k: m & ~gone for k, m in kind_masks.items()}
        free |= gone
    return len(seen)


def measure(board: Board, rules: Rules, order: Sequence[tuple[Pos, Pos]]) -> ShapeMeasure:
    """Start moves and tempting pairings of ``board`` along ``order``, measured by replay."""
    return ShapeMeasure(count_moves(board, rules), count_tempting(board, rules, order))


def _pair_counts(
    tiles: int, pair_counts: Sequence[int] | None, kinds: int | None, copies: int
) -> list[int]:
    """Pairs per kind: ``pair_counts`` as given, else ``kinds`` kinds (default
    ``tiles // copies``) of ``copies`` tiles each.  ``ValueError`` unless they add up to the
    ``tiles / 2`` pairs of the order."""
    if pair_counts is None:
        if copies < 2 or copies % 2:
            raise ValueError(f"copies must be even and at least 2, got {copies}")
        kinds = tiles // copies if kinds is None else kinds
        counts = [copies // 2] * kinds
    else:
        counts = list(pair_counts)
    if any(c < 1 for c in counts) or sum(counts) * 2 != tiles:
        raise ValueError(
            f"the kinds hold {2 * sum(counts)} tiles in pairs of at least 2 each, but the order"
            f" removes {tiles}"
        )
    return counts


def shape_kinds(
    template: Board,
    rules: Rules,
    order: Sequence[tuple[Pos, Pos]],
    *,
    target: Target,
    seed: int,
    pair_counts: Sequence[int] | None = None,
    kinds: int | None = None,
    copies: int = 4,
    max_deterministic_time: float = DEFAULT_DETERMINISTIC_TIME,
    time_limit: float | None = None,
) -> ShapedKinds:
    """Deal kinds to the pairs of ``order`` (a removal order of the slots of ``template``) so
    that the level suits ``target`` (``"easy"`` or ``"hard"``, see the module docstring).

    Kinds: ``pair_counts[k]`` pairs of kind ``k + 1``, or else ``kinds`` kinds (default
    ``tiles // copies``) of ``copies`` tiles each.  ``seed`` fixes the random deal the result is
    compared with (and which CP-SAT starts from) and the naming of kinds with equal counts.
    Returns the shaped board, the kind of each pair, the order as moves and the report; raises
    ``ValueError`` for a bad target, order or kind counts."""
    from ..solvers.cpsat_assign import solve_kind_assignment

    if target not in TARGETS:
        raise ValueError(f"target must be one of {', '.join(TARGETS)}, got {target!r}")
    links = order_links(template, rules, order)
    counts = _pair_counts(2 * len(order), pair_counts, kinds, copies)
    rng = random.Random(seed)
    baseline = [k for k, c in enumerate(counts, 1) for _ in range(c)]
    rng.shuffle(baseline)
    hard = target == "hard"
    answer = solve_kind_assignment(
        counts,
        [(links.start, not hard), (links.tempting, hard)],
        baseline,
        max_deterministic_time=max_deterministic_time,
        time_limit=time_limit,
    )
    shaped = _rename_equal_counts(answer.kinds, counts, rng)
    board, moves = deal(template, rules, order, shaped)
    before_board, _ = deal(template, rules, order, baseline)
    report = ShapeReport(
        target=target,
        before=measure(before_board, rules, order),
        after=measure(board, rules, order),
        status=answer.status,
        variables=answer.variables,
        constraints=answer.constraints,
        deterministic_time=round(answer.deterministic_time, 3),
    )
    return ShapedKinds(board, tuple(shaped), moves, report)


def _rename_equal_counts(
    kinds: Sequence[int], counts: Sequence[int], rng: random.Random
) -> list[int]:
    """Shuffle the names of kinds with equal counts: which of them the solver put where means
    nothing and may follow its branching order, which no player should read off the pictures."""
    rename: dict[int, int] = {}
    by_count: dict[int, list[int]] = {}
    for k, c in enumerate(counts, 1):
        by_count.setdefault(c, []).append(k)
    for group in by_count.values():
        shuffled = group[:]
        rng.shuffle(shuffled)
        rename.update(zip(group, shuffled, strict=True))
    return [rename[k] for k in kinds]
