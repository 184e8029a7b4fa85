"""Explanations of dead states (nogoods): what lets the search solver jump back over decisions
that played no part in a dead end (conflict-directed backjumping), and prune later states that
the same reason kills (:mod:`levelgen.linkup.solvers.search.nogoods`).

Glossary.  A *solution* of a state is an order of legal removals that empties it and pairs
tiles only inside their groups, never a forbidden pair.  A *fact* about a state is one of

* ``present(x)``: tile ``x`` is still there;
* ``gone(x)``: tile ``x`` has been removed;
* ``apart(x, y)``: tiles ``x`` and ``y`` of one kind cannot be partners: one of them is gone,
  or they are in different groups, or they are forbidden to pair.

An *explanation* (a *nogood*) is a set of facts such that **every** state in which they all
hold is dead: no solution.  Not only the state it was found at or the states below it: any
state of the same board, at any node of any run.  Each fact other than ``present`` becomes
true at some depth of the search path and stays true below it (going down only removes tiles,
splits groups and forbids pairs), and ``present`` facts hold at every ancestor of a node where
they hold, so an explanation found at a dead node holds at every ancestor from the deepest
depth among its facts (its *level*) down: those ancestors are all dead, and the search returns
straight to the node above that level, skipping the untried branches in between.  ``None``
stands for "no explanation" (the level is then the node's own depth: no jump).

Where explanations come from, and why each is one.

* The relaxation gets stuck with the set ``S`` of tiles it cannot clear
  (:func:`explain_stuck`).  For each ``s`` in ``S`` take the cells of its kind that ``s`` can
  link to through every cell except those of ``S`` (one link test each, exact: the fewer
  cells, the fewer facts, and the more states the explanation covers).  Each such tile ``m``
  is gone or apart from ``s`` (else ``s`` would have left).  Take any state ``Y`` where every
  tile of ``S`` is present and these facts hold, and suppose it had a solution.  Look at the
  first move of it that removes a tile ``s`` of ``S``, with its partner ``m``: every tile of
  ``S`` is still there, so the path's interior avoids ``S``, and ``m`` is present; so ``m`` is
  one of the tiles above, apart from ``s``, and the move pairs tiles that cannot be partners.
  So ``Y`` is dead: the facts are ``present(S)`` and those ``gone`` and ``apart`` facts.
* A group of four whose three pairings are all forbidden (:func:`explain_no_pairing`): with
  the four present, the other tiles of their kind gone and one pair of each pairing apart, a
  solution would pair the four among themselves along one of the three pairings.
* A node whose two branches ``(t, p)`` are both dead (:func:`resolve`).  Let ``Y`` be any
  state with every fact of both branch explanations rewritten as below, and suppose it had a
  solution ``σ``.  If ``σ`` pairs ``t`` with ``p``, drop that move from ``σ``, then the moves
  of each group the closure removed in the "partners" branch, in its order: what is left still
  solves the rest (by monotonicity, a move is still legal when fewer tiles are on the board),
  and every fact of that branch's explanation holds there, a contradiction.  For this, each
  removed group whose tiles the explanation names must be *pairing-closed* in ``σ``: its
  *reason* (every other tile of its kind is gone, or apart from every tile of the group)
  replaces the facts naming it, which are true once it is gone.  If ``σ`` does not pair ``t``
  with ``p``, the same holds for the "not partners" branch with ``apart(t, p)`` assumed; a group
  of four split by the search because a single pairing was left is split in ``σ`` too, for
  the reason that the four are present, the other tiles of their kind gone and one pair of
  each other pairing apart.  So the union of the two rewritten explanations explains the node,
  and each of its facts already held there.

Pure functions over plain ints, sets and tuples; the engine keeps the depths.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...core.board import iter_bits
from ...core.reach import link_reach

__all__ = [
    "Expl",
    "Removal",
    "Split",
    "Transition",
    "expl_level",
    "explain_no_pairing",
    "explain_stuck",
    "holds",
    "merge",
    "pair",
    "resolve",
]

Pair = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Expl:
    """An explanation: the tiles ``gone`` and ``present``, as masks, and the ``apart`` pairs,
    each written ``(low bit, high bit)``."""

    gone: int = 0
    apart: frozenset[Pair] = frozenset()
    present: int = 0


def pair(a: int, b: int) -> Pair:
    return (a, b) if a < b else (b, a)


@dataclass(frozen=True, slots=True)
class Removal:
    """The closure removed ``group`` (a mask): it was pairing-closed because the tiles
    ``gone_reason`` (the rest of its kind that had gone) were gone and the pairs
    ``apart_reason`` (each tile of the group with each other present tile of its kind) were
    apart."""

    group: int
    gone_reason: int
    apart_reason: frozenset[Pair]


@dataclass(frozen=True, slots=True)
class Split:
    """The group of four ``four`` was split, one pairing being left: the ``made`` pairs became
    apart because the four were present, the tiles ``gone_reason`` gone and the pairs
    ``apart_reason`` (forbidden) apart."""

    made: frozenset[Pair]
    gone_reason: int
    apart_reason: frozenset[Pair]
    four: int


@dataclass(slots=True)
class Transition:
    """What the search did to go from a node to one of its children: the decision (``tile``
    and ``partner`` made partners, or forbidden to pair), then ``events`` in order."""

    partners: bool
    tile: int
    partner: int
    events: list[Removal | Split] = field(default_factory=list)


def expl_level(
    expl: Expl | None,
    own: int,
    occ: int,
    gid: dict[int, int],
    removed_at: list[int],
    split_at: list[int],
    banned_at: dict[Pair, int],
) -> int:
    """The depth from which every fact of ``expl`` holds on the current path, ``expl`` holding
    in the current state (tiles ``occ``, groups ``gid``), given the depth at which each removed
    tile was removed, each tile last split from its group and each forbidden pair forbidden (0
    when it has no facts: the root is dead); ``own``, the dead node's depth, for ``None``.  An
    ``apart`` fact holds from the first depth at which one of its reasons did."""
    if expl is None:
        return own
    level = 0
    for x in iter_bits(expl.gone):
        if removed_at[x] > level:
            level = removed_at[x]
    for a, b in expl.apart:
        a_in, b_in = occ >> a & 1, occ >> b & 1
        if a_in and b_in:
            at = max(split_at[a], split_at[b]) if gid[a] != gid[b] else banned_at[a, b]
        elif a_in:
            at = removed_at[b]
        elif b_in:
            at = removed_at[a]
        else:
            at = min(removed_at[a], removed_at[b])
        if at > level:
            level = at
    return level


def explain_stuck(
    stuck: int,
    occ: int,
    gid: dict[int, int],
    forbid: dict[int, int],
    open_cells: int,
    kinds: dict[int, int],
    max_turns: int,
    stride: int,
) -> Expl | None:
    """The explanation of a state whose relaxation is stuck on the tiles ``stuck`` (a mask);
    ``open_cells`` are the cells a path may ever cross (board holes, the ring when allowed, and
    every tile's cell), ``kinds`` maps a tile to the cells of its kind.  Each stuck tile is
    tested once, through every open cell but the stuck ones; None if one of them links to a
    tile it may pair with (which would be a bug in the relaxation)."""
    gone = 0
    apart: set[Pair] = set()
    through = open_cells & ~stuck
    for t in iter_bits(stuck):
        seen = link_reach(1 << t, through, kinds[t], max_turns, stride)[0]
        present = seen & occ
        gone |= seen & ~occ
        for m in iter_bits(present):
            if gid[m] == gid[t] and not forbid[t] >> m & 1:
                return None
            apart.add(pair(t, m))
    return Expl(gone, frozenset(apart), stuck)


def explain_no_pairing(four: int, kind: int, occ: int, forbid: dict[int, int]) -> Expl:
    """The explanation of a group of four tiles (mask ``four``) whose pairings are all
    forbidden: the four are present, the other tiles of their ``kind`` (mask) gone, and the
    forbidden pairs apart."""
    tiles = list(iter_bits(four))
    banned = frozenset(
        (a, b) for i, a in enumerate(tiles) for b in tiles[i + 1 :] if forbid[a] >> b & 1
    )
    return Expl(kind & ~four & ~occ, banned, four)


def resolve(expl: Expl, step: Transition) -> Expl:
    """Rewrite the explanation of a dead child into facts that already held at its parent:
    the facts the transition ``step`` made true are replaced by their reasons, latest first,
    and the decision's own facts dropped (see the module docstring)."""
    gone, present = expl.gone, expl.present
    apart = set(expl.apart)
    decided = 1 << step.tile | 1 << step.partner
    for event in reversed(step.events):
        if isinstance(event, Removal):
            group = event.group
            if step.partners and group == decided:
                # The partners themselves: their facts are the decision's, dropped below.
                continue
            named = {q for q in apart if group >> q[0] & 1 or group >> q[1] & 1}
            if gone & group or named:
                gone = (gone & ~group) | event.gone_reason
                apart -= named
                apart |= event.apart_reason
        elif not apart.isdisjoint(event.made):
            apart -= event.made
            gone |= event.gone_reason
            apart |= event.apart_reason
            present |= event.four
    if step.partners:
        # The partners are gone in the child: facts naming them rest on the decision.
        gone &= ~decided
        apart = {q for q in apart if not (decided >> q[0] & 1 or decided >> q[1] & 1)}
    else:
        apart.discard(pair(step.tile, step.partner))
    return Expl(gone, frozenset(apart), present)


def holds(expl: Expl, occ: int, gid: dict[int, int], forbid: dict[int, int]) -> bool:
    """Whether every fact of ``expl`` is true in the state (tiles ``occ``, groups ``gid``,
    forbidden pairs ``forbid``)."""
    if expl.gone & occ or expl.present & ~occ:
        return False
    for a, b in expl.apart:
        if occ >> a & 1 and occ >> b & 1 and gid[a] == gid[b] and not forbid[a] >> b & 1:
            return False
    return True


def merge(a: Expl, b: Expl) -> Expl:
    """The union of two explanations."""
    return Expl(a.gone | b.gone, a.apart | b.apart, a.present | b.present)
