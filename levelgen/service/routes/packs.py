"""``/v1/packs``: start a pack job (202 with its URL), follow it, fetch its levels.

``POST /v1/packs`` takes the options of ``levelgen pack`` (``count``, ``size``: one size, a
list ``8x6,12x8`` or a ramp ``8x6:18x10``, ``difficulty`` or ``ramp``, rules, ``layout``,
``seed``), checks them by planning the pack, and queues a durable job (see
:mod:`levelgen.service.jobs`).  ``GET /v1/packs/{id}`` gives its status and progress, then the
manifest; ``GET /v1/packs/{id}/levels/{n}`` the level file ``n`` (1-based, play order) as the
bytes the manifest's SHA-256 is of; ``DELETE /v1/packs/{id}`` cancels a job (the levels made
are kept).  ``time_limit`` bounds each level's making (the server's maximum by default)."""

from __future__ import annotations

import secrets
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field

from ...formats import MAX_SEED
from .. import jobs
from ..deps import client_of, in_thread, require_key, settings_of, store_of
from ..problems import ProblemError, problem_responses

router = APIRouter(prefix="/v1/packs", tags=["packs"])

JOB_ID = r"^[0-9a-f]{32}$"
_OPTIONS = {
    "--count",
    "--size",
    "--difficulty",
    "--ramp",
    "--layout",
    "--max-turns",
    "--seed",
    "--slide-cycle",
    "--symmetry",
}


class PackRequest(BaseModel):
    """The options of ``levelgen pack`` (the layout as its rows, never a file path)."""

    model_config = ConfigDict(
        extra="forbid",
        strict=True,
        json_schema_extra={
            "examples": [
                {"count": 12, "size": "8x6:12x8", "ramp": "easy:hard", "seed": 7},
                {"game": "sliding-puzzle", "count": 10, "ramp": "easy:hard", "seed": 2},
                {"count": 5, "size": "12x8", "difficulty": "medium"},
                {"count": 6, "size": "12x8", "slide_cycle": "none,down,left", "seed": 3},
            ]
        },
    )

    game: str = Field(
        default="linkup",
        max_length=64,
        description="The game of the levels: `linkup` (the options below) or another, whose"
        " create options go in `options` (with `size`, `difficulty` or `ramp`).",
    )
    count: int = Field(description="Levels in the pack (at most the server's pack limit).")
    size: str | None = Field(
        default=None, max_length=200, description="12x8, a list 8x6,12x8, or a ramp 8x6:18x10."
    )
    seed: int | None = Field(default=None, description="0 .. 2^53-1; drawn when absent.")
    difficulty: str | None = Field(default=None, max_length=32, description="A band or score.")
    ramp: str | None = Field(default=None, max_length=32, description="e.g. easy:expert.")
    max_turns: int = Field(default=2, description="Most turns a linking path may make (0..8).")
    outside: bool = Field(default=True, description="Whether paths may use the ring around.")
    layout: list[str] | None = Field(
        default=None, min_length=1, max_length=64, description="Layout rows."
    )
    slide_cycle: str | None = Field(
        default=None,
        max_length=200,
        description="Sliding rules given to the levels in turn, e.g. none,down,up (no"
        " difficulty or ramp with a sliding rule).",
    )
    symmetry: str | None = Field(
        default=None,
        max_length=16,
        description="Symmetric levels: mirror, rotate or both (no difficulty or ramp then).",
    )
    options: dict[str, Any] | None = Field(
        default=None,
        description='Another game\'s create options for every level (e.g. `{"moves": 30}`).',
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
    strictly (422 naming the field)."""
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
    """The job request of ``request`` with every option checked by planning the pack;
    ``ProblemError`` (422, the pointer of the option) otherwise."""
    from ...linkup import GenerationError, format_layout, parse_layout
    from ...pack.plan import PlanError
    from ..runner import plan_of

    if not 1 <= request.count <= max_levels:
        raise ProblemError(422, f"/count: expected 1..{max_levels} levels", pointer="/count")
    if request.seed is not None and not 0 <= request.seed <= MAX_SEED:
        raise ProblemError(422, f"/seed: expected 0..{MAX_SEED}", pointer="/seed")
    if request.game != "linkup":
        return _check_family(request)
    if request.options is not None:
        raise ProblemError(422, "/options: Link-up takes its own fields", pointer="/options")
    if not 0 <= request.max_turns <= 8:
        raise ProblemError(422, "/max_turns: expected 0..8", pointer="/max_turns")
    rows = size = None
    if request.layout is not None:
        try:
            template = parse_layout("".join(row + "\n" for row in request.layout))
        except GenerationError as exc:
            raise ProblemError(422, f"/layout: {exc}", pointer="/layout") from None
        rows = format_layout(template).splitlines()
        size = f"{template.width}x{template.height}"
    values: dict[str, Any] = {
        "count": request.count,
        "sizes": request.size or size or "12x8",
        "seed": request.seed if request.seed is not None else secrets.randbelow(MAX_SEED + 1),
        "difficulty": request.difficulty,
        "ramp": request.ramp,
        "max_turns": request.max_turns,
        "outside": request.outside,
        "layout": rows,
    }
    if request.slide_cycle is not None:  # absent from older stored requests: read with .get
        values["slide_cycle"] = request.slide_cycle
    if request.symmetry is not None:
        values["symmetry"] = request.symmetry
    try:
        plan = plan_of(values)
    except PlanError as exc:
        option, _, reason = str(exc).partition(": ")
        field = option.removeprefix("--").replace("-", "_") if option in _OPTIONS else ""
        field = "size" if field == "sizes" else field
        pointer = f"/{field}" if field else ""
        detail = f"{pointer}: {reason}" if pointer else str(exc)
        raise ProblemError(422, detail, pointer=pointer) from None
    for job in plan.jobs:
        width, height = (int(v) for v in job.size.split("x"))
        if max(width, height) > max_side:
            reason = f"{job.size} is larger than this service's {max_side}x{max_side}"
            raise ProblemError(422, f"/size: {reason}", pointer="/size")
    return values


def _check_family(request: PackRequest) -> dict[str, Any]:
    """The job request of a pack of another game than Link-up, checked by planning it."""
    from ...pack.plan import PlanError
    from ..runner import plan_of

    linkup_only = {
        "layout": request.layout,
        "slide_cycle": request.slide_cycle,
        "symmetry": request.symmetry,
    }
    for name, value in linkup_only.items():
        if value is not None:
            raise ProblemError(422, f"/{name}: a Link-up option", pointer=f"/{name}")
    options = dict(request.options or {})
    if request.size is not None:
        options["size"] = request.size
    values: dict[str, Any] = {
        "game": request.game,
        "count": request.count,
        "seed": request.seed if request.seed is not None else secrets.randbelow(MAX_SEED + 1),
        "difficulty": request.difficulty,
        "ramp": request.ramp,
        "options": options,
    }
    try:
        plan_of(values)
    except PlanError as exc:
        option, _, reason = str(exc).partition(": ")
        name = option.removeprefix("--").replace("-", "_")
        pointer = f"/{name}" if name in {"game", "count", "difficulty", "ramp"} else "/options"
        if pointer == "/options" and name:
            pointer = f"/options/{name}"
        raise ProblemError(422, f"{pointer}: {reason}", pointer=pointer) from None
    return values


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
    text = await in_thread(jobs.pack_level_text, store, job_id, n - 1)
    if text is None:
        detail = f"level {n} is not made yet ({data['done']} of {data['count']} done)"
        if data["status"] == "failed":
            detail = f"level {n} was not made: the job failed: {data['error']}"
        elif data["status"] == "cancelled":
            detail = f"level {n} was not made: the job was cancelled"
        raise ProblemError(404, detail, parameter="n")
    return Response(text.encode("utf-8"), media_type="application/json")
