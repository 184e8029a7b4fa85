"""The CPU work of the service: plain top-level functions over plain data, run in the pool.

Each task takes bytes or small values and returns a :class:`TaskResult`: either the answer's
JSON bytes (serialized here, in the worker, so the event loop only copies bytes) or a problem
(status, detail, pointer, problems) that the edge turns into a problem document.  Nothing here
raises for bad input; an exception out of a task is a bug (the service answers 500).

Request documents.  ``verify`` and ``solve`` take a level file as the body, either bare or in an
envelope ``{"level": {...}, "method": "auto", "time_limit": 5}``; a bare body is checked with the
same strict reader as files (duplicate keys, NaN, nesting, then the level schema) and problems
carry JSON pointers into the body (``/level/board/rows/3`` inside an envelope).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..puzzles import Family

__all__ = [
    "DocumentOptions",
    "Limits",
    "TaskResult",
    "create_time_limit",
    "read_document",
    "task_create",
    "task_hint",
    "task_player",
    "task_shuffle",
    "task_solve",
    "task_svg",
    "task_verify",
    "warm_up",
]

#: The solver methods a request may ask for: those of ``levelgen verify --method``.
METHODS = ("auto", "search", "cpsat", "exhaustive")


@dataclass(frozen=True, slots=True)
class TaskResult:
    """A task's outcome: ``body`` (JSON bytes) when ``status`` < 400, else a problem."""

    status: int
    body: bytes = b""
    detail: str = ""
    pointer: str = ""
    problems: list[tuple[str, str]] = field(default_factory=list)


def _dumps(value: object) -> bytes:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def _problem(
    status: int, pointer: str, reason: str, more: list[tuple[str, str]] | None = None
) -> TaskResult:
    detail = f"{pointer}: {reason}" if pointer else reason
    return TaskResult(status, detail=detail, pointer=pointer, problems=more or [])


def warm_up() -> int:
    """Import what the tasks need (run once in each worker at start)."""
    from ..linkup import warm_up as warm_up_linkup

    warm_up_linkup()
    return 0


@dataclass(frozen=True, slots=True)
class Limits:
    """The service's limits that tasks apply: board side, default and longest time limit."""

    max_side: int = 64
    default_time: float = 5.0
    max_time: float = 30.0


@dataclass(frozen=True, slots=True)
class DocumentOptions:
    """The options found beside a document: solver method, time limit (capped), and for a
    shuffle its seed (None: the edge's) and the legal moves it must leave."""

    method: str
    time_limit: float
    seed: int | None = None
    min_moves: int = 1


#: The options an envelope may carry, by envelope key.
_ENVELOPES = {
    "level": ("method", "time_limit"),
    "position": ("method", "time_limit", "seed", "min_moves"),
}


_LONG_DIGITS = re.compile(r"[0-9]{41}")
_INFINITIES = (float("inf"), float("-inf"))


def fast_json(text: str) -> object | None:
    """The JSON value of ``text`` when the strict reader
    (:func:`levelgen.linkup.files.parse_json`) would accept it and give the same value, else None
    (then the strict reader is run, for its exact reasons).  The strict reader calls Python
    for every number and walks every value; this one lets the C parser do the work and only
    watches for what the strict reader refuses: duplicate keys, NaN / Infinity, numbers too
    large, integers longer than 40 digits (a conservative text search), nesting too deep."""
    flagged = False

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        nonlocal flagged
        value = dict(items)
        if len(value) != len(items):
            flagged = True
        return value

    def constant(_name: str) -> None:
        nonlocal flagged
        flagged = True

    def number(literal: str) -> float:
        nonlocal flagged
        value = float(literal)
        if value in _INFINITIES:
            flagged = True
        return value

    if _LONG_DIGITS.search(text):
        return None
    try:
        value: object = json.loads(
            text, object_pairs_hook=pairs, parse_constant=constant, parse_float=number
        )
    except (ValueError, RecursionError):
        return None
    if flagged or _too_deep(value):
        return None
    return value


def _too_deep(value: object) -> bool:
    """True when an array or object sits at depth ``MAX_DEPTH`` or deeper (the root is 0)."""
    from ..formats import MAX_DEPTH

    stack: list[tuple[object, int]] = [(value, 0)]
    while stack:
        node, depth = stack.pop()
        children: Iterable[object]
        if isinstance(node, dict):
            children = node.values()
        elif isinstance(node, list):
            children = node
        else:
            continue
        if depth >= MAX_DEPTH:
            return True
        stack.extend((c, depth + 1) for c in children if isinstance(c, dict | list))
    return False


def _parse_body(body: bytes, what: str) -> object:
    """The JSON value of ``body`` (strict, as files are read), or a problem."""
    from ..formats import ReadError, parse_json

    try:
        text = body.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        return _problem(
            400, "", f"not UTF-8 text: byte 0x{body[exc.start]:02x} at offset {exc.start}"
        )
    if not text.strip():
        return _problem(400, "", f"the request body is empty: send a {what} as JSON")
    quick = fast_json(text)
    if quick is not None:
        return quick
    try:
        return parse_json(text, "request")
    except ReadError as exc:
        first = exc.problems[0]
        return _problem(400 if not first.pointer else 422, first.pointer, first.message)


def _int_option(value: dict[str, Any], name: str, low: int, high: int) -> int | TaskResult | None:
    if name not in value:
        return None
    raw = value[name]
    if isinstance(raw, bool) or not isinstance(raw, int) or not low <= raw <= high:
        return _problem(422, f"/{name}", f"expected a whole number in {low}..{high}")
    return raw


def _envelope(
    value: object, key: str, limits: Limits
) -> tuple[object, str, DocumentOptions] | TaskResult:
    """Split an envelope ``{key: document, options...}`` (or a bare document) into the
    document, the pointer prefix of its problems, and the options."""
    if not (isinstance(value, dict) and key in value and "board" not in value):
        return value, "", DocumentOptions("auto", min(limits.default_time, limits.max_time))
    allowed = _ENVELOPES[key]
    unknown = sorted(set(value) - {key, *allowed})
    if unknown:
        return _problem(
            422, f"/{unknown[0]}", f"unknown field (expected {key}, {', '.join(allowed)})"
        )
    method = value.get("method", "auto")
    if method not in METHODS:
        return _problem(422, "/method", f"expected one of {', '.join(METHODS)}")
    raw_limit = _time_limit(value.get("time_limit", limits.default_time))
    if isinstance(raw_limit, TaskResult):
        return raw_limit
    from ..linkup import MAX_SEED

    seed = _int_option(value, "seed", 0, MAX_SEED)
    min_moves = _int_option(value, "min_moves", 0, 64 * 64)
    for found in (seed, min_moves):
        if isinstance(found, TaskResult):
            return found
    options = DocumentOptions(
        method,
        min(float(raw_limit), limits.max_time),
        seed if isinstance(seed, int) else None,
        min_moves if isinstance(min_moves, int) else 1,
    )
    return value[key], f"/{key}", options


def _too_large(prefix: str, width: int, height: int, limits: Limits) -> TaskResult | None:
    for name, side in (("width", width), ("height", height)):
        if side > limits.max_side:
            reason = f"{side} is more than this service's {limits.max_side}"
            return _problem(422, f"{prefix}/board/{name}", reason)
    return None


def _format_problem(prefix: str, problems: Any) -> TaskResult:
    found = [(prefix + p.pointer, p.message) for p in problems]
    return _problem(422, found[0][0], found[0][1], found if len(found) > 1 else None)


def _read_family_document(
    value: object, prefix: str, limits: Limits
) -> tuple[Family, Any] | TaskResult:
    """The family of a body's document (its ``game``; Link-up when it names none) and the
    document read by it, or a 422 problem with the pointer (``/game`` for an unknown game)."""
    from ..puzzles import DocumentError, family_of

    try:
        family = family_of(value)
        document = family.read(value)
    except DocumentError as exc:
        return _format_problem(prefix, exc.problems)
    board = getattr(
        getattr(document, "position", None) or getattr(document, "level", None), "board", None
    )
    if family.name == "linkup" and board is not None:
        large = _too_large(prefix, board.width, board.height, limits)
        if large is not None:
            return large
    return family, document


def read_document(
    body: bytes, limits: Limits, key: str = "level"
) -> tuple[Family, Any, DocumentOptions] | TaskResult:
    """The family and document of a verify/solve body (``key`` ``position`` for hint and
    shuffle) and its options, or a problem (400 for bytes that are not acceptable JSON, 422
    with the pointer for everything else)."""
    what = "level file" if key == "level" else "position or level file"
    value = _parse_body(body, what)
    if isinstance(value, TaskResult):
        return value
    split = _envelope(value, key, limits)
    if isinstance(split, TaskResult):
        return split
    document, prefix, options = split
    found = _read_family_document(document, prefix, limits)
    if isinstance(found, TaskResult):
        return found
    return found[0], found[1], options


def _solver_options(family: Family, options: DocumentOptions) -> dict[str, Any]:
    """The solver method of a request, for the families that take one (Link-up)."""
    return {"method": options.method} if family.name == "linkup" else {}


def task_verify(body: bytes, limits: Limits) -> TaskResult:
    """``POST /v1/verify``: the CLI's ``verify --json`` report for the level in ``body``."""
    read = read_document(body, limits)
    if isinstance(read, TaskResult):
        return read
    family, document, options = read
    from .answers import verify_report

    report = verify_report(family, document, _solver_options(family, options), options.time_limit)
    verdict = report["files"][0]
    if verdict["status"] == "schema-invalid":
        problems = [(p["pointer"], p["reason"]) for p in verdict["problems"]]
        return _problem(
            422, problems[0][0], problems[0][1], problems if len(problems) > 1 else None
        )
    return TaskResult(200, _dumps(report))


def task_solve(body: bytes, limits: Limits) -> TaskResult:
    """``POST /v1/solve``: the level with a solution, or the verdict saying why not."""
    read = read_document(body, limits)
    if isinstance(read, TaskResult):
        return read
    family, document, options = read
    from .answers import solve_answer

    answer = solve_answer(family, document, _solver_options(family, options), options.time_limit)
    return TaskResult(200, _dumps(answer))


def task_hint(body: bytes, limits: Limits) -> TaskResult:
    """``POST /v1/hint``: the CLI's ``hint --json`` answer for the position in ``body``."""
    read = read_document(body, limits, "position")
    if isinstance(read, TaskResult):
        return read
    family, document, options = read
    from ..formats.reports import hint_data
    from ..puzzles import Capability, DocumentError
    from .cancel import task_budget

    if Capability.HINT not in family.capabilities:
        return _problem(422, "/game", f"game {family.name!r} has no hint operation")
    try:
        answer = family.hint(
            document,
            budget=task_budget(options.time_limit),
            options=_solver_options(family, options),
        )
    except DocumentError as exc:
        return _format_problem("", exc.problems)
    return TaskResult(200, _dumps(hint_data(answer.status, answer.text, answer.details)))


def task_shuffle(body: bytes, limits: Limits, drawn_seed: int) -> TaskResult:
    """``POST /v1/shuffle``: the CLI's ``shuffle --json`` answer for the position in
    ``body`` (``drawn_seed`` when the body names no seed; the answer says which)."""
    read = read_document(body, limits, "position")
    if isinstance(read, TaskResult):
        return read
    family, document, options = read
    if family.name != "linkup":
        return _problem(422, "/game", f"shuffle is a Link-up operation, not one of {family.name!r}")
    from ..linkup import is_variant, position_from_level, shuffle, shuffle_to_data, variant_shuffle
    from .cancel import task_budget as budget

    position = document.position or position_from_level(document.level)

    shuffler = variant_shuffle if is_variant(position.board, position.rules) else shuffle
    seed = options.seed if options.seed is not None else drawn_seed
    result = shuffler(
        position.board,
        position.rules,
        seed,
        min_moves=options.min_moves,
        budget=budget(options.time_limit),
    )
    return TaskResult(200, _dumps(shuffle_to_data(result)))


def _time_limit(value: object) -> float | TaskResult:
    """A ``time_limit`` option: a number of seconds more than 0, or a 422."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return _problem(422, "/time_limit", "expected a number of seconds")
    if not value > 0:
        return _problem(422, "/time_limit", "must be more than 0 seconds")
    return float(value)


def create_time_limit(body: bytes, max_time: float) -> float:
    """The seconds a create body allows (its ``time_limit``, capped by ``max_time``; the
    maximum when it gives none, or none that the task will accept: the task says why)."""
    try:
        value = json.loads(body)
    except (ValueError, RecursionError):
        return max_time
    found = _time_limit(value.get("time_limit", max_time)) if isinstance(value, dict) else 0
    return min(found, max_time) if isinstance(found, float) else max_time


def task_create(body: bytes, drawn_seed: int, max_side: int) -> TaskResult:
    """``POST /v1/levels``: the level of the create options in ``body`` (strict JSON, strict
    types: a JSON object whose ``game`` names the family, Link-up when absent, ``seed`` an
    integer, ``drawn_seed`` when absent, ``time_limit`` applied by the edge (it stops the task),
    and the family's own options), as the canonical bytes
    of its level file (:func:`levelgen.formats.format_json`: those ``levelgen create`` writes
    for the same options and seed); 422 naming the option (``/size``) when it cannot be
    met."""
    from ..formats import MAX_SEED, format_json
    from ..puzzles import Capability, CreateError, FamilyError, SpecError, family

    value = _parse_body(body, "create options object")
    if isinstance(value, TaskResult):
        return value
    if not isinstance(value, dict):
        return _problem(422, "", "expected a JSON object of create options")
    values = dict(value)
    if "time_limit" in values:  # applied by the edge, which stops the task
        limit = _time_limit(values.pop("time_limit"))
        if isinstance(limit, TaskResult):
            return limit
    game = values.pop("game", "linkup")
    if not isinstance(game, str):
        return _problem(422, "/game", f"expected the name of a game, got {game!r}")
    try:
        item = family(game)
    except FamilyError as exc:
        return _problem(422, "/game", str(exc))
    if Capability.CREATE not in item.capabilities:
        return _problem(422, "/game", f"game {game!r} has no create operation")
    seed = values.pop("seed", None)
    if seed is None:
        seed = drawn_seed
    elif isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        return _problem(422, "/seed", f"expected a whole number in 0..{MAX_SEED}")
    layout = values.get("layout")
    if game == "linkup" and layout is not None:
        if not isinstance(layout, list) or not all(isinstance(row, str) for row in layout):
            return _problem(422, "/layout", "expected a list of rows (strings)")
        values["layout"] = "".join(row + "\n" for row in layout)
    try:
        spec = item.parse_spec(values)
    except SpecError as exc:
        return _problem(422, f"/{exc.option}", exc.reason)
    if game == "linkup" and max(spec.size) > max_side:
        name = "size" if values.get("size") is not None else "layout"
        return _problem(422, f"/{name}", f"larger than this service's {max_side}x{max_side}")
    try:
        document = item.create(spec, seed)
    except CreateError as exc:
        return _problem(422, "", str(exc))
    return TaskResult(201, format_json(item.dump(document)).encode("utf-8"))


def _stored(level_text: str) -> tuple[Family, Any]:
    """The family and document of a level stored in the library (checked when stored)."""
    from ..puzzles import family_of

    data = json.loads(level_text)
    item = family_of(data)
    return item, item.read(data)


def task_svg(level_text: str, cell_size: int) -> TaskResult:
    """``GET /v1/levels/{id}.svg``: the picture of a stored level (its starting board)."""
    from ..formats.scene import scene_to_svg
    from ..puzzles import Capability

    item, document = _stored(level_text)
    if Capability.DRAW not in item.capabilities:
        return _problem(422, "", f"game {item.name!r} has no draw operation")
    scene = item.draw(document, cell_size=cell_size, options={})
    return TaskResult(200, scene_to_svg(scene).encode("utf-8"))


def task_player(level_text: str, api_base: str) -> TaskResult:
    """``GET /play/{id}``: the browser player page of a stored level, calling ``api_base``
    (``""``: the page's own origin) for hints (and Link-up's shuffles)."""
    from ..player import build_page
    from ..puzzles import Capability

    item, document = _stored(level_text)
    if Capability.PLAY not in item.capabilities:
        return _problem(422, "", f"game {item.name!r} has no player")
    page = build_page(item.player(document, with_api=True), api_base)
    return TaskResult(200, page.encode("utf-8"))
