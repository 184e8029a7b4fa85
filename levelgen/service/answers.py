"""The JSON answers of ``verify`` and ``solve`` for a document of any family, already read.

``verify_report`` gives exactly what ``levelgen verify --json`` prints for one file (the
report with ``exit_code`` and one verdict in ``files``, named ``request``), from the family's
own verdict, so that the two edges cannot drift apart.  ``solve_answer`` gives the solved
level, or the verdict that says why there is none (``unsolvable`` with its proof,
``undecided`` when the time ran out): verdicts, not errors.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..formats.reports import status_code, verdict_data
from ..puzzles import Family
from .cancel import task_budget

__all__ = ["REQUEST_NAME", "solve_answer", "verify_report"]

#: The ``file`` name of the verdict of a request body.
REQUEST_NAME = "request"


def verify_report(
    family: Family, document: Any, options: Mapping[str, Any], time_limit: float
) -> dict[str, Any]:
    """The ``verify --json`` report of ``document``: structure, replay, or the solver's verdict."""
    found = family.verify(document, prove=False, budget=task_budget(time_limit), options=options)
    data = verdict_data(REQUEST_NAME, found.status, found.text, found.problems, found.details)
    return {"exit_code": data["exit_code"], "files": [data]}


def solve_answer(
    family: Family, document: Any, options: Mapping[str, Any], time_limit: float
) -> dict[str, Any]:
    """``{"status": "solved", "level": {...}}`` with the certificate and metrics, or the verdict
    (``invalid``, ``unsolvable``, ``undecided``) with ``level`` null unless the family found
    a certificate it could not prove (a sliding puzzle's best solution), ``message``, the
    ``problems`` and ``deadlock`` (a Link-up board's deadlock core), then the family's own
    figures; ``exit_code`` as ``levelgen solve`` would exit.  The solved level is the one
    ``levelgen solve`` writes."""
    answer = family.solve(document, budget=task_budget(time_limit), options=options)
    status = "undecided" if answer.status == "unknown" else answer.status
    details = dict(answer.details)
    return {
        "status": status,
        "exit_code": status_code(status),
        "message": answer.text,
        "problems": [{"pointer": p.pointer, "reason": p.message} for p in answer.problems],
        "deadlock": details.pop("deadlock", []),
        "level": None if answer.document is None else family.dump(answer.document),
        **details,
    }
