"""Request bodies of the service's tasks: read as strictly as files, split into a document
and its options, and the document read by its family.

A document's body is the document itself (bare, as the browser players send it) or an
envelope ``{"level": ..., "game": ..., "time_limit": 5, ...}`` (``"position"`` for a hint or a
shuffle).  The envelope's ``game``, else the document's own (the default game when neither
names one), says which family reads it; its other fields are the operation's options: a
hint's are those its family declares (:attr:`levelgen.puzzles.Family.hint_options`), typed by
their kind.  A bare body is checked with the same strict reader as files (duplicate keys, NaN,
nesting, then the family's schema), and problems carry JSON pointers into the body
(``/level/board/rows/3`` inside an envelope); an unknown field is named (``/square``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..puzzles import CreateOption, OptionKind

if TYPE_CHECKING:
    from ..puzzles import Family

__all__ = [
    "COMMON_CREATE_OPTIONS",
    "FILL",
    "FIX",
    "HINT",
    "RATE",
    "SHUFFLE",
    "VERIFY",
    "DocumentOptions",
    "Limits",
    "Operation",
    "TaskResult",
    "family_task",
    "fast_json",
    "read_document",
]


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


COMMON_CREATE_OPTIONS = (
    CreateOption("size", "WxH", "Board size WxH (W columns by H rows), e.g. 12x8."),
    CreateOption("difficulty", "BAND", "Steer towards one of the game's bands, or a score 0..100."),
)


@dataclass(frozen=True, slots=True)
class Limits:
    """The service's limits that tasks apply: board side, default and longest time limit."""

    max_side: int = 64
    default_time: float = 5.0
    max_time: float = 30.0


@dataclass(frozen=True, slots=True)
class DocumentOptions:
    """The options found beside a document: the time limit (capped), the seed of a shuffle or
    a rating (None: the edge's), and the family's own options of the operation by name."""

    time_limit: float
    seed: int | None = None
    options: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Operation:
    """What an operation's body may hold: its document keys (an envelope ``{key: document,
    ...}``), whether a ``seed`` is taken, and the family's own options beside the document
    (``hint``: the family's declared hint options; ``fixed``: names passed through as given,
    checked by the family)."""

    name: str
    keys: tuple[str, ...]
    seed: bool = False
    hint: bool = False
    fixed: tuple[str, ...] = ()


VERIFY = Operation("verify", ("level",), fixed=("method",))
HINT = Operation("hint", ("position", "level"), hint=True)
SHUFFLE = Operation("shuffle", ("position", "level"), seed=True, fixed=("min_moves",))
RATE = Operation("rate", ("level",), seed=True)
FIX = Operation("fix", ("level",), fixed=("max_swaps",))
FILL = Operation("fill", ("level",), seed=True, fixed=("slots", "kinds"))
_OPERATIONS = {"level": VERIFY, "position": HINT}

#: The fields that make a body a file itself (a position file may embed its ``level``), not an
#: envelope around one.
_FILE_MARKS = ("format_version", "$schema", "board")


_LONG_DIGITS = re.compile(r"[0-9]{41}")
_INFINITIES = (float("inf"), float("-inf"))


def fast_json(text: str) -> object | None:
    """The JSON value of ``text`` when the strict reader
    (:func:`levelgen.formats.parse_json`) would accept it and give the same value, else None
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


def _envelope(
    value: object, operation: Operation, limits: Limits
) -> tuple[object, str, str | None, dict[str, Any], DocumentOptions] | TaskResult:
    """Split an envelope ``{key: document, game, time_limit, options...}`` (or a bare
    document) into the document, the pointer prefix of its problems, the game the envelope
    names (None: the document's), the family options still to check, and the options."""
    default = DocumentOptions(min(limits.default_time, limits.max_time))
    if not isinstance(value, dict) or any(mark in value for mark in _FILE_MARKS):
        return value, "", None, {}, default
    keys = [key for key in operation.keys if key in value]
    if not keys:
        return value, "", None, {}, default
    if len(keys) > 1:
        return _problem(422, f"/{keys[1]}", f"give one of {' or '.join(operation.keys)}")
    key = keys[0]
    game = value.get("game")
    if "game" in value and not isinstance(game, str):
        return _problem(422, "/game", f"expected the name of a game, got {game!r}")
    raw_limit = _time_limit(value.get("time_limit", limits.default_time))
    if isinstance(raw_limit, TaskResult):
        return raw_limit
    seed: int | None = None
    if operation.seed and "seed" in value:
        from ..formats import MAX_SEED

        raw = value["seed"]
        if isinstance(raw, bool) or not isinstance(raw, int) or not 0 <= raw <= MAX_SEED:
            return _problem(422, "/seed", f"expected a whole number in 0..{MAX_SEED}")
        seed = raw
    common = {key, "game", "time_limit", *(["seed"] if operation.seed else [])}
    rest = {name: v for name, v in value.items() if name not in common}
    options = DocumentOptions(min(float(raw_limit), limits.max_time), seed)
    return value[key], f"/{key}", game, rest, options


def _family_options(
    family: Family, operation: Operation, rest: dict[str, Any], key: str
) -> dict[str, Any] | TaskResult:
    """The family's own options of ``operation`` among the envelope's other fields, typed as
    the family declares them (:class:`~levelgen.puzzles.OptionKind`); a 422 naming the first
    field that is none of them, or of the wrong type."""
    declared: dict[str, CreateOption | None] = {name: None for name in operation.fixed}
    if operation.hint:
        declared.update({option.name: option for option in family.hint_options})
    unknown = sorted(set(rest) - set(declared))
    if unknown:
        common = [key, "game", "time_limit", *(["seed"] if operation.seed else [])]
        expected = ", ".join([*common, *declared])
        return _problem(
            422,
            f"/{unknown[0]}",
            f"unknown field (expected {expected}: the {operation.name} options of {family.name!r})",
        )
    options: dict[str, Any] = {}
    for name, raw in rest.items():
        option = declared[name]
        found = raw if option is None else _typed(option, raw)
        if isinstance(found, TaskResult):
            return found
        options[name] = found
    return options


def _typed(option: CreateOption, value: object) -> object:
    """``value`` as the family takes the option (a list of lines joined), or a 422 when a
    whole number, a boolean or a list of lines is of another JSON type (a text or JSON value
    is the family's to check: it names its own reason)."""
    kind = option.kind
    if kind is OptionKind.INT and (isinstance(value, bool) or not isinstance(value, int)):
        return _problem(422, f"/{option.name}", "expected a whole number")
    if kind is OptionKind.BOOL and not isinstance(value, bool):
        return _problem(422, f"/{option.name}", "expected true or false")
    if kind is OptionKind.LINES:
        if not isinstance(value, list) or not all(isinstance(line, str) for line in value):
            return _problem(422, f"/{option.name}", "expected a list of lines (strings)")
        return "".join(line + "\n" for line in value)
    return value


def _board_sides(value: object, prefix: str) -> list[tuple[str, int]]:
    """The width and height of a document's board (or of its level's board, for a position
    file that embeds its level), with their pointers; none when it has no such board."""
    if not isinstance(value, dict):
        return []
    board, where = value.get("board"), f"{prefix}/board"
    if not isinstance(board, dict) and isinstance(value.get("level"), dict):
        board, where = value["level"].get("board"), f"{prefix}/level/board"
    if not isinstance(board, dict):
        return []
    return [
        (f"{where}/{name}", side)
        for name in ("width", "height")
        if isinstance(side := board.get(name), int) and not isinstance(side, bool)
    ]


def _too_large(value: object, prefix: str, limits: Limits) -> TaskResult | None:
    """A 422 when the document's board is wider or taller than this service allows."""
    for pointer, side in _board_sides(value, prefix):
        if side > limits.max_side:
            return _problem(422, pointer, f"{side} is more than this service's {limits.max_side}")
    return None


def _format_problem(prefix: str, problems: Any) -> TaskResult:
    found = [(prefix + p.pointer, p.message) for p in problems]
    return _problem(422, found[0][0], found[0][1], found if len(found) > 1 else None)


def _read_family_document(
    value: object, prefix: str, game: str | None, limits: Limits
) -> tuple[Family, Any] | TaskResult:
    """The family of a body's document (the envelope's ``game``, else the document's; the
    default game when neither names one) and the document read by it, or a 422 problem with
    the pointer (``/game`` for an unknown game, or an envelope and a document that disagree)."""
    from ..puzzles import DocumentError, FamilyError, FamilySetupError, family, family_of

    try:
        if game is None:
            item = family_of(value)
        else:
            item = family(game)
            own = value.get("game") if isinstance(value, dict) else None
            if isinstance(own, str) and own != game:
                reason = f"the body names game {game!r}, its document {own!r}"
                return _problem(422, "/game", reason)
            if isinstance(value, dict) and "game" not in value:
                value = {"game": game, **value}  # the body says which game it is
        document = item.read(value)
    except DocumentError as exc:
        return _format_problem(prefix, exc.problems)
    except FamilySetupError:
        raise  # the server's setup, not the request: a 500 that the log explains
    except FamilyError as exc:
        return _problem(422, "/game", str(exc))
    large = _too_large(value, prefix, limits)
    if large is not None:
        return large
    return item, document


def read_document(
    body: bytes, limits: Limits, key: str = "level", operation: Operation | None = None
) -> tuple[Family, Any, DocumentOptions] | TaskResult:
    """The family and document of a body and its options, or a problem (400 for bytes that
    are not acceptable JSON, 422 with the pointer for everything else).  ``operation`` says
    what the body may hold besides the document (verify and solve by default; ``key``
    ``position``: a hint's)."""
    operation = operation or _OPERATIONS[key]
    what = "level file" if operation.keys == ("level",) else "position or level file"
    value = _parse_body(body, what)
    if isinstance(value, TaskResult):
        return value
    split = _envelope(value, operation, limits)
    if isinstance(split, TaskResult):
        return split
    document, prefix, game, rest, options = split
    found = _read_family_document(document, prefix, game, limits)
    if isinstance(found, TaskResult):
        return found
    item, read = found
    own = _family_options(item, operation, rest, prefix.lstrip("/") or "level")
    if isinstance(own, TaskResult):
        return own
    return item, read, DocumentOptions(options.time_limit, options.seed, own)


def family_task(
    body: bytes,
    limits: Limits,
    operation: Operation,
    run: Callable[[Family, Any, DocumentOptions], bytes],
) -> TaskResult:
    """The task of one family operation on the document in ``body``: the body read (as
    :func:`read_document`), the family's capability of the operation's name checked (422 at
    ``/game``), then ``run``'s answer.  What the family refuses is a 422: an option or a
    document at its place (:func:`_refused`), a level it cannot take at ``/game``."""
    read = read_document(body, limits, operation=operation)
    if isinstance(read, TaskResult):
        return read
    family, document, options = read
    from ..puzzles import Capability, DocumentError, FamilyError, SpecError

    if Capability(operation.name) not in family.capabilities:
        return _problem(422, "/game", f"game {family.name!r} has no {operation.name} operation")
    try:
        return TaskResult(200, run(family, document, options))
    except (SpecError, DocumentError) as exc:
        return _refused(exc)
    except FamilyError as exc:  # a family that lists the capability but refuses the level
        return _problem(422, "/game", str(exc))


def _refused(exc: Exception) -> TaskResult:
    """A 422 for an option the family refuses (``SpecError``: its field) or a document it
    cannot take (``DocumentError``: its pointers)."""
    from ..puzzles import SpecError

    if isinstance(exc, SpecError):
        return _problem(422, f"/{exc.option}", exc.reason)
    return _format_problem("", getattr(exc, "problems", ()))


def _time_limit(value: object) -> float | TaskResult:
    """A ``time_limit`` option: a number of seconds more than 0, or a 422."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return _problem(422, "/time_limit", "expected a number of seconds")
    if not value > 0:
        return _problem(422, "/time_limit", "must be more than 0 seconds")
    return float(value)
