"""The CPU work of the service: plain top-level functions over plain data, run in the pool.

Each task takes bytes or small values and returns a :class:`TaskResult`: either the answer's
JSON bytes (serialized here, in the worker, so the event loop only copies bytes) or a problem
(status, detail, pointer, problems) that the edge turns into a problem document.  Nothing here
raises for bad input; an exception out of a task is a bug (the service answers 500).  Every
game goes through its family (:mod:`levelgen.puzzles`); the bodies are read by
:mod:`levelgen.service.bodies`.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from ..formats.reports import hint_data
from .bodies import (
    COMMON_CREATE_OPTIONS,
    HINT,
    RATE,
    SHUFFLE,
    DocumentOptions,
    Limits,
    TaskResult,
    _board_sides,
    _dumps,
    _format_problem,
    _problem,
    _refused,
    _time_limit,
    _typed,
    family_task,
    fast_json,
    read_document,
)
from .bodies import _parse_body as _parse_body  # the pack route reads its body with it
from .cancel import task_budget

if TYPE_CHECKING:
    from ..puzzles import Family

__all__ = [
    "DocumentOptions",
    "Limits",
    "TaskResult",
    "create_time_limit",
    "fast_json",
    "read_document",
    "task_admit",
    "task_create",
    "task_editor",
    "task_hint",
    "task_player",
    "task_rate",
    "task_shuffle",
    "task_solve",
    "task_svg",
    "task_verify",
    "warm_up",
]


def warm_up() -> int:
    """Import what the tasks need (run once in each worker at start): the default game's
    family, and what it names as its own warm-up (a ``warm_up()`` method, when it has one)."""
    from ..puzzles import DEFAULT_GAME, family

    hook = getattr(family(DEFAULT_GAME), "warm_up", None)
    if callable(hook):
        hook()
    return 0


#: The create options every family that creates takes, besides ``game``, ``seed`` and
#: ``time_limit``: ``size`` (``WxH``, or the family's own form) and ``difficulty`` (a band of
#: the game, or a score).
def task_verify(body: bytes, limits: Limits) -> TaskResult:
    """``POST /v1/verify``: the CLI's ``verify --json`` report for the level in ``body``."""
    from ..puzzles import DocumentError, SpecError

    read = read_document(body, limits)
    if isinstance(read, TaskResult):
        return read
    family, document, options = read
    from .answers import verify_report

    try:
        report = verify_report(family, document, options.options, options.time_limit)
    except (SpecError, DocumentError) as exc:
        return _refused(exc)
    verdict = report["files"][0]
    if verdict["status"] == "schema-invalid":
        problems = [(p["pointer"], p["reason"]) for p in verdict["problems"]]
        return _problem(
            422, problems[0][0], problems[0][1], problems if len(problems) > 1 else None
        )
    return TaskResult(200, _dumps(report))


def task_solve(body: bytes, limits: Limits) -> TaskResult:
    """``POST /v1/solve``: the level with a solution, or the verdict saying why not."""
    from ..puzzles import DocumentError, SpecError

    read = read_document(body, limits)
    if isinstance(read, TaskResult):
        return read
    family, document, options = read
    from .answers import solve_answer

    try:
        answer = solve_answer(family, document, options.options, options.time_limit)
    except (SpecError, DocumentError) as exc:
        return _refused(exc)
    return TaskResult(200, _dumps(answer))


def task_hint(body: bytes, limits: Limits) -> TaskResult:
    """``POST /v1/hint``: the CLI's ``hint --json`` answer for the position in ``body``, with
    the hint options its family declares (``hint_options``) taken from the envelope."""

    def run(family: Family, document: Any, options: DocumentOptions) -> bytes:
        budget = task_budget(options.time_limit)
        answer = family.hint(document, budget=budget, options=options.options)
        return _dumps(hint_data(answer.status, answer.text, answer.details))

    return family_task(body, limits, HINT, run)


def task_shuffle(body: bytes, limits: Limits, drawn_seed: int) -> TaskResult:
    """``POST /v1/shuffle``: the CLI's ``shuffle --json`` answer for the position in
    ``body`` (``drawn_seed`` when the body names no seed; the answer says which), for a
    family that shuffles (:attr:`~levelgen.puzzles.Capability.SHUFFLE`)."""

    def run(family: Family, document: Any, options: DocumentOptions) -> bytes:
        seed = options.seed if options.seed is not None else drawn_seed
        budget = task_budget(options.time_limit)
        answer = family.shuffle(document, seed=seed, budget=budget, options=options.options)
        return _dumps(hint_data(answer.status, answer.text, answer.details))

    return family_task(body, limits, SHUFFLE, run)


#: The seed of a rating when the body names none (that of ``levelgen rate``).
RATE_SEED = 0


def task_rate(body: bytes, limits: Limits) -> TaskResult:
    """``POST /v1/rate``: the level in ``body`` with its difficulty block
    (``metrics.difficulty``: ``score`` 0..100, ``band``, ``measures``), measured by its family
    (:attr:`~levelgen.puzzles.Capability.RATE`) with the body's ``seed`` (default 0)."""

    def run(family: Family, document: Any, options: DocumentOptions) -> bytes:
        from ..formats import format_json

        rated = family.rate(document, seed=options.seed if options.seed is not None else RATE_SEED)
        return format_json(family.dump(rated)).encode("utf-8")

    return family_task(body, limits, RATE, run)


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
    types: a JSON object whose ``game`` names the family, the default game when absent, ``seed`` an
    integer, ``drawn_seed`` when absent, ``time_limit`` applied by the edge (it stops the task),
    and the family's own options), as the canonical bytes
    of its level file (:func:`levelgen.formats.format_json`: those ``levelgen create`` writes
    for the same options and seed); 422 naming the option (``/size``) when it cannot be
    met."""
    from ..formats import MAX_SEED, format_json
    from ..puzzles import (
        DEFAULT_GAME,
        Capability,
        CreateError,
        FamilyError,
        FamilySetupError,
        SpecError,
        family,
    )

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
    game = values.pop("game", DEFAULT_GAME)
    if not isinstance(game, str):
        return _problem(422, "/game", f"expected the name of a game, got {game!r}")
    try:
        item = family(game)
    except FamilySetupError:
        raise
    except FamilyError as exc:
        return _problem(422, "/game", str(exc))
    if Capability.CREATE not in item.capabilities:
        return _problem(422, "/game", f"game {game!r} has no create operation")
    seed = values.pop("seed", None)
    if seed is None:
        seed = drawn_seed
    elif isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        return _problem(422, "/seed", f"expected a whole number in 0..{MAX_SEED}")
    for option in (*COMMON_CREATE_OPTIONS, *item.create_options):
        if values.get(option.name, 0) is None:
            del values[option.name]  # null: the option's default
        elif option.name in values:
            typed = _typed(option, values[option.name])
            if isinstance(typed, TaskResult):
                return typed
            values[option.name] = typed
    large = _size_too_large(values.get("size"), max_side)
    if large is not None:
        return large
    try:
        spec = item.parse_spec(values)
    except SpecError as exc:
        return _problem(422, f"/{exc.option}", exc.reason)
    try:
        document = item.create(spec, seed)
    except CreateError as exc:
        return _problem(422, "", str(exc))
    data = item.dump(document)
    for _pointer, side in _board_sides(data, ""):
        if side > max_side:  # a size the options gave otherwise (a layout's rows)
            given = [o.name for o in item.create_options if o.name in values]
            name = next((n for n in given if n != "size"), "size")
            reason = f"makes a board {side} wide or tall, more than this service's {max_side}"
            return _problem(422, f"/{name}", reason)
    return TaskResult(201, format_json(data).encode("utf-8"))


def _size_too_large(size: object, max_side: int) -> TaskResult | None:
    """A 422 at ``/size`` when a ``WxH`` size is wider or taller than this service allows
    (any other value is the family's to check)."""
    width, sep, height = size.partition("x") if isinstance(size, str) else ("", "", "")
    if sep and width.isdigit() and height.isdigit() and max(int(width), int(height)) > max_side:
        return _problem(422, "/size", f"larger than this service's {max_side}x{max_side}")
    return None


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
    (``""``: the page's own origin) for hints (and shuffles, where the game has them)."""
    from ..player import build_page
    from ..puzzles import Capability

    item, document = _stored(level_text)
    if Capability.PLAY not in item.capabilities:
        return _problem(422, "", f"game {item.name!r} has no player")
    page = build_page(item.player(document, with_api=True), api_base)
    return TaskResult(200, page.encode("utf-8"))


def task_editor(game: str, level_text: str | None, api_base: str) -> TaskResult:
    """``GET /edit/{game}``: the editor page of ``game`` (404 when it has none), opened on
    ``level_text`` (the file ``levelgen edit FILE`` opened, when of this game) or a new level,
    calling ``api_base`` (``""``: the page's own origin)."""
    from ..player.editor import build_editor_html, editor_games
    from ..puzzles import Capability, FamilyError, families, family

    try:
        item = family(game)
    except FamilyError:
        return _problem(404, "", f"no game {game!r}")
    if Capability.EDIT not in item.capabilities:
        return _problem(404, "", f"game {game!r} has no editor")
    document = None
    if level_text is not None:
        data = json.loads(level_text)
        if isinstance(data, dict) and data.get("game") == item.name:
            document = item.read(data)
    games = editor_games(list(families().values()))
    page = build_editor_html(item, document, games=games, api_base=api_base)
    return TaskResult(200, page.encode("utf-8"))


def task_admit(level_id: str, body: bytes) -> TaskResult:
    """``PUT /v1/levels/{id}``: the level in ``body`` as the library stores it (its canonical
    JSON), when it is a valid level of any game whose certificate replays and whose ``id`` is
    ``level_id``; else a 422 naming the place (400 for a body that is not JSON)."""
    from ..library.admission import admit

    value = _parse_body(body, "level file")
    if isinstance(value, TaskResult):
        return value
    found = admit(value)
    if found.data is None:
        return _format_problem("", found.problems)
    if found.data.get("id") != level_id:
        return _problem(422, "/id", f"is {found.data.get('id')!r}, not the {level_id!r} of the URL")
    return TaskResult(200, _dumps(found.data))
