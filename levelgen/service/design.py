"""The tasks of ``POST /v1/fix`` and ``POST /v1/fill`` (a level editor's aids), run in the
pool like those of :mod:`levelgen.service.tasks`: the body read by the level's family, the
family's operation (:attr:`~levelgen.puzzles.Capability.FIX`,
:attr:`~levelgen.puzzles.Capability.FILL`) and its answer as JSON
(:func:`levelgen.formats.design.design_data`).  A game without the operation is refused
(422 at ``/game``); an option the family refuses is a 422 at its field (``/slots/2``)."""

from __future__ import annotations

from .bodies import FILL, FIX, Limits, TaskResult, _dumps, _problem, _refused, read_document

__all__ = ["FILL_SEED", "task_fill", "task_fix"]

#: The seed of a fill when the body names none.
FILL_SEED = 0


def task_fix(body: bytes, limits: Limits) -> TaskResult:
    """``POST /v1/fix``: the fewest changes found that make the level solvable."""
    read = read_document(body, limits, operation=FIX)
    if isinstance(read, TaskResult):
        return read
    family, document, options = read
    from ..formats.design import design_data
    from ..puzzles import Capability, DocumentError, FamilyError, SpecError
    from .cancel import task_budget

    if Capability.FIX not in family.capabilities:
        return _problem(422, "/game", f"game {family.name!r} has no fix operation")
    try:
        answer = family.fix(
            document, budget=task_budget(options.time_limit), options=options.options
        )
    except (SpecError, DocumentError) as exc:
        return _refused(exc)
    except FamilyError as exc:
        return _problem(422, "/game", str(exc))
    level = None if answer.document is None else family.dump(answer.document)
    return TaskResult(200, _dumps(design_data(answer, level)))


def task_fill(body: bytes, limits: Limits) -> TaskResult:
    """``POST /v1/fill``: pieces put on the given empty cells so that the level is solvable
    (the body's ``seed``, default 0)."""
    read = read_document(body, limits, operation=FILL)
    if isinstance(read, TaskResult):
        return read
    family, document, options = read
    from ..formats.design import design_data
    from ..puzzles import Capability, DocumentError, FamilyError, SpecError
    from .cancel import task_budget

    if Capability.FILL not in family.capabilities:
        return _problem(422, "/game", f"game {family.name!r} has no fill operation")
    seed = options.seed if options.seed is not None else FILL_SEED
    try:
        answer = family.fill(
            document, seed=seed, budget=task_budget(options.time_limit), options=options.options
        )
    except (SpecError, DocumentError) as exc:
        return _refused(exc)
    except FamilyError as exc:
        return _problem(422, "/game", str(exc))
    level = None if answer.document is None else family.dump(answer.document)
    return TaskResult(200, _dumps(design_data(answer, level)))
