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
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "DocumentOptions",
    "TaskResult",
    "read_document",
    "task_create",
    "task_solve",
    "task_verify",
    "warm_up",
]

#: The solver methods a request may ask for.
METHODS = ("auto", "search", "cpsat")
_ENVELOPE_KEYS = {"level", "method", "time_limit"}


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
    from .. import generator, solvers, verify  # noqa: F401
    from ..cli import verify as cli_verify  # noqa: F401
    from ..schema import level  # noqa: F401

    return 0


@dataclass(frozen=True, slots=True)
class DocumentOptions:
    """The options found beside a document: solver method and time limit (capped)."""

    method: str
    time_limit: float


def read_document(
    body: bytes, *, max_side: int, default_time: float, max_time: float
) -> tuple[Any, DocumentOptions] | TaskResult:
    """The level file of a verify/solve body and its options, or a problem (400 for bytes
    that are not acceptable JSON, 422 with the pointer for everything else)."""
    from ..schema import LevelFormatError, parse_level_data
    from ..storage import ReadError, parse_json

    try:
        text = body.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        return _problem(400, "", f"not UTF-8 text: byte at offset {exc.start}")
    if not text.strip():
        return _problem(400, "", "the request body is empty: send a level file as JSON")
    try:
        value = parse_json(text, "request")
    except ReadError as exc:
        first = exc.problems[0]
        return _problem(400 if not first.pointer else 422, first.pointer, first.message)
    prefix = ""
    method, time_limit = "auto", default_time
    if isinstance(value, dict) and "level" in value and "board" not in value:
        unknown = sorted(set(value) - _ENVELOPE_KEYS)
        if unknown:
            return _problem(
                422, f"/{unknown[0]}", "unknown field (expected level, method, time_limit)"
            )
        method = value.get("method", "auto")
        if method not in METHODS:
            return _problem(422, "/method", f"expected one of {', '.join(METHODS)}")
        raw_limit = value.get("time_limit", default_time)
        if isinstance(raw_limit, bool) or not isinstance(raw_limit, int | float):
            return _problem(422, "/time_limit", "expected a number of seconds")
        if not raw_limit > 0:
            return _problem(422, "/time_limit", "must be more than 0 seconds")
        time_limit = float(raw_limit)
        prefix, value = "/level", value["level"]
    try:
        file = parse_level_data(value)
    except LevelFormatError as exc:
        found = [(prefix + p.pointer, p.message) for p in exc.problems]
        return _problem(422, found[0][0], found[0][1], found if len(found) > 1 else None)
    for name in ("width", "height"):
        side = getattr(file.board, name)
        if side > max_side:
            return _problem(
                422, f"{prefix}/board/{name}", f"{side} is more than this service's {max_side}"
            )
    return file, DocumentOptions(method, min(time_limit, max_time))


def task_verify(body: bytes, max_side: int, default_time: float, max_time: float) -> TaskResult:
    """``POST /v1/verify``: the CLI's ``verify --json`` report for the level in ``body``."""
    read = read_document(body, max_side=max_side, default_time=default_time, max_time=max_time)
    if isinstance(read, TaskResult):
        return read
    file, options = read
    from .answers import verify_report

    return TaskResult(200, _dumps(verify_report(file, options.method, options.time_limit)))


def task_solve(body: bytes, max_side: int, default_time: float, max_time: float) -> TaskResult:
    """``POST /v1/solve``: the level with a solution, or the verdict saying why not."""
    read = read_document(body, max_side=max_side, default_time=default_time, max_time=max_time)
    if isinstance(read, TaskResult):
        return read
    file, options = read
    from .answers import solve_answer

    return TaskResult(200, _dumps(solve_answer(file, options.method, options.time_limit)))


def task_create(spec: dict[str, Any], seed: int, max_side: int) -> TaskResult:
    """``POST /v1/levels``: the level of the create options ``spec`` (already typed) and
    ``seed``, as level file JSON; 422 naming the option (``/size``) when it cannot be met."""
    from ..create_spec import CreateSpec, SpecError, check_create_spec, create_level
    from ..generator import GenerationError
    from ..schema import LevelFile

    layout = spec.get("layout")
    if isinstance(layout, list):
        layout = "".join(line + "\n" for line in layout)
    try:
        checked = check_create_spec(
            CreateSpec(
                size=spec.get("size"),
                seed=seed,
                kinds=spec.get("kinds"),
                copies=spec.get("copies", 4),
                max_turns=spec.get("max_turns", 2),
                outside=spec.get("outside", True),
                layout=layout,
            )
        )
    except SpecError as exc:
        return _problem(422, f"/{exc.field}", exc.message)
    if max(checked.size) > max_side:
        field = "size" if spec.get("size") is not None else "layout"
        return _problem(422, f"/{field}", f"larger than this service's {max_side}x{max_side}")
    try:
        level = create_level(checked, seed)
    except GenerationError as exc:
        return _problem(422, "", str(exc))
    return TaskResult(201, _dumps(LevelFile.from_core(level).to_data()))
