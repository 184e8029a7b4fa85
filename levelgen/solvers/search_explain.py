"""Explanations of dead states: what lets the search solver jump back over decisions that
played no part in a dead end (conflict-directed backjumping).

Glossary.  A state ``Y`` is *coarser* than a state ``X`` when it has every tile ``X`` has, each
of its groups is a union of groups of ``X``, and every pair forbidden inside a group of ``Y``
is forbidden in ``X``: it knows less.  Every node on the search path is coarser than the nodes
below it (going down only removes tiles, splits groups and forbids pairs).  A *fact* is one of

* ``gone(x)``: tile ``x`` has been removed;
* ``apart(x, y)``: tiles ``x`` and ``y`` of one kind are both present, in different groups;
* ``banned(x, y)``: ``x`` and ``y`` are present in one group and forbidden to pair.

An *explanation* of a dead state ``X`` is a set of facts true in ``X`` such that every state
coarser than ``X`` in which they all hold is dead too.  Each fact becomes true at some depth of
the search path and stays true below it, so an explanation holds at every ancestor from the
deepest depth among its facts (its *level*) down: those ancestors are all dead, and the search
returns straight to the node above that level, skipping the untried branches in between.
``None`` stands for "no explanation" (the level is then the node's own depth: no jump).

Where explanations come from, and why each is one.

* The relaxation gets stuck with the set ``S`` of tiles it cannot clear
  (:func:`explain_stuck`).  For each ``s`` in ``S`` take the cells of its kind that ``s`` can
  link to through every cell except those of ``S``; the relaxation's failed tests saw a
  superset of them.  Each such tile ``m`` is gone, apart from ``s`` or banned with it (else
  ``s`` would have left).  In a coarser state where these facts hold, the relaxation clears no
  tile of ``S`` either, by induction on its steps: its free cells never include ``S``, a link
  found through fewer free cells is found through more, and none of those ``m`` is a target.
* A group of four whose three pairings are all forbidden (:func:`explain_no_pairing`): the
  other tiles of its kind are gone and each pairing has a banned pair; in a coarser state with
  these facts the four tiles are still exactly one group with no pairing left.
* A node whose two branches ``(t, p)`` are both dead (:func:`resolve`).  Let ``Y`` be coarser
  than the node, with every fact of both branch explanations that was already true at the node.
  ``t`` and ``p`` are present and may pair in ``Y`` too.  If they are partners, removing them
  (and then the groups the closure removed, in its order) leaves a state coarser than the dead
  branch in which all its facts hold, so it is dead; and by monotonicity a state is dead when
  the state without a pairing-closed set of its tiles (a whole group, or decided partners) is
  dead, because a solution of the first one minus those moves solves the second.  A group the
  closure removed was pairing-closed because every other tile of its kind was gone or apart
  from it: those facts are its *reason*, and replace its ``gone`` facts.  If ``t`` and ``p``
  are not partners, the same holds with ``banned(t, p)``; a group of four split by the search
  because only one pairing was left is split in ``Y`` as well, for the reason that the other
  tiles of its kind are gone and the other pairings banned.  So the union of the two rewritten
  explanations explains the node.

Pure functions over plain ints, sets and tuples; the engine keeps the depths.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..board import iter_bits
from ..reach import link_reach

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
    """An explanation: the tiles ``gone``, as a mask, and the ``apart`` and ``banned`` pairs,
    each written ``(low bit, high bit)``."""

    gone: int = 0
    apart: frozenset[Pair] = frozenset()
    banned: frozenset[Pair] = frozenset()


def pair(a: int, b: int) -> Pair:
    return (a, b) if a < b else (b, a)


@dataclass(frozen=True, slots=True)
class Removal:
    """The closure removed ``group`` (a mask): it was pairing-closed because the tiles
    ``gone_reason`` (the rest of its kind that had gone) were gone and the pairs
    ``apart_reason`` (it and each other present tile of its kind) were apart."""

    group: int
    gone_reason: int
    apart_reason: frozenset[Pair]


@dataclass(frozen=True, slots=True)
class Split:
    """A group of four was split, one pairing being left: the ``made`` pairs became apart
    because the tiles ``gone_reason`` were gone and the pairs ``banned_reason`` banned."""

    made: frozenset[Pair]
    gone_reason: int
    banned_reason: frozenset[Pair]


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
    removed_at: list[int],
    split_at: list[int],
    banned_at: dict[Pair, int],
) -> int:
    """The depth from which every fact of ``expl`` holds on the current path (0 when it has
    none: the root is dead); ``own``, the dead node's depth, for ``None``."""
    if expl is None:
        return own
    level = 0
    for x in iter_bits(expl.gone):
        if removed_at[x] > level:
            level = removed_at[x]
    for a, b in expl.apart:
        at = max(split_at[a], split_at[b])
        if at > level:
            level = at
    for p in expl.banned:
        at = banned_at[p]
        if at > level:
            level = at
    return level


def explain_stuck(
    stuck: int,
    stuck_seen: dict[int, int],
    occ: int,
    gid: dict[int, int],
    forbid: dict[int, int],
    open_cells: int,
    kinds: dict[int, int],
    max_turns: int,
    stride: int,
) -> Expl | None:
    """The explanation of a state whose relaxation is stuck on the tiles ``stuck`` (a mask):
    ``stuck_seen`` maps each stuck tile
    to the cells of its kind its last failed test saw, ``open_cells`` are the cells a path may
    ever cross (board holes, the ring when allowed, and every tile's cell).  A tile that was
    seen but is present and may pair is tested again exactly through every cell but the stuck
    ones; None if it still links (which would be a bug in the relaxation)."""
    gone = 0
    apart: set[Pair] = set()
    banned: set[Pair] = set()
    for t, seen in stuck_seen.items():
        present = seen & occ
        if present and any(gid[m] == gid[t] and not forbid[t] >> m & 1 for m in iter_bits(present)):
            seen = link_reach(1 << t, open_cells & ~stuck, kinds[t], max_turns, stride)[0]
            present = seen & occ
        gone |= seen & ~occ
        for m in iter_bits(present):
            if gid[m] != gid[t]:
                apart.add(pair(t, m))
            elif forbid[t] >> m & 1:
                banned.add(pair(t, m))
            else:
                return None
    return Expl(gone, frozenset(apart), frozenset(banned))


def explain_no_pairing(four: int, kind: int, occ: int, forbid: dict[int, int]) -> Expl:
    """The explanation of a group of four tiles (mask ``four``) whose pairings are all
    forbidden: the other tiles of its ``kind`` (mask) are gone, and the forbidden pairs."""
    tiles = list(iter_bits(four))
    banned = frozenset(
        (a, b) for i, a in enumerate(tiles) for b in tiles[i + 1 :] if forbid[a] >> b & 1
    )
    return Expl(kind & ~four & ~occ, frozenset(), banned)


def resolve(expl: Expl, step: Transition) -> Expl:
    """Rewrite the explanation of a dead child into facts that already held at its parent:
    the facts the transition ``step`` made true are replaced by their reasons, latest first,
    and the decision's own facts dropped (see the module docstring)."""
    gone = expl.gone
    apart = set(expl.apart)
    banned = set(expl.banned)
    decided = 1 << step.tile | 1 << step.partner
    for event in reversed(step.events):
        if isinstance(event, Removal):
            if step.partners and event.group == decided:
                # The partners themselves: their facts are the decision's, dropped below.
                continue
            if gone & event.group:
                gone = (gone & ~event.group) | event.gone_reason
                apart |= event.apart_reason
        elif not apart.isdisjoint(event.made):
            apart -= event.made
            gone |= event.gone_reason
            banned |= event.banned_reason
    if step.partners:
        # The partners are gone in the child: facts naming them (a group removed before them
        # was apart from them) rest on the decision too.
        gone &= ~decided
        apart = {q for q in apart if not (decided >> q[0] & 1 or decided >> q[1] & 1)}
    else:
        banned.discard(pair(step.tile, step.partner))
    return Expl(gone, frozenset(apart), frozenset(banned))


def holds(expl: Expl, occ: int, gid: dict[int, int], forbid: dict[int, int]) -> bool:
    """Whether every fact of ``expl`` is true in the state (for tests)."""
    return (
        not expl.gone & occ
        and all(occ >> a & 1 and occ >> b & 1 and gid[a] != gid[b] for a, b in expl.apart)
        and all(
            occ >> a & 1 and occ >> b & 1 and gid[a] == gid[b] and forbid[a] >> b & 1
            for a, b in expl.banned
        )
    )


def merge(a: Expl, b: Expl) -> Expl:
    """The union of two explanations."""
    return Expl(a.gone | b.gone, a.apart | b.apart, a.banned | b.banned)
