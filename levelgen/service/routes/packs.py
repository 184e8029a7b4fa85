"""``/v1/packs``: start a pack job (202 with its URL), follow it, fetch its levels.

``POST /v1/packs`` takes the options of ``levelgen pack`` (``game``, ``count``, ``seed``,
``difficulty`` or ``ramp``, and the game's create options beside them, as ``POST /v1/levels``
takes them), checks them by planning the pack, and queues a durable job (see
:mod:`levelgen.service.jobs`) that records ``{game, count, seed, difficulty, ramp,
options}``.  ``GET /v1/packs/{id}`` gives its status and progress, then the manifest;
``GET /v1/packs/{id}/levels/{n}`` the level file ``n`` (1-based, play order; a ramped pack's
once it is done) as the bytes the manifest's SHA-256 is of; ``DELETE /v1/packs/{id}`` cancels
a job (the levels made are kept).  ``time_limit`` bounds each level's making (the server's
maximum by default)."""

from __future__ import annotations

import secrets
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field

from ...formats import MAX_SEED
from ...puzzles import DEFAULT_GAME
from .. import jobs
from ..deps import client_of, in_thread, require_key, settings_of, store_of
from ..problems import ProblemError, problem_responses

router = APIRouter(prefix="/v1/packs", tags=["packs"])

JOB_ID = r"^[0-9a-f]{32}$"


class PackRequest(BaseModel):
    """The options of ``levelgen pack``: the game, the count, the seed, one difficulty or a
    ramp of bands, and the game's own create options beside them (as ``POST /v1/levels``
    takes them; a layout as its rows, never a file path)."""

    model_config = ConfigDict(
        extra="allow",
        strict=True,
        json_schema_extra={
            "additionalProperties": True,
            "examples": [
                {"count": 12, "size": "8x6:12x8", "ramp": "easy:hard", "seed": 7},
                {"game": "sliding-puzzle", "count": 10, "ramp": "easy:hard", "seed": 2},
                {"count": 5, "size": "12x8", "difficulty": "medium"},
                {"count": 6, "size": "12x8", "slide_cycle": "none,down,left", "seed": 3},
            ],
        },
    )

    game: str = Field(
        default=DEFAULT_GAME,
        max_length=64,
        description=f"The game of the levels (`{DEFAULT_GAME}` when absent); its create"
        " options go beside the fields below, as `POST /v1/levels` takes them (a family may"
        " take ranges there, such as a size ramp `8x6:18x10`).",
    )
    count: int = Field(description="Levels in the pack (at most the server's pack limit).")
    seed: int | None = Field(default=None, description="0 .. 2^53-1; drawn when absent.")
    difficulty: str | None = Field(
        default=None, max_length=32, description="One target for every level (a band)."
    )
    ramp: str | None = Field(
        default=None,
        max_length=32,
        description="A band ramp such as easy:expert; the pack is played in the order of its"
        " levels' scores.",
    )
    options: dict[str, Any] | None = Field(
        default=None,
        description="The game's create options, as an object (the same as giving them beside"
        " the fields above).",
    )
    time_limit: float | None = Field(
        default=None,
        gt=0,
        description="Seconds each level may take (default and most: the server's maximum);"
        " a level not made by then fails the job.",
    )


class PackJob(BaseModel):
    """A pack job: ``queued``, ``running`` (``done`` of ``count`` levels made), ``done`` (with
    the manifest), ``failed`` (with the reason) or ``cancelled`` (the levels made are kept)."""

    id: str
    status: str = Field(examples=["running"])
    count: int
    done: int
    error: str | None
    pack_id: str | None
    request: dict[str, Any]
    manifest: dict[str, Any] | None
    url: str
    levels_url: str


def _pack_request(body: bytes) -> PackRequest:
    """The body read as strictly as files (duplicate keys, NaN, nesting: 400) and typed
    strictly (422 naming the field); the game's options are its extra fields."""
    from fastapi.exceptions import RequestValidationError
    from pydantic import ValidationError

    from ..tasks import TaskResult, _parse_body

    value = _parse_body(body, "pack options object")
    if isinstance(value, TaskResult):
        raise ProblemError(value.status, value.detail, pointer=value.pointer)
    try:
        return PackRequest.model_validate(value)
    except ValidationError as exc:
        errors = [{**e, "loc": ("body", *e["loc"])} for e in exc.errors()]
        raise RequestValidationError(errors) from None


def _with_time_limit(values: dict[str, Any], request: PackRequest, most: float) -> dict[str, Any]:
    """``values`` with the request's time limit per level (capped by ``most``), if it gives
    one (the runner applies the server's maximum otherwise)."""
    if request.time_limit is not None:
        values["time_limit"] = min(request.time_limit, most)
    return values


def _check(request: PackRequest, max_side: int, max_levels: int) -> dict[str, Any]:
    """The job request of ``request`` (``{game, count, seed, difficulty, ramp, options}``) with
    every option checked by planning the pack; ``ProblemError`` (422, the pointer of the
    option) otherwise."""
    from ...pack.plan import PlanError, plan_family_pack

    if not 1 <= request.count <= max_levels:
        raise ProblemError(422, f"/count: expected 1..{max_levels} levels", pointer="/count")
    if request.seed is not None and not 0 <= request.seed <= MAX_SEED:
        raise ProblemError(422, f"/seed: expected 0..{MAX_SEED}", pointer="/seed")
    nested = dict(request.options or {})
    beside = dict(request.model_extra or {})
    lines = _lines_options(request.game)
    options = {k: _lines(v) if k in lines else v for k, v in {**nested, **beside}.items()}
    seed = request.seed if request.seed is not None else secrets.randbelow(MAX_SEED + 1)
    try:
        plan = plan_family_pack(
            request.game, request.count, seed, options, request.difficulty, request.ramp
        )
    except PlanError as exc:
        name = exc.option
        where = f"/options/{name}" if name in nested and name not in beside else f"/{name}"
        raise ProblemError(422, f"{where}: {exc.reason}", pointer=where) from None
    for job in plan.jobs:
        sides = _sides(job.size)
        if sides is not None and max(sides) > max_side:
            reason = f"{job.size} is larger than this service's {max_side}x{max_side}"
            raise ProblemError(422, f"/size: {reason}", pointer="/size")
    return {
        "game": request.game,
        "count": request.count,
        "seed": seed,
        "difficulty": request.difficulty,
        "ramp": request.ramp,
        "options": options,
    }


def _lines_options(game: str) -> set[str]:
    """The game's options given as lines (a list of strings over HTTP); none for an unknown
    game (planning names it)."""
    from ...puzzles import FamilyError, OptionKind, family

    try:
        item = family(game)
    except FamilyError:
        return set()
    return {o.name for o in item.create_options if o.kind is OptionKind.LINES}


def _lines(value: Any) -> Any:
    """A list of strings is a lines option's text (a layout's rows, a newline after each)."""
    if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        return "".join(f"{row}\n" for row in value)
    return value


def _sides(size: str | None) -> tuple[int, int] | None:
    """``(W, H)`` of a ``WxH`` size option, None for another value."""
    width, sep, height = (size or "").partition("x")
    if not sep or not width.isdigit() or not height.isdigit():
        return None
    return int(width), int(height)


@router.post(
    "",
    status_code=202,
    summary="Start a pack job",
    description="The options of `levelgen pack`.  Answers 202 with the job and its URL"
    " (`Location`); follow it with `GET /v1/packs/{id}`.  Needs the API key when one is"
    " configured; a client may have a few jobs queued or running at once (429 beyond).",
    response_model=PackJob,
    dependencies=[Depends(require_key)],
    responses=problem_responses(400, 401, 413, 422, 429, 503),
    openapi_extra={
        "requestBody": {
            "required": True,
            "content": {
                "application/json": {"schema": {"$ref": "#/components/schemas/PackRequest"}}
            },
        }
    },
)
async def start_pack(request: Request) -> JSONResponse:
    body = _pack_request(await request.body())
    settings = settings_of(request)
    values = await in_thread(_check, body, settings.max_side, settings.max_pack_levels)
    values = _with_time_limit(values, body, settings.max_time_limit)
    store = store_of(request)
    try:
        job_id = await in_thread(
            jobs.add_job,
            store,
            client_of(request),
            values,
            values["count"],
            settings.max_jobs_per_client,
        )
    except jobs.TooManyJobs as exc:
        retry = {"Retry-After": str(settings.retry_after)}
        raise ProblemError(429, str(exc), headers=retry) from None
    request.app.state.runner.wake.set()
    data = await in_thread(jobs.get_job, store, job_id)
    return JSONResponse(data, status_code=202, headers={"Location": f"/v1/packs/{job_id}"})


@router.get(
    "/{job_id}",
    summary="A pack job: status, progress, then the manifest",
    response_model=PackJob,
    responses=problem_responses(404, 422, 503),
)
async def get_pack(
    request: Request, job_id: Annotated[str, Path(pattern=JOB_ID)]
) -> dict[str, Any]:
    data: dict[str, Any] | None = await in_thread(jobs.get_job, store_of(request), job_id)
    if data is None:
        raise ProblemError(404, f"no pack job {job_id}", parameter="job_id")
    return data


@router.delete(
    "/{job_id}",
    summary="Cancel a pack job",
    description="Stops a queued or running job: its work stops, the levels made so far are"
    " kept (`GET …/levels/{n}`, and in the library), no manifest is made.  Answers the job,"
    " `cancelled`; again for a job already cancelled; 409 for a job that is done or failed."
    "  Needs the API key when one is configured.",
    response_model=PackJob,
    dependencies=[Depends(require_key)],
    responses=problem_responses(401, 404, 409, 422, 503),
)
async def cancel_pack(
    request: Request, job_id: Annotated[str, Path(pattern=JOB_ID)]
) -> dict[str, Any]:
    data: dict[str, Any] | None = await in_thread(jobs.cancel_job, store_of(request), job_id)
    if data is None:
        raise ProblemError(404, f"no pack job {job_id}", parameter="job_id")
    if data["status"] != "cancelled":
        raise ProblemError(
            409,
            f"pack job {job_id} is {data['status']}: only a queued or running job can be cancelled",
            parameter="job_id",
        )
    request.app.state.runner.cancel(job_id)
    return data


@router.get(
    "/{job_id}/levels/{n}",
    summary="Level n of a pack (1-based, play order)",
    description="The level file's bytes, as listed (with their SHA-256) in the manifest.",
    response_class=Response,
    responses={
        200: {
            "description": "The level file",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/LevelFile"}}},
        },
        **problem_responses(404, 422, 503),
    },
)
async def get_pack_level(
    request: Request,
    job_id: Annotated[str, Path(pattern=JOB_ID)],
    n: Annotated[int, Path(ge=1, le=100_000)],
) -> Response:
    store = store_of(request)
    data = await in_thread(jobs.get_job, store, job_id)
    if data is None:
        raise ProblemError(404, f"no pack job {job_id}", parameter="job_id")
    if n > data["count"]:
        raise ProblemError(404, f"the pack has {data['count']} levels", parameter="n")
    index = await in_thread(_plan_index, data, n - 1)
    text = None if index is None else await in_thread(jobs.pack_level_text, store, job_id, index)
    if text is None:
        detail = f"level {n} is not made yet ({data['done']} of {data['count']} done)"
        if data["status"] == "failed":
            detail = f"level {n} was not made: the job failed: {data['error']}"
        elif data["status"] == "cancelled":
            detail = f"level {n} was not made: the job was cancelled"
        elif index is None:
            detail = f"level {n} of a ramped pack is known when the pack is done"
        raise ProblemError(404, detail, parameter="n")
    return Response(text.encode("utf-8"), media_type="application/json")


def _plan_index(job: dict[str, Any], place: int) -> int | None:
    """The plan index of the level at ``place`` in play order: the same for a pack without a
    ramp; for a ramped one, the level of the manifest's seed at that place (None until the
    job is done: the order follows the levels' scores)."""
    from ...pack.plan import plan_request

    request = job["request"]
    if request.get("ramp") is None:
        return place
    manifest = job.get("manifest")
    if manifest is None:
        return None
    seed = manifest["levels"][place]["seed"]
    earlier = sum(1 for entry in manifest["levels"][:place] if entry["seed"] == seed)
    found = [j.index for j in plan_request(request).jobs if j.seed == seed]
    return found[earlier] if earlier < len(found) else None
