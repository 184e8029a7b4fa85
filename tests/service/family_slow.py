"""Injected slow work and an injected bug for the service's tests: the *counting* family under
another name, ``slow``, whose goals say how it misbehaves.

- create with goal ``13``: raises (a bug: the service answers 500);
- create with a goal of 9000 or more: sleeps ``goal - 9000`` seconds first, in slices, never
  looking at any budget (as a long generation that cannot be interrupted);
- solve (and verify) of a level whose goal is 9000 or more: waits until its budget is spent
  (as a long search that polls its budget), then answers undecided.

Reached through ``LEVELGEN_FAMILIES=slow=tests.service.family_slow:SLOW`` (with the
repository on ``PYTHONPATH``), so that the service's worker processes see it too.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from levelgen.puzzles import Budget, Progress, SolveAnswer
from tests.family_counting import Counting, CountingFamily

REFERENCE = "slow=tests.service.family_slow:SLOW"
SLOW_GOAL = 9000
BUG_GOAL = 13


class SlowFamily(CountingFamily):
    name = "slow"
    title = "Slow counting"

    def create(self, spec: int, seed: int, progress: Progress | None = None) -> Counting:
        if spec == BUG_GOAL:
            raise RuntimeError("an injected bug")
        if spec >= SLOW_GOAL:
            end = time.monotonic() + (spec - SLOW_GOAL)
            while time.monotonic() < end:
                time.sleep(0.02)
            return Counting(0, spec, None)
        return super().create(spec, seed, progress)

    def solve(
        self, document: Counting, *, budget: Budget, options: Mapping[str, Any]
    ) -> SolveAnswer:
        if document.goal >= SLOW_GOAL:
            while not budget.spent():
                time.sleep(0.01)
            return SolveAnswer("unknown", "undecided within the budget")
        return super().solve(document, budget=budget, options=options)


SLOW = SlowFamily()


def wait_out_budget(seconds: float) -> str:
    """A task that polls its budget (as a search does) until it is spent or cancelled."""
    from levelgen.service.cancel import task_budget

    budget = task_budget(seconds)
    while not budget.spent():
        time.sleep(0.01)
    return "stopped"
