"""Link-up's ``fix`` and ``fill`` operations of the family table: options checked, the core
searches run (:mod:`.fix`, :mod:`.fill`), and the answers with their levels and figures.

A fix reads a level (no solution, id or generator needed); a kind with an odd count makes it
``invalid`` with the reader's problems (swaps keep every count).  A fill reads a level whose
board may be drawn in part: odd counts and other content problems are what it is there to
mend, so only a position file is refused.  Both levels written carry their certificate
(replayed), their metrics and a generator block naming ``levelgen-fix`` or ``levelgen-fill``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ...formats.budget import Budget
from ...formats.problems import Problem
from ...formats.version import VERSION
from ...puzzles import DesignAnswer, DocumentError, SpecError

if TYPE_CHECKING:
    from ..core.level import Level
    from ..document import LinkupDocument

__all__ = ["GENERATOR_FILL", "GENERATOR_FIX", "MAX_FILL_KINDS", "fill_answer", "fix_answer"]

GENERATOR_FIX = "levelgen-fix"
GENERATOR_FILL = "levelgen-fill"
#: The most kinds a fill may be asked to use.
MAX_FILL_KINDS = 4096

_NOT_A_LEVEL = "a position file, not a level file: fix and fill read a level file"


def _level_of(document: LinkupDocument) -> Level:
    """The document's level: a position file is not one (read as schema-invalid, as by
    ``verify``), a level whose solution cannot be read is invalid with its problems."""
    if document.position is not None:
        raise DocumentError([Problem("", _NOT_A_LEVEL)])
    if document.level is None:
        raise DocumentError(document.problems, is_format=False)
    return document.level


def _whole(options: Mapping[str, Any], name: str, low: int, high: int, default: int) -> int:
    value = options.get(name, default)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise SpecError(name, f"expected a whole number in {low}..{high}")
    return value


def _variant_refused(exc: ValueError, operation: str) -> SpecError:
    return SpecError("level", f"{operation} takes a classic board: {exc}")


def fix_answer(
    document: LinkupDocument, *, budget: Budget, options: Mapping[str, Any]
) -> DesignAnswer:
    """The fewest swaps found within ``budget`` (:func:`.fix.find_fix`); ``options``:
    ``max_swaps`` (default 4)."""
    from ..core.level import GeneratorInfo, Level
    from ..difficulty import solution_metrics
    from .fix import DEFAULT_MAX_SWAPS, MAX_MAX_SWAPS, find_fix

    unknown = sorted(set(options) - {"max_swaps"})
    if unknown:
        raise SpecError(unknown[0], "not an option of linkup's fix (its options: max_swaps)")
    max_swaps = _whole(options, "max_swaps", 0, MAX_MAX_SWAPS, DEFAULT_MAX_SWAPS)
    level = _level_of(document)
    empty = {"swaps": [], "count": 0, "fewer_ruled_out": False}
    if document.problems:
        text = "invalid: " + "; ".join(str(p) for p in document.problems[:3])
        return DesignAnswer("invalid", text, None, empty, document.problems)
    try:
        result = find_fix(level.board, level.rules, budget, max_swaps=max_swaps)
    except ValueError as exc:
        raise _variant_refused(exc, "fix") from None
    swaps = [[[a.x, a.y], [b.x, b.y]] for a, b in result.swaps]
    details = {"swaps": swaps, "count": len(swaps), "fewer_ruled_out": result.fewer_ruled_out}
    if result.status == "invalid":
        problems = (Problem("/board/rows", result.reason),)
        return DesignAnswer("invalid", f"invalid: {result.reason}", None, details, problems)
    if result.board is None:
        return DesignAnswer(result.status, f"no fix found: {result.reason}", None, details)
    if result.status == "solvable":
        text = f"solvable as it is: a solution of {len(result.solution)} steps, no swap needed"
        provenance = level.generator
    else:
        text = f"fixed: {result.reason}"
        provenance = GeneratorInfo(GENERATOR_FIX, VERSION, None, {"swaps": len(swaps)})
    fixed = Level(
        result.board,
        level.rules,
        result.solution,
        solution_metrics(result.board, level.rules, result.solution),
        provenance,
    )
    from ..document import LinkupDocument

    return DesignAnswer(result.status, text, LinkupDocument(fixed), details)


def _slots(value: object) -> list[tuple[int, int]]:
    """The ``slots`` option as cells; :class:`SpecError` naming the first bad item."""
    if not isinstance(value, list | tuple):
        raise SpecError("slots", "expected a list of [x, y] cells")
    cells = []
    for i, item in enumerate(value):
        if (
            not isinstance(item, list | tuple)
            or len(item) != 2
            or any(isinstance(v, bool) or not isinstance(v, int) for v in item)
        ):
            raise SpecError(f"slots/{i}", "expected a cell [x, y] of two whole numbers")
        cells.append((int(item[0]), int(item[1])))
    return cells


def fill_answer(
    document: LinkupDocument, *, seed: int, budget: Budget, options: Mapping[str, Any]
) -> DesignAnswer:
    """Kinds put on the ``slots`` (:func:`.fill.fill_slots`); ``options``: ``slots`` (a list
    of ``[x, y]``) and ``kinds`` (default: :func:`.fill.default_kinds`)."""
    from ..core.level import GeneratorInfo, Level
    from ..difficulty import solution_metrics
    from .fill import FillError, fill_slots

    unknown = sorted(set(options) - {"slots", "kinds"})
    if unknown:
        raise SpecError(unknown[0], "not an option of linkup's fill (its options: slots, kinds)")
    if "slots" not in options:
        raise SpecError("slots", "give the empty cells to fill, a list of [x, y]")
    slots = _slots(options["slots"])
    kinds = options.get("kinds")
    if kinds is not None:
        kinds = _whole(options, "kinds", 1, MAX_FILL_KINDS, 1)
    level = _level_of(document)
    try:
        result = fill_slots(level.board, level.rules, slots, seed=seed, budget=budget, kinds=kinds)
    except FillError as exc:
        raise SpecError(exc.pointer.lstrip("/"), exc.reason) from None
    except ValueError as exc:
        raise _variant_refused(exc, "fill") from None
    placed = [{"at": [p.x, p.y], "kind": kind} for p, kind in result.placed]
    details = {"placed": placed, "seed": seed}
    if result.board is None:
        return DesignAnswer(result.status, f"no fill found: {result.reason}", None, details)
    parameters: dict[str, object] = {"slots": len(slots)}
    if kinds is not None:
        parameters["kinds"] = kinds
    filled = Level(
        result.board,
        level.rules,
        result.solution,
        solution_metrics(result.board, level.rules, result.solution),
        GeneratorInfo(GENERATOR_FILL, VERSION, seed, parameters),
    )
    from ..document import LinkupDocument

    return DesignAnswer("filled", f"filled: {result.reason}", LinkupDocument(filled), details)
