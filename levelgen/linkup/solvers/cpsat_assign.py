"""Difficulty shaping's CP-SAT model: kinds for the pairs of a removal order.

:mod:`levelgen.linkup.generate.shaping` measures what it needs on positions and calls
:func:`solve_kind_assignment`; ortools is imported inside the functions only (as in
:mod:`levelgen.linkup.solvers.cpsat`, whose seed it shares), so importing this module costs nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .cpsat import SEED

if TYPE_CHECKING:  # pragma: no cover - typing only
    from ortools.sat.python import cp_model

__all__ = ["AssignmentModel", "KindAssignment", "Objective", "solve_kind_assignment"]


#: One objective of the kind assignment: weights of pairs ``(P, Q)`` of the order, and whether
#: the weighted count of same-kind pairs is to be maximised (else minimised).
Objective = tuple[dict[tuple[int, int], int], bool]


@dataclass(frozen=True, slots=True)
class KindAssignment:
    """The answer of :func:`solve_kind_assignment`.

    ``kinds[P]``: the kind (1-based) of pair ``P`` of the order.  ``values[i]``: objective
    ``i`` of ``kinds``, computed directly.  ``status``: ``"optimal"`` (every objective proved
    best in turn), ``"feasible"`` (a limit stopped a search; ``kinds`` is never worse than the
    hint), ``"unknown"`` (nothing found within the limits: ``kinds`` is the hint)."""

    kinds: tuple[int, ...]
    values: tuple[int, ...]
    status: str
    variables: int
    constraints: int
    deterministic_time: float


class AssignmentModel:
    """Kinds for the pairs of a removal order: ``kind[P][k]`` says pair ``P`` gets kind
    ``k + 1``; ``same[P, Q]`` that pairs ``P`` and ``Q`` share a kind (only for pairs some
    objective weighs).  ``same`` is tied to the kinds in each direction an objective could
    exploit: forced true for equal kinds where being true costs, allowed true only for equal
    kinds where it pays.  So the model's value of an objective is never better than the true
    one, and equal to it at an optimum."""

    def __init__(
        self, n_pairs: int, pair_counts: Sequence[int], objectives: Sequence[Objective]
    ) -> None:
        from ortools.sat.python import cp_model

        self.model = cp_model.CpModel()
        self.n_pairs = n_pairs
        self.pair_counts = list(pair_counts)
        self.objectives = list(objectives)
        self.kind = [
            [self.model.new_bool_var(f"kind_{p}_{k + 1}") for k in range(len(pair_counts))]
            for p in range(n_pairs)
        ]
        self.same: dict[tuple[int, int], Any] = {}
        for weights, _ in objectives:
            for p, q in weights:
                if (p, q) not in self.same:
                    self.same[(p, q)] = self.model.new_bool_var(f"same_{p}_{q}")
        self.add_one_kind_per_pair()
        self.add_kind_counts()
        self.add_same_kind_links()

    def add_one_kind_per_pair(self) -> None:
        for row in self.kind:
            self.model.add_exactly_one(row)

    def add_kind_counts(self) -> None:
        """Kind ``k + 1`` goes to exactly ``pair_counts[k]`` pairs."""
        for k, count in enumerate(self.pair_counts):
            self.model.add(sum(row[k] for row in self.kind) == count)

    def add_same_kind_links(self) -> None:
        """``same`` forced by equal kinds where it costs, implying them where it pays."""
        pays: dict[tuple[int, int], set[bool]] = {}
        for weights, maximize in self.objectives:
            for pq, w in weights.items():
                if w:
                    pays.setdefault(pq, set()).add((w > 0) == maximize)
        for (p, q), ways in pays.items():
            same = self.same[(p, q)]
            for k in range(len(self.pair_counts)):
                kp, kq = self.kind[p][k], self.kind[q][k]
                if True in ways:
                    self.model.add_bool_or([~same, ~kp, kq])
                if False in ways:
                    self.model.add_bool_or([same, ~kp, ~kq])

    def expression(self, i: int) -> Any:
        """The model's linear expression of objective ``i``."""
        weights, _ = self.objectives[i]
        return sum(w * self.same[pq] for pq, w in weights.items() if w)

    def value_of(self, i: int, kinds: Sequence[int]) -> int:
        """Objective ``i`` of an assignment, computed directly."""
        weights, _ = self.objectives[i]
        return sum(w for (p, q), w in weights.items() if kinds[p] == kinds[q])

    def is_better(self, i: int, a: Sequence[int], b: Sequence[int]) -> bool:
        """Whether ``a`` beats ``b`` lexicographically on objectives ``0 .. i``."""
        for j in range(i + 1):
            va, vb = self.value_of(j, a), self.value_of(j, b)
            if va != vb:
                return (va > vb) == self.objectives[j][1]
        return False

    def hint(self, kinds: Sequence[int]) -> None:
        for p, row in enumerate(self.kind):
            for k, lit in enumerate(row):
                self.model.add_hint(lit, kinds[p] == k + 1)
        for (p, q), lit in self.same.items():
            self.model.add_hint(lit, kinds[p] == kinds[q])

    def kinds_of(self, solver: cp_model.CpSolver) -> list[int]:
        return [
            1 + next(k for k, lit in enumerate(row) if solver.boolean_value(lit))
            for row in self.kind
        ]


def solve_kind_assignment(
    pair_counts: Sequence[int],
    objectives: Sequence[Objective],
    hint: Sequence[int],
    *,
    max_deterministic_time: float,
    time_limit: float | None = None,
) -> KindAssignment:
    """Assign a kind to each of the ``len(hint)`` pairs of a removal order, ``pair_counts[k]``
    pairs to kind ``k + 1``, optimising ``objectives`` lexicographically: each is solved in
    turn with the earlier ones held at their values.  ``hint``: a valid assignment to start
    from, returned when CP-SAT finds nothing better.  Deterministic: fixed seed, one worker,
    ``max_deterministic_time`` in all (each objective may use what the earlier ones left, and
    at least its share); ``time_limit`` (seconds, all objectives) is a wall-clock guard for the
    edges.  ``ValueError`` when ``hint`` does not match ``pair_counts``."""
    from ortools.sat.python import cp_model

    if sorted(hint) != [k for k, c in enumerate(pair_counts, 1) for _ in range(c)]:
        raise ValueError("the hint does not give each kind its number of pairs")
    best = list(hint)
    used_dtime = used_wall = 0.0
    statuses = []
    variables = constraints = 0
    for i, (_, maximize) in enumerate(objectives):
        # A fresh model per objective, holding only the links the objectives so far weigh:
        # measured, the links of later objectives slow the search for the earlier ones.
        am = AssignmentModel(len(hint), pair_counts, objectives[: i + 1])
        for j in range(i):
            value, target = am.expression(j), am.value_of(j, best)
            am.model.add(value >= target if objectives[j][1] else value <= target)
        if maximize:
            am.model.maximize(am.expression(i))
        else:
            am.model.minimize(am.expression(i))
        am.hint(best)
        solver = cp_model.CpSolver()
        params = solver.parameters
        params.random_seed = SEED
        params.num_workers = 1
        # Measured on 12x8 orders: without presolve and LP relaxation the search reaches
        # better assignments within the same deterministic time.
        params.cp_model_presolve = False
        params.linearization_level = 0
        left = max_deterministic_time - used_dtime
        params.max_deterministic_time = max(left / (len(objectives) - i), 1e-3)
        if time_limit is not None:
            params.max_time_in_seconds = max(time_limit - used_wall, 1e-3)
        status = solver.solve(am.model)
        used_dtime += solver.deterministic_time
        used_wall += solver.wall_time
        variables = max(variables, len(am.model.proto.variables))
        constraints = max(constraints, len(am.model.proto.constraints))
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            found = am.kinds_of(solver)
            if am.is_better(i, found, best):
                best = found
            statuses.append("optimal" if status == cp_model.OPTIMAL else "feasible")
        elif status == cp_model.UNKNOWN:
            statuses.append("unknown")
        elif status == cp_model.INFEASIBLE:
            raise AssertionError("the kind-assignment model rejected a valid assignment (a bug)")
        elif status == cp_model.MODEL_INVALID:
            raise AssertionError(
                f"CP-SAT rejected the kind-assignment model: {am.model.validate()}"
            )
        else:
            raise AssertionError(f"unexpected CP-SAT status {solver.status_name(status)}")
    overall = (
        "unknown"
        if all(s == "unknown" for s in statuses)
        else "optimal"
        if all(s == "optimal" for s in statuses)
        else "feasible"
    )
    return KindAssignment(
        kinds=tuple(best),
        values=tuple(
            sum(w for (p, q), w in weights.items() if best[p] == best[q])
            for weights, _ in objectives
        ),
        status=overall,
        variables=variables,
        constraints=constraints,
        deterministic_time=used_dtime,
    )
