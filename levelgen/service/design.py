"""The tasks of ``POST /v1/fix`` and ``POST /v1/fill`` (a level editor's aids), run in the
pool like those of :mod:`levelgen.service.tasks`: the body read by the level's family, the
family's operation (:attr:`~levelgen.puzzles.Capability.FIX`,
:attr:`~levelgen.puzzles.Capability.FILL`) and its answer as JSON
(:func:`levelgen.formats.design.design_data`).  A game without the operation is refused
(422 at ``/game``); an option the family refuses is a 422 at its field (``/slots/2``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .bodies import FILL, FIX, DocumentOptions, Limits, TaskResult, _dumps, family_task
from .cancel import task_budget

if TYPE_CHECKING:
    from ..puzzles import DesignAnswer, Family

__all__ = ["FILL_SEED", "task_fill", "task_fix"]

#: The seed of a fill when the body names none.
FILL_SEED = 0


def task_fix(body: bytes, limits: Limits) -> TaskResult:
    """``POST /v1/fix``: the fewest changes found that make the level solvable."""

    def run(family: Family, document: Any, options: DocumentOptions) -> bytes:
        budget = task_budget(options.time_limit)
        answer = family.fix(document, budget=budget, options=options.options)
        return _design_bytes(family, answer)

    return family_task(body, limits, FIX, run)


def task_fill(body: bytes, limits: Limits) -> TaskResult:
    """``POST /v1/fill``: pieces put on the given empty cells so that the level is solvable
    (the body's ``seed``, default 0)."""

    def run(family: Family, document: Any, options: DocumentOptions) -> bytes:
        seed = options.seed if options.seed is not None else FILL_SEED
        budget = task_budget(options.time_limit)
        answer = family.fill(document, seed=seed, budget=budget, options=options.options)
        return _design_bytes(family, answer)

    return family_task(body, limits, FILL, run)


def _design_bytes(family: Family, answer: DesignAnswer) -> bytes:
    from ..formats.design import design_data

    level = None if answer.document is None else family.dump(answer.document)
    return _dumps(design_data(answer, level))
